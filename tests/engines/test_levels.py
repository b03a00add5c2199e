"""The strength scale (engines/levels.py): every level plays with the settings it claims,
read back from the engine that plays it, and hints and analysis get the strongest engine."""
import os
import subprocess
import sys

import pytest

from shogicore.position import Position
from shogicore.move import to_usi
from shogicore.variants import variant_by_name
from yariboard.cli.main import main
from yariboard.engines import fsf, levels
from yariboard.engines.builtin.search import LEVELS as BUILTIN_LEVELS
from yariboard.engines.builtin.search import Engine
from yariboard.engines.ladder import open_at_budget
from yariboard.engines.match import openings
from yariboard.engines.xboard import XBoardEngine, find_crazywa

from tests.fsf_support import require_fsf

pytestmark = [pytest.mark.engine]

# Searches a weakened engine gets to show it strays from its own best line: at USI_Elo 500
# the npm build strays in 6 of 8, so none in 24 happens about once in ten million.
WEAK_SEARCHES = 24
FULL_SEARCHES = 6


def positions(count, seed=9, variant="yari"):
    return [Position(variant_by_name(variant), sfen)
            for sfen in openings(variant, count, seed=seed, plies=6)]


def test_every_variant_climbs_from_the_built_in_engine_to_its_strongest():
    for variant, steps in levels.SCALES.items():
        assert [step.number for step in steps] == list(range(1, len(steps) + 1))
        assert (steps[0].engine, steps[0].builtin_level) == (levels.BUILTIN, 1)
        budgets = [step.nodes for step in steps if step.engine == levels.BUILTIN and step.nodes]
        assert budgets == sorted(set(budgets))   # each built-in budget above the last
    assert [(step.builtin_level, step.nodes) for step in levels.scale("yari")[:3]] \
        == [(1, None), (None, 600), (5, None)]
    assert [step.nodes for step in levels.scale("shogi")[1:4]] == [1000, 2500, 6000]
    for variant in ("yari", "shogi"):
        steps = levels.scale(variant)
        fairy = [step.nodes for step in steps if step.engine == levels.FSF]
        assert [step.engine for step in steps[-len(fairy):]] == [levels.FSF] * len(fairy)
        assert fairy == [fairy[0] * 2 ** k for k in range(len(fairy))]   # a doubling a step
        assert fairy[-1] == 32000
    assert [(step.engine, step.builtin_level, step.nodes) for step in levels.scale("wa")] \
        == [(levels.BUILTIN, 1, None), (levels.BUILTIN, None, 3000), (levels.BUILTIN, None, 8000),
           (levels.BUILTIN, None, 40000)]
    assert [(step.engine, step.builtin_level, step.nodes) for step in levels.scale("wa-nodrops")] \
        == [(levels.BUILTIN, 1, None), (levels.BUILTIN, None, 300), (levels.BUILTIN, None, 1000),
            (levels.BUILTIN, None, 3000)]


def test_a_level_off_the_scale_is_refused_naming_the_scale():
    with pytest.raises(ValueError, match="level must be 1 to 9 for yari, not 10"):
        levels.level("yari", 10)
    with pytest.raises(ValueError, match="level must be 1 to 4 for wa-nodrops, not 0"):
        levels.level("wa-nodrops", 0)


@pytest.mark.parametrize("number", [1, 3])
def test_a_built_in_level_searches_to_its_depth_with_its_noise(number):
    """Read back from the engine's own report: the depth it reached, and whether its noise
    makes different seeds choose differently (level 1) or not (level 3, depth 3: none)."""
    step = levels.level("yari", number)
    own = BUILTIN_LEVELS[step.builtin_level]
    chosen = set()
    for seed in range(6):
        engine = open_at_budget("yari", number, seed)
        assert engine.engine.level == own
        result = engine.search(Position(variant_by_name("yari")))
        assert result.depth == own.depth
        chosen.add(result.move)
        engine.close()
    assert (len(chosen) > 1) == (own.noise > 0)


@pytest.mark.parametrize("variant, number", [("yari", 2), ("shogi", 2), ("shogi", 3), ("shogi", 4),
                                             ("wa", 2), ("wa", 3), ("wa-nodrops", 2)])
def test_a_built_in_node_level_spends_its_budget_at_full_strength(variant, number):
    """Read back from the engine: it is the built-in top level (no noise) with the level's
    node budget, and a search given no limit, as in play and in the ladder, counts exactly
    that many nodes and chooses the same move whatever the seed."""
    step = levels.level(variant, number)
    for position in positions(2, variant=variant):
        moves = set()
        for seed in range(2):
            engine = levels.open_level(variant, number, seed=seed)
            assert engine.level == BUILTIN_LEVELS[max(BUILTIN_LEVELS)] and engine.level.noise == 0
            assert engine.nodes == step.nodes
            result = engine.search(position)
            assert result.nodes == step.nodes
            moves.add(result.move)
            laddered = open_at_budget(variant, number, seed)
            assert laddered.search(position).nodes == step.nodes
        assert len(moves) == 1


def strays(engine, searches):
    """How often the engine's move is not the first of its own last principal variation."""
    count = 0
    for position in searches:
        result = engine.search(position)
        count += result.move != engine.progress.pv[0]
    return count


@pytest.mark.parametrize("number", [4, 5, 6, 7, 8, 9])
def test_a_fairy_stockfish_level_plays_at_full_skill_and_the_nodes_it_claims(number):
    """The engine offers the skill option the level sets; it counts no more nodes than the
    level's budget (and most of it), and its move is always its own best line's."""
    require_fsf()
    step = levels.level("yari", number)
    assert step.options() == {"Skill_Level": levels.FULL_SKILL}
    engine = levels.open_level("yari", number)
    try:
        assert engine.options["Skill_Level"].type == "spin"
        assert engine.nodes == step.nodes
        assert strays(engine, positions(FULL_SEARCHES)) == 0
        assert step.nodes // 2 <= engine.progress.nodes <= step.nodes + 1024
    finally:
        engine.close()


def test_the_npm_build_honours_a_limited_strength():
    """USI_LimitStrength with USI_Elo weakens the npm build as a skill level does."""
    require_fsf()
    engine = fsf.open_engine("yari", nodes=2000)
    try:
        engine.set_option("USI_LimitStrength", True)
        engine.set_option("USI_Elo", 500)
        assert strays(engine, positions(WEAK_SEARCHES)) > 0
    finally:
        engine.close()


def test_the_strongest_engine_is_fairy_stockfish_at_full_strength():
    require_fsf()
    for variant in ("yari", "shogi"):
        engine, name = levels.strongest_engine(variant)
        try:
            assert name == "Fairy-Stockfish %s" % fsf.FSF_VERSION
            assert engine.variant.name == variant
            if variant == "yari":
                engine.nodes = 2000
                assert strays(engine, positions(FULL_SEARCHES)) == 0
        finally:
            engine.close()


def test_without_fairy_stockfish_the_strongest_is_the_built_in_top_level(tmp_path):
    engine, name = levels.strongest_engine("yari", engines_dir=str(tmp_path))
    assert isinstance(engine, Engine) and engine.level == BUILTIN_LEVELS[max(BUILTIN_LEVELS)]
    assert name == "built-in engine, level %d" % max(BUILTIN_LEVELS)
    engine, name = levels.strongest_engine("wa-nodrops")
    assert isinstance(engine, Engine)


def test_wa_with_drops_gets_crazywa_when_installed():
    if not find_crazywa():
        pytest.skip("crazywa is not installed (apt-get install crazywa)")
    engine, name = levels.strongest_engine("wa")
    try:
        assert isinstance(engine, XBoardEngine) and name == levels.CRAZYWA
    finally:
        engine.close()


def test_play_refuses_a_level_off_its_variants_scale(capsys):
    assert main(["play", "--sim", "--variant", "wa-nodrops", "--level", "5"]) == 1
    assert capsys.readouterr().err.strip() == (
        "yariboard: error: level must be 1 to 4 for wa-nodrops, not 5")


def archived_game(tmp_path, variant="shogi"):
    """An archive (its path) holding one short game of `variant`, and the game's number."""
    from yariboard.records.archive import Archive
    from yariboard.records.game import GameRecord, MoveRecord
    rules = variant_by_name(variant)
    position, moves = Position(rules), []
    for _ in range(2):
        move = position.legal_moves()[0]
        moves.append(MoveRecord(usi=to_usi(rules, move), at="2026-01-02T10:00:0%dZ" % len(moves)))
        position.push(move)
    db = str(tmp_path / "games.sqlite3")
    with Archive(db) as archive:
        (game_id,) = archive.store_all([GameRecord(variant=variant, start_sfen=rules.start_sfen,
                                                   date="2026-01-02T10:00:00Z",
                                                   moves=moves)])
    return db, game_id


def analysed_by(db, game_id, env=None):
    """The engine `games analyse` names, and the one the archive stored with its analysis."""
    from yariboard.records import analysis
    from yariboard.records.archive import Archive
    done = subprocess.run([sys.executable, "-m", "yariboard.cli.main", "--db", db, "games",
                           "analyse", str(game_id), "--nodes", "500"], capture_output=True,
                          text=True, env=dict(os.environ, **(env or {})), timeout=600)
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()[0]
    with Archive(db) as archive:
        stored = analysis.load(archive, game_id).engine
    return said, stored


def test_analysis_uses_the_strongest_engine_and_names_it(tmp_path):
    require_fsf()
    db, game_id = archived_game(tmp_path)
    said, stored = analysed_by(db, game_id)
    name = "Fairy-Stockfish %s" % fsf.FSF_VERSION
    assert said.startswith("game %d analysed by %s at 500 nodes" % (game_id, name))
    assert stored == name


def test_analysis_without_fairy_stockfish_names_the_built_in_engine(tmp_path):
    db, game_id = archived_game(tmp_path)
    said, stored = analysed_by(db, game_id, {fsf.ENGINES_DIR_ENV: str(tmp_path / "no-engines")})
    name = "built-in engine, level %d" % max(BUILTIN_LEVELS)
    assert said.startswith("game %d analysed by %s at 500 nodes" % (game_id, name))
    assert stored == name
