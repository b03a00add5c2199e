"""Two promises of docs/protocol.md, against the real firmware on the simulated board:

- `err` means nothing changed: for every request verb, refused requests leave the game,
  its start, its history, the save file and the event stream exactly as they were (and
  every value the board stores is bounded, so every reply fits a frame);
- an old request frame replayed later is refused as stale, never carried out again.
"""
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardfw import protocol
from shogicore.game import Game
from shogicore.move import parse_usi
from yariboard.board.link import Link
from yariboard.sim.board import SerialClient, SimBoard, move_gestures

pytestmark = [pytest.mark.micropython]

LONE = "3k3/7/7/7/7/7/7/7/3K3"

# At least one refused request for every verb of the protocol.
REFUSED = {
    "version": [["version", "2"]],
    "state": [["state", "now"]],
    "start": [["start", "x"]],
    "history": [["history", "0"], ["history", "abc"], ["history", "1234567"]],
    "new": [["new", "chess", "-", "casual"], ["new", "yari", "queen-odds", "casual"],
            ["new", "yari", "-", "blitz"], ["new", "shogi", "-", "casual"]],
    "setpos": [["setpos", "yari", "casual", LONE, "b", "-", "9" * 165],
               ["setpos", "yari", "casual", LONE, "b", "-", "1" * 10],
               ["setpos", "yari", "casual", LONE, "b", "256P", "1"],
               ["setpos", "yari", "casual", LONE, "b", "0R", "1"],
               ["setpos", "yari", "casual", LONE, "b", "-", "0"],
               ["setpos", "yari", "blitz", LONE, "b", "-", "1"],
               ["setpos", "yari", "casual", "k6/7/7", "b", "-", "1"]],
    "show": [["show", "7g7a"], ["show", "zz"], ["show", "P*5e"]],
    "hint": [["hint", "9i9h"], ["hint", "7g7f7e"]],
    "clear": [["clear", "x"]],
    "undo": [["undo", "now"]],
    "resign": [["resign", "red"], ["resign", "black", "flag"], ["resign", "white", "time", "x"]],
    "host": [["host", "red"], ["host"], ["host", "black", "white"]],
    "ledtest": [["ledtest", "1"]],
    "sensors": [["sensors", "x"]],
}

GAME_EVENTS = ("move", "undo", "new", "end", "illegal", "mismatch", "refused")


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("promises")
    sim = SimBoard(str(tmp / "flash"), log_dir=str(tmp)).start()
    client = SerialClient(sim.port)
    game = Game("yari")
    for usi in ("7g7f", "3c3d"):
        m = parse_usi(game.variant, usi)
        sim.send_commands(move_gestures(game.position, m))
        game.play(m)
    client.wait_for(lambda f: f[1] == "move" and f[2][0] == "2")
    yield sim, client, str(tmp / "flash")
    client.close()
    sim.close()
    assert "Traceback" not in sim.stderr_text()


def snapshot(client, save_path):
    """The board's answers and its save: the record and the journal of the moves since."""
    saved = []
    for name in ("game.txt", "game.log"):
        with open(os.path.join(save_path, name), "rb") as f:
            saved.append(f.read())
    return (client.request("state"), client.request("start"), client.request("history", "1"),
            saved)


def test_every_verb_has_refused_requests_in_this_test():
    assert sorted(REFUSED) == sorted(protocol.REQUESTS)


@pytest.mark.parametrize("verb", sorted(REFUSED))
def test_a_refused_request_changes_nothing(board, verb):
    sim, client, save_path = board
    before = snapshot(client, save_path)
    for words in REFUSED[verb]:
        mark = len(client.frames)
        kind, reply = client.request(*words)
        assert kind == "err", (words, reply)
        assert reply[0] in ("args", "sfen", "variant",
                            "illegal", "long"), (words, reply)
        assert snapshot(client, save_path) == before, words
        assert not [f for f in client.frames[mark:] if f[1] in GAME_EVENTS], words
    assert sim.alive()


def test_a_move_number_too_long_for_any_frame_is_refused_and_the_board_keeps_answering(board):
    sim, client, save_path = board
    before = snapshot(client, save_path)
    body = b"60000 setpos yari casual %s b - %s" % (LONE.encode(), b"9" * 200)
    mark = len(client.frames)
    client.write_raw(body + b" #%08x\n" % protocol.checksum(body))
    client.wait_for(lambda f: f[1] == "err" and f[2][1] == "long", start=mark)
    assert snapshot(client, save_path) == before
    assert client.request("version")[0] == "ok"


# -- stale replays -------------------------------------------------------------------------

def fresh_board(tmp_path, moves=("7g7f", "3c3d", "6g6f", "6c6d")):
    sim = SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)).start()
    client = SerialClient(sim.port)
    try:
        game = Game("yari")
        for usi in moves:
            m = parse_usi(game.variant, usi)
            sim.send_commands(move_gestures(game.position, m))
            game.play(m)
        if moves:
            client.wait_for(lambda f: f[1] == "move" and f[2][0] == str(len(moves)))
    except BaseException:
        client.close()
        sim.close()
        raise
    return sim, client


def send_frame(client, frame):
    mark = len(client.frames)
    client.write_raw(frame)
    seq = frame.split(b" ", 1)[0].decode()
    return client.wait_for(lambda f: f[1] in ("ok", "err") and f[2][0] == seq, start=mark)


def test_an_old_undo_replayed_later_does_not_take_back_a_second_move(tmp_path):
    sim, client = fresh_board(tmp_path)
    try:
        undo = protocol.encode(700, ["undo"])
        assert send_frame(client, undo)[1] == "ok"
        assert send_frame(client, protocol.encode(701, ["state"]))[2][5] == "3"
        assert send_frame(client, protocol.encode(702, ["clear"]))[1] == "ok"
        mark = len(client.frames)
        reply = send_frame(client, undo)                         # replayed, not the last one
        assert reply[1] == "err" and reply[2][1] == "stale"
        assert send_frame(client, protocol.encode(703, ["state"]))[2][5] == "3"
        assert not [f for f in client.frames[mark:] if f[1] == "undo"]
        # the version reply names the last request carried out, so a host continues after it
        assert send_frame(client, protocol.encode(3, ["version"]))[2][6] == "702"
    finally:
        client.close()
        sim.close()
    assert "Traceback" not in sim.stderr_text()


def test_a_new_host_link_continues_after_the_last_request_and_is_not_refused(tmp_path):
    sim, client = fresh_board(tmp_path, moves=("7g7f", "3c3d"))
    try:
        assert send_frame(client, protocol.encode(40000, ["clear"]))[1] == "ok"
        client.close()
        link = Link(port=sim.port, reply_timeout=5)
        link.connect(timeout=10)
        assert link.seq == 40001
        assert link.request("undo")[0] == "1"
        link.seq = 5                      # a host numbering from scratch: refused as stale
        assert link.request("hint", "3c3d") == ["3c3d"]   # resent after the board's last
        link.close()
    finally:
        sim.close()


@pytest.fixture(scope="module")
def stale_board(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stale")
    sim, client = fresh_board(tmp, moves=())
    yield sim, client
    client.close()
    sim.close()
    assert "Traceback" not in sim.stderr_text()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["new", "replay", "retry"]), st.integers(0, 50)),
                min_size=1, max_size=12),
       st.integers(0, 65535))
def test_replayed_frames_are_never_carried_out_twice(stale_board, script, start):
    """New games requested with rising SEQs (wrapping past 65535), old frames replayed at
    random, the last line retried: each request is carried out once, counted by the board's
    own `new` events; a replay is refused as stale unless it is a retry of the last line."""
    sim, client = stale_board
    last = client.request("version")[1][4]
    seq = start if last == "-" else (int(last) + 1 + start % 30000) % 65536
    last_line, last_kind = None, None
    sent = []
    done = 0
    mark = len(client.frames)
    for what, pick in script:
        if what == "new" or not sent:
            frame = protocol.encode(seq, ["new", "yari", "-", "casual"])
            seq = protocol.next_seq(seq)
            sent.append(frame)
            expected = "ok"
            done += 1
        elif what == "retry" and last_line is not None:
            frame, expected = last_line, last_kind
        else:
            frame = sent[pick % len(sent)]
            # the last one carried out is answered again (never carried out twice)
            expected = "ok" if frame == sent[-1] else "err"
        reply = send_frame(client, frame)
        assert reply[1] == expected, (what, reply)
        if reply[1] == "err":
            assert reply[2][1] == "stale"
        last_line, last_kind = frame, reply[1]
    client.request("version")
    assert len([f for f in client.frames[mark:] if f[1] == "new"]) == done


def test_the_state_reply_length_the_board_checks_new_games_against_is_the_real_one():
    from boardfw import requests
    from shogicore.variants import SHOGI, YARI
    for variant in (YARI, SHOGI):
        for mode in ("casual", "tournament"):
            sfen = variant.start_sfen
            longest = protocol.encode(65535, ["ok", "65535", "state", "01234567", variant.name,
                                              mode, "99999", "white:perpetual-check"]
                                      + sfen.split())
            assert len(longest) == (requests._STATE_FRAME + len(variant.name) + len(mode)
                                    + len(sfen))
