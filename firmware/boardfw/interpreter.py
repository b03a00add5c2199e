"""What did the person just do with the pieces? Occupancy changes in, moves and LEDs out.

The reed switches see only presence, so the interpreter compares what they see with the
occupancy the game's position implies. The difference (squares *missing* a piece, squares
with an *extra* one), plus which squares were lifted since the last move, names the move in
progress. A move counts only after the board has been still for SETTLE_MS: a piece that
merely passes over a square never stays that long. What presence cannot show (an optional
promotion, the kind of a dropped piece) is offered on the destination square's LED and
changed by re-seating the piece or pressing B. See docs/firmware-interpreter.md.

Pure logic: no machine, files or serial; runs the same on MicroPython and CPython.

Friend modules. boardfw/overlap.py reads the rare hands (two moves in one gesture, a capture
while the board was blind, a tournament's illegal move); the interpreter loads it for the
occasion and unloads it after, so its code takes no RAM in play. It works on the interpreter
through these names only, and they are public for it:
- `game`, `pos` (its position) and `variant`, as the controller has them;
- the reading: `shape` (a shape code, numbered alike in overlap.py; a test checks), `frm`,
  `to`; a friend may set the three to ask `candidates()` (the legal moves they could mean)
  about another reading, and leaves them set by `rebuild` or returns False (then the
  interpreter reads the board again);
- the gesture: `shown` ((from, to, sequence no.) of the last move put down, or None),
  `touched` (squares lifted since the last move), `when` (each square's sequence no. of its
  last change), `lifted_ms` (ticks_ms & 0xFFFF when each square last lost its piece),
  `changed_ms` (the last change), `ordered` (the PC's ordered move, or None);
- `destinations(frm)`, `emit(event)`, `clear_guidance()`, and `rebuild(now_ms, touched)` after
  playing or taking back a move of `game` mid-gesture.
"""
from array import array
from micropython import const

from shogicore.game import CASUAL
from shogicore.move import (drop_kind, is_drop, is_promotion, make_drop, move_from,
                            move_to)

from boardfw import ledlang, unload

SETTLE_MS = 300
CHOICE_MS = 4000
IMPASSE_ARM_MS = 3000

_NO_EVENTS = const(())
# The most squares lit at once: more than a whole board's worth of lights would ever say
# (a set-up from scratch lights the first this many squares to fix, then the next ones).
_LIT_MOST = const(64)
_LIT_COUNT = const(128)   # 2 * _LIT_MOST: the byte of `lit` holding how many bytes are written
_SEQ_LIMIT = const(0xFFFF)  # the largest sequence number an "H" array holds
_SEQ_HALF = const(0x8000)
# Per-square flags: _BRIEF, back on its switch within SETTLE_MS of leaving it (a nudge,
# not a capture); _MARK, already lit in the frame being built.
_BRIEF = const(1)
_MARK = const(2)
_UNMARK = const(~2)

# Results that a casual take-back may undo (a resignation or declaration may not).
UNDOABLE_ENDINGS = ("mate", "repetition", "perpetual-check")

# What the difference between the board and the position looks like.
_MATCH = const(0)  # the board shows the position
_LIFT = const(1)  # own piece lifted (maybe with the piece it will capture)
_VICTIM = const(2)  # an opposing piece lifted that a move could capture
_MOVE = const(3)  # own piece gone from one square, on another (or on a re-placed victim)
_DROP = const(4)  # a piece on an empty square, nothing lifted
_UNDO = const(5)  # the last move physically reversed
_UNDO_PART = const(6)  # the last move is being reversed
_UNDROP = const(7)  # the last dropped piece lifted: A takes the drop back
_OTHER = const(8)  # none of these: refused once it settles

# The interpreter's mode: what it is waiting for (one at a time; `phase()` names it). The
# first three read the board as the game goes on, told apart by the shape (_PLAY_MODES).
_IDLE = const(0)  # the board shows the position
_MOVING = const(1)  # pieces lifted or placed, not settled into a move yet
_TAKEBACK = const(2)  # the last dropped piece lifted: A takes the drop back (_UNDROP)
_REFUSED = const(3)  # the board came to rest in a state not accepted: the fix lights show
_SETUP = const(4)  # the pieces to be set out as the position shows (after sync or set_game)
_CHOICE = const(5)  # a choice offered on the destination's LED (_choice: the candidates)
_RESEAT = const(6)  # the same, its piece lifted to be re-seated (a choice: >= _CHOICE)
# The mode of each shape while the board is read as moves: _IDLE for _MATCH, _TAKEBACK for
# _UNDROP, else _MOVING.
_PLAY_MODES = const(b"\x00\x01\x01\x01\x01\x01\x01\x02\x01")


def _elapsed(now_ms, since):
    """Milliseconds from `since` to `now_ms` on a clock that wraps like ticks_ms (2**30)."""
    return (now_ms - since) & 0x3FFFFFFF


class Interpreter:
    """Turns debounced sensor changes and button presses into moves of one game."""

    def __init__(self, game, now_ms=0):
        self._out = None
        self._seen = None
        self.game = None
        self._use_game(game)
        seen = self._seen
        for sq in self.variant.squares:
            seen[sq] = 1 if self.pos.piece_at(sq) else 0
        self.rebuild(now_ms)

    # -- the controller's interface -----------------------------------------------------
    def on_sensor(self, sq, occupied, now_ms):
        """One debounced change of square `sq`; returns the events it caused."""
        if not self.variant.on_board(sq):
            raise ValueError("not a square of this board: %r" % (sq,))
        occupied = 1 if occupied else 0
        if self._seen[sq] == occupied:
            return _NO_EVENTS
        self._settle(now_ms)
        mode = self._mode
        if mode >= _CHOICE:
            if sq == self._choice_sq:
                if occupied and mode == _RESEAT:
                    self._cycle_choice(now_ms)
                self._mode = _CHOICE if occupied else _RESEAT
                self._apply(sq, occupied, now_ms)
                self._acted = True  # the choice layer owns this state until it ends
                return self._take_events()
            if mode == _RESEAT:
                self._choice = None  # the piece went elsewhere: read the board afresh
                self._mode = _MOVING   # (_apply names the play mode)
            else:
                self._commit(self._choice[self._choice_i], now_ms)
        self._apply(sq, occupied, now_ms)
        return self._take_events()

    def on_button(self, name, long_press, now_ms):
        """Button 'A' or 'B', short or long press; returns the events it caused."""
        if name not in ("A", "B"):
            raise ValueError("no button %r (the board has 'A' and 'B')" % (name,))
        self._settle(now_ms)
        game = self.game
        if long_press:
            if name == "B":
                self.emit(("new-game",))
            elif game.result is None:
                # With the host playing one side, the person holding A is the other side,
                # even while the host's side is to move.
                side = self.pos.side
                return self.resign(side ^ 1 if side == self.host_side else side, "resignation")
        elif name == "A":
            if self._mode == _RESEAT:
                pass  # the offered piece is off the board: put it back first
            elif self._mode == _CHOICE:
                self._commit(self._choice[self._choice_i], now_ms)
            elif self._mode == _TAKEBACK and self._undo_allowed():
                self._undo(now_ms)
            elif game.result is None:
                self.emit(("hint-request",))
        elif self._mode >= _CHOICE:
            self._cycle_choice(now_ms)
        elif game.result is None and self.pos.can_declare_impasse():
            if self._impasse_ms is not None and _elapsed(now_ms, self._impasse_ms) < IMPASSE_ARM_MS:
                side = self.pos.side
                game.declare_impasse(side)
                unload("shogicore.impasse")   # declared once a game at most: RAM back
                self._impasse_ms = None
                self.emit(("impasse", side))
                self._emit_game_over()
            else:
                self._impasse_ms = now_ms
        return self._take_events()

    def tick(self, now_ms, pressed=False, blind_end=None):
        """Call every loop pass, after the changes and presses it took: commits a settled
        move, confirms a choice left alone. `pressed`: a button is down, its press still to
        come, so the choice on show waits for it. `blind_end`: when the switches last went
        unread for longer than the debounce (None: never)."""
        self._settle(now_ms)
        if (blind_end is not None and self._unseen is None and self._acted
                and self.shape == _LIFT and len(self._missing) == 1):
            from boardfw import overlap   # loaded for the occasion: the board is rarely blind

            try:
                self._unseen = overlap.look_again(self, now_ms, blind_end)
            finally:
                unload("boardfw.overlap")
        if self._mode == _CHOICE:
            if pressed:
                self._choice_ms = now_ms
            elif _elapsed(now_ms, self._choice_ms) >= CHOICE_MS:
                self._commit(self._choice[self._choice_i], now_ms)
        if self._impasse_ms is not None and _elapsed(now_ms, self._impasse_ms) >= IMPASSE_ARM_MS:
            self._impasse_ms = None
        return self._take_events()

    def sync(self, occupied, now_ms):
        """A whole-board reading (the squares `occupied`) replaces the sensor picture; waits
        for set-up if it differs from the position."""
        occupied = list(occupied)
        for sq in occupied:
            if not self.variant.on_board(sq):
                raise ValueError("not a square of this board: %r" % (sq,))
        seen = self._seen
        for sq in self.variant.squares:
            seen[sq] = 0
        for sq in occupied:
            seen[sq] = 1
        self.rebuild(now_ms)
        self._enter_setup()
        return self._take_events()

    def set_game(self, game):
        """A new game, a set-up position or a host undo; the sensor picture is kept."""
        self._use_game(game)
        self.rebuild(self.changed_ms)
        self._enter_setup()
        return self._take_events()

    def resign(self, side, reason):
        """`side` loses by `reason`: 'resignation' (button or host) or 'time' (host's clock)."""
        self.game.result = (side ^ 1, reason)
        self.clear_guidance()
        if self._mode >= _CHOICE:
            self._mode = _PLAY_MODES[self.shape]
        self._choice = None
        self.emit(("resign", side))
        self._emit_game_over()
        return self._take_events()

    def order(self, move):
        """The PC orders `move` (engine reply, replay): lit until the board shows it. The
        side to move is then the host's until the game changes."""
        if not self.pos.is_legal(move):
            raise ValueError("ordered move is not legal here: %r" % (move,))
        self.ordered = move
        self.host_side = self.pos.side
        self._acted = False  # a board already showing it is matched at the next settle

    def hint(self, move):
        """Show `move` as a hint until the next move is made."""
        if not self.pos.is_legal(move):
            raise ValueError("hinted move is not legal here: %r" % (move,))
        self._hint = move

    def clear_guidance(self):
        """Forget the ordered move and the hint (the PC changed its mind)."""
        self.ordered = None
        self._hint = None

    def mismatch(self):
        """Squares whose occupancy differs from the game's position."""
        return self._missing + self._extra

    def phase(self):
        """One word for the controller's status reports (see docs/firmware-interpreter.md)."""
        mode = self._mode
        if mode == _SETUP:
            return "setup"
        if self.game.result is not None:
            return "game-over"
        if mode >= _CHOICE:
            return "choice"
        if mode == _REFUSED:
            return "refused"
        if mode == _TAKEBACK:
            return "takeback"
        return "moving" if mode == _MOVING else "idle"

    def frame(self, now_ms=0):
        """The squares to light at `now_ms`, the most important style per square, written
        into `lit` as (square, style) byte pairs; returns how many. Unlisted squares are
        dark; ledlang.colour(style, now_ms) resolves the blinking. Allocates nothing: the
        loop lights the board every pass."""
        out = self.lit
        out[_LIT_COUNT] = 0
        pos = self.pos
        if self._mode == _SETUP:
            self._put_fix(out)
            return self._unmark(out)
        result = self.game.result
        if result is not None:   # (the Generals lit first: no other style covers them)
            winner = result[0]
            if winner is None:
                self._put(out, pos.kings[0], ledlang.DRAW)
                self._put(out, pos.kings[1], ledlang.DRAW)
            else:
                self._put(out, pos.kings[winner], ledlang.WINNER)
                self._put(out, pos.kings[winner ^ 1], ledlang.LOSER)
        elif self._mode == _REFUSED:
            self._put_fix(out)
        if self._mode >= _CHOICE:
            m = self._choice[self._choice_i]
            style = ledlang.CHOICE_PROMOTE if is_promotion(m) else ledlang.CHOICE_KEEP
            if is_drop(m):
                style = ledlang.drop_choice(self.variant.symbol(drop_kind(m)))
            self._put(out, self._choice_sq, style)
        shape = self.shape
        if shape == _UNDROP:
            self._put(out, self.frm, ledlang.TAKEBACK)
        elif shape == _UNDO_PART:
            self._put(out, self.to, ledlang.FIX_PLACE)   # (none when self.to is 0)
        if self._impasse_ms is not None and _elapsed(now_ms, self._impasse_ms) < IMPASSE_ARM_MS:
            self._put(out, pos.kings[0], ledlang.IMPASSE)
            self._put(out, pos.kings[1], ledlang.IMPASSE)
        self._put_move(out, self.ordered, ledlang.ORDER_FROM, ledlang.ORDER_TO)
        if self._unseen:
            for sq in self._unseen:
                self._put(out, sq, ledlang.FIX_LIFT)
        if (shape == _LIFT or shape == _MOVE) and result is None:
            self._put(out, self.frm, ledlang.LIFTED)
            for sq in self.destinations(self.frm):
                self._put(out, sq, ledlang.DESTINATION)
        if self._check:
            self._put(out, pos.kings[pos.side], ledlang.CHECK)
        self._put_move(out, self._hint, ledlang.HINT_FROM, ledlang.HINT_TO)
        self._put_move(out, pos.last_move(), ledlang.LAST_MOVE, ledlang.LAST_MOVE)
        return self._unmark(out)

    # -- state ----------------------------------------------------------------------------
    def _use_game(self, game):
        if game is not self.game:
            self.host_side = -1  # a new game: the host plays no side until told (`host`)
        self.game = game
        self.pos = game.position
        self.variant = v = game.position.variant
        if self._seen is None or len(self._seen) != v.size:
            self._seen = bytearray(v.size)  # what the switches report (the position: pos)
            # 16-bit entries, half the RAM of ints: see _apply for how they wrap
            self.when = array("H", bytes(2 * v.size))  # sequence no. of each square's last change
            self.lifted_ms = array("H", bytes(2 * v.size))  # ticks_ms & 0xFFFF when it last lost its piece
            self._flags = bytearray(v.size)  # _BRIEF and _MARK, one byte for both
            self.lit = bytearray(_LIT_COUNT + 1)  # what `frame` writes
        # The game: its rules, and what the host and the buttons set for it (with ordered,
        # _hint and _impasse_ms). The gesture: what the hands did since the last move (with
        # _seen, when, lifted_ms, _flags' _BRIEF, _missing, _extra, touched, _seq, _unseen,
        # shown, and the shape, frm and to _classify names). The mode, with the choice on
        # offer in _CHOICE and _RESEAT. The frame: `lit`, and _flags' _MARK while it is built.
        self._casual = game.mode == CASUAL
        # Drop choices are offered cheapest first; hand_kinds is most valuable first.
        self._drop_order = bytes(reversed(v.hand_kinds))
        self._missing = []
        self._extra = []
        self.touched = []  # squares lifted since the last move that held a piece
        self._seq = 0
        self.ordered = None      # the move the PC ordered: lit until the board shows it
        self._hint = None
        self._mode = _IDLE
        self._choice = None
        self._choice_i = 0
        self._choice_sq = 0
        self._choice_ms = 0
        self._impasse_ms = None  # when B armed a declaration of impasse
        self._unseen = None    # (not looked yet) or the pieces to re-seat: overlap.look_again
        self.shown = None

    def _renumber(self):
        """Make room in the 16-bit sequence numbers after 65535 changes in one game: every
        number drops by half the range, so the recent ones keep their order (changes older
        than 32768 others are all 0 then, and the move put down that long ago is forgotten)."""
        when = self.when
        for sq in self.variant.squares:
            when[sq] = max(0, when[sq] - _SEQ_HALF)
        self._seq -= _SEQ_HALF
        if self.shown is not None:
            frm, to, seq = self.shown
            self.shown = (frm, to, seq - _SEQ_HALF) if seq > _SEQ_HALF else None

    def rebuild(self, now_ms, touched=()):
        """Recompute the difference from the position after it changed. `touched`: squares
        lifted since the last move that still count (a position changed mid-gesture)."""
        pos = self.pos
        seen = self._seen
        missing = self._missing
        extra = self._extra
        del missing[:]
        del extra[:]
        del self.touched[:]
        for sq in touched:
            if pos.piece_at(sq):
                self.touched.append(sq)
        for sq in self.variant.squares:
            expected = pos.piece_at(sq)
            if expected and not seen[sq]:
                missing.append(sq)
            elif seen[sq] and not expected:
                extra.append(sq)
        self._check = pos.in_check()
        m = pos.last_move()
        self._last_captured = False
        if m is not None and not is_drop(m):   # did it capture? take it back and look
            pos.pop()
            self._last_captured = pos.piece_at(move_to(m)) != 0
            pos.push(m)
        self._dests_from = 0
        self._dests = []
        self._choice = None
        self._impasse_ms = None
        self._unseen = None
        self.shown = None  # (from, to, sequence no.) of the last move put down, see _overlap
        self.changed_ms = now_ms
        self._classify()
        if self._mode != _SETUP:   # (set-up ends when the board matches: _apply)
            self._mode = _PLAY_MODES[self.shape]
        self._acted = False

    def _enter_setup(self):
        if self._missing or self._extra:
            self._mode = _SETUP
        else:
            self._mode = _IDLE
            self.emit(("ready",))

    def _apply(self, sq, occupied, now_ms):
        """Record one sensor change and re-read what the board now shows."""
        self._seen[sq] = occupied
        self._seq += 1
        if self._seq > _SEQ_LIMIT:
            self._renumber()
        self.when[sq] = self._seq
        # Only a lift less than SETTLE_MS ago matters, so the low 16 bits of the clock do
        if occupied:   # (a bool is 0 or 1, as _BRIEF is)
            brief = (now_ms - self.lifted_ms[sq]) & 0xFFFF < SETTLE_MS
            self._flags[sq] = self._flags[sq] & _MARK | brief
        else:
            self.lifted_ms[sq] = now_ms & 0xFFFF
        self._unseen = None
        if occupied == (self.pos.piece_at(sq) != 0):
            # back as the position has it: it was missing (now occupied) or extra (now not)
            (self._missing if occupied else self._extra).remove(sq)
        elif occupied:
            self._extra.append(sq)
        else:
            self._missing.append(sq)
            if sq not in self.touched:
                self.touched.append(sq)
        self.changed_ms = now_ms
        self._acted = False
        self._classify()
        shape = self.shape
        shown = self.shown
        if (occupied and _MOVE <= shape <= _DROP and sq == self.to
                and not (shown and self._seen[shown[1]] and self.when[shown[1]] == shown[2])):
            # (unless the last move put down still stands untouched: then another hand)
            self.shown = (self.frm, sq, self._seq)
        mode = self._mode
        if mode <= _TAKEBACK or mode == _REFUSED and shape != _OTHER:
            self._mode = _PLAY_MODES[shape]
        elif mode == _SETUP and shape == _MATCH:
            self._mode = _IDLE
            self.emit(("ready",))

    def _classify(self):
        """Name the difference between the board and the position (see the shape codes)."""
        pos = self.pos
        side = pos.side
        missing = self._missing
        extra = self._extra
        n_missing = len(missing)
        n_extra = len(extra)
        self.frm = self.to = 0
        if not n_missing and not n_extra:
            self.shape = _MATCH
            return
        if self._undo_allowed() and self._classify_undo():
            return
        shape = _OTHER
        if n_missing == 1:
            a = missing[0]
            if pos.piece_at(a) >> 5 == side:
                self.frm = a
                if n_extra == 1:
                    self.to = extra[0]
                    shape = _MOVE
                elif not n_extra:
                    self.to = self._capture_target(a)
                    shape = _MOVE if self.to else _LIFT
            elif not n_extra and self._capturable(a):
                self.frm = a
                shape = _VICTIM
        elif n_missing == 2 and not n_extra:
            a, b = missing
            if pos.piece_at(b) >> 5 == side:
                a, b = b, a
            if pos.piece_at(a) >> 5 == side and pos.piece_at(b) >> 5 != side:
                self.frm = a
                shape = _LIFT
        elif not n_missing and n_extra == 1:
            self.to = extra[0]
            shape = _DROP
        self.shape = shape

    def _classify_undo(self):
        """Is the board showing the last move reversed, or on its way there?"""
        n_missing = len(self._missing)
        n_extra = len(self._extra)
        last = self.pos.last_move()
        to = move_to(last)
        if is_drop(last):
            if n_missing == 1 and not n_extra and self._missing[0] == to:
                self.shape = _UNDROP
                self.frm = to
                return True
            return False
        frm = move_from(last)
        if n_missing == 1 and self._missing[0] == to:
            if not n_extra:
                # The piece that just moved is lifted: a take-back or a capture begins.
                self.shape = _UNDO_PART
                return True
            if n_extra == 1 and self._extra[0] == frm:
                self.shape = _UNDO if not self._last_captured else _UNDO_PART
                self.to = to  # a captured piece must come back here
                return True
        elif (self._last_captured and not n_missing and n_extra == 1 and self._extra[0] == frm
              and to in self.touched):
            self.shape = _UNDO
            return True
        return False

    def _capture_target(self, frm):
        """The square the piece lifted from `frm` went to by capturing, or 0.

        That is the opposing square re-occupied last since `frm` was lifted, if its piece
        could be captured from `frm` or was off the board for SETTLE_MS or longer; a
        piece knocked off its switch and back in less time is just a nudge.
        """
        side = self.pos.side
        seen = self._seen
        when = self.when
        best = 0
        best_when = when[frm]
        reach = None
        for sq in self.touched:
            if seen[sq] and when[sq] > best_when and self.pos.piece_at(sq) >> 5 != side:
                if self._flags[sq] & _BRIEF:
                    if reach is None:
                        reach = self.destinations(frm)
                    if sq not in reach:
                        continue
                best = sq
                best_when = when[sq]
        return best

    def _capturable(self, sq):
        for m in self.pos.legal_moves():
            if move_to(m) == sq and not is_drop(m):
                return True
        return False

    def _undo_allowed(self):
        if not self._casual or self.pos.last_move() is None:
            return False
        result = self.game.result
        return result is None or result[1] in UNDOABLE_ENDINGS

    def candidates(self):
        """Legal moves the settled board could mean: promotion first; drops cheapest first."""
        pos = self.pos
        to = self.to
        out = []
        if self.shape == _MOVE:
            for m in pos.destinations(self.frm):
                if move_to(m) == to:
                    if is_promotion(m):
                        out.insert(0, m)
                    else:
                        out.append(m)
        else:
            side = pos.side
            for kind in self._drop_order:
                if pos.hand_count(side, kind) and pos.is_legal(make_drop(kind, to)):
                    out.append(make_drop(kind, to))
        return out

    def _order_matches(self):
        m = self.ordered
        if move_to(m) != self.to:
            return False
        if is_drop(m):
            return self.shape == _DROP
        return self.shape == _MOVE and move_from(m) == self.frm

    # -- deciding -------------------------------------------------------------------------
    def _settle(self, now_ms):
        """Act on a board state that has been still for SETTLE_MS (once per state)."""
        if self._acted or _elapsed(now_ms, self.changed_ms) < SETTLE_MS:
            return
        self._acted = True
        if self._mode >= _SETUP:   # (setup and the choices settle by their own rules)
            return
        shape = self.shape
        if self.shown is not None and self._overlap():
            if not self._acted:
                self._settle(now_ms)  # the first move is in: the reply may be complete too
            return
        if shape == _UNDO:
            self._undo(now_ms)
            return
        if self.game.result is not None:
            return
        if _MOVE <= shape <= _DROP:
            if self.ordered is not None:
                if self._order_matches():
                    self._commit(self.ordered, now_ms)
                else:
                    self._refuse("not-the-ordered-move")
                return
            candidates = self.candidates()
            if len(candidates) == 1:
                self._commit(candidates[0], now_ms)
            elif candidates:   # a choice, offered on the destination's LED
                self._choice = candidates
                self._choice_i = 0
                self._choice_sq = self.to
                self._choice_ms = now_ms
                self._mode = _CHOICE
                self.emit(("choice", candidates[0]))
            elif self._casual:
                self._refuse("illegal-move")
            else:
                from boardfw import overlap   # loaded for the occasion: a tournament's
                                              # illegal move is rarer still
                try:
                    lost = overlap.record_illegal(self)
                finally:
                    unload("boardfw.overlap")
                if lost:
                    self._emit_game_over()
                else:
                    self._refuse("illegal-move")
        elif shape == _OTHER:
            self._refuse("board-mismatch")

    def _overlap(self):
        """Did the opponent move before the mover's move settled? True if that was decided.

        The board showed a complete move (`shown`) and then changed further. When the piece
        put down then still stands untouched while the board reads as something else (two
        hands at work), or when the board rests in a state no single move explains,
        boardfw/overlap.py reads the board as that move plus a reply; otherwise this
        returns False at once. If that reading fails, a board with the sign of two moves is
        refused (never read as one move nobody made) and any other is read as before.
        """
        if self.game.result is not None:
            return False
        shown = self.shown
        frm, to, seq = shown
        shape = self.shape
        overlapped = (self._seen[to] and self.when[to] == seq   # it stands, untouched
                      and not (self.to == to and self.frm == frm and _MOVE <= shape <= _DROP))
        if not overlapped and (shape == _MATCH or _MOVE <= shape <= _DROP):
            return False
        mode = self._mode
        from boardfw import overlap   # loaded for the occasion: such hands are rare

        try:
            if overlap.read_two_moves(self, overlapped):
                return True
        finally:
            unload("boardfw.overlap")
        self._classify()
        self.shown = shown
        self._mode = mode
        self._acted = True
        if overlapped:
            self._refuse("board-mismatch")
        return overlapped

    def _cycle_choice(self, now_ms):
        self._choice_i = (self._choice_i + 1) % len(self._choice)
        self._choice_ms = now_ms
        self.emit(("choice", self._choice[self._choice_i]))

    def _refuse(self, reason):
        if self._mode <= _TAKEBACK:
            self._mode = _REFUSED
            self.emit(("refused", reason))

    def _commit(self, m, now_ms):
        self.game.play(m)
        self.clear_guidance()
        self.rebuild(now_ms)
        self.emit(("move", m))
        self._emit_game_over()

    def _undo(self, now_ms):
        m = self.game.undo()
        self.clear_guidance()
        self.rebuild(now_ms)
        self.emit(("undo", m))

    def _emit_game_over(self):
        result = self.game.result
        if result is not None:
            self.emit(("game-over", result[0], result[1]))

    def emit(self, event):
        if self._out is None:
            self._out = []
        self._out.append(event)

    def _take_events(self):
        out = self._out
        self._out = None
        return out if out is not None else _NO_EVENTS

    # -- frame helpers --------------------------------------------------------------------
    def destinations(self, frm):
        """Squares the lifted piece may go to; computed once per lift."""
        if self._dests_from != frm:
            self._dests_from = frm
            self._dests = [move_to(m) for m in self.pos.destinations(frm)]
        return self._dests

    def _put(self, out, sq, style):
        n = out[_LIT_COUNT]
        if sq and not self._flags[sq] & _MARK and n < _LIT_COUNT:
            self._flags[sq] |= _MARK
            out[n] = sq
            out[n + 1] = style
            out[_LIT_COUNT] = n + 2

    def _put_move(self, out, m, from_style, to_style):
        if m is not None:
            if not is_drop(m):
                self._put(out, move_from(m), from_style)
            self._put(out, move_to(m), to_style)

    def _put_fix(self, out):
        for sq in self._missing:
            self._put(out, sq, ledlang.FIX_PLACE)
        for sq in self._extra:
            self._put(out, sq, ledlang.FIX_LIFT)

    def _unmark(self, out):
        flags = self._flags
        n = out[_LIT_COUNT]
        for i in range(0, n, 2):
            flags[out[i]] &= _UNMARK
        return n // 2
