"""Games shared out among processes (engines/match.py `play_match` with jobs): each pair of
engines plays in a process of its own, the games and their order are those one pair plays,
and a pair that dies ends the match with an error instead of a hang."""
import os

import pytest

from yariboard.engines.base import EngineError, Limit
from yariboard.engines.builtin.search import Engine
from yariboard.engines.match import EnginePair, play_match

pytestmark = [pytest.mark.engine]


class Recorded(Engine):
    """The built-in engine at a node budget, writing the process it searches in to `folder`."""

    def __init__(self, folder):
        super().__init__(level=8, nodes=200)
        self.folder = folder

    def search(self, position, limit=None):
        (self.folder / str(os.getpid())).touch()
        return super().search(position, Limit())


def test_pairs_play_in_processes_of_their_own_and_the_same_games_as_one_pair(tmp_path):
    played = {}
    for jobs in (1, 2):
        folder = tmp_path / str(jobs)
        folder.mkdir()
        seen = []
        played[jobs] = play_match(
            6, lambda: EnginePair(lambda: Recorded(folder), lambda: Engine(level=8, nodes=100)),
            max_plies=30, jobs=jobs, on_game=lambda index, game: seen.append(index))
        assert sorted(seen) == list(range(6))
        searched_in = {int(entry.name) for entry in folder.iterdir()}
        if jobs == 1:
            assert searched_in == {os.getpid()}
        else:
            assert len(searched_in) == 2 and os.getpid() not in searched_in
    assert played[1].games == played[2].games
    assert played[2].jobs == 2
    # the games differ, so one played with the wrong opening or colours would show
    assert len({(game.opening, game.first_side) for game in played[2].games}) == 6


def test_seeded_noisy_engines_play_the_same_games_whichever_process_plays_them():
    """Level 1 and 2 choose with seeded noise; each game starts the noise afresh, so a game
    does not depend on the games its pair played before it."""
    def open_pair():
        return EnginePair(lambda: Engine(level=2, seed=5), lambda: Engine(level=1, seed=6))

    one_pair = play_match(8, open_pair, max_plies=40, jobs=1)
    two_pairs = play_match(8, open_pair, max_plies=40, jobs=2)
    assert one_pair.games == two_pairs.games
    # and the noise does choose: other seeds play other games
    reseeded = play_match(8, lambda: EnginePair(lambda: Engine(level=2, seed=7),
                                                lambda: Engine(level=1, seed=8)),
                          max_plies=40, jobs=1)
    assert [game.plies for game in reseeded.games] != [game.plies for game in one_pair.games]


class Dying(Engine):
    def search(self, position, limit=None):
        os._exit(3)


class Failing(Engine):
    def search(self, position, limit=None):
        raise EngineError("engine gave up")


@pytest.mark.parametrize("player, message", [(Dying, "a match process died mid-game"),
                                             (Failing, "engine gave up")])
def test_a_pair_that_dies_or_fails_ends_a_shared_out_match_with_its_error(player, message):
    with pytest.raises(EngineError, match=message):
        play_match(4, lambda: EnginePair(player, lambda: Engine(level=1)), max_plies=10, jobs=2)
