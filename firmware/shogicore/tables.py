"""Builds a Variant's tables from how its pieces move (yari_tables.py, shogi_tables.py,
wa_tables.py).

Runs once per variant: variants.variant_by_name drops this module afterwards, so the board
keeps the tables and not this code. Directions are given as Black sees them: (columns
right, ranks down), so forward is (0, -1). The tables hold Black's moves only: White's are
the same turned around, so the rules core negates them (sign = 1 - 2 * colour). A kind
promotes to the kind whose symbol is its own with a '+' in front, and a captured '+X' goes
to the hand as 'X': the numbers of the kinds carry no meaning beyond KING and PAWN.
"""
from micropython import const

from shogicore.variants import BLACK, WHITE, Variant, key_table

_SIGN_BIT = const(0x40000000)   # bit 30: the sign of a small int on the Pico


# The eight directions F, B, L, R, FL, FR, BL, BR (forward, back, left, right and the
# diagonals). The variant modules unpack them into locals: on the Pico a module-level name
# for each would be a qstr for good.
COMPASS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))


class Kind:
    """How one kind of piece moves and is written. `steps` are single steps or jumps,
    `slides` go any distance, `ranges` are (direction, most squares) slides that stop at
    the first piece (Wa's Cloud Eagle goes up to 3 squares diagonally forward)."""

    def __init__(self, kind, symbol, steps=(), slides=(), forced=0, points=1, ranges=()):
        self.kind = kind
        self.symbol = symbol
        self.steps = steps
        self.slides = slides
        self.ranges = ranges
        self.forced = forced    # last ranks where it could never move again
        self.points = points


def build_variant(name, files, ranks, kinds, start_sfen, totals, repetitions,
                  pawn_drop_mate_legal, impasse_threshold, promotion_ranks, hand_kinds,
                  handicaps=None, pad_files=1):
    """A Variant with every table the core reads, from its `kinds` (Kind objects).
    `impasse_threshold` 0: the variant has no impasse rule; `hand_kinds` (Kind objects,
    most valuable first) empty: no drops."""
    v = Variant(name, files, ranks, pad_files)
    v.start_sfen = start_sfen
    v.repetitions = repetitions
    v.pawn_drop_mate_legal = pawn_drop_mate_legal
    v.impasse_threshold = impasse_threshold
    v.promotion_ranks = promotion_ranks
    v.handicaps = handicaps or {}
    squares = bytearray(files * ranks)     # every index fits a byte: boards up to 11x11
    i = 0
    for r in range(1, ranks + 1):
        for f in range(files, 0, -1):
            squares[i] = v.square(f, r)
            i += 1
    v.squares = bytes(squares)
    v.hand_kinds = bytes([k.kind for k in hand_kinds])

    n = max(k.kind for k in kinds) + 1
    v.totals = bytearray(n)
    for kind in totals:
        v.totals[kind] = totals[kind]
    symbols = ["  "] * n
    v.promote = bytearray(n)
    v.base = bytearray(n)
    v.forced = bytearray(n)
    v.points = bytearray(n)
    steps = [()] * n
    slides = [()] * n
    ranges = [()] * n
    stride = v.stride
    # One tuple for each distinct move set: kinds that move alike (the many gold-like
    # promoted kinds) share it, and the board's RAM holds it once.
    shared = {(): ()}
    for k in kinds:
        symbols[k.kind] = k.symbol
        v.forced[k.kind] = k.forced
        v.points[k.kind] = k.points
        # (columns, ranks) directions as Black sees them -> Black's mailbox offsets
        for moves_of, moves in ((steps, k.steps), (slides, k.slides)):
            offsets = tuple([d[1] * stride + d[0] for d in moves])
            moves_of[k.kind] = shared.setdefault(offsets, offsets)
        offsets = tuple([(d[1] * stride + d[0], reach) for d, reach in k.ranges])
        ranges[k.kind] = shared.setdefault(offsets, offsets)
    # One string, not a str object per symbol; tuples, not the lists they were built in:
    # a tuple is one block of RAM, a list two.
    v.symbols = "".join([(" " + s if len(s) < 2 else s) for s in symbols])
    v.steps, v.slides, v.ranges = tuple(steps), tuple(slides), tuple(ranges)
    for k in kinds:
        promoted = "+" + k.symbol
        v.base[k.kind] = v.kind_of(k.symbol[1:]) if k.symbol[:1] == "+" else k.kind
        if promoted in symbols:
            v.promote[k.kind] = v.kind_of(promoted)
    v.kinds = bytes([k.kind for k in kinds])
    # Hash keys: one per square, then one per hand count 0..most pieces of a kind.
    v.keys = key_table(v.size + max(v.totals) + 1, 11 + v.size)

    # depth[colour][sq]: 1 on the colour's last rank, 2 on the one before, ...
    v.depth = (bytearray(v.size), bytearray(v.size))
    for sq in v.squares:
        r = v.rank_of(sq)
        v.depth[BLACK][sq] = r
        v.depth[WHITE][sq] = ranks + 1 - r
    _tables(v, kinds)
    return v


def _tables(variant, kinds):
    """The variant's tables of who attacks a square, from its kinds' moves. For Black's
    pieces (White's: the deltas negated): (delta from target to attacker, mask of kinds) for
    steps and slides, (delta, most squares, mask of kinds) for ranges.

    A kind's bit is kind - 1, and bit 30 (kind 31, a Wa promotion) is taken as the sign: so
    a mask is one of the Pico's small ints (31 bits with the sign), never a big int to keep
    in RAM and to allocate anew at every shift, and `mask >> kind - 1 & 1` reads bit 30 as
    well. (One function for the three tables: on the Pico each function name stays a qstr
    after this module goes.)"""
    v = variant
    attacks = []
    for source in (v.steps, v.slides):
        masks = {}
        for k in kinds:
            for d in source[k.kind]:
                masks[-d] = masks.get(-d, 0) | (1 << k.kind - 1)
        attacks.append(tuple([(delta, (masks[delta] ^ _SIGN_BIT) - _SIGN_BIT)
                              for delta in sorted(masks)]))
    v.step_attacks, v.slide_attacks = attacks
    reach_masks = {}
    for k in kinds:
        for d, reach in v.ranges[k.kind]:
            reach_masks[(-d, reach)] = reach_masks.get((-d, reach), 0) | (1 << k.kind - 1)
    v.range_attacks = tuple([(key[0], key[1], (reach_masks[key] ^ _SIGN_BIT) - _SIGN_BIT)
                             for key in sorted(reach_masks)])
