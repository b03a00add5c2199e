"""The engine's move generator (yariboard.engines.builtin.movegen) against independent oracles: in positions
of seeded random games, and in every one of them where the side to move is in check, it must
yield exactly the legal moves Fairy-Stockfish (Yari) or python-shogi (standard shogi) list,
drops included (in check: the drops that block)."""
import pytest

from shogicore import Position, variant_by_name
from shogicore.move import to_usi

from tests.oracles import fsf_legal_usi, python_shogi_board, python_shogi_legal, random_game
from yariboard.engines.builtin.movegen import check_answers, hash_move_legal, legal_moves, lines_through

pytestmark = [pytest.mark.heavy]

GAMES = 30
STRIDE = 7   # besides every check, every how many plies a position is compared


def positions(variant, seed):
    """(position, start SFEN, USI moves to it) every STRIDE plies and wherever the side to
    move is in check."""
    start, moves = random_game(seed, variant)
    position = Position(variant_by_name(variant), start)
    for ply, usi in enumerate(moves + [None]):
        if ply % STRIDE == 0 or position.in_check():
            yield position, start, moves[:ply]
        if usi is not None:
            position.push_usi(usi)


def generated(position):
    usi = [to_usi(position.variant, m) for m in legal_moves(position, position.in_check())]
    assert len(usi) == len(set(usi)), "a move generated twice"
    return set(usi)


def compare(variant, oracle):
    checks = drops_in_check = drops = 0
    for seed in range(GAMES):
        for position, start, played in positions(variant, seed):
            expected = oracle(position, start, played)
            assert generated(position) == expected, position.sfen()
            dropping = any("*" in m for m in expected)
            drops += dropping
            if position.in_check():
                checks += 1
                drops_in_check += dropping
    assert checks >= 20 and drops_in_check >= 5 and drops >= 50, (checks, drops_in_check, drops)


def test_yari_moves_match_fairy_stockfish():
    compare("yari", lambda position, start, played: fsf_legal_usi(position.variant, start,
                                                                   played))


def test_shogi_moves_match_python_shogi():
    compare("shogi", lambda position, start, played: python_shogi_legal(
        python_shogi_board(position.sfen())))


@pytest.mark.parametrize("sfen, checkers, answers", [
    # a Rook checks from three squares away along the file: take it, or block between
    ("3k3/7/7/7/7/3r3/7/7/3K3 b P 1", 1, {"4f", "4g", "4h"}),
    # the same Rook next to the General: only taking it answers
    ("3k3/7/7/7/7/7/7/3r3/3K3 b P 1", 1, {"4h"}),
    # a Rook and a Knight at once: only the General can answer
    ("3k3/7/7/7/7/3r3/2n4/7/3K3 b P 1", 2, None),
])
def test_only_the_squares_that_answer_a_check_are_tried(sfen, checkers, answers):
    position = Position(variant_by_name("yari"), sfen)
    count, squares = check_answers(position)
    assert count == checkers
    if answers is not None:
        assert {position.variant.square_name(sq) for sq in squares} == answers


def test_wa_moves_match_the_rules_core():
    """Wa Shogi has no oracle that lists moves in check (CrazyWa's list leaves some out, see
    tests/rules/test_wa_oracle.py, which holds the rules core to CrazyWa): here the fast generator,
    its per-square move lines and ranged pieces included, must list what the core lists."""
    compare("wa", lambda position, start, played: {
        to_usi(position.variant, m) for m in position.legal_moves()})


@pytest.mark.parametrize("variant", ["yari", "shogi", "wa"])
def test_a_hash_move_is_judged_legal_exactly_as_the_core_judges_it(variant):
    """The search plays a move from its hash table (or a killer) only if `hash_move_legal`
    allows it. Here it is asked of every move legal a few plies before or after, in
    positions of seeded random games (checks and pins included), and must agree with the
    core's `is_legal` every time, legal or not: out of check both told so (most moves then
    spared their safety test, those off the lines through the General) and not."""
    agreed = legal = checks = spared = 0
    for seed in range(8):
        start, moves = random_game(seed, variant)
        position = Position(variant_by_name(variant), start)
        nearby = []   # the legal moves of each position of the game, in order
        for usi in moves:
            nearby.append(position.legal_moves())
            position.push_usi(usi)
        position = Position(variant_by_name(variant), start)
        for ply, usi in enumerate(moves):
            checks += position.in_check()
            for candidates in nearby[max(0, ply - 3):ply + 4]:
                for m in candidates:
                    expected = position.is_legal(m)
                    assert hash_move_legal(position, m) == expected, \
                        (position.sfen(), to_usi(position.variant, m))
                    if not position.in_check():
                        on_line = lines_through(position.variant, 1 - position.side)[
                            position.kings[position.side]]
                        assert hash_move_legal(position, m, False) == expected, \
                            (position.sfen(), to_usi(position.variant, m), "out of check")
                        spared += expected and not on_line[m >> 8 & 0xFF]
                    agreed += 1
                    legal += expected
            position.push_usi(usi)
    assert checks >= 5 and agreed - legal >= 1000 and legal >= 1000 and spared >= 500, \
        (checks, agreed, legal, spared)
