"""`yariboard bench match`: the built-in engine's strength, as its score against
Fairy-Stockfish at 1k, 10k and 100k nodes per move, 20 games each (10 openings of a few
random plies, each played with both colours), with the Elo difference that score implies.

The 100k match is the long one: from a quarter of an hour to well over an hour, by machine.
YARIBOARD_BENCH_MATCH_NODES="1000,10000" picks the budgets, YARIBOARD_BENCH_MATCH_GAMES the
games per budget. Needs `yariboard engines install
fsf`; without it the benchmark says so and stops."""
import math
import os
import time

from yariboard import fsf
from yariboard.match import run_match

GAMES = int(os.environ.get("YARIBOARD_BENCH_MATCH_GAMES", "20"))
NODES = tuple(int(n) for n in os.environ.get("YARIBOARD_BENCH_MATCH_NODES",
                                             "1000,10000,100000").split(","))


def elo_difference(score):
    """The rating difference a score implies (logistic model); None at 0 % or 100 %."""
    if not 0 < score < 1:
        return None
    return -400 * math.log10(1 / score - 1)


def run():
    try:
        fsf.command()
    except fsf.EngineMissing as error:
        print("match: not measured: %s" % error)
        return
    for nodes in NODES:
        start = time.monotonic()
        report = run_match(GAMES, nodes)
        elo = elo_difference(report.score())
        reasons = {}
        for game in report.games:
            reasons[game.reason] = reasons.get(game.reason, 0) + 1
        print("built-in vs fsf, %d games at %d nodes/move: +%d =%d -%d, score %.0f%%, "
              "Elo difference %s (%s; %.0f s)"
              % (len(report.games), nodes, report.wins(), report.draws(), report.losses(),
                 100 * report.score(), "%+.0f" % elo if elo is not None else
                 ("below -800" if report.score() == 0 else "above +800"),
                 ", ".join("%s %d" % item for item in sorted(reasons.items())),
                 time.monotonic() - start), flush=True)
