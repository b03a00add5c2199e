"""The WS2812 chain under the squares, kept inside the USB power budget.

A frame is built straight into the strip's own byte buffer (`strip.buf`, three bytes per LED
in the chain's green, red, blue order, as MicroPython's `neopixel.NeoPixel` keeps it): no
tuple per LED and no call per LED on the way to the wire. Before it is sent, its current is
estimated from the sum of its bytes (one C-level pass); if it is above the board's
`led_budget_ma`, all colours are scaled down together, so a board lit all white still runs
from a 500 mA USB port.
Only a frame that differs from the last one written is sent; the loop rebuilds the frame
every pass (`clear`, then `set` or `fill`) and calls `show`. Frames are told apart by a
24-bit key of the calls that built them, not by a copy of the last one (a copy would take
as much RAM as the frame): a frame built by the same calls is the same frame, and a change
to any one call always changes the key.
"""
from micropython import const

_KEY_MASK = const(0xFFFFFF)   # keys stay small ints on the Pico: no allocation per call
_ALL = const(255)             # the count of LEDs lit after `fill`: every one may be
# The most LEDs whose lighting a frame keeps track of: a lifted piece's destinations, the
# last move and a check fit; a frame that lights more (a set-up) is darkened whole.
_TRACKED = const(32)


class Leds:
    """Frames for `strip` (anything with a GRB `buf` bytearray and `write()`, any length)."""

    def __init__(self, strip, config):
        self.strip = strip
        self.buf = strip.buf
        self.config = config    # led_ma_per_channel, led_idle_ma, led_budget_ma (config.py)
        # The LEDs lit since the last clear, which darkens only those; the last entry counts
        # them (_ALL: every LED, after fill or past _TRACKED). A zeroed copy of the buffer to clear from would
        # hold a frame's worth of RAM; a list emptied with `del lit[:]` allocates a slice.
        # (A board has at most 11 x 11 squares: an LED's index fits in a byte.)
        self.lit = bytearray(min(len(self.buf) // 3, _TRACKED) + 1)
        self._key = 0           # of the frame being built
        self._shown = None      # the key of the frame last written

    def clear(self):
        """Start a frame: every LED dark."""
        buf = self.buf
        lit = self.lit
        count = lit[-1]
        if count == _ALL:
            for i in range(len(buf)):
                buf[i] = 0
        else:
            for k in range(count):
                i = 3 * lit[k]
                buf[i] = buf[i + 1] = buf[i + 2] = 0
        lit[-1] = 0
        self._key = 0

    def set(self, index, rgb):
        """Light LED `index` of the chain with `rgb` (0xRRGGBB)."""
        buf = self.buf
        i = 3 * index
        buf[i] = rgb >> 8 & 255
        buf[i + 1] = rgb >> 16
        buf[i + 2] = rgb & 255
        lit = self.lit
        count = lit[-1]
        if count < len(lit) - 1:    # (else: after fill, or an LED set twice; clear darkens all)
            lit[count] = index
            lit[-1] = count + 1
        elif count != _ALL:
            lit[-1] = _ALL
        # each step is one-to-one (33 is odd), so one call made otherwise changes the key
        key = (self._key * 33 + index) & _KEY_MASK
        self._key = (key * 33 ^ rgb) & _KEY_MASK

    def fill(self, rgb):
        """Every LED the colour `rgb` (the LED test)."""
        self.buf[:] = bytes((rgb >> 8 & 255, rgb >> 16, rgb & 255)) * (len(self.buf) // 3)
        self._key = (1 << 24) + rgb   # above every key `set` makes
        self.lit[-1] = _ALL

    def show(self):
        """Write the frame just built, scaled into the budget if needed, unless it is the
        frame last written: then nothing is computed or sent (the loop calls this every
        pass). Returns the estimated current in mA of a frame written, else None."""
        if self._key == self._shown:
            return None
        self._shown = self._key
        buf = self.buf
        config = self.config
        idle = len(buf) // 3 * config.led_idle_ma
        per_level = config.led_ma_per_channel / 255   # mA drawn by one unit of one channel
        # the largest sum of channel values the budget allows
        allowed = max(0.0, config.led_budget_ma - idle) / per_level
        levels = sum(buf)
        if levels > allowed:
            scale = allowed / levels
            for i in range(len(buf)):
                buf[i] = int(buf[i] * scale)
            levels = sum(buf)
        self.strip.write()
        return idle + levels * per_level
