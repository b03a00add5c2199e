"""The tournament page in a real browser: three simulated boards recorded at once into one
archive, each shown small with its players; after every round of moves each small board
equals its own game in the archive and its own board's LEDs. One board is unplugged and
plugged back mid-game: it finds its game again, and no move of one board is ever stored
under another's game."""
import pytest
import os
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from yariboard.play.boards import SimTable
from yariboard.play.clocks import GameClock, TimeControl, format_seconds
from yariboard.records.archive import Archive
from yariboard.ui.web.feed import LiveFeed
from yariboard.ui.web.publish import LiveBoard
from yariboard.ui.web.server import WebServer
from tests.ui.web.browser import READ_BOARD, FakeTime, expected_board

pytestmark = [pytest.mark.micropython, pytest.mark.external]

BOARDS = ("1", "2", "3")
ROUNDS = 5
PAGE_WAIT_S = 20
MOVE_WAIT_S = 120
SCREENSHOTS = os.environ.get("YARIBOARD_SCREENSHOTS")


def mini(name):
    return 'a.mini[data-board="%s"]' % name


def shown(driver, name):
    state = driver.execute_script(READ_BOARD, mini(name))
    for part in ("name", "clock"):
        state[part + "s"] = driver.execute_script(
            "return [...document.querySelectorAll(arguments[0] + ' .side .' + arguments[1])]"
            ".map((el) => el.textContent)", mini(name), part)
    return state


def test_three_boards_at_once_each_its_own_game(tmp_path, browser):
    db = str(tmp_path / "games.sqlite3")
    feed = LiveFeed()
    with Archive(db) as archive, WebServer(feed, db, port=0) as server:
        fake = FakeTime()
        clocks = {name: GameClock(TimeControl(main=600), now=fake) for name in BOARDS}
        tables = [SimTable(name, archive, levels=(2, 1), seed=10 + index, clock=clocks[name])
                  for index, name in enumerate(BOARDS)]
        lives = {table.name: LiveBoard(feed, table.name) for table in tables}
        try:
            for table in tables:
                while table.recorder.position is None:
                    table.step(0.02)
                lives[table.name].update(table.session, table.leds(), table.phase())
            browser.get(server.url)
            for ply in range(1, ROUNDS + 1):
                if ply == 3:
                    tables[1].rig.unplug()
                for table in tables:
                    if table.rig.plugged:
                        _play_until(table, ply)
                if ply == 3:
                    tables[1].rig.replug()
                    _play_until(tables[1], ply)
                fake.now += 11
                for table in tables:
                    lives[table.name].update(table.session, table.leds(), table.phase())
                for table in tables:
                    record = archive.game(table.recorder.game_id)
                    expected = expected_board(record)
                    expected["leds"] = table.leds()
                    expected["names"] = ["☗ " + table.names[0], "☖ " + table.names[1]][::-1]
                    expected["clocks"] = [format_seconds(clocks[table.name].remaining(side)[0])
                                          for side in (1, 0)]
                    try:
                        WebDriverWait(browser, PAGE_WAIT_S, poll_frequency=0.1).until(
                            lambda driver: shown(driver, table.name) == expected)
                    except Exception:
                        assert shown(browser, table.name) == expected
            if SCREENSHOTS:
                browser.save_screenshot(os.path.join(SCREENSHOTS, "tournament.png"))
            games = [archive.game(table.recorder.game_id) for table in tables]
            assert len({game.id for game in games}) == 3
            for table, game in zip(tables, games):
                assert game.usi_moves() == table.played
            assert tables[1].rig.unplugs == 1 and tables[1].link.connections == 2

            browser.find_element(By.CSS_SELECTOR, mini("2")).click()
            WebDriverWait(browser, PAGE_WAIT_S).until(
                lambda driver: driver.execute_script(
                    "const m = document.querySelector('main.live');"
                    "return m && m.dataset.ply !== undefined ? Number(m.dataset.ply) : -1")
                == len(games[1].moves))
            assert browser.current_url == server.url + "board/2"
            assert browser.execute_script(READ_BOARD, "main.live")["pieces"] == \
                expected_board(games[1])["pieces"]
        finally:
            for table in tables:
                table.close()


def _play_until(table, ply):
    deadline = time.monotonic() + MOVE_WAIT_S
    while table.recorder.stored_count() < ply or table.pending:
        assert time.monotonic() < deadline, "board %s made no move %d" % (table.name, ply)
        table.step(0.02)
