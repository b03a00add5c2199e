"""`yariboard match`: the built-in engine against Fairy-Stockfish at fixed nodes per move."""
from shogicore.variants import BLACK

from yariboard.commands.common import fail
from yariboard.match import MAX_PLIES, describe_score, run_match
from yariboard.usi import UsiError


def register(subparsers):
    parser = subparsers.add_parser(
        "match", help="play the built-in engine against Fairy-Stockfish",
        description="The built-in engine (through `yariboard usi`) against Fairy-Stockfish "
                    "(`yariboard engines install fsf`), both at a fixed node budget per move; "
                    "colours alternate, openings vary by seeded random plies.")
    parser.add_argument("--games", type=int, default=4, help="games to play (default %(default)s)")
    parser.add_argument("--nodes", type=int, default=1000,
                        help="nodes per move for both engines (default %(default)s)")
    parser.add_argument("--fsf-nodes", type=int, metavar="N",
                        help="nodes per move for Fairy-Stockfish alone (default: --nodes)")
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
    fsf_nodes = args.nodes if args.fsf_nodes is None else args.fsf_nodes
    if min(args.games, args.nodes, fsf_nodes, args.max_plies, args.jobs) < 1:
        return fail("--games, --nodes, --fsf-nodes, --max-plies and --jobs must be at least 1")

    def show(index, game):
        side = "black" if game.builtin_side == BLACK else "white"
        result = {1.0: "built-in wins", 0.5: "draw", 0.0: "Fairy-Stockfish wins"}[game.builtin_points]
        print("game %d: built-in plays %s: %s (%s, %d plies)"
              % (index + 1, side, result, game.reason, game.plies), flush=True)

    try:
        report = run_match(args.games, args.nodes, variant=args.variant, seed=args.seed,
                           node=args.node, engines_dir=args.engines_dir,
                           max_plies=args.max_plies, on_game=show, fsf_nodes=fsf_nodes,
                           jobs=args.jobs)
    except UsiError as error:
        return fail(str(error))
    if fsf_nodes != args.nodes:
        pairing = "built-in at %d nodes/move vs Fairy-Stockfish at %d" % (args.nodes, fsf_nodes)
    else:
        pairing = "built-in vs Fairy-Stockfish at %d nodes/move" % args.nodes
    print("%s, %s: +%d =%d -%d, %s"
          % (pairing, args.variant, report.wins(), report.draws(), report.losses(),
             describe_score(report)))
    return 0
