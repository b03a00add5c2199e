"""Moves as small ints, so a game's history costs no allocation per ply on the Pico.

Layout: bits 0-7 destination square, 8-15 origin square (0 for a drop), bit 16 promotion,
bits 17-20 the dropped kind. Square 0 is padding, never a real origin.
"""

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
