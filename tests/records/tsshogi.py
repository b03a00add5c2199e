"""tsshogi, ShogiHome's record library, run through Node.js as the records' oracle.

tools/recordoracle/read.mjs reads each file with tsshogi and prints what it found: start
position, moves (USI), comments, ending, headers. `make test` installs it (npm ci).
"""
import json
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORACLE = os.path.join(ROOT, "tools", "recordoracle")


def read(paths):
    """{path: what tsshogi read} for every path; an entry with "error" when it refused."""
    if shutil.which("node") is None or not os.path.isdir(os.path.join(ORACLE, "node_modules", "tsshogi")):
        pytest.fail("tsshogi is not installed: run `make recordoracle` (needs Node.js and npm)")
    answer = subprocess.run(["node", os.path.join(ORACLE, "read.mjs"), *paths],
                            capture_output=True, text=True, timeout=600, check=True)
    found = [json.loads(line) for line in answer.stdout.splitlines()]
    return {entry["file"]: entry for entry in found}


def comments(entry):
    """The comments of a reading, {ply: text}, without the empty ones and trailing newlines."""
    return {ply: text.rstrip("\n") for ply, text in enumerate(entry["comments"]) if text.rstrip("\n")}


def position(entry):
    """Board, side to move and hands of the start (the move number is not a record's)."""
    return entry["sfen"].split()[:3]
