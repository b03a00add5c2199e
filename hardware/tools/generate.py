"""Regenerate everything in hardware/ that is derived from the board files.

    .venv/bin/python hardware/tools/generate.py [--out DIR] [BOARD.json ...]

For each hardware/boards/NAME.json it writes hardware/NAME/: NAME.net (KiCad netlist),
matrix/controller/layout .svg and .png, bom.csv and power-budget.csv; then it refreshes the
pin table in hardware/README.md. With --out everything goes under DIR instead (README.md
included), which is how tests/hardware/test_hardware.py finds stale committed files.
"""
import argparse
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HARDWARE = os.path.dirname(HERE)
ROOT = os.path.dirname(HARDWARE)
sys.path[:0] = [HERE, os.path.join(ROOT, "firmware")]

from hwgen import board as board_file  # noqa: E402
from hwgen import bom, drawing, netlist, pico, power  # noqa: E402

README = os.path.join(HARDWARE, "README.md")
PIN_TABLE_START = "<!-- pin table: written by hardware/tools/generate.py -->"
PIN_TABLE_END = "<!-- end of pin table -->"


def board_paths():
    return sorted(glob.glob(os.path.join(HARDWARE, "boards", "*.json")))


def generate_board(path, out_dir):
    """Write every derived file of one board into `out_dir`; return their paths."""
    board, facts = board_file.load(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    os.makedirs(out_dir, exist_ok=True)
    net_path = os.path.join(out_dir, stem + ".net")
    circuit = netlist.write(board, os.path.relpath(path, ROOT), net_path)
    written = [net_path]
    written += drawing.save(drawing.matrix_sheet(board), os.path.join(out_dir, "matrix"))
    written += drawing.save(drawing.controller_sheet(board), os.path.join(out_dir, "controller"))
    written += drawing.save(drawing.layout_sheet(board, facts), os.path.join(out_dir, "layout"))
    bom.write(circuit, facts, os.path.join(out_dir, "bom.csv"))
    power.write(board, os.path.join(out_dir, "power-budget.csv"))
    return written + [os.path.join(out_dir, "bom.csv"), os.path.join(out_dir, "power-budget.csv")]


def pin_table(paths):
    """Markdown table: one line per signal, one column per board, GPIO and header pin."""
    boards = sorted((board_file.load(path)[0] for path in paths), key=lambda b: b.files)

    def cell(gpio):
        return "GP%d (pin %d)" % (gpio, pico.physical_pin(gpio)) if gpio is not None else "-"

    signals = []
    for rank in sorted(set("".join(b.row_ranks for b in boards))):
        signals.append(("Row line, rank %s (output)" % rank,
                        [b.row_pins[b.row_ranks.index(rank)] if rank in b.row_ranks else None
                         for b in boards]))
    for file in range(max(b.files for b in boards), 0, -1):
        signals.append(("Column input, file %d" % file,
                        [b.col_pins[b.col_files.index(file)] if file in b.col_files else None
                         for b in boards]))
    for name in sorted(set(n for b in boards for n in b.button_pins)):
        signals.append(("Button %s (to GND)" % name, [b.button_pins.get(name) for b in boards]))
    signals.append(("LED data (to 74AHCT125 1A)", [b.led_pin for b in boards]))
    lines = ["| Signal | " + " | ".join(b.name for b in boards) + " |",
             "|---" * (len(boards) + 1) + "|"]
    for label, gpios in signals:
        lines.append("| %s | %s |" % (label, " | ".join(cell(g) for g in gpios)))
    return "\n".join(lines)


def readme_with_pin_table(text, table):
    head, rest = text.split(PIN_TABLE_START, 1)
    tail = rest.split(PIN_TABLE_END, 1)[1]
    return head + PIN_TABLE_START + "\n" + table + "\n" + PIN_TABLE_END + tail


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=HARDWARE, help="where to write (default: hardware/)")
    parser.add_argument("boards", nargs="*", help="board files (default: hardware/boards/*.json)")
    args = parser.parse_args(argv)
    paths = [os.path.abspath(p) for p in args.boards] or board_paths()
    for path in paths:
        stem = os.path.splitext(os.path.basename(path))[0]
        for written in generate_board(path, os.path.join(args.out, stem)):
            print(written)
    if not args.boards:
        with open(README) as stream:
            text = stream.read()
        readme = os.path.join(args.out, "README.md")
        with open(readme, "w") as stream:
            stream.write(readme_with_pin_table(text, pin_table(paths)))
        print(readme)


if __name__ == "__main__":
    main()
