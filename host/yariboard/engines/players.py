"""Weak reference players and a match referee, for tests and benchmarks of the engines.

The players follow the engine protocol of `yariboard.engines.base` (they ignore the limit),
as the built-in and USI engines do, so `play_game` can pit any two of them against each other. The
referee checks every move with the rules core and ends a game that reaches its ply cap by
material adjudication (see docs/engines.md).
"""
import random
from dataclasses import dataclass, field
from typing import List, Optional

from shogicore.variants import BLACK, WHITE, YARI, variant_by_name
from shogicore.impasse import impasse_result
from shogicore.position import Position

from yariboard.engines.base import SearchResult
from yariboard.engines.builtin.evaluation import evaluate, material_black

# A game still running after this many plies is adjudicated by material.
DEFAULT_MAX_PLIES = 200
# Material lead (centipawns, board and hand) that wins an adjudicated game; less is a draw.
ADJUDICATION_MARGIN = 300


class _SeededPlayer:
    """A player whose random choices come from a seeded generator, started afresh at
    each new game (as `Engine.new_game` does), so a game does not depend on the ones before."""

    def __init__(self, seed=None):
        self.seed = seed
        self.rng = random.Random(seed)

    def new_game(self):
        self.rng.seed(self.seed)

    def close(self):
        pass


class RandomPlayer(_SeededPlayer):
    """Plays a uniformly random legal move: the floor any engine must beat."""

    name = "random"

    def search(self, position, limit=None):
        moves = position.legal_moves()
        if not moves:
            return SearchResult(move=None, resign=True)
        return SearchResult(move=self.rng.choice(moves), depth=0, nodes=len(moves))


class GreedyPlayer(_SeededPlayer):
    """Looks one ply ahead: mates if it can, else takes the move with the best static
    evaluation afterwards (so it grabs material but never sees the recapture)."""

    name = "greedy"

    def search(self, position, limit=None):
        pos = position.copy()
        moves = pos.legal_moves()
        if not moves:
            return SearchResult(move=None, resign=True)
        best_score, best_moves = None, []
        for m in moves:
            pos.push(m)
            if not pos.legal_moves():
                pos.pop()
                return SearchResult(move=m, mate=1, depth=1, nodes=len(moves))
            score = -evaluate(pos)
            pos.pop()
            if best_score is None or score > best_score:
                best_score, best_moves = score, [m]
            elif score == best_score:
                best_moves.append(m)
        return SearchResult(move=self.rng.choice(best_moves), score=best_score, depth=1,
                            nodes=len(moves))


@dataclass
class GameOutcome:
    """How a refereed game ended: winner BLACK, WHITE or None (draw) and why."""
    winner: Optional[int]
    reason: str
    moves: List[int] = field(default_factory=list)
    final_sfen: str = ""


def play_game(black, white, variant=YARI, sfen=None, max_plies=DEFAULT_MAX_PLIES,
              limit=None, on_move=None, opening=()):
    """Play `black` against `white` to the end (mate, repetition, resignation, illegal move)
    or to `max_plies` (`opening` counted in), then adjudicate by material. Each move is
    searched with `limit`. The `opening` moves are played first, part of the game's history.

    Every move a player returns is checked with the rules core before it is played: an
    illegal one loses the game with reason 'illegal-move'. `on_move(position, result)` is
    called after each move is played.
    """
    pos = Position(variant_by_name(variant), sfen)
    for move in opening:
        pos.push(move)
    players = {BLACK: black, WHITE: white}
    while True:
        status = pos.status()
        if status is not None:
            return _outcome(pos, status[0], status[1])
        if len(pos.moves()) >= max_plies:
            return _outcome(pos, adjudicate(pos), "adjudication")
        mover = pos.side
        result = players[mover].search(pos, limit)
        if result.resign:
            return _outcome(pos, 1 - mover, "resignation")
        if result.declare_win:
            if pos.can_declare_impasse():
                winner, reason = impasse_result(pos)
                return _outcome(pos, winner, reason)
            return _outcome(pos, 1 - mover, "illegal-move")
        if result.move is None or not pos.is_legal(result.move):
            return _outcome(pos, 1 - mover, "illegal-move")
        pos.push(result.move)
        if on_move is not None:
            on_move(pos, result)


def adjudicate(position):
    """Winner of a game stopped at the ply cap: the side ahead by ADJUDICATION_MARGIN in
    material (board and hand), else None for a draw."""
    lead = material_black(position)
    if lead >= ADJUDICATION_MARGIN:
        return BLACK
    if lead <= -ADJUDICATION_MARGIN:
        return WHITE
    return None


def _outcome(pos, winner, reason):
    return GameOutcome(winner=winner, reason=reason, moves=pos.moves(), final_sfen=pos.sfen())
