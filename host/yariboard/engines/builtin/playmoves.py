"""Make and unmake for the engine's search, quicker than the rules core's.

The core's `Position.make` and `unmake` are written for the Pico's RAM: each works the hash
out again from the variant's keys, multiplying a square's key by a piece's at every term,
and reads every table through the variant. The search plays and takes back a move at every
node, so here the same two steps are built for speed:

- the hash terms (a piece on a square, one more or one fewer of a kind in hand) are products
  made once per variant, so a term is an index;
- `unmake` puts back the hash `make` saved, where the core works it out a second time;
- the tables the move needs (the promoted and unpromoted piece, the kind a capture becomes
  in hand) are bound once, for the whole search.

The board, hands, Generals, side and hash are the position's own, left exactly as the core's
`make` and `unmake` leave them (tests/engines/test_engine_playmoves.py plays random games of every
variant both ways), so the core and the search can take turns on one position. Host-only.
"""
from shogicore.move import PROMOTION
from shogicore.position import _PIECE_KEYS, _SIDE_KEY
from shogicore.variants import KING

_TABLES = {}


def _tables(variant):
    """The tables `make_unmake` reads for `variant`, made once: square_key[piece][sq], the
    hash term of `piece` on `sq`; hand_key[piece][n], what changes in the hash when a hand's
    count of `piece` goes from n to n + 1 (or back), as the core's `make` counts them; and by
    piece (colour and kind) the kind it becomes in hand, the piece it becomes on promoting,
    and the piece it is taken back as, unpromoted."""
    tables = _TABLES.get(variant)
    if tables is None:
        keys = variant.keys
        hand_base = variant.size
        square_key = [[keys[sq] * _PIECE_KEYS[p] for sq in range(variant.size)]
                      for p in range(64)]
        hand_key = [[keys[hand_base + n] * _PIECE_KEYS[p]
                     ^ keys[hand_base + n + 1] * _PIECE_KEYS[p]
                     for n in range(len(keys) - hand_base - 1)] for p in range(64)]
        in_hand, promoted, unpromoted = [0] * 64, [0] * 64, [0] * 64
        for colour in (0, 1):
            for kind in range(len(variant.base)):
                piece = kind | colour << 5
                in_hand[piece] = variant.base[kind]
                promoted[piece] = variant.promote[kind] | colour << 5
                unpromoted[piece] = variant.base[kind] | colour << 5
        tables = _TABLES[variant] = (square_key, hand_key, in_hand, promoted, unpromoted)
    return tables


def make_unmake(position):
    """(make, unmake) for `position`: `make(m)` plays the legal move `m` and returns the piece
    it took (0 for none), `unmake(m, captured)` takes back the last move made, as the core's
    `make` and `unmake` do. No history is kept but the hashes to restore: the moves must be
    taken back in the reverse order they were made."""
    board = position.board
    hands = position.hands
    kings = position.kings
    square_key, hand_key, in_hand, promoted, unpromoted = _tables(position.variant)
    drops = bool(position.variant.hand_kinds)
    hashes = []
    save_hash, saved_hash = hashes.append, hashes.pop

    def make(m):
        side = position.side
        h = position.hash
        save_hash(h)
        h ^= _SIDE_KEY
        to = m & 0xFF
        frm = m >> 8 & 0xFF
        if not frm:                     # a drop
            kind = m >> 17 & 31
            p = kind | side << 5
            hand = hands[side]
            n = hand[kind] - 1
            hand[kind] = n
            h ^= hand_key[p][n]
            captured = 0
        else:
            p = board[frm]
            board[frm] = 0
            h ^= square_key[p][frm]
            captured = board[to]
            if captured:
                h ^= square_key[captured][to]
                if drops:               # without drops a capture is gone
                    kind = in_hand[captured]
                    hand = hands[side]
                    n = hand[kind]
                    hand[kind] = n + 1
                    h ^= hand_key[kind | side << 5][n]
            if m & PROMOTION:
                p = promoted[p]
            elif p & 31 == KING:
                kings[side] = to
        board[to] = p
        position.hash = h ^ square_key[p][to]
        position.side = 1 - side
        return captured

    def unmake(m, captured):
        position.side = side = 1 - position.side
        position.hash = saved_hash()
        to = m & 0xFF
        frm = m >> 8 & 0xFF
        p = board[to]
        if not frm:
            hands[side][p & 31] += 1
            board[to] = 0
        else:
            if m & PROMOTION:
                p = unpromoted[p]
            elif p & 31 == KING:
                kings[side] = frm
            board[frm] = p
            board[to] = captured
            if captured and drops:
                hands[side][in_hand[captured]] -= 1

    return make, unmake
