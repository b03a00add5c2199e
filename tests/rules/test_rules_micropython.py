"""The same rules core, unchanged, on the real MicroPython unix port: perft and oracle vectors."""
import pytest
import json

from shogicore import YARI, Position
from tests.mpy import run_micropython
from tests.oracles import fsf_legal_usi, random_game

pytestmark = [pytest.mark.micropython]

CHECK_VECTORS = """
import json
from shogicore import Position, variant_by_name
from shogicore.move import to_usi
vectors = json.load(open(%r))
bad = 0
for v in vectors:
    p = Position(variant_by_name(v["variant"]), v["sfen"])
    got = sorted(to_usi(p.variant, m) for m in p.legal_moves())
    if got != v["legal"]:
        bad += 1
        print("MISMATCH", v["sfen"])
print("checked", len(vectors), "mismatches", bad)
"""


def test_perft_counts_on_micropython():
    code = ("from shogicore import Position, SHOGI\n"
            "from shogicore.perft import perft\n"
            "print([perft(Position(), d) for d in (1, 2, 3, 4)])\n"
            "print([perft(Position(SHOGI), d) for d in (1, 2, 3)])\n")
    _, out, _ = run_micropython(code)
    yari, shogi = out.strip().splitlines()
    assert yari == "[20, 400, 7960, 158404]"
    assert shogi == "[30, 900, 25470]"


def test_oracle_positions_on_micropython(tmp_path):
    vectors = []
    for seed in range(4):
        start, moves = random_game(500 + seed, max_plies=150)
        position = Position(YARI, start)
        for i, text in enumerate(moves):
            if i % 6 == 0:
                vectors.append({"variant": "yari", "sfen": position.sfen(),
                                "legal": sorted(fsf_legal_usi(YARI, position.sfen(), []))})
            position.push_usi(text)
    path = tmp_path / "vectors.json"
    path.write_text(json.dumps(vectors))
    _, out, _ = run_micropython(CHECK_VECTORS % str(path))
    assert out.strip().splitlines()[-1] == "checked %d mismatches 0" % len(vectors)
    assert len(vectors) > 40


def test_sfen_errors_are_the_same_on_micropython():
    code = ("from shogicore import Position, SfenError\n"
            "try:\n    Position(sfen='3k3/7/7/7/7/7/7/7/2KK3 b - 1')\n"
            "except SfenError as e:\n    print(e)\n")
    _, out, _ = run_micropython(code)
    assert out.strip() == "Black must have at most one General, has 2"
