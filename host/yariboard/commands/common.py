"""Options and helpers shared by the subcommands that use the archive or the board."""
import argparse
import glob
import os
import sys

from boardfw import config as board_config
from yariboard.archive import DB_ENV, Archive
from yariboard.simboard import BOARDS, board_file


def add_db_option(parser, top_level=False):
    """`--db PATH`; accepted before or after the subcommand name."""
    parser.add_argument(
        "--db", metavar="PATH", default=None if top_level else argparse.SUPPRESS,
        help="game archive (SQLite file); default $%s, else the user data directory" % DB_ENV)


def open_archive(args):
    return Archive(getattr(args, "db", None))


def fail(message):
    """Print an error the way every subcommand does and return the exit status."""
    print("yariboard: error: %s" % message, file=sys.stderr)
    return 1


def add_board_option(parser, what="the simulated board"):
    """`--board NAME`: a board file of hardware/boards (or a path to one), checked at once."""
    known = ", ".join(sorted(os.path.basename(p)[:-len(".json")]
                             for p in glob.glob(os.path.join(BOARDS, "*.json"))))
    parser.add_argument("--board", default="yari-9x7", type=checked_board,
                        help="%s: hardware/boards/NAME.json, one of %s (default %%(default)s)"
                             % (what, known))


def checked_board(name):
    """`name` if its board file loads; else argparse reports why, in one line."""
    try:
        board_config.load(board_file(name))
    except OSError:
        known = sorted(os.path.basename(p)[:-len(".json")]
                       for p in glob.glob(os.path.join(BOARDS, "*.json")))
        raise argparse.ArgumentTypeError("no board %r (known: %s, or a path to a .json board "
                                         "file)" % (name, ", ".join(known)))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error))
    return name
