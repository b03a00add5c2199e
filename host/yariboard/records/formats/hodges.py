"""Hodges notation for the records: the rules core's (shogicore.notation), found move by move.

The core names a move by asking every piece like the mover for all of its moves, and reads
one by listing every legal move; for a PGN file of thousands of games that was most of the
time. Here each candidate move is checked alone (playback.RecordPosition.allows), among the
pieces like the mover that can reach the square (RecordPosition.moves_to). Texts, errors and their messages
are the core's own (tests/records/test_hodges.py holds one to the other).
"""
import functools

from shogicore.errors import IllegalMoveError, InvalidMoveError
from shogicore.move import PROMOTION, drop_kind, is_drop, is_promotion, move_from, move_to
from shogicore.notation import AmbiguousMoveError, hodges_name


def write_move(position, m):
    """`m` (legal in `position`, a RecordPosition, before it is played): 'YB6i-5h', 'P*5e'."""
    v = position.variant
    to = move_to(m)
    if is_drop(m):
        return "%s*%s" % (_names(v)[drop_kind(m)], v.square_name(to))
    frm = move_from(m)
    piece = position.board[frm]
    text = _names(v)[piece & 31]
    if any(move_from(rival) != frm for rival in position.moves_to(piece, to)):
        text += v.square_name(frm)
    text += ("x" if position.board[to] else "-") + v.square_name(to)
    if position.allows(m ^ PROMOTION):
        text += "+" if is_promotion(m) else "="
    return text


def read_move(position, text):
    """The legal move `text` names in `position` (a RecordPosition); InvalidMoveError,
    IllegalMoveError or AmbiguousMoveError saying why not, as shogicore.notation.parse_hodges."""
    v = position.variant
    kind, origin, sep, to, suffix = _parsed(v, text)
    if sep == "*":
        m = (kind << 17) | to
        if not position.allows(m):
            raise IllegalMoveError("illegal drop %r" % (text,))
        return m
    if (sep == "x") != bool(position.board[to]):
        raise IllegalMoveError("%r: '%s' but %s is %s" % (
            text, sep, v.square_name(to), "occupied" if position.board[to] else "empty"))
    found = [m for m in position.moves_to(kind | (position.side << 5), to)
             if origin is None or move_from(m) == origin]
    return _one_of(found, text, suffix)


@functools.lru_cache(maxsize=1 << 16)
def _parsed(v, text):
    """What `text` says, read once for all the games that write it: (kind, origin square or
    None, separator, destination, promotion mark); InvalidMoveError if it says nothing."""
    piece_part, sep, rest = _split(text.strip())
    suffix = ""
    if rest[-1:] in ("+", "="):
        rest, suffix = rest[:-1], rest[-1]
    try:
        to = v.parse_square(rest)
    except ValueError:
        raise InvalidMoveError("bad destination %r in %r" % (rest, text))
    piece_part, origin = _origin(v, piece_part, text)
    kind = _kind(v, piece_part, text)
    if sep == "*" and (suffix or origin is not None):
        raise InvalidMoveError("a drop takes no origin or promotion mark: %r" % (text,))
    return kind, origin, sep, to, suffix


def _split(text):
    for i, c in enumerate(text):
        if c in "-x*" and i > 0:
            return text[:i], c, text[i + 1:]
    raise InvalidMoveError("no '-', 'x' or '*' in %r" % (text,))


def _origin(v, piece_part, text):
    """The piece's name and the origin square written after it, if any."""
    digits = [i for i, c in enumerate(piece_part) if c.isdigit()]
    if not digits or digits[0] == 0:
        return piece_part, None
    try:
        return piece_part[:digits[0]], v.parse_square(piece_part[digits[0]:])
    except ValueError:
        raise InvalidMoveError("bad origin square in %r" % (text,))


def _kind(v, piece_part, text):
    kind = _kinds(v).get(piece_part)
    if kind is None:
        raise InvalidMoveError("unknown piece %r in %r" % (piece_part, text))
    return kind


@functools.lru_cache(maxsize=None)
def _kinds(v):
    """{Hodges name: kind} (the last kind of a name, as the core's reader finds it)."""
    return {hodges_name(v, k): k for k in v.kinds}


@functools.lru_cache(maxsize=None)
def _names(v):
    """{kind: Hodges name}, for every move written."""
    return {k: hodges_name(v, k) for k in v.kinds}


def _one_of(found, text, suffix):
    if not found:
        raise IllegalMoveError("no legal move matches %r" % (text,))
    if len(set(move_from(m) for m in found)) > 1:
        raise AmbiguousMoveError("%r is ambiguous: name the origin square" % (text,))
    if len(found) == 2:
        if not suffix:
            raise AmbiguousMoveError("%r: say '+' to promote or '=' to decline" % (text,))
        return found[0] if is_promotion(found[0]) == (suffix == "+") else found[1]
    if suffix:
        raise IllegalMoveError("%r: there is no promotion choice here" % (text,))
    return found[0]
