"""The interpreter scenarios of tests/firmware/test_interpreter.py, run on the MicroPython unix port."""
import pytest
import os

from tests.firmware import test_interpreter
from tests.mpy import run_micropython

pytestmark = [pytest.mark.micropython]

TESTS = os.path.dirname(os.path.abspath(__file__))

RUN_ALL = """
import sys
sys.path.append(%r)
import test_interpreter
for name in sorted(dir(test_interpreter)):
    if name.startswith("test_"):
        getattr(test_interpreter, name)()
        print("passed", name)
"""


def test_every_interpreter_scenario_passes_on_micropython():
    expected = sorted(n for n in dir(test_interpreter) if n.startswith("test_"))
    _, out, _ = run_micropython(RUN_ALL % TESTS)
    passed = [line.split()[1] for line in out.splitlines() if line.startswith("passed ")]
    assert passed == expected


IDLE_ALLOCATION = """
import gc
from shogicore.game import Game
from boardfw.interpreter import Interpreter


def scan(it, square, occupied):
    # One loop pass per ms: the timers run and the switch reads what it read before.
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for now in range(2000, 2500):
        it.tick(now)
        it.on_sensor(square, occupied, now)
    allocated = gc.mem_alloc() - before
    gc.enable()
    return allocated


game = Game()
it = Interpreter(game, 0)
pawn = game.variant.parse_square("7g")
idle = scan(it, pawn, True)
it.on_sensor(pawn, False, 10)
it.tick(1000)                      # settled: a piece held, nothing to decide
held = scan(it, pawn, False)
print([idle, held])
"""


def test_scanning_allocates_nothing_while_nothing_changes():
    _, out, _ = run_micropython(IDLE_ALLOCATION)
    assert out.strip() == "[0, 0]"
