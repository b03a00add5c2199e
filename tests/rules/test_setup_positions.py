"""Composed set-up positions the shogi world's records hold: a side without a General (the
attacker of a tsume problem) and several pawns of a side on one file. Checked against
python-shogi and cshogi, which read both as tsshogi does."""
import random

import cshogi
import pytest
import shogi

from shogicore import SHOGI, YARI, Position, SfenError
from shogicore.errors import IllegalMoveError
from shogicore.impasse import impasse_result
from shogicore.move import parse_usi, to_usi
from tests.oracles import pick, python_shogi_legal

# Black (the attacker) has no king, White nine pawns on file 2, one on its last rank: a
# tsume problem from the corpus (jkf__9fu.kif). cshogi moves that pawn round the board's
# edge (2i3a), so python-shogi alone judges it.
NINE_PAWNS = "7pk/7p1/7p1/7p1/7p1/7p1/7p1/7p1/7p1 b 2R4L4s4n 1"
KINGLESS = [
    # every piece of a side but its king, each side in turn
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG1GSNL b - 1",
    "lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    # a king in check from a side without one
    "4k4/9/9/9/9/9/9/9/4R4 w - 1",
    # two White pawns on file 2, a pawn in White's hand: no drop on that file
    "8k/7p1/9/7p1/9/9/9/9/9 w p 1",
]


@pytest.mark.parametrize("sfen", KINGLESS + [NINE_PAWNS])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kingless_games_match_python_shogi_and_cshogi(sfen, seed):
    with_cshogi = sfen != NINE_PAWNS
    rng = random.Random(seed)
    position = Position(SHOGI, sfen)
    theirs = shogi.Board(sfen)
    board = cshogi.Board(sfen)
    for _ in range(80):
        ours = set(to_usi(SHOGI, m) for m in position.legal_moves())
        assert ours == python_shogi_legal(theirs), (sfen, position.sfen())
        assert position.in_check() == theirs.is_check()
        if with_cshogi:
            assert ours == set(cshogi.move_to_usi(m) for m in board.legal_moves), position.sfen()
            assert position.in_check() == board.is_check()
        if not ours:
            break
        m = pick(rng, position, position.legal_moves())
        position.push(m)
        theirs.push_usi(to_usi(SHOGI, m))
        board.push_usi(to_usi(SHOGI, m))


def test_a_side_without_a_general_is_never_in_check():
    # Black has no General; White's rook attacks its gold and the square before it
    position = Position(SHOGI, "r3k4/9/9/9/9/9/9/9/G8 b - 1")
    assert not position.in_check()
    # the gold may step onto an attacked square: no self-check test without a General
    assert position.is_legal(parse_usi(SHOGI, "9i9h"))
    position.push_usi("9i9h")
    position.push_usi("9a9b")
    assert not position.in_check()


def test_the_kingless_sides_check_must_be_answered():
    position = Position(SHOGI, "4k4/9/9/9/9/9/9/9/4R4 w - 1")
    assert position.in_check()
    assert sorted(to_usi(SHOGI, m) for m in position.legal_moves()) == [
        "5a4a", "5a4b", "5a6a", "5a6b"]


def test_a_kingless_side_with_no_move_loses_and_a_mated_king_loses():
    assert Position(SHOGI, "8k/9/9/9/9/9/9/9/9 b - 1").status() == (1, "mate")
    assert Position(SHOGI, "8k/7G1/7P1/9/9/9/9/9/9 w - 1").status() == (0, "mate")


def test_nifu_stays_illegal_as_a_drop_beside_pawns_set_up_on_one_file():
    position = Position(SHOGI, "8k/7p1/9/7p1/9/9/9/9/9 w p 1")
    drops = [to_usi(SHOGI, m) for m in position.legal_moves() if to_usi(SHOGI, m)[1] == "*"]
    assert drops and not [d for d in drops if d[2] == "2"]
    assert not position.is_legal(parse_usi(SHOGI, "P*2c"))


def test_impasse_cannot_be_declared_without_both_generals():
    position = Position(YARI, "3k3/7/7/7/7/7/7/7/7 b - 1")
    assert not position.can_declare_impasse()
    with pytest.raises(IllegalMoveError):
        impasse_result(position)


@pytest.mark.parametrize("variant,sfen", [
    (YARI, "3k3/7/7/7/7/7/7/4R2/7 b - 1"),
    (YARI, "7/7/7/7/7/7/7/7/3K3 w r 1"),
    (YARI, "3k3/7/7/3P3/7/3P3/7/7/3K3 b - 1"),
])
def test_yari_set_ups_of_the_same_kinds_are_read_and_written_back(variant, sfen):
    assert Position(variant, sfen).sfen() == sfen


def test_a_position_without_any_general_is_refused():
    with pytest.raises(SfenError, match="at least one General"):
        Position(SHOGI, "9/9/9/9/4p4/9/9/9/9 b - 1")
