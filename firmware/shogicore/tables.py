"""Builds a Variant's tables from how its pieces move (yari_tables.py, shogi_tables.py).

Runs once per variant: variants.variant_by_name drops this module afterwards, so the board
keeps the tables and not this code. Directions are given as Black sees them: (columns
right, ranks down), so forward is (0, -1); White's are the same turned around.
"""
from micropython import const

from shogicore.variants import BLACK, KING, WHITE, Variant, _key_table

_PROMOTED = const(8)
_HAND_KEYS = const(20)  # hash keys for hand counts 0..19 sit after the board squares

F, B, L, R = (0, -1), (0, 1), (-1, 0), (1, 0)
FL, FR, BL, BR = (-1, -1), (1, -1), (-1, 1), (1, 1)
ALL_8 = (F, B, L, R, FL, FR, BL, BR)
KNIGHT_JUMPS = ((-1, -2), (1, -2))
GOLD_STEPS = (F, L, R, FL, FR, B)


class Kind:
    """How one kind of piece moves and is written."""

    def __init__(self, kind, symbol, steps=(), slides=(), forced_ranks=0, points=1):
        self.kind = kind
        self.symbol = symbol
        self.steps = steps
        self.slides = slides
        self.forced_ranks = forced_ranks
        self.points = points


def build_variant(name, files, ranks, kinds, start_sfen, totals, repetitions,
                  pawn_drop_mate_legal, impasse_threshold, hand_order, handicaps=None):
    """A Variant with every table the core reads, from its `kinds` (Kind objects)."""
    v = Variant(name, files, ranks)
    v.start_sfen = start_sfen
    v.repetitions = repetitions
    v.pawn_drop_mate_legal = pawn_drop_mate_legal
    v.impasse_threshold = impasse_threshold
    v.handicaps = handicaps or {}
    v.totals = totals
    squares = bytearray(files * ranks)     # every index fits a byte: boards up to 9x9
    i = 0
    for r in range(1, ranks + 1):
        for f in range(files, 0, -1):
            squares[i] = v.square(f, r)
            i += 1
    v.squares = bytes(squares)
    v.hand_kinds = bytes([k.kind for k in hand_order])

    v.symbols = [""] * 16
    v.promote = bytearray(16)
    v.base = bytearray(16)
    v.forced = bytearray(16)
    v.points = bytearray(16)
    v.steps = ([()] * 16, [()] * 16)
    v.slides = ([()] * 16, [()] * 16)
    for k in kinds:
        v.symbols[k.kind] = k.symbol
        v.base[k.kind] = k.kind & 7 if k.kind & _PROMOTED and k.kind != KING else k.kind
        v.forced[k.kind] = k.forced_ranks
        v.points[k.kind] = k.points
        for colour, sign in ((BLACK, 1), (WHITE, -1)):
            v.steps[colour][k.kind] = _offsets(v, k.steps, sign)
            v.slides[colour][k.kind] = _offsets(v, k.slides, sign)
    for k in kinds:
        promoted = k.kind | _PROMOTED
        if not k.kind & _PROMOTED and v.symbols[promoted][:1] == "+":
            v.promote[k.kind] = promoted
    v.kinds = bytes([k.kind for k in kinds])
    # Hash keys: one per square, then one per hand count (see Position.hash).
    v.keys = _key_table(v.size + _HAND_KEYS, 11 + v.size)

    # depth[colour][sq]: 1 on the colour's last rank, 2 on the one before, ...
    v.depth = (bytearray(v.size), bytearray(v.size))
    for sq in v.squares:
        r = v.rank_of(sq)
        v.depth[BLACK][sq] = r
        v.depth[WHITE][sq] = ranks + 1 - r
    v.step_attacks, v.slide_attacks = _attack_tables(v, kinds)
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
