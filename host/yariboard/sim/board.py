"""Run the real firmware (firmware/main.py) on the MicroPython unix port as a simulated board.

The board's USB serial is a pseudo-terminal: open `SimBoard.port` with pyserial exactly like
a real board's port. Its pieces and buttons are driven from here through a control pipe
(`place`, `lift`, `press`, `release`, `advance`), and what its LEDs show comes back on a
report pipe. `kill()` cuts the power at any moment; `restart()` powers it up again on the
same flash directory with the pieces where they were. See docs/simulator.md.
"""
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty

from boardfw import config as board_config
from boardfw import protocol
from boardfw.interpreter import CHOICE_MS, SETTLE_MS
from shogicore.move import PROMOTION, is_drop, make_drop, move_from, move_to
from shogicore.position import Position
from shogicore.variants import variant_by_name
from yariboard import resources
FIRMWARE = resources.firmware_dir()


def micropython_binary():
    """The unix-port `micropython` installed beside this Python (the project's venv), or the
    one $YARIBOARD_MICROPYTHON names (e.g. the 32-bit build, whose heap is the Pico's size)."""
    if os.environ.get("YARIBOARD_MICROPYTHON"):
        return os.path.abspath(os.environ["YARIBOARD_MICROPYTHON"])
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    found = here if os.path.exists(here) else shutil.which("micropython")
    if not found:
        raise FileNotFoundError("micropython (unix port) not found beside %s" % sys.executable)
    return found


def occupied_squares(variant, sfen=None):
    """Names of the squares holding a piece in `sfen` (default: the start position)."""
    variant = variant_by_name(variant)
    position = Position(variant, sfen)
    return [variant.square_name(sq) for sq in variant.squares if position.piece_at(sq)]


# The order in which the board offers drop choices (docs/firmware-interpreter.md).
DROP_CHOICE_ORDER = {"yari": "PNBR", "shogi": "PLNSGBR", "wa": "PLUDMGCVWOHRXSEF"}


def move_gestures(position, m, rng=None, debounce_ms=30, hand_ms=None):
    """Control commands for the hands of a player making move `m` in `position` (before it).

    Without `rng` the gestures are the plain ones. With a random.Random they vary as people
    do: captures in either order, slides that brush the squares on the way, pieces nudged
    (flicker shorter than the debounce), re-seats, and promotion / drop-kind choices made
    with button B or by re-seating the piece, confirmed with A or by waiting.
    `hand_ms`: how long each deliberate action lasts (a piece held up, a button held down;
    default: just past the debounce). A board whose loop passes take time, as the Pico's
    do, needs hands as slow as a person's.
    """
    variant = position.variant
    name = variant.square_name
    step = hand_ms or debounce_ms + 20      # long enough for each action to register
    out = []
    to = name(move_to(m))
    if rng and rng.random() < 0.2:
        # a nudged piece: its contact opens and closes again within the debounce time
        nudged = rng.choice([name(sq) for sq in variant.squares if position.piece_at(sq)])
        out += ["lift " + nudged, "advance %d" % max(1, debounce_ms // 3),
                "place " + nudged, "advance %d" % step]
    if is_drop(m):
        out += ["place " + to, "advance %d" % step]
    else:
        out += _carried(position, m, rng, debounce_ms, step)
    out.append("advance %d" % (SETTLE_MS + step))
    out += _chosen(position, m, rng, to, step)
    return out


def _carried(position, m, rng, debounce_ms, step):
    """The hands carrying a piece from its square to `m`'s (and the piece it takes off)."""
    variant = position.variant
    name = variant.square_name
    frm, to = name(move_from(m)), name(move_to(m))
    out = []
    if rng and rng.random() < 0.15:      # pick the piece up and put it down again first
        out += ["lift " + frm, "advance %d" % step, "place " + frm, "advance %d" % (SETTLE_MS + 50)]
    captured = position.piece_at(move_to(m))
    if captured and rng and rng.random() < 0.5:
        out += ["lift " + to, "advance %d" % step, "lift " + frm, "advance %d" % step]
    else:
        out += ["lift " + frm, "advance %d" % step]
        if captured:
            out += ["lift " + to, "advance %d" % step]
    if rng and rng.random() < 0.5:
        for sq in _path(variant, position, move_from(m), move_to(m)):
            # the piece brushes this square ... and slides on
            out += ["place " + name(sq), "advance %d" % step,
                    "lift " + name(sq), "advance %d" % max(1, debounce_ms // 2)]
    out += ["place " + to, "advance %d" % (debounce_ms // 3)]
    if rng and rng.random() < 0.2:             # it rocks as it lands
        out += ["lift " + to, "advance %d" % max(1, debounce_ms // 3), "place " + to]
    return out


def _chosen(position, m, rng, to, step):
    """The hands choosing `m` among the moves the board offers for what they did (with B
    or by re-seating the piece on `to`, confirmed with A or by waiting); none if one only."""
    choices = _choices(position, m)
    out = []
    if len(choices) > 1:
        for _ in range(choices.index(m)):
            if rng and rng.random() < 0.5:
                out += ["lift " + to, "advance %d" % step, "place " + to, "advance %d" % step]
            else:
                out += _button("B", step)
        if rng and rng.random() < 0.2:
            out.append("advance %d" % (CHOICE_MS + step))
        else:
            out += _button("A", step)
    return out


def _button(name, step):
    return ["press " + name, "advance %d" % step, "release " + name, "advance %d" % step]


def _choices(position, m):
    """The moves the board offers for the board state `m` leaves (promotion first)."""
    if is_drop(m):
        variant = position.variant
        out = []
        for symbol in DROP_CHOICE_ORDER[variant.name]:
            kind = variant.kind_of(symbol)
            drop = make_drop(kind, move_to(m))
            if position.is_legal(drop):
                out.append(drop)
        return out
    plain = m & ~PROMOTION
    legal = position.destinations(move_from(m))
    return [x for x in (plain | PROMOTION, plain) if x in legal]


def _path(variant, position, frm, to):
    """Empty squares strictly between frm and to on a straight line (a slide's path)."""
    df = variant.file_of(to) - variant.file_of(frm)
    dr = variant.rank_of(to) - variant.rank_of(frm)
    steps = max(abs(df), abs(dr))
    if steps < 2 or (df and dr and abs(df) != abs(dr)):
        return []
    sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    out = []
    for i in range(1, steps):
        sq = variant.square(variant.file_of(frm) + i * sf, variant.rank_of(frm) + i * sr)
        if position.piece_at(sq):
            return []
        out.append(sq)
    return out


class SimBoardError(RuntimeError):
    pass


class PtyBoard:
    """What the simulated boards share: this one (the firmware on the MicroPython unix port)
    and `emurig.EmulatedPico` (the Pico's firmware image on an emulated RP2040). A
    pseudo-terminal stands for the USB serial port, a log folder keeps the firmware's
    stderr, and the hands' control lines keep track of the pieces standing on the board.
    A subclass powers the board up (`start`) and cuts its power (`kill`), and carries the
    control lines (`_send`). Use as a context manager, or call start() and close()."""

    def _open(self, log_dir, log_prefix, stderr_name):
        """The log folder (one made here is removed again by close(): nothing is left in
        /tmp) and the serial port."""
        self._own_log_dir = None if log_dir else tempfile.TemporaryDirectory(prefix=log_prefix)
        self.log_dir = log_dir or self._own_log_dir.name
        self.stderr_path = os.path.join(self.log_dir, stderr_name)
        self.process = None
        self._reader = None
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)   # no echo, no line editing: a byte-clean serial line
        self.port = os.ttyname(self._slave)

    def restart(self, *args):
        self.kill()
        return self.start(*args)

    def close(self):
        self.kill()
        for fd in (self._master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        if self._own_log_dir is not None:
            self._own_log_dir.cleanup()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def stderr_text(self):
        with open(self.stderr_path, "rb") as f:
            return f.read().decode(errors="replace")

    # -- the pieces, the buttons, the time -------------------------------------------------
    def place(self, square):
        self.send_commands(["place " + square])

    def lift(self, square):
        self.send_commands(["lift " + square])

    def press(self, button):
        self.send_commands(["press " + button])

    def release(self, button):
        self.send_commands(["release " + button])

    def advance(self, ms):
        """Let `ms` of board time pass before the next command takes effect."""
        self.send_commands(["advance %d" % ms])

    def send_commands(self, lines):
        """Control lines in one write (the fast path for long scripted games): they take
        effect at exact board times between them."""
        for line in lines:
            words = line.split()
            verb, squares = (words[0], words[1:]) if words else ("", [])
            if verb == "place":
                self.occupied.update(squares)
            elif verb == "lift":
                self.occupied.difference_update(squares)
            elif verb == "set":          # the pieces a restart must boot with
                self.occupied = set(squares)
        self._send("\n".join(lines))

    def _drain_serial_input(self):
        """Bytes sent to a dead board are gone, as over USB."""
        while select.select([self._master], [], [], 0)[0]:
            try:
                if not os.read(self._master, 4096):
                    break
            except OSError:
                break


class SimBoard(PtyBoard):
    """One simulated board: the firmware on the MicroPython unix port."""

    def __init__(self, storage_dir, board="yari-9x7", clock="virtual", occupied=None,
                 slow_save_ms=0, heapsize=None, log_dir=None, firmware_dir=FIRMWARE,
                 report_styles=False):
        """`firmware_dir` holds main.py and the modules (source, or mpy-cross output);
        `heapsize` bounds MicroPython's heap like the Pico's RAM (e.g. '96K');
        `report_styles`: keep `styles` and `phase` up to date (what the view draws)."""
        self.storage_dir = storage_dir
        self.firmware_dir = firmware_dir
        self.board_path = resources.board_file(board)
        self.config = board_config.load(self.board_path)
        self.clock = clock
        self.slow_save_ms = slow_save_ms
        self.report_styles = report_styles
        self.heapsize = heapsize
        self.occupied = set(occupied_squares(self.config.variant) if occupied is None else occupied)
        self._open(log_dir, "yariboard-simboard-", "firmware.stderr")
        self.leds = {}            # square -> (r, g, b) of the last LED frame written
        self.styles = {}          # square -> LED style (ledlang row) the interpreter lights
        self.phase = ""           # the interpreter's phase (docs/firmware-interpreter.md)
        self.led_frames = 0
        self.errors = []          # complaints of the control channel
        self._ack = threading.Condition()
        self._acked = set()
        self._token = 0
        self._control = None

    # -- power ---------------------------------------------------------------------------
    def start(self, timeout=30):
        """Power up: boot the firmware with the pieces in `self.occupied`."""
        if self.process is not None:
            raise SimBoardError("already running")
        os.makedirs(self.storage_dir, exist_ok=True)
        self._drain_serial_input()
        control_r, control_w = os.pipe()
        report_r, report_w = os.pipe()
        cmd = [micropython_binary()]
        if self.heapsize:
            cmd += ["-X", "heapsize=%s" % self.heapsize]
        cmd += [os.path.join(self.firmware_dir, "main.py"), "--board", self.board_path,
                "--storage", self.storage_dir, "--clock", self.clock,
                "--control", "/dev/fd/%d" % control_r, "--report", "/dev/fd/%d" % report_w,
                "--slow-save-ms", str(self.slow_save_ms)]
        with open(self.stderr_path, "ab") as stderr:
            self.process = subprocess.Popen(
                cmd, stdin=self._master, stdout=self._master, stderr=stderr,
                pass_fds=(control_r, report_w), cwd=self.firmware_dir,
                env=dict(os.environ, MICROPYPATH=self.firmware_dir))
        os.close(control_r)
        os.close(report_w)
        self._control = control_w
        self._reader = threading.Thread(target=self._read_reports, args=(report_r,), daemon=True)
        self._reader.start()
        self._send("set " + " ".join(sorted(self.occupied))
                   + ("\nstyles" if self.report_styles else "") + "\nsync boot")
        self._wait_ack("boot", timeout)
        return self

    def kill(self):
        """Cut the power now (SIGKILL): whatever the firmware was doing stops mid-way."""
        if self.process is None:
            return
        try:
            self.process.send_signal(signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        self.process = None
        os.close(self._control)
        self._control = None
        self._reader.join(timeout=5)

    def sync(self, timeout=30):
        """Wait until the firmware has scanned everything sent so far."""
        self._token += 1
        token = "t%d" % self._token
        self._send("sync " + token)
        self._wait_ack(token, timeout)

    # -- internals -----------------------------------------------------------------------
    def _send(self, text):
        if self._control is None:
            raise SimBoardError("the board is not running")
        data = (text + "\n").encode()
        while data:
            written = os.write(self._control, data)
            data = data[written:]

    def _wait_ack(self, token, timeout):
        deadline = time.monotonic() + timeout
        with self._ack:
            while token not in self._acked:
                left = deadline - time.monotonic()
                if left <= 0 or not self.alive():
                    raise SimBoardError("no ack %r from the firmware (alive=%s):\n%s"
                                        % (token, self.alive(), self.stderr_text()[-3000:]))
                self._ack.wait(min(left, 0.2))
            self._acked.discard(token)

    def _read_reports(self, fd):
        with os.fdopen(fd, "rb") as stream:
            for line in stream:
                words = line.decode().split()
                if not words:
                    continue
                if words[0] == "ack":
                    with self._ack:
                        self._acked.add(words[1])
                        self._ack.notify_all()
                elif words[0] == "leds":
                    lit = {}
                    for item in words[1:]:
                        square, _, hexrgb = item.partition(":")
                        lit[square] = (int(hexrgb[0:2], 16), int(hexrgb[2:4], 16),
                                       int(hexrgb[4:6], 16))
                    self.leds = lit
                    self.led_frames += 1
                elif words[0] == "styles":
                    self.styles = {square: int(style) for square, _, style
                                   in (item.partition(":") for item in words[2:])}
                    self.phase = words[1]
                else:
                    self.errors.append(line.decode().strip())


class SerialClient:
    """A minimal protocol client over pyserial, for tests and scripted demos.

    The host's own link (with retries and archive resync) lives in yariboard's link module;
    this one only frames requests and collects frames.
    """

    def __init__(self, port, timeout=10.0, clock=time.monotonic):
        """`timeout`: how long a wait for a frame lasts, in seconds of `clock()` (an emulated
        board's own time, EmulatedPico.board_seconds, where a busy machine slows it)."""
        import serial

        self.serial = serial.Serial(port, 115200, timeout=0.05)
        self.timeout = timeout
        self.clock = clock
        self.seq = 0
        self.frames = []       # every good frame received, in order: (seq, verb, args)
        self.bad_lines = []
        self._buffer = b""

    def close(self):
        self.serial.close()

    def write_raw(self, data):
        self.serial.write(data)

    def send(self, *words):
        """Send a request; returns its sequence number."""
        seq = self.seq
        self.serial.write(protocol.encode(seq, words))
        self.seq = protocol.next_seq(seq)
        return seq

    def pump(self):
        """Read whatever has arrived; returns the number of new frames."""
        data = self.serial.read(1)    # waits at most the port timeout for a first byte
        if data and self.serial.in_waiting:
            data += self.serial.read(self.serial.in_waiting)
        count = 0
        if data:
            self._buffer += data
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                try:
                    self.frames.append(protocol.decode(line))
                    count += 1
                except protocol.ProtocolError:
                    self.bad_lines.append(line)
        return count

    def wait_for(self, predicate, timeout=None, start=0):
        """The first frame (from index `start`) satisfying predicate(frame); waits for it."""
        deadline = self.clock() + (timeout or self.timeout)
        index = start
        while True:
            while index < len(self.frames):
                if predicate(self.frames[index]):
                    return self.frames[index]
                index += 1
            if self.clock() > deadline:
                raise TimeoutError("no matching frame; last frames: %r" % (self.frames[-5:],))
            self.pump()

    def follow_board(self):
        """Number the next requests after the last changing one the board carried out (LAST
        of its `version` reply), as a host that connects does (docs/protocol.md): the board
        keeps LAST with its saved game, across restarts."""
        last = self.request("version")[1][4]
        self.seq = 0 if last == "-" else protocol.next_seq(int(last))

    def request(self, *words, timeout=None):
        """Send a request; returns ('ok', words after the verb) or ('err', [code, message...])."""
        mark = len(self.frames)
        seq = self.send(*words)
        reply = self.wait_for(lambda f: f[1] in ("ok", "err") and f[2] and f[2][0] == str(seq),
                              timeout, start=mark)
        if reply[1] == "ok":
            return "ok", reply[2][2:]
        return "err", reply[2][1:]

    def events(self, verb):
        return [f[2] for f in self.frames if f[1] == verb]
