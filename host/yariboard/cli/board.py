"""`yariboard board version | ledtest | sensors`: the maker's power-on checks (hardware/BUILD.md).

Each sends one request of docs/protocol.md over the board's USB serial link and explains
the reply; the game on the board is left alone. `--port` names the serial port (a real
board's, or the simulator's pseudo-terminal); without it the board is found by its USB ids.
"""
import argparse
import time

from boardfw import config as board_config
from yariboard import resources
from yariboard.cli.common import fail
from yariboard.board.link import PICO_PID, PICO_VID, Link, LinkError

CONNECT_TIMEOUT_S = 5.0
LEDTEST_STEP_S = 0.75            # docs/protocol.md: each colour for 0.75 s
WATCH_PERIOD_S = 0.2


def register(subparsers):
    parser = subparsers.add_parser(
        "board", help="power-on checks of a board: version, LED test, sensor dump",
        description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n")[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    checks = parser.add_subparsers(dest="check", metavar="CHECK", required=True)
    for name, func, text in (
            ("version", show_version, "protocol and firmware versions, variant and board name"),
            ("ledtest", led_test, "light every LED red, green, blue, then white"),
            ("sensors", show_sensors, "which reed switches are closed (raw and debounced)")):
        check = checks.add_parser(name, help=text, description=text + ".")
        check.add_argument("--port", help="serial port of the board (default: find it by its USB ids)")
        check.set_defaults(func=func)
        if name == "sensors":
            check.add_argument("--watch", action="store_true",
                               help="keep reading, one line per change, until Ctrl-C "
                                    "(put a piece on each square in turn)")


def connect(args):
    """An open link to the board; LinkError (one line) when none answers."""
    link = Link(port=args.port, reply_timeout=1.0)
    try:
        link.connect(timeout=CONNECT_TIMEOUT_S)
    except LinkError:
        link.close()
        if args.port:
            raise LinkError("no board answered on %s (is it the board's port?)" % args.port)
        raise LinkError("no board found (no serial port with the Pico's USB ids %04X:%04X): "
                        "plug it in, or name its port with --port" % (PICO_VID, PICO_PID))
    return link


def run_check(args, check):
    try:
        link = connect(args)
    except LinkError as error:
        return fail(str(error))
    try:
        return check(link)
    except LinkError as error:
        return fail(str(error))
    except KeyboardInterrupt:
        return 0
    finally:
        link.close()


def show_version(args):
    def check(link):
        proto, firmware, variant, board = link.request("version")[:4]
        print("board:     %s (%s)" % (board.replace("-", " "), link.port))
        print("variant:   %s" % variant)
        print("firmware:  %s" % firmware)
        print("protocol:  %s" % proto)
        return 0
    return run_check(args, check)


def led_test(args):
    def check(link):
        link.request("ledtest")
        print("LED test on %s: every LED red, then green, blue and white, %.2f s each."
              % (link.port, LEDTEST_STEP_S))
        print("An LED in the wrong colour or dark stops the chain from there on: check the "
              "DOUT -> DIN link just before it (hardware/BUILD.md).")
        time.sleep(4 * LEDTEST_STEP_S)
        print("LED test done; the board shows its game again.")
        return 0
    return run_check(args, check)


def board_layout(link):
    """The board file whose name the board reports, or None (a board of one's own)."""
    reported = link.version[3] if len(link.version) > 3 else ""
    for name in resources.board_names():
        layout = board_config.load(resources.board_file(name))
        if layout.name.replace(" ", "-") == reported:
            return layout
    return None


def closed_switches(rows, cols, bitmap, layout):
    """Names of the closed switches: the square when the board file is known, else R/C."""
    out = []
    for bit in range(rows * cols):
        if bitmap >> bit & 1:
            row, col = divmod(bit, cols)
            out.append(layout.square_name_at(row, col) if layout else "R%dC%d" % (row, col))
    return out


def read_sensors(link):
    """(rows, cols, raw bitmap, debounced bitmap) as the board reports them."""
    rows, cols, raw, stable = link.request("sensors")[:4]
    try:
        return int(rows), int(cols), int(raw, 16), int(stable, 16)
    except ValueError:
        raise LinkError("the board's sensor reply is not numbers: %s %s %s %s" % (rows, cols, raw, stable))


def describe(rows, cols, raw, stable, layout):
    closed = closed_switches(rows, cols, stable, layout)
    line = "closed (%d): %s" % (len(closed), " ".join(closed) or "none")
    if raw != stable:
        line += "   still settling: %s" % " ".join(closed_switches(rows, cols, raw ^ stable, layout))
    return line


def show_sensors(args):
    def check(link):
        layout = board_layout(link)
        rows, cols, raw, stable = read_sensors(link)
        print("matrix %d rows x %d columns on %s%s" % (
            rows, cols, link.port, ", squares from the board file of " + layout.name if layout else ""))
        print("raw %x  debounced %x  (bit row*%d+col)" % (raw, stable, cols))
        print(describe(rows, cols, raw, stable, layout), flush=True)
        while args.watch:
            time.sleep(WATCH_PERIOD_S)
            now = read_sensors(link)
            if now[2:] != (raw, stable):
                rows, cols, raw, stable = now
                print(describe(rows, cols, raw, stable, layout), flush=True)
        return 0
    return run_check(args, check)
