"""Human and interop notation: Hodges (English texts) and Fairy-Stockfish FEN/UCI.

USI lives in move.py (the board needs only that); it is re-exported here.

The Fairy-Stockfish forms exist only for engine interop: its files run a.. from shogi's
highest file, its ranks 1.. from Black's side, and its 'w' is the first player (Black).
"""
from shogicore.errors import MoveError, NotationError, SfenError
from shogicore.move import PROMOTION, drop_kind, is_drop, is_promotion, move_from, move_to
from shogicore.move import parse_usi, to_usi  # re-exported: USI is notation too


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
    # only the pieces like this one can be rivals: their moves, not every legal move
    rivals = [x for sq in v.squares if sq != frm and position.board[sq] == piece
              for x in position.destinations(sq) if move_to(x) == to]
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
    raise NotationError("no '-', 'x' or '*' in %r" % (text,))


def parse_hodges(position, text):
    """The legal move that `text` names in `position`; NotationError saying why not."""
    v = position.variant
    piece_part, sep, rest = _split_hodges(text.strip())
    suffix = ""
    if rest[-1:] in ("+", "="):
        rest, suffix = rest[:-1], rest[-1]
    try:
        to = v.parse_square(rest)
    except ValueError:
        raise NotationError("bad destination %r in %r" % (rest, text))
    origin = None
    digits = [i for i, c in enumerate(piece_part) if c.isdigit()]
    if digits and digits[0] > 0:
        try:
            origin = v.parse_square(piece_part[digits[0]:])
        except ValueError:
            raise NotationError("bad origin square in %r" % (text,))
        piece_part = piece_part[:digits[0]]
    kind = None
    for k in v.kinds:
        if hodges_name(v, k) == piece_part:
            kind = k
    if kind is None:
        raise NotationError("unknown piece %r in %r" % (piece_part, text))
    if sep == "*":
        if suffix or origin is not None:
            raise NotationError("a drop takes no origin or promotion mark: %r" % (text,))
        m = (kind << 17) | to
        if not position.is_legal(m):
            raise NotationError("illegal drop %r" % (text,))
        return m
    if (sep == "x") != bool(position.board[to]):
        raise NotationError("%r: '%s' but %s is %s" % (
            text, sep, v.square_name(to), "occupied" if position.board[to] else "empty"))
    own = kind | (position.side << 5)
    found = [m for m in position.legal_moves() if not is_drop(m) and move_to(m) == to
             and position.board[move_from(m)] == own
             and (origin is None or move_from(m) == origin)]
    if not found:
        raise NotationError("no legal move matches %r" % (text,))
    origins = set(move_from(m) for m in found)
    if len(origins) > 1:
        raise NotationError("%r is ambiguous: name the origin square" % (text,))
    if len(found) == 2:
        if not suffix:
            raise NotationError("%r: say '+' to promote or '=' to decline" % (text,))
        return found[0] if is_promotion(found[0]) == (suffix == "+") else found[1]
    if suffix:
        raise NotationError("%r: there is no promotion choice here" % (text,))
    return found[0]


# -- Fairy-Stockfish interop --------------------------------------------------------------
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
    """Fairy-Stockfish move ('e1e2', 'd4d7+', 'N@e9') -> USI; MoveError if malformed."""
    if "@" in text:
        piece, _, sq = text.partition("@")
        to = _usi_square(variant, sq)
        if to is None or len(piece) != 1:
            raise MoveError("malformed engine drop %r" % (text,))
        return piece.upper() + "*" + to
    suffix = text[-1] if text[-1:] in ("+", "=") else ""
    body = text[:-1] if suffix else text
    split = 2 if len(body) == 4 else 3 if len(body) == 5 and body[2].isdigit() else 2
    frm, to = _usi_square(variant, body[:split]), _usi_square(variant, body[split:])
    if frm is None or to is None:
        raise MoveError("malformed engine move %r" % (text,))
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
