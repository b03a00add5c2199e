"""An engine run as a child process and spoken to a line at a time: what the USI adapter
(`yariboard.engines.usi`) and the XBoard adapter (`yariboard.engines.xboard`) share.

The engine's output is read by two threads into a queue and a short tail, so a read can
time out without blocking on a pipe, and the last lines it wrote to stderr can say why it
died. Closing sends `quit`, then ends the process by force if it does not go: no engine
process outlives its adapter.
"""
import collections
import os
import queue
import subprocess
import threading
import time

from yariboard.engines.base import EngineError

QUIT_SECONDS = 2.0
STDERR_TAIL_LINES = 20
# A wait measured in the engine's CPU time (its start) ends on the wall clock at this many
# times its length at the latest: an engine asleep for good is not waited for for ever.
CPU_WAIT_WALL_FACTOR = 10



def cpu_seconds(pid):
    """The CPU time the process `pid` has used (Linux's /proc), None where unknown: the
    measure of a wait a busy machine stretches as much as it slows the process."""
    try:
        with open("/proc/%d/stat" % pid) as stat:
            fields = stat.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None

class EngineProcess:
    """The plumbing of one engine process. A protocol adapter subclasses it, names its errors
    (`Error`, and `Died` for an engine that ended while spoken to) and sets `name`, which the
    messages quote."""

    Error = EngineError
    Died = EngineError
    name = "engine"
    _process = None   # the running process; None before it starts and once it is closed

    def _spawn(self, argv, missing_hint=""):
        """Start `argv`; `Error` (with `missing_hint` added) when it cannot be run."""
        self._lines = queue.Queue()
        self._stderr_tail = collections.deque(maxlen=STDERR_TAIL_LINES)
        try:
            self._process = subprocess.Popen(
                list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, bufsize=1)
        except OSError as e:
            raise self.Error("cannot start engine %r: %s%s"
                             % (argv[0], e.strerror or e, missing_hint))
        self._readers = [
            threading.Thread(target=_pump, args=(self._process.stdout, self._lines.put),
                             daemon=True),
            threading.Thread(target=_pump, args=(self._process.stderr,
                                                 self._stderr_tail.append), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def _send(self, line):
        process = self._process
        if process is None:
            raise self.Error("engine %r is closed" % self.name)
        try:
            process.stdin.write(line + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self.Died(self._died_message("sending %r" % line))

    def _read_until(self, done, timeout, waiting_for, on_timeout=None, cpu=False):
        """Read lines until `done(line)` and return that line. `Died` if the engine ends,
        `Error` once `timeout` seconds pass; `on_timeout()`, when given, is called the first
        time they do and may return more seconds to wait (a search asked to stop at once).
        With `cpu`, the seconds are the engine's own CPU time (a start, which a busy machine
        slows down), up to CPU_WAIT_WALL_FACTOR times as long on the wall clock."""
        deadline = time.monotonic() + timeout
        if cpu:
            cpu_start = self._cpu_seconds()
            wall_end = deadline + (CPU_WAIT_WALL_FACTOR - 1) * timeout

            def on_timeout():
                return self._cpu_left(cpu_start, timeout, wall_end)
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                more = on_timeout() if on_timeout is not None else None
                if cpu and more is not None:
                    deadline = time.monotonic() + more
                    continue
                on_timeout = None
                if more is not None:
                    deadline = time.monotonic() + more
                    continue
                raise self.Error("engine %r did not send %s within %.1f s%s"
                                 % (self.name, waiting_for, timeout,
                                    " of its CPU time" if cpu else ""))
            if line is None:
                raise self.Died(self._died_message("waiting for %s" % waiting_for))
            if done(line):
                return line

    def _cpu_seconds(self):
        """The CPU time the engine's process has used, None where unknown."""
        return cpu_seconds(self._process.pid) if self._process is not None else None

    def _cpu_left(self, cpu_start, timeout, wall_end):
        """Seconds more to wait for an engine given `timeout` of CPU time from `cpu_start`;
        None once it has had them, once the wall clock reaches `wall_end`, or where the CPU
        time is unknown."""
        used = self._cpu_seconds()
        left = min(wall_end - time.monotonic(),
                   timeout - (used - cpu_start) if used is not None and cpu_start is not None
                   else 0)
        return left if left > 0 else None

    def _discard_stale_output(self):
        """Drop lines left over from an earlier, failed exchange, so that an old answer is
        never taken for the answer to a new question."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                raise self.Died(self._died_message("idle"))

    def _died_message(self, doing):
        process = self._process
        code = process.wait(QUIT_SECONDS) if process is not None else None
        tail = "; ".join(line.strip() for line in self._stderr_tail if line and line.strip())
        return "engine %r exited (code %s) while %s%s" % (
            self.name, code, doing, (": " + tail) if tail else "")

    def close(self):
        """Send quit and close its input, wait briefly, then terminate or kill."""
        process = self._process
        if process is None:
            return
        self._process = None
        if process.poll() is None:
            try:
                process.stdin.write("quit\n")
                process.stdin.flush()
                process.stdin.close()  # end of input: even a program deaf to quit stops
            except (BrokenPipeError, OSError, ValueError):
                pass
            try:
                process.wait(QUIT_SECONDS)
            except subprocess.TimeoutExpired:
                process.terminate()
                try:
                    process.wait(QUIT_SECONDS)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass
        for reader in self._readers:
            reader.join(QUIT_SECONDS)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def pid(self):
        """The engine's process id (None once closed)."""
        return self._process.pid if self._process is not None else None


def _pump(stream, put):
    """Reader thread: forward each line; None marks the end of the engine's output."""
    try:
        for line in stream:
            put(line)
    except (OSError, ValueError):
        pass
    put(None)
