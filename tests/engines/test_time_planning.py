"""Planning a move's time from a clock: one planner (`Limit.planned_seconds`) for the USI
server, the built-in engine and the host's game clock. The increment comes only after the
move, which must still be carried out on the board: a large increment never lets the engine
plan all of its main time."""
import pytest

from shogicore.variants import BLACK, WHITE

from yariboard.engines.base import Limit
from yariboard.engines.usi_server import move_time_ms
from yariboard.play.clocks import GameClock, TimeControl


@pytest.mark.parametrize("main, increment", [(60, 90), (10, 600), (1, 30), (300, 5)])
def test_a_large_increment_never_plans_more_than_half_the_main_time(main, increment):
    clock = Limit(black_clock=main, white_clock=main, black_increment=increment,
                  white_increment=increment)
    assert clock.planned_seconds(BLACK) <= main / 2
    ms = move_time_ms({"btime": main * 1000, "wtime": main * 1000,
                       "binc": increment * 1000, "winc": increment * 1000}, WHITE)
    assert ms <= main * 1000 / 2
    game = GameClock(TimeControl(main=main, increment=increment), now=lambda: 0.0)
    game.start(WHITE)
    assert game.think_time(WHITE) <= main / 2


def test_the_increment_is_still_used_when_the_main_time_allows_it():
    # 60 s and 2 s a move: 2 s of the share plus most of the increment, far below half
    planned = Limit(black_clock=60, white_clock=60, black_increment=2,
                    white_increment=2).planned_seconds(BLACK)
    assert 60 / 30 + 1 < planned < 60 / 30 + 2


def test_byoyomi_is_fresh_each_move_so_most_of_it_is_planned():
    planned = Limit(black_clock=0, white_clock=0, byoyomi=10).planned_seconds(WHITE)
    assert 7 <= planned < 10


def test_the_movers_own_clock_counts():
    clock = Limit(black_clock=300, white_clock=30)
    assert clock.planned_seconds(BLACK) > clock.planned_seconds(WHITE)
    assert Limit(time=1.5).planned_seconds(BLACK) == 1.5
    assert Limit(depth=3).planned_seconds(BLACK) is None
