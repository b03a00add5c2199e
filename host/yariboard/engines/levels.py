"""One strength scale for every variant: `play --level N` from a true beginner to the
strongest engine installed, and the engine that gives hints and analysis.

A level is an engine and a fixed budget that engine itself offers: the built-in engine's
own levels (a depth cap and root-score noise), or an engine at full strength (the built-in
one, Fairy-Stockfish at full skill) with a node budget per move. A node budget, unlike a
time, plays the same on a busy and an idle machine, and doubling it is a step of about 200
Elo at these budgets, so the node budgets make the even steps. (Fairy-Stockfish's
`Skill_Level` was tried: skill 5 at 2,000 nodes scored even against full skill at 2,000,
skill 0 at 8,000 lost 12 of 12 to full skill at 4,000; a skill is a lottery among the
engine's best few lines, far coarser than a budget. The npm build's `USI_LimitStrength`
with `USI_Elo` only picks a skill level, so it is no finer.) Every level's rating is the
one the ladder measured on that game (ladder.py, docs/engines.md).

Fairy-Stockfish plays Yari Shogi and standard shogi; Wa Shogi is the built-in engine's
alone. The lowest levels are the built-in engine, so they need nothing installed.
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
# Fairy-Stockfish's skill at full strength, which every one of its levels plays at.
FULL_SKILL = 20


@dataclass(frozen=True)
class Level:
    """One step of the scale: which engine plays and its budget: `builtin_level` for one of
    the built-in engine's own levels, else `nodes` per move for the engine at full
    strength."""
    number: int
    engine: str
    builtin_level: Optional[int] = None
    nodes: Optional[int] = None

    def options(self):
        """The USI options this level sets, as {name: value}."""
        return {"Skill_Level": FULL_SKILL} if self.engine == FSF else {}

    def describe(self):
        """'Fairy-Stockfish, 2000 nodes/move', 'built-in engine, depth 1, 400 cp noise (its
        level 1)'."""
        if self.builtin_level is not None:
            own = BUILTIN_LEVELS[self.builtin_level]
            return "built-in engine, depth %d%s (its level %d)" % (
                own.depth, ", %d cp noise" % own.noise if own.noise else "", self.builtin_level)
        return "%s, %d nodes/move" % (self.engine, self.nodes)


def _steps(*settings):
    """Levels numbered from 1: an int is a built-in level, (engine, nodes) a node budget."""
    return tuple(Level(number, BUILTIN, builtin_level=setting) if isinstance(setting, int)
                 else Level(number, setting[0], nodes=setting[1])
                 for number, setting in enumerate(settings, 1))


# Level 1, the anchor, is the built-in engine's own level 1 everywhere. Above it (the probes
# and ladders are in docs/engines.md): in Yari Shogi the built-in engine at 600 nodes and
# its level 5 (depth 3) are clear, even steps (its level 2 was only +70 +- 69 above level 1
# in 100 games, and 300 nodes +41 +- 68), and Fairy-Stockfish's 1,000 nodes beat depth 3
# +72 -28. In shogi the built-in levels make no good steps (level 2 beat level 1 +14 =1 -9, and
# depth 3 swept it), so the built-in engine at full strength takes node budgets there
# instead: 1,000 nodes beat level 1 +13 -3 in a probe, 3,000 beat 1,000 +14 =1 -1, and
# Fairy-Stockfish's 4,000 beat the built-in 6,000 only +16 -8 in the ladder, so shogi's
# Fairy-Stockfish starts at 8,000. Each doubling of Fairy-Stockfish's budget is a step.
# Wa Shogi is the built-in engine's alone, at node budgets (a depth cap costs minutes a
# move there; 1,000 nodes did not beat level 1, +6 =2 -8, and 20,000 was not clearly above
# 8,000, +11 -5, where 40,000 was, +14 =1 -1, at about a second a move): CrazyWa 1.0.5 reads memory
# outside a table and dies in its own games from the start position (docs/engines.md), so
# a ladder cannot rate it; it gives Wa's hints (`strongest_engine`). Without drops the
# search goes deeper on the same budget: 3,000 nodes swept level 1 and 8,000 was not clearly
# above 3,000 (+8 =3 -5), so that game's budgets are 300, 1,000 and 3,000.
SCALES = {
    "yari": _steps(1, (BUILTIN, 600), 5, (FSF, 1000), (FSF, 2000), (FSF, 4000), (FSF, 8000),
                   (FSF, 16000), (FSF, 32000)),
    "shogi": _steps(1, (BUILTIN, 1000), (BUILTIN, 2500), (BUILTIN, 6000), (FSF, 8000),
                    (FSF, 16000), (FSF, 32000)),
    "wa": _steps(1, (BUILTIN, 3000), (BUILTIN, 8000), (BUILTIN, 40000)),
    "wa-nodrops": _steps(1, (BUILTIN, 300), (BUILTIN, 1000), (BUILTIN, 3000)),
}
# The level `play` starts at: the built-in engine in every variant, which needs nothing
# installed.
DEFAULT_LEVEL = 3

# What the ladder measured (docs/engines.md has the runs and their commands): a level's
# rating and the half-width of its 95 % interval, level 1 rated 0.
RATINGS = {
    "yari": {1: (0, 0), 2: (243, 84), 3: (521, 122), 4: (683, 144), 5: (847, 203),
             6: (1029, 253), 7: (1292, 306), 8: (1580, 350), 9: (1762, 381)},
    "shogi": {1: (0, 0), 2: (263, 171), 3: (645, 274), 4: (960, 332), 5: (1342, 395),
              6: (1562, 426), 7: (1825, 459)},
    "wa": {1: (0, 0), 2: (268, 193), 3: (503, 274), 4: (853, 350)},
    "wa-nodrops": {1: (0, 0), 2: (205, 160), 3: (686, 289), 4: (921, 337)},
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
        return Engine(level=step.builtin_level or max(BUILTIN_LEVELS), seed=seed,
                      nodes=step.nodes)
    return fsf.open_engine(variant, node=node, root=engines_dir, skill=FULL_SKILL,
                           nodes=step.nodes)


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
