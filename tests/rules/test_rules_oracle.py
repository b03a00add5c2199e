"""The rules core against independent oracles: Fairy-Stockfish for Yari, python-shogi for shogi."""
import pyffish
import pytest
import shogi

from shogicore import SHOGI, YARI, Position
from shogicore.move import to_usi
from yariboard.engines.fsf_notation import fsf_to_sfen, sfen_to_fsf, usi_to_uci
from shogicore.perft import perft
from tests.oracles import fsf_legal_usi, pick, python_shogi_legal

pytestmark = [pytest.mark.heavy]

HANDICAPS = sorted(YARI.handicaps)


def _yari_game_matches_oracle(seed, sfen=None, max_plies=160):
    """Play a seeded random game; at every ply compare moves, check and position."""
    import random
    rng = random.Random(seed)
    position = Position(YARI, sfen)
    start = position.sfen()
    fen = sfen_to_fsf(start)
    usi = []
    for _ in range(max_plies):
        ours = set(to_usi(YARI, m) for m in position.legal_moves())
        assert ours == fsf_legal_usi(YARI, start, usi), (start, usi)
        uci = [usi_to_uci(YARI, m) for m in usi]
        assert position.in_check() == pyffish.gives_check("yarishogi", fen, uci)
        theirs = fsf_to_sfen(pyffish.get_fen("yarishogi", fen, uci)).rsplit(" ", 1)[0]
        assert position.sfen().rsplit(" ", 1)[0] == theirs
        if not ours:
            assert position.status() == (1 - position.side, "mate")
            return len(usi)
        if position.status():
            return len(usi)
        m = pick(rng, position, position.legal_moves())
        usi.append(to_usi(YARI, m))
        position.push(m)
    return len(usi)


@pytest.mark.parametrize("seed", range(12))
def test_random_yari_games_match_fairy_stockfish(seed):
    assert _yari_game_matches_oracle(seed) > 20


@pytest.mark.parametrize("handicap", HANDICAPS)
def test_handicap_games_match_fairy_stockfish(handicap):
    assert _yari_game_matches_oracle(100 + HANDICAPS.index(handicap), YARI.handicaps[handicap]) > 10


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12, 300))
def test_many_random_yari_games_match_fairy_stockfish(seed):
    _yari_game_matches_oracle(seed, max_plies=300)


def _fsf_perft(fen, moves, depth):
    legal = pyffish.legal_moves("yarishogi", fen, moves)
    if depth == 1:
        return len(legal)
    return sum(_fsf_perft(fen, moves + [m], depth - 1) for m in legal)


def test_yari_perft_from_start_matches_fairy_stockfish():
    fen = sfen_to_fsf(YARI.start_sfen)
    position = Position(YARI)
    for depth in (1, 2, 3):
        assert perft(position, depth) == _fsf_perft(fen, [], depth)
    assert perft(position, 4) == 158404  # the oracle's figure for depth 4


@pytest.mark.slow
def test_yari_perft_depth_4_and_5_against_fairy_stockfish():
    fen = sfen_to_fsf(YARI.start_sfen)
    position = Position(YARI)
    assert perft(position, 4) == _fsf_perft(fen, [], 4)
    assert perft(position, 5) == sum(_fsf_perft(fen, [m], 4)
                                    for m in pyffish.legal_moves("yarishogi", fen, []))


def test_yari_perft_from_a_middlegame_matches_fairy_stockfish():
    from tests.oracles import random_game
    start, moves = random_game(7, max_plies=40)
    position = Position(YARI, start)
    for m in moves:
        position.push_usi(m)
    fen = sfen_to_fsf(start)
    uci = [usi_to_uci(YARI, m) for m in moves]
    assert perft(position, 2) == _fsf_perft(fen, uci, 2)


def test_shogi_perft_from_start():
    position = Position(SHOGI)
    assert [perft(position, d) for d in (1, 2, 3)] == [30, 900, 25470]


@pytest.mark.slow
def test_shogi_perft_depth_4():
    assert perft(Position(SHOGI), 4) == 719731


def _shogi_game_matches_oracle(seed, max_plies=200):
    import random
    rng = random.Random(seed)
    position = Position(SHOGI)
    board = shogi.Board()
    for _ in range(max_plies):
        ours = set(to_usi(SHOGI, m) for m in position.legal_moves())
        assert ours == python_shogi_legal(board), board.sfen()
        assert position.in_check() == board.is_check()
        assert position.sfen().split()[:3] == board.sfen().split()[:3]
        if not ours or position.status():
            return
        m = pick(rng, position, position.legal_moves())
        position.push(m)
        board.push_usi(to_usi(SHOGI, m))


@pytest.mark.parametrize("seed", range(8))
def test_random_shogi_games_match_python_shogi(seed):
    _shogi_game_matches_oracle(seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8, 100))
def test_many_random_shogi_games_match_python_shogi(seed):
    _shogi_game_matches_oracle(seed, max_plies=300)
