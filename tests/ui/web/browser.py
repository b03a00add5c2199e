"""Debian's chromium, headless, driven by Selenium through Debian's chromedriver."""
import shutil
import tempfile

import pytest

from shogicore.position import Position
from shogicore.variants import variant_by_name
from yariboard.ui.web.snapshot import role

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1200,1000")


def chromium():
    """A new headless chromium with a fresh profile; quit() it when done. Fails (never
    skips) without Debian's chromium and chromium-driver: .ci/run installs them."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    for program in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(program):
            pytest.fail("%s is missing: apt-get install chromium chromium-driver" % program)
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.TemporaryDirectory(prefix="yariboard-chromium-")
    options.add_argument("--user-data-dir=" + profile.name)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.profile = profile       # removed with the driver's object
    return driver


# What the page's board shows, read from the DOM the board component made: every piece on
# the board by square, and the count of every piece in each hand; all null while the page has
# not drawn the board yet (a busy machine's page may still be loading when it is first read).
READ_BOARD = """
const host = document.querySelector(arguments[0] + ' .sg-host');
if (!host) return {pieces: null, hands: null, leds: null};
const pieces = {};
for (const el of host.querySelectorAll('sg-pieces piece')) {
  const [colour, role] = el.className.split(' ');
  pieces[el.sgKey] = colour + ' ' + role;
}
const hands = {};
for (const side of ['black', 'white']) {
  hands[side] = {};
  for (const wrap of host.querySelectorAll('.hand-' + side + ' sg-hp-wrap')) {
    const n = Number(wrap.dataset.nb || 0);
    if (n) hands[side][wrap.firstElementChild.sgRole] = n;
  }
}
const leds = {};
for (const sq of host.querySelectorAll('sg-squares sq')) {
  const led = [...sq.classList].find((c) => c.startsWith('led-'));
  if (led) leds[sq.sgKey] = led.slice(4);
}
return {pieces: pieces, hands: hands, leds: leds};
"""


def expected_board(record, plies=None):
    """The archive's game (its first `plies` moves) replayed by the rules core, as the page
    should show it: the pieces by square, the hands by side. Written from the SFEN text
    here, not by the page's board component."""
    variant = variant_by_name(record.variant)
    position = Position(variant, record.start_sfen)
    for usi in record.usi_moves()[:plies]:
        position.push_usi(usi)
    board, _, hands = position.sfen().split()[:3]
    pieces = {}
    rank = 1
    for row in board.split("/"):
        file = variant.files
        index = 0
        while index < len(row):
            if row[index].isdigit():
                digits = row[index]
                if index + 1 < len(row) and row[index + 1].isdigit():
                    index += 1
                    digits += row[index]
                file -= int(digits)
            else:
                symbol = row[index]
                if symbol == "+":
                    index += 1
                    symbol += row[index]
                colour = "sente" if symbol[-1].isupper() else "gote"
                pieces["%d%s" % (file, chr(96 + rank))] = colour + " " + role(symbol)
                file -= 1
            index += 1
        rank += 1
    hand = {"black": {}, "white": {}}
    count = ""
    for char in "" if hands == "-" else hands:
        if char.isdigit():
            count += char
            continue
        side = "black" if char.isupper() else "white"
        hand[side][role(char)] = int(count or 1)
        count = ""
    return {"pieces": pieces, "hands": hand}


class FakeTime:
    """The clocks' time, moved on by the test only: the clocks cannot depend on speed."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now
