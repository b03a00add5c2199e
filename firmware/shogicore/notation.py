"""Human notation: Hodges (English texts).

USI lives in move.py (the board needs only that); it is re-exported here. Fairy-Stockfish's
forms, which only the PC speaks, are the host's (yariboard.engines.fsf_notation).
"""
from shogicore.errors import IllegalMoveError, InvalidMoveError, MoveError
from shogicore.move import PROMOTION, drop_kind, is_drop, is_promotion, move_from, move_to
from shogicore.move import parse_usi, to_usi  # re-exported: USI is notation too



class AmbiguousMoveError(MoveError):
    """A Hodges text that fits more than one legal move (origin or promotion left out)."""


# -- Hodges -------------------------------------------------------------------------------
# Hodges piece names where they differ from the SFEN letters (docs/rules.md): Yari's Knight,
# Bishop and Rook carry a Y, and its King is the General. Wa's pieces go by the initials
# of their English names (docs/rules-wa.md); a promoted piece is '+' and its base's name.
_WA_NAMES = {
    "K": "CK", "E": "CE", "F": "FF", "S": "SW", "X": "TF", "R": "RR", "V": "VS", "W": "VW",
    "G": "FG", "C": "FC", "U": "SC", "L": "SO", "D": "BD", "M": "CM", "H": "LH", "O": "OC",
    "P": "SP",
}
_HODGES_RENAMED = {
    "yari": {"K": "G", "N": "YN", "B": "YB", "R": "YR"},
    "wa": _WA_NAMES,
    "wa-nodrops": _WA_NAMES,
}


def hodges_name(variant, kind):
    """The Hodges name of `kind` ('YB', '+P', 'G'): the host's records, never the board."""
    symbol = variant.symbol(kind)
    names = _HODGES_RENAMED.get(variant.name, {})
    if symbol[:1] == "+":
        return "+" + names.get(symbol[1:], symbol[1:])
    return names.get(symbol, symbol)


def _choice_existed(position, m):
    other = m ^ PROMOTION
    return other in position.destinations(move_from(m))


def to_hodges(position, m):
    """`m` (legal in `position`, before it is played) in Hodges notation: 'YB6i-5h', 'P*5e'."""
    v = position.variant
    to = move_to(m)
    if is_drop(m):
        return "%s*%s" % (hodges_name(v, drop_kind(m)), v.square_name(to))
    frm = move_from(m)
    piece = position.board[frm]
    rivals = [x for x in position.legal_moves() if not is_drop(x) and move_to(x) == to
              and move_from(x) != frm and position.board[move_from(x)] == piece]
    text = hodges_name(v, piece & 31)
    if rivals:
        text += v.square_name(frm)
    text += ("x" if position.board[to] else "-") + v.square_name(to)
    if _choice_existed(position, m):
        text += "+" if is_promotion(m) else "="
    return text


def _split_hodges(text):
    for i, c in enumerate(text):
        if c in "-x*" and i > 0:
            return text[:i], c, text[i + 1:]
    raise InvalidMoveError("no '-', 'x' or '*' in %r" % (text,))


def parse_hodges(position, text):
    """The legal move that `text` names in `position`; InvalidMoveError,
    IllegalMoveError or AmbiguousMoveError saying why not."""
    v = position.variant
    piece_part, sep, rest = _split_hodges(text.strip())
    suffix = ""
    if rest[-1:] in ("+", "="):
        rest, suffix = rest[:-1], rest[-1]
    try:
        to = v.parse_square(rest)
    except ValueError:
        raise InvalidMoveError("bad destination %r in %r" % (rest, text))
    origin = None
    digits = [i for i, c in enumerate(piece_part) if c.isdigit()]
    if digits and digits[0] > 0:
        try:
            origin = v.parse_square(piece_part[digits[0]:])
        except ValueError:
            raise InvalidMoveError("bad origin square in %r" % (text,))
        piece_part = piece_part[:digits[0]]
    kind = None
    for k in v.kinds:
        if hodges_name(v, k) == piece_part:
            kind = k
    if kind is None:
        raise InvalidMoveError("unknown piece %r in %r" % (piece_part, text))
    if sep == "*":
        if suffix or origin is not None:
            raise InvalidMoveError("a drop takes no origin or promotion mark: %r" % (text,))
        m = (kind << 17) | to
        if not position.is_legal(m):
            raise IllegalMoveError("illegal drop %r" % (text,))
        return m
    if (sep == "x") != bool(position.board[to]):
        raise IllegalMoveError("%r: '%s' but %s is %s" % (
            text, sep, v.square_name(to), "occupied" if position.board[to] else "empty"))
    own = kind | (position.side << 5)
    found = [m for m in position.legal_moves() if not is_drop(m) and move_to(m) == to
             and position.board[move_from(m)] == own
             and (origin is None or move_from(m) == origin)]
    if not found:
        raise IllegalMoveError("no legal move matches %r" % (text,))
    origins = set(move_from(m) for m in found)
    if len(origins) > 1:
        raise AmbiguousMoveError("%r is ambiguous: name the origin square" % (text,))
    if len(found) == 2:
        if not suffix:
            raise AmbiguousMoveError("%r: say '+' to promote or '=' to decline" % (text,))
        return found[0] if is_promotion(found[0]) == (suffix == "+") else found[1]
    if suffix:
        raise IllegalMoveError("%r: there is no promotion choice here" % (text,))
    return found[0]
