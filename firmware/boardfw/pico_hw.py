"""The real board: the Raspberry Pi Pico's GPIOs, its WS2812 chain and its flash.

Everything that touches `machine` lives here, so the simulator (the twin,
`sim_hw.SimHardware`, with the same attributes) never loads it. Pin numbers come from
the board file.

Matrix wiring (see firmware/boardfw/config.py): to read a row, its line is driven to the
active level (low by default) while every other row line floats as an input; each column
input is pulled to the opposite level, so a closed reed switch reads the active level
through its diode. The diodes stop ghosting when several switches are closed at once.

The matrix and the buttons are read in a hard timer interrupt every 4 ms (matrix.Watch),
through the SIO registers: a row is driven by enabling its output (its level is set once),
and one read of GPIO_IN gives every column.
"""
import time
from machine import Pin, Timer, mem32
from micropython import const
from neopixel import NeoPixel

_SAMPLE_MS = const(4)           # between two readings of the matrix and the buttons
_GPIO_IN = const(0xD0000004)    # SIO registers (RP2040 datasheet 2.3.1.7)
_GPIO_OUT_SET = const(0xD0000014)
_GPIO_OUT_CLR = const(0xD0000018)
_GPIO_OE_SET = const(0xD0000024)
_GPIO_OE_CLR = const(0xD0000028)


class PinMatrix:
    """The reed-switch matrix on the Pico's GPIOs; `matrix.Matrix` debounces what it reads.
    `read_row` allocates nothing: it runs in an interrupt."""

    def __init__(self, row_pins, col_pins, active_level=0):
        self._active = active_level
        self._rows = [Pin(n, Pin.IN) for n in row_pins]   # SIO function, output disabled
        self._row_bits = [1 << n for n in row_pins]
        pull = Pin.PULL_UP if active_level == 0 else Pin.PULL_DOWN
        self._cols = [Pin(n, Pin.IN, pull) for n in col_pins]
        self._col_pins = bytes(col_pins)
        mask = 0
        for n in row_pins:
            mask |= 1 << n
        mem32[_GPIO_OUT_SET if active_level else _GPIO_OUT_CLR] = mask

    def read_row(self, row):
        """Bit c set when the switch at (row, c) is closed."""
        bit = self._row_bits[row]
        mem32[_GPIO_OE_SET] = bit
        time.sleep_us(5)  # let the column lines settle through the diodes
        levels = mem32[_GPIO_IN]
        mem32[_GPIO_OE_CLR] = bit
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
        self.matrix_pins = PinMatrix(config.row_pins, config.col_pins, config.row_active_level)
        # MicroPython's built-in WS2812 driver; `leds.Leds` keeps it inside the power budget
        self.strip = NeoPixel(Pin(config.led_pin, Pin.OUT), config.led_count)
        # buttons pull up; a press connects the pin to GND and reads 0
        self.button_pins = {}
        for name in config.button_pins:
            self.button_pins[name] = Pin(config.button_pins[name], Pin.IN, Pin.PULL_UP)

    def start(self, sample):
        """Call `sample(now_ms)` every sample_ms from a hard timer interrupt, whatever the
        main loop is doing."""
        if self._timer is not None:
            self._timer.deinit()      # a restarted controller: its own watch from now on
        self._sample = sample
        self._timer = Timer(-1, mode=Timer.PERIODIC, period=_SAMPLE_MS, callback=self._tick,
                            hard=True)

    def _tick(self, timer):
        self._sample(time.ticks_ms())

    def ticks_ms(self):
        return time.ticks_ms()

    def idle(self):
        time.sleep_ms(self.idle_ms)
