"""USI move notation ('7g7f', '2c2b+', 'P*5e'): what the board and engines speak."""
from shogicore.errors import MoveError
from shogicore.move import PROMOTION, drop_kind, is_drop, is_promotion, move_from, move_to


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
