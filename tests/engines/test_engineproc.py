"""The engine-process plumbing both protocol adapters share (`yariboard.engines.process`), held
to real child processes: what a stubborn or dying engine leaves behind, and what it says."""
import os
import sys
import textwrap
import time

import pytest

from yariboard.engines.process import QUIT_SECONDS, EngineProcess

pytestmark = [pytest.mark.external]


class ProtocolError(RuntimeError):
    pass


class ProcessDied(ProtocolError):
    pass


class LineEngine(EngineProcess):
    """The smallest adapter: a program run with Python, spoken to a line at a time."""

    Error = ProtocolError
    Died = ProcessDied

    def __init__(self, program):
        self.name = "test engine"
        self._spawn([sys.executable, "-c", textwrap.dedent(program)])


def gone(pid):
    """Has the process `pid` ended and been reaped (no zombie left)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_an_engine_deaf_to_quit_and_to_terminate_is_killed_on_close():
    """It ignores `quit`, the end of its input and SIGTERM: close() still ends it, in about
    two waits, and reaps it."""
    engine = LineEngine("""
        import signal, sys, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("ready", flush=True)
        sys.stdin.read()
        while True:
            time.sleep(1)
    """)
    engine._read_until(lambda line: line.strip() == "ready", 10, "ready")
    pid = engine.pid
    started = time.monotonic()
    engine.close()
    assert gone(pid)
    assert engine.pid is None
    assert 2 * QUIT_SECONDS <= time.monotonic() - started < 2 * QUIT_SECONDS + 3
    engine.close()   # a second close is harmless


def test_an_engine_that_answers_quit_is_not_waited_for():
    engine = LineEngine("""
        import sys
        for line in sys.stdin:
            if line.strip() == "quit":
                break
    """)
    pid = engine.pid
    started = time.monotonic()
    engine.close()
    assert gone(pid)
    assert time.monotonic() - started < QUIT_SECONDS


def test_a_dying_engine_is_reported_with_its_exit_code_and_last_words():
    engine = LineEngine("""
        import sys
        sys.stdin.readline()
        print("out of memory in the search", file=sys.stderr, flush=True)
        sys.exit(3)
    """)
    with engine:
        engine._send("go")
        with pytest.raises(ProcessDied, match=r"exited \(code 3\) while waiting for an answer: "
                                              r"out of memory in the search"):
            engine._read_until(lambda line: False, 10, "an answer")


def test_a_silent_engine_times_out_and_can_be_given_more_time_once():
    """`on_timeout` is asked once (a search asked to stop gets a little longer); then the
    protocol's error names what was awaited and the first wait."""
    engine = LineEngine("""
        import sys
        for line in sys.stdin:
            if line.strip() == "stop":
                print("bestmove now", flush=True)
    """)
    asked = []

    def stop_now():
        asked.append(True)
        engine._send("stop")
        return 5

    with engine:
        line = engine._read_until(lambda line: line.startswith("bestmove"), 0.2, "bestmove",
                                  on_timeout=stop_now)
        assert line.strip() == "bestmove now" and asked == [True]
        with pytest.raises(ProtocolError, match="did not send readyok within 0.2 s") as error:
            engine._read_until(lambda line: False, 0.2, "readyok", on_timeout=lambda: 0.2)
        assert not isinstance(error.value, ProcessDied)


def test_a_missing_program_and_a_closed_engine_raise_the_protocols_error():
    class Missing(LineEngine):
        def __init__(self):
            self.name = "missing"
            self._spawn(["/nonexistent/engine"], " (install it first)")

    with pytest.raises(ProtocolError, match=r"cannot start engine '/nonexistent/engine': .*"
                                            r"\(install it first\)"):
        Missing()
    engine = LineEngine("import sys; sys.stdin.read()")
    engine.close()
    with pytest.raises(ProtocolError, match="engine 'test engine' is closed"):
        engine._send("go")
