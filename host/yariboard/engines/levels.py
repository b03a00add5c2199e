"""One strength scale for every variant: `play --level N` from a true beginner to the
strongest engine installed, and the engine that gives hints and analysis.

A level is an engine and the settings that engine itself offers for playing weaker: the
built-in engine's own levels (a depth cap and root-score noise), Fairy-Stockfish's
`Skill_Level` (which makes it pick among its best few lines at random, down to -20) and a
node budget per move. The npm build also honours `USI_LimitStrength` with `USI_Elo` (its move
then strays from its own principal variation just as under a lower skill), but its numbers
are chess ratings mapped onto the same skill levels, so the scale names skill levels and
gives each level the rating the ladder measured on this game (ladder.py, docs/engines.md).
A node budget, unlike a time, plays the same on a busy and an idle machine.

Fairy-Stockfish plays Yari Shogi and standard shogi; Wa Shogi's top level is CrazyWa.
The lower levels are the built-in engine, so they need nothing installed.
"""
from dataclasses import dataclass
from typing import Optional

from shogicore.variants import variant_by_name

from yariboard.engines import fsf
from yariboard.engines.builtin.search import LEVELS as BUILTIN_LEVELS
from yariboard.engines.builtin.search import Engine
from yariboard.engines.usi import FAIRY_VARIANT_NAMES
from yariboard.engines.xboard import XBOARD_VARIANT_NAMES, XBoardEngine, XBoardError, find_crazywa

BUILTIN, FSF, CRAZYWA = "built-in engine", "Fairy-Stockfish", "CrazyWa"
# Fairy-Stockfish's skill at full strength.
FULL_SKILL = 20


@dataclass(frozen=True)
class Level:
    """One step of the scale: which engine plays and the settings it plays with.
    `builtin_level` for the built-in engine; `skill` (Skill_Level) and `nodes` per move
    for Fairy-Stockfish; CrazyWa plays at the time it is given."""
    number: int
    engine: str
    builtin_level: Optional[int] = None
    skill: Optional[int] = None
    nodes: Optional[int] = None

    def options(self):
        """The USI options this level sets, as {name: value}."""
        return {"Skill_Level": self.skill} if self.engine == FSF else {}

    def describe(self):
        """'Fairy-Stockfish, skill 5, 2000 nodes/move', 'built-in engine, depth 1, 400 cp
        noise (its level 1)'."""
        if self.engine == BUILTIN:
            own = BUILTIN_LEVELS[self.builtin_level]
            return "built-in engine, depth %d%s (its level %d)" % (
                own.depth, ", %d cp noise" % own.noise if own.noise else "", self.builtin_level)
        if self.engine == FSF:
            return "Fairy-Stockfish, skill %d, %d nodes/move" % (self.skill, self.nodes)
        return "CrazyWa, full strength"


def _builtin(number, level):
    return Level(number, BUILTIN, builtin_level=level)


def _fsf(number, skill, nodes):
    return Level(number, FSF, skill=skill, nodes=nodes)


# The built-in engine's levels 1, 2 and 5 are the first three steps everywhere (5 searches 3
# plies; its level 3, 2 plies with 60 cp of noise, scored 4 of 8 against it), and 6 (4
# plies) the top one where no other engine plays: its levels 7 and 8 are bounded by time
# alone in practice, and a ladder cannot rate a time. Above them Fairy-Stockfish, first
# weakened (skill 5, where its move strays from its best line in about half the searches),
# then at full skill with more nodes each step.
_BUILTIN_STEPS = (_builtin(1, 1), _builtin(2, 2), _builtin(3, 5))
_FSF_STEPS = _BUILTIN_STEPS + (
    _fsf(4, 5, 2000), _fsf(5, FULL_SKILL, 2000), _fsf(6, FULL_SKILL, 5000),
    _fsf(7, FULL_SKILL, 15000), _fsf(8, FULL_SKILL, 50000))
SCALES = {
    "yari": _FSF_STEPS,
    "shogi": _FSF_STEPS,
    "wa": _BUILTIN_STEPS + (_builtin(4, 6), Level(5, CRAZYWA)),
    "wa-nodrops": _BUILTIN_STEPS + (_builtin(4, 6),),
}
# The level `play` starts at: the built-in engine's own default, which needs nothing installed.
DEFAULT_LEVEL = 3

# What the ladder measured (`yariboard ladder --games 8 --max-plies 150`; docs/engines.md has
# the run): a level's rating and the half-width of its 95 % interval, level 1 rated 0.
RATINGS = {
    "yari": {1: (0, 0), 2: (79, 219), 3: (571, 404), 4: (571, 457), 5: (609, 500),
             6: (1102, 604), 7: (1594, 693), 8: (2086, 772)},
    "shogi": {1: (0, 0), 2: (120, 209), 3: (613, 399), 4: (892, 483), 5: (892, 528),
              6: (1172, 594), 7: (1451, 654), 8: (1731, 708)},
}


def scale(variant):
    """The levels of `variant` (a name or a Variant), weakest first."""
    name = variant if isinstance(variant, str) else variant.name
    variant_by_name(name)   # ValueError for a variant the rules core does not know
    return SCALES[name]


def level(variant, number):
    """Level `number` of `variant`'s scale; ValueError naming the levels there are."""
    levels = scale(variant)
    if not 1 <= number <= len(levels):
        raise ValueError("level must be 1 to %d for %s, not %d" % (len(levels), variant, number))
    return levels[number - 1]


def rating_text(variant, number):
    """'rating 571 +- 404', 'rating 0 (the anchor)' for level 1, or 'not rated yet' when
    the ladder has not measured the level."""
    measured = RATINGS.get(variant, {}).get(number)
    if measured is None:
        return "not rated yet"
    if number == 1:
        return "rating 0 (the anchor)"
    return "rating %d +- %d" % measured


def label(variant, number):
    """'level 4 (Fairy-Stockfish)': a level as a player's name, short enough for a screen."""
    return "level %d (%s)" % (number, level(variant, number).engine)


def help_text(variant):
    """Every level of `variant` with its engine and rating, for --help."""
    return "; ".join("%d: %s, %s" % (step.number, step.describe(), rating_text(variant, step.number))
                     for step in scale(variant))


def open_level(variant, number, node=None, engines_dir=None, seed=None):
    """A running engine playing at level `number`; close it when done. UsiError (from
    fsf.EngineMissing, saying how to install it) when the level needs an engine that is
    not installed."""
    step = level(variant, number)
    if step.engine == BUILTIN:
        return Engine(level=step.builtin_level, seed=seed)
    if step.engine == FSF:
        return fsf.open_engine(variant, node=node, root=engines_dir, skill=step.skill,
                               nodes=step.nodes)
    return XBoardEngine(variant=variant)


def strongest_engine(variant, node=None, engines_dir=None):
    """(engine, its name for a screen): the strongest engine installed for `variant`, at
    full strength. Fairy-Stockfish when it is installed and plays the variant, CrazyWa for
    Wa Shogi when installed, else the built-in engine at its top level. Never a weakened
    level: this is the engine for hints and analysis."""
    name = variant if isinstance(variant, str) else variant.name
    if name in FAIRY_VARIANT_NAMES:
        try:
            return (fsf.open_engine(name, node=node, root=engines_dir),
                    "Fairy-Stockfish %s" % fsf.FSF_VERSION)
        except fsf.EngineMissing:
            pass
    if name in XBOARD_VARIANT_NAMES and find_crazywa():
        try:
            return XBoardEngine(variant=name), CRAZYWA
        except XBoardError:
            pass
    top = max(BUILTIN_LEVELS)
    return Engine(level=top), "built-in engine, level %d" % top
