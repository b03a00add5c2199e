"""`yariboard bench match`: the built-in engine's strength, as its score against
Fairy-Stockfish at 1k, 10k and 100k nodes per move, 20 games each (10 openings of a few
random plies, each played with both colours), with the Elo difference that score implies
and the 95 % interval of both: 20 games cannot tell apart engines less than about 150 Elo
apart, and the figures should say so.

The 100k match is the long one: from a quarter of an hour to well over an hour, by machine.
The games are played one per core (YARIBOARD_BENCH_MATCH_JOBS sets how many at once; the
games are the same either way). YARIBOARD_BENCH_MATCH_NODES="1000,10000" picks the budgets,
YARIBOARD_BENCH_MATCH_GAMES the games per budget. Needs `yariboard engines install fsf`;
without it the benchmark says so and stops."""
import os
import time

from yariboard.engines import fsf
from yariboard.engines.match import describe_score, run_match

GAMES = int(os.environ.get("YARIBOARD_BENCH_MATCH_GAMES", "20"))
NODES = tuple(int(n) for n in os.environ.get("YARIBOARD_BENCH_MATCH_NODES",
                                             "1000,10000,100000").split(","))
JOBS = int(os.environ.get("YARIBOARD_BENCH_MATCH_JOBS", str(os.cpu_count() or 1)))


def run():
    try:
        fsf.command()
    except fsf.EngineMissing as error:
        print("match: not measured: %s" % error)
        return
    for nodes in NODES:
        start = time.monotonic()
        report = run_match(GAMES, nodes, jobs=JOBS)
        reasons = {}
        for game in report.games:
            reasons[game.reason] = reasons.get(game.reason, 0) + 1
        print("built-in vs fsf, %d games at %d nodes/move: +%d =%d -%d, %s (%s; %.0f s, "
              "%d at once)"
              % (len(report.games), nodes, report.wins(), report.draws(), report.losses(),
                 describe_score(report),
                 ", ".join("%s %d" % item for item in sorted(reasons.items())),
                 time.monotonic() - start, report.jobs), flush=True)
