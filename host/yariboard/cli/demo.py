"""`yariboard demo`: watch two engines play a whole game through the simulated board."""
from contextlib import nullcontext

from rich.console import Console

from yariboard.play import demo
from yariboard.cli.common import add_board_option, add_db_option, fail, open_archive
from yariboard.cli.options import (add_spectator_options, board_file_variant, board_for,
                                   level_help, start_spectators)
from yariboard.engines import levels as scale
from yariboard.engines.base import EngineError
from yariboard.ui.console import watch_demo
from yariboard.ui.view import RESULT_TEXT


def register(subparsers):
    parser = subparsers.add_parser(
        "demo", help="play a complete engine-vs-engine game on the simulated board",
        description="Runs the real firmware on the MicroPython unix port, plays every move "
                    "as sensor events through a pseudo-terminal, and saves the game.")
    add_db_option(parser)
    parser.add_argument("--black-level", type=int, default=demo.DEFAULT_LEVELS[0], metavar="N",
                        help=level_help("Black's", demo.DEFAULT_LEVELS[0]))
    parser.add_argument("--white-level", type=int, default=demo.DEFAULT_LEVELS[1], metavar="N",
                        help="White's strength (default %(default)s), as --black-level")
    parser.add_argument("--seconds", type=float, default=None,
                        help="engine thinking time per move (default: each level's own budget)")
    parser.add_argument("--max-plies", type=int, default=demo.DEFAULT_MAX_PLIES,
                        help="adjudicate by material after this many moves")
    parser.add_argument("--seed", type=int, default=1, help="engine randomness (a different game per seed)")
    add_board_option(parser, "the board to play on (its variant is the game's)")
    add_spectator_options(parser)
    parser.set_defaults(func=run)


def run(args):
    levels = (args.black_level, args.white_level)
    board, variant = board_for(args), board_file_variant(args)
    try:
        for level in levels:
            scale.level(variant, level)
        if args.seconds is not None and args.seconds <= 0:
            raise ValueError("--seconds must be above 0, not %g" % args.seconds)
    except ValueError as error:
        return fail(str(error))
    with open_archive(args) as archive:
        try:
            spectators = start_spectators(args, archive.path)
        except (OSError, ValueError) as error:
            return fail(str(error))
        names = demo.player_names(variant, levels)
        try:
            with spectators or nullcontext(), watch_demo(Console(), names) as draw:
                game_id = demo.run_demo(
                    archive, levels=levels, max_plies=args.max_plies, seed=args.seed,
                    seconds_per_move=args.seconds, board=board,
                    watch=spectators.watch("1", then=draw) if spectators else draw)
        except EngineError as error:
            return fail(str(error))
        record = archive.game(game_id)
    print("game %d saved in %s: %d moves, %s (%s)" % (
        game_id, archive.path, len(record.moves), RESULT_TEXT.get(record.winner, "unfinished"),
        record.reason or "-"))
    return 0
