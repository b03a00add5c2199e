"""`yariboard match`: the built-in engine (through `yariboard usi`) against Fairy-Stockfish."""
import pytest
import re

from shogicore.position import Position
from shogicore.variants import BLACK, YARI
from yariboard.cli.main import main
from yariboard.engines.match import GameReport, MatchReport, describe_score, elo_difference, openings
from yariboard.records.game import REASONS

from tests.fsf_support import require_fsf

pytestmark = [pytest.mark.engine]


def test_openings_are_legal_varied_and_repeatable():
    starts = openings("yari", 4, seed=7)
    assert starts == openings("yari", 4, seed=7)
    assert len(set(starts)) == 4
    for sfen in starts:
        position = Position(YARI, sfen)
        assert position.side == BLACK and sfen != YARI.start_sfen


def test_openings_never_repeat_while_the_variant_has_enough():
    """Seed 1's 20 random two-ply Yari openings held 3 repeats before they were redrawn; at a
    fixed budget each repeat replays a game."""
    starts = openings("yari", 40, seed=1)
    assert len(starts) == len(set(starts)) == 40


def test_a_variant_short_of_openings_repeats_rather_than_running_out():
    assert openings("yari", 3, seed=1, plies=0) == [YARI.start_sfen] * 3


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
                       r"\+(\d) =(\d) -(\d), score (\d+)% \(95% interval \d+-\d+%\), "
                       r"Elo \S+ \(\S+ to \S+\)$", lines[-1])
    wins, draws, losses, score = (int(x) for x in summary.groups())
    results = [g.group(3) for g in games]
    assert (wins, draws, losses) == (results.count("built-in wins"), results.count("draw"),
                                     results.count("Fairy-Stockfish wins"))
    assert score == round(100 * (wins + 0.5 * draws) / 2)


def test_match_command_gives_fairy_stockfish_its_own_budget_when_asked(capsys, monkeypatch):
    require_fsf()
    from yariboard.engines import match
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
                    r"\+\d =\d -\d, score \d+% ", capsys.readouterr().out.splitlines()[-1])


def test_match_command_refuses_nonsense_counts(capsys):
    for args in (["--games", "0"], ["--fsf-nodes", "0"], ["--jobs", "0"], ["--depth", "0"]):
        assert main(["match"] + args) == 1
        assert capsys.readouterr().err.strip() == (
            "yariboard: error: --games, --nodes, --fsf-nodes, --depth, --max-plies and --jobs "
            "must be at least 1")
    for args in (["--depth", "3", "--nodes", "100"], ["--depth", "3", "--fsf-nodes", "100"]):
        assert main(["match"] + args) == 1
        assert capsys.readouterr().err.strip() == (
            "yariboard: error: --depth replaces --nodes and --fsf-nodes: give one or the other")


def test_match_at_a_fixed_depth_asks_both_engines_for_that_depth_alone(capsys, monkeypatch):
    """`--depth N` replaces the node budget: every search of either engine is `go depth N`
    (the built-in engine answers through `yariboard usi`, so both go through the adapter)."""
    require_fsf()
    from yariboard.engines import usi
    asked = []
    real_send = usi.UsiEngine._send

    def recording_send(engine, line):
        if line.startswith("go"):
            asked.append((engine.name, line))
        return real_send(engine, line)

    monkeypatch.setattr(usi.UsiEngine, "_send", recording_send)
    assert main(["match", "--games", "2", "--depth", "2", "--max-plies", "12"]) == 0
    assert {line for _, line in asked} == {"go depth 2"}
    assert len({name for name, _ in asked}) == 2
    assert re.match(r"built-in vs Fairy-Stockfish at depth 2, yari: \+\d =\d -\d, score \d+% ",
                    capsys.readouterr().out.splitlines()[-1])


def test_games_shared_among_pairs_of_engines_are_the_games_one_pair_plays(capsys):
    """At fixed nodes a game depends only on its opening and colours: played two at a time,
    the match gives the same games, each printed once as it ends, and the same score."""
    require_fsf()
    runs = []
    for jobs in ("1", "2"):
        assert main(["match", "--games", "3", "--nodes", "100", "--max-plies", "30",
                     "--jobs", jobs]) == 0
        runs.append(capsys.readouterr().out.strip().splitlines())
    one_pair, two_pairs = runs
    assert one_pair[-1] == two_pairs[-1]
    assert sorted(two_pairs[:-1]) == one_pair[:-1]
    assert [line.split(":")[0] for line in one_pair[:-1]] == ["game %d" % n for n in range(1, 4)]
    # the games differ from each other, so a game given the wrong opening or colours shows
    assert len({line.split(": ")[-1] for line in one_pair[:-1]}) > 1


def test_a_pair_that_cannot_start_ends_a_shared_out_match_with_one_clear_line(capsys, tmp_path):
    missing = str(tmp_path / "no-node")
    assert main(["match", "--games", "4", "--jobs", "2", "--node", missing]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("yariboard: error: Node.js not found at '%s'" % missing)
    assert len(err.strip().splitlines()) == 1


def _report(wins, draws, losses):
    games = [GameReport("", BLACK, winner, "mate", 10)
             for winner, count in ((BLACK, wins), (None, draws), (1 - BLACK, losses))
             for _ in range(count)]
    return MatchReport(games=games)


def test_the_score_interval_reaches_where_chance_alone_could_have_put_the_score():
    # No wins in n games: Wilson's upper bound is z^2 / (n + z^2), 3.84 / 23.84 for 20.
    low, high = _report(0, 0, 20).score_interval()
    assert low == 0 and abs(high - 3.8416 / 23.8416) < 1e-4
    low, high = _report(20, 0, 0).score_interval()
    assert high == 1 and abs(low - 20 / 23.8416) < 1e-4
    # 5 of 20 and 15 of 20 are mirror images; more games at the same score narrow it.
    low, high = _report(5, 0, 15).score_interval()
    mirror_low, mirror_high = _report(15, 0, 5).score_interval()
    assert abs(low - (1 - mirror_high)) < 1e-9 and abs(high - (1 - mirror_low)) < 1e-9
    assert low < 0.25 < high
    wide_low, wide_high = low, high
    low, high = _report(25, 0, 75).score_interval()
    assert wide_low < low < 0.25 < high < wide_high
    # a draw is half a point: 10 draws and 10 losses score as 5 wins and 15 losses do
    assert _report(0, 10, 10).score_interval() == (wide_low, wide_high)
    low, high = _report(5, 10, 5).score_interval()
    assert abs(low + high - 1) < 1e-9
    assert describe_score(_report(5, 10, 5)).startswith("score 50% (95% interval 30-70%), Elo +0 (")


def test_the_match_benchmark_states_the_elo_difference_a_score_implies():
    assert elo_difference(0.5) == 0
    assert round(elo_difference(0.75)) == 191 and round(elo_difference(0.25)) == -191
    assert elo_difference(0.0) is None and elo_difference(1.0) is None


def test_the_match_benchmark_plays_each_budget_with_both_colours(capsys, monkeypatch):
    require_fsf()
    from yariboard.benchmarks import match as bench_match
    monkeypatch.setattr(bench_match, "GAMES", 2)
    monkeypatch.setattr(bench_match, "NODES", (100,))
    monkeypatch.setattr(bench_match, "JOBS", 2)
    bench_match.run()
    line = capsys.readouterr().out.strip()
    found = re.match(r"built-in vs fsf, 2 games at 100 nodes/move: \+(\d) =(\d) -(\d), score (\d+)% "
                     r"\(95% interval \d+-\d+%\), Elo \S+ \(\S+ to \S+\) \(.*; \d+ s, 2 at once\)$",
                     line)
    assert found, line
    assert sum(int(n) for n in found.groups()[:3]) == 2
