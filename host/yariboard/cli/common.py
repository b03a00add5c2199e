"""Options and helpers shared by the subcommands that use the archive or the board."""
import argparse
import sys

from boardfw import config as board_config
from yariboard import resources
from yariboard.records.archive import DB_ENV, Archive


def add_db_option(parser, top_level=False):
    """`--db PATH`; accepted before or after the subcommand name."""
    parser.add_argument(
        "--db", metavar="PATH", default=None if top_level else argparse.SUPPRESS,
        help="game archive (SQLite file); default $%s, else the user data directory" % DB_ENV)


def open_archive(args, readonly=False):
    """The archive of `--db` (else the default); `readonly` for commands that only read."""
    return Archive(getattr(args, "db", None), readonly=readonly)


def fail(message):
    """Print an error the way every subcommand does and return the exit status."""
    print("yariboard: error: %s" % message, file=sys.stderr)
    return 1


def board_name(text):
    """argparse type of `--board`: a board with a board file (or a path to a .json one)."""
    try:
        board_config.load(resources.board_file(text))
    except resources.UnknownBoard as error:
        raise argparse.ArgumentTypeError(str(error))
    except (OSError, ValueError) as error:   # a board file that does not load
        raise argparse.ArgumentTypeError("board file %s: %s" % (text, error))
    return text


def add_board_option(parser, what="the simulated board"):
    """`--board NAME`, validated, with the valid names in the help."""
    parser.add_argument("--board", default=None, type=board_name, metavar="NAME",
                        help="%s: %s, or a board file (default: yari-9x7, or the board "
                             "that plays --variant)" % (what, " | ".join(resources.board_names())))
