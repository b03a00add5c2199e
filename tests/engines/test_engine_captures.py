"""Quiescence's move generator (`movegen.captures_and_promotions`) against independent
oracles: on positions of seeded random games it must yield exactly the legal captures and
promotions among the legal moves Fairy-Stockfish (Yari) or python-shogi (standard shogi)
list, and for Wa Shogi among the rules core's own."""
import pytest

from shogicore import Position, variant_by_name
from shogicore.move import is_promotion, move_to, to_usi

from tests.oracles import fsf_legal_usi, python_shogi_board, python_shogi_legal, random_game
from yariboard.engines.builtin.movegen import captures_and_promotions

GAMES = 12
# Every how many plies of a game a position is checked: enough variety, bounded run time.
STRIDE = 3


def oracle_captures_and_promotions(sfen, legal_usi):
    """The oracle's legal moves that capture (a board move onto an occupied square) or
    promote (USI suffix '+'), read from the USI text and the SFEN alone."""
    occupied = _occupied_squares(sfen)
    return set(m for m in legal_usi
               if "*" not in m and (m.endswith("+") or m[2:4] in occupied))


def _occupied_squares(sfen):
    """USI names ('7g') of the occupied squares of a 9-rank SFEN board."""
    rows = sfen.split()[0].split("/")
    files = sum(int(c) if c.isdigit() else 1 for c in rows[0].replace("+", ""))
    occupied = set()
    for rank, row in enumerate(rows):
        file = files
        for c in row:
            if c.isdigit():
                file -= int(c)
            elif c != "+":
                occupied.add("%d%s" % (file, "abcdefghi"[rank]))
                file -= 1
    return occupied


def positions(variant, seed):
    """(position, its SFEN, the USI moves leading to it from the start) along a random game."""
    start, moves = random_game(seed, variant)
    position = Position(variant_by_name(variant), start)
    for ply, usi in enumerate(moves + [None]):
        if ply % STRIDE == 0:
            yield position, start, moves[:ply]
        if usi is not None:
            position.push_usi(usi)


def generated(position):
    """The generator's moves as USI, each once. Out of check, as the search asks for them,
    the same moves come when told so, and without the promotions that take nothing, the
    captures alone."""
    moves = captures_and_promotions(position)
    usi = [to_usi(position.variant, m) for m in moves]
    assert len(usi) == len(set(usi)), "a move generated twice"
    if not position.in_check():
        assert sorted(captures_and_promotions(position, False)) == sorted(moves)
        assert sorted(captures_and_promotions(position, False, quiet_promotions=False)) \
            == sorted(m for m in moves if position.piece_at(move_to(m)))
    return set(usi)


@pytest.mark.parametrize("seed", range(GAMES))
def test_yari_captures_match_fairy_stockfish(seed):
    checked = 0
    for position, start, played in positions("yari", seed):
        legal = fsf_legal_usi(position.variant, start, played)
        expected = oracle_captures_and_promotions(position.sfen(), legal)
        assert generated(position) == expected, position.sfen()
        checked += 1
    assert checked > 1


@pytest.mark.parametrize("seed", range(GAMES))
def test_shogi_captures_match_python_shogi(seed):
    checked = 0
    for position, _, _ in positions("shogi", seed):
        sfen = position.sfen()
        legal = python_shogi_legal(python_shogi_board(sfen))
        expected = oracle_captures_and_promotions(sfen, legal)
        assert generated(position) == expected, sfen
        checked += 1
    assert checked > 1


@pytest.mark.parametrize("seed", range(4))
def test_wa_captures_match_the_rules_core(seed):
    """Wa Shogi (ranged pieces, 11 files): the captures and promotions among the rules
    core's legal moves, the core being held to CrazyWa by tests/rules/test_wa_oracle.py."""
    checked = 0
    for position, _, _ in positions("wa", seed):
        expected = {to_usi(position.variant, m) for m in position.legal_moves()
                    if m & 0xFF00 and (position.piece_at(move_to(m)) or is_promotion(m))}
        assert generated(position) == expected, position.sfen()
        checked += bool(expected)
    assert checked > 1


def test_some_positions_have_captures_and_quiet_promotions():
    """The comparison above means something only if both kinds of move occur."""
    kinds = set()
    for seed in range(GAMES):
        for position, _, _ in positions("yari", seed):
            for m in captures_and_promotions(position):
                kinds.add("capture" if position.piece_at(move_to(m)) else "quiet promotion")
                kinds.add("promotion" if is_promotion(m) else "no promotion")
    assert kinds == {"capture", "quiet promotion", "promotion", "no promotion"}
