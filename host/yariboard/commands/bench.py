"""`yariboard bench NAME`: print the figures that the budgets in the issues are checked by."""
import importlib

from yariboard.benchmarks import ORDER


def register(subparsers):
    parser = subparsers.add_parser("bench", help="run benchmarks and print their figures")
    parser.add_argument("name", choices=ORDER + ("all",), help="which benchmark (all: every one)")
    parser.set_defaults(func=run)


def run(args):
    names = ORDER if args.name == "all" else (args.name,)
    for name in names:
        module = importlib.import_module("yariboard.benchmarks." + name)
        print("== bench %s" % name, flush=True)
        module.run()
    return 0
