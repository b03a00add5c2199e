"""`yariboard play`: you at the board against an engine.

The engine's move is lit on the board (an order) and counts once you have carried it out
with the pieces; your moves are read by the board as usual. Ask for a hint with the board's
button A or by typing `hint`. Every committed move goes to the archive as it happens.
"""
import queue
import tempfile

from rich.console import Console

from shogicore.variants import BLACK, WHITE
from yariboard.commands.common import add_db_option, fail, open_archive
from yariboard.commands.sim import SimConsole, keyboard_lines, make_rig, run_interactive
from yariboard.engine import LEVELS, Engine
from yariboard.link import BoardRefused, Link, LinkError
from yariboard.recorder import Recorder
from yariboard.session import PlaySession
from yariboard.usi import UsiEngine, UsiError
from yariboard.view import render


def register(subparsers):
    parser = subparsers.add_parser("play", help="play against an engine on the board",
                                   description=__doc__.split("\n\n")[0])
    add_db_option(parser)
    parser.add_argument("--port", help="serial port of the board (default: find it by its USB ids)")
    parser.add_argument("--sim", action="store_true",
                        help="play on a simulated board, typing the sensor events (see `yariboard sim -h`)")
    parser.add_argument("--emulator", action="store_true",
                        help="with --sim: the real Pico firmware image on the emulated RP2040")
    parser.add_argument("--engine", metavar="PATH", help="a USI engine to play (default: the built-in engine)")
    parser.add_argument("--level", type=int, default=5, choices=sorted(LEVELS),
                        help="built-in engine level (default %(default)s)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="thinking time per move (default: the level's, 1 s for a USI engine)")
    parser.add_argument("--engine-side", choices=("black", "white"), default="white",
                        help="the side the engine plays (default %(default)s)")
    parser.add_argument("--new", action="store_true", help="start a new game on the board first")
    parser.add_argument("--variant", default="yari", help="for --new: yari or shogi")
    parser.add_argument("--handicap", default="-", help="for --new: a handicap name or - (default)")
    parser.add_argument("--mode", default="casual", choices=("casual", "tournament"), help="for --new")
    parser.add_argument("--you", default="player", help="your name for the archive")
    parser.set_defaults(func=run)


def make_engine(args):
    if args.engine:
        return UsiEngine(args.engine, variant=args.variant)
    return Engine(level=args.level)


def run(args):
    side = BLACK if args.engine_side == "black" else WHITE
    try:
        engine = make_engine(args)
    except (UsiError, ValueError) as error:
        return fail(str(error))
    engine_name = args.engine or "built-in engine, level %d" % args.level
    names = (engine_name, args.you) if side == BLACK else (args.you, engine_name)
    console = Console()
    try:
        with open_archive(args) as archive:
            if args.sim:
                return play_simulated(args, archive, engine, side, names, console)
            return play_board(args, archive, engine, side, names, console)
    except LinkError as error:
        return fail(str(error))
    finally:
        engine.close()


def start_new_game(args, link):
    try:
        link.request("new", args.variant, args.handicap, args.mode)
    except BoardRefused as error:
        raise LinkError(str(error))


def play_simulated(args, archive, engine, side, names, console):
    storage = tempfile.mkdtemp(prefix="yariboard-play-")
    args.board = "yari-9x7" if args.variant == "yari" else "shogi-9x9"
    with make_rig(args, storage, "real") as rig:
        sim = SimConsole(rig, archive, console, engines={side: engine}, names=names,
                         time_limit=args.seconds)
        sim.pump(0.2)
        if args.new:
            start_new_game(args, sim.link)
        run_interactive(sim, console, until_finished=True)
        sim.show()
    return 0


def play_board(args, archive, engine, side, names, console):
    link = Link(port=args.port)
    link.connect(timeout=10)
    recorder = Recorder(link, archive, black=names[0], white=names[1])
    session = PlaySession(recorder, {side: engine}, time_limit=args.seconds)
    if args.new:
        start_new_game(args, link)
    console.print("type `hint` for a hint, `quit` to stop (the game stays on the board)")
    lines = keyboard_lines()
    shown = None
    try:
        while not session.finished():
            session.step(0.05)
            try:
                command = lines.get_nowait().strip()
            except queue.Empty:
                command = ""
            if command == "quit":
                break
            if command == "hint":
                session.hint()
            elif command:
                console.print("[red]unknown command %r (hint, quit)[/red]" % command)
            state = session.view(names=names)
            key = (len(state.moves), state.status, state.message, state.result)
            if key != shown:
                console.print(render(state))
                shown = key
    finally:
        link.close()
    return 0
