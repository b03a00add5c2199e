"""`yariboard serve` recording the boards on the serial ports: two simulated boards stand in
for two Picos on a hub (their pseudo-terminals are the ports found). Each board's live
snapshot follows its own game in the archive; a board pulled out says so on its page."""
import pytest
import json
import random
import threading
import time

from shogicore.move import to_usi
from shogicore.position import Position
from shogicore.variants import variant_by_name
from yariboard.cli.serve import board_name, serve_boards
from yariboard.ui.spectators import Spectators
from yariboard.records.archive import Archive
from yariboard.sim.rig import SimRig
from tests.play.test_board_pool import quiet_move

pytestmark = [pytest.mark.micropython]

WAIT_S = 120


def latest(spectators, identity):
    try:
        return json.loads(spectators.feed.latest(board_name(identity))[1])
    except KeyError:
        return None


def wait_until(condition):
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_serve_follows_each_board_on_the_ports(tmp_path):
    rng = random.Random(2)
    db = str(tmp_path / "games.sqlite3")
    with SimRig(str(tmp_path / "a")) as first, SimRig(str(tmp_path / "b")) as second:
        rigs = (first, second)
        first.identity, second.identity = "E6614103E7452D2F", "E66138935F2B6A2C"
        spectators = Spectators(db, serve=True, port=0).start()
        stop = threading.Event()

        def record():
            with Archive(db) as archive:      # SQLite: opened by the thread that writes
                serve_boards(archive, spectators,
                             lambda: {rig.identity: port for rig in rigs for port in rig.ports()},
                             lambda: not stop.is_set())

        server = threading.Thread(target=record)
        server.start()
        try:
            played = {first: [], second: []}
            for rig, moves in ((first, 3), (second, 2), (first, 1)):
                for _ in range(moves):
                    wait_until(lambda: (latest(spectators, rig.identity) or {}).get("sfen"))
                    position = _position(latest(spectators, rig.identity))
                    move = quiet_move(position, rng)
                    rig.perform(position, move)
                    played[rig].append(to_usi(position.variant, move))
                    wait_until(lambda: [row["usi"] for row in latest(spectators, rig.identity)["moves"]]
                               == played[rig])
            with Archive(db, readonly=True) as archive:
                for rig in rigs:
                    snap = latest(spectators, rig.identity)
                    assert archive.game(snap["game_id"]).usi_moves() == played[rig]
            assert sorted(spectators.feed.names()) == sorted(rig.identity for rig in rigs)
            first.unplug()
            wait_until(lambda: latest(spectators, first.identity)["status"].startswith("pulled out"))
        finally:
            stop.set()
            server.join(WAIT_S)
            spectators.close()


def _position(snap):
    return Position(variant_by_name(snap["variant"]), snap["sfen"])
