"""Placed piece -> move stored in the archive, through the firmware and the pseudo-terminal.

Two clocks, two questions:
- real clock: what a player waits from putting the piece down until the archive has the
  move; it includes the board's settling time (interpreter.SETTLE_MS), on purpose;
- virtual clock: the pipeline alone. The settling time is simulated as fast as the unix
  port can scan it (a few ms), then come the firmware commit and flash save, the serial
  frame over the pty, the host's decode and the SQLite commit with synchronous=FULL.
"""
import random
import statistics
import tempfile
import time

from shogicore.move import is_drop, make_move, move_from, move_to
from shogicore.position import Position
from boardfw.interpreter import SETTLE_MS
from yariboard.records.archive import Archive
from yariboard.board.link import Link
from yariboard.play.recorder import Recorder
from yariboard.sim.rig import SimRig, hand_actions

PLIES = {"real": 20, "virtual": 60}


def measure(clock, plies, seed=3):
    """Latencies (ms) of `plies` quiet moves played by hand on a simulated board."""
    rng = random.Random(seed)
    latencies = []
    with tempfile.TemporaryDirectory(prefix="yariboard-bench-link-") as work, \
            SimRig(work + "/flash", clock=clock, log_dir=work) as rig:
        archive = Archive(work + "/games.sqlite3")
        link = Link(finder=rig.ports)
        recorder = Recorder(link, archive)
        recorder.step(0.1)
        position = Position()
        touch_ms = 3 * rig.board.config.debounce_ms
        for _ in range(plies):
            # Plain moves (lift, place) that cannot promote: the board asks no question.
            quiet = [m for m in position.legal_moves()
                     if not is_drop(m) and len(hand_actions(position, m)) == 2
                     and not position.is_legal(make_move(move_from(m), move_to(m), True))]
            move = rng.choice(quiet)
            lift, place = hand_actions(position, move)
            rig.act(lift)
            rig.wait(touch_ms)
            stored = recorder.stored_count()
            if clock == "virtual":
                rig.board.send_commands([place])
                rig.board.sync()
                start = time.perf_counter()
                # The settling time passes at simulation speed; the commit comes within it.
                rig.board.advance(SETTLE_MS + 2 * rig.board.config.debounce_ms)
            else:
                start = time.perf_counter()
                rig.board.send_commands([place])
            while recorder.stored_count() == stored:
                recorder.step(0.0005)
            latencies.append((time.perf_counter() - start) * 1000.0)
            position.push(move)
        link.close()
        archive.close()
    return latencies


def run():
    for clock in ("real", "virtual"):
        latencies = measure(clock, PLIES[clock])
        print("place_to_archive_%s_clock_moves: %d" % (clock, len(latencies)))
        print("place_to_archive_%s_clock_mean_ms: %.1f" % (clock, statistics.mean(latencies)))
        print("place_to_archive_%s_clock_worst_ms: %.1f" % (clock, max(latencies)))
    print("settle_ms_included_in_real_clock: %d" % SETTLE_MS)
