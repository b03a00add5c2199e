"""`yariboard demo`: watch two engines play a whole game through the simulated board."""
from rich.console import Console

from yariboard.play import demo
from yariboard.cli.common import add_board_option, add_db_option, open_archive
from yariboard.ui.console import watch_demo
from yariboard.ui.view import RESULT_TEXT


def register(subparsers):
    parser = subparsers.add_parser(
        "demo", help="play a complete engine-vs-engine game on the simulated board",
        description="Runs the real firmware on the MicroPython unix port, plays every move "
                    "as sensor events through a pseudo-terminal, and saves the game.")
    add_db_option(parser)
    parser.add_argument("--black-level", type=int, default=demo.DEFAULT_LEVELS[0],
                        help="Black's engine level, 1-8 (default %(default)s)")
    parser.add_argument("--white-level", type=int, default=demo.DEFAULT_LEVELS[1],
                        help="White's engine level, 1-8 (default %(default)s)")
    parser.add_argument("--seconds", type=float, default=demo.SECONDS_PER_MOVE,
                        help="engine thinking time per move")
    parser.add_argument("--max-plies", type=int, default=demo.DEFAULT_MAX_PLIES,
                        help="adjudicate by material after this many moves")
    parser.add_argument("--seed", type=int, default=1, help="engine randomness (a different game per seed)")
    add_board_option(parser, "the board to play on (its variant is the game's)")
    parser.set_defaults(func=run)


def run(args):
    levels = (args.black_level, args.white_level)
    with open_archive(args) as archive, watch_demo(Console(), demo.player_names(levels)) as watch:
        game_id = demo.run_demo(archive, levels=levels, max_plies=args.max_plies, seed=args.seed,
                                seconds_per_move=args.seconds, board=args.board or "yari-9x7",
                                watch=watch)
        record = archive.game(game_id)
    print("game %d saved in %s: %d moves, %s (%s)" % (
        game_id, archive.path, len(record.moves), RESULT_TEXT.get(record.winner, "unfinished"),
        record.reason or "-"))
    return 0
