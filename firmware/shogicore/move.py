"""Moves as small ints, so a game's history costs no allocation per ply on the Pico, and
their text in USI ('7g7f', '2c2b+', 'P*5e'), which the board and engines speak.

Layout: bits 0-7 destination square, 8-15 origin square (0 for a drop), bit 16 promotion,
bits 17-21 the dropped kind. Square 0 is padding, never a real origin.
"""
from shogicore.errors import InvalidMoveError

PROMOTION = 1 << 16


def make_move(frm, to, promote=False):
    return (frm << 8) | to | (PROMOTION if promote else 0)


def make_drop(kind, to):
    return (kind << 17) | to


def move_to(m):
    return m & 0xFF


def move_from(m):
    return (m >> 8) & 0xFF


def is_drop(m):
    return not (m >> 8) & 0xFF


def drop_kind(m):
    return (m >> 17) & 31


def is_promotion(m):
    return bool(m & PROMOTION)


# -- USI ----------------------------------------------------------------------------------
def to_usi(variant, m):
    to = variant.square_name(move_to(m))
    if is_drop(m):
        return variant.symbol(drop_kind(m)) + "*" + to
    return variant.square_name(move_from(m)) + to + ("+" if is_promotion(m) else "")


def _square_end(text, start):
    """Index just past the square name ('7g', '11k') that begins at `start`."""
    i = start
    while i < len(text) and "0" <= text[i:i + 1] <= "9":
        i += 1
    return i + 1


def parse_usi(variant, text):
    """'7g7f', '2c2b+', 'P*5e' (Wa: '11c11d') -> move; InvalidMoveError if it is not
    well formed for `variant`."""
    try:
        if 4 <= len(text) <= 5 and text[1:2] == "*":
            kind = variant.kind_of(text[:1])
            if kind not in variant.hand_kinds:
                raise InvalidMoveError("a %s cannot be dropped: %r" % (text[:1], text))
            return (kind << 17) | variant.parse_square(text[2:])
        promote = text[-1:] == "+"
        body = text[:-1] if promote else text
        mid = _square_end(body, 0)
        if len(body) >= 4 and mid > 1 and _square_end(body, mid) == len(body):
            frm = variant.parse_square(body[:mid])
            to = variant.parse_square(body[mid:])
            return (frm << 8) | to | (PROMOTION if promote else 0)
    except (KeyError, ValueError) as e:
        if isinstance(e, InvalidMoveError):
            raise
        raise InvalidMoveError("malformed USI move %r: %s" % (text, e))
    raise InvalidMoveError("malformed USI move %r: expected like 7g7f, 2c2b+ or P*5e" % (text,))
