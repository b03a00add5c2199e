"""A record's moves played fast: a file's moves checked one by one as they are read, the
archive's own moves walked through for a writer.

The rules core's `is_legal` finds a board move among every move of its piece, with the
checks and pins of the whole position; at a record's scale (an import or export of
thousands of games) that was most of the time. Here a board move is checked on its own:
its piece can go there (the variant's step, slide and range tables, the squares between
empty), the promotion is one the rules allow, and the mover's General is safe after it (the
core's own make, look, unmake, done only when the move could expose it). Drops keep the
core's own check, which already looks at the one square. Whether a move gives check, which
the core's push records, is asked of the core only when the piece moved or the line it
opened can reach the other General. The USI text of a move is read and written through a
table per variant.
"""
from shogicore.move import PROMOTION, parse_usi, to_usi
from shogicore.position import Position
from shogicore.variants import KING, PAWN, variant_by_name

_GEOMETRY = {}      # variant name -> per kind {Black's offset: ((unit offset, most steps), ...)}
_USI_OF = {}        # variant name -> {move: USI text}
_MOVE_OF = {}       # variant name -> {USI text: move}
_STARTS = {}        # (variant name, SFEN) -> a start position read (RecordPosition._set_up)
_STARTS_KEPT = 256  # start positions remembered at most (set-up positions are many)


def usi_of(variant, move):
    """`to_usi`, remembered: a game's moves are mostly moves other games made too."""
    return usi_table(variant)[move]


def usi_table(variant):
    """{move: USI text} for `variant`, filled as moves are asked for (a reader's every move)."""
    table = _USI_OF.get(variant.name)
    if table is None:
        table = _USI_OF[variant.name] = _UsiTable(variant)
    return table


class _UsiTable(dict):
    def __init__(self, variant):
        super().__init__()
        self.variant = variant

    def __missing__(self, move):
        text = self[move] = to_usi(self.variant, move)
        return text


def move_of(variant, text):
    """`parse_usi`, remembered (only what parses: the table holds real moves of the board)."""
    known = _MOVE_OF.setdefault(variant.name, {})
    move = known.get(text)
    if move is None:
        move = known[text] = parse_usi(variant, text)
    return move


def _geometry(variant):
    """For each kind, every offset (as Black moves) its piece can reach on an empty board,
    with the unit steps that get it there; every offset, either way, along which a slider
    or ranged piece attacks (a piece there may shield its General); the squares on the board."""
    tables = _GEOMETRY.get(variant.name)
    if tables is None:
        longest = max(variant.files, variant.ranks)
        reaches = []
        for kind in range(len(variant.steps)):
            reach = {}
            paths = [(d, 1) for d in variant.steps[kind]]
            paths += [(d, longest) for d in variant.slides[kind]]
            paths += list(variant.ranges[kind])
            for unit, most in paths:
                for n in range(1, most + 1):
                    reach.setdefault(unit * n, []).append((unit, n))
            reaches.append(reach)
        lines = {}
        for unit, most in ([(d, longest) for d, _ in variant.slide_attacks]
                           + [(d, most) for d, most, _ in variant.range_attacks]):
            for n in range(1, most + 1):
                lines[unit * n], lines[-unit * n] = unit, -unit
        on_board = bytearray(256)       # by square (a byte): is it on the board?
        for square in variant.squares:
            on_board[square] = 1
        tables = _GEOMETRY[variant.name] = reaches, lines, bytes(on_board)
    return tables


class RecordPosition(Position):
    """A Position that checks a record's moves one at a time (`allows`) and walks through
    moves already checked (`walk`, for writers: the board, hands and side follow; the
    history does not, so such a position is never asked about repetition)."""

    def __init__(self, variant, sfen=None):
        self.checked = None     # is the side to move in check? None: not known
        self._pushed = None     # the move push is making, while it makes it
        v = variant_by_name(variant)
        key = (v.name, sfen or v.start_sfen)
        start = _STARTS.get(key)
        if start is None:
            super().__init__(v, sfen)
            if len(_STARTS) >= _STARTS_KEPT:
                _STARTS.clear()
            _STARTS[key] = self._set_up()
        else:
            self._set_up(start)
        self._reach, self._lines, self._on_board = _geometry(v)

    @classmethod
    def of(cls, position):
        """A RecordPosition with the board, hands and side of `position` (any Position; no
        history): the notation's checks run on it, never on the caller's own position."""
        self = cls.__new__(cls)
        self.checked = self._pushed = None
        self._set_up((position.variant, position._root_sfen, position.board, position.hands,
                      position.side, position.move_number, position.kings, position.hash))
        self._reach, self._lines, self._on_board = _geometry(position.variant)
        return self

    def _set_up(self, start=None):
        """A position just read from its SFEN, as a tuple to set others up from (no move
        played yet); or, given one, this position set up from it (no SFEN read, no hash
        counted: an import starts thousands of games from the same few positions)."""
        if start is None:
            return (self.variant, self._root_sfen, bytes(self.board), [bytes(h) for h in self.hands],
                    self.side, self.move_number, list(self.kings), self.hash)
        (self.variant, self._root_sfen, board, hands, self.side, self.move_number, kings,
         self.hash) = start
        self.board = bytearray(board)
        self.hands = [bytearray(hand) for hand in hands]
        self.kings = list(kings)
        self._history = []
        self.plies = 0
        return start

    def push(self, m):
        # the core's push asks in_check after making the move: `m` says where to look
        self._pushed = m
        super().push(m)
        self._pushed = None

    def in_check(self):
        # push asks after every move: the answer is kept for allows
        m = self._pushed
        self.checked = (m is None or self._may_check(m)) and super().in_check()
        return self.checked

    def _may_check(self, m):
        """After `m` (just made), may the side to move be in check? It was not before (the
        mover could not have left it so): only the piece moved, or a line opened through the
        square it left, can attack its General now. False only when neither can; the core
        decides the rest."""
        king = self.kings[self.side]
        to = m & 0xFF
        piece = self.board[to]
        if not king or (king - to) * (2 * self.side - 1) in self._reach[piece & 31]:
            return bool(king)
        frm = (m >> 8) & 0xFF
        unit = self._lines.get(frm - king) if frm else None
        if unit is None:
            return False
        square = king + unit
        while not self.board[square]:
            square += unit
        return self.board[square] >> 5 == 1 - self.side

    def pop(self):
        self.checked = None
        return super().pop()

    def allows(self, m):
        """Is `m` one of `legal_moves()`? Found without generating the moves of the piece."""
        frm = (m >> 8) & 0xFF
        to = m & 0xFF
        if frm == 0:
            return self._drop_allowed(m, (m >> 17) & 31, to)
        board = self.board
        side = self.side
        if m >> 17 or not self._on_board[frm] or not self._on_board[to]:
            return False
        piece = board[frm]
        target = board[to]
        if not piece or piece >> 5 != side or (target and target >> 5 == side):
            return False
        kind = piece & 31
        paths = self._reach[kind].get((to - frm) * (1 - 2 * side))
        return bool(paths) and self._promotion_fits(m, kind, frm, to) and self._goes(m, frm, kind, paths)

    def _goes(self, m, frm, kind, paths):
        """Can the mover's piece on `frm` (of `kind`), which `paths` take to the square, get
        there (the squares between empty) and leave its General safe? Only a General's
        move, a move out of check or one that may uncover a line to the General can leave it
        attacked: the others are not made and unmade."""
        if not (paths[0][1] == 1 or self._clear(paths, frm)):
            return False
        checked = self.checked if self.checked is not None else self.in_check()
        unit = self._lines.get(self.kings[self.side] - frm)
        if kind == KING or checked or (unit is not None and self._uncovers(frm, unit)):
            return self._safe(m)
        return True

    def _clear(self, paths, frm):
        """Does one of `paths` ((unit step as Black moves, steps), ...) from `frm` cross only
        empty squares before its last?"""
        sign = 1 - 2 * self.side
        board = self.board
        for unit, steps in paths:
            unit *= sign
            square = frm + unit
            for _ in range(steps - 1):
                if board[square]:
                    break
                square += unit
            else:
                return True
        return False

    def _uncovers(self, frm, unit):
        """Is the piece on `frm` the first on the line (`unit`) to its own General, and an
        enemy piece the first on the other side? Only then can its leaving open the line."""
        board = self.board
        king = self.kings[self.side]
        square = frm + unit
        while square != king:
            if board[square]:
                return False
            square += unit
        square = frm - unit
        while not board[square]:
            square -= unit
        return board[square] >> 5 == 1 - self.side

    def moves_to(self, piece, to):
        """The legal moves of the pieces `piece` (kind and colour) to `to`, promoting or
        not, in the order of legal_moves: a notation's rivals and candidates."""
        side = self.side
        target = self.board[to]
        if piece >> 5 != side or not self._on_board[to] or (target and target >> 5 == side):
            return []
        kind = piece & 31
        reach = self._reach[kind]
        sign = 1 - 2 * side
        board = self.board
        fits = self._promotion_fits
        found = []
        square = board.find(piece)
        while square >= 0:
            paths = reach.get((to - square) * sign)
            if paths:
                # the two differ only in the promotion rules: the rest is checked once
                move = (square << 8) | to
                plain = fits(move, kind, square, to)
                promoted = fits(move | PROMOTION, kind, square, to)
                if (plain or promoted) and self._goes(move, square, kind, paths):
                    if plain:
                        found.append(move)
                    if promoted:
                        found.append(move | PROMOTION)
            square = board.find(piece, square + 1)
        return found

    def _drop_allowed(self, m, kind, to):
        """The core's own rules for a drop (_drop_ok), nifu looked for on the one file."""
        v = self.variant
        side = self.side
        if (m >> 22 or m & PROMOTION or not self.hands[side][kind] or not self._on_board[to]
                or self.board[to] or v.depth[side][to] <= v.forced[kind]):
            return False
        if kind == PAWN:
            own_pawn = PAWN | (side << 5)
            top = v.square(v.file_of(to), 1)
            if own_pawn in self.board[top:top + v.ranks * v.stride:v.stride]:
                return False
        if (self.checked if self.checked is not None else self.in_check()) and not self._safe(m):
            return False
        return not (kind == PAWN and not v.pawn_drop_mate_legal and self._pawn_drop_mates(m))

    def _promotion_fits(self, m, kind, frm, to):
        """As the core's move generator: promotion into, out of or inside the zone, and no
        stay unpromoted on a rank the piece could never leave."""
        v = self.variant
        depth = v.depth[self.side]
        may_promote = v.promote[kind] and (depth[to] <= v.promotion_ranks
                                           or depth[frm] <= v.promotion_ranks)
        if m & PROMOTION:
            return bool(may_promote)
        return not may_promote or depth[to] > v.forced[kind]

    def walk(self, m):
        """Play a move already known legal: board, hands and side only (no history)."""
        self.checked = None
        self.make(m)
        self.move_number += 1
