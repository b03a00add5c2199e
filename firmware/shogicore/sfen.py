"""SFEN text -> board and hands, with every check a set-up position must pass.

Apart from Position because a board reads SFEN only when a game is set up: the firmware
unloads this module afterwards (boardfw.unload), so a game in play has its RAM. Writing
SFEN happens after every move and stays in Position.sfen().
"""
from micropython import const

from shogicore.errors import SfenError
from shogicore.position import EMPTY
from shogicore.variants import BLACK, KING, WHITE

_WALL = const(64)   # as position.py: the value of the padding around the board
# Move numbers beyond this are refused: every value a game keeps must be bounded so that
# the board's replies (which carry the SFEN) always fit a protocol frame.
_MAX_MOVE_NUMBER = const(9999)


def read_sfen(variant, text):
    """(board, hands, side, move_number, kings) of SFEN `text`; SfenError names the first
    problem. Whether the side not to move is in check is left to Position."""
    v = variant
    fields = text.split()
    if len(fields) not in (3, 4):
        raise SfenError("SFEN needs 3 or 4 fields (board side hands [move]), got %d"
                        % len(fields))
    counts = {}   # pieces of each unpromoted kind, on the board and in hand
    board = _rows(v, fields[0], counts)
    if fields[1] not in ("b", "w"):
        raise SfenError("side to move must be 'b' or 'w', got %r" % fields[1])
    hands = _hands(v, fields[2], counts)
    move_number = 1
    if len(fields) == 4:
        number = fields[3]
        if not number.isdigit() or len(number) > 4:
            raise SfenError("move number must be a whole number from 1 to %d, got %r"
                            % (_MAX_MOVE_NUMBER, number[:12]))
        move_number = int(number)
        if move_number < 1:
            raise SfenError("move number must be at least 1, got %d" % move_number)
    for kind in counts:
        if kind != KING and counts[kind] > v.totals[kind]:
            raise SfenError("too many %s: %d, a %s set has %d" % (
                v.symbol(kind), counts[kind], v.name, v.totals[kind]))
    side = BLACK if fields[1] == "b" else WHITE
    return board, hands, side, move_number, _check_pieces(v, board)


def _rows(variant, text, counts):
    """The board of SFEN's first field `text`, its pieces counted into `counts` by
    unpromoted kind."""
    v = variant
    board = bytearray(v.size)
    for i in range(v.size):
        board[i] = _WALL
    rows = text.split("/")
    if len(rows) != v.ranks:
        raise SfenError("board has %d ranks, %s needs %d" % (len(rows), v.name, v.ranks))
    # Characters are taken by slices, not indexes or iteration: MicroPython interns the
    # one-letter str those make, for good, and Wa's letters would fill the qstr table.
    for r, row in enumerate(rows):
        file = v.files
        i = 0
        while i < len(row):
            c = row[i:i + 1]
            if "1" <= c <= "9":
                j = i + 1
                while j < len(row) and "0" <= row[j:j + 1] <= "9":    # '11': a whole Wa rank
                    j += 1
                # Only the squares the board has are walked: a count written in the text
                # must not set the work (k99999999999 froze the board).
                if j - i > 2:
                    raise SfenError("rank %s has more than 99 squares, %s needs %d"
                                    % (chr(97 + r), v.name, v.files))
                run = int(row[i:j])
                for f in range(file, max(file - run, 0), -1):
                    board[v.square(f, r + 1)] = EMPTY
                file -= run
                i = j
                continue
            symbol = c
            if c == "+":
                if i + 1 >= len(row):
                    raise SfenError("rank %s ends with '+'" % chr(97 + r))
                i += 1
                symbol = "+" + row[i:i + 1]
            try:
                kind = v.kind_of(symbol.upper())
            except KeyError:
                raise SfenError("unknown piece %r on rank %s" % (symbol, chr(97 + r)))
            colour = BLACK if symbol.upper() == symbol else WHITE
            if file >= 1:
                board[v.square(file, r + 1)] = kind | (colour << 5)
            file -= 1
            base = v.base[kind]
            counts[base] = counts.get(base, 0) + 1
            i += 1
        if file != 0:
            raise SfenError("rank %s has %d squares, %s needs %d"
                            % (chr(97 + r), v.files - file, v.name, v.files))
    return board


def _hands(variant, text, counts):
    """Both hands of SFEN's third field `text`, each piece counted into `counts` as it is
    read (so too many of a kind is named as soon as it is)."""
    v = variant
    hands = (bytearray(len(v.symbols) // 2), bytearray(len(v.symbols) // 2))
    if text == "-":
        return hands
    n = -1   # no count written: one piece
    for i in range(len(text)):
        c = text[i:i + 1]
        if "0" <= c <= "9":
            n = (n if n > 0 else 0) * 10 + int(c)
            if n > 99:   # more than any set holds; also keeps a count in a byte
                raise SfenError("hand count too large in %r" % text)
            continue
        if not n:
            raise SfenError("hand count 0 before %r" % c)
        try:
            kind = v.kind_of(c.upper())
        except KeyError:
            raise SfenError("unknown piece %r in hand" % c)
        if kind not in v.hand_kinds:
            raise SfenError("a %s cannot be in hand" % c)
        colour = BLACK if c.isupper() else WHITE
        n = n if n > 0 else 1
        counts[kind] = counts.get(kind, 0) + n
        if counts[kind] > v.totals[kind]:
            raise SfenError("too many %s: %d, a %s set has %d" % (
                v.symbol(kind), counts[kind], v.name, v.totals[kind]))
        hands[colour][kind] += n
        n = -1
    if n >= 0:
        raise SfenError("hand %r ends with a count" % text)
    return hands


def _check_pieces(v, board):
    """Refuse more than one General a side, or none at all; the two Generals' squares, 0 for
    a side without one (a tsume problem's attacker).

    A composed position is read as the shogi world's readers read it: two pawns of a side
    on one file and a piece that can never move are accepted. Nifu is a rule of drops and
    forced promotion one of moves (Position), and a pawn never changes its file by moving."""
    kings = [[], []]
    for sq in v.squares:
        p = board[sq]
        if p & 31 == KING:
            kings[p >> 5].append(sq)
    for colour, name in ((BLACK, "Black"), (WHITE, "White")):
        if len(kings[colour]) > 1:
            raise SfenError("%s must have at most one General, has %d"
                            % (name, len(kings[colour])))
    if not kings[BLACK] and not kings[WHITE]:
        raise SfenError("a position needs at least one General")
    return [(kings[colour] or [0])[0] for colour in (BLACK, WHITE)]
