"""`yariboard match`: the built-in engine against Fairy-Stockfish at fixed nodes (or depth)
per move; `yariboard ladder`: every strength level rated on one scale."""
import time

from shogicore.variants import BLACK

from yariboard.cli.common import fail
from yariboard.engines.base import EngineError
from yariboard.engines.ladder import (check_steps, describe_rung, markdown_table, parse_steps,
                                      run_ladder)
from yariboard.engines.levels import SCALES
from yariboard.engines.match import MAX_PLIES, Sprt, describe_score, run_match

DEFAULT_NODES = 1000


def register(subparsers):
    parser = subparsers.add_parser(
        "match", help="play the built-in engine against Fairy-Stockfish",
        description="The built-in engine (through `yariboard usi`) against Fairy-Stockfish "
                    "(`yariboard engines install fsf`), both at a fixed node budget (or "
                    "depth) per move; colours alternate, openings vary by seeded random "
                    "plies.")
    parser.add_argument("--games", type=int, default=4, help="games to play (default %(default)s)")
    parser.add_argument("--nodes", type=int,
                        help="nodes per move for both engines (default %d)" % DEFAULT_NODES)
    parser.add_argument("--fsf-nodes", type=int, metavar="N",
                        help="nodes per move for Fairy-Stockfish alone (default: --nodes)")
    parser.add_argument("--depth", type=int, metavar="N",
                        help="both engines search to this depth instead of a node budget "
                             "(each counts its plies its own way)")
    parser.add_argument("--variant", default="yari", choices=("yari", "shogi"))
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings")
    parser.add_argument("--max-plies", type=int, default=MAX_PLIES,
                        help="adjudicate by material after this many plies (default %(default)s)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="games played at once, a pair of engines each: up to one per "
                             "core (default %(default)s; the same games either way)")
    parser.add_argument("--sprt", type=float, nargs=2, metavar=("ELO0", "ELO1"),
                        help="stop as soon as a sequential test decides between 'the built-in "
                             "engine is ELO0 stronger' and 'ELO1 stronger' (5%% error each "
                             "way); --games is then the most it plays")
    parser.add_argument("--node", metavar="PATH", help="Node.js to run Fairy-Stockfish with")
    parser.add_argument("--engines-dir", metavar="DIR", help="where engines are installed")
    parser.set_defaults(func=run)

    ladder = subparsers.add_parser(
        "ladder", help="rate every strength level (play --level) on one scale",
        description="Each level plays the next one up at its fixed budget; the scores chain "
                    "into ratings anchored at level 1 (rated 0), each with its 95%% interval.")
    ladder.add_argument("--variant", default="yari", choices=sorted(SCALES))
    ladder.add_argument("--games", type=int, default=10,
                        help="games a step, each opening with both colours (default %(default)s)")
    ladder.add_argument("--seed", type=int, default=1, help="seed of the openings")
    ladder.add_argument("--max-plies", type=int, default=MAX_PLIES,
                        help="adjudicate by material after this many plies (default %(default)s)")
    ladder.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="games played at once, each pair of engines in a process of its "
                             "own: up to one per core (default %(default)s)")
    ladder.add_argument("--steps", metavar="K-M",
                        help="play only steps K to M (step k: level k + 1 against level k), "
                             "rated from level K; default: every step")
    ladder.add_argument("--node", metavar="PATH", help="Node.js to run Fairy-Stockfish with")
    ladder.add_argument("--engines-dir", metavar="DIR", help="where engines are installed")
    ladder.set_defaults(func=run_ladder_command)


def run(args):
    if args.depth is not None:
        if args.nodes is not None or args.fsf_nodes is not None:
            return fail("--depth replaces --nodes and --fsf-nodes: give one or the other")
        nodes = fsf_nodes = None
        counts = (args.games, args.depth, args.max_plies, args.jobs)
    else:
        nodes = DEFAULT_NODES if args.nodes is None else args.nodes
        fsf_nodes = nodes if args.fsf_nodes is None else args.fsf_nodes
        counts = (args.games, nodes, fsf_nodes, args.max_plies, args.jobs)
    if min(counts) < 1:
        return fail("--games, --nodes, --fsf-nodes, --depth, --max-plies and --jobs must be "
                    "at least 1")

    try:
        sprt = Sprt(*args.sprt) if args.sprt else None
    except ValueError as error:
        return fail("--sprt: %s" % error)

    def show(index, game):
        side = "black" if game.first_side == BLACK else "white"
        result = {1.0: "built-in wins", 0.5: "draw", 0.0: "Fairy-Stockfish wins"}[game.first_points]
        print("game %d: built-in plays %s: %s (%s, %d plies)"
              % (index + 1, side, result, game.reason, game.plies), flush=True)

    try:
        report = run_match(args.games, nodes, variant=args.variant, seed=args.seed,
                           node=args.node, engines_dir=args.engines_dir,
                           max_plies=args.max_plies, on_game=show, fsf_nodes=fsf_nodes,
                           jobs=args.jobs, depth=args.depth, sprt=sprt)
    except EngineError as error:
        return fail(str(error))
    if args.depth is not None:
        pairing = "built-in vs Fairy-Stockfish at depth %d" % args.depth
    elif fsf_nodes != nodes:
        pairing = "built-in at %d nodes/move vs Fairy-Stockfish at %d" % (nodes, fsf_nodes)
    else:
        pairing = "built-in vs Fairy-Stockfish at %d nodes/move" % nodes
    print("%s, %s: +%d =%d -%d, %s"
          % (pairing, args.variant, report.wins(), report.draws(), report.losses(),
             describe_score(report)))
    if sprt is not None:
        print(sprt.describe(report))
    return 0


def run_ladder_command(args):
    if min(args.games, args.max_plies, args.jobs) < 1:
        return fail("--games, --max-plies and --jobs must be at least 1")
    steps = None
    if args.steps is not None:
        try:
            steps = parse_steps(args.steps)
            check_steps(args.variant, *steps)
        except ValueError as error:
            return fail("--steps: %s" % error)
    start = time.monotonic()
    try:
        rungs = run_ladder(args.variant, args.games, seed=args.seed, max_plies=args.max_plies,
                           jobs=args.jobs, node=args.node, engines_dir=args.engines_dir,
                           steps=steps,
                           on_rung=lambda rung: print(describe_rung(args.variant, rung), flush=True))
    except EngineError as error:
        return fail(str(error))
    print("ladder of %s, %s, %d games a step, %d plies: %.0f s, %d at once"
          % (args.variant, "steps %s" % args.steps if steps else "every step", args.games,
             args.max_plies, time.monotonic() - start, args.jobs))
    print(markdown_table(args.variant, rungs))
    return 0
