"""The host's packages are layers: a module imports only its own package or lower ones
(docs/architecture.md). An upward import would tie a lower layer to the one above it, and a
cycle would follow the next time the upper one needed the lower."""
import ast
import os

from tests.mpy import ROOT

HOST = os.path.join(ROOT, "host", "yariboard")
# bottom up, as in docs/architecture.md
LAYERS = ("resources", "board", "records", "engines", "sim", "play", "ui", "benchmarks", "cli")


def imported_modules(path):
    """Every `yariboard...` module a file imports, with the line it does so on."""
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read(), path)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
            if node.module == "yariboard":
                names = ["yariboard." + alias.name for alias in node.names]
            for name in names:
                yield name, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno


def layer_of(dotted):
    """The layer of `yariboard.X...`, or None for what is not a layer (yariboard itself)."""
    parts = dotted.split(".")
    if parts[0] != "yariboard" or len(parts) < 2 or parts[1] not in LAYERS:
        return None
    return LAYERS.index(parts[1])


def host_modules():
    for folder, _, files in os.walk(HOST):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                yield path, "yariboard." + os.path.relpath(path, HOST)[:-3].replace(os.sep, ".")


def test_every_host_module_lives_in_a_layer():
    strays = [module for _, module in host_modules()
              if module != "yariboard.__init__" and layer_of(module) is None]
    assert strays == []


def test_no_module_imports_a_layer_above_its_own():
    upward = []
    for path, module in host_modules():
        mine = layer_of(module)
        if mine is None:
            continue
        for imported, line in imported_modules(path):
            theirs = layer_of(imported)
            if theirs is not None and theirs > mine:
                upward.append("%s:%d imports %s" % (os.path.relpath(path, ROOT), line, imported))
    assert upward == []


def test_the_check_sees_an_upward_import(tmp_path):
    """The walk above must be able to fail: a records module importing the terminal view."""
    path = tmp_path / "formats.py"
    path.write_text("from yariboard.ui.view import render\n")
    found = [(layer_of(name), line) for name, line in imported_modules(str(path))]
    assert found == [(LAYERS.index("ui"), 1)] and LAYERS.index("ui") > LAYERS.index("records")


def test_commands_share_only_the_command_line_helpers():
    """A command module is thin: what two commands share lives in a lower layer, or in the
    helpers of the command line itself (cli.common, cli.options), never in another command."""
    shared = ("yariboard.cli.common", "yariboard.cli.options")
    crossings = []
    for path, module in host_modules():
        if not module.startswith("yariboard.cli.") or module == "yariboard.cli.main":
            continue
        for imported, line in imported_modules(path):
            if imported.startswith("yariboard.cli") and imported not in shared + (module,):
                crossings.append("%s:%d imports %s" % (os.path.relpath(path, ROOT), line, imported))
    assert crossings == []


def test_the_play_session_makes_no_engine_of_its_own():
    """The session is handed its engines (an opponent, a factory for hints): which engine
    plays is the caller's choice, never a default buried in the session."""
    path = os.path.join(HOST, "play", "session.py")
    assert [name for name, _ in imported_modules(path) if name.startswith("yariboard.engines.builtin")] == []
