"""SFEN: read and write, and a specific error for every way a position string can be wrong."""
import pyffish
import pytest

from shogicore import SHOGI, YARI, Position, SfenError
from yariboard.engines.fsf_notation import fsf_to_sfen, sfen_to_fsf, usi_to_uci
from tests.oracles import random_game


@pytest.mark.parametrize("seed", range(5))
def test_sfen_round_trips_through_positions_fairy_stockfish_reached(seed):
    start, moves = random_game(seed, max_plies=120)
    uci = [usi_to_uci(YARI, m) for m in moves]
    for n in range(0, len(moves), 7):
        fen = pyffish.get_fen("yarishogi", sfen_to_fsf(start), uci[:n])
        sfen = fsf_to_sfen(fen)
        assert Position(YARI, sfen).sfen() == sfen


@pytest.mark.parametrize("variant", ["yari", "shogi", "wa"])
def test_a_position_hashes_the_same_read_from_its_sfen_as_reached_by_moves(variant):
    # The engine's table lasts from move to move, and a GUI may send each position as a
    # fresh SFEN: one position must have one hash however it came about. A hand's count of
    # a kind moving off 0 or back to it is where the two ways used to part.
    start, moves = random_game(11, variant, max_plies=160)
    position = Position(variant, start)
    hand_changes = 0
    for usi in moves:
        before = [list(hand) for hand in position.hands]
        position.push_usi(usi)
        hand_changes += before != [list(hand) for hand in position.hands]
        assert Position(variant, position.sfen()).hash == position.hash, usi
    assert hand_changes >= 5, "the game must take and drop pieces"


def test_standard_shogi_start_round_trips():
    assert Position(SHOGI).sfen() == SHOGI.start_sfen


def test_move_number_and_side_are_kept():
    position = Position(YARI, "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 17")
    assert position.side == 1 and position.move_number == 17
    assert position.sfen().endswith(" w - 17")


def test_hands_are_written_in_order_with_counts():
    position = Position(YARI, "3k3/7/7/7/7/7/7/7/3K3 b p2PNrB 1")
    assert position.sfen().split()[2] == "B N2Prp".replace(" ", "")


@pytest.mark.parametrize("sfen,words", [
    ("rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7 b - 1", "8 ranks"),
    ("rnnkbbr/7/pppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1", "rank c has 6 squares"),
    ("rnnkbbr/7/pppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1", "rank c has 8 squares"),
    ("rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNX b - 1", "unknown piece 'X'"),
    ("rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b 2R 1", "too many R: 6"),
    ("rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b 8p 1", "too many P: 22"),
    ("rnn1bbr/7/ppppppp/7/7/7/PPPPPPP/7/RBB1NNR b - 1", "needs at least one General"),
    ("rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKKNR b - 1", "Black must have at most one General, has 2"),
    ("3k3/7/7/7/7/7/7/7/3K3 x - 1", "side to move"),
    ("3k3/7/7/7/7/7/7/7/3K3 b K 1", "cannot be in hand"),
    ("3k3/7/7/7/7/7/7/7/3K3 b 3 1", "ends with a count"),
    ("3k3/7/7/7/7/7/7/7/3K3 b - zero", "move number"),
    ("3k3/7/7/7/7/7/7/7/3K3", "3 or 4 fields"),
    ("3k3/7/7/7/7/7/7/7/3r2K w - 1", "not to move is in check"),
    ("3+k3/7/7/7/7/7/7/7/3K3 b - 1", "unknown piece '+k'"),
    ("3k2+/7/7/7/7/7/7/7/3K3 b - 1", "ends with '+'"),
])
def test_bad_sfen_names_the_problem(sfen, words):
    with pytest.raises(SfenError) as error:
        Position(YARI, sfen)
    assert words in str(error.value)


def test_a_set_up_knight_on_the_second_rank_is_read_and_has_no_move():
    position = Position(SHOGI, "4k4/5N3/9/9/9/9/9/9/4K4 b - 1")
    assert position.destinations(SHOGI.square(4, 2)) == []
