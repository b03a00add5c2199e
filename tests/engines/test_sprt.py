"""The sequential test that ends a match once it is decided (engines/match.py's Sprt).

Its error rates are checked on synthetic result streams (seeded, so the test always sees
the same draws) where the true strength is known; a real match would take hours to say as
much. Whether a match stops is checked with real in-process engines at a fixed depth."""
import math
import random

import pytest

from yariboard.cli.main import main
from yariboard.engines.builtin.search import Engine
from yariboard.engines.match import EnginePair, Sprt, expected_score, play_match
from yariboard.engines.players import RandomPlayer

RUNS = 400
MOST_GAMES = 5000


def outcome_probabilities(elo, draw_rate):
    """(win, draw) chances of a player `elo` stronger, with `draw_rate` of the games drawn."""
    score = expected_score(elo)
    return score - draw_rate / 2, draw_rate


def run_sprt(sprt, rng, elo, draw_rate=0.2, known=None):
    """Feed `sprt` games of a player `elo` stronger until it decides; (decision, games).
    `known` keeps the decisions already worked out (one per count of wins, draws, losses),
    shared between runs of one test."""
    known = {} if known is None else known
    win, draw = outcome_probabilities(elo, draw_rate)
    wins = draws = losses = 0
    for games in range(1, MOST_GAMES + 1):
        roll = rng.random()
        if roll < win:
            wins += 1
        elif roll < win + draw:
            draws += 1
        else:
            losses += 1
        counts = wins, draws, losses
        if counts not in known:
            known[counts] = sprt.decision(*counts)
        decided = known[counts]
        if decided:
            return decided, games
    return None, MOST_GAMES


def binomial_upper(rate, runs):
    """A one-sided 99.9 % upper bound for the count of `runs` events of chance `rate`."""
    return runs * rate + 3.1 * math.sqrt(runs * rate * (1 - rate))


@pytest.mark.parametrize("true_elo, wrong", [(0, "H1"), (100, "H0")])
def test_the_test_errs_no_more_often_than_its_error_rates(true_elo, wrong):
    """At elo0 it accepts H1 in at most alpha of the runs, at elo1 H0 in at most beta (with
    the binomial spread of RUNS runs allowed), and every run ends in a decision."""
    sprt = Sprt(0, 100, alpha=0.05, beta=0.05)
    rng = random.Random(55)
    known = {}
    decisions = [run_sprt(sprt, rng, true_elo, known=known)[0] for _ in range(RUNS)]
    assert None not in decisions
    assert decisions.count(wrong) <= binomial_upper(0.05, RUNS)


def test_a_clear_gap_is_decided_within_a_few_games_and_the_right_way():
    sprt = Sprt(0, 50)
    rng = random.Random(3)
    runs = [run_sprt(sprt, rng, 400) for _ in range(100)]
    assert all(decision == "H1" for decision, _ in runs)
    assert max(games for _, games in runs) <= 30
    runs = [run_sprt(sprt, rng, -400) for _ in range(100)]
    assert all(decision == "H0" for decision, _ in runs)


def test_an_even_score_between_the_hypotheses_stays_undecided():
    """Exactly half the points, with elo0 and elo1 either side of an even match: the
    evidence leans neither way, however many games are played."""
    sprt = Sprt(-20, 20)
    for games in range(2, 2001, 2):
        half = games // 2
        assert sprt.decision(half, 0, half) is None
        assert sprt.decision(0, games, 0) is None


def test_the_bounds_are_walds():
    sprt = Sprt(0, 10, alpha=0.05, beta=0.1)
    assert sprt.lower == pytest.approx(math.log(0.1 / 0.95))
    assert sprt.upper == pytest.approx(math.log(0.9 / 0.05))


@pytest.mark.parametrize("elo0, elo1, alpha, beta", [(10, 0, 0.05, 0.05), (0, 0, 0.05, 0.05),
                                                     (0, 10, 0, 0.05), (0, 10, 0.05, 0.5)])
def test_nonsense_hypotheses_are_refused(elo0, elo1, alpha, beta):
    with pytest.raises(ValueError):
        Sprt(elo0, elo1, alpha, beta)


def test_a_match_stops_as_soon_as_a_decided_comparison_is_decided():
    """The built-in engine at depth 2 against a random mover: the SPRT ends the match long
    before the 40 games allowed, and every game played counts."""
    sprt = Sprt(0, 100)
    seen = []
    report = play_match(40, lambda: EnginePair(lambda: Engine(seed=1), lambda: RandomPlayer(seed=2)),
                        max_plies=120, depth=2, sprt=sprt,
                        on_game=lambda index, game: seen.append(index))
    assert sprt.decision(report.wins(), report.draws(), report.losses()) == "H1"
    assert len(report.games) < 40
    assert seen == list(range(len(report.games)))
    shorter = report.games[:-1]
    wins = sum(1 for g in shorter if g.first_points == 1.0)
    draws = sum(1 for g in shorter if g.first_points == 0.5)
    assert sprt.decision(wins, draws, len(shorter) - wins - draws) is None


def test_a_match_between_equals_plays_every_game():
    """The same engine on both sides at a fixed depth: each opening is won once from each
    side (or drawn), the score stays even and the SPRT never stops the match."""
    sprt = Sprt(-50, 50)
    report = play_match(8, lambda: EnginePair(lambda: Engine(level=5), lambda: Engine(level=5)),
                        max_plies=60, depth=1, sprt=sprt)
    assert len(report.games) == 8
    assert report.score() == 0.5
    assert sprt.decision(report.wins(), report.draws(), report.losses()) is None


def test_match_command_refuses_a_backwards_sprt(capsys):
    assert main(["match", "--sprt", "10", "0"]) == 1
    assert capsys.readouterr().err.strip() == (
        "yariboard: error: --sprt: the SPRT needs elo0 below elo1, not 10 and 0")
