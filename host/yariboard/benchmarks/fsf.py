"""`yariboard bench fsf`: Fairy-Stockfish (npm build under Node.js) next to the built-in
engine, both through the USI adapter: start-up time, Yari perft 4, nodes per second on the
engine benchmark's three middlegames (`bench match` plays the matches).
Needs `yariboard engines install fsf`; without it the benchmark says so and stops."""
import subprocess
import time

from shogicore.position import Position
from shogicore.variants import YARI

from yariboard.engines import fsf
from yariboard.engines.base import Limit
from yariboard.benchmarks.engine import MIDDLEGAMES
from yariboard.engines.match import open_builtin

SEARCH_SECONDS = 3


def perft(argv, depth):
    """(nodes, seconds) of Fairy-Stockfish's `go perft` from the Yari start position."""
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        process.stdin.write("usi\nsetoption name USI_Variant value yarishogi\nisready\n")
        process.stdin.flush()
        for line in process.stdout:
            if line.startswith("readyok"):
                break
        start = time.monotonic()
        process.stdin.write("position startpos\ngo perft %d\n" % depth)
        process.stdin.flush()
        for line in process.stdout:
            if line.startswith("Nodes searched:"):
                return int(line.split(":")[1]), time.monotonic() - start
        return None, None
    finally:
        process.stdin.close()
        process.wait(10)


def run():
    try:
        argv = fsf.command()
    except fsf.EngineMissing as error:
        print("fsf: not measured: %s" % error)
        return
    nodes, seconds = perft(argv, 4)
    print("fsf yari perft 4: %d nodes in %.2f s" % (nodes, seconds), flush=True)
    start = time.monotonic()
    engines = (("fsf", fsf.open_engine("yari")),)
    print("fsf start-up: %.1f s" % (time.monotonic() - start), flush=True)
    engines += (("built-in (USI)", open_builtin("yari", None)),)
    try:
        for label, sfen in MIDDLEGAMES:
            for name, engine in engines:
                engine.new_game()
                result = engine.search(Position(YARI, sfen), Limit(time=SEARCH_SECONDS))
                print("%s %s %ds: depth %d, nodes per second %d"
                      % (name, label, SEARCH_SECONDS, result.depth,
                         result.nodes / max(result.seconds, 1e-9)), flush=True)
    finally:
        for _, engine in engines:
            engine.close()
