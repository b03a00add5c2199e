"""Playing through the board: engines order their moves, people carry them out.

An engine's move is sent with `show` (the board lights it as an order) and counts only when
the board commits it, i.e. once someone has performed it with the pieces; the recorder
archives it then, like any move. The engine searches in a thread of its own, so the screen
shows the search as it goes and the keyboard and the board are served meanwhile. A hint (the
board's button or the host's request) is the engine's choice for the side to move, lit with
`hint`. After a reconnect or a board reboot the pending order is sent again (a rebooted
board has forgotten it) without a new search. With a clock, the engine's time per move
comes from it and a flag fall is recorded on the board as a loss on time. The engine has
moved once its move is lit: its clock stops there (its increment added) and the person's
runs while they carry the move out on the board, as a person facing a computer across a
real board expects; the board's commit of that move then changes no clock.

The screen is drawn from the session by yariboard.ui.screen; the session keeps only the
facts it shows (the engine's latest opinion, the search in progress, what is lit and why).
"""
import sys
import threading
import time

from shogicore.move import parse_usi, to_usi
from yariboard.records.notation import to_hodges

from yariboard.engines.base import Limit
from yariboard.board.link import BoardRefused, Disconnected

HINT_SECONDS = 0.5
SIDE_WORDS = ("black", "white")
# Events after which any note about the previous position is out of date.
NEW_POSITION_EVENTS = ("move", "undo", "new", "hello")
# A search holds the interpreter while it runs in its thread; the board's thread, back from
# the serial port or SQLite several times a move, waits for it up to Python's switch interval
# each time (5 ms by default). While engines search, it gets the interpreter back within this.
SWITCH_INTERVAL_S = 0.0005


class Search:
    """One engine search running in a thread; `result` is set when it is done."""

    def __init__(self, engine, position, time_limit, key):
        self.engine = engine
        self.position = position
        self.key = key
        self.started = time.monotonic()
        self.result = None
        self.error = None
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
        self._thread = threading.Thread(target=self._run, args=(time_limit,), daemon=True)
        self._thread.start()

    def _run(self, time_limit):
        try:
            self.result = self.engine.search(self.position, Limit(time=time_limit))
        except Exception as error:   # an engine that dies is reported, not fatal
            self.error = error

    def done(self):
        return not self._thread.is_alive()


class PlaySession:
    def __init__(self, recorder, engines, time_limit=None, on_order=None, hint_engine=None,
                 make_hint_engine=None, clock=None):
        """`engines`: {BLACK or WHITE: engine} for the sides the computer plays.

        `on_order(position, move)` is called after an engine move was lit on the board
        (the demo's scripted hands carry it out there). Hints come from `hint_engine`, else
        from `make_hint_engine()`, called when first asked: never from the playing engine,
        which may be a weakened level. `hint_name` is shown with each hint, searched for
        `hint_seconds`.
        `clock`: a clocks.GameClock, or None to play without time limits.
        """
        self.recorder = recorder
        self.engines = engines
        self.time_limit = time_limit
        self.on_order = on_order
        self.hint_engine = hint_engine
        self.make_hint_engine = make_hint_engine
        self.hint_name = "built-in engine"
        self.hint_seconds = HINT_SECONDS
        self.clock = clock
        self.opinion = None        # (position, search result) of the engine's latest opinion
        self.message = ""
        self.refusal = ""
        self.choice = ""           # Hodges of the move a board without a picture offers
        self.mismatch = []         # squares where the pieces differ from the game, if any
        self.thinking = None       # the Search in progress
        self.ordering = True       # False while the host lights other moves (a replay)
        self._hint = None          # (board game, SFEN, Hodges) of the hint last lit
        self._order = None         # (board game, SFEN, words) of the ordered move last lit
        self._chosen = {}          # (board game, SFEN) -> engine move, searched once
        self._lit = None           # (board game, SFEN, link connections) last sent with show
        self._handed = None        # (board game, SFEN) where the engine's move stopped its clock
        self._told = None          # (board game, link connections) the board was told `host` for

    def finished(self):
        return self.recorder.result != "-"

    def step(self, timeout=0.05):
        events = self.recorder.step(timeout)
        for verb, words in events:
            self._forget_for(verb)
            self._note(verb, words)
        self._check_flag()
        self._tell_host_side()
        self._order_engine_move()
        return events

    def _forget_for(self, verb):
        """Drop what the board's event `verb` leaves out of date (a choice, a message, an
        opinion of another position), and keep the clock in step with a new position."""
        if verb in NEW_POSITION_EVENTS or verb in ("refused", "end"):
            self.choice = ""
        if verb in NEW_POSITION_EVENTS:
            self.message = ""
            self._follow_clock(verb)
        if verb in ("undo", "new"):
            self.opinion = None    # of a position that is no longer on the board

    def _note(self, verb, words):
        """What the board's event tells the person (or asks of the session: a hint)."""
        if verb == "hint-request":
            self.hint()
        elif verb == "illegal":
            self.message = "illegal move %s: it loses (tournament)" % (words[0] if words else "")
        elif verb == "refused":
            self.refusal = words[0] if words else ""
        elif verb == "choice" and words and self.recorder.position is not None:
            try:
                self.choice = to_hodges(self.recorder.position,
                                        parse_usi(self.recorder.position.variant, words[0]))
            except ValueError:
                self.choice = words[0]
        elif verb == "mismatch":
            self.mismatch = words[1:] if words and words[0] != "0" else []
        elif verb == "warning":
            self.message = "board warning: " + " ".join(words)
        elif verb == "end" and self.clock:
            self.clock.stop()

    def _tell_host_side(self):
        """Tell the board which side the engine plays, once per game and connection (a
        rebooted board forgets it): a long press of A is then the person's resignation even
        before the engine's first move is lit."""
        link = self.recorder.link
        if not link.connected() or link.needs_resync or self.recorder.board_game is None:
            return
        told = (self.recorder.board_game, link.connections)
        if self._told == told:
            return
        side = next(iter(self.engines)) if len(self.engines) == 1 else None
        # a board whose firmware predates `host` refuses it: it learns the side at `show`
        if self._send("host", "-" if side is None else SIDE_WORDS[side], refusal_is_final=True):
            self._told = told

    def _send(self, *words, refusal_is_final=False):
        """A request the session makes on its own (not typed by a person): True once the
        board has taken it. When the link is lost, or the board refuses (unless
        `refusal_is_final`), the recorder resynchronises and the session asks again later."""
        try:
            self.recorder.link.request(*words)
            return True
        except BoardRefused:
            if refusal_is_final:
                return True
        except Disconnected:
            pass
        self.recorder.link.want_resync()
        return False

    def lit_hint(self):
        """Hodges of the hint lit for the position on the board, else ''."""
        return self._hint[2] if self._hint and self._hint[:2] == self._key() else ""

    def lit_order(self):
        """What the lit order is ("the engine's move P-7f") for the position on the board."""
        return self._order[2] if self._order and self._order[:2] == self._key() else ""

    def searching(self):
        """The Search in progress for the position on the board, or None (one for a position
        taken back runs out its time unseen)."""
        search = self.thinking
        if search is None or search.done() or search.key != self._key():
            return None
        return search

    def _key(self):
        """The game and position on the board: what a search, an order or a hint is for
        (after a take-back the same ply may hold another position)."""
        position = self.recorder.position
        return (self.recorder.board_game, position.sfen() if position is not None else "")

    # -- the clock ------------------------------------------------------------------------

    def _follow_clock(self, verb):
        position = self.recorder.position
        if self.clock is None or position is None:
            return
        if verb == "move" and not self.finished():
            # the engine's move, carried out: its clock stopped when it was lit
            if self.clock.running != position.side:
                self.clock.moved(1 - position.side)
        elif verb == "new":
            self.clock.reset()
            self.clock.start(position.side)
        elif verb == "hello" and self.clock.running is not None:
            pass                 # a reboot changes no one's turn: the clock runs on
        elif not self.finished():
            self.clock.start(position.side)

    def _check_flag(self):
        if self.clock is None or self.finished() or self.recorder.position is None:
            return
        if self.clock.running is None:
            self.clock.start(self.recorder.position.side)
        side = self.clock.flag()
        if side is None:
            return
        if self._send("resign", SIDE_WORDS[side], "time"):
            self.clock.stop()

    # -- the engine's move ----------------------------------------------------------------

    def _order_engine_move(self):
        position = self.recorder.position
        if position is None or self.finished() or position.side not in self.engines:
            return
        if not self.ordering or not self.recorder.link.connected() or self.recorder.link.needs_resync:
            return
        key = self._key()
        lit = key + (self.recorder.link.connections,)
        if self._lit == lit:
            return
        move = self._chosen.get(key)
        if move is None:
            move = self._searched_move(position, key)
            if move is None:
                return
        if not self._send("show", to_usi(position.variant, move)):
            return
        if self.clock is not None and self._handed != key:
            self.clock.moved(position.side)     # the engine has moved: the person's time
            self._handed = key
        self._lit = lit
        self._order = key + ("the engine's move " + to_hodges(position, move),)
        if self.on_order:
            self.on_order(position, move)

    def _searched_move(self, position, key):
        """The engine's move once its search for `key` is done; starts the search."""
        search = self.thinking
        if search is not None and not search.done():
            return None        # (a search for an older position first runs out its time)
        if search is None or search.key != key:
            engine = self.engines[position.side]
            limit = self.time_limit
            if self.clock is not None:
                limit = min(limit or 1e9, self.clock.think_time(position.side))
            self.thinking = Search(engine, position.copy(), limit, key)
            return None
        self.thinking = None
        result = search.result
        if search.error is not None:
            self.message = "engine failed: %s" % search.error
            return None
        if result.move is None:
            if result.resign:  # the engine gives up: recorded on the board like a player's
                self._send("resign", SIDE_WORDS[position.side])
            return None
        self.opinion = (search.position, result)
        self._chosen[key] = result.move
        return result.move

    # -- host controls --------------------------------------------------------------------

    def hint(self, engine=None):
        """Light the engine's choice for the side to move; returns it (USI) or None."""
        position = self.recorder.position
        if position is None or self.finished():
            self.message = "no hint: no game in progress"
            return None
        if position.side in self.engines:
            self.message = "no hint: the engine is to move"
            return None
        if self.thinking is not None and not self.thinking.done():
            self.message = "no hint: the engine is still thinking"
            return None
        engine = engine or self.hint_engine
        if engine is None and self.make_hint_engine is not None:
            engine = self.hint_engine = self.make_hint_engine()
        if engine is None:
            self.message = "no hint: no engine to ask"
            return None
        result = engine.search(position.copy(), Limit(time=self.hint_seconds))
        if result.move is None:
            self.message = "no hint: no legal move"
            return None
        self.opinion = (position.copy(), result)
        usi = to_usi(position.variant, result.move)
        try:
            self.recorder.link.request("hint", usi)
        except (BoardRefused, Disconnected) as error:
            self.message = "no hint: %s" % error
            return None
        self._hint = self._key() + (to_hodges(position, result.move),)
        self.message = "hint from %s" % self.hint_name
        return usi

    def order(self, usi, whose):
        """Light `usi` as a move to carry out (`whose`: "the replayed game's move")."""
        position = self.recorder.position
        self.request("show", usi)
        self._order = self._key() + ("%s %s" % (whose, to_hodges(position, parse_usi(
            position.variant, usi))),)

    def human_side(self):
        """The side a person plays when the engine plays the other; None if both or none."""
        position = self.recorder.position
        if len(self.engines) != 1:
            return position.side if position is not None and not self.engines else None
        return 1 - next(iter(self.engines))

    def take_back(self):
        """Take back the last move, and the engine's reply before it, so that a person
        is to move again (the board lights the squares to put right)."""
        position = self.recorder.position
        engine_replied = len(self.engines) == 1 and (position.side ^ 1) in self.engines
        self.request("undo")
        if engine_replied and position.plies > 1:
            self.request("undo")

    def request(self, *words):
        """A board request for a host control; BoardRefused says why it was refused."""
        return self.recorder.link.request(*words)
