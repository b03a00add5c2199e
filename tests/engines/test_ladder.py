"""The ladder (engines/ladder.py): each level against the next, chained into ratings."""
import math

import pytest

from shogicore.variants import BLACK, WHITE
from yariboard.cli.main import main
from yariboard.engines import levels
from yariboard.engines.ladder import describe_rung, markdown_table, run_ladder, step_elo
from yariboard.engines.match import GameReport, MatchReport

pytestmark = [pytest.mark.external]


def report_of(wins, draws, losses):
    games = [GameReport("", BLACK, winner, "mate", 10)
             for winner, count in ((BLACK, wins), (None, draws), (WHITE, losses))
             for _ in range(count)]
    return MatchReport(games=games)


def test_a_step_counts_one_drawn_game_in_and_takes_its_error_from_the_games():
    # 3 wins and a loss, plus the drawn game: 3.5 of 5, a spread of sqrt(0.16 / 5).
    elo, error = step_elo(report_of(3, 0, 1))
    assert elo == pytest.approx(400 * math.log10(0.7 / 0.3))
    assert error == pytest.approx(math.sqrt(0.16 / 5) * 400 / (math.log(10) * 0.7 * 0.3))
    # a clean sweep still has a finite rating, larger the more games it took
    assert 0 < step_elo(report_of(4, 0, 0))[0] < step_elo(report_of(8, 0, 0))[0] < math.inf
    assert step_elo(report_of(2, 0, 2))[0] == pytest.approx(0)


def test_the_ladder_chains_each_step_onto_level_1(monkeypatch):
    """Three built-in levels (the first of every scale), two short games a step."""
    monkeypatch.setitem(levels.SCALES, "yari", levels.SCALES["yari"][:3])
    placed = []
    rungs = run_ladder("yari", 2, max_plies=16, on_rung=placed.append)
    assert [rung.number for rung in rungs] == [1, 2, 3] and placed == rungs
    assert (rungs[0].rating, rungs[0].error, rungs[0].step) == (0.0, 0.0, None)
    variance = 0.0
    for lower, upper in zip(rungs, rungs[1:]):
        assert len(upper.step.games) == 2
        elo, error = step_elo(upper.step)
        variance += error * error
        assert upper.rating == pytest.approx(lower.rating + elo)
        assert upper.error == pytest.approx(1.96 * math.sqrt(variance))
    assert describe_rung("yari", rungs[0]).endswith("+0 +- 0 (the anchor)")
    assert describe_rung("yari", rungs[1]).startswith(
        "level 2 (built-in engine, 600 nodes/move): ")
    table = markdown_table("yari", rungs).splitlines()
    assert len(table) == 2 + len(rungs)
    assert table[2] == "| 1 | built-in engine, depth 1, 400 cp noise (its level 1) | 0 (anchor) |  |"
    step = rungs[2].step
    elo, error = step_elo(step)
    assert table[4] == ("| 3 | built-in engine, depth 3 (its level 5) | %+.0f +- %.0f | "
                        "+%d =%d -%d, step %+.0f +- %.0f |" % (
                            rungs[2].rating, rungs[2].error, step.wins(), step.draws(),
                            step.losses(), elo, 1.96 * error))


def test_ladder_command_refuses_nonsense_counts(capsys):
    for args in (["--games", "0"], ["--max-plies", "0"], ["--jobs", "0"]):
        assert main(["ladder"] + args) == 1
        assert capsys.readouterr().err.strip() == (
            "yariboard: error: --games, --max-plies and --jobs must be at least 1")


def test_a_ladder_of_some_steps_plays_only_those_and_rates_from_their_first_level(
        monkeypatch, capsys):
    """Step 2 alone (level 3 against level 2), its games shared between two processes:
    level 2 is that ladder's anchor, and level 1 plays no game."""
    monkeypatch.setitem(levels.SCALES, "yari", levels.SCALES["yari"][:3])
    lowers = []
    rungs = run_ladder("yari", 2, max_plies=16, steps=(2, 2), jobs=2,
                       on_game=lambda lower, index, game: lowers.append(lower))
    assert [rung.number for rung in rungs] == [2, 3] and lowers == [2, 2]
    assert (rungs[0].rating, rungs[0].step) == (0.0, None)
    assert rungs[1].rating == pytest.approx(step_elo(rungs[1].step)[0])
    assert main(["ladder", "--steps", "2", "--games", "2", "--max-plies", "16"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "level 2 (built-in engine, 600 nodes/move): +0 +- 0 (the anchor)"
    assert out[1].startswith("level 3 (built-in engine, depth 3 (its level 5)): ")
    assert out[2].startswith("ladder of yari, steps 2, 2 games a step, 16 plies: ")


@pytest.mark.parametrize("steps, error", [
    ("0-1", "steps must run from 1 to 8 for yari (step k is level k + 1 against level k), "
            "not 0-1"),
    ("3-2", "steps must run from 1 to 8 for yari (step k is level k + 1 against level k), "
            "not 3-2"),
    ("1-10", "steps must run from 1 to 8 for yari (step k is level k + 1 against level k), "
            "not 1-10"),
    ("two", "steps are a step or a range of them, as 3 or 1-3, not 'two'"),
])
def test_ladder_command_refuses_steps_off_the_ladder(capsys, steps, error):
    assert main(["ladder", "--steps", steps]) == 1
    assert capsys.readouterr().err.strip() == "yariboard: error: --steps: " + error


def test_bench_ladder_without_fairy_stockfish_says_it_was_not_measured(tmp_path, capsys,
                                                                        monkeypatch):
    from yariboard.engines import fsf
    monkeypatch.setenv(fsf.ENGINES_DIR_ENV, str(tmp_path))
    assert main(["bench", "ladder"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "== bench ladder"
    assert out[1].startswith("ladder: not measured: Fairy-Stockfish is not installed in ")
