"""Fairy-Stockfish, the flagship opponent: install it, find it, start it.

Debian's `fairy-stockfish` predates Yari Shogi, so the engine used here is the WebAssembly
build published on npm as `fairy-stockfish-nnue.wasm`, run by Node.js through the package's
own `uci.js` (a stdin/stdout loop that speaks USI once asked `usi`). It is installed with npm
into a per-user folder, at one pinned version, so every board plays the same engine.
"""
import json
import os
import shutil
import subprocess

import platformdirs

from yariboard.engines.usi import UsiEngine, UsiError, check_usi_variant

FSF_PACKAGE = "fairy-stockfish-nnue.wasm"
FSF_VERSION = "1.1.12"
# Where engines are installed when neither --engines-dir nor this variable says otherwise.
ENGINES_DIR_ENV = "YARIBOARD_ENGINES_DIR"
# The short names `--engine` accepts besides a path.
FSF_NAMES = ("fsf", "fairy-stockfish")
# Node 16 has no fetch(); from 18 on Node's fetch() cannot read the local .wasm file, so the
# Emscripten loader must be kept from using it.
NODE_MIN_MAJOR = 16
NODE_NO_FETCH_FROM = 18
NODE_HELP = "install Node.js 16 or newer (Debian/Ubuntu: `sudo apt install nodejs npm`) or give --node PATH"
NPM_HELP = "install it with Node.js (Debian/Ubuntu: `sudo apt install nodejs npm`) or give --npm PATH"
INSTALL_SECONDS = 600
# Node compiles the 1 MB .wasm at start: about 2-5 s on an idle machine, far more on a busy one.
STARTUP_SECONDS = 60


class EngineMissing(UsiError):
    """Node.js or the engine package is not there; the message says how to get it."""


def engines_dir(override=None):
    """The folder engines are installed in: `override`, $YARIBOARD_ENGINES_DIR, else the
    user data directory."""
    chosen = override or os.environ.get(ENGINES_DIR_ENV)
    if chosen:
        return os.path.abspath(chosen)
    return os.path.join(platformdirs.user_data_dir("yariboard", appauthor=False), "engines")


def package_dir(root=None):
    """Where npm puts the package inside the engines folder."""
    return os.path.join(engines_dir(root), "fsf", "node_modules", FSF_PACKAGE)


def installed_version(root=None):
    """The installed package's version, or None when it is not (completely) installed."""
    folder = package_dir(root)
    try:
        with open(os.path.join(folder, "package.json"), encoding="utf-8") as f:
            version = json.load(f).get("version")
    except (OSError, ValueError):
        return None
    if not os.path.isfile(os.path.join(folder, "uci.js")):
        return None
    return version


def find_npm(npm=None):
    path = shutil.which(npm or "npm")
    if path is None:
        raise EngineMissing("npm not found: %s" % NPM_HELP)
    return path


# npm's error lines that name no cause: the failing call's details and the log's path.
_NPM_NOISE = ("syscall ", "errno ", "{", "}", "A complete log of this run")


def npm_error(output):
    """The cause of a failed npm run, in a line: its error code and first message. npm marks
    its error lines "npm ERR!" (npm 6-9) or "npm error" (npm 10 on); under the message come
    a stack trace and the error's fields, indented, and last a log file's path."""
    found = []
    for line in output.splitlines():
        marker = line[:9].lower()
        if marker.startswith("npm err!"):
            rest = line[8:]
        elif marker == "npm error":
            rest = line[9:]
        else:
            continue
        text = rest.strip()
        if rest.startswith("  ") or not text or text.startswith(_NPM_NOISE):
            continue
        found.append(text)
    return "; ".join(found[:2]) or "no message"


def install(root=None, npm=None):
    """npm-install the pinned package into the engines folder; returns its folder.

    Runs npm with the folder as its prefix, so nothing outside it is touched and a second
    install of the same version is a quick no-op."""
    if installed_version(root) == FSF_VERSION:
        return package_dir(root)
    npm_path = find_npm(npm)
    prefix = os.path.join(engines_dir(root), "fsf")
    os.makedirs(prefix, exist_ok=True)
    command = [npm_path, "install", "--prefix", prefix, "--no-audit", "--no-fund",
               "--save-exact", "%s@%s" % (FSF_PACKAGE, FSF_VERSION)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise UsiError("npm install of %s failed: %s" % (FSF_PACKAGE, e))
    if done.returncode != 0:
        raise UsiError("npm install of %s@%s failed (exit %d): %s"
                       % (FSF_PACKAGE, FSF_VERSION, done.returncode,
                          npm_error(done.stderr or done.stdout)))
    if installed_version(root) != FSF_VERSION:
        raise UsiError("npm reported success but %s is not in %s" % (FSF_PACKAGE, prefix))
    return package_dir(root)


def node_major(node):
    """Major version of the Node.js at `node` (EngineMissing if it does not run as Node)."""
    try:
        done = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=20)
        text = done.stdout.strip()
        return int(text.lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.TimeoutExpired):
        raise EngineMissing("%r does not run as Node.js: %s" % (node, NODE_HELP))


def find_node(node=None):
    """Node.js given by path, else `node` or `nodejs` on PATH; EngineMissing saying how to
    get it when there is none or it is too old."""
    if node:
        path = shutil.which(node) or (node if os.path.isfile(node) else None)
        if path is None:
            raise EngineMissing("Node.js not found at %r: %s" % (node, NODE_HELP))
    else:
        path = shutil.which("node") or shutil.which("nodejs")
        if path is None:
            raise EngineMissing("Node.js not found on PATH: %s" % NODE_HELP)
    major = node_major(path)
    if major < NODE_MIN_MAJOR:
        raise EngineMissing("Node.js %d at %s is too old for Fairy-Stockfish: %s"
                            % (major, path, NODE_HELP))
    return path, major


def command(node=None, root=None):
    """The argv that starts Fairy-Stockfish's USI loop."""
    node_path, major = find_node(node)
    version = installed_version(root)
    if version is None:
        raise EngineMissing("Fairy-Stockfish is not installed in %s: run `yariboard engines "
                            "install fsf`" % engines_dir(root))
    if version != FSF_VERSION:
        raise EngineMissing("Fairy-Stockfish %s is installed, %s is needed: run `yariboard "
                            "engines install fsf`" % (version, FSF_VERSION))
    flags = ["--no-experimental-fetch"] if major >= NODE_NO_FETCH_FROM else []
    return [node_path] + flags + [os.path.join(package_dir(root), "uci.js")]


def is_fsf_name(text):
    return text is not None and text.lower() in FSF_NAMES


def open_engine(variant="yari", node=None, root=None, skill=None, nodes=None):
    """A running Fairy-Stockfish behind the USI adapter, at the strength asked for:
    `skill` (Skill_Level, -20..20) and/or a node budget per move (`nodes`). A variant it
    cannot play is refused first, whether or not it is installed."""
    check_usi_variant(variant, "Fairy-Stockfish")
    argv = command(node, root)
    options = {}
    if skill is not None:
        options["Skill_Level"] = skill
    return UsiEngine(argv[0], variant=variant, args=argv[1:], options=options, nodes=nodes,
                     name="Fairy-Stockfish " + FSF_VERSION, startup_timeout=STARTUP_SECONDS)
