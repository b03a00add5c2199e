"""Options and helpers shared by the subcommands that use the archive or the board."""
import argparse
import sys

from yariboard.archive import DB_ENV, Archive


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
