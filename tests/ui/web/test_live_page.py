"""The live board page in a real browser: a simulated game is played through the board (the
firmware on the MicroPython unix port, engines ordering moves, scripted hands carrying them
out), and after each move the board the page drew, read from its DOM, equals the archive's
position replayed by the rules core; its LED overlay equals the board's LEDs; its clocks
equal the host's clock."""
import os
import time

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from yariboard.play.boards import SimTable
from yariboard.play.clocks import GameClock, TimeControl, format_seconds
from yariboard.records.archive import Archive
from yariboard.ui.web.feed import LiveFeed
from yariboard.ui.web.publish import LiveBoard
from yariboard.ui.web.server import WebServer
from yariboard.records.notation import to_hodges
from shogicore.position import Position
from shogicore.move import parse_usi
from shogicore.variants import variant_by_name
from tests.ui.wa_names import expected_written
from tests.ui.web.browser import READ_BOARD, FakeTime, expected_board

pytestmark = [pytest.mark.micropython, pytest.mark.external]

PAGE_WAIT_S = 20          # a busy machine is slow: the page may take this long, never longer
MOVE_WAIT_S = 120
SCREENSHOTS = os.environ.get("YARIBOARD_SCREENSHOTS")


def page_state(driver):
    state = driver.execute_script(READ_BOARD, "main.live")
    state["ply"] = int(driver.execute_script(
        "return Number(document.querySelector('main.live').dataset.ply || -1)"))
    state["clocks"] = driver.execute_script(
        "return ['black', 'white'].map((s) => document.querySelector("
        "'main.live .' + s + ' .clock').textContent)")
    return state


def open_live_page(browser, url):
    """Open the board's live page once the server process knows the board: the recording
    hands it the board's first snapshot up to a batch (25 ms) after the board starts, and
    until then the address is a page not found."""
    def live(driver):
        driver.get(url)
        return driver.execute_script("return document.querySelector('main.live') !== null")
    WebDriverWait(browser, PAGE_WAIT_S, poll_frequency=0.1).until(live)


def play_and_check(tmp_path, browser, board, plies, seed):
    """Play `plies` moves on a simulated `board`, checking the page after each one."""
    db = str(tmp_path / "games.sqlite3")
    feed = LiveFeed()
    fake = FakeTime()
    clock = GameClock(TimeControl(main=300, byoyomi=10), now=fake)
    with Archive(db) as archive, WebServer(feed, db, port=0) as server:
        table = SimTable("A", archive, seed=seed, board=board, clock=clock)
        live = LiveBoard(feed, "A")
        try:
            while table.recorder.position is None:
                table.step(0.02)
            live.update(table.session, table.leds(), table.phase())
            open_live_page(browser, server.url + "board/A")
            for ply in range(1, plies + 1):
                deadline = time.monotonic() + MOVE_WAIT_S
                while table.recorder.stored_count() < ply or table.pending:
                    assert time.monotonic() < deadline, "the engines made no move %d" % ply
                    table.step(0.02)
                fake.now += 7
                live.update(table.session, table.leds(), table.phase())
                record = archive.game(table.recorder.game_id)
                expected = expected_board(record)
                expected["leds"] = table.leds()
                expected["ply"] = len(record.moves)
                expected["clocks"] = [format_seconds(clock.remaining(side)[0]) for side in (0, 1)]
                assert expected["ply"] == ply

                def shown(driver):
                    return {key: value for key, value in page_state(driver).items()} == expected

                try:
                    WebDriverWait(browser, PAGE_WAIT_S, poll_frequency=0.1).until(shown)
                except Exception:
                    assert page_state(browser) == expected      # shows what differs
            if SCREENSHOTS:
                browser.save_screenshot(os.path.join(SCREENSHOTS, "live-%s.png" % board))
            return record
        finally:
            table.close()


def test_the_live_board_follows_a_yari_game_move_by_move(tmp_path, browser):
    record = play_and_check(tmp_path, browser, "yari-9x7", plies=12, seed=3)
    assert len(record.moves) == 12


@pytest.mark.parametrize("board", ["shogi-9x9", "wa-11x11"])
def test_the_live_board_draws_the_other_variants(tmp_path, browser, board):
    record = play_and_check(tmp_path, browser, board, plies=4, seed=5)
    assert record.variant == {"shogi-9x9": "shogi", "wa-11x11": "wa"}[board]


def test_the_live_move_list_names_wa_pieces_in_japanese(tmp_path, browser):
    record = play_and_check(tmp_path, browser, "wa-11x11", plies=10, seed=7)
    rows = browser.execute_script(
        "return [...document.querySelectorAll('main.live table.moves tbody tr')].map("
        "(tr) => [...tr.cells].map((td) => td.textContent))")
    assert rows == expected_move_list("wa", record.usi_moves())


def expected_move_list(variant_name, usi_moves):
    """The move list's rows, [number, Hodges, Japanese], as the tests' own table of Wa's
    names writes them."""
    position, previous, rows = Position(variant_by_name(variant_name)), None, []
    for usi in usi_moves:
        move = parse_usi(position.variant, usi)
        hodges = to_hodges(position, move)
        rows.append([str(len(rows) + 1), hodges, expected_written(usi, hodges, previous)])
        position.push(move)
        previous = usi
    return rows
