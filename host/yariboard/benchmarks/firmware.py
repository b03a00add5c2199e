"""Firmware figures on the MicroPython unix port: heap for a whole game, loop and lift-to-light.

Budgets (issue: firmware): the whole firmware (main.py, drivers, interpreter, rules core,
storage, serial) plays a 300-ply game within 64 KB of heap (`-X heapsize`, which bounds
the heap for real) on a 32-bit unix port, whose objects are the Pico's size, for each seed of
the long games below. The smallest heap that still works is searched for the firmware run
from source and from mpy-cross output as flashed to the Pico, and the heap in use is
broken down into modules, the booted board and the game. On 32-bit, the bytes each long game
has to spare under the budget are found too, to 64 bytes over a few runs. The unix ports to
measure with are given to `run` (`yariboard bench firmware --micropython PATH`): the 64-bit
one installed beside yariboard by default, whose figures are shown for comparison.
Also: the time of one scan-and-interpret pass of the main loop, and the time from a lifted
piece to its destinations being lit (board time, which the debounce dominates, plus the
processor time of the pass that lights them).
Every figure is given for each board of BOARDS: the Yari board, then the Wa Shogi board
(11 x 11), whose bigger tables and per-square state are held to the same budget.
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from boardfw.save_reader import parse
from shogicore.game import Game
from shogicore.move import to_usi
from yariboard.resources import CHECKOUT, board_file
from yariboard.sim.board import FIRMWARE, micropython_binary, move_gestures, occupied_squares

BUDGET_KB = 64     # whole firmware, 300-ply game, 32-bit
PLIES = 300
SEEDS = (3, 4, 5)  # the long games: the budget holds for each
MARGIN_RUNS = 3    # runs per long game for the bytes to spare under the budget
MARGIN_STEP = 64   # bytes
# The heap in use is read at this much above the smallest heap that plays the game. In a
# much larger heap, a stale pointer on the stack (the collector scans it conservatively)
# can keep up to 2 KB of garbage alive at some sizes and not others; near the budget the
# figure is steady to a few dozen bytes.
PROFILE_HEADROOM_KB = 16
# The boards measured, each with the piece lifted for the lift-to-light time and the square
# that must light: a piece with a legal move in the start position.
BOARDS = (("yari-9x7", "yari", "7i", "7h"), ("wa-11x11", "wa", "11k", "11j"))


def long_game(plies=PLIES, seed=3, variant="yari"):
    """A random legal game of exactly `plies` moves that never ends early."""
    rng = random.Random(seed)
    game = Game(variant)
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


def game_script(moves, variant="yari"):
    """Control-channel lines (docs/simulator.md) that play `moves` on a set-up board, as a
    player's hands would, and the moves' USI, which the saved game must then hold."""
    game = Game(variant)
    lines = ["set " + " ".join(occupied_squares(variant)), "sync boot"]  # the set-up, then boot
    for m in moves:
        lines += move_gestures(game.position, m)
        game.play(m)
    lines.append("advance 1000")
    return lines, [to_usi(game.variant, m) for m in moves]


def run_firmware(binary, firmware_dir, heap_kb, control_path, workdir, script="main.py",
                 timeout=120, board="yari-9x7"):
    """Run main.py (or a probe around it) on the control script; (stderr, stdout, storage).

    The serial output goes nowhere (the figures need no host) and the run ends when the
    control script does. There is no report channel: its line for each LED frame would need
    heap that the Pico's LED driver never asks for, and on the edge of the budget such
    passing garbage decides where the blocks that stay land. A fault is logged and main.py
    restarts the game from its save, so the run is stopped at the first logged error rather
    than left to retry.
    Modules are imported as on the Pico: by relative paths from the firmware's folder, the
    only entry of sys.path. (The unix port interns the words of the command line: the qstr
    table counts about ten names, the paths among them, that the Pico does not have.)
    """
    storage = tempfile.mkdtemp(dir=workdir)
    err_path = os.path.join(storage, "stderr")
    serial_in, keep_open = os.pipe()          # a serial line that never speaks
    with open(err_path, "w") as err:
        proc = subprocess.Popen(
            [binary, "-X", "heapsize=%d" % (heap_kb * 1024), "-m", script[:-len(".py")],
             "--board", board_file(board), "--storage", storage,
             "--control", control_path],
            cwd=firmware_dir, stdin=serial_in, stdout=subprocess.PIPE, stderr=err,
            env=dict(os.environ, MICROPYPATH=""))
        deadline = time.monotonic() + timeout
        while proc.poll() is None:
            time.sleep(0.05)
            with open(err_path) as f:
                if "Error" in f.read() or time.monotonic() > deadline:
                    proc.kill()
        out = proc.communicate()[0].decode(errors="replace")
    os.close(serial_in)
    os.close(keep_open)
    with open(err_path) as f:
        return f.read(), out, storage


def plays_whole_game(binary, heap_kb, firmware_dir, control_path, expected, workdir,
                     board="yari-9x7"):
    """Does the firmware, with `heap_kb` of heap (a fraction allowed), save every move of the
    game, fault-free?"""
    stderr, _, storage = run_firmware(binary, firmware_dir, heap_kb, control_path, workdir,
                                      board=board)
    try:
        with open(os.path.join(storage, "game.txt"), "rb") as f:
            record = f.read()
        journal = os.path.join(storage, "game.log")   # the entries since the last compaction
        log = b""
        if os.path.exists(journal):
            with open(journal, "rb") as f:
                log = f.read()
        saved = list(parse(record, log=log).moves)
    except (OSError, ValueError):   # no save, or a damaged one
        return False
    finally:
        shutil.rmtree(storage, ignore_errors=True)
    return "Error" not in stderr and saved == expected


def smallest_heap_kb(works, low=48, high=512, stable=6):
    """The smallest heap (KB) from which `works(kb)` holds at `stable` sizes in a row.

    Fragmentation makes success not strictly monotonic in the heap size: bisection finds a
    candidate, then 1 KB steps below it look for a smaller one and above it confirm it.
    """
    if not works(high):
        return None
    while high - low > 1:
        middle = (low + high) // 2
        if works(middle):
            high = middle
        else:
            low = middle
    candidate = high
    for kb in range(high - 1, max(low - stable, 0), -1):
        if works(kb):
            candidate = kb
    kb = candidate
    while kb < candidate + stable:
        if not works(kb):
            candidate = kb + 1
        kb += 1
    return candidate


# Runs around main.py: heap in use (after gc.collect) once the modules are imported, once
# the board has booted, and at the end of the control script; then the qstr table's size.
# It adds as few names as it can (its labels are longer than the interned 10 characters,
# its function reuses `run`): past 620 names the qstr table takes another 7 KB block, and
# the probe must not be what pushes it there.
HEAP_PROFILE = """
import gc, micropython, sys
from boardfw import controller
def run(self):
    gc.collect()
    print('profile:imported', gc.mem_alloc())
    self.boot()
    gc.collect()
    print('profile:booted', gc.mem_alloc())
    try:
        while True:
            self.step()
            self.hw.idle()
    except SystemExit:
        gc.collect()
        print('profile:played', self.game.position.plies, gc.mem_alloc())
        micropython.qstr_info()
        raise
controller.Controller.run = run
sys.argv[0] = 'main.py'
import main
"""


def heap_profile(binary, firmware_dir, control_path, workdir, heap_kb=512, board="yari-9x7"):
    """Heap in use at three moments and the qstr table, from one run of the game."""
    probe = os.path.join(firmware_dir, "heap_profile.py")
    with open(probe, "w") as f:
        f.write(HEAP_PROFILE)
    try:
        _, out, storage = run_firmware(binary, firmware_dir, heap_kb, control_path, workdir,
                                       script="heap_profile.py", board=board)
    finally:
        os.remove(probe)
    shutil.rmtree(storage, ignore_errors=True)
    figures = {}
    for line in out.splitlines():
        words = line.split()
        if words and words[0] in ("profile:imported", "profile:booted"):
            figures[words[0][len("profile:"):]] = int(words[1])
        elif words and words[0] == "profile:played":
            figures["plies"], figures["played"] = int(words[1]), int(words[2])
        elif line.startswith("qstr pool:"):
            fields = dict(w.rstrip(",").split("=") for w in line.split() if "=" in w)
            figures["qstrs"] = int(fields["n_qstr"])
            figures["qstr_pools"] = int(fields["n_pool"])
            figures["qstr_bytes"] = int(fields["n_total_bytes"])
    return figures


def compile_firmware(target):
    """The modules as `make flash` compiles them (tools/flash.py's own mpy-cross commands,
    plus the simulated board's module, which the Pico does not get) and main.py beside."""
    sys.path.insert(0, CHECKOUT)
    try:
        from tools.flash import build
    finally:
        sys.path.remove(CHECKOUT)
    if build(target, host_only=True):
        raise RuntimeError("mpy-cross failed")
    shutil.copy(os.path.join(FIRMWARE, "main.py"), target)
    return target


# Runs on the unix port: the controller with simulated pins, timed with ticks_us.
LOOP_TIMING = """
import gc, json, time
from boardfw import config
from boardfw.controller import Controller
from boardfw.sim_hw import SimHardware
from boardfw.storage import GameStore
from shogicore.move import parse_usi

WRITTEN = [0]

class CountingFile:   # counts the bytes a save writes to flash
    def __init__(self, f):
        self.f = f
    def write(self, data):
        WRITTEN[0] += len(data)
        return self.f.write(data)
    def read(self):
        return self.f.read()
    def close(self):
        self.f.close()

def counting_opener(path, mode):
    return CountingFile(open(path, mode))

class QuietLink:
    def read_line(self):
        return None
    def send(self, seq, words):
        pass

gc.threshold(8192)   # as main.py sets it
cfg = config.load(BOARD)
hw = SimHardware(cfg, STORAGE)
for square in OCCUPIED:
    hw.matrix_pins.set(*cfg.matrix_position(square), True)
c = Controller(hw, cfg, QuietLink(), GameStore(STORAGE, counting_opener))
c.boot()

def passes(n):
    start = time.ticks_us()
    for _ in range(n):
        hw.advance(1)
        c.step()
    return time.ticks_diff(time.ticks_us(), start) / n

idle = passes(2000)
# Lift a piece (Yari: the Rook on 7i): a square it may go to (7h) lights as a destination. The
# piece goes back and settles between lifts; the pass that lights it is timed 21 times.
row, col = cfg.matrix_position(LIFTED)
lit_passes = []
for lift in range(21):
    hw.matrix_pins.set(row, col, False)
    lifted_at = hw.ticks_ms()
    while True:
        hw.advance(1)
        t0 = time.ticks_us()
        c.step()
        spent = time.ticks_diff(time.ticks_us(), t0)
        if hw.strip[cfg.led_index(LIT)] != (0, 0, 0):
            lit_ms = hw.ticks_ms() - lifted_at
            lit_passes.append(spent)
            break
    if lift < 20:
        hw.matrix_pins.set(row, col, True)
        passes(500)
lit_pass_us = sorted(lit_passes)[10]
holding = passes(2000)
# The long game, each move saved as the board saves it (an appended entry, a compaction now
# and then), timed; and status() (mate and repetition) after each move.
position = c.game.position
status_us = []
save_us = []
for usi in MOVES:
    m = parse_usi(c.game.variant, usi)
    c.game.play(m)
    start = time.ticks_us()
    c.save_changes((('move', m),))
    save_us.append(time.ticks_diff(time.ticks_us(), start))
    start = time.ticks_us()
    position.status()
    status_us.append(time.ticks_diff(time.ticks_us(), start))
written = WRITTEN[0]
start = time.ticks_us()
for _ in range(5):
    c.save()
compaction_us = time.ticks_diff(time.ticks_us(), start) / 5
print(json.dumps({'idle_us': idle, 'holding_us': holding, 'lit_ms': lit_ms,
                  'lit_pass_us': lit_pass_us, 'debounce_ms': cfg.debounce_ms,
                  'save_us': save_us, 'status_us': status_us, 'compaction_us': compaction_us,
                  'bytes_per_move': written / len(MOVES)}))
"""


PICO_HEAP_KB = 192   # about what the Pico has free after boot (ARCHITECTURE.md)


def mean(values):
    return sum(values) / len(values)


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return (ordered[middle] + ordered[~middle]) / 2


def loop_timing(binary, workdir, moves, board="yari-9x7", variant="yari", lifted="7i", lit="7h"):
    """Times of the loop on a Pico-sized heap (a collection, which the loop's garbage brings
    now and then, takes time in proportion to the heap), and of a save once `moves` (USI)
    have been played."""
    storage = tempfile.mkdtemp(dir=workdir)
    code = LOOP_TIMING
    for name, value in (("STORAGE", storage), ("MOVES", moves), ("BOARD", board_file(board)),
                        ("OCCUPIED", occupied_squares(variant)), ("LIFTED", lifted), ("LIT", lit)):
        code = code.replace(name, repr(value))
    # a 64-bit port's objects are twice the Pico's: the Pico-sized heap scaled as they are
    heap_kb = PICO_HEAP_KB * word_bits(binary) // 32
    proc = subprocess.run([binary, "-X", "heapsize=%dK" % heap_kb, "-c", code],
                          cwd=FIRMWARE, capture_output=True,
                          text=True, env=dict(os.environ, MICROPYPATH=FIRMWARE), timeout=300)
    if proc.returncode:   # MicroPython prints an uncaught exception on stdout
        raise RuntimeError("loop timing on %s failed: %s" % (
            board, (proc.stderr or proc.stdout).strip().splitlines()[-1:]))
    return json.loads(proc.stdout.strip().splitlines()[-1])


def word_bits(binary):
    """The unix port's word size: its objects are twice the Pico's (32-bit) on 64 bits."""
    out = subprocess.run([binary, "-c",
                          "import sys; print(64 if sys.maxsize > 1 << 32 else 32)"],
                         capture_output=True, text=True, check=True)
    return int(out.stdout)


def qstr_room(profile):
    """Names the qstr table takes before its next pool. The unix port's pools hold 20, 40,
    80 ... names: the next one is as big as all before (7 KB on the Pico past 620 names)."""
    return 20 * (2 ** profile["qstr_pools"] - 1) - profile["qstrs"]


def write_control(workdir, seed, variant="yari"):
    """The control script of the long game of `seed`, and the moves the save must hold."""
    lines, expected = game_script(long_game(seed=seed, variant=variant), variant)
    control_path = os.path.join(workdir, "game-%s-%d.control" % (variant, seed))
    with open(control_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return control_path, expected


def bench_heap(binary, games, mpy_dir, workdir, board="yari-9x7"):
    """Smallest heap for each long game, from source (first game) and as .mpy (every game)."""
    bits = word_bits(binary)
    print("-- unix port %s (%d-bit%s)" % (binary, bits, ", the Pico's word size" if bits == 32
                                          else "; the Pico is 32-bit"), flush=True)
    seed, (control_path, expected) = games[0]
    smallest = smallest_heap_kb(lambda kb: plays_whole_game(
        binary, kb, FIRMWARE, control_path, expected, workdir, board))
    print("firmware %d-ply game, smallest heap (%d-bit, source, seed %d): %s" % (
        PLIES, bits, seed, "%d KB" % smallest if smallest else "over 512 KB"), flush=True)
    worst = 0
    for seed, (control_path, expected) in games:
        smallest = smallest_heap_kb(lambda kb: plays_whole_game(
            binary, kb, mpy_dir, control_path, expected, workdir, board))
        worst = max(worst, smallest or 10 ** 6)
        print("firmware %d-ply game, smallest heap (%d-bit, mpy, seed %d): %s" % (
            PLIES, bits, seed, "%d KB" % smallest if smallest else "over 512 KB"), flush=True)
    if bits == 32:
        verdict = "budget %d KB: %s" % (BUDGET_KB, "within" if worst <= BUDGET_KB else "OVER")
    else:
        verdict = "for comparison; the budget is checked on 32-bit"
    print("firmware %d-ply game (%d-bit, mpy), worst of seeds %s: %d KB (%s)" % (
        PLIES, bits, ", ".join(map(str, SEEDS)), worst, verdict), flush=True)
    if bits == 32:
        print_margin(binary, games, mpy_dir, workdir, board)
    profile_kb = min(worst + PROFILE_HEADROOM_KB, 512)   # 512: the largest heap searched
    profile = heap_profile(binary, mpy_dir, games[0][1][0], workdir, heap_kb=profile_kb,
                           board=board)
    print("heap in use (%d-bit, mpy, after gc, in a %d KB heap): modules imported %d KB, "
          "board booted %d KB, after %d plies %d KB"
          % (bits, profile_kb, profile["imported"] // 1024, profile["booted"] // 1024,
             profile["plies"], profile["played"] // 1024))
    print("qstr table (%d-bit; names and short strings): %d qstrs in %d pools, %d KB; "
          "room before the next pool: %d names" % (bits, profile["qstrs"], profile["qstr_pools"],
                                                   profile["qstr_bytes"] // 1024,
                                                   qstr_room(profile)), flush=True)


def smallest_heap_bytes(works, low, high, step=MARGIN_STEP):
    """The smallest heap (bytes, to `step`) for which `works(bytes)` holds, by bisection."""
    while high - low > step:
        middle = (low + high) // 2 // step * step
        if works(middle):
            high = middle
        else:
            low = middle
    return high


def print_margin(binary, games, mpy_dir, workdir, board):
    """How far under the budget each long game stays, to MARGIN_STEP bytes, over MARGIN_RUNS
    runs: each run draws its own game id, whose save CRCs decide where small blocks land, so
    the smallest heap moves from run to run by a few hundred bytes."""
    budget = BUDGET_KB * 1024
    worst = 0
    for seed, (control_path, expected) in games:
        sizes = sorted(smallest_heap_bytes(
            lambda n: plays_whole_game(binary, n / 1024, mpy_dir, control_path, expected,
                                       workdir, board), budget - 8192, budget + 8192)
            for _ in range(MARGIN_RUNS))
        worst = max(worst, sizes[-1])
        print("firmware %d-ply game (32-bit, mpy, seed %d), smallest heap over %d runs: "
              "%d to %d bytes" % (PLIES, seed, MARGIN_RUNS, sizes[0], sizes[-1]), flush=True)
    print("firmware %d-ply game (32-bit, mpy): %d bytes to spare under %d KB at worst"
          % (PLIES, budget - worst, BUDGET_KB), flush=True)


def print_timing(timing, binary):
    """The loop, save and status() figures of one board (loop_timing), one per line."""
    print("-- loop and save times (unix port %s)" % binary)
    print("scan-and-interpret pass, board at rest (mean of 2000): %.0f us" % timing["idle_us"])
    print("scan-and-interpret pass, piece held up (mean of 2000): %.0f us" % timing["holding_us"])
    print("lift to lit destinations, board time: %d ms (debounce %d ms)"
          % (timing["lit_ms"], timing["debounce_ms"]))
    print("lift to lit destinations, processing of that pass (median of 21 lifts): %.0f us"
          % timing["lit_pass_us"])
    # medians: a garbage collection now and then lands in one of the timed calls
    saves, statuses = timing["save_us"], timing["status_us"]
    print("save after a move, median over plies 6-15 (file on the host's disk): %.2f ms"
          % (median(saves[5:15]) / 1000))
    print("save after a move, median over plies 291-300: %.2f ms" % (median(saves[290:300]) / 1000))
    print("save after a move, worst of the game (one with a compaction): %.2f ms"
          % (max(saves) / 1000))
    print("compaction (the whole game rewritten) at ply %d: %.2f ms"
          % (len(saves), timing["compaction_us"] / 1000))
    print("bytes written to flash per move, %d-ply game: %.0f"
          % (len(saves), timing["bytes_per_move"]))
    print("status() after a move, plies 1-10: median %.0f us, mean %.0f us"
          % (median(statuses[:10]), mean(statuses[:10])))
    print("status() after a move, plies 291-300: median %.0f us, mean %.0f us"
          % (median(statuses[290:]), mean(statuses[290:])), flush=True)


def run(binaries=()):
    binaries = list(binaries) or [micropython_binary()]
    workdir = tempfile.mkdtemp(prefix="bench-firmware-")
    try:
        mpy_dir = compile_firmware(os.path.join(workdir, "mpy"))
        for board, variant, lifted, lit in BOARDS:
            print("== board %s (%s)" % (board, variant), flush=True)
            games = [(seed, write_control(workdir, seed, variant)) for seed in SEEDS]
            for binary in binaries:
                bench_heap(binary, games, mpy_dir, workdir, board)
            print_timing(loop_timing(binaries[0], workdir, games[0][1][1], board, variant, lifted,
                                     lit), binaries[0])
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(run())
