"""The main loop: sensors and buttons -> interpreter -> saved game -> LEDs and serial.

One pass of `step()` takes the switch and button changes the watch (matrix.Watch) saw settle
since the last pass, each with the time it settled, reads at most one request line, lets the
interpreter's timers run and refreshes the LEDs; nothing in it waits, so a slow host or a
busy board never holds up the others. Every committed change of the game is saved to flash
before it is announced (docs/protocol.md), so a power cut loses nothing.

The code the board runs once or rarely lives in modules loaded for the occasion and unloaded
after (boardfw/startup.py at power-up, boardfw/requests.py for the rarer requests), so it
takes no RAM through a game. They drive the controller through its public names only:
`make_game`, `set_game`, `save`, `save_changes`, `usi_moves`, `handle`, `send`,
`sfen_words`, `report_mismatch`, `refresh_leds`, and the fields `square_at`, `led_at`,
`last_seq` and `ledtest_start` (set at power-up or by a request); the names with a leading
underscore are the controller's own.
"""
import binascii
import gc
import os
import time
from micropython import const

from boardfw import ledlang, protocol, unload
from boardfw.buttons import Buttons
from boardfw.leds import Leds
from boardfw.storage import GameStore, SavedGame
from boardfw.matrix import Matrix, Watch
from shogicore.errors import MoveError
from shogicore.game import CASUAL, Game
from shogicore.move import parse_usi, to_usi

_LED_REFRESH_MS = const(20)  # blink patterns step every 125 ms; 50 Hz keeps them crisp
_LEDTEST_STEP_MS = const(750)  # red, green, blue, white: 3 s in all
_LEDTEST_COLOURS = const((0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF))
_MISMATCH_PHASES = const(("setup", "refused"))
_MESSAGE_CHARS = const(80)
_CLOSED = const(0x100)   # the event codes of matrix.Watch's ring
_BUTTON = const(0x200)  # error and warning texts are cut to fit in a frame
# Events after which the game must be saved before anything is announced.
_SAVED_EVENTS = const(("move", "undo", "illegal", "resign", "impasse"))


def message_words(text):
    """A free-text message as frame words: short enough for any frame, never a '#'."""
    return tuple(text[:_MESSAGE_CHARS].replace("#", "-").split())


def new_game_id():
    return binascii.hexlify(os.urandom(4)).decode()


def make_game(variant, sfen=None, mode=CASUAL, handicap=None):
    """Game(...), and the SFEN reader unloaded again, whether the text was good or not: a
    game is set up now and then, and the moves need the RAM."""
    try:
        return Game(variant, sfen=sfen, mode=mode, handicap=handicap)
    finally:
        unload("shogicore.sfen")


class Controller:
    def __init__(self, hw, config, link, store=None):
        self.hw = hw
        self.config = config
        self.link = link
        self.store = store or GameStore(hw.storage_dir)
        # A change that lasts the debounce time is read over that time less up to two
        # sampling steps (it may begin just after one reading and end just before another).
        settle_ms = config.debounce_ms - 2 * hw.sample_ms
        self.matrix = Matrix(hw.matrix_pins, config.ranks, config.files, settle_ms)
        self.buttons = Buttons(hw.button_pins, settle_ms)
        self.watch = Watch(self.matrix, self.buttons)
        self.leds = Leds(hw.strip, config)
        self.seq = 0
        self.game = None
        self.game_id = None
        self.interpreter = None
        self._presses = []            # reused: the loop allocates nothing when idle
        self._led_due = 0
        self.ledtest_start = None
        self.square_at = None         # bytearray: row*files+col -> square (set at boot)
        self.led_at = None            # bytearray: rules-core square -> LED index (likewise)
        self._reported_mismatch = []
        self._last_request = None     # (line, reply words) for retried requests
        self.last_seq = None          # SEQ of the last changing request carried out

    # -- boot and loop -------------------------------------------------------------------
    def run(self):
        self.boot()
        while True:
            self.step()
            self.hw.idle()

    def boot(self):
        """Power-up: the saved game resumed (or a new one), the host greeted, the whole board
        read. Done by boardfw/startup.py, loaded for the occasion: it runs once."""
        from boardfw import startup

        try:
            startup.boot(self)
        finally:
            unload("boardfw.startup")

    def step(self):
        now = self.hw.ticks_ms()
        watch = self.watch
        interpreter = self.interpreter
        if not self.hw.sample_ms:    # no interrupt samples (the unix port): the loop does
            watch.scan(now)
        touched = False
        buttons = self.buttons
        presses = self._presses
        while True:   # the changes in the order they settled, each at its own time
            event = watch.pop(now)
            at = now
            if event is not None:
                code, at = event
                if code & _BUTTON:
                    buttons.update(code & 0xFF, code & _CLOSED, at, presses)
                else:
                    self.handle(interpreter.on_sensor(self.square_at[code & 0xFF],
                                                       code & _CLOSED, at))
                touched = True
            pressed = buttons.poll(at, presses)   # (and the long presses due by then)
            if presses:   # (`del presses[:]` makes a slice: not on an idle pass)
                for name, long_press in presses:
                    self.handle(interpreter.on_button(name, long_press, at))
                del presses[:]
                touched = True
            if event is None:
                break
        line = self.link.read_line()
        if line is not None:
            self._serve(line)
            touched = True
        # (while a button is down its press is still to come: a choice waits for it)
        if self.handle(interpreter.tick(now, pressed, watch.blind_end)):
            touched = True
        if touched:
            self.report_mismatch()
            self.refresh_leds(now)
        elif time.ticks_diff(now, self._led_due) >= 0:
            self.refresh_leds(now)

    # -- the game ------------------------------------------------------------------------
    def set_game(self, game, game_id):
        self.game = game
        self.game_id = game_id
        if self.interpreter is None:
            # Imported here, once: at power-up the start-up code and the SFEN reader have
            # come and gone by now, so they never share the heap with the interpreter's.
            gc.collect()   # its code is the largest block the board loads: room for it
            from boardfw.interpreter import Interpreter

            self.interpreter = Interpreter(game, self.hw.ticks_ms())
            return []
        return self.interpreter.set_game(game)

    def save(self):
        """The whole game written anew: a new game, and the compaction of the record."""
        game = self.game
        variant = game.variant
        illegal = "-" if game.illegal_move is None else to_usi(variant, game.illegal_move)
        self.store.save(SavedGame(self.game_id, variant.name, game.mode, game.handicap or "-",
                                  protocol.result_word(game.result), illegal, game.start_sfen,
                                  self.usi_moves(0, self._ply())))

    def save_changes(self, events):
        """Append what a batch of events changed: each move and take-back in turn, then the
        result if it changed. The whole game is written anew when the store asks for a
        compaction, and should the record's count of moves ever differ from the game's."""
        store = self.store
        game = self.game
        variant = game.variant
        due = False
        for event in events:
            if event[0] == "move":
                due = store.append("+", to_usi(variant, event[1]))
            elif event[0] == "undo":
                due = store.append("-")
        result = protocol.result_word(game.result)
        illegal = "-" if game.illegal_move is None else to_usi(variant, game.illegal_move)
        if result != store.result or illegal != store.illegal:
            due = store.append("=", result, illegal)
        if due or store.plies != self._ply():
            gc.collect()   # the record is built whole: from a heap left as compact as can be
            self.save()

    def usi_moves(self, first, end):
        """The game's moves from index `first` up to `end` as USI, made one at a time."""
        position = self.game.position
        variant = self.game.variant
        for ply in range(first, end):
            yield to_usi(variant, position.move_at(ply))

    def _ply(self):
        return self.game.position.plies

    def sfen_words(self):
        """The position's SFEN as the frame's last word, given by ranks (its frame is
        written piece by piece: protocol.write_frame)."""
        return [self.game.position.sfen_parts()]

    # -- interpreter events --------------------------------------------------------------
    def handle(self, events):
        """Save, then announce each event; returns True if there were any."""
        if not events:
            return False
        saved = False
        later = 0   # moves of the batch still to announce (two when a reply overlapped)
        for event in events:
            if event[0] == "move":
                later += 1
        for event in events:
            kind = event[0]
            if kind in _SAVED_EVENTS and not saved:
                self.save_changes(events)   # the game already holds every event of the batch
                saved = True
            if kind == "move":
                later -= 1
            self._announce(event, later)
        gc.collect()   # between moves, so the heap does not fragment over a long game
        return True

    def _announce(self, event, later=0):
        """Send one event; a move with `later` moves after it in the batch is sent with its
        own ply and position (the later moves are taken off and put back for that)."""
        kind = event[0]
        variant = self.game.variant
        if kind == "move":
            position = self.game.position
            undone = [position.pop() for _ in range(later)] if later else ()
            self.send("move", str(self._ply()), to_usi(variant, event[1]), *self.sfen_words())
            for m in reversed(undone):
                position.push(m)
        elif kind == "undo":
            self.send("undo", str(self._ply() + 1), *self.sfen_words())
        elif kind == "illegal":
            self.send("illegal", "-" if event[1] is None else to_usi(variant, event[1]))
        elif kind == "game-over":
            self.send("end", protocol.result_word(self.game.result), str(self._ply()))
        elif kind == "refused":
            self.send("refused", event[1])
        elif kind == "choice":
            self.send("choice", to_usi(variant, event[1]))
        elif kind == "hint-request":
            self.send("hint-request", str(self._ply()))
        elif kind == "new-game":   # set up as the host's `new` request sets one up
            game = self.game
            self._answer("new", (variant.name, game.handicap or "-", game.mode))
        # resign and impasse are announced by the game-over event that follows them;
        # ready by the mismatch report that follows every batch.

    def report_mismatch(self):
        interpreter = self.interpreter
        squares = interpreter.mismatch() if interpreter.phase() in _MISMATCH_PHASES else []
        if squares != self._reported_mismatch:
            self._reported_mismatch = squares
            name = self.game.variant.square_name
            self.send("mismatch", str(len(squares)),
                       *[name(sq) for sq in squares[:protocol.MISMATCH_LIST]])

    # -- LEDs ----------------------------------------------------------------------------
    def refresh_leds(self, now):
        self._led_due = time.ticks_add(now, _LED_REFRESH_MS)
        leds = self.leds
        if self.ledtest_start is not None:
            step = time.ticks_diff(now, self.ledtest_start) // _LEDTEST_STEP_MS
            if step < len(_LEDTEST_COLOURS):
                leds.fill(_LEDTEST_COLOURS[step])
                leds.show()
                return
            self.ledtest_start = None
        leds.clear()
        led_at = self.led_at
        interpreter = self.interpreter
        lit = interpreter.lit
        for i in range(0, 2 * interpreter.frame(now), 2):
            leds.set(led_at[lit[i]], ledlang.colour(lit[i + 1], now))
        leds.show()

    # -- serial requests -----------------------------------------------------------------
    def send(self, *words):
        self.link.send(self.seq, words)
        self.seq = protocol.next_seq(self.seq)

    def _serve(self, line):
        """Answer one request line; any failure becomes an `err` frame, the game untouched."""
        if self._last_request is not None and line == self._last_request[0]:
            self.send(*self._last_request[1])   # a retry: answer again, do not act twice
            return
        if line == b"":
            reply = ("err", "-", "long", "line", "too", "long")
        else:
            reply = self._execute(line)
        self.send(*reply)

    def _execute(self, line):
        try:
            seq, verb, args = protocol.decode(line)
        except protocol.ProtocolError as e:
            return ("err", "-", e.code) + message_words(e.message)
        rseq = str(seq)
        try:
            changes = protocol.check_request(verb, args)
            if changes:
                last = self.last_seq
                # SEQ then frame CRC, as the save keeps them (storage.py)
                tag = (line[:line.find(b" ")] + line.rstrip(b"\r")[-8:]).decode()
                # newer: up to half the SEQ circle ahead, so the numbers may wrap past 65535
                if last is not None and not 0 < (seq - last) % 65536 < 32768:
                    if seq != last or tag != self.store.request:
                        raise protocol.ProtocolError("stale", "an old request: not carried out")
                    # The last request carried out, its change saved, sent again (a restart
                    # took its reply): answered from the game as it is, not carried out twice.
                    args = None
                self.store.seq = tag   # saved with the change it makes
            try:
                words = self._answer(verb, args)
            finally:
                self.store.seq = None
            reply = ("ok", rseq, verb) + tuple(words)
            if changes:
                self.last_seq = seq
        except protocol.ProtocolError as e:
            reply = ("err", rseq, e.code) + message_words(e.message)
        except Exception as e:  # a fault in the firmware itself: report it, keep running
            reply = ("err", rseq, "internal", type(e).__name__)
        self._last_request = (line, reply)
        return reply

    def _answer(self, verb, args):
        """Carry out a checked request; its reply words (docs/protocol.md, one verb each).
        The rarer verbs are answered by boardfw/requests.py, loaded for the occasion; `args`
        None: the retry of the request saved last (_execute), a rare verb too."""
        game = self.game
        if verb == "state":
            return [self.game_id, game.variant.name, game.mode, str(self._ply()),
                    protocol.result_word(game.result)] + self.sfen_words()
        if verb == "show":
            self.interpreter.order(self._legal_move(args[0]))
            return (args[0],)
        if verb == "hint":
            self.interpreter.hint(self._legal_move(args[0]))
            return (args[0],)
        if verb == "clear":
            self.interpreter.clear_guidance()
            return ()
        from boardfw import requests

        try:
            return requests.answer(self, verb, args)
        finally:
            unload("boardfw.requests")

    def _legal_move(self, usi):
        if self.game.result is not None:
            raise protocol.ProtocolError("over", "the game has ended")
        try:
            m = parse_usi(self.game.variant, usi)
        except MoveError:
            raise protocol.ProtocolError("args", "not a USI move")
        if not self.game.position.is_legal(m):
            raise protocol.ProtocolError("illegal", "not legal here")
        return m
