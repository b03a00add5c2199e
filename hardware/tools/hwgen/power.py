"""Power budget from the board file's own numbers, the ones the firmware's LED cap uses."""
import csv

COLUMNS = ["item", "ma", "how"]


def rows(board):
    """Budget lines (dicts keyed by COLUMNS) for a boardfw.board.Board."""
    dark = board.led_count * board.led_idle_ma
    white = board.led_idle_ma + 3 * board.led_ma_per_channel
    total = board.pico_ma + board.led_budget_ma
    full_white_squares = int((board.led_budget_ma - dark) // (3 * board.led_ma_per_channel))
    return [
        {"item": "LEDs dark", "ma": dark,
         "how": "%d LEDs x %g mA idle" % (board.led_count, board.led_idle_ma)},
        {"item": "LEDs full white without a cap", "ma": board.led_count * white,
         "how": "%d LEDs x (%g + 3 x %g mA)" % (board.led_count, board.led_idle_ma,
                                                board.led_ma_per_channel)},
        {"item": "LED cap kept by the firmware", "ma": board.led_budget_ma,
         "how": "led_budget_ma; frames over it are dimmed"},
        {"item": "Full-white squares within the cap", "ma": full_white_squares,
         "how": "(cap - dark) / (3 x %g mA), a count not a current" % board.led_ma_per_channel},
        {"item": "Pico and logic", "ma": board.pico_ma, "how": "pico_ma"},
        {"item": "Total from USB, worst case", "ma": total, "how": "pico_ma + led_budget_ma"},
        {"item": "USB limit", "ma": board.usb_limit_ma, "how": "usb_limit_ma"},
        {"item": "Headroom", "ma": board.usb_limit_ma - total, "how": "USB limit - total"},
    ]


def write(board, path):
    with open(path, "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in rows(board):
            writer.writerow(dict(row, ma="%g" % row["ma"]))
