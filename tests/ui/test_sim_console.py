"""`yariboard sim` at the keyboard: every command a person can type, on the real firmware
(MicroPython unix port, virtual clock), the archive in a real SQLite file.

Each typed move must be recorded exactly as typed (promotion choice, drop kind), every bad
input must come back as one line naming the problem, and the screen must say what the board
shows: the LED styles the interpreter lights and a status line that follows its phase.
"""
import json
import re
import time

import pytest
from rich.console import Console

from shogicore.game import Game
from shogicore.variants import WHITE
from yariboard.records.archive import Archive
from yariboard.engines.builtin.search import Engine
from yariboard.ui.console import SimConsole
from yariboard.ui.web.feed import LiveFeed
from yariboard.ui.web.publish import LiveBoard
from yariboard.sim.rig import SimRig

pytestmark = [pytest.mark.micropython]

PROMOTE_SFEN = "3k3/7/7/P6/7/7/7/7/3K3 b - 1"        # Black pawn 7d, 7c is in the zone
HAND_SFEN = "3k3/7/7/7/7/7/7/7/3K3 b RBNP 1"          # one of each hand kind
CHECK_SFEN = "3k3/7/7/7/3R3/7/7/7/3K3 w - 1"          # White's General on 4a in check


@pytest.fixture
def sim(tmp_path):
    archive = Archive(str(tmp_path / "games.sqlite3"))
    console = Console(width=80, record=True, color_system=None)
    with SimRig(str(tmp_path / "flash"), clock="virtual", log_dir=str(tmp_path)) as rig:
        console_sim = SimConsole(rig, archive, console)
        console_sim.pump(0.2)
        yield console_sim
        assert "Traceback" not in rig.board.stderr_text()
    archive.close()


def screen(sim):
    """The text of the screen `show` prints now."""
    sim.console.export_text()          # forget what was printed before
    sim.show()
    return sim.console.export_text()


def status(sim):
    return [line for line in screen(sim).splitlines() if "status:" in line][0]


def recorded(sim):
    return sim.recorder.record().usi_moves()


def run(sim, *lines):
    for line in lines:
        assert sim.execute(line) is True, line


def test_button_a_with_nothing_pending_and_no_engine_lights_a_hint(sim):
    run(sim, "tap A")
    for _ in range(10):
        sim.pump(0.05)
    run(sim, "wait 50")
    styles = sim.rig.led_styles()
    assert sorted(styles.values()) == ["hint-from", "hint-to"]
    text = status(sim)
    assert "hint: " in text and "Black to move" in text
    hinted = [sq for sq, style in styles.items() if style == "hint-from"][0]
    assert hinted in screen(sim)


def test_a_typed_move_is_recorded_exactly_with_its_promotion_choice(sim):
    run(sim, "sfen " + PROMOTE_SFEN, "move 7d7c")
    assert recorded(sim) == ["7d7c"]
    run(sim, "move 4a4b", "move 7c7b+")
    assert recorded(sim) == ["7d7c", "4a4b", "7c7b+"]
    assert sim.recorder.position.sfen() == _replayed(PROMOTE_SFEN, recorded(sim))
    run(sim, "move 4b4a", "takeback", "takeback")
    assert recorded(sim) == ["7d7c", "4a4b"]
    run(sim, "move 7c7b")                    # and declined the second time
    assert recorded(sim)[-1] == "7c7b"


def test_an_sfen_without_its_move_number_sets_up_the_position(sim):
    run(sim, "sfen " + PROMOTE_SFEN.rsplit(" ", 1)[0], "move 7d7c")
    assert recorded(sim) == ["7d7c"]
    assert sim.recorder.position.sfen() == _replayed(PROMOTE_SFEN, ["7d7c"])


def test_a_typed_drop_is_recorded_with_its_piece(sim):
    for usi in ("N*7e", "R*5e", "P*2e", "B*1e"):
        run(sim, "sfen " + HAND_SFEN, "move " + usi)
        assert recorded(sim) == [usi]
        assert "choice" not in status(sim)
        run(sim, "move 4a4b")                # the next command works: nothing is pending
        assert recorded(sim) == [usi, "4a4b"]


def _replayed(sfen, moves):
    game = Game("yari", sfen)
    for usi in moves:
        game.play_usi(usi)
    return game.position.sfen()


BAD_INPUT = [
    ("move", "unknown command"), ("move 7g7e", "not legal"), ("move zz", "USI"),
    ("move P*9z", "USI"), ("lift 9z", "squares are"), ("place", "unknown command"),
    ("press C", "unknown command"), ("tap", "unknown command"), ("wait soon", "unknown command"),
    ("sfen a b c d", "bad SFEN"), ("sfen 9/9/9/9/9/9/9/9/9 b - 1", "bad SFEN"),
    ("sfen garbage", "needs 3 or 4 fields"), ("sfen 3k3/7/7/7/7/7/7/7/3K3 b R 1 x", "got 5"),
    ("new chess", "valid variants: yari, shogi"),
    ("new yari queen", "valid handicaps: bishop, four-pieces, rook, six-pieces, two-pieces"),
    ("new yari - blitz", "valid modes: casual, tournament"),
    ("new shogi", "this board plays yari"),
    ("replay 999", "no game 999"), ("replay last", "game number"),
    ("takeback", "no move to take back"), ("draw", "no draw by agreement"),
    ("frobnicate", "unknown command"),
]


@pytest.mark.parametrize("line, reason", BAD_INPUT)
def test_bad_input_is_one_line_naming_the_problem_and_changes_nothing(sim, line, reason):
    before = sim.recorder.position.sfen()
    with pytest.raises(ValueError) as caught:
        sim.execute(line)
    message = str(caught.value)
    assert reason in message and "\n" not in message
    assert sim.recorder.position.sfen() == before and recorded(sim) == []


def test_the_status_follows_the_phase_never_a_stale_message(sim):
    run(sim, "sfen " + PROMOTE_SFEN, "lift 7d", "wait 60", "place 7c", "wait 400")
    assert sim.rig.phase() == "choice"
    assert "choice on 7c: promote" in status(sim)
    run(sim, "tap B", "wait 50")
    assert "choice on 7c: do not promote" in status(sim)
    run(sim, "tap A", "wait 50")
    assert recorded(sim) == ["7d7c"] and "choice" not in status(sim)
    run(sim, "move 4a4b", "move 7c7b")
    assert "choice" not in screen(sim)
    # a hint stays only while it is lit: a take-back clears it on the board and on screen
    run(sim, "hint", "wait 50")
    assert "hint: " in status(sim)
    run(sim, "takeback", "wait 50")
    assert "hint" not in screen(sim).split("LEDs:")[1]


def test_a_resigned_general_is_the_loser_not_in_check(sim):
    run(sim, "sfen " + CHECK_SFEN, "wait 50")
    assert "White to move, in check" in status(sim)
    assert sim.rig.led_styles()["4a"] == "check"
    run(sim, "resign", "wait 50")
    assert sim.rig.led_styles() == {"4a": "loser", "4i": "winner"}
    text = screen(sim)
    assert "in check" not in text and "Black wins (resignation)" in text
    assert "game over: the loser's General: 4a" in text


def test_an_ordered_move_is_drawn_from_and_to_whatever_the_blink(sim):
    run(sim, "move 7g7f")
    sim.session.request("show", "3c3d")
    for step in range(8):                    # every eighth of the blink period
        run(sim, "wait 125")
        assert sim.rig.led_styles() == {"3c": "order-from", "3d": "order-to",
                                        "7g": "last-move", "7f": "last-move"}
        text = screen(sim)
        assert "put it here (blinks): 3d" in text and "take from here: 3c" in text


def test_the_screen_keeps_its_columns_at_80_characters(tmp_path):
    archive = Archive(str(tmp_path / "games.sqlite3"))
    console = Console(width=80, record=True, color_system=None)
    try:
        with SimRig(str(tmp_path / "flash"), board="shogi-9x9", clock="virtual",
                    log_dir=str(tmp_path)) as rig:
            sim = SimConsole(rig, archive, console)
            sim.pump(0.2)
            run(sim, "move 7g7f", "move 3c3d", "lift 8h", "wait 100")
            lines = screen(sim).splitlines()
    finally:
        archive.close()
    assert all(len(line) <= 80 for line in lines)
    header = [line for line in lines if line.split()[1:3] == ["9", "8"]][0]
    ranks = [line for line in lines if len(line.split()) > 1 and line.split()[1] in "abcdefghi"
             and len(line.split()[1]) == 1]
    assert len(ranks) == 9
    # every square of a rank ends in the column of its file number (mark right after it)
    columns = [header.index(str(file) + " ") for file in range(9, 0, -1)]
    row_i = [line for line in ranks if line.split()[1] == "i"][0]
    assert "".join(row_i[column] for column in columns) == "LNSGKGSNL"
    row_h = [line for line in ranks if line.split()[1] == "h"][0]
    assert row_h[columns[1]:columns[1] + 2] == "B^"     # the lifted Bishop on 8h
    assert "legal destination" in "\n".join(lines)


def test_while_the_engine_thinks_the_screen_shows_it_and_commands_are_served(tmp_path):
    archive = Archive(str(tmp_path / "games.sqlite3"))
    console = Console(width=80, record=True, color_system=None)
    try:
        with SimRig(str(tmp_path / "flash"), clock="virtual", log_dir=str(tmp_path)) as rig:
            sim = SimConsole(rig, archive, console, engines={WHITE: Engine(level=8)},
                             time_limit=3.0)
            sim.pump(0.2)
            run(sim, "move 7g7f")
            started = time.monotonic()
            seen = ""
            while time.monotonic() - started < 2.5:
                step = time.monotonic()
                run(sim, "show")                 # the keyboard is served meanwhile
                assert time.monotonic() - step < 1.0
                seen = screen(sim)
                if re.search(r"thinking \d+ s: depth \d+", seen):
                    break
            thinking = [line for line in seen.splitlines() if "engine thinking" in line][0]
            assert re.search(r"thinking \d+ s: depth \d+, \d+ nodes, best \S+-\S+, "
                             r"[+-]\d+\.\d\d for Black", thinking), thinking
            with pytest.raises(ValueError):
                sim.execute("takeback now")
            for _ in range(100):
                sim.pump(0.05)
                if "carry out the engine's move" in status(sim):
                    break
            assert "engine thinking" not in screen(sim)
            assert "carry out the engine's move" in status(sim)
    finally:
        archive.close()


def test_the_watch_of_serve_and_voice_sees_each_typed_move_with_the_boards_leds(tmp_path):
    """`sim --serve`: the console's steps reach the live page, which shows the archive's
    moves and the LEDs the board lights."""
    archive = Archive(str(tmp_path / "games.sqlite3"))
    console = Console(width=80, record=True, color_system=None)
    feed = LiveFeed()
    try:
        with SimRig(str(tmp_path / "flash"), clock="virtual", log_dir=str(tmp_path)) as rig:
            sim = SimConsole(rig, archive, console, watch=LiveBoard(feed, "1").update)
            sim.pump(0.2)
            run(sim, "move 7g7f", "move 3c3d", "lift 2g")
            sim.pump(0.1)
            snap = json.loads(feed.latest("1")[1])
            assert [row["usi"] for row in snap["moves"]] == ["7g7f", "3c3d"] == recorded(sim)
            assert snap["game_id"] == sim.recorder.game_id
            assert snap["leds"] == sorted([square, style] for square, style
                                          in rig.led_styles().items())
            assert snap["leds"]                  # the lifted piece's square is lit
    finally:
        archive.close()


def test_replay_lights_each_move_of_an_archived_game_in_turn(sim):
    played = ["7g7f", "3c3d", "6g6f"]
    run(sim, *["move " + usi for usi in played])
    run(sim, "resign")
    finished = sim.recorder.game_id
    assert sim.session.finished()
    run(sim, "replay %d" % finished, "wait 50")
    assert sim.recorder.position.sfen() == Game("yari").position.sfen()
    for usi in played:
        frm, to = usi[:2], usi[2:4]
        styles = sim.rig.led_styles()
        assert styles.get(frm) == "order-from" and styles.get(to) == "order-to", (usi, styles)
        assert "carry out the replayed game's move" in status(sim)
        run(sim, "move " + usi, "wait 50")
    assert "order-to" not in sim.rig.led_styles().values()   # the game is over: nothing lit
    assert recorded(sim) == played


def test_a_typed_move_the_board_refuses_during_a_replay_says_so(sim):
    run(sim, "move 7g7f", "move 3c3d", "resign")
    run(sim, "replay %d" % sim.recorder.game_id, "wait 50")
    with pytest.raises(ValueError) as refused:
        sim.execute("move 2g2f")                 # not the replayed game's 7g7f
    assert str(refused.value) == ("the board did not record 2g2f (not-the-ordered-move): put "
                                  "the lit squares right, then carry out the replayed game's "
                                  "move P-7f")
    assert recorded(sim) == []
    run(sim, "lift 2f", "place 2g", "wait 100", "move 7g7f")   # the lit move goes on
    assert recorded(sim) == ["7g7f"]


def test_a_new_game_with_a_handicap_from_the_host(sim):
    run(sim, "move 7g7f", "new yari bishop", "wait 50")
    record = sim.recorder.record()
    assert record.handicap == "bishop" and recorded(sim) == []
    assert sim.recorder.position.sfen() == Game("yari", handicap="bishop").position.sfen()
    assert "White to move" in status(sim)     # the handicap giver moves first


def test_holding_a_while_the_engine_move_is_lit_resigns_the_person(tmp_path):
    archive = Archive(str(tmp_path / "games.sqlite3"))
    console = Console(width=80, record=True, color_system=None)
    try:
        with SimRig(str(tmp_path / "flash"), clock="virtual", log_dir=str(tmp_path)) as rig:
            sim = SimConsole(rig, archive, console, engines={WHITE: Engine(level=1)},
                             time_limit=0.2)
            sim.pump(0.2)
            run(sim, "move 7g7f")
            for _ in range(100):
                sim.pump(0.05)
                if "order-to" in rig.led_styles().values():
                    break
            assert "White to move" in status(sim)          # the engine's side is to move
            run(sim, "press A", "wait 1000", "release A", "wait 100")
            assert sim.recorder.result == "white:resignation"   # Black, the person, resigned
            assert "White wins (resignation)" in screen(sim)
    finally:
        archive.close()


def test_the_cable_and_power_commands_in_any_order(sim):
    run(sim, "unplug")
    for line, reason in (("unplug", "unplugged"), ("reset", "unplugged"),
                         ("move 7g7f", "plugged in"), ("takeback", "plugged in")):
        with pytest.raises(ValueError) as caught:
            sim.execute(line)
        assert reason in str(caught.value), line
    run(sim, "tap A", "lift 7g", "wait 100")    # no power: the piece moves, the button does nothing
    run(sim, "replug", "wait 100")
    for _ in range(10):
        sim.pump(0.05)
    assert sim.rig.phase() == "setup" and sim.rig.led_styles() == {"7g": "fix-place"}
    assert "set up the board" in status(sim)
    with pytest.raises(ValueError) as caught:
        sim.execute("replug")
    assert "plugged in already" in str(caught.value)
    with pytest.raises(ValueError) as caught:
        sim.execute("wait 99999999")
    assert "at most" in str(caught.value)
    run(sim, "place 7G", "wait 100", "move 7g7f")    # square names in either case
    assert recorded(sim) == ["7g7f"]


def test_after_a_resignation_the_controls_say_why_they_cannot_act(sim):
    run(sim, "move 7g7f", "resign")
    assert sim.recorder.result == "black:resignation"     # White, to move, resigned
    for line, reason in (("resign", "the game has ended"),
                         ("takeback", "a resignation cannot be taken back"),
                         ("move 3c3d", "the game is over (black:resignation)"), ("\u00e9\u00e8 7g", "unknown command"),
                         ("x" * 300, "unknown command")):
        with pytest.raises(ValueError) as caught:
            sim.execute(line)
        assert reason in str(caught.value) and "\n" not in str(caught.value), line
    run(sim, "hint")                                        # nothing to hint: said on screen
    assert "no hint: no game in progress" in screen(sim)
    run(sim, "new", "wait 50")                              # and a new game starts cleanly
    assert recorded(sim) == [] and "Black to move" in status(sim)


ENGINE_LINE = re.compile(r"engine +([+-]\d+\.\d\d for Black|\w+ mates in \d+)")


@pytest.mark.parametrize("change", ["takeback", "sfen " + PROMOTE_SFEN])
def test_the_engine_line_is_cleared_with_the_position_it_was_about(sim, change):
    run(sim, "move 7g7f", "hint")
    assert ENGINE_LINE.search(screen(sim))
    run(sim, change, "wait 50")
    assert not ENGINE_LINE.search(screen(sim))
    run(sim, "hint")                            # and a new opinion is shown again
    assert ENGINE_LINE.search(screen(sim))
