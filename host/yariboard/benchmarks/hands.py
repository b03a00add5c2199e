"""Quick hands on the real firmware image in the emulated Pico (docs/emulator.md).

For each tempo (how long a hand takes over each action: a piece held up, a button held
down), a long game of Yari Shogi is played with varied hands (captures in either order,
slides brushing squares, nudges, re-seats, promotion and drop choices made with B, by
re-seating or by waiting), each move's hands starting as soon as the one before is done, so
replies start while the board commits the move before, and now and then while it
compacts its record. It prints per tempo the moves played, recorded as played, missed (no
move announced, or the board asked for the pieces to be re-seated) and misrecorded (another
move announced), and the longest stretches of board time between two samples of the
switches reaching the board's RAM, by what the board was doing: at start-up, for a `new`/`setpos`, and while playing
with no flash work, with one sector erase (a move's save), with more (a compaction).
"""
import os
import random
import shutil
import sys
import tempfile
import time

from shogicore.game import Game
from shogicore.move import to_usi
from yariboard.benchmarks.firmware import long_game
from yariboard.sim.emulator import EmulatedPico, EmulatorError, install_firmware, missing_parts
from yariboard.sim.board import SerialClient, move_gestures

TEMPOS = (40, 60, 80, 100, 120)
MOVES = int(os.environ.get("YARIBOARD_BENCH_HAND_MOVES", "300"))
SEED = 5
PROGRESS_EVERY = 25       # moves between two progress lines (a long run can be read as it goes)
NS_PER_MS = 1000000
# Board seconds to wait for a move's announcement while the next move's hands are at work
# (the announcement comes as they begin), before asking the board once they are done. The
# waits run in the board's own time, which a busy machine slows as much as the board.
QUICK_WAIT_S = 120


class Tally:
    """What one tempo's game came to."""

    def __init__(self, hand_ms):
        self.hand_ms = hand_ms
        self.played = self.recorded = self.missed = self.misrecorded = 0
        self.reseat_asked = 0
        self.windows = []        # (start ns, end ns, situation) of host requests and start-up
        self.blind = {}          # situation -> (longest ns, longest ns outside flash work, count)
        self.longest_ns = 0      # the longest stretch between two samples, all game long

    def add_blind(self, stretches):
        self.blind = {}
        for start, end, chip_ns in stretches:
            situation = self._situation(start, end, chip_ns)
            longest, outside, count = self.blind.get(situation, (0, 0, 0))
            self.blind[situation] = (max(longest, end - start),
                                     max(outside, end - start - chip_ns), count + 1)

    def _situation(self, start, end, chip_ns):
        for first, last, name in self.windows:
            if start < last and end > first:
                return name
        if not chip_ns:
            return "playing, no flash work"
        return "playing, a save" if chip_ns <= 50 * NS_PER_MS else "playing, a compaction"


def play_tempo(image, hand_ms, moves, folder):
    """Boot a copy of the deployed flash image and play `moves` with hands of `hand_ms`."""
    flash = os.path.join(folder, "flash-%d.bin" % hand_ms)
    shutil.copyfile(image, flash)
    tally = Tally(hand_ms)
    pico = EmulatedPico(flash, log_dir=folder).start()
    client = None
    try:
        pico.wait_booted(1)
        client = SerialClient(pico.port, timeout=300, clock=pico.board_seconds)
        client.wait_for(lambda f: f[1] == "hello")
        tally.windows.append((0, pico.sync(), "start-up"))
        request(pico, client, tally, "new", "yari", "-", "casual")
        play_game(pico, client, tally, moves, random.Random(SEED + hand_ms))
        pico.sync()
        tally.add_blind(pico.blind)
        tally.longest_ns = pico.stats()["pass_longest_ns"]
        report([tally], "after")
    finally:
        if client:
            client.close()
        pico.close()
    return tally


def request(pico, client, tally, *words):
    """A host request, its board-time window noted as `new/setpos`."""
    start = pico.sync()
    status, reply = client.request(*words)
    if status != "ok":
        raise EmulatorError("%s refused: %s" % (words[0], " ".join(reply)))
    tally.windows.append((start, pico.sync(), "new/setpos"))


def play_game(pico, client, tally, moves, rng):
    game = Game("yari")
    seen = len(client.frames)          # frames before this index are accounted for
    pending = None                     # the move played whose announcement is awaited
    for m in long_game(moves, seed=SEED) + [None]:
        if m is not None:
            pico.send_commands(move_gestures(game.position, m, rng=rng, hand_ms=tally.hand_ms))
            game.play(m)
            tally.played += 1
        if pending is not None:
            outcome, seen = announcement(pico, client, seen, pending, m is None)
            if outcome == "recorded":
                tally.recorded += 1
            else:
                setattr(tally, outcome, getattr(tally, outcome) + 1)
                if client.events("refused")[-1:] == [["unseen-capture"]]:
                    tally.reseat_asked += 1
                # the hands went on: the board is set to what they made, and play goes on
                pico.sync()
                if m is not None:
                    tally.played -= 1     # the move queued behind the lost one is not counted
                    pending = None
                request(pico, client, tally, "setpos", "yari", "casual", *game.position.sfen().split())
                seen = len(client.frames)
                continue
        pending = None if m is None else to_usi(game.variant, m)
        if tally.played % PROGRESS_EVERY == 0 and m is not None:
            tally.add_blind(list(pico.blind))
            report([tally], "so far")


def announcement(pico, client, seen, pending, last):
    """Did the board announce the pending move? ('recorded' | 'missed' | 'misrecorded',
    index of the frames read)."""
    usi = pending

    def next_move(frame):
        return frame[1] == "move"

    try:
        frame = client.wait_for(next_move, timeout=QUICK_WAIT_S if not last else 1, start=seen)
    except TimeoutError:
        # Slow machine or a lost move: once the hands are done, the board's answer to a
        # request comes after any announcement it made.
        pico.sync()
        client.request("version")
        try:
            frame = client.wait_for(next_move, timeout=1, start=seen)
        except TimeoutError:
            return "missed", len(client.frames)
    index = client.frames.index(frame, seen) + 1
    return ("recorded" if frame[2][1] == usi else "misrecorded"), index


def report(tallies, when="after"):
    print("hands on the emulated Pico (MicroPython v1.28.0 UF2 in rp2040js), board time; "
          "%s %s moves a tempo, Yari, seed %d"
          % (when, "/".join(str(t.played) for t in tallies), SEED))
    print("%-6s %7s %9s %7s %12s %14s" % ("hands", "played", "recorded", "missed", "misrecorded",
                                            "re-seat asked"))
    for t in tallies:
        print("%-6s %7d %9d %7d %12d %14d" % ("%d ms" % t.hand_ms, t.played, t.recorded,
                                              t.missed, t.misrecorded, t.reseat_asked))
    situations = ("start-up", "new/setpos", "playing, no flash work", "playing, a save",
                  "playing, a compaction")
    print("longest stretch between two samples of the switches reaching the board's RAM (ms; "
          "outside flash work; how many over 10 ms):")
    for t in tallies:
        cells = []
        for name in situations:
            if name in t.blind:
                longest, outside, count = t.blind[name]
                cells.append("%s %.1f (%.1f; %d)" % (name, longest / NS_PER_MS,
                                                     outside / NS_PER_MS, count))
            else:
                cells.append("%s under 10" % name)
        longest = "; longest of all %.1f" % (t.longest_ns / NS_PER_MS) if t.longest_ns else ""
        print("  %d ms hands: %s%s" % (t.hand_ms, "; ".join(cells), longest), flush=True)


def run(tempos=TEMPOS, moves=MOVES):
    why = missing_parts()
    if why:
        print("hands: not run (%s)" % why)
        return None
    folder = tempfile.mkdtemp(prefix="bench-hands-")
    try:
        image = os.path.join(folder, "flash.bin")
        try:
            install_firmware(image)
        except EmulatorError as error:
            print("hands: %s" % error)
            return None
        tallies = []
        for hand_ms in tempos:
            started = time.monotonic()
            try:
                tallies.append(play_tempo(image, hand_ms, moves, folder))
            except (EmulatorError, TimeoutError) as error:
                print("hands %d ms: the game stopped: %s" % (hand_ms, error))
                continue
            print("(%d ms hands: %.0f s)" % (hand_ms, time.monotonic() - started), flush=True)
        if len(tallies) > 1:
            report(tallies)
        return tallies
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(run() is None)
