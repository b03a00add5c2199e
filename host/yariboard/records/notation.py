"""Hodges notation (English texts: 'P-7f', 'YB6i-5h', '+P*5e'), the host's only one: records,
screens, voice and the web pages write and read moves with it. The board never does (it
speaks USI: shogicore.move), so the rules core keeps no copy.

A move is named and read move by move: each candidate is checked alone
(playback.RecordPosition.allows), among the pieces like the mover that can reach the square
(RecordPosition.moves_to), never by listing every legal move; a PGN file of thousands of
games is read at that pace.
"""
import functools

from shogicore.errors import IllegalMoveError, InvalidMoveError, MoveError
from shogicore.move import PROMOTION, drop_kind, is_drop, is_promotion, move_from, move_to
from yariboard.records.playback import RecordPosition


class AmbiguousMoveError(MoveError):
    """A Hodges text that fits more than one legal move (origin or promotion left out)."""


# Hodges piece names where they differ from the SFEN letters (docs/rules.md): Yari's Knight,
# Bishop and Rook carry a Y, and its King is the General. Wa's pieces go by the initials
# of their English names (docs/rules-wa.md); a promoted piece is '+' and its base's name.
_WA_NAMES = {
    "K": "CK", "E": "CE", "F": "FF", "S": "SW", "X": "TF", "R": "RR", "V": "VS", "W": "VW",
    "G": "FG", "C": "FC", "U": "SC", "L": "SO", "D": "BD", "M": "CM", "H": "LH", "O": "OC",
    "P": "SP",
}
_RENAMED = {
    "yari": {"K": "G", "N": "YN", "B": "YB", "R": "YR"},
    "wa": _WA_NAMES,
    "wa-nodrops": _WA_NAMES,
}


def hodges_name(variant, kind):
    """The Hodges name of `kind` ('YB', '+P', 'G')."""
    return _names(variant)[kind]


def _checker(position):
    """`position` itself if it checks moves one at a time, else such a copy of it."""
    return position if isinstance(position, RecordPosition) else RecordPosition.of(position)


def to_hodges(position, m):
    """`m` (legal in `position`, before it is played) in Hodges notation: 'YB6i-5h', 'P*5e'.

    A record's position (RecordPosition) holds moves already checked; any other, a screen's
    or an engine's, may be handed a move of a search gone stale: IllegalMoveError then."""
    if not isinstance(position, RecordPosition):
        position = RecordPosition.of(position)
        if not position.allows(m):
            raise IllegalMoveError("move %#x is not legal in %s" % (m, position.sfen()))
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


def parse_hodges(position, text):
    """The legal move `text` names in `position`; InvalidMoveError, IllegalMoveError or
    AmbiguousMoveError saying why not."""
    position = _checker(position)
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
    """{Hodges name: kind}."""
    return {name: k for k, name in _names(v).items()}


@functools.lru_cache(maxsize=None)
def _names(v):
    """{kind: Hodges name}: the SFEN symbol, renamed where the variant's table says."""
    renamed = _RENAMED.get(v.name, {})
    names = {}
    for k in v.kinds:
        symbol = v.symbol(k)
        base = symbol.lstrip("+")
        names[k] = symbol[:len(symbol) - len(base)] + renamed.get(base, base)
    return names


def _one_of(found, text, suffix):
    if len(found) == 1 and not suffix:
        return found[0]     # most texts: one piece, no promotion choice
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
