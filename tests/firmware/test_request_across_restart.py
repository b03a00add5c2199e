"""A request the board carried out stays carried out across a power cut (docs/protocol.md):
the host that lost the reply sends the same frame again after the restart and gets the
answer, not a second change; any older frame is still refused as stale.

The real firmware on the MicroPython unix port; the power cut is a SIGKILL.
"""
import pytest
from boardfw import protocol
from shogicore.game import Game
from tests.firmware.test_protocol_board import board, play  # noqa: F401 (fixture)

pytestmark = [pytest.mark.micropython]


def reply_to(client, frame, seq):
    mark = len(client.frames)
    client.write_raw(frame)
    return client.wait_for(lambda f: f[1] in ("ok", "err") and f[2][:1] == [str(seq)],
                           start=mark)


def test_an_undo_retried_after_a_power_cut_takes_back_one_move(board):  # noqa: F811
    sim, client = board
    play(sim, client, Game("yari"), ["7g7f", "7c7d"])
    seq = client.seq
    client.seq = protocol.next_seq(seq)
    undo = protocol.encode(seq, ["undo"])
    first = reply_to(client, undo, seq)
    assert first[1] == "ok" and first[2][2] == "1", first        # one move left
    sim.kill()                       # the power goes before the host has read the reply
    sim.start()
    sim.sync()
    again = reply_to(client, undo, seq)
    assert again[1] == "ok" and again[2][1:] == first[2][1:], again   # the same answer
    assert client.request("state")[1][3] == "1"                  # still one move
    sim.kill()                       # again: the save compacted at the last boot keeps it
    sim.start()
    sim.sync()
    assert reply_to(client, undo, seq)[2][1:] == first[2][1:]
    assert client.request("state")[1][3] == "1"
    kind, words = client.request("version")
    assert words[4] == str(seq)                                  # LAST kept too
    before = (seq - 1) % 65536
    refused = reply_to(client, protocol.encode(before, ["undo"]), before)
    assert refused[1] == "err" and refused[2][1] == "stale"
    assert client.request("state")[1][3] == "1"


def test_a_new_game_retried_after_a_power_cut_is_not_begun_twice(board):  # noqa: F811
    sim, client = board
    play(sim, client, Game("yari"), ["7g7f"])
    seq = client.seq
    client.seq = protocol.next_seq(seq)
    new = protocol.encode(seq, ["new", "yari", "-", "casual"])
    first = reply_to(client, new, seq)
    assert first[1] == "ok"
    game_id = first[2][2]
    sim.kill()
    sim.start()
    sim.sync()
    again = reply_to(client, new, seq)
    assert again[1] == "ok" and again[2][2] == game_id           # the same game, not another
    assert client.request("state")[1][0] == game_id


def test_a_request_that_changes_nothing_saved_is_carried_out_again_after_a_restart(board):  # noqa: F811
    """`hint` lives in RAM: after a restart it is gone, and its retry lights it again."""
    sim, client = board
    seq = client.seq
    client.seq = protocol.next_seq(seq)
    hint = protocol.encode(seq, ["hint", "7g7f"])
    assert reply_to(client, hint, seq)[1] == "ok"
    sim.kill()
    sim.start()
    sim.sync()
    assert reply_to(client, hint, seq)[1] == "ok"
