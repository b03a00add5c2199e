"""Wa Shogi's written forms (docs/rules-wa.md): SFEN letters and counts, USI with two-digit
files, Hodges with the rule book's abbreviations, CrazyWa's XBoard coordinates; bad text
gets a one-line reason; `yariboard perft/legal --variant wa|wa-nodrops` from the shell."""
import os
import random
import re
import subprocess
import sys

import pytest

from shogicore import (IllegalMoveError, InvalidMoveError, MoveError, Position, SfenError,
                       variant_by_name)
from shogicore.move import parse_usi, to_usi
from yariboard.records.notation import parse_hodges, to_hodges
from shogicore.perft import perft
from yariboard.engines.xboard import (sfen_to_xboard_fen, square_from_xboard, square_to_xboard,
                              usi_from_xboard, usi_to_xboard)

from tests.oracles import pick

pytestmark = [pytest.mark.external]

WA = variant_by_name("wa")
NODROPS = variant_by_name("wa-nodrops")
from tests.mpy import ROOT
RULES_WA = os.path.join(ROOT, "docs", "rules-wa.md")
YARIBOARD = os.path.join(os.path.dirname(sys.executable), "yariboard")


def _rule_book_tables():
    """(Hodges, SFEN) pairs from the piece tables of docs/rules-wa.md."""
    rows = []
    for line in open(RULES_WA, encoding="utf-8"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and re.fullmatch(r"\+?[A-Z]{2}", cells[1]):
            rows.append((cells[1], cells[2]))
    return rows


def test_every_piece_has_the_rule_books_letter_and_abbreviation():
    rows = _rule_book_tables()
    assert len(rows) == 31
    from yariboard.records.notation import hodges_name
    for hodges, sfen in rows:
        kind = WA.kind_of(sfen)
        assert hodges_name(WA, kind) == hodges
        assert hodges_name(NODROPS, NODROPS.kind_of(sfen)) == hodges
    assert sorted(s for _, s in rows) == sorted(WA.symbol(kind) for kind in WA.kinds)


@pytest.mark.parametrize("text", ["", " ", "+", "p", " P", "+p", "P+", "PP", "+PP", "Z", "+K"])
def test_only_a_symbol_as_black_writes_it_names_a_kind(text):
    with pytest.raises(KeyError):
        WA.kind_of(text)


def test_every_kind_reads_back_from_its_symbol_and_no_other_kind_has_one():
    assert [WA.kind_of(WA.symbol(kind)) for kind in WA.kinds] == list(WA.kinds)
    assert [k for k in range(32) if WA.symbol(k) and k not in WA.kinds] == []


def test_sfen_writes_runs_of_eleven_and_counts_of_ten_or_more():
    text = "5k5/11/11/11/11/11/11/11/11/11/5K5 b E12P3p 1"
    position = Position(WA, text)
    assert position.sfen() == text
    assert position.hand_count(0, WA.kind_of("P")) == 12


@pytest.mark.parametrize("text, words", [
    ("5k5/11/11/11/11/11/11/11/11/11/5K5/11 b - 1", "12 ranks"),
    ("5k5/12/11/11/11/11/11/11/11/11/5K5 b - 1", "rank b has 12 squares"),
    ("5k5/10/11/11/11/11/11/11/11/11/5K5 b - 1", "rank b has 10 squares"),
    ("5k5/5Q5/11/11/11/11/11/11/11/11/5K5 b - 1", "unknown piece 'Q'"),
    ("5k5/11/11/11/11/11/11/11/11/11/5K5 b 23P 1", "too many P"),
    ("5k5/11/11/11/11/11/11/11/11/11/5K5 b 3E 1", "too many E"),
    ("5k5/11/11/11/11/11/11/11/11/11/5K5 b K 1", "cannot be in hand"),
])
def test_bad_sfen_is_refused_naming_the_problem(text, words):
    with pytest.raises(SfenError, match=words):
        Position(WA, text)


def test_usi_uses_two_digit_files():
    position = Position(WA)
    assert to_usi(WA, parse_usi(WA, "11i11h")) == "11i11h"
    assert to_usi(WA, parse_usi(WA, "10j5e")) == "10j5e"
    position.push_usi("11i11h")
    assert position.sfen().startswith("hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/P2P3P3/")


@pytest.mark.parametrize("text", ["12a11a", "11a12a", "0a1a", "6l6k", "11i11", "1111",
                                  "P*12e", "Q*5e", "K*5e", "11i11h=", "+11i11h", ""])
def test_malformed_usi_is_refused_naming_the_text(text):
    with pytest.raises(MoveError) as e:
        parse_usi(WA, text)
    assert repr(text) in str(e.value) and "\n" not in str(e.value)


def test_usi_and_hodges_round_trip_every_legal_move_of_random_games():
    rng = random.Random(14)
    for variant in (WA, NODROPS):
        position = Position(variant)
        for _ in range(60):
            moves = position.legal_moves()
            if not moves or position.status():
                break
            for m in moves:
                assert parse_usi(variant, to_usi(variant, m)) == m
                assert parse_hodges(position, to_hodges(position, m)) == m
            position.push(pick(rng, position, moves))


def test_hodges_examples_of_the_rule_book():
    position = Position(WA)
    assert to_hodges(position, parse_usi(WA, "6i6h")) == "SP-6h"
    assert to_hodges(position, parse_usi(WA, "8i8g")) == "TF-8g"
    assert to_hodges(position, parse_usi(WA, "6j7j")) == "SW-7j"
    two = Position(WA, "5k5/11/11/11/11/11/11/11/11/4S1S4/5K5 b - 1")
    assert to_hodges(two, parse_usi(WA, "7j6j")) == "SW7j-6j"
    assert parse_hodges(two, "SW5j-6j") == parse_usi(WA, "5j6j")
    capture = Position(WA, "5k5/11/1f9/11/11/11/11/11/7F3/11/5K5 b - 1")
    assert to_hodges(capture, parse_usi(WA, "4i10c+")) == "FFx10c+"
    assert to_hodges(capture, parse_usi(WA, "4i10c")) == "FFx10c="
    drop = Position(WA, "5k5/11/11/11/11/11/11/11/11/11/5K5 b R 1")
    assert to_hodges(drop, parse_usi(WA, "R*7e")) == "RR*7e"
    promoted = Position(WA, "5k5/11/11/11/11/5+U5/11/11/11/11/5K5 b - 1")
    assert to_hodges(promoted, parse_usi(WA, "6f6e")) == "+SC-6e"


@pytest.mark.parametrize("text, words, kind", [
    ("QQ-6h", "unknown piece", InvalidMoveError), ("SP-12h", "bad destination", InvalidMoveError),
    ("SP6h", "no '-'", InvalidMoveError), ("SPx6h", "empty", IllegalMoveError),
    ("SP12i-6h", "bad origin", InvalidMoveError), ("SP*6e", "illegal drop", IllegalMoveError),
])
def test_bad_hodges_is_refused_with_the_reason(text, words, kind):
    with pytest.raises(kind, match=words):
        parse_hodges(Position(WA), text)


def test_xboard_coordinates_of_the_rule_book():
    assert square_to_xboard(WA, "11k") == "a1" and square_to_xboard(WA, "1a") == "k11"
    assert square_from_xboard(WA, "e7") == "7e"
    assert usi_to_xboard(WA, "8i8g") == "d3d5"
    assert usi_to_xboard(WA, "R*7e") == "R@e7"
    assert usi_from_xboard(WA, "i9i10+") == "3c3b+"
    assert usi_from_xboard(WA, "i9i10=") == "3c3b"
    assert sfen_to_xboard_fen("5k5/11/11/11/11/11/11/11/11/11/5K5 w E2Pp 9") == (
        "5k5/11/11/11/11/11/11/11/11/11/5K5[EPPp] b 0 1")
    for bad in ("l1a1", "a12a1", "a0a1", "zz"):
        with pytest.raises(MoveError, match="unreadable XBoard move"):
            usi_from_xboard(WA, bad)


# -- from the shell -----------------------------------------------------------------------------
def _yariboard(*args):
    return subprocess.run([YARIBOARD] + list(args), capture_output=True, text=True,
                          timeout=120, cwd=os.path.expanduser("~"))


@pytest.mark.parametrize("variant", ["wa", "wa-nodrops"])
def test_perft_from_the_shell_matches_the_hand_count_of_the_first_moves(variant):
    # 51 first moves (counted square by square in test_wa_rules); the armies cannot touch
    # each other in two plies, so depth 2 is 51 * 51.
    for depth, nodes in ((1, 51), (2, 51 * 51)):
        run = _yariboard("perft", str(depth), "--variant", variant)
        assert run.returncode == 0, run.stderr
        assert run.stdout.splitlines()[-1] == "nodes %d" % nodes


def test_both_rule_sets_agree_until_a_drop_is_possible():
    # The earliest capture is at ply 3, so the earliest drop at ply 5.
    assert perft(Position(WA), 3) == perft(Position(NODROPS), 3)


def test_rule_book_perft_figures_are_what_the_shell_prints():
    text = open(RULES_WA, encoding="utf-8").read()
    row = re.search(r"^\| `wa` \| ([0-9, |]+) \|$", text, re.M).group(1)
    figures = [int(x.replace(",", "")) for x in row.split(" | ")]
    run = _yariboard("perft", "3", "--variant", "wa")
    assert run.stdout.splitlines()[-1] == "nodes %d" % figures[2]
    assert figures[:2] == [51, 51 * 51]


def test_legal_from_the_shell_lists_two_digit_files():
    run = _yariboard("legal", "--variant", "wa", "--moves", "8i8g", "4c4e")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.split()
    assert "11i11h" in lines and "8g8e" in lines and len(lines) == len(set(lines))


@pytest.mark.parametrize("args, words", [
    (["--moves", "12a11a"], "not a square of a 11x11 board"),
    (["--moves", "P*5e"], "illegal move P*5e"),
    (["--sfen", "5k5/11 b - 1"], "board has 2 ranks"),
])
def test_bad_input_from_the_shell_gets_one_line(args, words):
    run = _yariboard("legal", "--variant", "wa", *args)
    assert run.returncode != 0
    assert words in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert "Traceback" not in run.stderr
