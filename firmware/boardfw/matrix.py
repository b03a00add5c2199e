"""Reed-switch matrix: debounce every switch of a scanned matrix, report settled changes.

The rows are read by `pico_hw.RingMatrix` on the board, `sim_hw.SimMatrixPins` in the
simulator; this module only sees column bitmasks.

The pieces and buttons are watched while the main loop is busy (`Watch`). Every sample of
the matrix and the buttons is `Watch.scan(now_ms)`: a switch or a button whose new value
has read the same on every sample for its debounce time is written, with the time it
settled, into a ring of events that the main loop takes in order (`Watch.pop`). On the Pico
a PIO state machine samples every `PicoHardware.sample_ms` into a ring in RAM, and a hard
timer interrupt hands each sample here with its own time, so a commit, a save, a garbage
collection, a new game, the start-up and even the flash chip's erases and programs (which
stop the CPU) leave the board watched (docs/emulator.md has the figures). On the unix port
the main loop samples once a pass. Sampling runs in an interrupt: it allocates nothing.
"""
from array import array
from micropython import const

_RING = const(16)         # events between two passes of the main loop; far more than hands make
# Event codes: a switch's row * cols + col, or _BUTTON + a button's index in Buttons.buttons;
# plus _CLOSED when it closed or was pressed. (buttons.py and controller.py share them.)
_CLOSED = const(0x100)
_BUTTON = const(0x200)


class Matrix:
    """Debounced view of a matrix `reader` (anything with `read_row(row) -> bits`).

    A switch counts as changed only once it has read the same new value on every scan
    over `debounce_ms` (the board's debounce time less two steps between scans: a change
    that lasts the board's debounce time is read that long); shorter flickers are ignored. A scan
    reads each row once, never waits and allocates nothing: it runs in an interrupt.
    """

    def __init__(self, reader, rows, cols, debounce_ms):
        self.reader = reader
        self.rows = rows
        self.cols = cols
        self.debounce_ms = debounce_ms
        self.raw = [0] * rows        # last reading, one column bitmask per row
        self.stable = [0] * rows     # debounced state
        # ticks_ms & 0xFFFF when each switch's raw value last changed: a change settles
        # within debounce_ms of the next scans, long before 16 bits of milliseconds wrap
        self._since = array("H", bytes(2 * rows * cols))
        self._unsettled = 0          # number of switches whose raw value differs from stable

    def prime(self, now_ms):
        """Take the current reading as settled (at boot, before there is any history)."""
        for row in range(self.rows):
            bits = self.reader.read_row(row)
            self.raw[row] = bits
            self.stable[row] = bits
        self._unsettled = 0

    def scan(self, now_ms, out):
        """Read all rows; `out.append` (Watch) each settled change: code row * cols + col,
        plus _CLOSED when it closed."""
        cols = self.cols
        for row in range(self.rows):
            bits = self.reader.read_row(row)
            moved = bits ^ self.raw[row]
            if moved:
                self.raw[row] = bits
                base = row * cols
                for col in range(cols):
                    if moved >> col & 1:
                        self._since[base + col] = now_ms & 0xFFFF
                        if (bits ^ self.stable[row]) >> col & 1:
                            self._unsettled += 1
                        else:
                            self._unsettled -= 1
            if self._unsettled and bits != self.stable[row]:
                self._settle(row, bits, now_ms, out)

    def _settle(self, row, bits, now_ms, out):
        pending = bits ^ self.stable[row]
        base = row * self.cols
        for col in range(self.cols):
            if (pending >> col & 1 and (now_ms - self._since[base + col]) & 0xFFFF >= self.debounce_ms
                    and out.append(base + col | (bits >> col & 1) << 8, now_ms)):
                self.stable[row] ^= 1 << col
                self._unsettled -= 1

    def closed(self, row, col):
        return bool(self.stable[row] >> col & 1)


class Watch:
    """The sampling of `matrix` (Matrix) and `buttons` (buttons.Buttons) and the ring of
    their settled changes. `blind_end`: when the last stretch between two samples longer
    than half the matrix's debounce_ms ended (None: none yet), as a change inside such a
    stretch can go unseen. (Its names are ones the firmware has already: each new name costs RAM.)"""

    def __init__(self, matrix, buttons):
        self.matrix = matrix
        self.buttons = buttons
        # code, then ticks_ms & 0xFFFF when it settled, of each event
        self.buf = array("H", bytes(4 * _RING))   # the ring
        self.end = 0              # where the next event goes: written by `scan` only
        self.first = 0            # the oldest event not taken: written by `pop` only
        self.blind_end = None
        self.now_ms = None        # when the last sample was taken

    def scan(self, now_ms):
        """Read the matrix and the buttons once; ring the changes that settled."""
        last = self.now_ms
        # (a stretch over half the readings a change must last may hide one: on the Pico
        # the samples are 4 ms apart whatever the CPU does; on the unix port a slow pass)
        if last is not None and (now_ms - last) & 0x3FFFFFFF > self.matrix.debounce_ms // 2:
            self.blind_end = now_ms
        self.now_ms = now_ms
        self.matrix.scan(now_ms, self)
        self.buttons.scan(now_ms, self)

    def append(self, value, now_ms):
        """Ring one settled change, `value` its event code; False when the ring is full (the
        change then stays unsettled and is rung by a later sample: late, never lost)."""
        end = self.end
        following = (end + 1) % _RING
        if following == self.first:
            return False
        ring = self.buf
        ring[2 * end] = value
        ring[2 * end + 1] = now_ms & 0xFFFF
        self.end = following
        return True

    def pop(self, now_ms):
        """The oldest event as (code, board ms when it settled), or None. The code is a
        switch's row * cols + col, or _BUTTON + a button's index, plus _CLOSED when it closed
        or was pressed. (Called by the main loop only.)"""
        first = self.first
        if first == self.end:
            return None
        ring = self.buf
        # the time in full from its 16 bits: events are taken within a second or so
        ago = (now_ms - ring[2 * first + 1]) & 0xFFFF
        if ago >= 0x8000:      # settled after `now_ms` was read
            ago = 0
        event = (ring[2 * first], (now_ms - ago) & 0x3FFFFFFF)
        self.first = (first + 1) % _RING
        return event
