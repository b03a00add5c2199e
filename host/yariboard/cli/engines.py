"""`yariboard engines install fsf` / `yariboard engines list`: the engines the host can run."""
from yariboard.engines import fsf
from yariboard.cli.common import fail
from yariboard.engines.base import EngineError


def register(subparsers):
    parser = subparsers.add_parser("engines", help="install and list engines (Fairy-Stockfish)")
    parser.add_argument("--engines-dir", metavar="DIR", default=None,
                        help="where engines are installed (default $%s, else the user data "
                             "directory)" % fsf.ENGINES_DIR_ENV)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    install = actions.add_parser(
        "install", help="install an engine: fsf = Fairy-Stockfish %s (npm package %s, needs "
                        "Node.js and npm)" % (fsf.FSF_VERSION, fsf.FSF_PACKAGE))
    install.add_argument("name", choices=("fsf",), help="the engine to install")
    install.add_argument("--npm", metavar="PATH", help="npm to use (default: from PATH)")
    install.set_defaults(func=run_install)
    listing = actions.add_parser("list", help="show the installed engines and whether they run")
    listing.add_argument("--node", metavar="PATH", help="Node.js to check (default: from PATH)")
    listing.set_defaults(func=run_list)


def run_install(args):
    print("installing %s@%s with npm into %s ..."
          % (fsf.FSF_PACKAGE, fsf.FSF_VERSION, fsf.engines_dir(args.engines_dir)), flush=True)
    try:
        folder = fsf.install(args.engines_dir, npm=args.npm)
    except EngineError as error:
        return fail(str(error))
    print("installed Fairy-Stockfish %s in %s" % (fsf.FSF_VERSION, folder))
    print("play it with: yariboard play --engine fsf")
    return 0


def run_list(args):
    print("built-in   always available (yariboard play; as a USI engine: yariboard usi)")
    version = fsf.installed_version(args.engines_dir)
    if version is None:
        print("fsf        not installed (yariboard engines install fsf)")
        return 0
    try:
        node, major = fsf.find_node(args.node)
        runs = "runs with Node.js %d (%s)" % (major, node)
    except EngineError as error:
        runs = "cannot run: %s" % error
    pinned = "" if version == fsf.FSF_VERSION else " (%s is needed: reinstall)" % fsf.FSF_VERSION
    print("fsf        Fairy-Stockfish %s%s in %s; %s"
          % (version, pinned, fsf.package_dir(args.engines_dir), runs))
    return 0
