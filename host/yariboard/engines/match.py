"""Matches between two engines: by default the built-in engine (through `yariboard usi`)
against Fairy-Stockfish, both at a fixed node budget per move; any two engines through
`play_match` (the level ladder, levels.py). A sequential test (`Sprt`) can end a match as
soon as its question is answered.

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
import multiprocessing
import queue
import random
import sys
from dataclasses import dataclass, field
from typing import List

from shogicore.position import Position
from shogicore.variants import BLACK, WHITE, variant_by_name

from yariboard.engines import fsf
from yariboard.engines.base import EngineError, Limit
from yariboard.engines.players import play_game
from yariboard.engines.usi import UsiEngine

OPENING_PLIES = 2
# Draws of an opening allowed per opening wanted, before a repeat is taken.
REDRAWS = 100
# A new Python process importing the engine; generous, for a machine under load.
STARTUP_SECONDS = 60
MAX_PLIES = 200
# How long a match waits for news from its processes before seeing whether any is still
# alive (one that died says nothing).
QUEUE_POLL_SECONDS = 1.0
# A two-sided 95 % interval: this many standard errors either side.
Z_95 = 1.96


def builtin_usi_argv():
    """The built-in engine's USI front end, run by the same Python as this process."""
    return [sys.executable, "-m", "yariboard.cli.main", "usi"]


def open_builtin(variant, nodes):
    argv = builtin_usi_argv()
    return UsiEngine(argv[0], variant=variant, args=argv[1:], nodes=nodes,
                     name="built-in (USI)", startup_timeout=STARTUP_SECONDS)


def opening_lines(variant, count, seed, plies=OPENING_PLIES):
    """`count` openings, each a few seeded random legal plies from the start position (as
    a list of moves), no two alike: at a fixed budget a repeated opening would replay a game
    move for move and count it twice. (Should the variant run short of distinct openings,
    repeats fill up.) A game goes on from the moves, not from a set-up position, so every
    engine sees its whole history (CrazyWa crashes when searching set-up positions)."""
    rng = random.Random(seed)
    lines, seen = [], set()
    for attempt in range(count * REDRAWS):
        position = Position(variant_by_name(variant))
        for _ in range(plies):
            position.push(rng.choice(position.legal_moves()))
        if position.sfen() not in seen or attempt >= (count - 1) * REDRAWS:
            lines.append(position.moves())
            seen.add(position.sfen())
        if len(lines) == count:
            break
    return lines


def opening_sfen(variant, line):
    position = Position(variant_by_name(variant))
    for move in line:
        position.push(move)
    return position.sfen()


def openings(variant, count, seed, plies=OPENING_PLIES):
    """The positions `opening_lines` reaches, as SFENs."""
    return [opening_sfen(variant, line) for line in opening_lines(variant, count, seed, plies)]


@dataclass
class GameReport:
    opening: str
    first_side: int
    winner: object
    reason: str
    plies: int

    @property
    def first_points(self):
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == self.first_side else 0.0


@dataclass
class MatchReport:
    jobs: int = 1       # the games played at once
    games: List[GameReport] = field(default_factory=list)

    def wins(self):
        return sum(1 for g in self.games if g.first_points == 1.0)

    def draws(self):
        return sum(1 for g in self.games if g.first_points == 0.5)

    def losses(self):
        return sum(1 for g in self.games if g.first_points == 0.0)

    def score(self):
        """The built-in engine's points (a draw counts half) as a fraction of the games."""
        return sum(g.first_points for g in self.games) / len(self.games) if self.games else 0.0

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


class Sprt:
    """A sequential probability ratio test of H0 "the first engine is `elo0` stronger" against
    H1 "it is `elo1` stronger" (elo0 < elo1), with error rates `alpha` (H1 accepted when H0
    holds) and `beta` (H0 accepted when H1 holds).

    It is the generalised SPRT fishtest uses for wins, draws and losses: under each
    hypothesis the outcome chances are the likeliest ones (given the games) whose mean score
    is the score that hypothesis names by the logistic model, and the test stops once the
    log-likelihood ratio leaves ln(beta / (1 - alpha)) .. ln((1 - beta) / alpha)."""

    def __init__(self, elo0, elo1, alpha=0.05, beta=0.05):
        if not elo0 < elo1:
            raise ValueError("the SPRT needs elo0 below elo1, not %g and %g" % (elo0, elo1))
        if not (0 < alpha < 0.5 and 0 < beta < 0.5):
            raise ValueError("the SPRT's error rates must be between 0 and 0.5")
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.lower = math.log(beta / (1 - alpha))
        self.upper = math.log((1 - beta) / alpha)

    def llr(self, wins, draws, losses):
        """The log-likelihood ratio of H1 against H0 after these games."""
        games = wins + draws + losses
        if not games:
            return 0.0
        # An outcome not seen yet still has a small chance: no hypothesis is ruled out by it.
        seen = [max(count, SPRT_UNSEEN) / games for count in (losses, draws, wins)]
        total = sum(seen)
        seen = [share / total for share in seen]
        under_h0 = likeliest_chances(seen, expected_score(self.elo0))
        under_h1 = likeliest_chances(seen, expected_score(self.elo1))
        return games * sum(share * math.log(h1 / h0)
                           for share, h0, h1 in zip(seen, under_h0, under_h1))

    def decision(self, wins, draws, losses):
        """'H1' or 'H0' once the test has decided, else None."""
        ratio = self.llr(wins, draws, losses)
        if ratio >= self.upper:
            return "H1"
        if ratio <= self.lower:
            return "H0"
        return None

    def describe(self, report):
        """'SPRT elo0 0, elo1 50: H1 accepted after 12 games (LLR 3.01, bounds -2.94..2.94)'."""
        counts = report.wins(), report.draws(), report.losses()
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[
            self.decision(*counts)]
        return "SPRT elo0 %g, elo1 %g: %s after %d games (LLR %.2f, bounds %.2f..%.2f)" % (
            self.elo0, self.elo1, verdict, len(report.games), self.llr(*counts), self.lower,
            self.upper)


# The count an outcome not seen yet is given (fishtest's regularisation).
SPRT_UNSEEN = 1e-3
# Halvings of the interval the mean is sought in: far below a double's precision.
BISECTIONS = 60
# A loss, a draw and a win, in points.
OUTCOME_POINTS = (0.0, 0.5, 1.0)


def likeliest_chances(seen, score):
    """The chances of a loss, a draw and a win closest to the shares `seen` (the most likely
    given them) whose mean is `score`: seen[i] / (1 + x (points[i] - score)), with x found
    by bisection where the mean comes out right (the mean falls as x grows)."""
    offsets = [points - score for points in OUTCOME_POINTS]
    low, high = -1 / offsets[2], -1 / offsets[0]

    def chances(x):
        return [share / (1 + x * offset) for share, offset in zip(seen, offsets)]

    for _ in range(BISECTIONS):
        middle = (low + high) / 2
        if sum(c * offset for c, offset in zip(chances(middle), offsets)) > 0:
            low = middle
        else:
            high = middle
    found = chances((low + high) / 2)
    total = sum(found)
    return [c / total for c in found]


def expected_score(elo):
    """The score a player `elo` points stronger expects (logistic model)."""
    return 1 / (1 + 10 ** (-elo / 400))


def run_match(games, nodes, variant="yari", seed=1, node=None, engines_dir=None,
              max_plies=MAX_PLIES, on_game=None, fsf_nodes=None, jobs=1, depth=None, sprt=None):
    """Play `games` games built-in vs Fairy-Stockfish at `nodes` per move (Fairy-Stockfish at
    `fsf_nodes` when given: a gap in budgets sizes a gap in strength), or with `depth` (and
    `nodes` None) both searching to that depth; see `play_match` for the rest."""

    def open_pair():
        return EnginePair(lambda: open_builtin(variant, nodes),
                     lambda: fsf.open_engine(variant, node=node, root=engines_dir,
                                             nodes=fsf_nodes or nodes))

    return play_match(games, open_pair, variant=variant, seed=seed, max_plies=max_plies,
                      on_game=on_game, jobs=jobs, depth=depth, sprt=sprt)


class EnginePair:
    """Opens two engines, each by calling its opener, and closes both however the games end:
    `with EnginePair(open_a, open_b) as (a, b)`."""

    def __init__(self, open_first, open_second):
        self.open_first, self.open_second = open_first, open_second
        self.engines = []

    def __enter__(self):
        try:
            self.engines.append(self.open_first())
            self.engines.append(self.open_second())
        except BaseException:
            self.__exit__()
            raise
        return tuple(self.engines)

    def __exit__(self, *exc):
        for engine in self.engines:
            engine.close()
        self.engines = []


def play_match(games, open_pair, variant="yari", seed=1, max_plies=MAX_PLIES, on_game=None,
               jobs=1, depth=None, sprt=None):
    """Play up to `games` games between the two engines `open_pair()` opens (a context manager
    giving (first, second)); a MatchReport with the games in order, points counted for the
    first engine. With `jobs` above 1, that many pairs play at once, each in a process of its
    own (forked from this one), so that engines searching in Python, like the built-in one,
    use a core each; `on_game(index, game)` is called as each game ends, one call at a time.
    With `sprt` (an Sprt), no new game is begun once the games ended so far decide it (those
    under way are played out)."""
    report = MatchReport()
    lines = opening_lines(variant, (games + 1) // 2, seed)
    finished = {}

    def play(first, second, index):
        line = lines[index // 2]
        first_side = BLACK if index % 2 == 0 else WHITE
        black, white = (first, second) if first_side == BLACK else (second, first)
        first.new_game()
        second.new_game()
        outcome = play_game(black, white, variant=variant, opening=line,
                            max_plies=max_plies, limit=Limit(depth=depth))
        return GameReport(opening_sfen(variant, line), first_side, outcome.winner,
                          outcome.reason, len(outcome.moves))

    def record(index, game):
        """Count a finished game; True once the SPRT has decided."""
        finished[index] = game
        if on_game is not None:
            on_game(index, game)
        if sprt is None:
            return False
        so_far = MatchReport(games=list(finished.values()))
        return sprt.decision(so_far.wins(), so_far.draws(), so_far.losses()) is not None

    jobs = report.jobs = max(1, min(jobs, games))
    if jobs == 1:
        with open_pair() as (first, second):
            for index in range(games):
                if record(index, play(first, second, index)):
                    break
    else:
        _play_in_processes(games, jobs, open_pair, play, record)
    report.games = [finished[index] for index in sorted(finished)]
    return report


def _play_in_processes(games, jobs, open_pair, play, record):
    """`jobs` forked processes, a pair of engines each, take the games' indices from one
    queue, each until it draws a None (one a process, after every index), and send back
    (index, GameReport), or (None, the error) when a pair fails. Once `record` says the
    match is decided, or a pair has failed, no new game is begun."""
    context = multiprocessing.get_context("fork")
    waiting, results, stop = context.Queue(), context.Queue(), context.Event()
    for index in list(range(games)) + [None] * jobs:
        waiting.put(index)

    def worker():
        try:
            with open_pair() as (first, second):
                while not stop.is_set():
                    index = waiting.get()
                    if index is None:
                        break
                    results.put((index, play(first, second, index)))
        except BaseException as error:   # raised again in the parent, below
            results.put((None, error if isinstance(error, EngineError)
                         else EngineError("%s: %s" % (type(error).__name__, error))))
        results.put((None, None))   # this worker is done

    workers = [context.Process(target=worker, daemon=True) for _ in range(jobs)]
    for process in workers:
        process.start()
    failure, running = None, jobs
    try:
        while running:
            try:
                index, game = results.get(timeout=QUEUE_POLL_SECONDS)
            except queue.Empty:
                if not any(process.is_alive() for process in workers):
                    failure = failure or EngineError("a match process died mid-game")
                    break
                continue
            if index is None:
                running -= game is None
                failure = failure or game
                stop.set()
            elif record(index, game):
                stop.set()
    finally:
        stop.set()
        for process in workers:
            process.join()
    if failure is not None:
        raise failure
