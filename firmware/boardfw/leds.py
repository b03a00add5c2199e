"""The WS2812 chain under the squares, kept inside the USB power budget.

Every frame is given as a bytearray of r, g, b per LED in chain order. Before it is sent,
its current is estimated from the colours; if it is above `led_budget_ma` all colours are
scaled down together, so a board lit all white still runs from a 500 mA USB port.
"""


class Leds:
    """Writes frames to `strip` (anything with `strip[i] = (r, g, b)` and `write()`)."""

    def __init__(self, strip, count, ma_per_channel, idle_ma, budget_ma):
        self.strip = strip
        self.count = count
        self.ma_per_channel = ma_per_channel  # mA drawn by one channel at full 255
        self.idle_ma = idle_ma                # mA drawn by one dark LED
        self.budget_ma = budget_ma
        self.estimate_ma = 0                  # estimate for the frame last written
        self._shown = bytearray(3 * count)
        self._written = False

    def show(self, frame):
        """Write `frame` (3 * count bytes) to the chain, scaled to the budget if needed.

        Returns the estimated current in mA of what was actually written.
        """
        if self._written and frame == self._shown:
            return self.estimate_ma
        idle = self.count * self.idle_ma
        lit = sum(frame) * self.ma_per_channel / 255
        scale = 1.0
        if idle + lit > self.budget_ma and lit > 0:
            scale = max(0.0, self.budget_ma - idle) / lit
        strip = self.strip
        for i in range(self.count):
            j = 3 * i
            if scale < 1.0:
                strip[i] = (int(frame[j] * scale), int(frame[j + 1] * scale), int(frame[j + 2] * scale))
            else:
                strip[i] = (frame[j], frame[j + 1], frame[j + 2])
        strip.write()
        self._shown[:] = frame
        self._written = True
        self.estimate_ma = idle + lit * scale
        return self.estimate_ma
