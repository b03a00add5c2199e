"""The console a person plays at: typed commands, the board's screen, one-line errors.

`SimConsole` runs the commands of `yariboard sim` (the hands' touches on the simulated board,
the host controls) against a rig and keeps the archive in step; `run_interactive` reads
them from the keyboard. `run_board` is the same loop for a real board, where only the host
controls can be typed. `watch_demo` draws the demo's game as it is played.

At a terminal the screen is redrawn in place (rich's Live), only when something on it
changed (the clocks tick once a second, the engine's search line as it goes), and the
keyboard is read a key at a time so that the line being typed is drawn under the board with
the last error: a redraw never scrolls them away. Elsewhere (a pipe, a file) each changed
screen is printed after the last, and the lines are read whole.
"""
import codecs
import contextlib
import os
import queue
import sys
import termios
import threading
import tty

from rich.console import Group
from rich.live import Live
from rich.text import Text

from shogicore.errors import MoveError
from shogicore.move import parse_usi, to_usi
from shogicore.variants import variant_by_name
from yariboard.board.link import Link
from yariboard.engines.builtin.search import Engine
from yariboard.play.controls import HELP as CONTROLS_HELP
from yariboard.play.controls import HostControls
from yariboard.play.recorder import Recorder
from yariboard.play.session import PlaySession
from yariboard.ui.screen import SessionScreen
from yariboard.ui.view import render

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
BOARD_HELP = CONTROLS_HELP + "\n  quit                    stop"
INTERRUPTED = "interrupted: the game stays on the board and in the archive"
PROMPT = "> "
BACKSPACES = ("\x7f", "\x08")
END_OF_INPUT = "\x04"     # Ctrl-D: read as a key, since the terminal no longer reads lines
ERASE_LINE = "\x15"       # Ctrl-U
ESCAPE = "\x1b"           # starts an arrow key's sequence, which is ignored whole


class SimConsole:
    """Executes sim commands against a rig and keeps the archive in step."""

    def __init__(self, rig, archive, console, engines=None, names=("player", "player"),
                 time_limit=None, clock=None, watch=None):
        """`watch(session, leds, phase)`, when given, is called after every step (the web
        page and the voice of --serve and --voice)."""
        self.rig = rig
        self.watch = watch
        self.console = console
        self.names = names
        self.link = Link(finder=rig.ports, clock=rig.board_seconds)
        self.recorder = Recorder(self.link, archive, black=names[0], white=names[1])
        self.session = PlaySession(self.recorder, engines or {}, time_limit=time_limit,
                                   make_hint_engine=Engine, clock=clock)
        self.screen = SessionScreen(self.session)
        self.controls = HostControls(self.session, archive, arrange=rig.arrange)

    def pump(self, timeout=0.05):
        events = self.session.step(timeout)
        self.controls.followed(events)
        if self.watch is not None:
            self.watch(self.session, self.rig.led_styles(), self.rig.phase())
        return events

    def state(self):
        """The ViewState of the simulated board now."""
        return self.screen.state(self.rig.led_styles(), self.names, self.rig.phase())

    def show(self):
        """Print the screen."""
        self.console.print(render(self.state()))

    def execute(self, line):
        """Run one command; returns False for quit. ValueError explains a bad command."""
        words = line.split("#", 1)[0].split()
        if not words:
            return True
        verb, args = words[0].lower(), words[1:]
        if verb == "quit" and not args:
            return False
        if not (self._hands(verb, args) or self._console_command(verb, args)
                or self.controls.execute(verb, args)):
            raise ValueError("unknown command or wrong arguments %r (type help)" % line.strip())
        if self.rig.plugged:
            self.pump(0.1)
        return True

    def _hands(self, verb, args):
        """What a person does on the board (pieces, buttons, a whole move, waiting): True
        if `verb` was one."""
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
        else:
            return False
        return True

    def _console_command(self, verb, args):
        """The board's power and the console's own commands: True if `verb` was one."""
        if verb in ("reset", "unplug", "replug") and not args:
            self._power(verb)
        elif verb == "show" and not args:
            self.show()
        elif verb == "help" and not args:
            self.console.print(HELP)
        else:
            return False
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
            verb, words = self._await_choice_or_move()
            if verb == "refused":
                raise ValueError(self._refused(usi, words))
            if verb != "choice":
                return
            self.tap("A" if words[0] == wanted else "B")
        raise ValueError("the board never offered %s" % wanted)

    def _refused(self, usi, words):
        """Why the board did not record the typed move, and what it waits for now."""
        text = "the board did not record %s (%s): put the lit squares right" % (
            usi, words[0] if words else "refused")
        order = self.session.lit_order()
        return text + (", then carry out %s" % order if order else "")

    def _await_choice_or_move(self):
        """The board's answer to a move made: (verb, words) of the choice it offers, or of
        the event that ended the move (move, refused, illegal, end). Waited for in the
        board's own time, which a busy machine slows as much as the board."""
        deadline = self.rig.board_seconds() + CHOICE_WAIT_SECONDS
        while self.rig.board_seconds() < deadline:
            for verb, words in self.pump(0.05):
                if verb in ("choice", "move", "refused", "illegal", "end"):
                    return verb, words
            if self.rig.clock == "virtual":
                self.rig.wait(50)
        raise ValueError("the board did not take the move (still %s)" % (self.rig.phase() or "busy"))


class Keyboard:
    """The lines typed at the keyboard, 'quit' at the end of input.

    With `keys` (stdin and the screen both a terminal) the terminal is put in cbreak mode
    without echo while in use, and `typed` holds the line being typed for the screen to
    draw; Ctrl-C still interrupts. Otherwise whole lines are read as they come."""

    def __init__(self, keys, stream=None):
        self.stream = stream or sys.stdin
        self.keys = keys
        self.typed = ""
        self._lines = queue.Queue()
        self._saved = None        # the terminal's settings, put back on leaving

    def __enter__(self):
        if self.keys:
            fd = self.stream.fileno()
            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
            mode = termios.tcgetattr(fd)
            mode[3] &= ~termios.ECHO
            termios.tcsetattr(fd, termios.TCSADRAIN, mode)
        reader = self._read_keys if self.keys else self._read_lines
        threading.Thread(target=reader, daemon=True).start()
        return self

    def __exit__(self, *exc):
        if self._saved is not None:
            termios.tcsetattr(self.stream.fileno(), termios.TCSADRAIN, self._saved)
        return False

    def line(self, timeout):
        """The next line typed, or None if none came within `timeout` seconds."""
        try:
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def _read_lines(self):
        for line in self.stream:
            self._lines.put(line)
        self._lines.put("quit")

    def _read_keys(self):
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        escaped = False
        while True:
            try:
                data = os.read(self.stream.fileno(), 1024)
            except OSError:
                data = b""
            if not data:
                self._lines.put("quit")
                return
            for key in decoder.decode(data):
                if escaped:
                    escaped = not (key.isalpha() or key == "~")
                elif key == ESCAPE:
                    escaped = True
                elif key in "\r\n":
                    self._lines.put(self.typed)
                    self.typed = ""
                elif key in BACKSPACES:
                    self.typed = self.typed[:-1]
                elif key == ERASE_LINE:
                    self.typed = ""
                elif key == END_OF_INPUT and not self.typed:
                    self._lines.put("quit")
                elif key.isprintable():
                    self.typed += key


class Display:
    """The game's screen: redrawn in place at a terminal, with the last error and the line
    being typed under it; printed anew on each change elsewhere."""

    def __init__(self, console):
        self.console = console
        self.live = console.is_terminal
        self.error = ""
        self._drawn = None        # (state, error, typed) last drawn
        self._live = None

    def __enter__(self):
        if self.live:
            # "visible": a terminal shorter than the screen scrolls rather than loses the
            # input line at the bottom
            self._live = Live(console=self.console, auto_refresh=False, transient=False,
                              vertical_overflow="visible")
            self._live.start()
        return self

    def __exit__(self, *exc):
        if self._live is not None:
            self._live.stop()
        return False

    def say(self, error):
        """A one-line error: shown under the board until the next command."""
        self.error = error
        if not self.live and error:
            self.console.print(Text(error, style="red"), soft_wrap=True)

    def draw(self, state, typed=""):
        """Show `state` unless the screen already shows exactly it."""
        if self.live:
            drawn = (state, self.error, typed)
            if drawn != self._drawn:
                self._live.update(Group(render(state), Text(self.error, style="red"),
                                        Text(PROMPT + typed + "_")), refresh=True)
        else:
            drawn = (state, "", "")
            if drawn != self._drawn:
                self.console.print(render(state))
        self._drawn = drawn


def keyboard_for(console):
    """The Keyboard for `console`: key at a time only when both ends are a terminal."""
    return Keyboard(keys=console.is_terminal and sys.stdin.isatty())


def run_interactive(sim, console, until_finished=False):
    """The simulated board played from the keyboard until `quit` (or the game's end)."""
    console.print(HELP)
    try:
        with keyboard_for(console) as keyboard, Display(console) as display:
            return _read_and_run(sim, keyboard, display, until_finished)
    except KeyboardInterrupt:     # Ctrl-C: stop like `quit`, the game is saved on the board
        console.print(INTERRUPTED)
        return 0


def _read_and_run(sim, keyboard, display, until_finished):
    display.draw(sim.state(), keyboard.typed)
    while not (until_finished and sim.session.finished()):
        line = keyboard.line(timeout=0.05)
        if line is None:
            sim.pump(0.05)
        else:
            display.say("")
            try:
                if not sim.execute(line):
                    return 0
            except ValueError as error:
                display.say(str(error))
        display.draw(sim.state(), keyboard.typed)
    return 0


def run_board(session, controls, console, names, watch=None):
    """A real board played with the host controls typed at the keyboard, until the game
    ends or `quit`; the game stays on the board either way. `watch(session, leds, phase)`,
    when given, is called after every step (the board's LEDs are not known here)."""
    screen = SessionScreen(session)
    watch = watch or (lambda session, leds, phase: None)
    console.print("type `help` for the controls, `quit` to stop (the game stays on the board)")
    try:
        with keyboard_for(console) as keyboard, Display(console) as display:
            while not session.finished():
                controls.followed(session.step(0.05))
                watch(session, None, "")
                words = (keyboard.line(timeout=0) or "").split()
                if words and words[0].lower() == "quit":
                    break
                if words:
                    display.say("")
                    try:
                        if words[0].lower() == "help":
                            console.print(BOARD_HELP)
                        elif not controls.execute(words[0].lower(), words[1:]):
                            raise ValueError("unknown command %r (type help)" % " ".join(words))
                    except ValueError as error:
                        display.say(str(error))
                display.draw(screen.state(names=names), keyboard.typed)
            session.step(0.1)            # the last events (a resignation's end), then the screen
            watch(session, None, "")
            display.draw(screen.state(names=names), keyboard.typed)
    except KeyboardInterrupt:
        console.print(INTERRUPTED)
    return 0


@contextlib.contextmanager
def watch_demo(console, names):
    """A `watch` for play.demo.run_demo: the game drawn in place as it is played."""
    screen = None

    def watch(session, leds, phase):
        nonlocal screen
        if screen is None:
            screen = SessionScreen(session)
        live.update(render(screen.state(leds, names, phase)))

    with Live(console=console, refresh_per_second=8, transient=False) as live:
        yield watch
