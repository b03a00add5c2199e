"""`yariboard match`: the built-in engine (through `yariboard usi`) against Fairy-Stockfish."""
import re

from shogicore.position import Position
from shogicore.variants import BLACK, YARI
from yariboard.cli import main
from yariboard.match import openings
from yariboard.records import REASONS

from tests.fsf_support import require_fsf


def test_openings_are_legal_varied_and_repeatable():
    starts = openings("yari", 4, seed=7)
    assert starts == openings("yari", 4, seed=7)
    assert len(set(starts)) == 4
    for sfen in starts:
        position = Position(YARI, sfen)
        assert position.side == BLACK and sfen != YARI.start_sfen


def test_match_command_swaps_colours_and_prints_each_game_and_the_score(capsys):
    require_fsf()
    assert main(["match", "--games", "2", "--nodes", "100", "--max-plies", "40"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3
    games = [re.match(r"game (\d): built-in plays (black|white): (.*) \((\S+), (\d+) plies\)$", line)
             for line in lines[:2]]
    assert all(games)
    assert [(g.group(1), g.group(2)) for g in games] == [("1", "black"), ("2", "white")]
    assert all(int(g.group(5)) <= 40 for g in games)
    assert all(g.group(4) in REASONS for g in games)
    summary = re.match(r"built-in vs Fairy-Stockfish at 100 nodes/move, yari: "
                       r"\+(\d) =(\d) -(\d), score (\d+)%$", lines[-1])
    wins, draws, losses, score = (int(x) for x in summary.groups())
    results = [g.group(3) for g in games]
    assert (wins, draws, losses) == (results.count("built-in wins"), results.count("draw"),
                                     results.count("Fairy-Stockfish wins"))
    assert score == round(100 * (wins + 0.5 * draws) / 2)


def test_match_command_gives_fairy_stockfish_its_own_budget_when_asked(capsys, monkeypatch):
    require_fsf()
    from yariboard import match
    asked = []
    real_open = match.fsf.open_engine

    def recording_open(variant, **options):
        asked.append(options["nodes"])
        return real_open(variant, **options)

    monkeypatch.setattr(match.fsf, "open_engine", recording_open)
    assert main(["match", "--games", "1", "--nodes", "100", "--fsf-nodes", "50",
                 "--max-plies", "10"]) == 0
    assert asked == [50]
    assert re.match(r"built-in at 100 nodes/move vs Fairy-Stockfish at 50, yari: "
                    r"\+\d =\d -\d, score \d+%$", capsys.readouterr().out.splitlines()[-1])


def test_match_command_refuses_nonsense_counts(capsys):
    for args in (["--games", "0"], ["--fsf-nodes", "0"]):
        assert main(["match"] + args) == 1
        assert capsys.readouterr().err.strip() == ("yariboard: error: --games, --nodes, "
                                                   "--fsf-nodes and --max-plies must be at least 1")


def test_the_match_benchmark_states_the_elo_difference_a_score_implies():
    from yariboard.benchmarks.match import elo_difference
    assert elo_difference(0.5) == 0
    assert round(elo_difference(0.75)) == 191 and round(elo_difference(0.25)) == -191
    assert elo_difference(0.0) is None and elo_difference(1.0) is None


def test_the_match_benchmark_plays_each_budget_with_both_colours(capsys, monkeypatch):
    require_fsf()
    from yariboard.benchmarks import match as bench_match
    monkeypatch.setattr(bench_match, "GAMES", 2)
    monkeypatch.setattr(bench_match, "NODES", (100,))
    bench_match.run()
    line = capsys.readouterr().out.strip()
    found = re.match(r"built-in vs fsf, 2 games at 100 nodes/move: \+(\d) =(\d) -(\d), score (\d+)%",
                     line)
    assert found, line
    assert sum(int(n) for n in found.groups()[:3]) == 2
