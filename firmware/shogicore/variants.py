"""Variants as tables: board size, how each kind moves, what promotes, drop bans, end rules.

Moves are given as Black sees them: (columns right, ranks down), so forward is (0, -1).
Kinds are small ints; a promoted kind is its base kind | 8 and the General is 15 in every
variant, so the rest of the core never branches on the variant.
"""
import sys
from array import array
from micropython import const

BLACK = 0
WHITE = 1
KING = 15
PAWN = 1
_PROMOTED = const(8)

F, B, L, R = (0, -1), (0, 1), (-1, 0), (1, 0)
FL, FR, BL, BR = (-1, -1), (1, -1), (-1, 1), (1, 1)
ALL_8 = (F, B, L, R, FL, FR, BL, BR)
KNIGHT_JUMPS = ((-1, -2), (1, -2))
GOLD_STEPS = (F, L, R, FL, FR, B)

# Padding around the board: 2 ranks above and below (knight jumps), 1 column between rows.
_PAD_RANKS = const(2)
_HAND_KEYS = const(20)  # hash keys for hand counts 0..19 sit after the board squares
VARIANT_NAMES = ("yari", "shogi")
_built = {}


def _key_table(n, seed):
    """n pseudo-random 15-bit ints: the product of two stays a small int on the Pico."""
    keys = array("H", bytes(2 * n))
    x = seed
    for i in range(n):
        x = (x * 75 + 74) % 65537          # a 16-bit generator: no big ints on the Pico
        keys[i] = (x >> 1) | 1
    return keys


class Kind:
    """How one kind of piece moves and is written."""

    def __init__(self, kind, symbol, hodges, steps=(), slides=(), forced_ranks=0, points=1):
        self.kind = kind
        self.symbol = symbol
        self.hodges = hodges
        self.steps = steps
        self.slides = slides
        self.forced_ranks = forced_ranks
        self.points = points


class Variant:
    """Everything the core needs to know about one board game, precomputed for speed."""

    def __init__(self, name, files, ranks, kinds, start_sfen, totals, repetitions,
                 pawn_drop_mate_legal, impasse_threshold, hand_order, handicaps=None):
        self.name = name
        self.files = files
        self.ranks = ranks
        self.start_sfen = start_sfen
        self.repetitions = repetitions
        self.pawn_drop_mate_legal = pawn_drop_mate_legal
        self.impasse_threshold = impasse_threshold
        self.handicaps = handicaps or {}
        self.totals = totals
        self.stride = stride = files + 1
        self.size = (ranks + 2 * _PAD_RANKS) * stride + 1
        squares = bytearray(files * ranks)     # every index fits a byte: boards up to 9x9
        i = 0
        for r in range(1, ranks + 1):
            for f in range(files, 0, -1):
                squares[i] = self.square(f, r)
                i += 1
        self.squares = bytes(squares)
        self.hand_kinds = bytes([k.kind for k in hand_order])

        self.symbols = [""] * 16
        self.hodges_names = [""] * 16
        self.promote = bytearray(16)
        self.base = bytearray(16)
        self.forced = bytearray(16)
        self.points = bytearray(16)
        self.steps = ([()] * 16, [()] * 16)
        self.slides = ([()] * 16, [()] * 16)
        for k in kinds:
            self.symbols[k.kind] = k.symbol
            self.hodges_names[k.kind] = k.hodges
            self.base[k.kind] = k.kind & 7 if k.kind & _PROMOTED and k.kind != KING else k.kind
            self.forced[k.kind] = k.forced_ranks
            self.points[k.kind] = k.points
            for colour, sign in ((BLACK, 1), (WHITE, -1)):
                self.steps[colour][k.kind] = self._offsets(k.steps, sign)
                self.slides[colour][k.kind] = self._offsets(k.slides, sign)
        for k in kinds:
            promoted = k.kind | _PROMOTED
            if not k.kind & _PROMOTED and self.symbols[promoted][:1] == "+":
                self.promote[k.kind] = promoted
        self.kinds = bytes([k.kind for k in kinds])
        # Hash keys: one per square, then one per hand count (see Position.hash).
        self.keys = _key_table(self.size + _HAND_KEYS, 11 + self.size)

        # depth[colour][sq]: 1 on the colour's last rank, 2 on the one before, ...
        self.depth = (bytearray(self.size), bytearray(self.size))
        for sq in self.squares:
            r = self.rank_of(sq)
            self.depth[BLACK][sq] = r
            self.depth[WHITE][sq] = ranks + 1 - r
        self.step_attacks, self.slide_attacks = self._attack_tables(kinds)

    def _offsets(self, directions, sign):
        """(columns, ranks) directions as Black sees them -> mailbox offsets for a side."""
        return tuple([sign * (d[1] * self.stride + d[0]) for d in directions])

    def _attack_tables(self, kinds):
        """Per attacking colour: (delta from target to attacker, bitmask of kinds)."""
        steps = ([], [])
        slides = ([], [])
        for colour in (BLACK, WHITE):
            for table, source in ((steps[colour], self.steps[colour]),
                                  (slides[colour], self.slides[colour])):
                masks = {}
                for k in kinds:
                    for d in source[k.kind]:
                        masks[-d] = masks.get(-d, 0) | (1 << k.kind)
                for delta in sorted(masks):
                    table.append((delta, masks[delta]))
        return (tuple(tuple(t) for t in steps), tuple(tuple(t) for t in slides))

    # -- squares ---------------------------------------------------------------------------
    def square(self, file, rank):
        """Square index of `file` (1 = rightmost as Black sees it) and `rank` (1 = 'a')."""
        return (rank - 1 + _PAD_RANKS) * self.stride + (self.files - file) + 1

    def file_of(self, sq):
        return self.files + 1 - sq % self.stride

    def rank_of(self, sq):
        return sq // self.stride - _PAD_RANKS + 1

    def square_name(self, sq):
        return "%d%s" % (self.file_of(sq), chr(96 + self.rank_of(sq)))

    def parse_square(self, text):
        """'7g' -> square; ValueError naming the text when it is not on this board."""
        if len(text) == 2 and "1" <= text[0] <= "9" and "a" <= text[1] <= "z":
            file, rank = ord(text[0]) - 48, ord(text[1]) - 96
            if 1 <= file <= self.files and 1 <= rank <= self.ranks:
                return self.square(file, rank)
        raise ValueError("not a square of a %dx%d board: %r" % (self.files, self.ranks, text))

    def on_board(self, sq):
        if not 0 <= sq < self.size:
            return False
        r = sq // self.stride - _PAD_RANKS
        return 0 <= r < self.ranks and sq % self.stride != 0

    # -- kinds -----------------------------------------------------------------------------
    def symbol(self, kind):
        return self.symbols[kind]

    def kind_of(self, symbol):
        """Kind of an SFEN symbol as Black writes it ('P', '+B'); KeyError if unknown."""
        if symbol and symbol in self.symbols:
            return self.symbols.index(symbol)
        raise KeyError(symbol)

    def hodges(self, kind):
        return self.hodges_names[kind]

    def promoted(self, kind):
        return self.promote[kind]

    def unpromoted(self, kind):
        return self.base[kind]

    def __repr__(self):
        return "<Variant %s>" % self.name


def variant_by_name(name):
    """'yari' or 'shogi' (a Variant passes through); ValueError for anything else.

    Each variant's tables are built on first use, so a Yari board never pays for shogi's.
    """
    if isinstance(name, Variant):
        return name
    if name not in _built:
        if name not in VARIANT_NAMES:
            raise ValueError("unknown variant %r (known: %s)" % (name, ", ".join(VARIANT_NAMES)))
        module = "shogicore.%s_tables" % name
        _built[name] = __import__(module, None, None, ("build",)).build()
        # The builder runs once: drop it, so the board's RAM holds only the tables it made.
        del sys.modules[module]
        delattr(sys.modules["shogicore"], name + "_tables")
    return _built[name]


def __getattr__(name):
    """YARI, SHOGI and VARIANTS (name -> variant) as module attributes, built when asked for."""
    if name == "YARI" or name == "SHOGI":
        return variant_by_name(name.lower())
    if name == "VARIANTS":
        return dict((n, variant_by_name(n)) for n in VARIANT_NAMES)
    raise AttributeError(name)
