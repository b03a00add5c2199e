"""`yariboard match`: the built-in engine against Fairy-Stockfish at fixed nodes (or depth)
per move."""
from shogicore.variants import BLACK

from yariboard.cli.common import fail
from yariboard.engines.match import MAX_PLIES, describe_score, run_match
from yariboard.engines.base import EngineError

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
    parser.add_argument("--node", metavar="PATH", help="Node.js to run Fairy-Stockfish with")
    parser.add_argument("--engines-dir", metavar="DIR", help="where engines are installed")
    parser.set_defaults(func=run)


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

    def show(index, game):
        side = "black" if game.builtin_side == BLACK else "white"
        result = {1.0: "built-in wins", 0.5: "draw", 0.0: "Fairy-Stockfish wins"}[game.builtin_points]
        print("game %d: built-in plays %s: %s (%s, %d plies)"
              % (index + 1, side, result, game.reason, game.plies), flush=True)

    try:
        report = run_match(args.games, nodes, variant=args.variant, seed=args.seed,
                           node=args.node, engines_dir=args.engines_dir,
                           max_plies=args.max_plies, on_game=show, fsf_nodes=fsf_nodes,
                           jobs=args.jobs, depth=args.depth)
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
    return 0
