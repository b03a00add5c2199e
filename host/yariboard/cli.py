"""`yariboard` command line: one subcommand module per concern, each with `register()`."""
import argparse
import importlib
import sys

from yariboard.commands.common import add_db_option

# Each module defines register(subparsers) and sets `func` on its parsers.
COMMAND_MODULES = (
    "yariboard.commands.rules",
    "yariboard.commands.bench",
    "yariboard.commands.games",
    "yariboard.commands.demo",
    "yariboard.commands.sim",
    "yariboard.commands.play",
)


def build_parser():
    parser = argparse.ArgumentParser(
        prog="yariboard",
        description="Yari Board: rules, engine, game archive and board link for Yari Shogi.",
    )
    add_db_option(parser, top_level=True)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return args.func(args) or 0
    except KeyboardInterrupt:   # Ctrl-C: a clean stop, never a traceback
        print("yariboard: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
