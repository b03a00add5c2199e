"""Firmware figures on the MicroPython unix port: heap for a whole game, loop and lift-to-light.

Budgets (issue: firmware): the whole firmware (main.py, drivers, interpreter, rules core,
storage, serial) plays a 300-ply game within 96 KB of heap (`-X heapsize`, which bounds
the heap for real); the smallest heap that still works is found by bisection, for the
firmware run from source and from mpy-cross output as flashed to the Pico.
Also: the time of one scan-and-interpret pass of the main loop, and the time from a lifted
piece to its destinations being lit (board time, which the debounce dominates, plus the
processor time of the pass that lights them).
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

from shogicore.game import Game
from shogicore.notation import to_usi
from yariboard.simboard import FIRMWARE, SimBoard, SimBoardError, micropython_binary, move_gestures

BUDGET_KB = 96
PLIES = 300


def long_game(plies=PLIES, seed=3):
    """A random legal game of exactly `plies` moves that never ends early."""
    rng = random.Random(seed)
    game = Game("yari")
    moves = []
    while len(moves) < plies:
        candidates = game.position.legal_moves()
        rng.shuffle(candidates)
        for m in candidates:
            game.position.push(m)
            ends = game.position.status() is not None
            game.position.pop()
            if not ends:
                break
        else:
            raise RuntimeError("seed %d runs into a finished game" % seed)
        moves.append(m)
        game.play(m)
    return moves


def plays_whole_game(heap_kb, moves, firmware_dir, workdir):
    """Does the firmware, with `heap_kb` of heap, record all of `moves` without a fault?"""
    storage = tempfile.mkdtemp(dir=workdir)
    sim = SimBoard(storage, heapsize="%dK" % heap_kb, firmware_dir=firmware_dir, log_dir=storage)
    game = Game("yari")
    try:
        sim.start(timeout=20)
        for m in moves:
            sim.send_commands(move_gestures(game.position, m))
            game.play(m)
            if len(game.position.moves()) % 25 == 0:
                sim.sync(timeout=20)
        sim.sync(timeout=20)
    except SimBoardError:
        return False
    finally:
        sim.close()
    with open(os.path.join(storage, "game.txt")) as f:
        saved = [w for line in f if line.startswith("moves ") for w in line.split()[1:]]
    faults = "Error" in sim.stderr_text()
    return not faults and saved == [to_usi(game.variant, m) for m in moves]


def smallest_heap_kb(moves, firmware_dir, workdir, low=32, high=512):
    """Bisection on whole KB: the smallest heap with which the game is played through."""
    if not plays_whole_game(high, moves, firmware_dir, workdir):
        return None
    while high - low > 1:
        middle = (low + high) // 2
        if plays_whole_game(middle, moves, firmware_dir, workdir):
            high = middle
        else:
            low = middle
    return high


def compile_firmware(target):
    """mpy-cross every module into `target` (as `make flash` does) and copy main.py beside."""
    mpy_cross = os.path.join(os.path.dirname(micropython_binary()), "mpy-cross")
    for package in ("boardfw", "shogicore"):
        os.makedirs(os.path.join(target, package))
        for name in os.listdir(os.path.join(FIRMWARE, package)):
            if name.endswith(".py"):
                subprocess.run([mpy_cross, "-march=armv6m", "-o",
                                os.path.join(target, package, name[:-3] + ".mpy"),
                                os.path.join(FIRMWARE, package, name)], check=True)
    shutil.copy(os.path.join(FIRMWARE, "main.py"), target)
    return target


# Runs on the unix port: the controller with simulated pins, timed with ticks_us.
LOOP_TIMING = """
import gc, json, time
from boardfw import config
from boardfw.controller import Controller
from boardfw.sim_hw import SimHardware

class QuietLink:
    def read_line(self):
        return None
    def write(self, frame):
        pass

cfg = config.load('../hardware/boards/yari-9x7.json')
hw = SimHardware(cfg, STORAGE)
for square in ('7i', '6i', '5i', '4i', '3i', '2i', '1i', '7g', '6g', '5g', '4g', '3g', '2g',
               '1g', '7a', '6a', '5a', '4a', '3a', '2a', '1a', '7c', '6c', '5c', '4c', '3c',
               '2c', '1c'):
    hw.matrix_pins.set(*cfg.matrix_position(square), True)
c = Controller(hw, cfg, QuietLink())
c.boot()
gc.collect()
booted_bytes = gc.mem_alloc()

def passes(n):
    start = time.ticks_us()
    for _ in range(n):
        hw.advance(1)
        c.step()
    return time.ticks_diff(time.ticks_us(), start) / n

idle = passes(2000)
# lift the Yari Rook on 7i: the square straight ahead, 7h, lights as a destination
row, col = cfg.matrix_position('7i')
hw.matrix_pins.set(row, col, False)
lifted_at = hw.ticks_ms()
worst = 0
lit_ms = None
while lit_ms is None:
    hw.advance(1)
    t0 = time.ticks_us()
    c.step()
    spent = time.ticks_diff(time.ticks_us(), t0)
    worst = max(worst, spent)
    if hw.strip.pixels[cfg.led_index('7h')] != (0, 0, 0):
        lit_ms = hw.ticks_ms() - lifted_at
        lit_pass_us = spent
holding = passes(2000)
print(json.dumps({'booted_bytes': booted_bytes, 'idle_us': idle, 'holding_us': holding, 'lit_ms': lit_ms,
                  'lit_pass_us': lit_pass_us, 'debounce_ms': cfg.debounce_ms}))
"""


def loop_timing(workdir):
    storage = tempfile.mkdtemp(dir=workdir)
    code = LOOP_TIMING.replace("STORAGE", repr(storage))
    proc = subprocess.run([micropython_binary(), "-c", code], cwd=FIRMWARE, capture_output=True,
                          text=True, env=dict(os.environ, MICROPYPATH=FIRMWARE), timeout=300)
    if proc.returncode:
        raise RuntimeError(proc.stderr)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def word_bits():
    """The unix port's word size: its objects are twice the Pico's (32-bit) on 64 bits."""
    out = subprocess.run([micropython_binary(), "-c",
                          "import sys; print(64 if sys.maxsize > 1 << 32 else 32)"],
                         capture_output=True, text=True, check=True)
    return int(out.stdout)


def run():
    workdir = tempfile.mkdtemp(prefix="bench-firmware-")
    print("unix port word size: %d-bit (the Pico: 32-bit)" % word_bits(), flush=True)
    try:
        moves = long_game()
        for label, firmware_dir in (("source", FIRMWARE),
                                    ("mpy", compile_firmware(os.path.join(workdir, "mpy")))):
            smallest = smallest_heap_kb(moves, firmware_dir, workdir)
            print("firmware %d-ply game, smallest heap (%s): %s" % (
                PLIES, label, "%d KB" % smallest if smallest else "over 512 KB"), flush=True)
            if smallest:
                print("firmware %d-ply game within %d KB (%s): %s" % (
                    PLIES, BUDGET_KB, label, "yes" if smallest <= BUDGET_KB else "NO"), flush=True)
        timing = loop_timing(workdir)
        print("heap in use after boot, source: %d KB" % (timing["booted_bytes"] // 1024))
        print("scan-and-interpret pass, board at rest (mean of 2000): %.0f us" % timing["idle_us"])
        print("scan-and-interpret pass, piece held up (mean of 2000): %.0f us"
              % timing["holding_us"])
        print("lift to lit destinations, board time: %d ms (debounce %d ms)"
              % (timing["lit_ms"], timing["debounce_ms"]))
        print("lift to lit destinations, processing of that pass: %.0f us"
              % timing["lit_pass_us"])
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(run())
