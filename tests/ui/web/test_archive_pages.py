"""The archive's pages in a real browser: the list with its search, a game stepped through
with the arrow keys and the buttons (the board read from the DOM equals the rules core's
replay at every ply), its stored analysis drawn, every format the archive writes
downloadable and read back to the same game, and a Wa game's moves listed with its pieces'
Japanese names."""
import os
import urllib.error
import urllib.request

import pytest
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from shogicore.move import to_usi
from shogicore.position import Position
from shogicore.variants import variant_by_name
from yariboard.engines.analysis import analyse
from yariboard.engines.base import Limit
from yariboard.engines.builtin.search import Engine
from yariboard.records import analysis, formats
from yariboard.records.archive import Archive
from yariboard.records.game import GameRecord, start_sfen_for
from yariboard.ui.web.feed import LiveFeed
from yariboard.ui.web.server import WebServer
from tests.ui.wa_names import hodges_piece, random_game
from tests.ui.web.browser import READ_BOARD, expected_board
from tests.ui.web.test_live_page import expected_move_list

pytestmark = [pytest.mark.external]

PAGE_WAIT_S = 20
SCREENSHOTS = os.environ.get("YARIBOARD_SCREENSHOTS")


def engine_game(variant, plies, seed, **headers):
    """A game the built-in engine plays against itself, as the archive stores it."""
    position = Position(variant_by_name(variant), start_sfen_for(variant))
    engine = Engine(level=1, seed=seed)
    moves = []
    for _ in range(plies):
        move = engine.search(position, Limit(nodes=300)).move
        moves.append(to_usi(position.variant, move))
        position.push(move)
    record = GameRecord(variant=variant, start_sfen=start_sfen_for(variant), **headers)
    return record, moves


@pytest.fixture
def archive_server(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    with Archive(db) as archive:
        ids = []
        for variant, plies, seed, headers in (
                ("yari", 14, 1, dict(black="Aoki", white="Brown", date="2026-11-01T10:00:00Z",
                                     winner="black", reason="resignation")),
                ("shogi", 6, 2, dict(black="Chen", white="Aoki", date="2026-11-20T18:30:00Z")),
                ("wa", 4, 3, dict(black="Dupont", white="Eto", date="2026-10-05T09:00:00Z",
                                  winner="white", reason="resignation"))):
            record, moves = engine_game(variant, plies, seed, **headers)
            game_id = archive.new_game(record)
            for ply, usi in enumerate(moves, 1):
                archive.add_move(game_id, ply, usi, "2026-11-01T10:%02d:00Z" % ply)
            ids.append(game_id)
        first = archive.game(ids[0])
        analysis.save(archive, ids[0], analyse(first, Engine(level=1, seed=1), "built-in",
                                               nodes=200))
    with WebServer(LiveFeed(), db, port=0) as server:
        yield server, db, ids


def listed(browser):
    return [int(a.text) for a in browser.find_elements(By.CSS_SELECTOR, "table.games td:first-child a")]


def test_the_archive_list_searches_by_player_date_variant_and_result(archive_server, browser):
    server, _, ids = archive_server
    browser.get(server.url + "archive")
    assert sorted(listed(browser)) == sorted(ids)
    for query, expected in (("player=aoki", [ids[0], ids[1]]), ("player=eto", [ids[2]]),
                            ("date=2026-11", [ids[0], ids[1]]), ("variant=shogi", [ids[1]]),
                            ("result=unfinished", [ids[1]]), ("result=white", [ids[2]]),
                            ("player=aoki&result=black", [ids[0]]), ("player=nobody", [])):
        browser.get(server.url + "archive?" + query)
        assert sorted(listed(browser)) == sorted(expected), query
    browser.get(server.url + "archive")
    if SCREENSHOTS:
        browser.save_screenshot(os.path.join(SCREENSHOTS, "archive.png"))
    browser.find_element(By.NAME, "player").send_keys("Chen")
    browser.find_element(By.CSS_SELECTOR, "form.search button").click()
    # the list read while the search's page replaces the old one can name gone elements
    WebDriverWait(browser, PAGE_WAIT_S, ignored_exceptions=(StaleElementReferenceException,)) \
        .until(lambda driver: listed(driver) == [ids[1]])


def test_a_game_steps_with_the_arrow_keys_and_shows_its_analysis(archive_server, browser):
    server, db, ids = archive_server
    with Archive(db, readonly=True) as archive:
        record = archive.game(ids[0])
        stored = analysis.load(archive, ids[0])
    browser.get(server.url + "game/%d" % ids[0])
    plies = len(record.moves)

    def board_at(ply):
        """The page's ply and board once it shows `ply` (the board redraws on the next
        frame), or as it is when it never does."""
        expected = dict(expected_board(record, ply), ply=ply)

        def shown(driver):
            state = driver.execute_script(READ_BOARD, "main.game")
            del state["leds"]
            state["ply"] = driver.execute_script(
                "return Number(document.querySelector('main.game').dataset.ply)")
            return state

        try:
            WebDriverWait(browser, PAGE_WAIT_S, poll_frequency=0.05).until(
                lambda driver: shown(driver) == expected)
        except TimeoutException:
            pass
        return shown(browser)

    def at(ply):
        return dict(expected_board(record, ply), ply=ply)

    assert board_at(plies) == at(plies)
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    assert board_at(0) == at(0)
    for ply in range(1, plies + 1):
        body.send_keys(Keys.ARROW_RIGHT)
        assert board_at(ply) == at(ply)
    body.send_keys(Keys.ARROW_RIGHT)                     # past the end: stays there
    assert board_at(plies) == at(plies)
    body.send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    assert board_at(plies - 2) == at(plies - 2)
    browser.find_element(By.CSS_SELECTOR, 'button[data-step="first"]').click()
    assert board_at(0) == at(0)
    browser.find_element(By.CSS_SELECTOR, 'button[data-step="next"]').click()
    assert board_at(1) == at(1)
    browser.find_element(By.CSS_SELECTOR, 'table.moves tr[data-ply="5"] td').click()
    assert board_at(5) == at(5)
    assert browser.find_element(By.CSS_SELECTOR, "table.moves tr.current").get_attribute(
        "data-ply") == "5"
    # the analysis: one point a ply on the graph, the score after ply 5 as stored
    assert browser.execute_script(
        "return document.querySelector('svg.graph').dataset.points") == str(len(stored.evaluations))
    score = next(e for e in stored.evaluations if e.ply == 5)
    expected_score = "%+.2f for Black" % (score.score / 100.0) if score.mate is None else None
    if expected_score:
        assert browser.find_element(By.CSS_SELECTOR, ".evaluation .score").text == expected_score
    if SCREENSHOTS:
        browser.save_screenshot(os.path.join(SCREENSHOTS, "game.png"))


@pytest.mark.parametrize("game,fmt", [(0, "pgn"), (0, "kif"), (0, "json"), (1, "pgn"),
                                      (1, "kif"), (1, "csa"), (1, "json"), (2, "pgn"), (2, "json")])
def test_every_format_downloads_and_reads_back_to_the_same_game(archive_server, game, fmt):
    server, db, ids = archive_server
    with Archive(db, readonly=True) as archive:
        record = archive.game(ids[game])
    with urllib.request.urlopen(server.url + "game/%d/download.%s" % (ids[game], fmt)) as reply:
        assert "attachment" in reply.headers["Content-Disposition"]
        text = reply.read().decode("utf-8")
    (back,) = formats.import_games(text, fmt)
    assert back.usi_moves() == record.usi_moves()
    assert (back.variant, back.black, back.white, back.winner, back.reason) == (
        record.variant, record.black, record.white, record.winner, record.reason)


def test_the_game_page_offers_only_the_formats_that_hold_its_variant(archive_server, browser):
    server, _, ids = archive_server
    offered = {}
    for game in range(3):
        browser.get(server.url + "game/%d" % ids[game])
        offered[game] = [a.text for a in browser.find_elements(By.CSS_SELECTOR, ".downloads a")]
    assert offered == {0: ["PGN", "KIF", "KI2", "JSON", "USI"],
                       1: ["PGN", "KIF", "KI2", "CSA", "JSON", "JKF", "USI"],
                       2: ["PGN", "JSON", "USI", "XBOARD"]}
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(server.url + "game/%d/download.csa" % ids[0])
    assert refused.value.code == 415
    assert b"CSA holds standard shogi only" in refused.value.read()


def test_renaming_the_players_on_the_page_needs_the_token(archive_server, browser):
    server, db, ids = archive_server
    browser.get(server.url + "game/%d" % ids[1])

    def rename(black, token):
        form = browser.find_element(By.CSS_SELECTOR, "form.players")
        for name, value in (("black", black), ("token", token)):
            field = form.find_element(By.NAME, name)
            field.clear()
            field.send_keys(value)
        browser.execute_script("arguments[0].querySelector('.answer').textContent = ''", form)
        form.find_element(By.TAG_NAME, "button").click()
        WebDriverWait(browser, PAGE_WAIT_S).until(
            lambda driver: form.find_element(By.CSS_SELECTOR, ".answer").text)
        return form.find_element(By.CSS_SELECTOR, ".answer").text

    assert rename("Mallory", "a guess") == "the token printed when the server started is needed"
    with Archive(db, readonly=True) as archive:
        assert archive.game(ids[1]).black == "Chen"
    assert rename("Chen Wei", server.token) == "players of game %d set" % ids[1]
    with Archive(db, readonly=True) as archive:
        assert (archive.game(ids[1]).black, archive.game(ids[1]).white) == ("Chen Wei", "Aoki")


def test_an_archived_wa_game_lists_its_moves_with_the_pieces_japanese_names(tmp_path, browser):
    plies = random_game("wa", seed=7)[:80]
    db = str(tmp_path / "games.sqlite3")
    with Archive(db) as archive:
        game_id = archive.new_game(GameRecord(variant="wa", start_sfen=start_sfen_for("wa"),
                                              date="2026-11-01T10:00:00Z"))
        for ply, (_, _, usi, _) in enumerate(plies, 1):
            archive.add_move(game_id, ply, usi, "2026-11-01T10:00:%02dZ" % (ply % 60))
    with WebServer(LiveFeed(), db, port=0) as server:
        browser.get(server.url + "game/%d" % game_id)
        rows = browser.execute_script(
            "return [...document.querySelectorAll('table.moves tbody tr')].map("
            "(tr) => [...tr.cells].map((td) => td.textContent))")
    usi_moves = [usi for _, _, usi, _ in plies]
    assert rows == expected_move_list("wa", usi_moves)
    kinds = {hodges_piece(hodges) for *_, hodges in plies}
    assert len(kinds) >= 12, kinds
    assert any(hodges.startswith("+") for *_, hodges in plies)      # a promoted piece moves
    assert any(hodges.endswith("+") for *_, hodges in plies)
    assert any("*" in hodges for *_, hodges in plies)
