"""The real board: the Raspberry Pi Pico's GPIOs, its WS2812 chain and its flash.

Everything that touches `machine` and `rp2` lives here, so the simulator (the twin,
`sim_hw.SimHardware`, with the same attributes) never loads it. Pin numbers come from
the board file.

Matrix wiring (see firmware/boardfw/config.py): to read a row, its line is driven to the
active level (low by default) while every other row line floats as an input; each column
input is pulled to the opposite level, so a closed reed switch reads the active level
through its diode. The diodes stop ghosting when several switches are closed at once.

The matrix and the buttons are read by a PIO state machine, not by the CPU: every 4 ms it
drives each row in turn and reads GPIO 0-28 at once (every column and both buttons), and a
DMA channel copies each reading into a ring in RAM. Both keep running while the CPU is
stalled by the flash chip's erases and programs (interrupts off, code unreadable), so no
change is missed then. A hard timer interrupt hands every sample in the ring to
`matrix.Watch` with its own time, counted from the PIO's fixed rate (`RingMatrix.take`).
"""
import time
from array import array
from machine import Pin, Timer, mem32
from micropython import const
from neopixel import NeoPixel
from rp2 import DMA, PIO, StateMachine, asm_pio
from uctypes import addressof

_TYPE_CHECKING = const(0)
if _TYPE_CHECKING:   # the PIO assembler's names, which asm_pio supplies while it assembles
    from rp2.asm_pio import *  # noqa: F401,F403

_SAMPLE_MS = const(4)       # between two samples of the matrix and the buttons
_SAMPLE_CYCLES = const(125)  # PIO clock cycles a sample takes: the clock runs at 31.25 kHz,
#                             32 us a cycle, so a driven row settles 32 us before it is read
_RING_SAMPLES = const(32)   # 128 ms of samples: a sector erase (45 ms, the longest stall)
#                             with room to spare before the DMA writes over an unread sample
_IN_PINS = const(29)        # GPIO 0-28: every pin a board file may use
_DREQ_PIO0_RX0 = const(4)   # the DMA's pacing signal: state machine 0 has pushed a reading
_DMA_BASE = const(0x50000000)
_AL1_CTRL = const(0x10)
_AL2_WRITE_ADDR_TRIG = const(0x2C)   # writing it restarts a channel at that address
_CHAN_ABORT = const(0x444)
# the state machine's in_base: it reads GPIO 0-28 at once, so every column and button is in
# each sample wherever the board file puts it
_GPIO_FIRST = const(0)


def _halt_channels(mask):
    """Stop the DMA channels in `mask` for good: each disabled first, so that nothing
    chained to it restarts it, then aborted, waiting until the abort is done.
    MicroPython's `DMA.close` (also run for a DMA object freed at a soft reset) only
    gives a channel back: a running one would go on writing where its buffer was."""
    for channel in range(12):
        if mask >> channel & 1:
            mem32[_DMA_BASE + 0x40 * channel + _AL1_CTRL] &= ~1   # EN
    if mask:
        mem32[_DMA_BASE + _CHAN_ABORT] = mask
        while mem32[_DMA_BASE + _CHAN_ABORT] & mask:
            pass


def _scan_program(row_pins, active_level):
    """The PIO program that samples the matrix: Y walks one bit over the rows (out_base is
    the first row pin; pins between two rows, such as the Wa board's columns, are skipped),
    each row is driven alone through its pin direction, then GPIO 0-28 are read into the
    RX FIFO; an idle loop pads the sample to exactly _SAMPLE_CYCLES."""
    runs = []                      # (rows, pins to skip after them) of consecutive row pins
    count = 1
    for i in range(1, len(row_pins) + 1):
        if i < len(row_pins) and row_pins[i] == row_pins[i - 1] + 1:
            count += 1
            continue
        runs.append((count, row_pins[i] - row_pins[i - 1] - 1 if i < len(row_pins) else 0))
        count = 1
    # (the pins in the span that are not rows stay inputs, as at reset, unless given back)
    span = row_pins[-1] - row_pins[0] + 1
    # cycles: one instruction each but the idle loop's: 3 outside the runs, one a run, 8 a
    # row, 3 a skip; the idle loop takes 2 more than `spare`
    used = 3 + sum(1 + 8 * rows + (3 if skip else 0) for rows, skip in runs)
    spare = _SAMPLE_CYCLES - used - 2
    if spare < 8:
        raise ValueError("too many rows for one sample")
    level = PIO.IN_HIGH if active_level else PIO.IN_LOW

    @asm_pio(out_init=(level,) * span, in_shiftdir=PIO.SHIFT_LEFT,
             out_shiftdir=PIO.SHIFT_RIGHT, autopush=True, push_thresh=_IN_PINS,
             fifo_join=PIO.JOIN_RX)
    def scan():
        wrap_target()
        set(y, 1)
        for run in range(len(runs)):
            rows, skip = runs[run]
            set(x, rows - 1)
            label("row%d" % run)
            mov(osr, y)
            mov(isr, null)
            out(pindirs, span)            # this row alone driven: the columns settle
            in_(pins, _IN_PINS)           # ... and are read with the buttons (autopush)
            mov(isr, y)                   # Y <<= 1, through the ISR
            in_(null, 1)
            mov(y, isr)
            jmp(x_dec, "row%d" % run)
            if skip:
                mov(isr, y)
                in_(null, skip)
                mov(y, isr)
        mov(osr, null)
        out(pindirs, span)                # every row floats again
        set(x, spare // 8 - 1)
        label("idle")
        jmp(x_dec, "idle")[7]
        nop()[spare % 8]
        wrap()

    return scan


class RingPin:
    """A button's pin as the sample being handed out read it (`value()`, 0 when pressed)."""

    def __init__(self, ring, n):
        self.ring = ring
        self.n = n

    def value(self):
        ring = self.ring
        return ring.ring[ring.at] >> self.n & 1


class RingMatrix:
    """The reed-switch matrix as the PIO samples it into a ring; `matrix.Matrix` debounces
    what `read_row` gives: the row in the sample at `at`. Nothing here allocates once set up:
    `take` runs in an interrupt."""

    def __init__(self, row_pins, col_pins, active_level=0):
        self._active = active_level
        self._rows = len(row_pins)
        self._col_pins = bytes(col_pins)
        # main.py run again in the same interpreter (from the REPL, as the benchmarks do)
        # after a run that could not `stop` (it failed while setting up) finds that run's
        # copying still at work, and after any run its program in the PIO's memory (the Wa
        # board's would leave too little room)
        stale = 0
        for channel in range(12):
            if mem32[_DMA_BASE + 0x40 * channel + _AL1_CTRL] >> 15 & 0x3F == _DREQ_PIO0_RX0:
                stale |= 1 << channel
        _halt_channels(stale)
        PIO(0).remove_program()
        self.ring = array("I", bytes(4 * len(row_pins) * _RING_SAMPLES))
        self._start = array("I", [addressof(self.ring)])   # where the ring begins again
        self._sm = StateMachine(0, _scan_program(row_pins, active_level),
                                freq=_SAMPLE_CYCLES * 1000 // _SAMPLE_MS,
                                in_base=Pin(_GPIO_FIRST), out_base=Pin(row_pins[0]))
        # one channel copies readings into the ring; at its end it chains to the other,
        # which writes the ring's start back into it and so restarts it: endless
        self._copy = DMA()
        self._rewind = DMA()
        # (the type stubs lack DMA's register attributes: channel, write)
        copy_channel = self._copy.channel  # type: ignore[attr-defined]
        rewind_channel = self._rewind.channel  # type: ignore[attr-defined]
        self._rewind.config(read=self._start,
                            write=_DMA_BASE + 0x40 * copy_channel + _AL2_WRITE_ADDR_TRIG,
                            count=1, ctrl=self._rewind.pack_ctrl(inc_read=False, inc_write=False))
        self._copy.config(read=self._sm, write=self.ring, count=len(self.ring), trigger=True,
                          ctrl=self._copy.pack_ctrl(inc_read=False, treq_sel=_DREQ_PIO0_RX0,
                                                    chain_to=rewind_channel))
        self._sm.active(1)
        self.at = 0                # the sample read_row reads: the index of its first row
        while self._written() < self._rows:
            pass                   # the first sample: the ring holds nothing before it
        self.ms = time.ticks_ms()  # that sample's time

    def stop(self):
        """No more samples, and nothing left writing into the ring once it is freed."""
        self._sm.active(0)
        copy_channel = self._copy.channel  # type: ignore[attr-defined]
        rewind_channel = self._rewind.channel  # type: ignore[attr-defined]
        _halt_channels(1 << copy_channel | 1 << rewind_channel)
        self._copy.close()
        self._rewind.close()

    def _written(self):
        """The index past the last whole sample in the ring (0 to its length)."""
        written = (self._copy.write - self._start[0]) >> 2  # type: ignore[attr-defined]
        return written - written % self._rows

    def latest(self):
        """From now on, hand out the samples after the newest one, which is read now."""
        end = self._written() or len(self.ring)
        self.at = end - self._rows
        self.ms = time.ticks_ms()

    def take(self, sample):
        """Call `sample(ms)` for each sample the DMA wrote since the last call, in order,
        `ms` its time: the PIO samples every _SAMPLE_MS exactly, whatever the CPU did."""
        rows = self._rows
        size = len(self.ring)
        end = self._written() % size
        following = (self.at + rows) % size
        while following != end:
            self.at = following
            self.ms = time.ticks_add(self.ms, _SAMPLE_MS)
            sample(self.ms)
            following = (following + rows) % size

    def read_row(self, row):
        """Bit c set when the switch at (row, c) is closed."""
        levels = self.ring[self.at + row]
        if not self._active:
            levels = ~levels
        bits = 0
        bit = 1
        for n in self._col_pins:
            if levels >> n & 1:
                bits |= bit
            bit <<= 1
        return bits


class PicoHardware:
    storage_dir = ""        # the littlefs root: the game is /game.txt
    idle_ms = 1             # pause per loop pass
    sample_ms = _SAMPLE_MS
    _timer = None

    def __init__(self, config):
        # the PIO first: it takes the pins from the first row to the last, and the pins
        # among them that are not rows are given back below
        self.matrix_pins = RingMatrix(config.row_pins, config.col_pins, config.row_active_level)
        pull = Pin.PULL_DOWN if config.row_active_level else Pin.PULL_UP
        for n in config.col_pins:
            Pin(n, Pin.IN, pull)
        # MicroPython's built-in WS2812 driver; `leds.Leds` keeps it inside the power budget
        self.strip = NeoPixel(Pin(config.led_pin, Pin.OUT), config.led_count)
        # buttons pull up; a press connects the pin to GND and reads 0
        self.button_pins = {}
        for name in config.button_pins:
            n = config.button_pins[name]
            Pin(n, Pin.IN, Pin.PULL_UP)
            self.button_pins[name] = RingPin(self.matrix_pins, n)

    def start(self, sample):
        """Call `sample(now_ms)` for every sample the PIO takes from now on, from a hard
        timer interrupt every sample_ms, whatever the main loop is doing."""
        if self._timer is not None:
            self._timer.deinit()      # a restarted controller: its own watch from now on
        self.matrix_pins.latest()
        self._sample = sample
        self._timer = Timer(-1, mode=Timer.PERIODIC, period=_SAMPLE_MS, callback=self._tick,
                            hard=True)

    def stop(self):
        """Stop the interrupt and the sampling: main.py's way out (Ctrl-C from mpremote or
        the REPL). A timer, a state machine and a DMA channel outlive the program that
        started them; a soft reset stops the first two and frees the ring, not the DMA."""
        if self._timer is not None:
            self._timer.deinit()
            self._timer = None
        self.matrix_pins.stop()

    def _tick(self, timer):
        self.matrix_pins.take(self._sample)

    def ticks_ms(self):
        return time.ticks_ms()

    def idle(self):
        time.sleep_ms(self.idle_ms)
