"""The reference players and the referee that the engine's match results rely on."""
from shogicore.position import Position
from shogicore.variants import BLACK, SHOGI, WHITE, YARI

from yariboard.engines.base import SearchResult
from yariboard.engines.players import (ADJUDICATION_MARGIN, GreedyPlayer, RandomPlayer, adjudicate,
                               play_game)

# Black's Yari Rook on 4e can take a White Yari Rook on 4b that nothing defends.
FREE_ROOK = "3k3/3r3/7/7/3R3/7/7/7/3K3 b - 1"
MATE_IN_1 = "5rk/5p1/7/5N1/7/7/7/7/K6 b P 1"


class _FixedAnswer:
    """A player that always gives the same answer, to drive the referee's edge cases."""

    name = "fixed"

    def __init__(self, result):
        self.result = result

    def search(self, position, limit=None):
        return self.result

    def close(self):
        pass


def test_random_player_plays_legal_moves_repeatably():
    position = Position(YARI)
    first = RandomPlayer(seed=3).search(position).move
    assert position.is_legal(first)
    assert RandomPlayer(seed=3).search(position).move == first
    assert len({RandomPlayer(seed=s).search(position).move for s in range(20)}) > 3


def test_greedy_player_takes_a_free_piece_and_mates_in_one():
    position = Position(YARI, FREE_ROOK)
    move = GreedyPlayer(seed=1).search(position).move
    position.push(move)
    assert position.hand_count(BLACK, YARI.kind_of("R")) == 1
    mating = Position(YARI, MATE_IN_1)
    result = GreedyPlayer(seed=1).search(mating)
    mating.push(result.move)
    assert mating.status() == (BLACK, "mate")


def test_referee_ends_a_game_at_mate():
    outcome = play_game(GreedyPlayer(seed=0), RandomPlayer(seed=0), YARI, sfen=MATE_IN_1)
    assert (outcome.winner, outcome.reason) == (BLACK, "mate")
    assert len(outcome.moves) == 1
    assert Position(YARI, outcome.final_sfen).status() == (BLACK, "mate")


def test_referee_makes_an_illegal_move_lose():
    illegal = _FixedAnswer(SearchResult(move=Position(SHOGI).legal_moves()[0]))
    outcome = play_game(RandomPlayer(seed=0), illegal, SHOGI)
    # White was handed Black's opening move: not legal for White, so White loses at once.
    assert (outcome.winner, outcome.reason) == (BLACK, "illegal-move")
    assert len(outcome.moves) == 1


def test_referee_records_resignation_and_false_win_claims():
    resigned = play_game(_FixedAnswer(SearchResult(move=None, resign=True)),
                         RandomPlayer(seed=0), YARI)
    assert (resigned.winner, resigned.reason) == (WHITE, "resignation")
    # Declaring an impasse win from the start position is not allowed: it loses.
    claimed = play_game(_FixedAnswer(SearchResult(move=None, declare_win=True)),
                        RandomPlayer(seed=0), YARI)
    assert (claimed.winner, claimed.reason) == (WHITE, "illegal-move")


def test_ply_cap_is_adjudicated_by_material():
    ahead = play_game(RandomPlayer(seed=0), RandomPlayer(seed=1), YARI, sfen=FREE_ROOK,
                      max_plies=0)
    # Black has a Yari Rook against a Yari Rook: level, a draw.
    assert (ahead.winner, ahead.reason) == (None, "adjudication")
    black_up = Position(YARI, "3k3/7/7/7/R6/7/7/7/3K3 b R 1")
    assert adjudicate(black_up) == BLACK
    white_up = Position(YARI, "3k3/3r3/7/7/7/7/7/7/3K3 b p 1")
    assert adjudicate(white_up) == WHITE
    # A single pawn is below the margin.
    assert ADJUDICATION_MARGIN > 110
    assert adjudicate(Position(YARI, "3k3/7/7/7/7/7/7/7/3K3 b P 1")) is None
