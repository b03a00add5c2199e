"""Reads the KiCad netlist the project writes (hardware/NAME/NAME.net): parts and nets.

The PCB takes every part, footprint and net from this file, so the board cannot disagree
with the netlist, and the netlist is held to the board file by tests/test_hardware.py.
"""
import re

_TOKEN = re.compile(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"]+')


def parse(text):
    """Nested lists of strings from an s-expression; bounded by the text's length."""
    stack, top = [], []
    for token in _TOKEN.findall(text):
        if token == "(":
            stack.append(top)
            top = []
        elif token == ")":
            if not stack:
                raise ValueError("netlist: unbalanced ')'")
            done, top = top, stack.pop()
            top.append(done)
        else:
            top.append(token[1:-1].replace('\\"', '"') if token.startswith('"') else token)
    if stack:
        raise ValueError("netlist: unbalanced '('")
    return top


def _children(node, key):
    return [child for child in node[1:] if isinstance(child, list) and child and child[0] == key]


def _value(node, key):
    found = _children(node, key)
    return found[0][1] if found else None


class Part:
    def __init__(self, ref, value, footprint, fields):
        self.ref = ref
        self.value = value
        self.footprint = footprint  # "Library:Name"
        self.fields = fields  # e.g. {"Square": "7i", "Chain": "0", "MPN": ...}


def read(path):
    """({ref: Part}, {net name: [(ref, pin)]}) from the netlist at `path`."""
    with open(path) as stream:
        [root] = parse(stream.read())
    parts, nets = {}, {}
    for comp in _children(_children(root, "components")[0], "comp"):
        fields = {}
        for block in _children(comp, "fields"):
            for field in _children(block, "field"):
                fields[_value(field, "name")] = field[-1] if not isinstance(field[-1], list) else ""
        ref = _value(comp, "ref")
        parts[ref] = Part(ref, _value(comp, "value"), _value(comp, "footprint"), fields)
    for net in _children(_children(root, "nets")[0], "net"):
        nodes = [(_value(node, "ref"), _value(node, "pin")) for node in _children(net, "node")]
        nets[_value(net, "name")] = nodes
    return parts, nets
