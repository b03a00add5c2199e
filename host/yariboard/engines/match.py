"""Matches between two USI engines: the built-in engine (through `yariboard usi`) against
Fairy-Stockfish, both at a fixed node budget per move.

Running the built-in engine through its own USI front end means the match exercises exactly
what a shogi GUI would talk to. Openings are varied by a few seeded random plies; each
opening is played twice with the colours swapped, so neither engine profits from a lucky
opening or from moving first. Games end as `players.play_game` ends them (mate, repetition,
resignation, illegal move, or material adjudication at the ply cap).

At fixed nodes (or a fixed depth) a game is decided by its opening and colours alone (both
engines forget the last game at `usinewgame`), so games can be shared out among several
pairs of engines, one pair per core, and the match still plays the same games.
"""
import math
import queue
import random
import sys
import threading
from dataclasses import dataclass, field
from typing import List

from shogicore.position import Position
from shogicore.variants import BLACK, WHITE, variant_by_name

from yariboard.engines import fsf
from yariboard.engines.base import Limit
from yariboard.engines.players import play_game
from yariboard.engines.usi import UsiEngine

OPENING_PLIES = 2
# A new Python process importing the engine; generous, for a machine under load.
STARTUP_SECONDS = 60
MAX_PLIES = 200
# A two-sided 95 % interval: this many standard errors either side.
Z_95 = 1.96


def builtin_usi_argv():
    """The built-in engine's USI front end, run by the same Python as this process."""
    return [sys.executable, "-m", "yariboard.cli.main", "usi"]


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
    jobs: int = 1       # the games played at once
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

    def score_interval(self):
        """(low, high): the 95 % interval of the score, by Wilson's formula, which stays
        inside 0..1 and says something even after 0 or 20 wins of 20. (A draw is counted
        as half a win; draws only narrow the true spread, so the interval errs wide.)"""
        n = len(self.games)
        if not n:
            return 0.0, 1.0
        p = self.score()
        z2 = Z_95 * Z_95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z_95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return max(0.0, centre - half), min(1.0, centre + half)


def elo_difference(score):
    """The rating difference a score implies (logistic model); None at 0 % or 100 %."""
    if not 0 < score < 1:
        return None
    return -400 * math.log10(1 / score - 1)


def describe_elo(score):
    """`elo_difference` as text, saying which way it runs off when the score is 0 or 1."""
    elo = elo_difference(score)
    if elo is not None:
        return "%+d" % round(elo)   # (rounded first: never "-0")
    return "-inf" if score <= 0 else "+inf"


def describe_score(report):
    """'score 25% (95% interval 11-47%), Elo -191 (-360 to -22)': what a match showed and
    how far chance alone could have moved it."""
    low, high = report.score_interval()
    return "score %.0f%% (95%% interval %.0f-%.0f%%), Elo %s (%s to %s)" % (
        100 * report.score(), 100 * low, 100 * high, describe_elo(report.score()),
        describe_elo(low), describe_elo(high))


def run_match(games, nodes, variant="yari", seed=1, node=None, engines_dir=None,
              max_plies=MAX_PLIES, on_game=None, fsf_nodes=None, jobs=1, depth=None):
    """Play `games` games built-in vs Fairy-Stockfish at `nodes` per move (Fairy-Stockfish at
    `fsf_nodes` when given: a gap in budgets sizes a gap in strength), or with `depth` (and
    `nodes` None) both searching to that depth; a MatchReport with the games in order. With
    `jobs` above 1, that many pairs of engines play at once; `on_game(index, game)` is
    called as each game ends, one call at a time."""
    report = MatchReport()
    starts = openings(variant, (games + 1) // 2, seed)
    waiting = queue.Queue()
    for index in range(games):
        waiting.put(index)
    finished = {}
    reporting = threading.Lock()
    failures = []

    def play_waiting_games():
        """One pair of engines plays the waiting games until none is left (or another pair
        has failed)."""
        with open_builtin(variant, nodes) as builtin, \
                fsf.open_engine(variant, node=node, root=engines_dir,
                                nodes=fsf_nodes or nodes) as fairy:
            while not failures:
                try:
                    index = waiting.get_nowait()
                except queue.Empty:
                    return
                start = starts[index // 2]
                builtin_side = BLACK if index % 2 == 0 else WHITE
                black, white = (builtin, fairy) if builtin_side == BLACK else (fairy, builtin)
                builtin.new_game()
                fairy.new_game()
                outcome = play_game(black, white, variant=variant, sfen=start,
                                    max_plies=max_plies, limit=Limit(depth=depth))
                game = GameReport(start, builtin_side, outcome.winner, outcome.reason,
                                  len(outcome.moves))
                with reporting:
                    finished[index] = game
                    if on_game is not None:
                        on_game(index, game)

    def worker():
        try:
            play_waiting_games()
        except BaseException as error:   # handed to the caller's thread below
            failures.append(error)

    jobs = report.jobs = max(1, min(jobs, games))
    if jobs == 1:
        play_waiting_games()
    else:
        threads = [threading.Thread(target=worker, daemon=True) for _ in range(jobs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if failures:
            raise failures[0]
    report.games = [finished[index] for index in sorted(finished)]
    return report
