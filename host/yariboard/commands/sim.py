"""`yariboard sim`: the real firmware on the MicroPython unix port, played from the terminal.

The host side is the same as with a real board: it opens the simulator's pseudo-terminal
with pyserial, follows the game and archives it. You move the pieces by typing what your
hands would do (`lift 7g`, `place 7f`), or let `move 7g7f` do the touches, from the
keyboard or from a script file (one command per line, `#` starts a comment).
"""
import argparse
import os
import queue
import sys
import tempfile
import threading

from rich.console import Console

from shogicore.errors import MoveError
from shogicore.notation import parse_usi
from yariboard.commands.common import add_db_option, fail, open_archive
from yariboard.engine import Engine
from yariboard.link import Link
from yariboard.recorder import Recorder
from yariboard.session import PlaySession
from yariboard.simrig import SimRig
from yariboard.view import render

HELP = """commands:
  lift SQ | place SQ        a piece leaves / is put on a square (e.g. lift 7g, place 7f)
  move USI                  the touches of a whole move, e.g. move 7g7f, move 3c3d, move P*5e
  press A|B | release A|B   hold / let go of a button;  tap A|B  a short press
  wait MS                   let MS milliseconds of board time pass
  hint                      ask the built-in engine for a hint, lit on the board
  reset                     power-cycle the board;  unplug / replug  pull / plug the cable
  show                      print the board again;  help;  quit"""


def register(subparsers):
    parser = subparsers.add_parser(
        "sim", help="run the firmware on a simulated board and drive its sensors",
        description=__doc__.split("\n\n")[0], epilog=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_db_option(parser)
    parser.add_argument("--script", metavar="FILE", help="run the commands of FILE, then exit")
    parser.add_argument("--clock", choices=("real", "virtual"),
                        help="board time: real (default at the keyboard) or virtual (default for scripts)")
    parser.add_argument("--board", default="yari-9x7", help="hardware/boards/NAME.json (default %(default)s)")
    parser.add_argument("--storage", metavar="DIR", help="the board's flash directory (default: a new temporary one)")
    parser.add_argument("--emulator", action="store_true",
                        help="run the real Pico firmware image on the emulated RP2040 (docs/emulator.md)")
    parser.set_defaults(func=run)


class SimConsole:
    """Executes sim commands against a rig and keeps the archive in step."""

    def __init__(self, rig, archive, console, engines=None, names=("player", "player"),
                 time_limit=None):
        self.rig = rig
        self.console = console
        self.link = Link(finder=rig.ports)
        self.recorder = Recorder(self.link, archive, black=names[0], white=names[1])
        self.session = PlaySession(self.recorder, engines or {}, time_limit=time_limit)
        self.engine = next(iter(engines.values())) if engines else Engine(level=5)

    def pump(self, timeout=0.05):
        return self.session.step(timeout)

    def show(self):
        self.console.print(render(self.session.view(self.rig.led_styles())))

    def execute(self, line):
        """Run one command; returns False for quit. ValueError explains a bad command."""
        words = line.split("#", 1)[0].split()
        if not words:
            return True
        verb, args = words[0].lower(), words[1:]
        if verb in ("lift", "place") and len(args) == 1:
            self.rig.act("%s %s" % (verb, self._square(args[0])))
        elif verb in ("press", "release", "tap") and len(args) == 1 and args[0].upper() in ("A", "B"):
            button = args[0].upper()
            if verb == "tap":
                self.rig.act("press " + button)
                self.rig.act("release " + button, 200)
            else:
                self.rig.act("%s %s" % (verb, button))
        elif verb == "move" and len(args) == 1:
            self._move(args[0])
        elif verb == "wait" and len(args) == 1 and args[0].isdigit():
            self.rig.wait(int(args[0]))
        elif verb == "hint" and not args:
            self.session.hint(self.engine)
        elif verb == "reset" and not args:
            self.rig.reset()
        elif verb == "unplug" and not args:
            self.rig.unplug()
        elif verb == "replug" and not args:
            self.rig.replug()
        elif verb == "show" and not args:
            self.show()
        elif verb == "help" and not args:
            self.console.print(HELP)
        elif verb == "quit" and not args:
            return False
        else:
            raise ValueError("unknown command %r (type help)" % line.strip())
        if self.rig.plugged:
            self.pump(0.1)
        return True

    def _square(self, text):
        """The square name, checked against the board's variant (ValueError if off it)."""
        if self.recorder.position is not None:
            self.recorder.position.variant.parse_square(text)
        return text

    def _move(self, usi):
        position = self.recorder.position
        if position is None:
            raise ValueError("no game yet")
        try:
            move = parse_usi(position.variant, usi)
        except MoveError as error:
            raise ValueError(str(error))
        if not position.is_legal(move):
            raise ValueError("%s is not legal here" % usi)
        self.rig.perform(position, move)


def run(args):
    console = Console()
    storage = args.storage or tempfile.mkdtemp(prefix="yariboard-sim-")
    clock = args.clock or ("virtual" if args.script else "real")
    with open_archive(args) as archive, make_rig(args, storage, clock) as rig:
        sim = SimConsole(rig, archive, console)
        sim.pump(0.2)
        console.print("simulated board on %s (flash in %s, %s clock)" % (rig.port, storage, clock))
        if args.script:
            return run_script(sim, args.script)
        return run_interactive(sim, console)


def make_rig(args, storage, clock):
    """The simulated board, or with --emulator the emulated Pico (flash image in `storage`)."""
    if getattr(args, "emulator", False):
        from yariboard.emurig import EmuRig

        return EmuRig(os.path.join(storage, "flash.bin"), board=args.board, clock=clock)
    return SimRig(storage, board=args.board, clock=clock)


def run_script(sim, path):
    try:
        with open(path, encoding="utf-8") as script:
            lines = script.readlines()
    except OSError as error:
        return fail(str(error))
    for number, line in enumerate(lines, 1):
        try:
            sim.execute(line)
        except ValueError as error:
            return fail("%s line %d: %s" % (path, number, error))
    for _ in range(5):
        sim.pump(0.05)
    sim.show()
    return 0


def keyboard_lines():
    """A queue fed with the lines typed at the terminal (then 'quit' at end of input)."""
    lines = queue.Queue()

    def read_keyboard():
        for line in sys.stdin:
            lines.put(line)
        lines.put("quit")

    threading.Thread(target=read_keyboard, daemon=True).start()
    return lines


def run_interactive(sim, console, until_finished=False):
    console.print(HELP)
    sim.show()
    lines = keyboard_lines()
    while not (until_finished and sim.session.finished()):
        try:
            line = lines.get(timeout=0.05)
        except queue.Empty:
            if sim.pump(0.05):
                sim.show()
            continue
        try:
            if not sim.execute(line):
                return 0
        except ValueError as error:
            console.print("[red]%s[/red]" % error)
            continue
        sim.show()
    return 0
