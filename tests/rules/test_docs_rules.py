"""The rule book is in the repository (docs/rules.md), every document points to it, and
the facts it quotes agree with the rules core and with python-shogi."""
import glob
import os
import re

import shogi

from shogicore import SHOGI, YARI
from tests.mpy import ROOT

RULES = os.path.join(ROOT, "docs", "rules.md")
# Wa Shogi's section is written together with its board (docs/rules-wa.md).
WRITTEN_ELSEWHERE = {os.path.join(ROOT, "docs", "rules-wa.md")}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def documents():
    return [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))


def test_no_document_or_source_points_to_a_rules_file_outside_the_repository():
    sources = documents() + glob.glob(os.path.join(ROOT, "hardware", "**", "*.md"), recursive=True)
    for folder in ("host", "firmware", "tests", "tools"):
        sources += glob.glob(os.path.join(ROOT, folder, "**", "*.py"), recursive=True)
    offenders = [os.path.relpath(path, ROOT) for path in sources
                 if path != os.path.abspath(__file__) and re.search(r"(?<![\w/-])RULES\.md", read(path))]
    assert offenders == []


def test_every_link_between_documents_leads_to_a_file():
    broken = []
    for path in documents():
        for target in re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", read(path)):
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), target))
            if not os.path.exists(resolved) and resolved not in WRITTEN_ELSEWHERE:
                broken.append("%s -> %s" % (os.path.relpath(path, ROOT), target))
    assert broken == []
    assert "](docs/rules.md)" in read(os.path.join(ROOT, "README.md"))


def test_the_rule_book_covers_every_topic_for_both_variants_and_links_wa_shogi():
    text = read(RULES)
    headings = [line.lstrip("#").strip().lower() for line in text.splitlines() if line.startswith("#")]
    for topic in ("squares", "pieces", "promotion", "drops", "ends", "handicaps", "notation",
                  "standard shogi"):
        assert any(topic in heading for heading in headings), topic
    assert "(rules-wa.md)" in text


def test_the_start_positions_and_handicap_names_quoted_are_the_rules_cores():
    text = read(RULES)
    assert YARI.start_sfen in text and SHOGI.start_sfen in text
    quoted = re.findall(r"^\| `([a-z-]+)` \|", text, re.M)
    assert sorted(quoted) == sorted(YARI.handicaps)


def test_the_shogi_move_counts_quoted_agree_with_python_shogi():
    text = read(RULES)
    board = shogi.Board()
    first = list(board.legal_moves)
    second = 0
    for move in first:
        board.push(move)
        second += len(list(board.legal_moves))
        board.pop()
    assert "there are %d legal\n  moves, %d two-move sequences" % (len(first), second) in text
