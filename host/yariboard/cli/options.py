"""Options the commands share: the new game's settings and the simulated board (`play`,
`sim`), an engine's strength level (`play`, `sim`, `demo`), the web pages and the voice
(`play`, `sim`, `demo`, `serve`)."""
import argparse
import os
import tempfile

from boardfw import config as board_config
from shogicore.variants import VARIANT_NAMES, variant_by_name
from yariboard import resources
from yariboard.engines import levels
from yariboard.play.controls import check_new_game
from yariboard.records.game import MODES
from yariboard.sim.rig import SimRig
from yariboard.ui.spectators import Spectators
from yariboard.ui.voice import LANGUAGES
from yariboard.ui.web.server import DEFAULT_HOST, DEFAULT_PORT

DEFAULT_BOARD = "yari-9x7"
# The scales a level option's help lists, with their names there.
LEVEL_HELP_VARIANTS = (("yari", "Yari Shogi"), ("shogi", "shogi"), ("wa", "Wa Shogi"),
                       ("wa-nodrops", "Wa Shogi without drops"))


def add_game_options(parser):
    """`--variant`, `--handicap`, `--mode` with their valid names in the help."""
    handicaps = sorted(set(name for variant in VARIANT_NAMES for name in variant_by_name(variant).handicaps))
    parser.add_argument("--variant", choices=VARIANT_NAMES, default=None,
                        help="start a new game of this variant (%s); default: the board's" % ", ".join(VARIANT_NAMES))
    parser.add_argument("--handicap", default=None, metavar="NAME",
                        help="start a new game with this handicap: %s" % ", ".join(handicaps))
    parser.add_argument("--mode", choices=MODES, default=None,
                        help="start a new game in this mode (%s; default casual)" % ", ".join(MODES))


def level_help(whose, default=None):
    """--help for a level option: every level of each variant's scale with its measured
    rating (`yariboard ladder`; docs/engines.md)."""
    scales = "; ".join("levels in %s: %s" % (name, levels.help_text(variant))
                       for variant, name in LEVEL_HELP_VARIANTS)
    return ("%s strength on the measured scale%s. %s" % (
        whose, "" if default is None else " (default %d)" % default, scales)).replace("%", "%%")


def check_game_options(args, board_variant):
    """The (variant, handicap, mode) of the new game the options ask for, or None for none.

    ValueError names the bad value and every valid one."""
    if args.variant is None and args.handicap is None and args.mode is None:
        return None
    variant = args.variant or board_variant
    if variant != board_variant:
        raise ValueError(_no_board_message(variant, board_variant))
    handicap, mode = args.handicap or "-", args.mode or "casual"
    check_new_game(variant, handicap, mode)
    return variant, handicap, mode


def _no_board_message(variant, board_variant):
    """Why `variant` can't be played here: the board file fixes the variant, so name the
    boards that do play it, or say that none does."""
    boards = board_variants()
    players = [name for name, played in boards.items() if played == variant]
    if players:
        return "this board plays %s, not %s (choose the board with --board %s)" % (
            board_variant, variant, players[0])
    return "no board plays %s; the boards play %s" % (variant, ", ".join(
        "%s (%s)" % (played, name) for name, played in sorted(boards.items())))


def board_variants():
    """{board file name: the variant it plays}, for every board file shipped."""
    return {name: board_config.load(resources.board_file(name)).variant
            for name in resources.board_names()}


def board_for(args):
    """The board file named by --board, else one that plays --variant, else yari-9x7."""
    board, variant = getattr(args, "board", None), getattr(args, "variant", None)
    if board or not variant:
        return board or DEFAULT_BOARD
    players = [name for name, played in board_variants().items() if played == variant]
    return players[0] if players else DEFAULT_BOARD


def board_file_variant(args):
    """The variant the board that --board and --variant choose plays (its file fixes it)."""
    return board_config.load(resources.board_file(board_for(args))).variant


def board_variant(args):
    """The variant the game will be: --variant, else that of the board --board names."""
    return args.variant or board_file_variant(args)


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


def add_spectator_options(parser, serve_flag=True):
    """`--serve` (with `--serve-host`, `--serve-port`) and `--voice [en|ja]`."""
    if serve_flag:
        parser.add_argument("--serve", action="store_true",
                            help="show the game on a web page too (see `yariboard serve -h`)")
        parser.add_argument("--serve-host", default=DEFAULT_HOST, metavar="HOST",
                            help="with --serve: the address to listen on (default %(default)s; "
                                 "any other makes the page read-only)")
        parser.add_argument("--serve-port", type=port_number, default=DEFAULT_PORT, metavar="PORT",
                            help="with --serve: the port (default %(default)s)")
    parser.add_argument("--voice", nargs="?", const="en", choices=LANGUAGES,
                        help="speak each move and the end of the game with espeak-ng: en "
                             "(Hodges' words, the default) or ja")


def port_number(text):
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError("a port is a number from 0 to 65535, not %r" % text)
    return value


def start_spectators(args, db_path):
    """The Spectators the options of add_spectator_options ask for, started; None when
    neither --serve nor --voice was given. ValueError (espeak-ng missing) and OSError (the
    port is taken) say why not."""
    if not args.serve and not args.voice:
        return None
    return Spectators(db_path, args.serve, args.serve_host, args.serve_port, args.voice).start()
