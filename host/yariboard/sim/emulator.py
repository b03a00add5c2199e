"""The board's real firmware image on an emulated Raspberry Pi Pico (rp2040js under Node).

`EmulatedPico` boots the stock MicroPython UF2 in tools/emulator/board.ts, with the reed-switch
matrix, the buttons and the WS2812 chain of a board file around it. Its USB serial port is a
pseudo-terminal: mpremote, `make flash` and yariboard open `EmulatedPico.port` as they open a
real board's. The flash is a file, so what littlefs committed survives `kill()` (a power cut)
and `restart()`. `EmuRig` gives it the interface of `simrig.SimRig`, so the host's simulator
commands can play through it. See docs/emulator.md.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from boardfw import config as board_config
from boardfw import ledlang
from yariboard.engines.process import cpu_seconds
from yariboard.resources import CHECKOUT, board_file
from yariboard.sim.board import PtyBoard, occupied_squares
from yariboard.board.ledstyles import channels, style_names, style_rows
from yariboard.sim.rig import SimRig, hand_actions

# A real Pico reports no styles, only the colours it lit. colour -> [(style name, longest
# dark run of its blink pattern in ns; 0: steady)], in the LED language's order.
STYLES_OF_COLOUR = {}
for _name, (_rgb, _pattern) in zip(style_names(), style_rows()):
    _dark_steps = max(len(run) for run in (_pattern + _pattern).decode().split("#"))
    STYLES_OF_COLOUR.setdefault(channels(_rgb), []).append(
        (_name, _dark_steps * ledlang.STEP_MS * 1000000))
PATTERN_NS = 8 * ledlang.STEP_MS * 1000000      # one pass of every blink pattern
DARK_SLACK_NS = 100 * 1000000                   # LED refresh and emulator timing


def led_styles(leds):
    """{square: (r, g, b)} of one decoded frame -> {square: LED style name}: each colour read
    as the first style with that colour (one frame cannot tell a blink)."""
    return {square: STYLES_OF_COLOUR[rgb][0][0] if rgb in STYLES_OF_COLOUR
            else "#%02x%02x%02x" % rgb for square, rgb in leds.items()}


def seen_styles(led_times, now_ns):
    """{square: LED style name} as a person sees the board who has watched it for the last
    second: a colour is its steady style until the square goes dark and lights again, then
    its blinking one, and a blinking square stays in the picture through its dark steps.
    `led_times`: (board ns, {square: (r, g, b)}) of every change of the LEDs, oldest first."""
    start = now_ns - PATTERN_NS
    first = 0
    for index in range(len(led_times) - 1, -1, -1):
        if led_times[index][0] <= start:
            first = index
            break
    frames = led_times[first:]
    squares = set()
    for _, leds in frames:
        squares.update(leds)
    seen = {}
    for square in squares:
        colour, longest_dark, dark_since = _watched(square, frames, start)
        style = _style_seen(colour, longest_dark,
                            0 if dark_since is None else now_ns - dark_since)
        if style is not None:
            seen[square] = style
    return seen


def _watched(square, frames, start):
    """What watching `square` through `frames` from board time `start` showed: its last
    colour, the longest dark run between two lightings in it, and since when it has been
    dark (None: lit now)."""
    colour, longest_dark, dark_since = None, 0, None
    for t, leds in frames:
        rgb = leds.get(square)
        if rgb is None:
            if colour is not None and dark_since is None:
                dark_since = max(t, start)
        elif rgb == colour:
            if dark_since is not None:
                longest_dark = max(longest_dark, t - dark_since)
            dark_since = None
        else:                       # a new colour: what came before says nothing
            colour, longest_dark, dark_since = rgb, 0, None
    return colour, longest_dark, dark_since


def _style_seen(colour, longest_dark, dark_now):
    """The style a square is seen in: `colour`, dark at most `longest_dark` ns between two
    lightings and dark for `dark_now` ns now; None when it is off."""
    styles = STYLES_OF_COLOUR.get(colour)
    if styles is None:
        return "#%02x%02x%02x" % colour
    # a blinking style whose dark steps last as long as the ones seen, and no shorter
    # than the square has been dark now
    blinking = [(abs(dark - max(longest_dark, dark_now)), name) for name, dark in styles
                if dark and dark + DARK_SLACK_NS >= dark_now]
    if blinking and (dark_now or longest_dark):
        return min(blinking)[1]
    if not dark_now:                # dark now with no blink that long: it is off
        steady = [name for name, dark in styles if not dark]
        return (steady or [styles[0][0]])[0]
    return None

EMULATOR = os.path.join(CHECKOUT, "tools", "emulator")
# Files the package registries cannot give (the UF2 and the bootrom), beside the clone.
PICO_FILES = os.environ.get("YARIBOARD_PICO_FILES", os.path.join(CHECKOUT, "..", "shared", "pico"))
# The MicroPython release the firmware is compiled for; a user flashes this UF2 onto the Pico.
MICROPYTHON_VERSION = "1.28.0"
UF2 = os.path.join(PICO_FILES, "micropython-v%s-RPI_PICO.uf2" % MICROPYTHON_VERSION)
BOOTROM = os.path.join(PICO_FILES, "bootrom.ts")
NS_PER_MS = 1000000
CLOCK_HZ = 125000000
# How long hands take over each deliberate action on the emulated Pico (a piece held up, a
# button held down): the quickest tempo of `yariboard bench hands`. The firmware reads the
# switches and buttons every 4 ms from a timer interrupt, whatever its main loop is doing
# (boardfw/matrix.py, Watch), so a change that lasts the debounce time (30 ms) is seen.
HAND_MS = 40
# How long the host waits on the emulator, in the two measures a busy machine stretches as it
# slows the emulator (a wall-clock limit runs out there): board time for what the firmware
# does (a boot takes under a second of it, main.py's imports half a second), and processor
# time of the emulator's own process for its answers on the control channel (it answers
# within a few milliseconds of its work, or after the board time queued before the question).
BOOT_BOARD_S = 30
SCANNING_BOARD_S = 60
CUT_BOARD_S = 60
EMULATOR_CPU_S = 300


class EmulatorError(RuntimeError):
    pass


# An installed copy has none of tools/: the emulator (tools/emulator), the deployment
# (tools/flash.py) and the Pico's image beside the clone come with the source checkout.
FROM_CHECKOUT = ("the emulated Pico runs from the project's source checkout: clone it, run "
                 "`make emulator` there and start yariboard from its .venv")


def missing_parts():
    """What the emulator lacks on this machine, as a one-line reason ('' when ready)."""
    if not os.path.isfile(os.path.join(EMULATOR, "board.ts")):
        return FROM_CHECKOUT
    if not shutil.which("node"):
        return "node is not installed (apt-get install nodejs npm)"
    if not os.path.isdir(os.path.join(EMULATOR, "node_modules", "rp2040js")):
        return "rp2040js is not installed (make emulator)"
    for path in (UF2, BOOTROM):
        if not os.path.exists(path):
            return "%s is missing" % path
    return ""


class EmulatedPico(PtyBoard):
    """One emulated Pico."""

    def __init__(self, flash_path, board="yari-9x7", occupied=None, realtime=False,
                 log_dir=None):
        self.flash_path = os.path.abspath(flash_path)
        self.board_path = board_file(board)
        self.config = board_config.load(self.board_path)
        self.realtime = realtime
        self.occupied = set(occupied_squares(self.config.variant) if occupied is None else occupied)
        self._open(log_dir, "emulated-pico-", "emulator.stderr")
        self.leds = {}             # square -> (r, g, b) of the last decoded WS2812 frame
        self.led_times = []        # (board ns, leds) of every change of the LEDs
        self.lifts = []            # (board ns, squares) of each lift
        # (start, end, flash chip ns within) in board ns of each stretch over 10 ms between
        # two readings of the switch matrix
        self.blind = []
        self.erases = []           # (start, end) in board ns of each flash sector erase
        self.buttons = []          # (board ns, 'pressed' | 'released', names) of each
        self.boots = 0
        self.scanning = False      # main.py has started to scan the switches since the boot
        self.usb_up = False        # the host has enumerated its USB port since the boot
        self.cut_at = None         # (board ns, cycle) of the last power cut
        self.errors = []
        self._reports = threading.Condition()
        self._answers = {}
        self._token = 0
        self._board_reading = (0.0, time.monotonic())   # (board s, wall s) when last asked
        self._board_offset = 0.0   # board s of the emulator processes before this one
        os.set_blocking(self._master, False)   # the emulator never blocks on a full pty

    # -- power -----------------------------------------------------------------------------
    def start(self):
        """Power up on the flash file (written from the UF2 the first time)."""
        if self.process is not None:
            raise EmulatorError("already running")
        why = missing_parts()
        if why:
            raise EmulatorError(why)
        os.makedirs(os.path.dirname(self.flash_path), exist_ok=True)
        self._drain_serial_input()
        self.cut_at = None
        cmd = ["node", "--import", "tsx", os.path.join(EMULATOR, "board.ts"),
               "--uf2", UF2, "--bootrom", BOOTROM, "--flash", self.flash_path,
               "--board", self.board_path, "--serial-fd", str(self._master),
               "--occupied", " ".join(sorted(self.occupied))]
        if self.realtime:
            cmd.append("--realtime")
        with open(self.stderr_path, "ab") as stderr:
            self.process = subprocess.Popen(cmd, cwd=EMULATOR, stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=stderr,
                                            pass_fds=(self._master,))
        self._reader = threading.Thread(target=self._read_reports, args=(self.process.stdout,),
                                        daemon=True)
        self._reader.start()
        return self

    def kill(self):
        """Cut the power now, wherever the emulated chip is."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._reader.join(timeout=5)
        self.process.stdin.close()
        self.process.stdout.close()
        self.process = None

    def sync(self):
        """Wait until every command sent so far has taken effect; the board time then (ns)."""
        return int(self._ask("sync")[0])

    def board_seconds(self):
        """Seconds of board time the chip has run (the clock of Link's waits on it). While
        the chip is off, or the emulator gives no answer, it goes on as the wall clock's
        from the last reading: a board that is gone is waited for no longer than a real one."""
        last, at = self._board_reading
        seconds = last + (time.monotonic() - at)
        if self.alive():
            try:
                seconds = self._board_offset + self._board_ns() / 1e9
            except EmulatorError:
                pass
            if seconds < last:   # a new emulator process: its time starts from 0 again
                self._board_offset += last - seconds
                seconds = last
        self._board_reading = (seconds, time.monotonic())
        return seconds

    def stats(self):
        """Counters of the emulated chip: board time, flash work, main-loop passes."""
        words = self._ask("stats")
        return {key: int(value) for key, value in (w.split("=") for w in words)}

    def cut_after(self, cycles):
        """Cut the power `cycles` processor cycles from now (mid-instruction stream)."""
        self._send("cut %d" % cycles)

    def cut_in_flash_operation(self, index, fraction):
        """Cut the power `fraction` of the way through the `index`-th flash erase/program from now."""
        self._send("cut flash %d %r" % (index, fraction))

    def wait_cut(self):
        """Wait for a scheduled power cut; the board stays off until start()."""
        self._await(lambda: self.process.poll() is not None,
                    "no power cut within %d s of board time" % CUT_BOARD_S, CUT_BOARD_S)
        self.kill()
        return self.cut_at

    def wait_scanning(self):
        """Wait until the firmware scans the switch matrix (main.py is running)."""
        self._await(lambda: self.scanning, "main.py did not start scanning the switches",
                    SCANNING_BOARD_S)

    def wait_booted(self, count):
        """Wait for the `count`-th power-up or reset of this emulator process, until its USB
        serial port is there (before that, what the host sends is lost, as with a real one)."""
        self._await(lambda: self.boots >= count and self.usb_up,
                    "the emulated Pico did not boot", BOOT_BOARD_S)

    # -- internals ---------------------------------------------------------------------------
    def _send(self, text):
        if not self.alive():
            raise EmulatorError("the emulated Pico is not running:\n" + self.stderr_text()[-2000:])
        self.process.stdin.write((text + "\n").encode())
        self.process.stdin.flush()

    def _ask(self, verb):
        self._token += 1
        token = "t%d" % self._token
        self._send("%s %s" % (verb, token))
        self._await(lambda: token in self._answers, "no answer to %s from the emulator" % verb)
        with self._reports:
            return self._answers.pop(token)

    def _await(self, ready, failure, board_s=None):
        """Wait until `ready()` (read under the reports' lock). Gives up with `failure` when
        the emulator ends first, once it has worked EMULATOR_CPU_S processor seconds, or
        once `board_s` seconds of board time have passed (None: no board limit)."""
        cpu_limit = self.work_seconds() + EMULATOR_CPU_S
        board_limit = []

        def given_out():
            if not self.alive() or self.work_seconds() > cpu_limit:
                return True
            if board_s is None:
                return False
            try:
                now = self._board_ns()
            except EmulatorError:
                return True
            board_limit[:] = board_limit or [now + board_s * 1e9]
            return now > board_limit[0]

        with self._reports:
            while not ready():
                if given_out() and not ready():   # (it may have ended as asked: a power cut)
                    raise EmulatorError("%s (alive=%s):\n%s"
                                        % (failure, self.alive(), self.stderr_text()[-2000:]))
                self._reports.wait(0.2)

    def _board_ns(self):
        return int(self._ask("sync")[0])

    def work_seconds(self):
        """Processor seconds the emulator's process has used (on a system without /proc,
        wall-clock seconds): a clock that never runs ahead of the wall clock's and that a
        busy machine slows as much as the emulator. (Board time can run far ahead of it: a
        chip asleep jumps to its next timer alarm, however far, as the REPL's does.)"""
        used = cpu_seconds(self.process.pid) if self.process is not None else None
        return time.monotonic() if used is None else used

    def _read_reports(self, stream):
        for raw in stream:
            words = raw.decode().split()
            if not words:
                continue
            verb = words[0]
            with self._reports:
                if verb in ("ack", "stats"):
                    self._answers[words[1]] = words[2:]
                elif verb == "leds":
                    lit = {}
                    for item in words[2:]:
                        square, _, hexrgb = item.partition(":")
                        lit[square] = tuple(int(hexrgb[i:i + 2], 16) for i in (0, 2, 4))
                    self.leds = lit
                    self.led_times.append((int(words[1]), lit))
                elif verb == "lifted":
                    self.lifts.append((int(words[1]), words[2:]))
                elif verb in ("pressed", "released"):
                    self.buttons.append((int(words[1]), verb, words[2:]))
                elif verb == "blind":
                    self.blind.append(tuple(int(w) for w in words[1:4]))
                elif verb == "erase":
                    self.erases.append((int(words[1]), int(words[2])))
                elif verb == "boot":
                    self.boots += 1
                    self.scanning = self.usb_up = False
                elif verb == "usb":
                    self.usb_up = True
                elif verb == "scanning":
                    self.scanning = True
                elif verb == "cut":
                    self.cut_at = (int(words[1]), int(words[2]))
                else:
                    self.errors.append(raw.decode().strip())
                self._reports.notify_all()


def install_firmware(flash_path, variant="yari"):
    """Put the firmware into the filesystem of the flash image at `flash_path`, as `make
    flash` puts it on a Pico (tools/flash.py --port image: mpy-cross, then the same files
    written on the host, no serial copy); raises EmulatorError if it fails."""
    why = missing_parts()
    if why:
        raise EmulatorError(why)
    with tempfile.TemporaryDirectory(prefix="yariboard-build-") as build:
        proc = subprocess.run([sys.executable, "-m", "tools.flash", "--variant", variant,
                               "--port", "image", "--flash-image", os.path.abspath(flash_path),
                               "--build-dir", build],
                              cwd=CHECKOUT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode:
        raise EmulatorError("putting the firmware into %s failed: %s"
                            % (flash_path, proc.stderr.decode(errors="replace").strip()[-500:]))


def has_firmware(flash_path):
    """Whether the flash image holds a deployed main.py (littlefs keeps names in the clear)."""
    if not os.path.exists(flash_path):
        return False
    with open(flash_path, "rb") as f:
        return b"main.py" in f.read()


class EmuRig(SimRig):
    """The emulated Pico on the desk, with hands and a cable: simrig.SimRig, with the
    emulator in place of the unix port (the port, the cable's replug, the reset, the
    arranging of the pieces and close are SimRig's).

    The first start on an empty flash file puts the firmware on first, as `make flash`
    does on a new Pico (`install_firmware`).
    """

    def __init__(self, flash_path, board="yari-9x7", clock="virtual", log_dir=None):
        self.flash_path = flash_path
        self._hold(board, clock, log_dir)

    def start(self):
        self.board = EmulatedPico(self.flash_path, board=self.board_name,
                                  realtime=self.clock == "real", log_dir=self.log_dir)
        if not has_firmware(self.flash_path):
            install_firmware(self.flash_path, self.board.config.variant)
        self.board.start()
        self.board.wait_scanning()
        self.plugged = True
        return self

    def unplug(self):
        """Pull the USB cable: the board loses power and its port is gone."""
        self.board.kill()
        self.plugged = False
        self.unplugs += 1

    def perform(self, position, move):
        """Carry out `move` on the switches and let the board settle so it commits it."""
        from boardfw.interpreter import SETTLE_MS

        touch_ms = 3 * self.board.config.debounce_ms
        lines = []
        for index, line in enumerate(hand_actions(position, move)):
            if index:
                lines.append("advance %d" % touch_ms)
            lines.append(line)
        lines.append("advance %d" % (touch_ms + SETTLE_MS + 100))
        self.board.send_commands(lines)
        self.board.sync()

    def act(self, line, after_ms=0):
        if after_ms:
            self.wait(after_ms)
        self.board.send_commands([line])

    def wait(self, ms):
        self.board.advance(ms)
        self.board.sync()

    def led_styles(self):
        """{square: LED style name}, as the decoded colours of the last second tell."""
        now = self.board.sync()
        return seen_styles(self.board.led_times, now)

    def board_seconds(self):
        """The emulated Pico's own time: a busy machine slows the chip, and with it every
        wait of the host's on it, so a slow machine is slow, never wrong."""
        return self.board.board_seconds()

    def phase(self):
        """The emulated Pico reports no interpreter phase: '' (the view then says less)."""
        return ""

    @property
    def storage_dir(self):
        return os.path.dirname(self.flash_path)
