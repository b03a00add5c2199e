"""Variants as tables: board size, how each kind moves, what promotes, drop bans, end rules.

Moves are given as Black sees them: (columns right, ranks down), so forward is (0, -1).
Kinds are small ints; a promoted kind is its base kind | 8 and the General is 15 in every
variant, so the rest of the core never branches on the variant.
"""

BLACK = 0
WHITE = 1
KING = 15
PAWN = 1
PROMOTED = 8

F, B, L, R = (0, -1), (0, 1), (-1, 0), (1, 0)
FL, FR, BL, BR = (-1, -1), (1, -1), (-1, 1), (1, 1)
ALL_8 = (F, B, L, R, FL, FR, BL, BR)
KNIGHT_JUMPS = ((-1, -2), (1, -2))
GOLD_STEPS = (F, L, R, FL, FR, B)

# Padding around the board: 2 ranks above and below (knight jumps), 1 column between rows.
PAD_RANKS = 2


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
        self.size = (ranks + 2 * PAD_RANKS) * stride + 1
        self.squares = tuple(self.square(f, r) for r in range(1, ranks + 1)
                             for f in range(files, 0, -1))
        self.hand_kinds = tuple(k.kind for k in hand_order)

        self.kinds = {}
        self.promote = bytearray(16)
        self.base = bytearray(16)
        self.forced = bytearray(16)
        self.points = bytearray(16)
        self.steps = ([()] * 16, [()] * 16)
        self.slides = ([()] * 16, [()] * 16)
        self._by_symbol = {}
        for k in kinds:
            self.kinds[k.kind] = k
            self._by_symbol[k.symbol] = k.kind
            self.base[k.kind] = k.kind & 7 if k.kind & PROMOTED and k.kind != KING else k.kind
            self.forced[k.kind] = k.forced_ranks
            self.points[k.kind] = k.points
            for colour, sign in ((BLACK, 1), (WHITE, -1)):
                self.steps[colour][k.kind] = tuple(sign * self._offset(d) for d in k.steps)
                self.slides[colour][k.kind] = tuple(sign * self._offset(d) for d in k.slides)
        for k in kinds:
            promoted = self.kinds.get(k.kind | PROMOTED)
            if not k.kind & PROMOTED and promoted and promoted.symbol[0] == "+":
                self.promote[k.kind] = promoted.kind

        # depth[colour][sq]: 1 on the colour's last rank, 2 on the one before, ...
        self.depth = (bytearray(self.size), bytearray(self.size))
        for sq in self.squares:
            r = self.rank_of(sq)
            self.depth[BLACK][sq] = r
            self.depth[WHITE][sq] = ranks + 1 - r
        self.step_attacks, self.slide_attacks = self._attack_tables(kinds)

    def _offset(self, d):
        return d[1] * self.stride + d[0]

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
        return (rank - 1 + PAD_RANKS) * self.stride + (self.files - file) + 1

    def file_of(self, sq):
        return self.files + 1 - sq % self.stride

    def rank_of(self, sq):
        return sq // self.stride - PAD_RANKS + 1

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
        r = sq // self.stride - PAD_RANKS
        return 0 <= r < self.ranks and sq % self.stride != 0

    # -- kinds -----------------------------------------------------------------------------
    def symbol(self, kind):
        return self.kinds[kind].symbol

    def kind_of(self, symbol):
        """Kind of an SFEN symbol as Black writes it ('P', '+B'); KeyError if unknown."""
        return self._by_symbol[symbol]

    def hodges(self, kind):
        return self.kinds[kind].hodges

    def promoted(self, kind):
        return self.promote[kind]

    def unpromoted(self, kind):
        return self.base[kind]

    def __repr__(self):
        return "<Variant %s>" % self.name


def _yari():
    pawn = Kind(1, "P", "P", steps=(F,), forced_ranks=1)
    knight = Kind(2, "N", "YN", steps=KNIGHT_JUMPS, slides=(F,), forced_ranks=1)
    bishop = Kind(3, "B", "YB", steps=(FL, FR), slides=(F,), forced_ranks=1, points=5)
    rook = Kind(4, "R", "YR", slides=(F, L, R), points=5)
    gold_steps, back = (F, L, R, FL, FR), (B,)
    kinds = (
        pawn, knight, bishop, rook,
        Kind(KING, "K", "G", steps=ALL_8, points=0),
        Kind(9, "+P", "+P", steps=(F, FL, FR), slides=back),
        Kind(10, "+N", "+YN", steps=gold_steps, slides=back),
        Kind(11, "+B", "+YB", steps=gold_steps, slides=back, points=5),
        Kind(12, "+R", "+YR", slides=(F, B, L, R), points=5),
    )
    return Variant(
        "yari", 7, 9, kinds,
        start_sfen="rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1",
        totals={1: 14, 2: 4, 3: 4, 4: 4, KING: 2},
        repetitions=3, pawn_drop_mate_legal=True, impasse_threshold=26,
        hand_order=(rook, bishop, knight, pawn),
        handicaps={
            # White (the handicapped side, to move first) loses pieces from its left: file 1.
            "bishop": "rnnkb1r/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1",
            "rook": "rnnkbb1/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1",
            "two-pieces": "rnnkb2/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1",
            "four-pieces": "1nnk3/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1",
            "six-pieces": "3k3/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1",
        },
    )


def _shogi():
    diagonals, orthogonals = (FL, FR, BL, BR), (F, B, L, R)
    pawn = Kind(1, "P", "P", steps=(F,), forced_ranks=1)
    lance = Kind(2, "L", "L", slides=(F,), forced_ranks=1)
    knight = Kind(3, "N", "N", steps=KNIGHT_JUMPS, forced_ranks=2)
    silver = Kind(4, "S", "S", steps=(F, FL, FR, BL, BR))
    bishop = Kind(5, "B", "B", slides=diagonals, points=5)
    rook = Kind(6, "R", "R", slides=orthogonals, points=5)
    gold = Kind(7, "G", "G", steps=GOLD_STEPS)
    kinds = (
        pawn, lance, knight, silver, bishop, rook, gold,
        Kind(KING, "K", "K", steps=ALL_8, points=0),
        Kind(9, "+P", "+P", steps=GOLD_STEPS),
        Kind(10, "+L", "+L", steps=GOLD_STEPS),
        Kind(11, "+N", "+N", steps=GOLD_STEPS),
        Kind(12, "+S", "+S", steps=GOLD_STEPS),
        Kind(13, "+B", "+B", steps=orthogonals, slides=diagonals, points=5),
        Kind(14, "+R", "+R", steps=diagonals, slides=orthogonals, points=5),
    )
    return Variant(
        "shogi", 9, 9, kinds,
        start_sfen="lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        totals={1: 18, 2: 4, 3: 4, 4: 4, 5: 2, 6: 2, 7: 4, KING: 2},
        repetitions=4, pawn_drop_mate_legal=False, impasse_threshold=24,
        hand_order=(rook, bishop, gold, silver, knight, lance, pawn),
    )


YARI = _yari()
SHOGI = _shogi()
VARIANTS = {"yari": YARI, "shogi": SHOGI}


def variant_by_name(name):
    """'yari' or 'shogi' (a Variant passes through); ValueError for anything else."""
    if isinstance(name, Variant):
        return name
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError("unknown variant %r (known: %s)" % (name, ", ".join(sorted(VARIANTS))))
