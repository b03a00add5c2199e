"""Board configuration: pins, matrix orientation and LED order, read from the board file.

The board file (hardware/boards/*.json, copied to the Pico as /board.json) is the one place
where the wiring is written down; the firmware, the host tools and the hardware documents all
read it through `load`. Runs unchanged on MicroPython and CPython.

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

# GPIOs brought out to the Pico's header. GP23, GP24, GP25 and GP29 are wired to the
# power supply, VBUS sense, the on-board LED and VSYS sense on the board itself.
USABLE_GPIO = tuple(range(0, 23)) + (26, 27, 28)

RANK_LETTERS = "abcdefghi"

REQUIRED_KEYS = (
    "name", "variant", "files", "ranks",
    "row_pins", "row_ranks", "col_pins", "col_files",
    "led_pin", "led_chain", "buttons", "debounce_ms",
    "led_ma_per_channel", "led_idle_ma", "led_budget_ma", "pico_ma", "usb_limit_ma",
)


class BoardConfig:
    """One board's wiring, checked for consistency when it is built.

    Squares are kept as matrix cells (row * files + col) in bytes tables, not as dicts of
    names: on the Pico this object lives as long as the firmware does.
    """

    def __init__(self, data, source="board file"):
        self.source = source
        for key in REQUIRED_KEYS:
            if key not in data:
                self._fail("missing key '%s'" % key)
        self.name = self._text(data, "name")
        self.variant = self._text(data, "variant")
        self.files = self._count(data, "files", 9)
        self.ranks = self._count(data, "ranks", 9)
        self.row_pins = self._pin_list(data, "row_pins", self.ranks)
        self.col_pins = self._pin_list(data, "col_pins", self.files)
        self.led_pin = self._pin(data["led_pin"], "led_pin")
        self.button_pins = self._buttons(data["buttons"])
        self._check_pins_unique()
        self.row_ranks = self._row_ranks(data["row_ranks"])   # rank letter per row line
        self.col_files = self._col_files(data["col_files"])   # file number per column input
        self.row_active_level = data.get("row_active_level", 0)
        if self.row_active_level not in (0, 1):
            self._fail("row_active_level must be 0 or 1")
        self.led_count = self.files * self.ranks
        self.led_cells, self._led_of_cell = self._led_chain(data["led_chain"])
        self.debounce_ms = self._number(data, "debounce_ms", False)
        self.led_ma_per_channel = self._number(data, "led_ma_per_channel", False)
        self.led_idle_ma = self._number(data, "led_idle_ma", True)
        self.led_budget_ma = self._number(data, "led_budget_ma", False)
        self.pico_ma = self._number(data, "pico_ma", True)
        self.usb_limit_ma = self._number(data, "usb_limit_ma", False)
        self._check_power()

    # --- lookups used by the drivers and the interpreter ---

    def square_name_at(self, row, col):
        """Square read by matrix row line `row` and column input `col`, e.g. '7g'."""
        return "%d%s" % (self.col_files[col], self.row_ranks[row])

    def matrix_position(self, name):
        """(row, col) of the switch under square `name`."""
        if isinstance(name, str) and len(name) == 2 and "1" <= name[0] <= "9":
            row = self.row_ranks.find(name[1])
            col = self.col_files.find(bytes((ord(name[0]) - 48,)))
            if row >= 0 and col >= 0:
                return row, col
        raise ValueError("no square '%s' on %s" % (name, self.name))

    def led_index(self, name):
        """Position in the LED chain of the LED under square `name`."""
        row, col = self.matrix_position(name)
        return self._led_of_cell[row * self.files + col]

    def led_square(self, index):
        """Square lit by LED number `index` of the chain."""
        if not 0 <= index < self.led_count:
            raise ValueError("LED index %d out of range 0..%d" % (index, self.led_count - 1))
        row, col = divmod(self.led_cells[index], self.files)
        return self.square_name_at(row, col)

    @property
    def led_chain(self):
        """Square names in chain order, as the board file lists them."""
        return [self.led_square(i) for i in range(self.led_count)]

    # --- validation helpers: each failure names the key and what is wrong ---

    def _fail(self, message):
        raise ValueError("%s: %s" % (self.source, message))

    def _text(self, data, key):
        value = data[key]
        if not isinstance(value, str) or not value:
            self._fail("%s must be a non-empty string" % key)
        return value

    def _count(self, data, key, largest):
        value = data[key]
        if not _is_int(value) or not 1 <= value <= largest:
            self._fail("%s must be a whole number from 1 to %d" % (key, largest))
        return value

    def _number(self, data, key, zero_allowed):
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self._fail("%s must be a number" % key)
        if value < 0 or (value == 0 and not zero_allowed):
            self._fail("%s must be %s" % (key, "zero or more" if zero_allowed else "more than zero"))
        return value

    def _pin(self, value, what):
        if not _is_int(value) or value not in USABLE_GPIO:
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
        owner = {}
        uses = [("row_pins[%d]" % i, p) for i, p in enumerate(self.row_pins)]
        uses += [("col_pins[%d]" % i, p) for i, p in enumerate(self.col_pins)]
        uses.append(("led_pin", self.led_pin))
        uses += [("buttons.%s" % name, self.button_pins[name]) for name in sorted(self.button_pins)]
        for what, pin in uses:
            if pin in owner:
                self._fail("GPIO %d used twice (%s and %s)" % (pin, owner[pin], what))
            owner[pin] = what

    def _row_ranks(self, row_ranks):
        wanted = RANK_LETTERS[:self.ranks]
        if (not isinstance(row_ranks, list) or len(row_ranks) != self.ranks
                or "".join(sorted([str(r) for r in row_ranks])) != wanted):
            self._fail("row_ranks must name each rank %s..%s once" % (wanted[0], wanted[-1]))
        return "".join(row_ranks)

    def _col_files(self, col_files):
        wanted = list(range(1, self.files + 1))
        if (not isinstance(col_files, list) or len(col_files) != self.files
                or sorted([f if _is_int(f) else 0 for f in col_files]) != wanted):
            self._fail("col_files must name each file 1..%d once" % self.files)
        return bytes(col_files)

    def _led_chain(self, chain):
        """(matrix cell of each LED, LED index of each matrix cell) from the square names."""
        if not isinstance(chain, list) or len(chain) != self.led_count:
            self._fail("led_chain must list all %d squares" % self.led_count)
        cells = bytearray(self.led_count)
        led_of_cell = bytearray(b"\xff" * self.led_count)
        for index in range(self.led_count):
            name = chain[index]
            try:
                row, col = self.matrix_position(name)
            except ValueError:
                self._fail("led_chain[%d]: %r is not a square of this board" % (index, name))
            cell = row * self.files + col
            if led_of_cell[cell] != 255:
                self._fail("led_chain: square %s appears at %d and %d"
                           % (name, led_of_cell[cell], index))
            cells[index] = cell
            led_of_cell[cell] = index
        return bytes(cells), bytes(led_of_cell)

    def _check_power(self):
        if self.pico_ma + self.led_budget_ma > self.usb_limit_ma:
            self._fail("pico_ma + led_budget_ma (%s mA) exceeds usb_limit_ma (%s mA)"
                       % (self.pico_ma + self.led_budget_ma, self.usb_limit_ma))
        idle = self.led_count * self.led_idle_ma
        if idle > self.led_budget_ma:
            self._fail("dark LEDs alone draw %s mA, more than led_budget_ma" % idle)


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def load(path):
    """Read and check the board file at `path`; ValueError says what is wrong with it."""
    with open(path) as stream:
        text = stream.read()
    try:
        data = json.loads(text)
    except ValueError:
        raise ValueError("%s: not valid JSON" % path)
    if not isinstance(data, dict):
        raise ValueError("%s: must hold a JSON object" % path)
    return BoardConfig(data, path)
