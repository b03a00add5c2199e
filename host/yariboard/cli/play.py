"""`yariboard play`: you at the board against an engine.

The engine's move is lit on the board (an order) and counts once you have carried it out
with the pieces; your moves are read by the board as usual. Ask for a hint with the board's
button A or by typing `hint`; the other host controls (take back, resign, new game, set-up,
replay) are in controls.py. Holding A on the board resigns for you, never for the engine.
An optional game clock (clocks.py) sets the engine's time and records a flag fall. Every
committed move goes to the archive as it happens. For Wa Shogi with drops, `--engine crazywa`
plays CrazyWa (Debian's `crazywa`), which speaks the XBoard protocol.
"""
import argparse
import os
from contextlib import nullcontext

from rich.console import Console

from boardfw import config as board_config
from shogicore.variants import BLACK, WHITE
from yariboard import resources
from yariboard.board.link import BoardRefused, Link, LinkError
from yariboard.cli.common import add_board_option, add_db_option, fail, open_archive
from yariboard.cli.options import (add_game_options, add_spectator_options, board_for,
                                   board_file_variant, check_game_options, level_help,
                                   make_rig, start_spectators)
from yariboard.engines import fsf, levels
from yariboard.engines.base import EngineError
from yariboard.engines.usi import UsiEngine
from yariboard.engines.xboard import XBoardEngine
from yariboard.play.clocks import GameClock, parse_time_control
from yariboard.play.controls import HostControls
from yariboard.play.recorder import Recorder
from yariboard.play.session import HINT_SECONDS, PlaySession
from yariboard.ui.console import SimConsole, run_board, run_interactive

XBOARD_ENGINES = ("crazywa",)   # engines run through the XBoard client, by command name


def register(subparsers):
    parser = subparsers.add_parser("play", help="play against an engine on the board",
                                   description=__doc__.split("\n\n")[0])
    add_db_option(parser)
    parser.add_argument("--port", help="serial port of the board (default: find it by its USB ids)")
    parser.add_argument("--sim", action="store_true",
                        help="play on a simulated board, typing the sensor events (see `yariboard sim -h`)")
    parser.add_argument("--engine", metavar="PATH",
                        help="a USI engine to play, `fsf` for Fairy-Stockfish (installed with "
                             "`yariboard engines install fsf`), or crazywa (XBoard) for Wa Shogi "
                             "with drops (default: the built-in engine)")
    parser.add_argument("--skill", type=skill_level, metavar="-20..20",
                        help="with --engine fsf: Fairy-Stockfish's skill level (default 20, full strength)")
    parser.add_argument("--nodes", type=positive_int, metavar="N",
                        help="with --engine fsf: nodes per move (instead of time per move)")
    parser.add_argument("--node", metavar="PATH",
                        help="the Node.js to run Fairy-Stockfish with (--engine fsf, its levels)")
    parser.add_argument("--emulator", action="store_true",
                        help="with --sim: the real Pico firmware image on the emulated RP2040")
    parser.add_argument("--level", type=int, default=levels.DEFAULT_LEVEL, metavar="N",
                        help=level_help("the opponent's", levels.DEFAULT_LEVEL))
    parser.add_argument("--hint-level", type=int, metavar="N",
                        help="hints (button A, `hint`) from this level (default: the strongest "
                             "engine installed, at full strength)")
    parser.add_argument("--hint-seconds", type=float, default=HINT_SECONDS, metavar="S",
                        help="thinking time per hint (default %(default)s)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="thinking time per move (default: the level's, 1 s for a USI engine)")
    parser.add_argument("--engine-side", choices=("black", "white"), default="white",
                        help="the side the engine plays (default %(default)s)")
    add_board_option(parser, "with --sim, the simulated board")
    parser.add_argument("--new", action="store_true", help="start a new game on the board first")
    add_game_options(parser)
    parser.add_argument("--time", type=float, default=None, metavar="MINUTES",
                        help="a game clock: MINUTES of main time per side (default: no clock)")
    parser.add_argument("--byoyomi", type=float, default=0.0, metavar="SECONDS",
                        help="with a clock: SECONDS per move once the main time is gone")
    parser.add_argument("--increment", type=float, default=0.0, metavar="SECONDS",
                        help="with a clock: SECONDS added after each move (Fischer)")
    parser.add_argument("--you", default="player", help="your name for the archive")
    add_spectator_options(parser)
    parser.set_defaults(func=run)


def skill_level(text):
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not -20 <= value <= 20:
        raise argparse.ArgumentTypeError("must be a whole number from -20 to 20, not %r" % text)
    return value


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError("must be a whole number of at least 1, not %r" % text)
    return value


def make_engine(args):
    if fsf.is_fsf_name(args.engine):
        return fsf.open_engine(args.engine_variant, node=args.node, skill=args.skill, nodes=args.nodes)
    if args.skill is not None or args.nodes is not None or (args.engine and args.node):
        raise ValueError("--skill, --nodes and --node are for --engine fsf")
    if args.engine and os.path.basename(args.engine) in XBOARD_ENGINES:
        # a bare name is looked up where Debian installs it (/usr/games is not always on PATH)
        return XBoardEngine(args.engine if os.sep in args.engine else None, variant=args.engine_variant)
    if args.engine:
        return UsiEngine(args.engine, variant=args.engine_variant)
    return levels.open_level(args.engine_variant, args.level, node=args.node)


def make_hint_engine(args):
    """(engine, its name) for hints: the --hint-level, else the strongest engine installed."""
    if args.hint_level is None:
        return levels.strongest_engine(args.engine_variant, node=args.node)
    return (levels.open_level(args.engine_variant, args.hint_level, node=args.node),
            levels.label(args.engine_variant, args.hint_level))


def engine_label(args):
    if fsf.is_fsf_name(args.engine):
        strength = ["skill %d" % args.skill] if args.skill is not None else []
        strength += ["%d nodes/move" % args.nodes] if args.nodes else []
        return "Fairy-Stockfish %s%s" % (fsf.FSF_VERSION,
                                         " (%s)" % ", ".join(strength) if strength else "")
    return args.engine or levels.label(args.engine_variant, args.level)


def run(args):
    side = BLACK if args.engine_side == "black" else WHITE
    if args.variant is None:   # the engine plays the board's game; no new game is asked for
        args.engine_variant = (board_config.load(resources.board_file(board_for(args))).variant
                               if args.sim else "yari")
    else:
        args.engine_variant = args.variant
    try:
        if args.seconds is not None and args.seconds <= 0:
            raise ValueError("--seconds must be above 0, not %g" % args.seconds)
        if args.hint_seconds <= 0:
            raise ValueError("--hint-seconds must be above 0, not %g" % args.hint_seconds)
        levels.level(args.engine_variant, args.level)
        if args.hint_level is not None:
            levels.level(args.engine_variant, args.hint_level)
        control = parse_time_control(args.time, args.byoyomi, args.increment)
        if args.variant is not None or args.handicap is not None:
            check_game_options(args, board_file_variant(args))
        engine = make_engine(args)
    except (EngineError, ValueError) as error:
        return fail(str(error))
    try:
        args.hint_engine, args.hint_name = make_hint_engine(args)
    except EngineError as error:
        engine.close()
        return fail(str(error))
    args.clock = GameClock(control) if control else None
    engine_name = engine_label(args)
    names = (engine_name, args.you) if side == BLACK else (args.you, engine_name)
    console = Console()
    try:
        with open_archive(args) as archive:
            try:
                spectators = start_spectators(args, archive.path)
            except (OSError, ValueError) as error:
                return fail(str(error))
            with spectators or nullcontext():
                watch = spectators.watch("1") if spectators else None
                if args.sim:
                    return play_simulated(args, archive, engine, side, names, console, watch)
                return play_board(args, archive, engine, side, names, console, watch)
    except (LinkError, EngineError) as error:
        return fail(str(error))
    finally:
        engine.close()
        args.hint_engine.close()


def advise(session, args):
    """Hints come from the hint engine, for as long as the person asked."""
    session.hint_engine = args.hint_engine
    session.hint_name = args.hint_name
    session.hint_seconds = args.hint_seconds


def start_new_game(args, link, board_variant):
    try:
        variant, handicap, mode = check_game_options(args, board_variant)
        link.request("new", variant, handicap, mode)
    except ValueError as error:
        raise LinkError(str(error))
    except BoardRefused as error:
        raise LinkError(str(error))


def play_simulated(args, archive, engine, side, names, console, watch=None):
    with make_rig(args, "real") as rig:
        sim = SimConsole(rig, archive, console, engines={side: engine}, names=names,
                         time_limit=args.seconds, clock=args.clock, watch=watch)
        advise(sim.session, args)
        sim.pump(0.2)
        new_game = check_game_options(args, rig.board.config.variant)
        if new_game:
            try:
                sim.execute("new " + " ".join(new_game))
            except ValueError as error:
                raise LinkError(str(error))
        run_interactive(sim, console, until_finished=True)
    return 0


def play_board(args, archive, engine, side, names, console, watch=None):
    link = Link(port=args.port)
    link.connect(timeout=10)
    recorder = Recorder(link, archive, black=names[0], white=names[1])
    session = PlaySession(recorder, {side: engine}, time_limit=args.seconds, clock=args.clock)
    advise(session, args)
    controls = HostControls(session, archive)
    if args.mode is not None:
        start_new_game(args, link, link.request("version")[2])
    try:
        return run_board(session, controls, console, names, watch)
    finally:
        link.close()
