"""Moves as small ints, so a game's history costs no allocation per ply on the Pico, and
their text in USI ('7g7f', '2c2b+', 'P*5e'), which the board and engines speak.

Layout: bits 0-7 destination square, 8-15 origin square (0 for a drop), bit 16 promotion,
bits 17-20 the dropped kind. Square 0 is padding, never a real origin.
"""
from shogicore.errors import MoveError

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
    return (m >> 17) & 15


def is_promotion(m):
    return bool(m & PROMOTION)


# -- USI ----------------------------------------------------------------------------------
def to_usi(variant, m):
    to = variant.square_name(move_to(m))
    if is_drop(m):
        return variant.symbol(drop_kind(m)) + "*" + to
    return variant.square_name(move_from(m)) + to + ("+" if is_promotion(m) else "")


def parse_usi(variant, text):
    """'7g7f', '2c2b+' or 'P*5e' -> move; MoveError if it is not well formed for `variant`."""
    try:
        if len(text) == 4 and text[1] == "*":
            kind = variant.kind_of(text[0])
            if kind not in variant.hand_kinds:
                raise MoveError("a %s cannot be dropped: %r" % (text[0], text))
            return (kind << 17) | variant.parse_square(text[2:])
        if len(text) in (4, 5) and (len(text) == 4 or text[4] == "+"):
            frm = variant.parse_square(text[:2])
            to = variant.parse_square(text[2:4])
            return (frm << 8) | to | (PROMOTION if len(text) == 5 else 0)
    except (KeyError, ValueError) as e:
        if isinstance(e, MoveError):
            raise
        raise MoveError("malformed USI move %r: %s" % (text, e))
    raise MoveError("malformed USI move %r: expected like 7g7f, 2c2b+ or P*5e" % (text,))
