"""The simulated board for the MicroPython unix port: the twin of `pico_hw.PicoHardware`.

Matrix, buttons and LEDs keep the interfaces of the real drivers (`read_row`, `value()`,
the strip's GRB `buf` + `write()`), so everything above them is the firmware that runs on the
Pico. Serial stays stdin/stdout (the simulator connects them to a pseudo-terminal).

The simulator drives the board through a control channel, one text line per command
(docs/simulator.md):

    set 7g 6g ...    the occupied squares, all at once (sent first, before boot)
    place 5e         a piece is put on 5e         lift 5e    a piece leaves 5e
    press A          button A goes down           release A  it comes up
    advance 40       40 ms pass (virtual clock only), scanned in steps of 10 ms
    sync TOKEN       answered `ack TOKEN` once every earlier command has been scanned
    styles           from now on, also report the LED styles (below)

and hears back on the report channel `ack TOKEN`, `leds 5e:005a00 ...` (the lit LEDs
whenever the chain is rewritten) and, once asked with `styles`, `styles PHASE 5e:0 ...` (the
interpreter's phase and the LED style of each lit square, ledlang's rows, whenever they
change: the host draws the LED language from them, blinking squares included whatever the
moment; off by default, as it allocates on every pass). The report channel is
boardfw/sim_report.py, loaded only when there is one. With a virtual clock, time moves only
by `advance`, so tests are exact and fast; with the real clock the board runs in real time.
"""
import select
import time
from micropython import const

_SCAN_STEP_MS = const(10)  # an `advance` is scanned in steps of this many ms
_IDLE_MS = const(2)        # with the real clock, the loop wakes at least this often


class SimMatrixPins:
    """Reed switches as bits, one column bitmask per row (the interface of pico_hw.RingMatrix)."""

    def __init__(self, rows):
        self.bits = [0] * rows

    def read_row(self, row):
        return self.bits[row]

    def set(self, row, col, closed):
        if closed:
            self.bits[row] |= 1 << col
        else:
            self.bits[row] &= ~(1 << col)


class SimPin:
    """A button input with pull-up: value() is 0 while pressed (the interface of machine.Pin)."""

    def __init__(self):
        self.level = 1

    def value(self):
        return self.level


class SimStrip:
    """The WS2812 chain (the interface of neopixel.NeoPixel); reports each write.

    Like NeoPixel it keeps the colours in one bytearray, `buf`, in the chain's green, red,
    blue order, which `leds.Leds` writes frames into; `strip[i]` reads and sets (r, g, b).
    """

    def __init__(self, count, on_write=None):
        self.buf = bytearray(3 * count)
        self.writes = 0
        self._on_write = on_write

    def __len__(self):
        return len(self.buf) // 3

    def __setitem__(self, index, rgb):
        i = 3 * index
        self.buf[i + 1], self.buf[i], self.buf[i + 2] = rgb

    def __getitem__(self, index):
        i = 3 * index
        return (self.buf[i + 1], self.buf[i], self.buf[i + 2])

    def write(self):
        self.writes += 1
        if self._on_write:
            self._on_write(self)


class SimHardware:
    """The simulated board, driven through the control channel files (or directly)."""

    def __init__(self, config, storage_dir, control=None, report=None, virtual_clock=True):
        self.config = config
        self.storage_dir = storage_dir
        self.matrix_pins = SimMatrixPins(config.ranks)
        self.button_pins = {}
        for name in config.button_pins:
            self.button_pins[name] = SimPin()
        self._report = None
        if report:
            from boardfw.sim_report import Report

            self._report = Report(report, config)
        self.strip = SimStrip(config.led_count, self._report and self._report.leds)
        self.virtual_clock = virtual_clock
        self.now_ms = 0
        self._advance_left = 0
        self._ack = None
        self._control = control
        self.controller = None    # set by main.py: whose LED styles to report
        self._wait = select.poll()
        if control:
            self._wait.register(control, select.POLLIN)
            self._read_commands(block=True)  # the `set` line (and a `sync`) come before boot

    def watch(self, stream):
        """Also wake the idle wait when `stream` (the serial input) has data."""
        self._wait.register(stream, select.POLLIN)

    sample_ms = 0           # no interrupt: the main loop reads the switches and buttons

    def start(self, sample):
        """No interrupts here: the main loop calls `sample` itself (sample_ms is 0)."""

    def ticks_ms(self):
        return self.now_ms if self.virtual_clock else time.ticks_ms()

    def advance(self, ms):
        # starts at 0 and never nears the ticks period in a simulator run: plain addition
        self.now_ms += ms

    def idle(self):
        """Between loop passes: answer a sync, move virtual time, or wait for input."""
        report = self._report
        if report and report.styles is not None and self.controller:
            report.report_styles(self.controller.interpreter, self.ticks_ms())
        if self._ack is not None:
            self._send("ack " + self._ack)
            self._ack = None
        if self._advance_left:
            step = min(self._advance_left, _SCAN_STEP_MS)
            self._advance_left -= step
            self.advance(step)
            return
        if self._control is None:
            if not self.virtual_clock:
                time.sleep_ms(_IDLE_MS)
            return
        if self._read_commands(block=False):
            return
        # Nothing to do: sleep until a command or serial input arrives (virtual time stands
        # still meanwhile; real time wakes up every _IDLE_MS to keep LEDs and timers going).
        for _ in self._wait.ipoll(-1 if self.virtual_clock else _IDLE_MS):
            break

    def _read_commands(self, block):
        """Apply commands up to the next `advance` or `sync`; True if any was read."""
        got = False
        while block or self._control_ready():
            block = False
            line = self._control.readline()
            if not line:
                raise SystemExit("control channel closed")
            got = True
            try:
                if self._apply(line.decode().split()):
                    break
            except (ValueError, KeyError, IndexError):   # a bad square, button or number
                self._send("error bad command " + line.decode().strip())
        return got

    def _control_ready(self):
        """Is a control line waiting? (ipoll, unlike poll, allocates nothing per pass)"""
        for entry in self._wait.ipoll(0):
            if entry[0] == self._control:
                return True
        return False

    def _apply(self, words):
        """Carry out one command; True when the loop must run before the next one."""
        if not words:
            return False
        verb = words[0]
        if verb in ("place", "lift"):
            row, col = self.config.matrix_position(words[1])
            self.matrix_pins.set(row, col, verb == "place")
        elif verb == "set":
            for row in range(len(self.matrix_pins.bits)):
                self.matrix_pins.bits[row] = 0
            for name in words[1:]:
                row, col = self.config.matrix_position(name)
                self.matrix_pins.set(row, col, True)
        elif verb in ("press", "release"):
            self.button_pins[words[1]].level = 0 if verb == "press" else 1
        elif verb == "advance":
            if self.virtual_clock:
                self._advance_left += int(words[1])
            return True
        elif verb == "styles":
            if self._report:
                self._report.styles = []
        elif verb == "sync":
            self._ack = words[1] if len(words) > 1 else "-"
            return True
        else:
            self._send("error unknown command " + verb)
        return False

    def _send(self, text):
        if self._report:   # without a report channel (the heap figures' runs) nobody hears
            self._report.send(text)
