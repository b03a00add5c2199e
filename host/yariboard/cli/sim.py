"""`yariboard sim`: the real firmware on the MicroPython unix port, played from the terminal.

The host side is the same as with a real board: it opens the simulator's pseudo-terminal
with pyserial, follows the game and archives it. You move the pieces by typing what your
hands would do (`lift 7g`, `place 7f`), or let `move 7g7f` do the touches, from the
keyboard or from a script file (one command per line, `#` starts a comment).
"""
import argparse
from contextlib import nullcontext

from rich.console import Console

from shogicore.variants import BLACK, WHITE
from yariboard.cli.common import add_board_option, add_db_option, fail, open_archive
from yariboard.cli.options import (add_game_options, add_spectator_options, board_variant,
                                   check_game_options, check_storage, level_help, make_rig,
                                   start_spectators)
from yariboard.engines import levels
from yariboard.engines.base import EngineError
from yariboard.ui.console import HELP, SimConsole, run_interactive

# At most this many steps of the board (0.05 s each at most) for the engine's answer to a
# script's last move: far longer than any level's search.
ENGINE_PUMPS = 2400


def register(subparsers):
    parser = subparsers.add_parser(
        "sim", help="run the firmware on a simulated board and drive its sensors",
        description=__doc__.split("\n\n")[0], epilog=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_db_option(parser)
    parser.add_argument("--script", metavar="FILE", help="run the commands of FILE, then exit")
    parser.add_argument("--clock", choices=("real", "virtual"),
                        help="board time: real (default at the keyboard) or virtual (default for scripts)")
    add_board_option(parser)
    parser.add_argument("--storage", metavar="DIR", help="the board's flash directory (default: a new temporary one)")
    add_game_options(parser)
    parser.add_argument("--level", type=int, metavar="N",
                        help=level_help("an engine opponent at this") + " (default: no engine, "
                             "you move both sides)")
    parser.add_argument("--engine-side", choices=("black", "white"), default="white",
                        help="with --level: the side the engine plays (default %(default)s)")
    parser.add_argument("--emulator", action="store_true",
                        help="run the real Pico firmware image on the emulated RP2040 (docs/emulator.md)")
    add_spectator_options(parser)
    parser.set_defaults(func=run)


def run(args):
    console = Console()
    clock = args.clock or ("virtual" if args.script else "real")
    try:
        check_storage(args.storage)
        opponent = open_opponent(args)
    except (EngineError, ValueError) as error:
        return fail(str(error))
    try:
        return simulate(args, clock, console, *opponent)
    finally:
        for engine in opponent[0].values():
            engine.close()


def open_opponent(args):
    """({side: engine}, (Black's name, White's name)): the --level engine on its side, or no
    engine. ValueError for a level off the variant's scale, EngineError when its engine is
    not installed."""
    if args.level is None:
        return {}, ("player", "player")
    variant = board_variant(args)
    levels.level(variant, args.level)
    side = BLACK if args.engine_side == "black" else WHITE
    name = levels.label(variant, args.level)
    names = (name, "player") if side == BLACK else ("player", name)
    return {side: levels.open_level(variant, args.level)}, names


def simulate(args, clock, console, engines, names):
    with open_archive(args) as archive, make_rig(args, clock) as rig:
        try:
            new_game = check_game_options(args, rig.board.config.variant)
        except ValueError as error:
            return fail(str(error))
        try:
            spectators = start_spectators(args, archive.path)
        except (OSError, ValueError) as error:
            return fail(str(error))
        with spectators or nullcontext():
            sim = SimConsole(rig, archive, console, engines=engines, names=names,
                             watch=spectators.watch("1") if spectators else None)
            sim.pump(0.2)
            if new_game:
                sim.execute("new " + " ".join(new_game))
            console.print("simulated board on %s (flash in %s, %s clock)" % (rig.port, rig.storage_dir, clock))
            if args.script:
                return run_script(sim, args.script)
            return run_interactive(sim, console)


def run_script(sim, path):
    try:
        with open(path, encoding="utf-8") as script:
            lines = script.readlines()
    except OSError as error:
        return fail(str(error))
    for number, line in enumerate(lines, 1):
        try:
            sim.execute(line)
        except ValueError as error:
            return fail("%s line %d: %s" % (path, number, error))
    for _ in range(5):
        sim.pump(0.05)
    await_engine(sim)
    sim.show()
    return 0


def await_engine(sim):
    """With an engine on the board, let it answer before the last picture when it is to
    move: its search is bounded by its level's budget, and the wait by ENGINE_PUMPS."""
    session = sim.session
    if not session.engines:
        return
    for _ in range(ENGINE_PUMPS):
        position = session.recorder.position
        if position is not None and (session.finished() or position.side not in session.engines
                                     or (session.lit_order() and session.searching() is None)):
            return
        sim.pump(0.05)
