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
import time

from rich.console import Console
from rich.text import Text

from boardfw import config as board_config
from shogicore.errors import MoveError
from shogicore.notation import parse_usi, to_usi
from shogicore.variants import variant_by_name
from yariboard import resources
from yariboard.cli.common import add_board_option, add_db_option, fail, open_archive
from yariboard.play.controls import HELP as CONTROLS_HELP
from yariboard.play.controls import MODES, VARIANTS, HostControls, check_new_game
from yariboard.board.link import Link
from yariboard.play.recorder import Recorder
from yariboard.play.session import PlaySession
from yariboard.sim.rig import SimRig
from yariboard.ui.view import render

DEFAULT_BOARD = "yari-9x7"
TAP_MS = 200              # a short press of a button
CHOICE_TRIES = 10         # more than the longest choice (seven drop kinds)
CHOICE_WAIT_SECONDS = 5.0
MAX_WAIT_MS = 60000       # a typed wait longer than this is surely a slip

HELP = """commands:
  lift SQ | place SQ      a piece leaves / is put on a square (lift 7g, place 7f)
  move USI                the touches of a whole move (move 7g7f, move P*5e), and
                          the board's choice as a person makes it: move 7d7c
                          declines the promotion, 7d7c+ takes it, N*7e drops a Knight
  press A|B | release A|B hold / let go of a button;  tap A|B  a short press
  wait MS                 let MS milliseconds of board time pass
%s
  reset                   power-cycle the board
  unplug | replug         pull / plug the cable
  show                    print the board again;  help;  quit""" % CONTROLS_HELP


def add_game_options(parser):
    """`--variant`, `--handicap`, `--mode` with their valid names in the help."""
    handicaps = sorted(set(name for variant in VARIANTS for name in variant_by_name(variant).handicaps))
    parser.add_argument("--variant", choices=VARIANTS, default=None,
                        help="start a new game of this variant (%s); default: the board's" % ", ".join(VARIANTS))
    parser.add_argument("--handicap", default=None, metavar="NAME",
                        help="start a new game with this handicap: %s" % ", ".join(handicaps))
    parser.add_argument("--mode", choices=MODES, default=None,
                        help="start a new game in this mode (%s; default casual)" % ", ".join(MODES))


def check_game_options(args, board_variant):
    """The (variant, handicap, mode) of the new game the options ask for, or None for none.

    ValueError names the bad value and every valid one."""
    if args.variant is None and args.handicap is None and args.mode is None:
        return None
    variant = args.variant or board_variant
    if variant != board_variant:
        raise ValueError("this board plays %s, not %s (choose the board with --board)"
                         % (board_variant, variant))
    handicap, mode = args.handicap or "-", args.mode or "casual"
    check_new_game(variant, handicap, mode)
    return variant, handicap, mode


def register(subparsers):
    parser = subparsers.add_parser(
        "sim", help="run the firmware on a simulated board and drive its sensors",
        description=__doc__.split("\n\n")[0], epilog=HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_db_option(parser)
    parser.add_argument("--script", metavar="FILE", help="run the commands of FILE, then exit")
    parser.add_argument("--clock", choices=("real", "virtual"),
                        help="board time: real (default at the keyboard) or virtual (default for scripts)")
    add_board_option(parser)
    parser.add_argument("--storage", metavar="DIR", help="the board's flash directory (default: a new temporary one)")
    add_game_options(parser)
    parser.add_argument("--emulator", action="store_true",
                        help="run the real Pico firmware image on the emulated RP2040 (docs/emulator.md)")
    parser.set_defaults(func=run)


def board_for(args):
    """The board file named by --board, else one that plays --variant, else yari-9x7."""
    board = getattr(args, "board", None)
    if board or not args.variant:
        return board or DEFAULT_BOARD
    for name in resources.board_names():
        if board_config.load(resources.board_file(name)).variant == args.variant:
            return name
    return DEFAULT_BOARD


class SimConsole:
    """Executes sim commands against a rig and keeps the archive in step."""

    def __init__(self, rig, archive, console, engines=None, names=("player", "player"),
                 time_limit=None, clock=None):
        self.rig = rig
        self.console = console
        self.names = names
        self.link = Link(finder=rig.ports, clock=rig.board_seconds)
        self.recorder = Recorder(self.link, archive, black=names[0], white=names[1])
        self.session = PlaySession(self.recorder, engines or {}, time_limit=time_limit,
                                   clock=clock)
        self.controls = HostControls(self.session, archive, arrange=rig.arrange)
        self._shown = None        # the ViewState last printed

    def pump(self, timeout=0.05):
        events = self.session.step(timeout)
        self.controls.followed(events)
        return events

    def show(self, only_if_changed=False):
        """Print the screen (or only if anything on it changed since it was last printed)."""
        state = self.session.view(self.rig.led_styles(), self.names, self.rig.phase())
        if only_if_changed and state == self._shown:
            return
        self._shown = state
        self.console.print(render(state))

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
                self.tap(button)
            else:
                self.rig.act("%s %s" % (verb, button))
        elif verb == "move" and len(args) == 1:
            self._move(args[0])
        elif verb == "wait" and len(args) == 1 and args[0].isdigit():
            if int(args[0]) > MAX_WAIT_MS:
                raise ValueError("wait at most %d ms at a time" % MAX_WAIT_MS)
            self.rig.wait(int(args[0]))
        elif verb in ("reset", "unplug", "replug") and not args:
            self._power(verb)
        elif verb == "show" and not args:
            self.show()
        elif verb == "help" and not args:
            self.console.print(HELP)
        elif verb == "quit" and not args:
            return False
        elif not self.controls.execute(verb, args):
            raise ValueError("unknown command or wrong arguments %r (type help)" % line.strip())
        if self.rig.plugged:
            self.pump(0.1)
        return True

    def tap(self, button):
        """A short press, held long enough for the board to see it go down and up."""
        self.rig.act("press " + button)
        self.rig.act("release " + button, TAP_MS)
        self.rig.wait(3 * self.rig.board.config.debounce_ms)

    def _square(self, text):
        """The square name, checked against the board's variant (ValueError if off it)."""
        variant = variant_by_name(self.rig.board.config.variant)
        try:
            return variant.square_name(variant.parse_square(text.lower()))
        except ValueError as error:
            raise ValueError("%s; squares are like 7g: files %d..1, ranks a..%s" % (
                error, variant.files, chr(96 + variant.ranks)))

    def _power(self, verb):
        if verb == "replug" and self.rig.plugged:
            raise ValueError("the board is plugged in already")
        if verb != "replug" and not self.rig.plugged:
            raise ValueError("the board is unplugged (no power): type replug")
        getattr(self.rig, verb)()

    def _game(self):
        position = self.recorder.position
        if position is None or not self.rig.plugged:
            raise ValueError("no game on the board yet (is it plugged in?)")
        return position

    def _move(self, usi):
        """Carry out `usi` as a person would: the touches, then the choice the board offers
        (B until the wanted promotion or piece is lit, then A)."""
        position = self._game()
        if self.session.finished():
            raise ValueError("the game is over (%s): type new for another" % self.recorder.result)
        try:
            move = parse_usi(position.variant, usi)
        except MoveError as error:
            raise ValueError("%s (moves are USI: 7g7f, 7d7c+, N*5e)" % error)
        if not position.is_legal(move):
            raise ValueError("%s is not legal here" % usi)
        wanted = to_usi(position.variant, move)
        self.rig.perform(position, move)
        for _ in range(CHOICE_TRIES):
            offered = self._await_choice_or_move()
            if offered is None:
                return
            self.tap("A" if offered == wanted else "B")
        raise ValueError("the board never offered %s" % wanted)

    def _await_choice_or_move(self):
        """The move the board offers in a choice, or None once a move was committed."""
        deadline = time.monotonic() + CHOICE_WAIT_SECONDS
        while time.monotonic() < deadline:
            for verb, words in self.pump(0.05):
                if verb == "choice":
                    return words[0]
                if verb in ("move", "refused", "illegal", "end"):
                    return None
            if self.rig.clock == "virtual":
                self.rig.wait(50)
        raise ValueError("the board did not take the move (still %s)" % (self.rig.phase() or "busy"))


def run(args):
    console = Console()
    clock = args.clock or ("virtual" if args.script else "real")
    with open_archive(args) as archive, make_rig(args, clock) as rig:
        try:
            new_game = check_game_options(args, rig.board.config.variant)
        except ValueError as error:
            return fail(str(error))
        sim = SimConsole(rig, archive, console)
        sim.pump(0.2)
        if new_game:
            sim.execute("new " + " ".join(new_game))
        console.print("simulated board on %s (flash in %s, %s clock)" % (rig.port, rig.storage_dir, clock))
        if args.script:
            return run_script(sim, args.script)
        return run_interactive(sim, console)


def make_rig(args, clock):
    """The simulated board, or with --emulator the emulated Pico (its flash image in
    --storage, else in a new folder that is kept, as a Pico keeps its flash)."""
    if getattr(args, "emulator", False):
        from yariboard.sim.emulator import EmuRig

        storage = getattr(args, "storage", None) or tempfile.mkdtemp(prefix="yariboard-emulator-")
        return EmuRig(os.path.join(storage, "flash.bin"), board=board_for(args), clock=clock)
    return SimRig(getattr(args, "storage", None), board=board_for(args), clock=clock)


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
    try:
        return _read_and_run(sim, console, until_finished)
    except KeyboardInterrupt:     # Ctrl-C: stop like `quit`, the game is saved on the board
        console.print("interrupted: the game stays on the board and in the archive")
        return 0


def _read_and_run(sim, console, until_finished):
    console.print(HELP)
    sim.show()
    lines = keyboard_lines()
    while not (until_finished and sim.session.finished()):
        try:
            line = lines.get(timeout=0.05)
        except queue.Empty:
            sim.pump(0.05)
            sim.show(only_if_changed=True)
            continue
        try:
            if not sim.execute(line):
                return 0
        except ValueError as error:
            console.print(Text(str(error), style="red"), soft_wrap=True)
            continue
        sim.show()
    return 0
