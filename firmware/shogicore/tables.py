"""Builds a Variant's tables from how its pieces move (yari_tables.py, shogi_tables.py,
wa_tables.py).

Runs once per variant: variants.variant_by_name drops this module afterwards, so the board
keeps the tables and not this code. Directions are given as Black sees them: (columns
right, ranks down), so forward is (0, -1); White's are the same turned around. A kind
promotes to the kind whose symbol is its own with a '+' in front, and a captured '+X' goes
to the hand as 'X': the numbers of the kinds carry no meaning beyond KING and PAWN.
"""
from shogicore.variants import BLACK, WHITE, Variant, _key_table


F, B, L, R = (0, -1), (0, 1), (-1, 0), (1, 0)
FL, FR, BL, BR = (-1, -1), (1, -1), (-1, 1), (1, 1)
ALL_8 = (F, B, L, R, FL, FR, BL, BR)
KNIGHT_JUMPS = ((-1, -2), (1, -2))
GOLD_STEPS = (F, L, R, FL, FR, B)


class Kind:
    """How one kind of piece moves and is written. `steps` are single steps or jumps,
    `slides` go any distance, `ranges` are (direction, most squares) slides that stop at
    the first piece (Wa's Cloud Eagle goes up to 3 squares diagonally forward)."""

    def __init__(self, kind, symbol, steps=(), slides=(), forced_ranks=0, points=1, ranges=()):
        self.kind = kind
        self.symbol = symbol
        self.steps = steps
        self.slides = slides
        self.ranges = ranges
        self.forced_ranks = forced_ranks
        self.points = points


def build_variant(name, files, ranks, kinds, start_sfen, totals, repetitions,
                  pawn_drop_mate_legal, impasse_threshold, hand_order, handicaps=None,
                  pad_files=1):
    """A Variant with every table the core reads, from its `kinds` (Kind objects).
    `impasse_threshold` 0: the variant has no impasse rule; `hand_order` empty: no drops."""
    v = Variant(name, files, ranks, pad_files)
    v.start_sfen = start_sfen
    v.repetitions = repetitions
    v.pawn_drop_mate_legal = pawn_drop_mate_legal
    v.impasse_threshold = impasse_threshold
    v.handicaps = handicaps or {}
    v.totals = totals
    squares = bytearray(files * ranks)     # every index fits a byte: boards up to 11x11
    i = 0
    for r in range(1, ranks + 1):
        for f in range(files, 0, -1):
            squares[i] = v.square(f, r)
            i += 1
    v.squares = bytes(squares)
    v.hand_kinds = bytes([k.kind for k in hand_order])

    n = max(k.kind for k in kinds) + 1
    v.symbols = [""] * n
    v.promote = bytearray(n)
    v.base = bytearray(n)
    v.forced = bytearray(n)
    v.points = bytearray(n)
    v.steps = ([()] * n, [()] * n)
    v.slides = ([()] * n, [()] * n)
    v.ranges = ([()] * n, [()] * n)
    for k in kinds:
        v.symbols[k.kind] = k.symbol
        v.forced[k.kind] = k.forced_ranks
        v.points[k.kind] = k.points
        for colour, sign in ((BLACK, 1), (WHITE, -1)):
            v.steps[colour][k.kind] = _offsets(v, k.steps, sign)
            v.slides[colour][k.kind] = _offsets(v, k.slides, sign)
            v.ranges[colour][k.kind] = tuple([(_offsets(v, (d,), sign)[0], reach)
                                              for d, reach in k.ranges])
    for k in kinds:
        promoted = "+" + k.symbol
        v.base[k.kind] = v.kind_of(k.symbol[1:]) if k.symbol[:1] == "+" else k.kind
        if promoted in v.symbols:
            v.promote[k.kind] = v.kind_of(promoted)
    v.kinds = bytes([k.kind for k in kinds])
    # Hash keys: one per square, then one per hand count 0..most pieces of a kind.
    v.keys = _key_table(v.size + max(totals.values()) + 1, 11 + v.size)

    # depth[colour][sq]: 1 on the colour's last rank, 2 on the one before, ...
    v.depth = (bytearray(v.size), bytearray(v.size))
    for sq in v.squares:
        r = v.rank_of(sq)
        v.depth[BLACK][sq] = r
        v.depth[WHITE][sq] = ranks + 1 - r
    v.step_attacks, v.slide_attacks = _attack_tables(v, kinds)
    v.range_attacks = _range_attack_tables(v, kinds)
    return v


def _offsets(v, directions, sign):
    """(columns, ranks) directions as Black sees them -> mailbox offsets for a side."""
    return tuple([sign * (d[1] * v.stride + d[0]) for d in directions])


def _attack_tables(v, kinds):
    """Per attacking colour: (delta from target to attacker, bitmask of kinds)."""
    steps = ([], [])
    slides = ([], [])
    for colour in (BLACK, WHITE):
        for table, source in ((steps[colour], v.steps[colour]),
                              (slides[colour], v.slides[colour])):
            masks = {}
            for k in kinds:
                for d in source[k.kind]:
                    masks[-d] = masks.get(-d, 0) | (1 << k.kind)
            for delta in sorted(masks):
                table.append((delta, masks[delta]))
    return (tuple(tuple(t) for t in steps), tuple(tuple(t) for t in slides))


def _range_attack_tables(v, kinds):
    """Per attacking colour: (delta from target to attacker, most squares, bitmask of kinds)."""
    tables = ([], [])
    for colour in (BLACK, WHITE):
        masks = {}
        for k in kinds:
            for d, reach in v.ranges[colour][k.kind]:
                masks[(-d, reach)] = masks.get((-d, reach), 0) | (1 << k.kind)
        for key in sorted(masks):
            tables[colour].append((key[0], key[1], masks[key]))
    return (tuple(tables[BLACK]), tuple(tables[WHITE]))
