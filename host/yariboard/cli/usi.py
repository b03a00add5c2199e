"""`yariboard usi`: the built-in engine speaking USI on stdin/stdout, for shogi GUIs."""
import sys

from yariboard.engines.usi_server import VARIANTS, serve


def register(subparsers):
    parser = subparsers.add_parser(
        "usi", help="run the built-in engine as a USI engine on stdin/stdout",
        description="Run the built-in engine as a USI engine (register this command in a "
                    "shogi GUI). USI_Variant selects shogi or yarishogi.")
    parser.add_argument("--variant", default="shogi", choices=sorted(VARIANTS),
                        help="variant before any USI_Variant option (default %(default)s)")
    parser.set_defaults(func=run)


def run(args):
    try:
        return serve(sys.stdin, sys.stdout, args.variant)
    except KeyboardInterrupt:
        return 130
