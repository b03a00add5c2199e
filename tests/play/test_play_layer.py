"""The play package sits below the screen: it imports only its own package and lower
layers (docs: board, records, engines, sim, play, ui, cli), and the rules core."""
import ast
import pathlib

import yariboard.play

ALLOWED = ("yariboard.board", "yariboard.records", "yariboard.engines", "yariboard.sim",
           "yariboard.play", "shogicore", "boardfw")


def imported_modules(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_play_imports_nothing_above_it_and_makes_no_engine_of_its_own():
    folder = pathlib.Path(yariboard.play.__file__).parent
    modules = sorted(folder.glob("*.py"))
    assert len(modules) >= 5
    for path in modules:
        for name in imported_modules(path):
            if name.startswith(("yariboard", "shogicore", "boardfw")):
                assert name.startswith(ALLOWED), "%s imports %s" % (path.name, name)
    session = (folder / "session.py").read_text(encoding="utf-8")
    assert "engines.builtin" not in session and "Engine(" not in session
