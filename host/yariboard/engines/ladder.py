"""The ladder that rates every level (levels.py) on one scale: each level plays the next one
up, and the scores chain into ratings anchored at level 1, rated 0.

Every level plays at a fixed budget (the built-in engine to its level's depth with no clock
running, or either engine at its node budget), so a busy machine plays the same moves as an
idle one, only slower. A step's Elo comes from its score by the logistic model, with one
drawn game counted in so that a clean sweep still gives a finite figure (and errs towards an
even match); its standard error comes from the games' own spread. Errors add up the ladder
(variances add), so a level's error bar says how well it is placed against level 1. A step
is a match between two fixed players, so a ladder can play only some of its steps (those
whose players changed) and the steps measured apart still chain.
"""
import math
from dataclasses import dataclass
from typing import Optional

from shogicore.position import Position
from shogicore.variants import variant_by_name

from yariboard.engines import levels
from yariboard.engines.base import Limit
from yariboard.engines.builtin.search import LEVELS as BUILTIN_LEVELS
from yariboard.engines.builtin.search import Engine
from yariboard.engines.match import MAX_PLIES, EnginePair, MatchReport, play_match

Z_95 = 1.96


class AtBudget:
    """A level's engine held to the level's fixed budget: the built-in engine searches to
    its level's depth and never looks at a clock; other engines keep their own node budget."""

    def __init__(self, engine, depth=None):
        self.engine, self.depth = engine, depth

    def search(self, position, limit=None):
        return self.engine.search(position, Limit(depth=self.depth) if self.depth else None)

    def new_game(self):
        self.engine.new_game()

    def close(self):
        self.engine.close()


def open_at_budget(variant, number, seed, node=None, engines_dir=None):
    step = levels.level(variant, number)
    engine = levels.open_level(variant, number, node=node, engines_dir=engines_dir, seed=seed)
    depth = BUILTIN_LEVELS[step.builtin_level].depth if step.builtin_level else None
    return AtBudget(engine, depth)


@dataclass
class Rung:
    """A level's place on the ladder: its rating, the half-width of its 95 % interval, and the
    match against the level below that placed it (None for level 1)."""
    number: int
    rating: float
    error: float
    step: Optional[MatchReport] = None


def step_elo(report):
    """(Elo of the first engine over the second, its standard error) from a match, with one
    drawn game counted in."""
    points = [game.first_points for game in report.games] + [0.5]
    count = len(points)
    score = sum(points) / count
    variance = sum(p * p for p in points) / count - score * score
    error = math.sqrt(variance / count)
    elo = -400 * math.log10(1 / score - 1)
    slope = 400 / (math.log(10) * score * (1 - score))
    return elo, slope * error


def run_ladder(variant, games, seed=1, max_plies=MAX_PLIES, jobs=1, node=None, engines_dir=None,
               on_game=None, on_rung=None, steps=None):
    """Play the ladder of `variant`'s levels, `games` games a step (each opening with both
    colours); returns the Rungs, weakest first. Step k is level k + 1 against level k;
    `steps` (first, last) plays only those, rating from the first step's lower level (rated
    0), so a step whose two players did not change need not be played again. `on_game(lower,
    index, game)` as each game ends (points for the upper level), `on_rung(rung)` as each
    level is placed."""
    first, last = steps or (1, len(levels.scale(variant)) - 1)
    check_steps(variant, first, last)
    # The built-in engine builds its tables for a variant at its first search: built here,
    # before the games' processes fork, each of them has them from the start.
    Engine(level=1).search(Position(variant_by_name(variant)), Limit(depth=1))
    rungs = [Rung(first, 0.0, 0.0)]
    if on_rung is not None:
        on_rung(rungs[0])
    variance = 0.0
    for upper in range(first + 1, last + 2):
        lower = upper - 1

        def open_pair(upper=upper, lower=lower):
            return EnginePair(
                lambda: open_at_budget(variant, upper, seed + upper, node, engines_dir),
                lambda: open_at_budget(variant, lower, seed + lower, node, engines_dir))

        report = play_match(games, open_pair, variant=variant, seed=seed, max_plies=max_plies,
                            jobs=jobs, on_game=None if on_game is None else (
                                lambda index, game, lower=lower: on_game(lower, index, game)))
        elo, error = step_elo(report)
        variance += error * error
        rung = Rung(upper, rungs[-1].rating + elo, Z_95 * math.sqrt(variance), report)
        rungs.append(rung)
        if on_rung is not None:
            on_rung(rung)
    return rungs


def check_steps(variant, first, last):
    """ValueError unless first..last are steps of `variant`'s ladder (1 to its levels less
    one)."""
    count = len(levels.scale(variant)) - 1
    if not 1 <= first <= last <= count:
        raise ValueError("steps must run from 1 to %d for %s (step k is level k + 1 against "
                         "level k), not %d-%d" % (count, variant, first, last))


def parse_steps(text):
    """'2-4' -> (2, 4), '3' -> (3, 3); ValueError for anything else."""
    first, dash, last = text.partition("-")
    try:
        return int(first), int(last if dash else first)
    except ValueError:
        raise ValueError("steps are a step or a range of them, as 3 or 1-3, not %r" % text) \
            from None


def describe_step(rung):
    """'+7 =1 -2, step +212 +- 180': the match that placed a level and the step it measured,
    with its own 95 % interval (is it clearly above the level below?)."""
    elo, error = step_elo(rung.step)
    return "+%d =%d -%d, step %+.0f +- %.0f" % (
        rung.step.wins(), rung.step.draws(), rung.step.losses(), elo, Z_95 * error)


def describe_rung(variant, rung):
    """'level 4 (Fairy-Stockfish, 1000 nodes/move): +512 +- 140 (+7 =1 -2, step +212 +- 180
    against level 3)'; the rung a ladder started from is its anchor."""
    text = "level %d (%s): %+.0f +- %.0f" % (
        rung.number, levels.level(variant, rung.number).describe(), rung.rating, rung.error)
    if rung.step is None:
        return text + " (the anchor)"
    return text + " (%s against level %d)" % (describe_step(rung), rung.number - 1)


def markdown_table(variant, rungs):
    """The ladder as the table docs/engines.md shows: one row a level."""
    rows = ["| level | engine and budget | rating | games against the level below |",
            "|---|---|---|---|"]
    for rung in rungs:
        rows.append("| %d | %s | %s | %s |" % (
            rung.number, levels.level(variant, rung.number).describe(),
            "0 (anchor)" if rung.step is None else "%+.0f +- %.0f" % (rung.rating, rung.error),
            "" if rung.step is None else describe_step(rung)))
    return "\n".join(rows)
