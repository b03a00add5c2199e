"""A position: board, hands, side to move; legal moves, make/unmake, check, game end.

The board is a padded mailbox (a bytearray) so that sliding and jumping stop on a wall
value without bounds checks. Moves are ints (see move.py) and the history keeps three
16-bit words per ply in small arrays of 16 plies each, so a long game costs a few kilobytes
even on the Pico.
"""
from array import array
from micropython import const

from shogicore.errors import IllegalMoveError, MoveError, SfenError
from shogicore.move import PROMOTION, parse_usi
from shogicore.variants import key_table
from shogicore.variants import BLACK, KING, PAWN, WHITE, variant_by_name

EMPTY = 0
_WALL = const(64)
_MOVE_BITS = const(22)  # history record: move, then the captured piece, then a check flag
_CHECK_FLAG = const(1 << 28)
_CHUNK = const(16)  # plies per history chunk
_WORDS = const(3)  # per ply: the record's low and high 16 bits, the hash's low 16 bits


def piece_kind(p):
    return p & 31


def piece_colour(p):
    return p >> 5


_PIECE_KEYS = key_table(64, 7)
_SIDE_KEY = const(0x2AAAAAAA)
# _TARGETS[colour][piece]: may a piece of `colour` move onto a square holding `piece`?
# Onto an empty square or an enemy piece; never onto its own piece or the wall.
_TARGETS = tuple(bytearray(p != _WALL and (p == EMPTY or piece_colour(p) != colour)
                           for p in range(_WALL + 1)) for colour in (BLACK, WHITE))


class Position:
    """A shogi-family position that can play and take back moves in place."""

    def __init__(self, variant="yari", sfen=None):
        self.variant = v = variant_by_name(variant)
        self._root_sfen = sfen or v.start_sfen
        from shogicore.sfen import read_sfen   # imported here: the board unloads it after use

        self.board, self.hands, self.side, self.move_number, self.kings = read_sfen(
            v, self._root_sfen)
        if self._attacked(self.kings[1 - self.side], self.side):
            raise SfenError("the side not to move is in check")
        # History: per ply, a record (move, captured piece, check flag) and the low 16 bits
        # of the hash before the move, in 16-bit arrays of _CHUNK plies. Small chunks fit
        # the holes of a fragmented heap, where one growing array would need ever larger
        # free blocks. repetition() confirms what the 16 bits find on the whole hash.
        self._history = []
        self.plies = 0
        self.hash = self._full_hash()

    # -- SFEN ------------------------------------------------------------------------------
    def sfen(self):
        return "".join(self.sfen_parts())

    def sfen_parts(self):
        """The SFEN in pieces (a rank each, the side, hands and move number on the last), to
        be joined with nothing between them: the board writes them to the serial port one
        by one, as its fragmented heap has few holes as long as the whole text."""
        v = self.variant
        rows = []
        for r in range(1, v.ranks + 1):
            row = "/" if r > 1 else ""
            empty = 0
            for f in range(v.files, 0, -1):
                p = self.board[v.square(f, r)]
                if not p:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                s = v.symbol(p & 31)
                row += s if p >> 5 == BLACK else s.lower()
            if empty:
                row += str(empty)
            rows.append(row)
        hand = ""
        for colour in (BLACK, WHITE):
            for kind in v.hand_kinds:
                n = self.hands[colour][kind]
                if n:
                    s = v.symbol(kind)
                    hand += ("%d" % n if n > 1 else "") + (s if colour == BLACK else s.lower())
        rows[-1] = "%s %s %s %d" % (rows[-1], "bw"[self.side], hand or "-", self.move_number)
        return rows

    def piece_at(self, sq):
        return self.board[sq]

    def hand_count(self, colour, kind):
        return self.hands[colour][kind]

    # -- hashing ---------------------------------------------------------------------------
    def _full_hash(self):
        keys = self.variant.keys
        h = _SIDE_KEY if self.side == WHITE else 0
        for sq in self.variant.squares:
            p = self.board[sq]
            if p:
                h ^= keys[sq] * _PIECE_KEYS[p]
        # A hand's count of each kind is hashed, 0 included: make and unmake move a
        # count's term from n to n +- 1, so a position read from its SFEN must hash as the
        # same position reached by moves does.
        hand_base = self.variant.size
        for colour in (BLACK, WHITE):
            for kind in self.variant.hand_kinds:
                h ^= keys[hand_base + self.hands[colour][kind]] * _PIECE_KEYS[kind | colour << 5]
        return h

    # -- attacks ---------------------------------------------------------------------------
    def _attacked(self, sq, by):
        """Is `sq` attacked by a piece of colour `by`? Square 0, a missing General's, never
        is: a side without a General is never in check."""
        if not sq:
            return False
        board = self.board
        v = self.variant
        sign = 1 - 2 * by   # the tables are Black's: White's deltas are turned around
        for delta, mask in v.step_attacks:
            p = board[sq + sign * delta]
            if p and p >> 5 == by and (mask >> (p & 31) - 1) & 1:
                return True
        for delta, mask in v.slide_attacks:
            delta *= sign
            s = sq + delta
            p = board[s]
            while p == EMPTY:
                s += delta
                p = board[s]
            if p >> 5 == by and (mask >> (p & 31) - 1) & 1:
                return True
        for delta, reach, mask in v.range_attacks:
            delta *= sign
            s = sq + delta
            p = board[s]
            while p == EMPTY and reach > 1:
                s += delta
                p = board[s]
                reach -= 1
            if p and p >> 5 == by and (mask >> (p & 31) - 1) & 1:
                return True
        return False

    def in_check(self):
        return self._attacked(self.kings[self.side], 1 - self.side)

    def _pinned(self, side):
        """Squares of `side`'s pieces that shield its General from an enemy slider."""
        board = self.board
        king = self.kings[side]
        pinned = []
        if not king:
            return pinned
        enemy = 1 - side
        sign = 2 * side - 1     # the enemy's: the tables are Black's
        for delta, mask in self.variant.slide_attacks:
            delta *= sign
            s = king + delta
            while board[s] == EMPTY:
                s += delta
            if board[s] >> 5 != side:
                continue
            t = s + delta
            while board[t] == EMPTY:
                t += delta
            p = board[t]
            if p >> 5 == enemy and (mask >> (p & 31) - 1) & 1:
                pinned.append(s)
        for delta, reach, mask in self.variant.range_attacks:
            delta *= sign
            s = king + delta
            d = 1
            while board[s] == EMPTY and d < reach:
                s += delta
                d += 1
            if board[s] == EMPTY or board[s] >> 5 != side:
                continue
            t = s + delta
            d += 1
            while board[t] == EMPTY and d < reach:
                t += delta
                d += 1
            p = board[t]
            if d <= reach and p and p >> 5 == enemy and (mask >> (p & 31) - 1) & 1:
                pinned.append(s)
        return pinned

    # -- make / unmake ---------------------------------------------------------------------
    def make(self, m):
        """Play `m` on the board and hands; return the captured piece (0 for none). Nothing is
        recorded (push records): for counting moves (perft) and taking `m` back at once."""
        board = self.board
        side = self.side
        keys = self.variant.keys
        to = m & 0xFF
        frm = (m >> 8) & 0xFF
        h = self.hash ^ _SIDE_KEY
        captured = EMPTY
        if frm == 0:
            kind = (m >> 17) & 31
            p = kind | (side << 5)
            hand = self.hands[side]
            n = hand[kind]
            hb = self.variant.size
            hp = _PIECE_KEYS[p]
            h ^= keys[hb + n] * hp ^ keys[hb + n - 1] * hp
            hand[kind] = n - 1
        else:
            p = board[frm]
            h ^= keys[frm] * _PIECE_KEYS[p]
            board[frm] = EMPTY
            captured = board[to]
            if captured:
                h ^= keys[to] * _PIECE_KEYS[captured]
            if captured and self.variant.hand_kinds:    # without drops a capture is gone
                base = self.variant.base[captured & 31]
                hand = self.hands[side]
                n = hand[base]
                hb = self.variant.size
                hp = _PIECE_KEYS[base | (side << 5)]
                h ^= keys[hb + n] * hp ^ keys[hb + n + 1] * hp
                hand[base] = n + 1
            if m & PROMOTION:
                p = self.variant.promote[p & 31] | (side << 5)
            elif p & 31 == KING:
                self.kings[side] = to
        board[to] = p
        h ^= keys[to] * _PIECE_KEYS[p]
        self.hash = h
        self.side = 1 - side
        return captured

    def unmake(self, m, captured):
        """Take back `m`, the last move made, which took `captured` (what make returned)."""
        board = self.board
        self.side = side = 1 - self.side
        keys = self.variant.keys
        to = m & 0xFF
        frm = (m >> 8) & 0xFF
        p = board[to]
        h = self.hash ^ _SIDE_KEY ^ keys[to] * _PIECE_KEYS[p]
        hb = self.variant.size
        if frm == 0:
            hand = self.hands[side]
            n = hand[p & 31]
            h ^= keys[hb + n] * _PIECE_KEYS[p] ^ keys[hb + n + 1] * _PIECE_KEYS[p]
            hand[p & 31] = n + 1
            board[to] = EMPTY
        else:
            if m & PROMOTION:
                p = self.variant.base[p & 31] | (side << 5)
            elif p & 31 == KING:
                self.kings[side] = frm
            board[frm] = p
            h ^= keys[frm] * _PIECE_KEYS[p]
            board[to] = captured
            if captured:
                h ^= keys[to] * _PIECE_KEYS[captured]
            if captured and self.variant.hand_kinds:
                base = self.variant.base[captured & 31]
                hand = self.hands[side]
                n = hand[base]
                hp = _PIECE_KEYS[base | (side << 5)]
                h ^= keys[hb + n] * hp ^ keys[hb + n - 1] * hp
                hand[base] = n - 1
        self.hash = h

    def push(self, m):
        """Play a move known to be legal (see is_legal / push_usi) and record it."""
        before = self.hash
        captured = self.make(m)
        record = m | (captured << _MOVE_BITS)
        if self.in_check():
            record |= _CHECK_FLAG
        n = self.plies
        if n // _CHUNK == len(self._history):
            # made from a range, whose values are written over before they are read: a
            # zeroed bytes object first would need a second block as large, for nothing
            self._history.append(array("H", range(_WORDS * _CHUNK)))
        chunk = self._history[n // _CHUNK]
        i = n % _CHUNK * _WORDS
        chunk[i] = record & 0xFFFF
        chunk[i + 1] = record >> 16
        chunk[i + 2] = before & 0xFFFF
        self.plies = n + 1
        self.move_number += 1

    def pop(self):
        """Take back the last move and return it."""
        if not self.plies:
            raise MoveError("no move to take back")
        self.plies -= 1
        record = self._record(self.plies)
        m = record & ((1 << _MOVE_BITS) - 1)
        self.unmake(m, (record >> _MOVE_BITS) & 63)
        self.move_number -= 1
        return m

    def push_usi(self, text):
        m = parse_usi(self.variant, text)
        if not self.is_legal(m):
            raise IllegalMoveError("illegal move %s in %s" % (text, self.sfen()))
        self.push(m)
        return m

    def moves(self):
        """The moves played since this position was set up, oldest first."""
        return [self.move_at(ply) for ply in range(self.plies)]

    def move_at(self, ply):
        """The move played at index `ply` (0 = the first since the set-up)."""
        return self._record(ply) & ((1 << _MOVE_BITS) - 1)

    def last_move(self):
        return self.move_at(self.plies - 1) if self.plies else None

    def _record(self, ply):
        chunk = self._history[ply // _CHUNK]
        i = ply % _CHUNK * _WORDS
        return chunk[i] | chunk[i + 1] << 16

    def copy(self):
        other = Position(self.variant, self._root_sfen)
        for m in self.moves():
            other.push(m)
        return other

    # -- move generation -------------------------------------------------------------------
    def _safe(self, m):
        """Does `m` leave the mover's General unattacked? (make, look, unmake)"""
        side = self.side
        captured = self.make(m)
        safe = not self._attacked(self.kings[side], 1 - side)
        self.unmake(m, captured)
        return safe

    def _add(self, out, frm, to, kind, test):
        v = self.variant
        depth = v.depth[self.side]
        m = (frm << 8) | to
        zone = v.promotion_ranks
        if v.promote[kind] and (depth[to] <= zone or depth[frm] <= zone):
            if test and not self._safe(m):
                return
            if depth[to] > v.forced[kind]:
                out.append(m)
            out.append(m | PROMOTION)
        elif not test or self._safe(m):
            out.append(m)

    def _piece_moves(self, sq, out, in_check, pinned):
        board = self.board
        side = self.side
        target = _TARGETS[side]
        kind = board[sq] & 31
        test = in_check or kind == KING or sq in pinned
        sign = 1 - 2 * side     # the tables are Black's: White's moves are turned around
        for d in self.variant.steps[kind]:
            to = sq + sign * d
            if target[board[to]]:
                self._add(out, sq, to, kind, test)
        for d in self.variant.slides[kind]:
            d *= sign
            to = sq + d
            t = board[to]
            while t == EMPTY:
                self._add(out, sq, to, kind, test)
                to += d
                t = board[to]
            if target[t]:
                self._add(out, sq, to, kind, test)
        for d, reach in self.variant.ranges[kind]:
            d *= sign
            to = sq
            for _ in range(reach):
                to += d
                t = board[to]
                if target[t]:
                    self._add(out, sq, to, kind, test)
                if t != EMPTY:
                    break

    def _pawn_columns(self):
        """Columns (square % stride) that hold an unpromoted pawn of the side to move (nifu)."""
        columns = bytearray(self.variant.stride)
        own_pawn = PAWN | (self.side << 5)
        for sq in self.variant.squares:
            if self.board[sq] == own_pawn:
                columns[sq % self.variant.stride] = 1
        return columns

    def _drop_ok(self, kind, sq, in_check, pawn_columns):
        """May `kind` be dropped on `sq`? (hand count checked by the caller)"""
        v = self.variant
        if self.board[sq] or v.depth[self.side][sq] <= v.forced[kind]:
            return False
        if kind == PAWN and pawn_columns[sq % v.stride]:
            return False
        m = (kind << 17) | sq
        if in_check and not self._safe(m):
            return False
        return not (kind == PAWN and not v.pawn_drop_mate_legal and self._pawn_drop_mates(m))

    def _drop_moves(self, kind, out, in_check, first_only=False):
        pawn_columns = self._pawn_columns() if kind == PAWN else None
        for sq in self.variant.squares:
            if self._drop_ok(kind, sq, in_check, pawn_columns):
                out.append((kind << 17) | sq)
                if first_only:
                    return

    def _pawn_drop_mates(self, m):
        """Would this pawn drop give mate at once? (illegal in standard shogi)"""
        side = self.side
        ahead = (m & 0xFF) + (1 - 2 * side) * self.variant.steps[PAWN][0]
        if ahead != self.kings[1 - side]:
            return False
        captured = self.make(m)
        mated = not self._has_legal_move()
        self.unmake(m, captured)
        return mated

    def legal_moves(self, first_only=False):
        """Every legal move of the side to move: board moves first, then drops.

        With `first_only`, stop at the first legal move found: deciding whether the game
        goes on then never builds a long list (drops alone can number in the hundreds).
        """
        out = []
        side = self.side
        in_check = self.in_check()
        pinned = () if in_check else self._pinned(side)
        board = self.board
        for sq in self.variant.squares:
            p = board[sq]
            if p and p >> 5 == side:
                self._piece_moves(sq, out, in_check, pinned)
                if first_only and out:
                    return out
        hand = self.hands[side]
        for kind in self.variant.hand_kinds:
            if hand[kind]:
                self._drop_moves(kind, out, in_check, first_only)
                if first_only and out:
                    return out
        return out

    def _has_legal_move(self):
        return bool(self.legal_moves(first_only=True))

    def destinations(self, sq):
        """Legal moves of the piece on `sq` (the squares the board lights when it is lifted)."""
        out = []
        p = self.board[sq]
        if p == EMPTY or p == _WALL or p >> 5 != self.side:
            return out
        in_check = self.in_check()
        self._piece_moves(sq, out, in_check, () if in_check else self._pinned(self.side))
        return out

    def is_legal(self, m):
        frm = (m >> 8) & 0xFF
        if frm == 0:
            kind, to = (m >> 17) & 31, m & 0xFF
            if m >> 22 or not self.hands[self.side][kind] or not self.variant.on_board(to):
                return False
            pawn_columns = self._pawn_columns() if kind == PAWN else None
            return self._drop_ok(kind, to, self.in_check(), pawn_columns)
        if not self.variant.on_board(frm):
            return False
        return m in self.destinations(frm)

    def status(self):
        """None while play goes on, else (winner, reason); winner None is a draw."""
        if not self._has_legal_move():
            return (1 - self.side, "mate")
        return self.repetition()

    def repetition(self):
        """(winner, 'perpetual-check' | 'repetition') once the position has repeated enough."""
        h = self.hash
        low = h & 0xFFFF
        # only positions with the same side to move can match: every other ply
        history = self._history
        seen = [i for i in range(self.plies % 2, self.plies, 2)
                if history[i // _CHUNK][i % _CHUNK * _WORDS + 2] == low]
        if len(seen) + 1 < self.variant.repetitions:
            return None
        seen = self._with_hash(h, seen)
        if len(seen) + 1 < self.variant.repetitions:
            return None
        first = seen[len(seen) + 1 - self.variant.repetitions]
        n = self.plies
        only_checks = [True, True]
        for i in range(first, n):
            mover = self.side if (n - i) % 2 == 0 else 1 - self.side
            if not self._record(i) & _CHECK_FLAG:
                only_checks[mover] = False
        if only_checks[BLACK] != only_checks[WHITE]:
            checker = BLACK if only_checks[BLACK] else WHITE
            return (1 - checker, "perpetual-check")
        return (None, "repetition")

    def _with_hash(self, h, plies):
        """The plies of `plies` (ascending) before which the hash was `h` in full: the moves
        are taken back down to the first of them and played again. Runs only when the low 16
        bits say the position has repeated enough, so rarely costs more than a few plies."""
        moves = []
        same = []
        while self.plies > plies[0]:
            moves.append(self.pop())
            if self.hash == h and self.plies in plies:
                same.append(self.plies)
        while moves:
            self.push(moves.pop())
        same.reverse()
        return same

    def can_declare_impasse(self):
        """Both Generals stand in their own promotion zones (and the variant has the rule)."""
        v = self.variant
        if not v.impasse_threshold or not self.kings[BLACK] or not self.kings[WHITE]:
            return False
        zone = v.promotion_ranks
        return v.depth[BLACK][self.kings[BLACK]] <= zone and v.depth[WHITE][self.kings[WHITE]] <= zone
