"""Several boards on one host (a USB hub): each board found gets its own recorder into the
one archive; a board pulled out is let go, and plugged back (on a new port, as USB does) it
is the same board (its identity, not its port, names it) and finds its game again. No move
of one board is ever stored under another's game."""
import pytest
import random
import time

from shogicore.move import is_drop, make_move, move_from, move_to, to_usi
from yariboard.play.boards import BoardPool
from yariboard.records.archive import Archive
from yariboard.sim.rig import SimRig, hand_actions

pytestmark = [pytest.mark.micropython]

WAIT_S = 120


def quiet_move(position, rng):
    """A move the hands make in two touches and the board asks nothing about."""
    moves = [m for m in position.legal_moves()
             if not is_drop(m) and len(hand_actions(position, m)) == 2
             and not position.is_legal(make_move(move_from(m), move_to(m), True))]
    return rng.choice(moves)


def session_of(pool, rig):
    return pool.sessions.get(rig.identity)


def wait_for(pool, condition):
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline
        pool.scan()
        pool.step(0.05)


def test_each_board_keeps_its_own_game_through_an_unplug(tmp_path):
    rng = random.Random(5)
    with Archive(str(tmp_path / "games.sqlite3")) as archive, \
            SimRig(str(tmp_path / "a")) as first, SimRig(str(tmp_path / "b")) as second:
        rigs = (first, second)
        first.identity, second.identity = "A", "B"
        pool = BoardPool(archive, finder=lambda: {rig.identity: port for rig in rigs
                                                  for port in rig.ports()})
        played = {first: [], second: []}

        def play(rig, moves):
            for _ in range(moves):
                wait_for(pool, lambda: session_of(pool, rig) is not None
                         and session_of(pool, rig).recorder.position is not None
                         and not session_of(pool, rig).recorder.link.needs_resync)
                recorder = session_of(pool, rig).recorder
                position = recorder.position.copy()
                move = quiet_move(position, rng)
                rig.perform(position, move)
                played[rig].append(to_usi(position.variant, move))
                wait_for(pool, lambda: recorder.stored_count() == len(played[rig]))

        try:
            play(first, 2)
            play(second, 3)
            assert pool.scan() == ["A", "B"]
            old_port = first.port
            first.unplug()
            assert pool.scan() == ["B"]                      # let go of the pulled board
            play(second, 1)
            first.replug()
            assert first.port != old_port
            play(first, 2)
            assert session_of(pool, first).recorder.link.port == first.port
            ids = {rig: session_of(pool, rig).recorder.game_id for rig in rigs}
            assert ids[first] != ids[second]
            for rig in rigs:
                assert archive.game(ids[rig]).usi_moves() == played[rig]
            assert len(archive.ids()) == 2                   # the replugged board's game, not a new one
        finally:
            pool.close()
