"""`yariboard serve`: the games in a browser, recorded here; and the `--serve`/`--voice` options
of play, sim and demo.

`serve` records every board attached (several over a USB hub, each into the same archive),
or with `--sim N` N simulated boards where engines play, and serves the live boards, the
tournament page and the archive. It listens on 127.0.0.1 unless `--host` says otherwise;
shared beyond this machine its pages are read-only.
"""
import argparse
import time

from yariboard.board.link import board_ports
from yariboard.cli.common import add_board_option, add_db_option, fail, open_archive
from yariboard.play.boards import BoardPool, SimTable
from yariboard.ui.voice import LANGUAGES, Announcer, Voice
from yariboard.ui.web.feed import LiveFeed
from yariboard.ui.web.publish import LiveBoard
from yariboard.ui.web.server import DEFAULT_HOST, DEFAULT_PORT, WebServer

MAX_SIM_BOARDS = 8
SCAN_EVERY_S = 1.0            # how often the serial ports are looked at for boards
SIM_MAX_PLIES = 160


def add_spectator_options(parser, serve_flag=True):
    """`--serve` (with `--serve-host`, `--serve-port`) and `--voice [en|ja]`."""
    if serve_flag:
        parser.add_argument("--serve", action="store_true",
                            help="show the game on a web page too (see `yariboard serve -h`)")
        parser.add_argument("--serve-host", default=DEFAULT_HOST, metavar="HOST",
                            help="with --serve: the address to listen on (default %(default)s; "
                                 "any other makes the page read-only)")
        parser.add_argument("--serve-port", type=port_number, default=DEFAULT_PORT, metavar="PORT",
                            help="with --serve: the port (default %(default)s)")
    parser.add_argument("--voice", nargs="?", const="en", choices=LANGUAGES,
                        help="speak each move and the end of the game with espeak-ng: en "
                             "(Hodges' words, the default) or ja")


def port_number(text):
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError("a port is a number from 0 to 65535, not %r" % text)
    return value


class Spectators:
    """Whatever follows the games besides the terminal: the web pages and the voice.

    `update(name, session, state)` after each step of a board; the voice follows the first
    board it is given only (one voice, one game)."""

    def __init__(self, db_path, serve=False, host=DEFAULT_HOST, port=DEFAULT_PORT, voice=None):
        self.feed = LiveFeed()
        self.server = WebServer(self.feed, db_path, host=host, port=port) if serve else None
        self.voice = Voice(voice) if voice else None
        self.announcer = Announcer(self.voice) if voice else None
        self.voiced = None
        self.boards = {}

    @classmethod
    def from_args(cls, args, db_path):
        """Started from the options of add_spectator_options; None when none was given.
        ValueError (espeak-ng missing) and OSError (the port is taken) say why not."""
        if not getattr(args, "serve", False) and not args.voice:
            return None
        return cls(db_path, getattr(args, "serve", False), getattr(args, "serve_host", DEFAULT_HOST),
                   getattr(args, "serve_port", DEFAULT_PORT), args.voice).start()

    def start(self):
        if self.server:
            self.server.start()
            print(self.server.banner(), flush=True)
        return self

    def update(self, name, session, state):
        if self.server:
            if name not in self.boards:
                self.boards[name] = LiveBoard(self.feed, name)
            self.boards[name].update(session, state)
        if self.announcer and self.voiced in (None, name):
            self.voiced = name
            self.announcer.update(session.recorder.position, session.recorder.record(), state)

    def gone(self, name):
        """Board `name` was pulled out (its port vanished)."""
        if name in self.boards:
            self.boards[name].gone("pulled out: plug it back in to go on")

    def step(self, name):
        """The on_step(session, state) callback of board `name`."""
        return lambda session, state: self.update(name, session, state)

    def close(self):
        if self.server:
            self.server.stop()
        if self.voice:
            self.voice.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


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
                spectators.update(table.name, table.session, table.view())
            if all(table.finished() for table in tables):
                time.sleep(0.05)
    finally:
        for table in tables:
            table.close()


def serve_boards(archive, spectators, finder=board_ports, running=lambda: True):
    """Record every board `finder` lists (the attached Picos) until `running()` is False."""
    pool = BoardPool(archive, finder)
    print("recording every board attached; Ctrl-C stops", flush=True)
    scanned = 0.0
    try:
        while running():
            if time.monotonic() - scanned > SCAN_EVERY_S:
                before = set(pool.sessions)
                pool.scan()
                for path in before - set(pool.sessions):
                    spectators.gone(board_name(path))
                scanned = time.monotonic()
            pool.step(0.05)
            for path, session in pool.sessions.items():
                spectators.update(board_name(path), session, session.view())
            if not pool.sessions:
                time.sleep(0.05)
    finally:
        pool.close()


def board_name(port):
    """A board's name on the pages: its serial port's ('ttyACM0')."""
    return port.rsplit("/", 1)[-1]
