"""`yariboard serve` recording the boards on the serial ports: two simulated boards stand in
for two Picos on a hub (their pseudo-terminals are the ports found). Each board's live
snapshot follows its own game in the archive; a board pulled out says so on its page."""
import contextlib
import json
import random
import threading
import time

import pytest

from shogicore.move import to_usi
from shogicore.position import Position
from shogicore.variants import variant_by_name
from yariboard.board.link import attached_boards
from yariboard.cli.serve import board_name, serve_boards
from yariboard.ui.spectators import Spectators
from yariboard.records.archive import Archive
from yariboard.sim.rig import SimRig
from tests.play.test_board_pool import quiet_move

pytestmark = [pytest.mark.micropython]

WAIT_S = 120


def latest(spectators, identity):
    """The newest snapshot of board `identity`'s page ({} before it has one)."""
    try:
        return json.loads(spectators.feed.latest(board_name(identity))[1])
    except KeyError:
        return {}


def wait_until(condition):
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.05)


@contextlib.contextmanager
def serving(db, spectators, finder=attached_boards):
    """`serve_boards` recording in a thread of its own while the body runs."""
    stop = threading.Event()

    def record():
        with Archive(db) as archive:      # SQLite: opened by the thread that writes
            serve_boards(archive, spectators, finder, lambda: not stop.is_set())

    recording = threading.Thread(target=record)
    recording.start()
    try:
        yield
    finally:
        stop.set()
        recording.join(WAIT_S)


def perform_quiet_move(spectators, rig, identity, played, rng):
    """Once the board's page shows its position (plugged in), the hands make a move there;
    wait until the page shows it played. `played`: the board's moves so far, extended."""
    wait_until(lambda: latest(spectators, identity).get("sfen")
               and not latest(spectators, identity)["status"].startswith("pulled out"))
    snap = latest(spectators, identity)
    position = Position(variant_by_name(snap["variant"]), snap["sfen"])
    move = quiet_move(position, rng)
    rig.perform(position, move)
    played.append(to_usi(position.variant, move))
    wait_until(lambda: [row["usi"] for row in latest(spectators, identity)["moves"]] == played)


def test_serve_follows_each_board_on_the_ports(tmp_path):
    rng = random.Random(2)
    db = str(tmp_path / "games.sqlite3")
    with SimRig(str(tmp_path / "a")) as first, SimRig(str(tmp_path / "b")) as second:
        rigs = (first, second)
        first.identity, second.identity = "E6614103E7452D2F", "E66138935F2B6A2C"
        spectators = Spectators(db, serve=True, port=0).start()
        try:
            with serving(db, spectators,
                         lambda: {rig.identity: port for rig in rigs for port in rig.ports()}):
                played = {first: [], second: []}
                for rig, moves in ((first, 3), (second, 2), (first, 1)):
                    for _ in range(moves):
                        perform_quiet_move(spectators, rig, rig.identity, played[rig], rng)
                with Archive(db, readonly=True) as archive:
                    for rig in rigs:
                        snap = latest(spectators, rig.identity)
                        assert archive.game(snap["game_id"]).usi_moves() == played[rig]
                assert sorted(spectators.feed.names()) == sorted(rig.identity for rig in rigs)
                first.unplug()
                wait_until(lambda: latest(spectators, first.identity)["status"]
                           .startswith("pulled out"))
        finally:
            spectators.close()
