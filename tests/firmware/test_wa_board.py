"""The Wa Shogi board's drivers on the MicroPython unix port: the 11 x 11 matrix with its
two-digit files, every pin of its board file (GP26-GP28 and GP1 included) and the LED
current cap with 121 LEDs on USB power."""
import pytest
import json
import os

from tests.mpy import ROOT
from tests.firmware.test_firmware_drivers import FAKE_PICO, TAKE_SAMPLES, micropython_json

pytestmark = [pytest.mark.micropython]

WA_BOARD = "../hardware/boards/wa-11x11.json"


def wa_data():
    with open(os.path.join(ROOT, "hardware", "boards", "wa-11x11.json")) as stream:
        return json.load(stream)


def test_the_matrix_debounces_the_eleventh_row_and_column():
    reported = micropython_json("""
from boardfw.matrix import Matrix
from boardfw.requests import _bitmap
from boardfw.sim_hw import SimMatrixPins
from boardfw import config
c = config.load('%s')
class Changes:
    # what the matrix rings (matrix.Watch.append), as (row, col, closed)
    def __init__(self):
        self.items = []
    def append(self, code, t):
        row, col = divmod(code & 255, c.files)
        self.items.append((row, col, bool(code & 256)))
        return True
pins = SimMatrixPins(c.ranks)
m = Matrix(pins, c.ranks, c.files, c.debounce_ms)
m.prime(0)
out = []
pins.set(10, 10, True); pins.set(10, 0, True); pins.set(0, 10, True)
for t in range(0, 100, 10):
    changes = Changes()
    m.scan(t, changes)
    out += [[t, c.square_name_at(r, col), closed] for r, col, closed in changes.items]
print(json.dumps([out, _bitmap(m, m.stable) == (1 << 120 | 1 << 110 | 1 << 10)]))
""" % WA_BOARD)
    changes, bitmap_ok = reported
    debounce = wa_data()["debounce_ms"]
    assert sorted(changes) == [[debounce, "11k", True], [debounce, "1a", True],
                               [debounce, "1k", True]]
    assert bitmap_ok    # the sensor dump's bit row * 11 + col, all 121 squares in one number


def test_the_pio_ring_reads_all_eleven_rows_and_columns_on_the_wa_pins():
    result = micropython_json(FAKE_PICO + """
from boardfw import config
from boardfw.pico_hw import PicoHardware
c = config.load('%s')
Circuit.cols = c.col_pins
Pio.rows = c.row_pins
# the corners, the two rows on GP26/GP27 and the two columns on GP28/GP1
Circuit.closed = {(c.row_pins[0], c.col_pins[0]), (c.row_pins[0], c.col_pins[10]),
                  (c.row_pins[9], c.col_pins[9]), (c.row_pins[10], c.col_pins[10]),
                  (c.row_pins[10], c.col_pins[0])}
hw = PicoHardware(c)
""" % WA_BOARD + TAKE_SAMPLES + """
hw.start(sample)
Pio.run(3)
hw._tick(None)
print(json.dumps(taken))
""")
    expected = [1 | 1 << 10] + [0] * 8 + [1 << 9, 1 | 1 << 10]
    assert [rows for _, rows, _ in result] == [expected] * 3


def test_pico_hardware_takes_all_25_pins_and_121_leds_from_the_wa_board_file():
    result = micropython_json(FAKE_PICO + """
from boardfw import config
from boardfw.pico_hw import PicoHardware
c = config.load('%s')
Circuit.cols = c.col_pins
Pio.rows = c.row_pins
hw = PicoHardware(c)
sm = [entry for entry in Circuit.log if entry[0] == 'sm'][0]
given_back = [entry[1] for entry in Circuit.log[Circuit.log.index(sm):] if entry[0] == 'pin']
print(json.dumps([sm[4], len(sm[5]['out_init']), given_back, hw.strip.pin.n, hw.strip.count,
                  dict((name, hw.button_pins[name].n) for name in hw.button_pins)]))
""" % WA_BOARD)
    out_base, out_pins, given_back, led_pin, led_count, buttons = result
    data = wa_data()
    rows, cols = data["row_pins"], data["col_pins"]
    # the PIO drives GP2 to GP27 (the rows); the columns, LED and buttons among them are
    # given back to the CPU's pins once it has them
    assert (out_base, out_pins) == (2, 26)
    assert sorted(given_back) == sorted(cols + [led_pin] + list(buttons.values()))
    assert led_pin == data["led_pin"] and led_count == 121
    assert buttons == data["buttons"]
    assert len(set(rows + cols + [led_pin] + list(buttons.values()))) == 25


def test_121_leds_at_full_white_stay_within_the_usb_budget():
    data = wa_data()
    result = micropython_json("""
from boardfw.leds import Leds
from boardfw.sim_hw import SimStrip
from boardfw import config
c = config.load('%s')
strip = SimStrip(c.led_count)
leds = Leds(strip, c)
leds.clear()
leds.fill(0xFFFFFF)
leds.show()
print(json.dumps([strip[i] for i in range(len(strip))]))
""" % WA_BOARD)
    count = len(result)
    current = (count * data["led_idle_ma"]
               + sum(map(sum, result)) * data["led_ma_per_channel"] / 255)
    assert count == 121
    assert count * (data["led_idle_ma"] + 3 * data["led_ma_per_channel"]) > 10 * data["usb_limit_ma"]
    assert current <= data["led_budget_ma"]
    assert current > 0.9 * data["led_budget_ma"]      # dimmed, not switched off
    assert current + data["pico_ma"] <= data["usb_limit_ma"]


def test_every_wa_piece_that_can_be_dropped_has_a_drop_choice_colour_of_its_own():
    from boardfw import ledlang
    from shogicore.variants import variant_by_name
    from yariboard.board.ledstyles import style_names, style_rows

    wa = variant_by_name("wa")
    styles = [ledlang.drop_choice(wa.symbol(kind)) for kind in wa.hand_kinds]
    assert len(styles) == 16
    for kind, style in zip(wa.hand_kinds, styles):
        assert style_names()[style] == "choice-" + wa.symbol(kind)
    # the colour tells the offered piece apart from the other Wa pieces
    assert len({style_rows()[style][0] for style in styles}) == len(styles)
