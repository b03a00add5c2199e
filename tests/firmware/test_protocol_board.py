"""Every request and event of docs/protocol.md against the real firmware on the simulated
board (MicroPython unix port, serial through a pty opened with pyserial)."""
import os

import pytest

from boardfw import ledlang
from boardfw import protocol
from shogicore.game import Game
from shogicore.move import parse_usi
from shogicore.variants import YARI
from yariboard.board.ledstyles import channels, style_rows
from yariboard.sim.board import SerialClient, SimBoard, move_gestures, occupied_squares

pytestmark = [pytest.mark.micropython]

START = YARI.start_sfen


@pytest.fixture
def board(tmp_path):
    sim = SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)).start()
    client = SerialClient(sim.port)
    yield sim, client
    client.close()
    sim.close()
    assert "Traceback" not in sim.stderr_text()


def play(sim, client, game, usi_moves):
    """Make the moves with the hands and wait until the board has announced the last one."""
    for usi in usi_moves:
        m = parse_usi(game.variant, usi)
        mark = len(client.frames)
        sim.send_commands(move_gestures(game.position, m))
        game.play(m)
        frame = client.wait_for(lambda f: f[1] in ("move", "refused", "illegal"), start=mark)
        assert frame[1] == "move" and frame[2][1] == usi, frame


def drain(sim, client):
    """Until the board has scanned everything sent and every frame it sent is read."""
    sim.sync()
    client.request("version")


def style_colour(style):
    return channels(style_rows()[style][0])


def after(client, mark, verb):
    return [f[2] for f in client.frames[mark:] if f[1] == verb]


def test_version_state_and_start(board):
    sim, client = board
    kind, words = client.request("version")
    assert kind == "ok" and words[:3] == ["1", "0.1.0", "yari"]
    kind, state = client.request("state")
    assert kind == "ok"
    assert len(state[0]) == 8 and int(state[0], 16) >= 0
    assert state[1:5] == ["yari", "casual", "0", "-"]
    assert " ".join(state[5:]) == START
    assert client.request("start") == ("ok", [state[0]] + START.split())


def test_history_comes_in_batches_of_sixteen(board):
    sim, client = board
    moves = ["7g7f", "7c7d", "6g6f", "6c6d", "5g5f", "5c5d", "4g4f", "4c4d", "3g3f", "3c3d",
             "2g2f", "2c2d", "1g1f", "1c1d", "7f7e", "6d6e", "5f5e", "4d4e"]
    play(sim, client, Game("yari"), moves)
    game_id = client.request("state")[1][0]
    assert client.request("history", "1") == ("ok", [game_id, "1"] + moves[:16])
    assert client.request("history", "17") == ("ok", [game_id, "17"] + moves[16:])
    assert client.request("history", "19") == ("ok", [game_id, "19"])
    assert client.request("history", "0")[0] == "err"


def test_new_game_with_handicap_waits_for_the_board_to_be_set_up(board):
    sim, client = board
    mark = len(client.frames)
    kind, words = client.request("new", "yari", "two-pieces", "tournament")
    assert kind == "ok"
    new = after(client, mark, "new")
    assert new == [[words[0], "yari", "tournament"] + YARI.handicaps["two-pieces"].split()]
    # the board still holds White's left Yari Rook and Yari Bishop: those squares must clear
    drain(sim, client)
    mismatch = after(client, mark, "mismatch")
    assert mismatch and mismatch[-1][0] == "2" and sorted(mismatch[-1][1:]) == ["1a", "2a"]
    kind, state = client.request("state")
    assert state[1:5] == ["yari", "tournament", "0", "-"] and state[-3] == "w"
    mark = len(client.frames)
    sim.send_commands(["lift 1a", "lift 2a", "advance 100"])
    sim.sync()
    client.wait_for(lambda f: f[1] == "mismatch" and f[2] == ["0"], start=mark)


def test_set_position_and_bad_positions(board):
    sim, client = board
    sfen = "3k3/7/7/7/7/7/7/7/3K3 b RB 1"
    kind, words = client.request("setpos", "yari", "casual", *sfen.split())
    assert kind == "ok"
    assert " ".join(client.request("state")[1][5:]) == sfen
    assert client.request("start")[1][1:] == sfen.split()
    kind, words = client.request("setpos", "yari", "casual", "3k3/7/7", "b", "-", "1")
    assert kind == "err" and words[0] == "sfen"
    assert " ".join(client.request("state")[1][5:]) == sfen      # untouched


def test_shown_move_and_hint_are_lit_and_cleared(board):
    sim, client = board
    assert client.request("show", "7g7f") == ("ok", ["7g7f"])
    sim.advance(20)
    sim.sync()
    assert sim.leds.get("7g") == style_colour(ledlang.ORDER_FROM)
    assert client.request("clear") == ("ok", [])
    sim.advance(20)
    sim.sync()
    assert "7g" not in sim.leds
    assert client.request("hint", "6g6f") == ("ok", ["6g6f"])
    sim.advance(20)
    sim.sync()
    assert sim.leds.get("6g") == style_colour(ledlang.HINT_FROM)
    # the ordered move, once played, is recorded like any move
    client.request("show", "5g5f")
    play(sim, client, Game("yari"), ["5g5f"])


def test_host_undo_is_announced_and_the_board_shows_what_to_restore(board):
    sim, client = board
    game = Game("yari")
    play(sim, client, game, ["7g7f", "3c3d"])
    mark = len(client.frames)
    kind, words = client.request("undo")
    assert kind == "ok" and words[0] == "1"
    game.undo()
    assert " ".join(words[1:]) == game.position.sfen()
    assert after(client, mark, "undo") == [["2"] + game.position.sfen().split()]
    drain(sim, client)
    mismatch = after(client, mark, "mismatch")[-1]
    assert mismatch[0] == "2" and sorted(mismatch[1:]) == ["3c", "3d"]
    mark = len(client.frames)
    sim.send_commands(["lift 3d", "advance 50", "place 3c", "advance 400"])
    sim.sync()
    client.wait_for(lambda f: f[1] == "mismatch" and f[2] == ["0"], start=mark)
    assert client.request("history", "1")[1][2:] == ["7g7f"]


def test_a_retried_request_is_answered_again_but_not_carried_out_twice(board):
    sim, client = board
    play(sim, client, Game("yari"), ["7g7f", "3c3d"])
    mark = len(client.frames)
    frame = protocol.encode(500, ["undo"])
    client.write_raw(frame)
    client.wait_for(lambda f: f[1] == "ok" and f[2][0] == "500", start=mark)
    client.write_raw(frame)                          # the host did not see the reply: retry
    replies = []
    client.wait_for(lambda f: f[1] == "ok" and f[2][0] == "500" and replies.append(f) is None
                    and len(replies) == 2, start=mark)
    assert replies[0][2] == replies[1][2] and replies[0][0] != replies[1][0]
    assert len(after(client, mark, "undo")) == 1
    assert client.request("state")[1][3] == "1"


def test_led_test_lights_every_square_within_the_budget(board):
    sim, client = board
    assert client.request("ledtest") == ("ok", [])
    sim.advance(100)
    sim.sync()
    config = sim.config
    assert len(sim.leds) == config.led_count
    colours = set(sim.leds.values())
    assert len(colours) == 1
    r, g, b = colours.pop()
    assert r > 0 and g == 0 and b == 0
    current = config.led_count * config.led_idle_ma + config.led_count * r * config.led_ma_per_channel / 255
    assert current <= config.led_budget_ma
    sim.advance(3000)
    sim.sync()
    assert len(sim.leds) < config.led_count          # back to the game afterwards


def test_sensor_dump_shows_raw_and_debounced_switches(board):
    sim, client = board
    config = sim.config
    expected = 0
    for square in occupied_squares("yari"):
        row, col = config.matrix_position(square)
        expected |= 1 << (row * config.files + col)
    assert client.request("sensors") == ("ok", ["9", "7", "%x" % expected, "%x" % expected])
    sim.lift("4g")
    sim.advance(10)                                  # seen, but not yet for the debounce time
    sim.sync()
    row, col = config.matrix_position("4g")
    raw = expected & ~(1 << (row * config.files + col))
    assert client.request("sensors") == ("ok", ["9", "7", "%x" % raw, "%x" % expected])


def test_the_board_resumes_after_power_off_or_shows_what_differs(board):
    sim, client = board                      # the host keeps the port open throughout
    game = Game("yari")
    play(sim, client, game, ["7g7f", "3c3d", "6g6f"])
    game_id = client.request("state")[1][0]
    mark = len(client.frames)
    sim.restart()
    hello = client.wait_for(lambda f: f[1] == "hello", start=mark)
    assert hello[0] == 0 and hello[2] == ["1", "0.1.0", game_id, "3"]
    assert after(client, mark, "mismatch") == []
    # power off, a piece is knocked off meanwhile: at power-up the board shows which square
    sim.kill()
    sim.occupied.discard("5g")
    mark = len(client.frames)
    sim.start()
    client.wait_for(lambda f: f[1] == "mismatch", start=mark)
    assert after(client, mark, "mismatch") == [["1", "5g"]]
    sim.place("5g")
    sim.advance(100)
    sim.sync()
    client.wait_for(lambda f: f[1] == "mismatch" and f[2] == ["0"], start=mark)
    play(sim, client, game, ["4c4d"])
    assert client.request("state")[1][:4] == [game_id, "yari", "casual", "4"]


def test_a_damaged_save_is_kept_aside_and_a_new_game_begins(board):
    sim, client = board
    play(sim, client, Game("yari"), ["7g7f"])
    sim.kill()
    path = os.path.join(sim.storage_dir, "game.txt")
    with open(path, "r+b") as f:
        f.seek(40)
        f.write(b"XX")
    sim.occupied = set(occupied_squares("yari"))
    mark = len(client.frames)
    sim.start()
    warning = client.wait_for(lambda f: f[1] == "warning", start=mark)
    assert warning[2][0] == "save-corrupt"
    assert client.request("state")[1][3] == "0"
    assert os.path.exists(os.path.join(sim.storage_dir, "game.bad"))


def test_buttons_resign_new_game_and_hint_request(board):
    sim, client = board
    play(sim, client, Game("yari"), ["7g7f"])
    mark = len(client.frames)
    sim.send_commands(["press A", "advance 60", "release A", "advance 60"])
    drain(sim, client)
    assert after(client, mark, "hint-request") == [["1"]]
    sim.send_commands(["press A", "advance 1000", "release A", "advance 60"])
    sim.sync()
    client.wait_for(lambda f: f[1] == "end", start=mark)
    assert after(client, mark, "end") == [["black:resignation", "1"]]
    assert client.request("state")[1][4] == "black:resignation"
    sim.send_commands(["press B", "advance 1000", "release B", "advance 60"])
    sim.sync()
    new = client.wait_for(lambda f: f[1] == "new", start=mark)
    assert new[2][1:] == ["yari", "casual"] + START.split()


@pytest.mark.parametrize("host, loser", [("black", "white"), ("-", "black"), ("white", "black")])
def test_long_a_before_the_engines_first_move_resigns_for_the_person(board, host, loser):
    """The host says which side its engine plays before it has ordered any move: a long
    press of A with Black (the engine's side, if it is) to move is the person's
    resignation. Without an engine, or with the engine on White, it is Black's."""
    sim, client = board
    assert client.request("host", host) == ("ok", [])
    mark = len(client.frames)
    sim.send_commands(["press A", "advance 1000", "release A", "advance 60"])
    sim.sync()
    client.wait_for(lambda f: f[1] == "end", start=mark)
    assert after(client, mark, "end") == [["%s:resignation" % ("white" if loser == "black"
                                                                  else "black"), "0"]]


def test_casual_refuses_and_tournament_records_an_illegal_move(board):
    sim, client = board
    mark = len(client.frames)
    sim.send_commands(["lift 7g", "advance 60", "place 7e", "advance 400"])   # a pawn two up
    drain(sim, client)
    assert after(client, mark, "refused") == [["illegal-move"]]
    assert after(client, mark, "move") == []
    sim.send_commands(["lift 7e", "advance 60", "place 7g", "advance 400"])   # taken back
    sim.sync()
    client.wait_for(lambda f: f[1] == "mismatch" and f[2] == ["0"], start=mark)

    client.request("new", "yari", "-", "tournament")
    mark = len(client.frames)
    sim.send_commands(["lift 7g", "advance 60", "place 7e", "advance 400"])
    sim.sync()
    client.wait_for(lambda f: f[1] == "end", start=mark)
    assert after(client, mark, "illegal") == [["7g7e"]]
    assert after(client, mark, "end") == [["white:illegal-move", "0"]]


def test_the_host_resigns_for_a_player_or_records_a_flag_fall(board):
    sim, client = board
    play(sim, client, Game("yari"), ["7g7f"])
    for bad in (["resign"], ["resign", "red"], ["resign", "black", "soon"],
                ["resign", "white", "time", "now"]):
        kind, words = client.request(*bad)
        assert kind == "err" and words[0] == "args", (bad, words)
    assert client.request("state")[1][4] == "-"
    mark = len(client.frames)
    assert client.request("resign", "white", "time") == ("ok", [])
    assert after(client, mark, "end") == [["black:time", "1"]]
    assert client.request("resign", "black")[1][0] == "over"
    assert client.request("undo")[1][0] == "over"   # a loss on time stands
    sim.restart()                                            # and it was saved first
    client.close()
    client = SerialClient(sim.port)
    client.follow_board()
    try:
        assert client.request("state")[1][4] == "black:time"
        mark = len(client.frames)
        client.request("new", "yari", "-", "casual")
        assert client.request("resign", "black") == ("ok", [])
        assert after(client, mark, "end") == [["white:resignation", "0"]]
    finally:
        client.close()


def test_the_simulator_reports_each_square_style_and_the_phase(board):
    sim, client = board
    sim.send_commands(["styles"])             # asked for, as the host's view does
    play(sim, client, Game("yari"), ["7g7f"])
    client.request("show", "3c3d")
    for ms in (0, 500):          # ORDER_TO blinks: reported lit in either half of the second
        sim.advance(ms + 20)
        sim.sync()
        assert sim.styles["3c"] == ledlang.ORDER_FROM and sim.styles["3d"] == ledlang.ORDER_TO
        assert sim.phase == "idle"
    sim.send_commands(["lift 6c", "advance 100"])
    sim.sync()
    assert sim.phase == "moving"
    assert sim.styles["6c"] == ledlang.LIFTED and sim.styles["6d"] == ledlang.DESTINATION
