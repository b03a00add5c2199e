"""Matches between two USI engines: the built-in engine (through `yariboard usi`) against
Fairy-Stockfish, both at a fixed node budget per move.

Running the built-in engine through its own USI front end means the match exercises exactly
what a shogi GUI would talk to. Openings are varied by a few seeded random plies; each
opening is played twice with the colours swapped, so neither engine profits from a lucky
opening or from moving first. Games end as `players.play_game` ends them (mate, repetition,
resignation, illegal move, or material adjudication at the ply cap).
"""
import random
import sys
from dataclasses import dataclass, field
from typing import List

from shogicore.position import Position
from shogicore.variants import BLACK, WHITE, variant_by_name

from yariboard import fsf
from yariboard.players import play_game
from yariboard.usi import UsiEngine

OPENING_PLIES = 2
# A new Python process importing the engine; generous, for a machine under load.
STARTUP_SECONDS = 60
MAX_PLIES = 200


def builtin_usi_argv():
    """The built-in engine's USI front end, run by the same Python as this process."""
    return [sys.executable, "-m", "yariboard.cli", "usi"]


def open_builtin(variant, nodes):
    argv = builtin_usi_argv()
    return UsiEngine(argv[0], variant=variant, args=argv[1:], nodes=nodes,
                     name="built-in (USI)", startup_timeout=STARTUP_SECONDS)


def openings(variant, count, seed, plies=OPENING_PLIES):
    """`count` start SFENs, each a few seeded random legal plies from the start position."""
    rng = random.Random(seed)
    starts = []
    for _ in range(count):
        position = Position(variant_by_name(variant))
        for _ in range(plies):
            position.push(rng.choice(position.legal_moves()))
        starts.append(position.sfen())
    return starts


@dataclass
class GameReport:
    opening: str
    builtin_side: int
    winner: object
    reason: str
    plies: int

    @property
    def builtin_points(self):
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == self.builtin_side else 0.0


@dataclass
class MatchReport:
    nodes: int
    games: List[GameReport] = field(default_factory=list)

    def wins(self):
        return sum(1 for g in self.games if g.builtin_points == 1.0)

    def draws(self):
        return sum(1 for g in self.games if g.builtin_points == 0.5)

    def losses(self):
        return sum(1 for g in self.games if g.builtin_points == 0.0)

    def score(self):
        """The built-in engine's points (a draw counts half) as a fraction of the games."""
        return sum(g.builtin_points for g in self.games) / len(self.games) if self.games else 0.0


def run_match(games, nodes, variant="yari", seed=1, node=None, engines_dir=None,
              max_plies=MAX_PLIES, on_game=None, fsf_nodes=None):
    """Play `games` games built-in vs Fairy-Stockfish at `nodes` per move (Fairy-Stockfish at
    `fsf_nodes` when given: a gap in budgets sizes a gap in strength); a MatchReport."""
    report = MatchReport(nodes=nodes)
    starts = openings(variant, (games + 1) // 2, seed)
    with open_builtin(variant, nodes) as builtin, \
            fsf.open_engine(variant, node=node, root=engines_dir,
                            nodes=fsf_nodes or nodes) as fairy:
        for index in range(games):
            start = starts[index // 2]
            builtin_side = BLACK if index % 2 == 0 else WHITE
            black, white = (builtin, fairy) if builtin_side == BLACK else (fairy, builtin)
            builtin.new_game()
            fairy.new_game()
            outcome = play_game(black, white, variant=variant, sfen=start, max_plies=max_plies)
            game = GameReport(start, builtin_side, outcome.winner, outcome.reason,
                              len(outcome.moves))
            report.games.append(game)
            if on_game is not None:
                on_game(index, game)
    return report
