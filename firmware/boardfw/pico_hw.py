"""The real board: the Raspberry Pi Pico's GPIOs, its WS2812 chain and its flash.

Everything that touches `machine` lives here, so the simulator (the twin,
`sim_hw.SimHardware`, with the same attributes) never loads it. Pin numbers come from
the board file.

Matrix wiring (see firmware/boardfw/config.py): to read a row, its line is driven to the
active level (low by default) while every other row line floats as an input; each column
input is pulled to the opposite level, so a closed reed switch reads the active level
through its diode. The diodes stop ghosting when several switches are closed at once.
"""
import time

from machine import Pin
from neopixel import NeoPixel


class PinMatrix:
    """The reed-switch matrix on the Pico's GPIOs; `matrix.Matrix` debounces what it reads."""

    def __init__(self, row_pins, col_pins, active_level=0):
        self._active = active_level
        self._rows = [Pin(n, Pin.IN) for n in row_pins]
        pull = Pin.PULL_UP if active_level == 0 else Pin.PULL_DOWN
        self._cols = [Pin(n, Pin.IN, pull) for n in col_pins]

    def read_row(self, row):
        """Bit c set when the switch at (row, c) is closed."""
        pin = self._rows[row]
        pin.init(Pin.OUT, value=self._active)
        time.sleep_us(5)  # let the column lines settle through the diodes
        bits = 0
        bit = 1
        active = self._active
        for col in self._cols:
            if col.value() == active:
                bits |= bit
            bit <<= 1
        pin.init(Pin.IN)
        return bits


class PicoHardware:
    storage_dir = ""        # the littlefs root: the game is /game.txt
    idle_ms = 1             # pause per loop pass; a full scan takes well under 1 ms

    def __init__(self, config):
        self.matrix_pins = PinMatrix(config.row_pins, config.col_pins, config.row_active_level)
        # MicroPython's built-in WS2812 driver; `leds.Leds` keeps it inside the power budget
        self.strip = NeoPixel(Pin(config.led_pin, Pin.OUT), config.led_count)
        # buttons pull up; a press connects the pin to GND and reads 0
        self.button_pins = {}
        for name in config.button_pins:
            self.button_pins[name] = Pin(config.button_pins[name], Pin.IN, Pin.PULL_UP)

    def ticks_ms(self):
        return time.ticks_ms()

    def idle(self):
        time.sleep_ms(self.idle_ms)
