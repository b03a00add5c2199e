"""`yariboard bench NAME`: print the figures that the budgets in the issues are checked by."""
import importlib
import os
import subprocess

from yariboard.benchmarks import HEAP_BENCHES, ORDER
from yariboard.cli.common import fail


def register(subparsers):
    parser = subparsers.add_parser("bench", help="run benchmarks and print their figures")
    parser.add_argument("name", choices=ORDER + ("all",), help="which benchmark (all: every one)")
    parser.add_argument(
        "--micropython", metavar="PATH", action="append", default=None,
        help="MicroPython unix port the heap benchmarks (%s) measure with; give it twice to "
             "measure with both, the first for the budgets and the loop times (default: the "
             "one installed beside yariboard)" % ", ".join(HEAP_BENCHES))
    parser.set_defaults(func=run)


def checked_binary(path):
    """`path` if it runs as a MicroPython unix port, else a one-line reason why not."""
    if not os.path.isfile(path):
        return None, "--micropython %s: no such file" % path
    try:
        out = subprocess.run([path, "-c", "import sys; print(sys.implementation.name)"],
                             capture_output=True, text=True, timeout=30)
    except OSError as e:
        return None, "--micropython %s: cannot run it (%s)" % (path, e.strerror or e)
    except subprocess.TimeoutExpired:
        return None, "--micropython %s: did not answer within 30 s" % path
    if out.returncode or out.stdout.strip() != "micropython":
        return None, "--micropython %s: not a MicroPython unix port" % path
    return os.path.abspath(path), None


def run(args):
    binaries = []
    for path in args.micropython or ():
        binary, problem = checked_binary(path)
        if problem:
            return fail(problem)
        binaries.append(binary)
    names = ORDER if args.name == "all" else (args.name,)
    for name in names:
        print("== bench %s" % name, flush=True)
        try:
            module = importlib.import_module("yariboard.benchmarks." + name)
            if name in HEAP_BENCHES:
                module.run(binaries)
            else:
                module.run()
        except ModuleNotFoundError as error:
            # comparisons with python-shogi and the firmware's compiler need the checkout
            return fail("bench %s needs the development setup (`make venv` in a checkout): "
                        "no module %s" % (name, error.name))
    return 0
