"""One board's wiring as the firmware keeps it while it runs: built by `config.load`.

Squares are kept as matrix cells (row * files + col) in bytes tables, not as dicts of names:
on the Pico this object lives as long as the firmware does. config.load checks every
attribute below before the firmware sees it. Square names are taken apart by slices, not
indexes: MicroPython interns the one-letter str an index makes, for good, a slice it copies.
"""


class Board:
    name: str
    variant: str                # the rules the board plays: 'yari', 'shogi' or 'wa'
    files: int
    ranks: int
    row_pins: list              # GPIO of each matrix row line
    col_pins: list              # GPIO of each matrix column input
    row_active_level: int       # level a row line is driven to while it is read
    row_ranks: str              # rank letter read by each row line
    col_files: bytes            # file number read by each column input
    led_pin: int
    led_count: int
    led_cells: bytes            # matrix cell of each LED, in chain order
    button_pins: dict           # {'A': GPIO, 'B': GPIO}
    debounce_ms: int
    led_ma_per_channel: float   # power figures: see config.py
    led_idle_ma: float
    led_budget_ma: float
    pico_ma: float
    usb_limit_ma: float

    def square_name_at(self, row, col):
        """Square read by matrix row line `row` and column input `col`, e.g. '7g' or '11k'."""
        return "%d%s" % (self.col_files[col], self.row_ranks[row:row + 1])

    def matrix_position(self, name):
        """(row, col) of the switch under square `name`."""
        # a file of one or two digits ('7g', '11k'), then the rank letter
        if (isinstance(name, str) and 2 <= len(name) <= 3 and "1" <= name[:1] <= "9"
                and (len(name) == 2 or "0" <= name[1:2] <= "9")):
            row = self.row_ranks.find(name[-1:])
            col = self.col_files.find(bytes((int(name[:-1]),)))
            if row >= 0 and col >= 0:
                return row, col
        raise ValueError("no square '%s' on %s" % (name, self.name))

    def led_index(self, name):
        """Position in the LED chain of the LED under square `name`."""
        row, col = self.matrix_position(name)
        return self.led_cells.find(bytes((row * self.files + col,)))

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
