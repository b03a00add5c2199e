"""The one vocabulary every engine speaks: what to search for (`Limit`), what it found
(`SearchResult`), how mates are scored, the `EngineError` every engine failure derives from,
and the `Engine` protocol that the built-in engine, the USI and XBoard clients and the
reference players all follow, so any caller can swap one for another (as python-chess does
for UCI and XBoard engines)."""
from dataclasses import dataclass, field
from typing import List, Optional, Protocol

from shogicore.variants import BLACK

# A mate score: MATE_SCORE minus the plies to the mate, for the side that mates.
MATE_SCORE = 100000
MAX_PLY = 128
# Scores beyond this are mate scores.
MATE_BOUND = MATE_SCORE - MAX_PLY

# Clock planning (`Limit.planned_seconds`): a share of the main time left for one move, and
# at most this part of the main time left for one move, however large the increment: the
# increment comes only after the move, which must still be carried out (on the board, by a
# hand) before the clock stops.
MOVES_TO_PLAN_FOR = 30
MOST_OF_MAIN = 0.5
# Part of a byoyomi period or an increment an engine dares to use (the rest: the pipe, the
# GUI, a busy machine).
SAFE_SHARE = 0.8
# Never plan less than this for a move.
SHORTEST_MOVE_SECONDS = 0.02


class EngineError(RuntimeError):
    """An engine could not be started, broke its protocol, hung, died, or cannot do what it
    was asked. Every engine's errors derive from it, so a caller catches this one."""


@dataclass(frozen=True)
class Limit:
    """How long to search. `time` is seconds for this move; `depth` plies; `nodes` a node
    budget. The clock fields are
    what a GUI sends: each side's main time left, increment and the byoyomi, in seconds;
    `moves_to_go` the moves until the next time control. Any mix may be given; the first
    limit reached ends the search. An empty Limit means the engine's own default."""
    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    black_clock: Optional[float] = None
    white_clock: Optional[float] = None
    black_increment: float = 0.0
    white_increment: float = 0.0
    byoyomi: float = 0.0
    moves_to_go: Optional[int] = None

    def is_empty(self):
        return self == Limit()

    def has_clock(self):
        return self.black_clock is not None or self.white_clock is not None \
            or self.byoyomi > 0

    def planned_seconds(self, side):
        """Seconds to think for `side` on this move: `time` if given, else planned from the
        clock fields (None when neither is given). A share of the main time left plus most
        of the increment and the byoyomi; never more than half the main time left plus most
        of the byoyomi, since the increment is added only after the move."""
        if self.time is not None:
            return max(0.0, self.time)
        if not self.has_clock():
            return None
        main = self.black_clock if side == BLACK else self.white_clock
        main = max(0.0, main or 0.0)
        increment = self.black_increment if side == BLACK else self.white_increment
        moves = max(1, self.moves_to_go or MOVES_TO_PLAN_FOR)
        budget = main / moves + SAFE_SHARE * (max(0.0, increment) + self.byoyomi)
        budget = min(budget, MOST_OF_MAIN * main + SAFE_SHARE * self.byoyomi)
        return max(SHORTEST_MOVE_SECONDS, budget)


@dataclass
class SearchResult:
    """What any engine answers for one position.

    `move` is a shogicore move (None when the engine resigns or declares a win), `score`
    centipawns from the point of view of the side to move, `mate` plies to mate (positive:
    the side to move mates, negative: it is mated; None when no mate was seen).
    """
    move: Optional[int]
    score: int = 0
    mate: Optional[int] = None
    depth: int = 0
    nodes: int = 0
    pv: List[int] = field(default_factory=list)
    seconds: float = 0.0
    resign: bool = False
    declare_win: bool = False


class Engine(Protocol):
    """What every engine offers. `search` leaves `position` unchanged and returns a legal move
    (or resign / declare_win set); `new_game` forgets the last game; `close` frees what the
    engine holds (a process, memory). Failures raise EngineError."""
    name: str

    def search(self, position, limit: Optional[Limit] = None) -> SearchResult: ...

    def new_game(self) -> None: ...

    def close(self) -> None: ...


def mate_plies(score):
    """Plies to mate for a mate score (negative when the side to move is mated), else None."""
    if score >= MATE_BOUND:
        return MATE_SCORE - score
    if score <= -MATE_BOUND:
        return -(MATE_SCORE + score)
    return None
