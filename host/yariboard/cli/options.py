"""Options `play` and `sim` share: the new game's settings and the simulated board."""
import os
import tempfile

from boardfw import config as board_config
from shogicore.variants import VARIANT_NAMES, variant_by_name
from yariboard import resources
from yariboard.play.controls import check_new_game
from yariboard.records.game import MODES
from yariboard.sim.rig import SimRig

DEFAULT_BOARD = "yari-9x7"


def add_game_options(parser):
    """`--variant`, `--handicap`, `--mode` with their valid names in the help."""
    handicaps = sorted(set(name for variant in VARIANT_NAMES for name in variant_by_name(variant).handicaps))
    parser.add_argument("--variant", choices=VARIANT_NAMES, default=None,
                        help="start a new game of this variant (%s); default: the board's" % ", ".join(VARIANT_NAMES))
    parser.add_argument("--handicap", default=None, metavar="NAME",
                        help="start a new game with this handicap: %s" % ", ".join(handicaps))
    parser.add_argument("--mode", choices=MODES, default=None,
                        help="start a new game in this mode (%s; default casual)" % ", ".join(MODES))


def check_game_options(args, board_variant):
    """The (variant, handicap, mode) of the new game the options ask for, or None for none.

    ValueError names the bad value and every valid one."""
    if args.variant is None and args.handicap is None and args.mode is None:
        return None
    variant = args.variant or board_variant
    if variant != board_variant:
        raise ValueError("this board plays %s, not %s (choose the board with --board)"
                         % (board_variant, variant))
    handicap, mode = args.handicap or "-", args.mode or "casual"
    check_new_game(variant, handicap, mode)
    return variant, handicap, mode


def board_for(args):
    """The board file named by --board, else one that plays --variant, else yari-9x7."""
    board = getattr(args, "board", None)
    if board or not args.variant:
        return board or DEFAULT_BOARD
    for name in resources.board_names():
        if board_config.load(resources.board_file(name)).variant == args.variant:
            return name
    return DEFAULT_BOARD


def check_storage(path):
    """ValueError unless the folder that is to hold `--storage` exists: the flash folder
    itself is made when missing, but a typo must not grow a tree of folders (the rule of
    `--db`)."""
    if path is None:
        return
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise ValueError("no folder %s for the board's flash %s: create it first or choose "
                         "another --storage" % (parent, path))


def make_rig(args, clock):
    """The simulated board, or with --emulator the emulated Pico (its flash image in
    --storage, else in a new folder that is kept, as a Pico keeps its flash)."""
    if getattr(args, "emulator", False):
        from yariboard.sim.emulator import EmuRig

        storage = getattr(args, "storage", None) or tempfile.mkdtemp(prefix="yariboard-emulator-")
        return EmuRig(os.path.join(storage, "flash.bin"), board=board_for(args), clock=clock)
    return SimRig(getattr(args, "storage", None), board=board_for(args), clock=clock)
