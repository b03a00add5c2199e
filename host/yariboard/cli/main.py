"""`yariboard` command line: one subcommand module per concern, each with `register()`."""
import argparse
import importlib
import os
import sqlite3
import sys
from importlib import metadata

from yariboard.records.archive import ArchiveError, default_path, unreadable
from yariboard.sim.emulator import EmulatorError
from yariboard.cli.common import add_db_option, fail

# Each module defines register(subparsers) and sets `func` on its parsers.
COMMAND_MODULES = (
    "yariboard.cli.rules",
    "yariboard.cli.bench",
    "yariboard.cli.games",
    "yariboard.cli.demo",
    "yariboard.cli.sim",
    "yariboard.cli.play",
    "yariboard.cli.engines",
    "yariboard.cli.usi",
    "yariboard.cli.match",
    "yariboard.cli.board",
    "yariboard.cli.serve",
)
# Modules whose commands are actions of another command: `games analyse` and `games plot`
# (the games module's register() returns its actions for them).
NESTED_MODULES = {"yariboard.cli.games": ("yariboard.cli.analyse",)}


def version():
    """The installed package's version (pyproject.toml is its one source)."""
    try:
        return metadata.version("yariboard")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def build_parser():
    parser = argparse.ArgumentParser(
        prog="yariboard",
        description="Yari Board: rules, engine, game archive and board link for Yari Shogi.",
    )
    parser.add_argument("--version", action="version", version="yariboard " + version())
    add_db_option(parser, top_level=True)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        actions = importlib.import_module(name).register(subparsers)
        for nested in NESTED_MODULES.get(name, ()):
            importlib.import_module(nested).register(actions)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args) or 0
    except (ArchiveError, EmulatorError) as error:
        return fail(str(error))
    except sqlite3.DatabaseError as error:
        # damage that only shows past the checks made on opening
        return fail(str(unreadable(getattr(args, "db", None) or default_path(), error)))
    except BrokenPipeError:
        # the reader left early (`yariboard legal | head`): not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:   # Ctrl-C: a clean stop, never a traceback
        print("yariboard: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
