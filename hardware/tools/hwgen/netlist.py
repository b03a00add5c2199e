"""The board's circuit in SKiDL, written out as a KiCad netlist (.net, s-expression).

Every part is defined here in SKiDL's own format (no KiCad symbol libraries needed); the
footprints name KiCad's standard libraries so Pcbnew can import the result.
"""
import contextlib
import io
import logging
import re
import sys

from . import parts, pico

# SKiDL warns that no KiCad libraries are installed (this circuit needs none) and opens log
# files beside the running script. Its messages go to whatever sys.stderr is at the moment,
# so `write` can keep its errors and drop the chatter.
class _CurrentStderr:
    def write(self, text):
        return sys.stderr.write(text)

    def flush(self):
        sys.stderr.flush()


with contextlib.redirect_stderr(io.StringIO()):
    import skidl
    from skidl.logger import active_logger, erc_logger, rt_logger, stop_log_file_output
stop_log_file_output()
for _logger in (rt_logger, erc_logger, active_logger):
    for _handler in _logger.handlers:
        if not isinstance(_handler, logging.FileHandler):
            _handler.setStream(_CurrentStderr())


def _template(kind, pins=None):
    pin_list = pins if pins is not None else kind.pins
    return skidl.Part(
        name=kind.value.replace(" ", "_"),
        tool=skidl.SKIDL,
        dest=skidl.TEMPLATE,
        ref_prefix=kind.ref_prefix,
        value=kind.value,
        description=kind.description,
        footprint=kind.footprint,
        pins=[skidl.Pin(num=num, name=name, func=skidl.Pin.types.PASSIVE) for num, name in pin_list],
    )


def _place(template, kind, ref, tag, **fields):
    part = template(ref=ref, tag=tag)
    part.fields["MPN"] = kind.example
    for name, value in fields.items():
        part.fields[name] = value
    return part


def matrix_net_names(board):
    """Net names of the row and column lines, in row/column order."""
    rows = ["ROW_%s" % rank for rank in board.row_ranks]
    cols = ["COL_%d" % file for file in board.col_files]
    return rows, cols


def build(board):
    """The whole circuit of `board` (a boardfw.board.Board) as a SKiDL Circuit."""
    circuit = skidl.Circuit()
    circuit.no_files = True
    with circuit:
        gnd, vbus, five = skidl.Net("GND"), skidl.Net("VBUS"), skidl.Net("+5V_LED")

        mcu = _place(_template(parts.PICO, sorted(pico.HEADER.items())), parts.PICO, "U1", "pico")
        for pin in pico.GROUND_PINS:
            gnd += mcu[pin]
        vbus += mcu[pico.VBUS_PIN]

        def gpio_net(gpio, name, *pins):
            net = skidl.Net("%s_GP%d" % (name, gpio))
            net += mcu[pico.physical_pin(gpio)], *pins
            return net

        row_names, col_names = matrix_net_names(board)
        rows = [gpio_net(board.row_pins[r], row_names[r]) for r in range(board.ranks)]
        cols = [gpio_net(board.col_pins[c], col_names[c]) for c in range(board.files)]
        reed, diode = _template(parts.REED), _template(parts.DIODE)
        number = 0
        for r in range(board.ranks):
            for c in range(board.files):
                number += 1
                square = board.square_name_at(r, c)
                switch = _place(reed, parts.REED, "SW%d" % number, "reed_" + square, Square=square)
                blocker = _place(diode, parts.DIODE, "D%d" % number, "diode_" + square, Square=square)
                middle = skidl.Net("SQ_" + square)
                cols[c] += switch[1]
                middle += switch[2]
                # Current flows from the idle level to the active row: the diode points
                # into the row when rows are driven low, out of it when driven high.
                if board.row_active_level == 0:
                    middle += blocker["A"]
                    rows[r] += blocker["K"]
                else:
                    middle += blocker["K"]
                    rows[r] += blocker["A"]

        button = _template(parts.BUTTON)
        header = _place(_template(parts.BUTTON_HEADER), parts.BUTTON_HEADER, "J1", "button_header")
        if sorted(board.button_pins) != [name for _, name in parts.BUTTON_HEADER.pins[:-1]]:
            raise ValueError("the button header carries buttons A and B only")
        gnd += header["GND"]
        for index, name in enumerate(sorted(board.button_pins)):
            part = _place(button, parts.BUTTON, "SW%d" % (number + index + 1), "button_" + name,
                          Button=name)
            gpio_net(board.button_pins[name], "BTN_" + name, part[1], header[name])
            gnd += part[2]

        fuse = _place(_template(parts.FUSE), parts.FUSE, "F1", "fuse")
        vbus += fuse[1]
        five += fuse[2]
        bulk = _place(_template(parts.BULK_C), parts.BULK_C, "C1", "bulk_c")
        five += bulk["+"]
        gnd += bulk["-"]
        decoupling = _place(_template(parts.DECOUPLING_C), parts.DECOUPLING_C, "C2", "decoupling_c")
        five += decoupling[1]
        gnd += decoupling[2]

        shifter = _place(_template(parts.BUFFER), parts.BUFFER, "U2", "buffer")
        five += shifter["VCC"]
        gnd += shifter["GND"], shifter["1OE"]
        gpio_net(board.led_pin, "LED_DATA_3V3", shifter["1A"])
        for gate in "234":  # unused gates: output disabled, input held low
            five += shifter[gate + "OE"]
            gnd += shifter[gate + "A"]
            shifter[gate + "Y"] += circuit.NC
        resistor = _place(_template(parts.SERIES_R), parts.SERIES_R, "R1", "series_r")
        skidl.Net("LED_DATA_5V").connect(shifter["1Y"], resistor[1])

        led, led_c = _template(parts.LED), _template(parts.LED_DECOUPLING_C)
        data_in = skidl.Net("LED_DIN_1")
        data_in += resistor[2]
        for index in range(board.led_count):
            square = board.led_square(index)
            part = _place(led, parts.LED, "LED%d" % (index + 1), "led_" + square,
                          Square=square, Chain=str(index))
            five += part["VDD"]
            gnd += part["VSS"]
            capacitor = _place(led_c, parts.LED_DECOUPLING_C, "C%d" % (index + 3),
                               "led_c_" + square, Square=square)
            five += capacitor[1]
            gnd += capacitor[2]
            data_in += part["DIN"]
            if index + 1 < board.led_count:
                data_in = skidl.Net("LED_DIN_%d" % (index + 2))
                data_in += part["DOUT"]
            else:
                part["DOUT"] += circuit.NC
        for pin in mcu.pins:
            if not pin.is_connected():
                pin += circuit.NC
    return circuit


def write(board, board_file, path):
    """Write the KiCad netlist of `board`; the header names the board file as its source."""
    circuit = build(board)
    # Footprint libraries are absent here by design; pass on only SKiDL's errors.
    chatter = io.StringIO()
    with contextlib.redirect_stderr(chatter):
        text = str(circuit.generate_netlist(tool=skidl.KICAD8, do_backup=False, track_src=False))
    for line in chatter.getvalue().splitlines():
        if line.startswith("ERROR"):
            print(line, file=sys.stderr)
    # Pin the two header fields that would otherwise change on every run.
    text = re.sub(r'\(source "[^"]*"\)', '(source "%s")' % board_file, text)
    text = re.sub(r'\(date "[^"]*"\)', '(date "")', text)
    with open(path, "w") as stream:
        stream.write(text if text.endswith("\n") else text + "\n")
    return circuit
