"""An engine's start is waited for in the engine's own CPU time (engines/process.py): on a
busy machine it gets the processor seldom and starts late, which is slow, never wrong
(`yariboard match` gave up on Fairy-Stockfish after a fixed 60 s). The busy machine is
played by stopping the engine's process (SIGSTOP) for longer than the wait."""
import os
import signal
import threading

import pytest

from tests.engines.test_engineproc import LineEngine, ProtocolError

pytestmark = [pytest.mark.external]

WAIT_S = 1.0
STOPPED_S = 4.0

STARTS = """
    import time
    time.sleep(0.3)
    print("ready", flush=True)
    import sys
    sys.stdin.read()
"""


def start_while_stopped(cpu):
    engine = LineEngine(STARTS)
    os.kill(engine.pid, signal.SIGSTOP)
    wake = threading.Timer(STOPPED_S, os.kill, (engine.pid, signal.SIGCONT))
    wake.start()
    try:
        return engine._read_until(lambda line: line.strip() == "ready", WAIT_S, "ready", cpu=cpu)
    finally:
        wake.cancel()
        os.kill(engine.pid, signal.SIGCONT)
        engine.close()


def test_an_engine_the_machine_holds_up_is_waited_for_in_its_cpu_time():
    assert start_while_stopped(cpu=True).strip() == "ready"


def test_on_the_wall_clock_the_same_wait_gives_up():
    with pytest.raises(ProtocolError, match="within 1.0 s$"):
        start_while_stopped(cpu=False)


def test_an_engine_that_spins_without_answering_is_given_up_on():
    engine = LineEngine("while True: pass")
    try:
        with pytest.raises(ProtocolError, match="of its CPU time"):
            engine._read_until(lambda line: True, WAIT_S, "usiok", cpu=True)
    finally:
        engine.close()


def test_an_engine_asleep_for_good_is_given_up_on_the_wall_clock_at_last():
    engine = LineEngine("import time\ntime.sleep(600)")
    try:
        with pytest.raises(ProtocolError):
            engine._read_until(lambda line: True, 0.5, "usiok", cpu=True)
    finally:
        engine.close()
