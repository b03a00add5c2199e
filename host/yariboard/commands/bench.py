"""`yariboard bench NAME`: print the figures that the budgets in the issues are checked by."""
import importlib

from yariboard.benchmarks import ORDER
from yariboard.commands.common import fail


def register(subparsers):
    parser = subparsers.add_parser("bench", help="run benchmarks and print their figures")
    parser.add_argument("name", choices=ORDER + ("all",), help="which benchmark (all: every one)")
    parser.set_defaults(func=run)


def run(args):
    names = ORDER if args.name == "all" else (args.name,)
    for name in names:
        print("== bench %s" % name, flush=True)
        try:
            importlib.import_module("yariboard.benchmarks." + name).run()
        except ModuleNotFoundError as error:
            # comparisons with python-shogi and the firmware's compiler need the checkout
            return fail("bench %s needs the development setup (`make venv` in a checkout): "
                        "no module %s" % (name, error.name))
    return 0
