"""Reed-switch matrix: debounce every switch of a scanned matrix, report settled changes.

The rows are read by `pico_hw.PinMatrix` on the board, `sim_hw.SimMatrixPins` in the
simulator; this module only sees column bitmasks.
"""
from array import array


class Matrix:
    """Debounced view of a matrix `reader` (anything with `read_row(row) -> bits`).

    A switch counts as changed only once it has read the same new value on every scan
    for `debounce_ms`; shorter flickers are ignored. A scan reads each row once and
    never waits, so the main loop stays free for serial and LEDs.
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

    def scan(self, now_ms, changes):
        """Read all rows; append (row, col, closed) to `changes` for each settled change."""
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
                self._settle(row, bits, now_ms, changes)

    def _settle(self, row, bits, now_ms, changes):
        pending = bits ^ self.stable[row]
        base = row * self.cols
        for col in range(self.cols):
            if pending >> col & 1 and (now_ms - self._since[base + col]) & 0xFFFF >= self.debounce_ms:
                self.stable[row] ^= 1 << col
                self._unsettled -= 1
                changes.append((row, col, bool(bits >> col & 1)))

    def closed(self, row, col):
        return bool(self.stable[row] >> col & 1)

    def bitmap(self, rows_state):
        """All rows of `rows_state` (self.raw or self.stable) as one int, bit row*cols+col."""
        value = 0
        for row in range(self.rows - 1, -1, -1):
            value = value << self.cols | rows_state[row]
        return value
