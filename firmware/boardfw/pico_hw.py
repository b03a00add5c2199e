"""The real board: the Raspberry Pi Pico's GPIOs, its WS2812 chain and its flash.

`sim_hw.SimHardware` is the twin with the same attributes for the MicroPython unix port.
"""
import time

from boardfw.buttons import pico_button_pins
from boardfw.leds import pico_strip
from boardfw.matrix import PinMatrix


class PicoHardware:
    storage_dir = ""        # the littlefs root: the game is /game.txt
    idle_ms = 1             # pause per loop pass; a full scan takes well under 1 ms

    def __init__(self, config):
        self.matrix_pins = PinMatrix(config.row_pins, config.col_pins, config.row_active_level)
        self.strip = pico_strip(config.led_pin, config.led_count)
        self.button_pins = pico_button_pins(config.button_pins)

    def ticks_ms(self):
        return time.ticks_ms()

    def idle(self):
        time.sleep_ms(self.idle_ms)
