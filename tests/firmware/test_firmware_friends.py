"""The firmware's modules reach each other only through public names: the ones loaded for
the occasion and unloaded after (boardfw/overlap.py, requests.py, startup.py) included, so
the interpreter or the controller can change inside without breaking a module that is
rarely loaded. overlap.py uses of the interpreter exactly what the interpreter's docstring
offers it."""
import ast
import os

from tests.mpy import FIRMWARE


def firmware_sources():
    for folder, _, files in os.walk(FIRMWARE):
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    yield os.path.relpath(path, FIRMWARE), ast.parse(f.read())


def private(name):
    return name.startswith("_") and not name.startswith("__")


def test_no_module_reads_another_objects_private_names():
    found = []
    for path, tree in firmware_sources():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and private(node.attr)
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                found.append("%s:%d .%s" % (path, node.lineno, node.attr))
            if isinstance(node, ast.ImportFrom):
                found += ["%s:%d import %s" % (path, node.lineno, alias.name)
                          for alias in node.names if private(alias.name)]
    assert found == []


def names_used_on(tree, parameter_names):
    """Attribute names read or written on the functions' parameters called so."""
    used = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in parameter_names):
            used.add(node.attr)
    return used


def test_overlap_uses_only_what_the_interpreter_offers_its_friends():
    sources = dict(firmware_sources())
    doc = ast.get_docstring(sources[os.path.join("boardfw", "interpreter.py")])
    offered = doc[doc.index("Friend modules."):]
    used = names_used_on(sources[os.path.join("boardfw", "overlap.py")], {"it"})
    assert used, "overlap.py names its interpreter parameter `it`"
    missing = sorted(name for name in used if "`%s`" % name not in offered
                     and "`%s(" % name not in offered)
    assert missing == []
