"""Debian's chromium, headless, driven by Selenium through Debian's chromedriver."""
import shutil
import tempfile

import pytest

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
# the board by square, and the count of every piece in each hand.
READ_BOARD = """
const host = document.querySelector(arguments[0] + ' .sg-host');
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
