"""A person at a terminal plays `yariboard play --sim` to the end, through a real pty.

The installed command runs in an 80x50 pseudo-terminal (the firmware on the MicroPython unix
port behind it, real time); the test types what a player types and reads the screen after
each step: a capture, a declined promotion, a drop whose piece is chosen on the board, the
engine's moves carried out as the LEDs order them, a take-back from the host and a
resignation. The game must reach the archive exactly as played.
"""
import pytest
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time

import pyte

from shogicore.move import parse_usi
from shogicore.position import Position
from yariboard.records.archive import Archive
from yariboard.sim.rig import SimRig

pytestmark = [pytest.mark.micropython]

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
# Black: pawns on 7f (faces White's pawn on 7e) and 5d (next step enters the zone), a Pawn
# and a Knight in hand; White: its General in the far corner and the pawn.
START_SFEN = "6k/7/7/2P4/p6/P6/7/7/3K3 b NP 1"


def work_seconds(pid):
    """Processor seconds used by the process `pid` and every process under it (what exited
    and was waited for counted in its parent's): a clock that a busy machine slows as much
    as the command it runs, where a wall-clock wait runs out."""
    total = 0.0
    try:
        with open("/proc/%d/stat" % pid) as stat:
            fields = stat.read().rpartition(")")[2].split()
        total += sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        for task in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, task)) as children:
                total += sum(work_seconds(int(child)) for child in children.read().split())
    except (OSError, ValueError):
        pass
    return total


class Terminal:
    """A command running in a pty of a fixed size; keeps everything it printed. With
    `work_clock`, its waits are in processor seconds of the command and what it started
    (`work_seconds`) rather than on the wall clock."""

    def __init__(self, argv, columns=80, rows=50, env=None, work_clock=False):
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave,
                                        env=env, close_fds=True, start_new_session=True)
        os.close(slave)
        self.output = ""
        self.raw = b""               # everything printed, escape sequences and all
        pid = self.process.pid
        self.clock = (lambda: work_seconds(pid)) if work_clock else time.monotonic

    def read(self, seconds):
        deadline = self.clock() + seconds
        while self.clock() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:      # the command ended and closed the pty
                    return
                self.raw += data
                self.output += ANSI.sub("", data.decode("utf-8", "replace"))

    def type(self, line):
        os.write(self.master, (line + "\n").encode())

    def screen(self):
        """The last complete board picture printed, as text."""
        end = self.output.rfind("╰")
        start = self.output.rfind("╭", 0, end)
        return self.output[start:end] if start >= 0 and end > start else ""

    def wait_for(self, predicate, seconds=30, what=""):
        deadline = self.clock() + seconds
        while self.clock() < deadline:
            if predicate(self.screen()):
                return self.screen()
            self.read(0.2)
        raise AssertionError("screen never showed %s; last screen:\n%s\n--- output tail:\n%s"
                             % (what, self.screen(), self.output[-3000:]))

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        os.close(self.master)


def yariboard_command():
    found = os.path.join(os.path.dirname(sys.executable), "yariboard")
    return found if os.path.exists(found) else shutil.which("yariboard")


def status(screen):
    return " ".join(line.strip(" │") for line in screen.splitlines()
                    if "status:" in line or line.strip(" │").startswith("'"))


def moves_shown(screen):
    return re.findall(r"\d+\. +(\S+)(?: +(\S+))?", screen)


def ordered_squares(screen):
    """(from, to) of the engine's move as the LED legend shows it."""
    frm = re.search(r"take from here: (\w\w)", screen)
    to = re.search(r"put it here \(blinks\): (\w\w)", screen)
    return frm.group(1), to.group(1)


def carry_out_engine_move(term, plies_before):
    screen = term.wait_for(lambda s: "carry out the engine's move" in s, what="the engine's move")
    frm, to = ordered_squares(screen)
    assert "engine thinking" not in screen                    # it is no longer thinking
    term.type("move %s%s" % (frm, to))
    return term.wait_for(lambda s: "Black to move" in status(s)
                         and _plies(s) == plies_before + 1, what="Black to move")


def _plies(screen):
    return sum(1 + bool(pair[1]) for pair in moves_shown(screen))


def test_a_short_game_typed_at_a_terminal(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    env = dict(os.environ, TERM="xterm", COLUMNS="80", LINES="50")
    term = Terminal([yariboard_command(), "--db", db, "play", "--sim", "--new", "--level", "1",
                     "--seconds", "0.3"], env=env)
    try:
        screen = term.wait_for(lambda s: "Black to move" in s, what="the start")
        assert "player (Black) vs level 1 (built-in engine) (White)" in screen
        assert all(len(line) <= 80 for line in term.output.splitlines())
        term.type("sfen " + START_SFEN)
        screen = term.wait_for(lambda s: "Black hand: YN P" in s and "Black to move" in status(s),
                               what="the set-up position")
        # a capture: the pawn on 7f takes the one on 7e
        term.type("move 7f7e")
        screen = term.wait_for(lambda s: "engine thinking" in s or "carry out" in s,
                               what="the engine at work")
        assert "Black hand: YN Px2" in screen and "Px7e" in screen
        screen = carry_out_engine_move(term, 1)
        assert "Px7e" in screen
        # a declined promotion: the board offers promotion first, B turns it down
        term.type("move 5d5c")
        screen = term.wait_for(lambda s: "P-5c=" in s, what="the declined promotion")
        assert "choice" not in status(screen)
        screen = carry_out_engine_move(term, 3)
        assert "choice" not in screen
        # a drop of the Knight: the board offers the Pawn first, then the Knight
        term.type("move N*7h")
        screen = term.wait_for(lambda s: "YN*7h" in s, what="the Knight drop")
        assert "Black hand: Px2" in screen
        screen = carry_out_engine_move(term, 5)
        # take back from the host: the engine's reply and the drop, Black to move again
        term.type("takeback")
        screen = term.wait_for(lambda s: _plies(s) == 4 and "Black to move" in status(s),
                               what="the take-back")
        assert "YN*7h" not in screen and "Black hand: YN Px2" in screen
        # resignation from the host, for the person's side
        term.type("resign")
        screen = term.wait_for(lambda s: "White wins (resignation)" in s, what="the resignation")
        assert "in check" not in screen
        assert "game over: the loser's General: 4i" in screen
        term.read(3)
        assert term.process.wait(timeout=20) == 0
    finally:
        term.close()
    assert "Traceback" not in term.output
    with Archive(db) as archive:
        record = _last_game(archive)
        assert record.start_sfen == START_SFEN
        assert record.usi_moves()[:3] == ["7f7e", record.usi_moves()[1], "5d5c"]
        assert len(record.usi_moves()) == 4
        assert (record.winner, record.reason) == ("white", "resignation")


def _last_game(archive):
    return archive.game(max(archive.ids()))


def test_ctrl_c_and_end_of_input_stop_the_simulator_cleanly(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    env = dict(os.environ, TERM="xterm")
    term = Terminal([yariboard_command(), "--db", db, "sim"], env=env)
    try:
        term.wait_for(lambda s: "Black to move" in s, what="the start")
        term.type("move 7g7f")
        term.wait_for(lambda s: "White to move" in s, what="the move")
        term.process.send_signal(signal.SIGINT)           # what Ctrl-C sends
        assert term.process.wait(timeout=20) == 0
        term.read(0.5)
    finally:
        term.close()
    assert "interrupted: the game stays on the board" in term.output
    assert "Traceback" not in term.output
    with Archive(db) as archive:
        assert archive.game(max(archive.ids())).usi_moves() == ["7g7f"]


def displayed(term, columns=80, rows=50):
    """The lines a terminal of this size shows now, from what the command printed."""
    screen = pyte.Screen(columns, rows)
    pyte.ByteStream(screen).feed(term.raw)
    return [line.rstrip() for line in screen.display]


def clock_line(lines):
    return next((line.strip(" │") for line in lines if "clock:" in line), "")


def test_the_screen_is_redrawn_in_place_keeping_the_typed_line_and_the_last_error(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    env = dict(os.environ, TERM="xterm", COLUMNS="80", LINES="50")
    term = Terminal([yariboard_command(), "--db", db, "play", "--sim", "--new", "--level", "1",
                     "--time", "5"], env=env)
    try:
        term.wait_for(lambda s: "Black to move" in s, what="the start")
        term.type("move 7g7f")
        term.type("frobnicate")
        os.write(term.master, b"tak")                  # typed, not yet entered
        term.wait_for(lambda s: "P-7f" in s and "clock: Black 4:59" in s, what="the move")
        ticks = set()
        deadline = time.monotonic() + 60
        while len(ticks) < 3 and time.monotonic() < deadline:   # the clocks run on
            term.read(0.2)
            ticks.add(clock_line(displayed(term)))
        assert len(ticks) >= 3, ticks
        lines = displayed(term)
        assert sum("player (Black) vs level 1 (built-in engine)" in line for line in lines) == 1
        assert "unknown command or wrong arguments 'frobnicate' (type help)" in lines
        assert lines[max(i for i, line in enumerate(lines) if line)] == "> tak_"
        os.write(term.master, b"eback\n")              # the line typed before goes on
        term.wait_for(lambda s: "(no moves yet)" in s, what="the take-back")
        assert "'frobnicate'" not in "\n".join(displayed(term))   # an accepted command clears it
        term.type("quit")
        assert term.process.wait(timeout=20) == 0
    finally:
        term.close()
    assert "Traceback" not in term.output


def test_play_at_a_board_on_its_port_redraws_in_place_and_ends_with_the_game(tmp_path):
    """`play --port`: the loop for a real board, here the firmware on the unix port behind its
    pseudo-terminal, the person's hands the rig's."""
    db = str(tmp_path / "games.sqlite3")
    env = dict(os.environ, TERM="xterm", COLUMNS="80", LINES="50")
    with SimRig(str(tmp_path / "flash"), clock="real", log_dir=str(tmp_path)) as rig:
        term = Terminal([yariboard_command(), "--db", db, "play", "--port", rig.port,
                         "--level", "1", "--seconds", "0.2"], env=env)
        try:
            term.wait_for(lambda s: "Black to move" in s, what="the start")
            position = Position()
            rig.perform(position, parse_usi(position.variant, "7g7f"))
            term.wait_for(lambda s: "P-7f" in s, what="the move made on the board")
            term.type("frobnicate")
            term.wait_for(lambda s: "unknown command 'frobnicate' (type help)"
                          in "\n".join(displayed(term)), what="the error")
            term.type("resign")
            term.wait_for(lambda s: "White wins (resignation)" in s, what="the resignation")
            assert term.process.wait(timeout=20) == 0
            term.read(0.5)
            lines = displayed(term)
            assert sum("player (Black) vs level 1 (built-in engine)" in line for line in lines) == 1
        finally:
            term.close()
    assert "Traceback" not in term.output
    with Archive(db) as archive:
        record = _last_game(archive)
        assert record.usi_moves() == ["7g7f"]
        assert (record.winner, record.reason) == ("white", "resignation")
