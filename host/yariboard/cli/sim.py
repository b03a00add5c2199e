"""`yariboard sim`: the real firmware on the MicroPython unix port, played from the terminal.

The host side is the same as with a real board: it opens the simulator's pseudo-terminal
with pyserial, follows the game and archives it. You move the pieces by typing what your
hands would do (`lift 7g`, `place 7f`), or let `move 7g7f` do the touches, from the
keyboard or from a script file (one command per line, `#` starts a comment).
"""
import argparse

from rich.console import Console

from yariboard.cli.common import add_board_option, add_db_option, fail, open_archive
from yariboard.cli.options import add_game_options, check_game_options, check_storage, make_rig
from yariboard.ui.console import HELP, SimConsole, run_interactive


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
    parser.add_argument("--emulator", action="store_true",
                        help="run the real Pico firmware image on the emulated RP2040 (docs/emulator.md)")
    parser.set_defaults(func=run)


def run(args):
    console = Console()
    clock = args.clock or ("virtual" if args.script else "real")
    try:
        check_storage(args.storage)
    except ValueError as error:
        return fail(str(error))
    with open_archive(args) as archive, make_rig(args, clock) as rig:
        try:
            new_game = check_game_options(args, rig.board.config.variant)
        except ValueError as error:
            return fail(str(error))
        sim = SimConsole(rig, archive, console)
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
    sim.show()
    return 0
