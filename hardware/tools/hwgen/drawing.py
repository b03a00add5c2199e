"""Schematic drawings of a board (schemdraw on matplotlib), saved as SVG and PNG.

Three sheets: the switch matrix, the controller (Pico, buttons, LED driver, power) and the
board layout as seen from Black (which square sits on which matrix line and LED).
Net names match the netlist, so a line labelled ROW_a here is net ROW_a_GP.. there.
"""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import schemdraw  # noqa: E402
import schemdraw.elements as elm  # noqa: E402
import schemdraw.logic as logic  # noqa: E402

from . import netlist, parts, pico  # noqa: E402

# Same bytes on every run: fixed SVG ids, text kept as text, no timestamps.
matplotlib.rcParams.update({
    "svg.hashsalt": "yari-board",
    "svg.fonttype": "none",
    "font.family": "DejaVu Sans",
})
SVG_METADATA = {"Date": None, "Creator": None}
PNG_METADATA = {"Software": None}
PNG_DPI = 110


def _pin_text(gpio):
    return "GP%d (pin %d)" % (gpio, pico.physical_pin(gpio))


def save(figure, base):
    """Write `figure` as base.svg and base.png; return both paths."""
    figure.savefig(base + ".svg", bbox_inches="tight", pad_inches=0.3, facecolor="white",
                   metadata=SVG_METADATA)
    figure.savefig(base + ".png", bbox_inches="tight", pad_inches=0.3, facecolor="white",
                   dpi=PNG_DPI, metadata=PNG_METADATA)
    plt.close(figure)
    return [base + ".svg", base + ".png"]


def _figure(drawing):
    return drawing.draw(show=False).getfig()


def matrix_sheet(board):
    """Row lines across, column lines down, one reed switch and diode at each crossing."""
    cell_w, cell_h = 4.2, 3.4
    row_names, col_names = netlist.matrix_net_names(board)
    right = board.files * cell_w + 0.6
    with schemdraw.Drawing(show=False, unit=2, fontsize=11) as d:
        for r in range(board.ranks):
            y = -r * cell_h
            d += elm.Line().at((-1.4, y)).to((right, y))
            d += elm.Label().at((-1.6, y)).label(
                "rank %s\n%s\n%s" % (board.row_ranks[r], _pin_text(board.row_pins[r]), row_names[r]),
                halign="right", valign="center", fontsize=11)
        bottom = -(board.ranks - 1) * cell_h - 0.4
        for c in range(board.files):
            x = c * cell_w
            d += elm.Line().at((x, 3.0)).to((x, bottom))
            d += elm.Label().at((x, 3.2)).label(
                "file %d\n%s\n%s" % (board.col_files[c], _pin_text(board.col_pins[c]), col_names[c]),
                halign="center", valign="bottom", fontsize=11)
        for r in range(board.ranks):
            for c in range(board.files):
                x, y = c * cell_w, -r * cell_h
                tap = (x, y + 1.7)
                d += elm.Dot(radius=0.08).at(tap)
                reed = d.add(elm.SwitchReed().at(tap).right().length(2.0))
                d += elm.Label().at((x + 1.0, y + 2.25)).label(
                    board.square_name_at(r, c), fontsize=13, color="#1a4fa0")
                d += elm.Line().at(reed.end).right().length(0.5)
                # Rows driven low: current flows from the column into the row, cathode down.
                if board.row_active_level == 0:
                    d += elm.Diode().at((x + 2.5, y + 1.7)).down().length(1.7)
                else:
                    d += elm.Diode().at((x + 2.5, y)).up().length(1.7)
                d += elm.Dot(radius=0.08).at((x + 2.5, y))
        low = board.row_active_level == 0
        note = ("Each square: reed switch from its column line, then 1N4148 with the cathode "
                "(ring) on the %s line. Rows are driven %s one at a time; columns are read "
                "with pull-%s." % ("row" if low else "switch", "low" if low else "high",
                                   "ups" if low else "downs"))
        d += elm.Label().at((right / 2, bottom - 0.6)).label(
            "%s: switch matrix\n%s" % (board.name, note), fontsize=12, valign="top")
        figure = _figure(d)
    return figure


def _led_box(number, square):
    return elm.Ic(pins=[elm.IcPin(name="DIN", pin="4", side="left"),
                        elm.IcPin(name="DOUT", pin="2", side="right"),
                        elm.IcPin(name="VDD", pin="1", side="top"),
                        elm.IcPin(name="VSS", pin="3", side="bottom")],
                  size=(3.6, 3.0)).label("LED%d\n%s" % (number, square), loc="center", fontsize=11)


def _pico_pin(gpio, side):
    return elm.IcPin(name="GP%d" % gpio, pin=str(pico.physical_pin(gpio)), side=side,
                     anchorname="GP%d" % gpio)


def controller_sheet(board):
    """The Pico with its matrix lines, buttons, LED driver and the USB-fed power."""
    row_names, col_names = netlist.matrix_net_names(board)
    button_names = sorted(board.button_pins)
    # schemdraw stacks side pins bottom-up; lists are reversed so they read top-down.
    left = [_pico_pin(gpio, "left") for gpio in reversed(board.row_pins)]
    right_gpios = [board.led_pin] + [board.button_pins[n] for n in button_names] + list(board.col_pins)
    right = [_pico_pin(gpio, "right") for gpio in reversed(right_gpios)]
    power = [elm.IcPin(name="VBUS", pin=str(pico.VBUS_PIN), side="top", anchorname="VBUS"),
             elm.IcPin(name="GND", pin=",".join(str(p) for p in pico.GROUND_PINS[:3]) + ",...",
                       side="bottom", anchorname="GND")]
    height = (max(len(left), len(right)) + 1) * 1.2
    with schemdraw.Drawing(show=False, unit=2.5, fontsize=11) as d:
        mcu = d.add(elm.Ic(pins=left + right + power, size=(6.0, height))
                    .label("U1\nRaspberry Pi Pico", loc="center", fontsize=13))
        for r, gpio in enumerate(board.row_pins):
            d += elm.Line().at(getattr(mcu, "GP%d" % gpio)).left().length(1.2)
            d += elm.Label().at(d.here).label("%s (rank %s)" % (row_names[r], board.row_ranks[r]),
                                             halign="right", valign="center")
        for c, gpio in enumerate(board.col_pins):
            d += elm.Line().at(getattr(mcu, "GP%d" % gpio)).right().length(1.2)
            d += elm.Label().at(d.here).label("%s (file %d)" % (col_names[c], board.col_files[c]),
                                             halign="left", valign="center")
        for name in button_names:
            d += elm.Line().at(getattr(mcu, "GP%d" % board.button_pins[name])).right().length(1.2)
            d += elm.Button().right().label("Button %s" % name, fontsize=11)
            d += elm.Line().right().length(0.4)
            d += elm.Label().at(d.here).label("GND", halign="left", valign="center")
        # LED data: 3.3 V GPIO -> 74AHCT125 on 5 V -> 330 R -> first LED.
        d += elm.Line().at(getattr(mcu, "GP%d" % board.led_pin)).right().length(7.0)
        buf = d.add(logic.Buf().right().label("U2 74AHCT125\n1A in, 1Y out\n1OE to GND",
                                              loc="bottom", fontsize=10))
        d += elm.Line().right().length(0.5)
        d += elm.Resistor().right().label("R1 330Ω", fontsize=11)
        d += elm.Line().right().length(1.5)
        first = d.add(_led_box(1, board.led_square(0)).anchor("DIN"))
        d += elm.Line().at(first.DOUT).right().length(0.8)
        second = d.add(_led_box(2, board.led_square(1)).anchor("DIN"))
        d += elm.Line().at(second.DOUT).right().length(0.6)
        d += elm.DotDotDot().right()
        d += elm.Line().right().length(0.6)
        last = d.add(_led_box(board.led_count, board.led_square(board.led_count - 1)).anchor("DIN"))
        d += elm.Line().at(last.DOUT).right().length(0.6)
        d += elm.Label().at(d.here).label("n.c.", halign="left")
        for box in (first, second, last):
            d += elm.Ground().at(box.VSS)
        # Power: USB 5 V on VBUS -> resettable fuse -> +5V_LED rail feeding LEDs and U2.
        rail_y = first.VDD[1] + 3.2
        d += elm.Line().at(mcu.VBUS).up().toy(rail_y)
        d += elm.Label().at(mcu.VBUS).label("USB 5 V from the\nPico's micro-USB", halign="right",
                                            valign="bottom", ofst=(-0.4, 1.0))
        d += elm.Fuse().right().label("F1 PTC 500 mA", fontsize=11)
        d += elm.Line().right().tox(last.VDD[0])
        d += elm.Label().at(d.here).label("+5V_LED", halign="left", valign="bottom")
        for box in (first, second, last):
            d += elm.Line().at(box.VDD).up().toy(rail_y)
            d += elm.Dot().at((box.VDD[0], rail_y))
        bulk_x = first.VDD[0] - 2.2
        d += elm.Dot().at((bulk_x, rail_y))
        d += elm.Capacitor(polar=True).at((bulk_x, rail_y)).down().length(2.0).label(
            "C1\n1000 µF", loc="bottom", fontsize=11)
        d += elm.Ground()
        vcc_x = buf.center[0]
        d += elm.Dot().at((vcc_x, rail_y))
        d += elm.Line().at((vcc_x, rail_y)).down().toy(buf.center[1] + 0.6)
        d += elm.Label().at((vcc_x, rail_y - 1.2)).label(
            "U2 VCC (pin 14)\nC2 100 nF to GND", halign="right", ofst=(-0.2, 0), fontsize=10)
        d += elm.Ground().at(mcu.GND)
        d += elm.Label().at((mcu.GND[0] - 6, mcu.GND[1] - 2.0)).label(
            "%s: controller. %d WS2812B LEDs, one per square, chained in serpentine order "
            "(see the layout sheet).\nButtons close to GND; the firmware enables the pull-ups."
            % (board.name, board.led_count), fontsize=12, halign="left", valign="top")
        figure = _figure(d)
    return figure


def layout_sheet(board, facts):
    """The board seen from Black: each square's name, matrix lines and LED number, with the
    serpentine path of the LED data line."""
    width, height = facts.square_width_mm, facts.square_height_mm
    figure, axes = plt.subplots(figsize=(1.25 * board.files + 2.4,
                                          1.25 * board.ranks * height / width + 2.2))
    axes.set_aspect("equal")
    axes.axis("off")
    centre = {}
    for name in board.led_chain:
        row, col = board.matrix_position(name)
        file_position = board.files - int(name[:-1])  # highest file on the left
        rank_position = ord(name[-1]) - ord("a")  # rank a at the top
        x, y = file_position * width, -rank_position * height
        centre[name] = (x + width / 2, y - height / 2)
        axes.add_patch(plt.Rectangle((x, y - height), width, height, facecolor="#f3e2bd",
                                     edgecolor="#5a4210", linewidth=1.2))
        axes.text(x + width / 2, y - height * 0.30, name, ha="center", va="center",
                  fontsize=15, weight="bold", color="#1a1a1a")
        axes.text(x + width / 2, y - height * 0.62, "R%d C%d" % (row, col), ha="center",
                  va="center", fontsize=9, color="#1a4fa0")
        axes.text(x + width / 2, y - height * 0.84, "LED %d" % board.led_index(name),
                  ha="center", va="center", fontsize=9, color="#a01a1a")
    for index in range(board.led_count - 1):
        start, end = centre[board.led_square(index)], centre[board.led_square(index + 1)]
        lift = height * 0.06
        if start[0] == end[0]:  # rank change at the board's edge: run beside the labels
            side = 0.38 * width if start[0] > board.files * width / 2 else -0.38 * width
            start, end = (start[0] + side, start[1]), (end[0] + side, end[1])
        axes.annotate("", xy=(end[0], end[1] + lift), xytext=(start[0], start[1] + lift),
                      arrowprops={"arrowstyle": "->", "color": "#a01a1a", "lw": 1.0, "alpha": 0.7})
    for col in range(board.files):
        file_number = board.col_files[col]
        x = (board.files - file_number + 0.5) * width
        axes.text(x, height * 0.15, "file %d\nC%d GP%d" % (file_number, col, board.col_pins[col]),
                  ha="center", va="bottom", fontsize=9)
    for row in range(board.ranks):
        rank = board.row_ranks[row]
        y = -(ord(rank) - ord("a") + 0.5) * height
        axes.text(board.files * width + width * 0.15, y,
                  "rank %s\nR%d GP%d" % (rank, row, board.row_pins[row]),
                  ha="left", va="center", fontsize=9)
    first = centre[board.led_square(0)]
    axes.annotate("LED data in (from R1)", xy=(first[0], -board.ranks * height),
                  xytext=(first[0], -board.ranks * height - height * 0.45), ha="center", va="top",
                  fontsize=9, color="#a01a1a", arrowprops={"arrowstyle": "->", "color": "#a01a1a"})
    axes.text(board.files * width / 2, -board.ranks * height - height * 0.75,
              "%s seen from Black (Black sits on this side)\n"
              "R = row line, C = column input, LED = position in the chain; squares %g x %g mm"
              % (board.name, width, height), ha="center", va="top", fontsize=10)
    axes.set_xlim(-width * 0.3, board.files * width + width * 1.6)
    axes.set_ylim(-board.ranks * height - height * 1.6, height * 1.2)
    return figure
