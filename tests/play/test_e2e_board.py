"""End to end: real firmware (MicroPython unix port) <-> pseudo-terminal <-> pyserial host.

Games are played only as sensor events (lift, place) on the simulated board; the host
follows them over the pty and archives them. The archive must end with exactly the
intended moves, through cable pulls, board resets and host restarts at random moments.
"""
import random

import pytest

from shogicore.move import is_drop, is_promotion, make_drop, make_move, move_from, move_to, to_usi
from shogicore.position import Position
from yariboard.records.archive import Archive
from yariboard.board.link import Link
from yariboard.play.recorder import Recorder
from yariboard.sim.rig import SimRig

pytestmark = [pytest.mark.micropython]


def needs_order(position, move):
    """Moves whose choice the sensors cannot see (optional promotion, ambiguous drop kind)."""
    if is_drop(move):
        kinds = [k for k in position.variant.hand_kinds
                 if position.hand_count(position.side, k) and position.is_legal(make_drop(k, move_to(move)))]
        return len(kinds) > 1
    frm, to = move_from(move), move_to(move)
    return position.is_legal(make_move(frm, to, not is_promotion(move)))


class Table:
    """The board on the desk, the host beside it, and a player moving the pieces."""

    def __init__(self, tmp_path, seed):
        self.rng = random.Random(seed)
        self.db_path = str(tmp_path / "games.sqlite3")
        self.rig = SimRig(str(tmp_path / "flash"), log_dir=str(tmp_path)).start()
        self.position = Position()
        self.intended = []
        self.host_up()

    def host_up(self):
        self.archive = Archive(self.db_path)
        self.link = Link(finder=self.rig.ports, reply_timeout=0.5)
        self.recorder = Recorder(self.link, self.archive)
        self.settle()

    def host_down(self):
        """The host process dies: its port and database handles are simply dropped."""
        self.link.close()
        self.archive.close()

    def settle(self, rounds=3):
        for _ in range(rounds):
            self.recorder.step(0.02)

    def ready(self):
        """Let the host reconnect and catch up (it must be, to order a move)."""
        for _ in range(100):
            self.settle(1)
            if self.link.connected() and not self.link.needs_resync:
                return
        raise AssertionError("host did not reconnect: %s" % self.link.status)

    def play_random_move(self, ordered_allowed=True):
        moves = self.position.legal_moves()
        if not ordered_allowed:
            moves = [m for m in moves if not needs_order(self.position, m)]
        move = self.rng.choice(moves)
        if needs_order(self.position, move):
            self.ready()
            self.link.request("show", to_usi(self.position.variant, move))
        self.rig.perform(self.position, move)
        self.intended.append(to_usi(self.position.variant, move))
        self.position.push(move)

    def game_over(self):
        return self.position.status() is not None

    def archived(self):
        self.settle()
        return self.recorder.record().usi_moves()

    def close(self):
        self.host_down()
        self.rig.close()


@pytest.fixture
def table(tmp_path, request):
    t = Table(tmp_path, seed=getattr(request, "param", 1))
    yield t
    t.close()


@pytest.mark.parametrize("table", [11, 12], indirect=True)
def test_sensor_games_are_archived_exactly_as_played(table):
    for _ in range(60):
        if table.game_over():
            break
        table.play_random_move()
        table.settle(2)
    assert table.archived() == table.intended
    assert len(table.intended) >= 20
    with Archive(table.db_path) as archive:
        assert len(archive.ids()) == 1


def disrupt(table, kind):
    if kind == "unplug":
        table.rig.unplug()
        for _ in range(10):                  # the host notices the port is gone
            table.settle(1)
            if not table.link.connected():
                break
        assert not table.link.connected()
        table.rig.replug()
    elif kind == "reset":
        table.rig.reset()
    else:
        table.host_down()
        for _ in range(table.rng.randint(0, 3)):   # the game goes on without the host
            if not table.game_over():
                table.play_random_move(ordered_allowed=False)
        table.host_up()


def run_disrupted_game(table, per_kind):
    """Play, disrupting at random moments; returns how many of each disruption happened."""
    kinds = ["unplug", "reset", "host"] * per_kind
    table.rng.shuffle(kinds)
    done = {"unplug": 0, "reset": 0, "host": 0}
    while kinds and not table.game_over():
        table.play_random_move()
        # Random moment: at once (the move's event still unread by the host), or after the
        # host has read zero, one or two rounds of frames.
        if table.rng.random() < 0.6:
            table.settle(table.rng.randint(0, 2))
            kind = kinds.pop()
            disrupt(table, kind)
            done[kind] += 1
    table.settle(5)
    return done


@pytest.mark.parametrize("table", [5], indirect=True)
def test_unplug_reset_and_host_restart_lose_and_duplicate_nothing(table):
    done = run_disrupted_game(table, per_kind=20)
    assert table.archived() == table.intended
    assert done == {"unplug": 20, "reset": 20, "host": 20}
    with Archive(table.db_path) as archive:
        assert len(archive.ids()) == 1


@pytest.mark.slow
@pytest.mark.parametrize("table", [21, 22, 23], indirect=True)
def test_many_disrupted_games(table):
    done = run_disrupted_game(table, per_kind=40)
    assert table.archived() == table.intended
    assert sum(done.values()) >= 40
