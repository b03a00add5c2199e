"""`yariboard serve`: the games in a browser, recorded here.

`serve` records every board attached (several over a USB hub, each into the same archive),
or with `--sim N` N simulated boards where engines play, and serves the live boards, the
tournament page and the archive. It listens on 127.0.0.1 unless `--host` says otherwise;
shared beyond this machine its pages are read-only.
"""
import argparse
import time

from yariboard.board.link import attached_boards
from yariboard.cli.common import add_board_option, add_db_option, fail, open_archive
from yariboard.cli.options import add_spectator_options, port_number
from yariboard.play.boards import BoardPool, SimTable
from yariboard.ui.spectators import Spectators
from yariboard.ui.web.server import DEFAULT_HOST, DEFAULT_PORT

MAX_SIM_BOARDS = 8
SCAN_EVERY_S = 1.0            # how often the serial ports are looked at for boards
SIM_MAX_PLIES = 160


def register(subparsers):
    parser = subparsers.add_parser(
        "serve", help="show the games in a browser: live boards, tournament, archive",
        description=__doc__.split("\n\n")[1])
    add_db_option(parser)
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help="address to listen on (default %(default)s, this machine only; "
                             "any other, e.g. 0.0.0.0, shares the pages read-only)")
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                        help="port to listen on (default %(default)s; 0: any free one)")
    parser.add_argument("--sim", type=sim_count, default=0, metavar="N",
                        help="N simulated boards (1-%d) where built-in engines play, "
                             "instead of the attached boards" % MAX_SIM_BOARDS)
    add_board_option(parser, "with --sim, the simulated boards")
    parser.add_argument("--seconds", type=float, default=0.2,
                        help="with --sim: the engines' time per move (default %(default)s)")
    add_spectator_options(parser, serve_flag=False)
    parser.set_defaults(func=run)


def sim_count(text):
    if not text.isdigit() or not 1 <= int(text) <= MAX_SIM_BOARDS:
        raise argparse.ArgumentTypeError("--sim takes 1 to %d boards, not %r" % (MAX_SIM_BOARDS, text))
    return int(text)


def run(args):
    with open_archive(args) as archive:
        try:
            spectators = Spectators(archive.path, True, args.host, args.port, args.voice).start()
        except (OSError, ValueError) as error:
            return fail(str(error))
        try:
            if args.sim:
                serve_simulated(args, archive, spectators)
            else:
                serve_boards(archive, spectators)
        except KeyboardInterrupt:
            print("stopped: every move is in the archive", flush=True)
        finally:
            spectators.close()
    return 0


def serve_simulated(args, archive, spectators):
    tables = []
    try:
        for number in range(1, args.sim + 1):
            tables.append(SimTable(str(number), archive, levels=(1 + number % 3, 1), seed=number,
                                   seconds_per_move=args.seconds, board=args.board or "yari-9x7",
                                   max_plies=SIM_MAX_PLIES))
        print("%d simulated boards playing; Ctrl-C stops" % len(tables), flush=True)
        while True:
            for table in tables:
                table.step(0.01)
                spectators.update(table.name, table.session, table.leds(), table.phase())
            if all(table.finished() for table in tables):
                time.sleep(0.05)
    finally:
        for table in tables:
            table.close()


def serve_boards(archive, spectators, finder=attached_boards, running=lambda: True):
    """Record every board `finder` lists ({identity: port}: the attached Picos) until
    `running()` is False. Each board has its page under its identity, so a board plugged back
    on another port is shown where it was."""
    pool = BoardPool(archive, finder)
    print("recording every board attached; Ctrl-C stops", flush=True)
    scanned = 0.0
    try:
        while running():
            if time.monotonic() - scanned > SCAN_EVERY_S:
                before = set(pool.sessions)
                pool.scan()
                for identity in before - set(pool.sessions):
                    spectators.gone(board_name(identity))
                scanned = time.monotonic()
            pool.step(0.05)
            for identity, session in pool.sessions.items():
                spectators.update(board_name(identity), session)
            if not pool.sessions:
                time.sleep(0.05)
    finally:
        pool.close()


def board_name(identity):
    """A board's name on the pages: its USB serial number ('E6614103E7452D2F'), or the name
    of its port ('ttyACM0') when it reports none."""
    return identity.rsplit("/", 1)[-1]
