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
import threading
import time

from boardfw import config as board_config
from boardfw import ledlang
from yariboard.resources import CHECKOUT, board_file
from yariboard.sim.board import PtyBoard, occupied_squares
from yariboard.board.ledstyles import channels, style_names
from yariboard.sim.rig import SimRig, hand_actions

# A real Pico reports no styles, only the colours it lit. colour -> [(style name, longest
# dark run of its blink pattern in ns; 0: steady)], in the LED language's order.
STYLES_OF_COLOUR = {}
for _name, (_rgb, _pattern) in zip(style_names(), ledlang.TABLE):
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
        styles = STYLES_OF_COLOUR.get(colour)
        if styles is None:
            seen[square] = "#%02x%02x%02x" % colour
            continue
        dark_now = 0 if dark_since is None else now_ns - dark_since
        # a blinking style whose dark steps last as long as the ones seen, and no shorter
        # than the square has been dark now
        blinking = [(abs(dark - max(longest_dark, dark_now)), name) for name, dark in styles
                    if dark and dark + DARK_SLACK_NS >= dark_now]
        if blinking and (dark_now or longest_dark):
            seen[square] = min(blinking)[1]
        elif not dark_now:              # dark now with no blink that long: it is off
            steady = [name for name, dark in styles if not dark]
            seen[square] = (steady or [styles[0][0]])[0]
    return seen

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

    def sync(self, timeout=120):
        """Wait until every command sent so far has taken effect; the board time then (ns)."""
        return int(self._ask("sync", timeout)[0])

    def board_seconds(self):
        """Seconds of board time the chip has run (the clock of Link's waits on it). While
        the chip is off, or gives no answer for a minute, it goes on as the wall clock's
        from the last reading: a board that is gone is waited for no longer than a real one."""
        last, at = self._board_reading
        seconds = last + (time.monotonic() - at)
        if self.alive():
            try:
                seconds = self._board_offset + self.stats()["ns"] / 1e9
            except EmulatorError:
                pass
            if seconds < last:   # a new emulator process: its time starts from 0 again
                self._board_offset += last - seconds
                seconds = last
        self._board_reading = (seconds, time.monotonic())
        return seconds

    def stats(self, timeout=60):
        """Counters of the emulated chip: board time, flash work, main-loop passes."""
        words = self._ask("stats", timeout)
        return {key: int(value) for key, value in (w.split("=") for w in words)}

    def cut_after(self, cycles):
        """Cut the power `cycles` processor cycles from now (mid-instruction stream)."""
        self._send("cut %d" % cycles)

    def cut_in_flash_operation(self, index, fraction):
        """Cut the power `fraction` of the way through the `index`-th flash erase/program from now."""
        self._send("cut flash %d %r" % (index, fraction))

    def wait_cut(self, timeout=300):
        """Wait for a scheduled power cut; the board stays off until start()."""
        deadline = time.monotonic() + timeout
        while self.process.poll() is None:
            if time.monotonic() > deadline:
                raise EmulatorError("no power cut within %d s" % timeout)
            time.sleep(0.05)
        self.kill()
        return self.cut_at

    def wait_scanning(self, timeout=120):
        """Wait until the firmware scans the switch matrix (main.py is running)."""
        deadline = time.monotonic() + timeout
        with self._reports:
            while not self.scanning:
                if time.monotonic() > deadline or not self.alive():
                    raise EmulatorError("main.py did not start scanning the switches:\n"
                                        + self.stderr_text()[-2000:])
                self._reports.wait(0.2)

    def wait_booted(self, count, timeout=120):
        """Wait for the `count`-th power-up or reset of this emulator process, until its USB
        serial port is there (before that, what the host sends is lost, as with a real one)."""
        deadline = time.monotonic() + timeout
        with self._reports:
            while self.boots < count or not self.usb_up:
                if time.monotonic() > deadline or not self.alive():
                    raise EmulatorError("the emulated Pico did not boot:\n" + self.stderr_text()[-2000:])
                self._reports.wait(0.2)

    # -- internals ---------------------------------------------------------------------------
    def _send(self, text):
        if not self.alive():
            raise EmulatorError("the emulated Pico is not running:\n" + self.stderr_text()[-2000:])
        self.process.stdin.write((text + "\n").encode())
        self.process.stdin.flush()

    def _ask(self, verb, timeout):
        self._token += 1
        token = "t%d" % self._token
        self._send("%s %s" % (verb, token))
        deadline = time.monotonic() + timeout
        with self._reports:
            while token not in self._answers:
                left = deadline - time.monotonic()
                if left <= 0 or not self.alive():
                    raise EmulatorError("no answer to %s from the emulator (alive=%s):\n%s"
                                        % (verb, self.alive(), self.stderr_text()[-2000:]))
                self._reports.wait(min(left, 0.2))
            return self._answers.pop(token)

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


def deploy(port, variant="yari", build_dir=None):
    """`make flash` onto the Pico at `port`: mpy-cross, then mpremote; returns the exit status."""
    cmd = [sys.executable, "-m", "tools.flash", "--variant", variant, "--port", port]
    if build_dir:
        cmd += ["--build-dir", build_dir]
    try:
        return subprocess.run(cmd, cwd=CHECKOUT, stdout=subprocess.DEVNULL, timeout=600).returncode
    except subprocess.TimeoutExpired:
        return 1


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

    The first start on an empty flash file deploys the firmware with `make flash`'s
    commands, as a user does with a new Pico.
    """

    def __init__(self, flash_path, board="yari-9x7", clock="virtual", log_dir=None):
        self.flash_path = flash_path
        self._hold(board, clock, log_dir)

    def start(self):
        fresh = not has_firmware(self.flash_path)
        self.board = EmulatedPico(self.flash_path, board=self.board_name,
                                  realtime=self.clock == "real", log_dir=self.log_dir).start()
        if fresh:
            self.board.wait_booted(1)
            variant = self.board.config.variant
            if deploy(self.board.port, variant):
                raise EmulatorError("deploying the firmware onto the emulated Pico failed")
            self.board.wait_booted(2)
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
