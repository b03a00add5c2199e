"""The host link over a real pseudo-terminal: garbage on the line, take-backs, no board."""
import os
import time

import pytest

from boardfw import protocol
from shogicore.move import parse_usi
from tests.play.test_e2e_board import Table
from yariboard.board.link import Link, LinkError

pytestmark = [pytest.mark.micropython]


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path, seed=4)
    yield t
    t.close()


def play(table, *usi_moves):
    for usi in usi_moves:
        move = parse_usi(table.position.variant, usi)
        table.rig.perform(table.position, move)
        table.intended.append(usi)
        table.position.push(move)
        table.settle(2)


def test_garbage_on_the_serial_line_loses_nothing(table):
    play(table, "7g7f", "3c3d")
    master = table.rig.board._master
    # What the host reads: noise, a frame with a wrong checksum, an over-long line, binary.
    os.write(master, b"\x00\xff garbage\r\n12 move 3 1g1f 7/7/7/7 b - 4 #00000000\n")
    os.write(master, b"x" * 600 + b"\n" + bytes(range(256)) + b"\n")
    play(table, "7f7e", "3d3e", "6g6f")
    assert table.archived() == table.intended
    assert table.link.bad_lines >= 3


def test_a_move_taken_back_on_the_board_leaves_the_archive(table):
    play(table, "7g7f", "3c3d", "6g6f")
    table.rig.act("lift 6f")
    table.rig.act("place 6g", 100)
    table.rig.wait(500)
    table.settle(5)
    assert table.archived() == ["7g7f", "3c3d"]
    assert table.recorder.last_event[0] == "undo"


def test_no_board_gives_a_clear_error_quickly():
    link = Link(finder=lambda: [])
    started = time.monotonic()
    with pytest.raises(LinkError, match="no board answered.*2E8A:0005"):
        link.connect(timeout=0.3)
    assert time.monotonic() - started < 2
    assert link.status.startswith("waiting for the board")


def test_a_port_that_is_not_a_board_is_skipped(tmp_path):
    master, slave = os.openpty()       # a serial port where nothing answers
    try:
        link = Link(port=os.ttyname(slave), reply_timeout=0.1, retries=1)
        with pytest.raises(LinkError, match="no board answered"):
            link.connect(timeout=0)
        assert not link.connected()
    finally:
        os.close(master)
        os.close(slave)


def test_a_jump_in_the_boards_frame_numbers_calls_for_a_resync():
    link = Link(finder=lambda: [])
    link.board_seq = 65534
    for seq, lost in ((65535, False), (0, False), (1, False), (3, True)):
        link.needs_resync = False
        assert link._decode(protocol.encode(seq, ["hint-request", "4"])[:-1])[0] == seq
        assert link.needs_resync == lost, seq


def test_events_read_in_the_same_batch_as_a_reply_are_kept(tmp_path):
    from yariboard.sim.board import SimBoard

    with SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)) as board:
        link = Link(port=board.port)
        link.connect(timeout=10)
        try:
            link.poll(0.2)
            # the board answers `ok`, then at once reports the squares to set up
            link.request("setpos", "yari", "casual", *"3k3/7/7/P6/7/7/7/7/3K3 b - 1".split())
            events = []
            deadline = time.monotonic() + 5
            while not any(verb == "mismatch" for verb, _ in events) and time.monotonic() < deadline:
                events += link.poll(0.1)
            mismatch = [words for verb, words in events if verb == "mismatch"]
            assert mismatch and int(mismatch[0][0]) > 0
        finally:
            link.close()
