"""Fairy-Stockfish's notation, for its engine and for pyffish as an oracle: FEN and UCI-like
moves to and from the rules core's SFEN and USI.

Its files run a.. from shogi's highest file, its ranks 1.. from Black's side, and its 'w'
is the first player (Black). Only the PC speaks it, so it lives here and not in the rules
core the board carries.
"""
from shogicore.errors import InvalidMoveError, SfenError
from shogicore.move import is_drop, parse_usi


def _fsf_square(variant, name):
    sq = variant.parse_square(name)
    return "%s%d" % (chr(97 + variant.files - variant.file_of(sq)),
                     variant.ranks + 1 - variant.rank_of(sq))


def _usi_square(variant, name):
    try:
        file = variant.files - (ord(name[0]) - 97)
        rank = variant.ranks + 1 - int(name[1:])
        return variant.square_name(variant.square(file, rank)) if (
            1 <= file <= variant.files and 1 <= rank <= variant.ranks) else None
    except (ValueError, IndexError):
        return None


def usi_to_uci(variant, text):
    m = parse_usi(variant, text)
    if is_drop(m):
        return "%s@%s" % (text[0], _fsf_square(variant, text[2:4]))
    return _fsf_square(variant, text[:2]) + _fsf_square(variant, text[2:4]) + text[4:]


def uci_to_usi(variant, text):
    """Fairy-Stockfish move ('e1e2', 'd4d7+', 'N@e9') -> USI; InvalidMoveError if malformed."""
    if "@" in text:
        piece, _, sq = text.partition("@")
        to = _usi_square(variant, sq)
        if to is None or len(piece) != 1:
            raise InvalidMoveError("malformed engine drop %r" % (text,))
        return piece.upper() + "*" + to
    suffix = text[-1] if text[-1:] in ("+", "=") else ""
    body = text[:-1] if suffix else text
    split = 2 if len(body) == 4 else 3 if len(body) == 5 and body[2].isdigit() else 2
    frm, to = _usi_square(variant, body[:split]), _usi_square(variant, body[split:])
    if frm is None or to is None:
        raise InvalidMoveError("malformed engine move %r" % (text,))
    return frm + to + ("+" if suffix == "+" else "")


def sfen_to_fsf(sfen):
    """SFEN -> Fairy-Stockfish FEN (same board letters, hand in brackets, sides renamed)."""
    fields = sfen.split()
    if len(fields) < 3:
        raise SfenError("SFEN needs at least 3 fields: %r" % (sfen,))
    hand = ""
    n = 0
    for c in fields[2] if fields[2] != "-" else "":
        if c.isdigit():
            n = n * 10 + int(c)
        else:
            hand += c * (n or 1)
            n = 0
    ply = int(fields[3]) if len(fields) > 3 else 1
    side = "w" if fields[1] == "b" else "b"
    return "%s[%s] %s - - 0 %d" % (fields[0], hand, side, (ply + 1) // 2)


def fsf_to_sfen(fen):
    """Fairy-Stockfish FEN -> SFEN (the move number is exact for games Black started)."""
    fields = fen.split()
    board, _, hand = fields[0].partition("[")
    hand = hand.rstrip("]")
    side = "b" if fields[1] == "w" else "w"
    counts = {}
    order = []
    for c in hand:
        if c not in counts:
            order.append(c)
        counts[c] = counts.get(c, 0) + 1
    order.sort(key=lambda c: (c.islower(), "RBGSNLP".find(c.upper())))
    text = "".join(("%d" % counts[c] if counts[c] > 1 else "") + c for c in order) or "-"
    full = int(fields[-1]) if len(fields) > 2 else 1
    ply = 2 * (full - 1) + (1 if side == "b" else 2)
    return "%s %s %s %d" % (board, side, text, ply)
