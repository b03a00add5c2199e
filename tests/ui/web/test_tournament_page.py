"""The tournament page in a real browser: three simulated boards recorded at once into one
archive, each shown small with its players; after every round of moves each small board
equals its own game in the archive and its own board's LEDs. One board is unplugged and
plugged back mid-game: it finds its game again, and no move of one board is ever stored
under another's game. A board found on the serial ports and plugged back on another port is
shown in its own tile still, known by its USB serial number."""
import os
import random
import time

import pytest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from yariboard.play.boards import SimTable
from yariboard.play.clocks import GameClock, TimeControl, format_seconds
from yariboard.records.archive import Archive
from yariboard.ui.web.feed import LiveFeed
from yariboard.ui.web.publish import LiveBoard
from yariboard.sim.rig import SimRig
from yariboard.ui.spectators import Spectators
from yariboard.ui.web.server import WebServer
from tests.board.usb_ports import scan_finds, usb_port
from tests.cli.test_serve_boards import latest, perform_quiet_move, serving, wait_until
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


SERIALS = ("E6614103E7452D2F", "E66138935F2B6A2C")


def test_a_board_plugged_back_on_another_port_keeps_its_tile(tmp_path, browser, monkeypatch):
    """`serve` on the attached boards: two simulated boards are found as Picos by pyserial's
    port scan (each with its USB serial number); one is pulled out and comes back on another
    port. The tournament page keeps one tile per board, the replugged one with its game and
    its players."""
    rng = random.Random(3)
    db = str(tmp_path / "games.sqlite3")
    with SimRig(str(tmp_path / "a")) as first, SimRig(str(tmp_path / "b")) as second:
        rigs = dict(zip(SERIALS, (first, second)))
        hub = Hub(tmp_path / "dev")
        scan_finds(monkeypatch, lambda: [usb_port(hub.port(rig), serial)
                                         for serial, rig in rigs.items() if rig.plugged])
        spectators = Spectators(db, serve=True, port=0).start()
        try:
            with serving(db, spectators):
                played = {serial: [] for serial in SERIALS}
                for serial in SERIALS + SERIALS[:1]:
                    perform_quiet_move(spectators, rigs[serial], serial, played[serial], rng)
                game_id = latest(spectators, SERIALS[0])["game_id"]
                with Archive(db) as archive:
                    archive.set_players(game_id, "Aoki", "Brown")
                wait_until(lambda: latest(spectators, SERIALS[0])["black"] == "Aoki")
                browser.get(spectators.server.url)
                old_port = hub.port(first)
                first.unplug()
                wait_until(lambda: latest(spectators, SERIALS[0])["status"]
                           .startswith("pulled out"))
                first.replug()
                assert hub.port(first) != old_port
                perform_quiet_move(spectators, first, SERIALS[0], played[SERIALS[0]], rng)

                with Archive(db, readonly=True) as archive:
                    games = [archive.game(number) for number in archive.ids()]
                    assert len(games) == 2, [(game.board_game, game.usi_moves()) for game in games]
                    record = archive.game(game_id)              # its game, not a new one
                assert record.usi_moves() == played[SERIALS[0]]
                expected = expected_board(record)
                expected["leds"] = {}
                expected["names"] = ["☖ Brown", "☗ Aoki"]
                expected["clocks"] = ["", ""]

                def one_tile_each(driver):
                    tiles = driver.execute_script(
                        "return [...document.querySelectorAll('a.mini')]"
                        ".map((a) => a.dataset.board)")
                    return (sorted(tiles) == sorted(SERIALS)
                            and shown(driver, SERIALS[0]) == expected)

                try:
                    WebDriverWait(browser, PAGE_WAIT_S, poll_frequency=0.1).until(one_tile_each)
                except Exception:
                    assert shown(browser, SERIALS[0]) == expected
                    raise
                assert latest(spectators, SERIALS[0])["game_id"] == game_id
        finally:
            spectators.close()


class Hub:
    """The device names boards get as they are plugged in (ttyACM0, ttyACM1, ...), here each
    a link to the board's pseudo-terminal, so that a board plugged back is on another port
    even when its pseudo-terminal's number comes round again."""

    def __init__(self, folder):
        self.folder = folder
        folder.mkdir()
        self.given = {}              # (rig, times unplugged) -> device path

    def port(self, rig):
        key = (rig, rig.unplugs)
        if key not in self.given:
            path = self.folder / ("ttyACM%d" % len(self.given))
            path.symlink_to(rig.port)
            self.given[key] = str(path)
        return self.given[key]
