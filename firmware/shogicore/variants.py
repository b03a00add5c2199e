"""Variants: board size, how each kind moves, what promotes, drop bans, end rules.

A Variant holds tables only. They are built on first use by shogicore/tables.py from the
variant's own module (yari_tables.py, shogi_tables.py, wa_tables.py), and both modules are
dropped again, so a board's RAM holds the tables and not the code that made them.
Kinds are small ints (1..31); the General is 15 and the pawn 1 in every variant, and the
promote/base tables say which kind turns into which, so the rest of the core never branches
on the variant.
"""
import sys
from array import array
from micropython import const

BLACK = 0
WHITE = 1
KING = 15
PAWN = 1

# Padding around the board: 2 ranks above and below (knight jumps), 1 or 2 wall columns
# between rows (2 when a piece jumps two files, as Wa's Treacherous Fox does).
_PAD_RANKS = const(2)
# Every variant the core knows: the one list the board, the host and its commands offer.
VARIANT_NAMES = ("yari", "shogi", "wa", "wa-nodrops")
_built = {}


def key_table(n, seed):
    """n pseudo-random 15-bit ints: the product of two stays a small int on the Pico."""
    keys = array("H", bytes(2 * n))
    x = seed
    for i in range(n):
        x = (x * 75 + 74) % 65537          # a 16-bit generator: no big ints on the Pico
        keys[i] = (x >> 1) | 1
    return keys


class Variant:
    """Everything the core needs to know about one board game, precomputed for speed; the
    tables are filled in by tables.build_variant. Indexed by square: `depth`, `keys`; by
    kind (0..31 at most): `promote`, `base`, `forced`, `points`, `steps`, `slides`, `ranges`
    (mailbox offsets). The move and attack tables (`step_attacks`, `slide_attacks`,
    `range_attacks`) are Black's: White's offsets are the same times -1 (the Pico's RAM
    holds one set)."""

    start_sfen: str
    handicaps: dict             # name -> SFEN
    totals: bytearray           # by base kind: pieces of that kind in a set
    repetitions: int            # how often a position recurs before the game ends
    pawn_drop_mate_legal: bool
    impasse_threshold: int      # points a side needs to win a declared impasse
    promotion_ranks: int        # depth of the promotion zone: the farthest ranks a move
                                # into, out of or inside of may promote on
    squares: bytes              # every square, rank a first, each from the highest file down
    hand_kinds: bytes           # the kinds a hand can hold, most valuable first
    kinds: bytes
    symbols: str                # two characters per kind: its SFEN letter as Black writes it,
                                # after '+' (promoted) or ' ' (read through symbol, kind_of)
    promote: bytearray          # promoted kind, 0 when the kind cannot promote
    base: bytearray             # the kind a captured piece goes to the hand as
    forced: bytearray           # last ranks where the kind could never move again
    points: bytearray           # impasse points
    steps: tuple                # per kind: Black's mailbox offsets
    slides: tuple
    ranges: tuple               # per kind: ((Black's mailbox offset, most squares), ...)
    keys: array                 # hash keys: squares, then hand counts
    depth: tuple                # depth[colour][sq]: 1 on the colour's last rank
    step_attacks: tuple         # ((delta from target to Black attacker, mask of kinds), ...):
                                # bit kind - 1, bit 30 as the sign (tables.py)
    slide_attacks: tuple
    range_attacks: tuple        # ((delta, most squares, mask of kinds), ...)

    def __init__(self, name, files, ranks, pad_files=1):
        self.name = name
        self.files = files
        self.ranks = ranks
        self.pad_files = pad_files
        self.stride = files + pad_files
        self.size = (ranks + 2 * _PAD_RANKS) * self.stride + pad_files

    # -- squares ---------------------------------------------------------------------------
    def square(self, file, rank):
        """Square index of `file` (1 = rightmost as Black sees it) and `rank` (1 = 'a')."""
        return (rank - 1 + _PAD_RANKS) * self.stride + (self.files - file) + self.pad_files

    def file_of(self, sq):
        return self.files + self.pad_files - sq % self.stride

    def rank_of(self, sq):
        return sq // self.stride - _PAD_RANKS + 1

    def square_name(self, sq):
        return "%d%c" % (self.file_of(sq), 96 + self.rank_of(sq))   # chr() would intern

    def parse_square(self, text):
        """'7g' or '11k' -> square; ValueError naming the text when it is not on this board."""
        # slices, not indexes: MicroPython interns the one-letter str an index makes, for good
        digits = text[:-1]
        if (1 <= len(digits) <= 2 and digits.isdigit() and digits[:1] != "0"
                and "a" <= text[-1:] <= "z"):
            file, rank = int(digits), ord(text[-1:]) - 96
            if 1 <= file <= self.files and 1 <= rank <= self.ranks:
                return self.square(file, rank)
        raise ValueError("not a square of a %dx%d board: %r" % (self.files, self.ranks, text))

    def on_board(self, sq):
        if not 0 <= sq < self.size:
            return False
        r = sq // self.stride - _PAD_RANKS
        return 0 <= r < self.ranks and sq % self.stride >= self.pad_files

    # -- kinds -----------------------------------------------------------------------------
    def symbol(self, kind):
        """The SFEN symbol of `kind` as Black writes it ('P', '+B'); '' for no kind."""
        # Indexes, not a slice: a one-letter str is a qstr, and the variant's module has
        # made its letters qstrs already, so an unpromoted piece's symbol allocates nothing.
        letter = self.symbols[2 * kind + 1]
        if letter == " ":
            return ""
        return letter if self.symbols[2 * kind] == " " else "+" + letter

    def kind_of(self, symbol):
        """Kind of an SFEN symbol as Black writes it ('P', '+B'); KeyError if unknown."""
        if symbol[-1:].isalpha() and (len(symbol) == 1 or len(symbol) == 2 and symbol[:1] == "+"):
            i = self.symbols.find(symbol if len(symbol) == 2 else " " + symbol)
            if i >= 0:      # at an even index: no symbol starts with a letter
                return i // 2
        raise KeyError(symbol)

    def __repr__(self):
        return "<Variant %s>" % self.name


def variant_by_name(name):
    """'yari', 'shogi', 'wa' or 'wa-nodrops' (a Variant passes through); ValueError for
    anything else.

    Each variant's tables are built on first use, so a Yari board never pays for shogi's.
    Rule sets of one game share its module ('wa-nodrops' -> wa_tables.py, whose build()
    takes the name).
    """
    if isinstance(name, Variant):
        return name
    if name not in _built:
        if name not in VARIANT_NAMES:
            raise ValueError("unknown variant %r (known: %s)" % (name, ", ".join(VARIANT_NAMES)))
        family = name.split("-")[0]
        module = "shogicore.%s_tables" % family
        builder = __import__(module, None, None, ("build",)).build
        _built[name] = builder(name) if family != name else builder()
        # The builders run once: drop them, so the board's RAM holds only the tables.
        for builder in (family + "_tables", "tables"):
            del sys.modules["shogicore.%s" % builder]
            delattr(sys.modules["shogicore"], builder)
    return _built[name]


def __getattr__(name):
    """YARI and SHOGI as module attributes, built when asked for."""
    if name == "YARI" or name == "SHOGI":
        return variant_by_name(name.lower())
    raise AttributeError(name)
