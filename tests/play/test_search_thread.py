"""An engine searching in a thread of the recording's process lets the board's thread back
into the interpreter within half a millisecond, not Python's default 5 ms, each time that
thread returns from the serial port or SQLite."""
import sys
import time

from shogicore.position import Position
from shogicore.variants import variant_by_name
from yariboard.engines.builtin.search import Engine
from yariboard.play.session import Search


def test_a_search_shortens_the_interpreters_switch_interval_to_half_a_millisecond():
    before = sys.getswitchinterval()
    sys.setswitchinterval(0.005)
    try:
        search = Search(Engine(level=1, seed=1), Position(variant_by_name("yari")), 0.05, key=None)
        assert sys.getswitchinterval() <= 0.0005
        while not search.done():
            time.sleep(0.01)
        assert search.error is None and search.result.move is not None
    finally:
        sys.setswitchinterval(before)
