"""`yariboard bench ladder`: the short form of `yariboard ladder` (Yari Shogi, 2 games a step,
60 plies then adjudication): every level's rating against level 1 with its 95 % interval,
and how long the run took. Two games a step only show the ladder runs and roughly where each
level sits; the table in docs/engines.md comes from the full command with more games.
YARIBOARD_BENCH_LADDER_GAMES and YARIBOARD_BENCH_LADDER_PLIES change the budget. Needs
`yariboard engines install fsf` for the levels above 3; without it the benchmark says so."""
import os
import time

from yariboard.engines import fsf
from yariboard.engines.ladder import describe_rung, run_ladder

GAMES = int(os.environ.get("YARIBOARD_BENCH_LADDER_GAMES", "2"))
MAX_PLIES = int(os.environ.get("YARIBOARD_BENCH_LADDER_PLIES", "60"))


def run():
    try:
        fsf.command()
    except fsf.EngineMissing as error:
        print("ladder: not measured: %s" % error)
        return
    start = time.monotonic()
    run_ladder("yari", GAMES, max_plies=MAX_PLIES,
               on_rung=lambda rung: print("ladder: " + describe_rung("yari", rung), flush=True))
    print("ladder: yari, %d games a step, %d plies: %.0f s" % (GAMES, MAX_PLIES,
                                                              time.monotonic() - start))
