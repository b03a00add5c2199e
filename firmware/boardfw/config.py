"""Board configuration: pins, matrix orientation and LED order, read from the board file.

The board file (hardware/boards/*.json, copied to the Pico as /board.json) is the one place
where the wiring is written down; the firmware, the host tools and the hardware documents all
read it through `load`, which checks it and returns a `board.Board`. Runs unchanged on
MicroPython and CPython. The firmware reads the file once per power-up and then unloads
this module (main.py): its checks are most of its size.

Wiring conventions the drivers rely on (see hardware/BUILD.md):
- matrix: the selected row line is driven to `row_active_level` (0 by default), the other
  rows are left as inputs; column lines are inputs pulled to the opposite level, so a closed
  reed switch reads `row_active_level` on its column. Each switch has a diode pointing into
  its row line (anode on the column side when rows are driven low).
- buttons: inputs with pull-ups, a press connects the pin to GND (reads 0).
- LED current: a frame costs `led_count * led_idle_ma` plus, per colour channel,
  `value / 255 * led_ma_per_channel`; the LED driver scales frames to stay within
  `led_budget_ma`, so `pico_ma + led_budget_ma` never exceeds `usb_limit_ma`.
"""
import json
from micropython import const

from boardfw.board import Board

_RANK_LETTERS = const("abcdefghijk")

_REQUIRED_KEYS = const((
    "name", "variant", "files", "ranks",
    "row_pins", "row_ranks", "col_pins", "col_files",
    "led_pin", "led_chain", "buttons", "debounce_ms",
    "led_ma_per_channel", "led_idle_ma", "led_budget_ma", "pico_ma", "usb_limit_ma",
))


class _Check:
    """Fills a Board from the board file's data; the first thing wrong raises ValueError."""

    def __init__(self, data, source):
        self.source = source
        for key in _REQUIRED_KEYS:
            if key not in data:
                self._fail("missing key '%s'" % key)
        b = self.board = Board()
        b.name = self._text(data, "name")
        b.variant = self._text(data, "variant")
        b.files = self._count(data, "files")
        b.ranks = self._count(data, "ranks")
        b.row_pins = self._pin_list(data, "row_pins", b.ranks)
        b.col_pins = self._pin_list(data, "col_pins", b.files)
        b.led_pin = self._pin(data["led_pin"], "led_pin")
        b.button_pins = self._buttons(data["buttons"])
        self._check_pins_unique()
        b.row_ranks = self._row_ranks(data["row_ranks"])
        b.col_files = self._col_files(data["col_files"])
        b.row_active_level = data.get("row_active_level", 0)
        if b.row_active_level not in (0, 1):
            self._fail("row_active_level must be 0 or 1")
        b.led_count = b.files * b.ranks
        b.led_cells = self._led_chain(data["led_chain"])
        b.debounce_ms = self._number(data, "debounce_ms", False)
        b.led_ma_per_channel = self._number(data, "led_ma_per_channel", False)
        b.led_idle_ma = self._number(data, "led_idle_ma", True)
        b.led_budget_ma = self._number(data, "led_budget_ma", False)
        b.pico_ma = self._number(data, "pico_ma", True)
        b.usb_limit_ma = self._number(data, "usb_limit_ma", False)
        # the LEDs' budget and the Pico's own draw must fit what the USB port gives
        if b.pico_ma + b.led_budget_ma > b.usb_limit_ma:
            self._fail("pico_ma + led_budget_ma (%s mA) exceeds usb_limit_ma (%s mA)"
                       % (b.pico_ma + b.led_budget_ma, b.usb_limit_ma))
        if b.led_count * b.led_idle_ma > b.led_budget_ma:
            self._fail("dark LEDs alone draw %s mA, more than led_budget_ma"
                       % (b.led_count * b.led_idle_ma))

    def _fail(self, message):
        raise ValueError("%s: %s" % (self.source, message))

    def _text(self, data, key):
        value = data[key]
        if not isinstance(value, str) or not value:
            self._fail("%s must be a non-empty string" % key)
        return value

    def _count(self, data, key):
        """Files and ranks: square names are a file 1-11 and a rank letter a-k."""
        value = data[key]
        if not _is_int(value) or not 1 <= value <= 11:
            self._fail("%s must be a whole number from 1 to 11" % key)
        return value

    def _number(self, data, key, zero_allowed):
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self._fail("%s must be a number" % key)
        if value < 0 or (value == 0 and not zero_allowed):
            self._fail("%s must be %s" % (key, "zero or more" if zero_allowed else "more than zero"))
        return value

    def _pin(self, value, what):
        # The Pico's header brings out GP0-GP22 and GP26-GP28; GP23, GP24, GP25 and GP29 are
        # wired to the power supply, VBUS sense, the on-board LED and VSYS sense on the board.
        if not _is_int(value) or not (0 <= value <= 22 or 26 <= value <= 28):
            self._fail("%s: %r is not a usable Pico GPIO (GP0-GP22, GP26-GP28)" % (what, value))
        return value

    def _pin_list(self, data, key, count):
        pins = data[key]
        if not isinstance(pins, list) or len(pins) != count:
            self._fail("%s must list %d GPIOs" % (key, count))
        return [self._pin(pins[i], "%s[%d]" % (key, i)) for i in range(count)]

    def _buttons(self, buttons):
        if not isinstance(buttons, dict) or not buttons:
            self._fail("buttons must map button names to GPIOs")
        pins = {}
        for name in buttons:
            pins[name] = self._pin(buttons[name], "buttons.%s" % name)
        return pins

    def _check_pins_unique(self):
        b = self.board
        owner = {}
        uses = [("row_pins[%d]" % i, p) for i, p in enumerate(b.row_pins)]
        uses += [("col_pins[%d]" % i, p) for i, p in enumerate(b.col_pins)]
        uses.append(("led_pin", b.led_pin))
        uses += [("buttons.%s" % name, b.button_pins[name]) for name in sorted(b.button_pins)]
        for what, pin in uses:
            if pin in owner:
                self._fail("GPIO %d used twice (%s and %s)" % (pin, owner[pin], what))
            owner[pin] = what

    def _row_ranks(self, row_ranks):
        ranks = self.board.ranks
        wanted = _RANK_LETTERS[:ranks]
        if (not isinstance(row_ranks, list) or len(row_ranks) != ranks
                or "".join(sorted([str(r) for r in row_ranks])) != wanted):
            self._fail("row_ranks must name each rank %s..%s once" % (wanted[0], wanted[-1]))
        return "".join(row_ranks)

    def _col_files(self, col_files):
        files = self.board.files
        if (not isinstance(col_files, list) or len(col_files) != files
                or sorted([f if _is_int(f) else 0 for f in col_files])
                != list(range(1, files + 1))):
            self._fail("col_files must name each file 1..%d once" % files)
        return bytes(col_files)

    def _led_chain(self, chain):
        """The matrix cell of each LED, from the square names in chain order."""
        b = self.board
        if not isinstance(chain, list) or len(chain) != b.led_count:
            self._fail("led_chain must list all %d squares" % b.led_count)
        cells = bytearray(b.led_count)
        first_at = {}
        for index in range(b.led_count):
            name = chain[index]
            try:
                row, col = b.matrix_position(name)
            except ValueError:
                self._fail("led_chain[%d]: %r is not a square of this board" % (index, name))
            if name in first_at:
                self._fail("led_chain: square %s appears at %d and %d"
                           % (name, first_at[name], index))
            first_at[name] = index
            cells[index] = row * b.files + col
        return bytes(cells)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def load(path):
    """Read and check the board file at `path` -> board.Board; ValueError says what is wrong."""
    with open(path) as stream:
        text = stream.read()
    try:
        data = json.loads(text)
    except (ValueError, RuntimeError):   # RuntimeError: nested deeper than the reader goes
        raise ValueError("%s: not valid JSON" % path)
    if not isinstance(data, dict):
        raise ValueError("%s: must hold a JSON object" % path)
    return _Check(data, path).board
