"""The built-in engine: alpha-beta search on the shared rules core.

The rules are `shogicore`'s: the moves come from `movegen` and are played by `playmoves`,
host-only quick versions of the core's generator and make/unmake that tests hold to it (and
to independent oracles), so the engine never disagrees with the board about the rules; this
module only decides which legal move is best. The search is iterative deepening (in
aspiration windows) principal-variation search with a capture quiescence search, a
transposition table keyed by `Position.hash` (shared by both), TT-move / MVV-LVA / killer /
history move ordering over moves generated in stages (captures that lose the static
exchange last, and left out of quiescence; near the horizon, quiet moves and drops that
lose it are left out too, and so are the late ones off the principal variation), and an
evaluation of material (board and hand, promotion) plus a small piece-square term, updated
incrementally move by move, and a king-safety term counted afresh wherever a position is
judged.

It follows the engine protocol of `yariboard.engines.base` (`search(position, limit)`,
`new_game()`, `close()`); see docs/engines.md.
"""
import random
import time
from dataclasses import dataclass
from itertools import compress
from operator import getitem, itemgetter

from shogicore.move import PROMOTION
from shogicore.position import piece_colour
from shogicore.variants import BLACK, KING, WHITE

from yariboard.engines.builtin.movegen import (INDEXES, attack_lines, captures_and_promotions, drop_moves,
                               hash_move_legal, legal_moves, lines_through, move_lines,
                               own_squares, piece_moves, quiet_moves, walk)
from yariboard.engines.base import MATE_BOUND, MATE_SCORE, MAX_PLY, Limit, SearchResult, mate_plies
from yariboard.engines.builtin.playmoves import make_unmake

INFINITY = MATE_SCORE + 1
MAX_DEPTH = 64
TT_MAX_ENTRIES = 1 << 20
DANGER_MAX_ENTRIES = 1 << 18
# How often (in nodes) the clock is read: at 5-20k nodes per second, every 15-50 ms.
TIME_CHECK_NODES = 256
QUIESCENCE_MAX_PLIES = 8
FUTILITY_MARGIN = 150
# Reverse futility: this close to the horizon, a position whose own judgement stands this far
# above beta for each ply left is cut off without a search.
REVERSE_FUTILITY_DEPTH = 3
REVERSE_FUTILITY_MARGIN = 120
# Within this many plies of the horizon a quiet move or drop that loses more than this much
# material per ply left in the static exchange is not searched (unless it checks).
LOSING_QUIET_DEPTH = 3
LOSING_QUIET_MARGIN = 100
# Late-move pruning: outside the principal variation and this close to the horizon (the
# index is the plies left), a node's quiet moves and drops ordered after this many moves are
# not searched unless they check. Their order is the history's: one that never cut off
# anything this late is rarely the move that would.
LATE_MOVE_COUNTS = (0, 6, 10, 16)
# From depth 4 the root is searched in a window this wide around the last iteration's score
# (widened fourfold on each miss): most lines then end in a bound sooner.
ASPIRATION_WINDOW = 50

EXACT, LOWER, UPPER = 0, 1, 2
KILLER_KEY = 1 << 22     # ordering keys from here up: captures, promotions, killers
PROMOTION_KEY = 1 << 23  # a promotion that takes nothing
CAPTURE_KEY = 1 << 24    # and from here up, captures


@dataclass(frozen=True)
class Level:
    """A playing strength: a depth cap, a time budget per move and root-score noise (cp)."""
    depth: int
    seconds: float
    noise: int


# Level 1 plays almost at random among sensible moves; the top level searches until time runs out.
LEVELS = {
    1: Level(depth=1, seconds=0.5, noise=400),
    2: Level(depth=1, seconds=0.5, noise=150),
    3: Level(depth=2, seconds=1.0, noise=60),
    4: Level(depth=2, seconds=1.0, noise=15),
    5: Level(depth=3, seconds=2.0, noise=0),
    6: Level(depth=4, seconds=3.0, noise=0),
    7: Level(depth=6, seconds=5.0, noise=0),
    8: Level(depth=MAX_DEPTH, seconds=10.0, noise=0),
}
DEFAULT_LEVEL = 5

# Centipawn values of each piece on the board, by its SFEN symbol as Black.
# Yari: the Yari Rook is the strongest unpromoted piece; a promoted Pawn (Yari Silver) gains
# most, like a tokin; the Yari Bishop and Knight both become a Yari Gold.
BOARD_VALUES = {
    "yari": {"P": 100, "N": 380, "B": 400, "R": 700,
             "+P": 430, "+N": 550, "+B": 550, "+R": 1000, "K": 0},
    "shogi": {"P": 90, "L": 315, "N": 405, "S": 495, "G": 540, "B": 855, "R": 990,
              "+P": 540, "+L": 540, "+N": 540, "+S": 540, "+B": 945, "+R": 1395, "K": 0},
}
# Wa: by how far and how freely each piece moves (docs/rules-wa.md); step movers are worth
# little, the Flying Falcon and the Cloud Eagle are its Bishop and Rook.
BOARD_VALUES["wa"] = BOARD_VALUES["wa-nodrops"] = {
    "P": 100, "O": 300, "H": 400, "S": 500, "F": 900, "R": 450, "V": 400, "W": 450,
    "G": 250, "C": 250, "U": 200, "L": 200, "M": 250, "D": 300, "E": 1000, "X": 700, "K": 0,
    "+P": 500, "+O": 550, "+H": 350, "+S": 950, "+F": 1300, "+R": 700, "+V": 550, "+W": 550,
    "+G": 500, "+C": 650, "+U": 900, "+L": 1000, "+M": 400, "+D": 450,
}
# A piece in hand can be dropped almost anywhere: worth a little more than on the board.
HAND_BONUS_PERCENT = 10

# King safety, counted in danger units: drops decide these games, and a General whose
# neighbourhood the enemy attacks, with few guards and an enemy hand to drop next to it, is
# lost long before material says so. The penalty grows with the square of the units (capped),
# so one attacker alone costs little but a gathering attack costs a lot.
ATTACKED_SQUARE_NEXT_TO_KING = 2  # a square next to the General that the enemy attacks
ATTACKER_NEXT_TO_KING = 3         # an enemy piece on a square next to the General
ATTACKER_NEAR_KING = 2            # an enemy piece two squares away
OPEN_SQUARE_NEXT_TO_KING = 1      # an empty square next to the General: room for a drop
GUARD_NEXT_TO_KING = 2            # an own piece next to the General (takes units away)
DANGER_PER_HAND_VALUE = 200       # one unit per this much value in the enemy hand
KING_DANGER_CP_PER_UNIT2 = 3
KING_DANGER_MAX_CP = 1200
# `_Tables.danger_zone` packs, in one int per square, a count for each of the (at most 8)
# squares next to the General of the step attacks on it from there, NEIGHBOUR_BITS bits each
# (a count is at most the number of step attacks, too few to carry into the next field), and
# the danger units above them. Summed, the ints still fit a machine word: `sum` adds them
# without building an int at each step.
NEIGHBOUR_BITS = 6
NEIGHBOUR_FIELDS = (1 << 8 * NEIGHBOUR_BITS) - 1
NEIGHBOUR_TOP = 1 << NEIGHBOUR_BITS - 1
# Added to the fields, this carries each count above 0 into its field's top bit.
NEIGHBOUR_FILL = sum((NEIGHBOUR_TOP - 1) << NEIGHBOUR_BITS * i for i in range(8))
NEIGHBOUR_TOPS = sum(NEIGHBOUR_TOP << NEIGHBOUR_BITS * i for i in range(8))
DANGER_UNIT = 1 << 8 * NEIGHBOUR_BITS
# The General's worth in a static exchange: taking with it onto a defended square loses all.
GENERAL_IN_EXCHANGE = 50000


class _Tables:
    """Per-variant lookup tables, signed for Black (+) and White (-), indexed by piece code."""

    def __init__(self, variant):
        self.variant = variant
        values = BOARD_VALUES[variant.name]
        size = max(variant.squares) + 1
        kinds = list(variant.kinds)   # every kind: a game without drops has no hand kinds
        # worth[piece]: unsigned value, for move ordering and pruning.
        self.worth = [0] * 64
        # square_value[piece][sq]: signed value of that piece standing on that square.
        self.square_value = [None] * 64
        # hand_value[colour][kind]: signed value of one piece of that kind in that hand.
        self.hand_value = [[0] * 32, [0] * 32]
        # unpromoted[kind]: the kind a captured piece becomes in hand.
        self.unpromoted = list(range(32))
        # promoted[kind]: the kind after a promoting move.
        self.promoted = list(range(32))
        for kind in kinds:
            symbol = variant.symbol(kind)
            base = variant.base[kind] or kind
            self.unpromoted[kind] = base
            promo = variant.promote[kind]
            if promo:
                self.promoted[kind] = promo
            for colour, sign in ((BLACK, 1), (WHITE, -1)):
                piece = kind | (colour << 5)
                self.worth[piece] = values[symbol]
                self.square_value[piece] = [0] * size
                for sq in variant.squares:
                    bonus = _placement_bonus(variant, symbol, colour, sq)
                    self.square_value[piece][sq] = sign * (values[symbol] + bonus)
        # exchange_worth[piece]: worth in an exchange, where the General is never given up.
        self.exchange_worth = [GENERAL_IN_EXCHANGE if piece & 31 == KING else worth
                               for piece, worth in enumerate(self.worth)]
        # hand_danger[kind]: king-danger units of one piece of that kind in the enemy hand.
        self.hand_danger = [0] * 32
        for kind in variant.hand_kinds:
            in_hand = values[variant.symbol(kind)] * (100 + HAND_BONUS_PERCENT) // 100
            self.hand_value[BLACK][kind] = in_hand
            self.hand_value[WHITE][kind] = -in_hand
            self.hand_danger[kind] = max(1, in_hand // DANGER_PER_HAND_VALUE)
        # quiet_gain: the most a quiet move or drop can add to `evaluate_black` for the side
        # that plays it (frontier futility bounds a node's quiet moves by it).
        self.quiet_gain = _quiet_gain(variant, self.square_value, self.hand_value)
        # next_to[sq], near[sq]: the squares one step, and exactly two steps, from `sq`.
        self.next_to = [()] * size
        self.near = [()] * size
        for sq in variant.squares:
            rank, file = variant.rank_of(sq), variant.file_of(sq)
            rings = ([], [], [])
            for other in variant.squares:
                distance = max(abs(variant.rank_of(other) - rank),
                               abs(variant.file_of(other) - file))
                if 0 < distance <= 2:
                    rings[distance].append(other)
            self.next_to[sq], self.near[sq] = tuple(rings[1]), tuple(rings[2])
        # attackers[colour]: `colour`'s attack lines, with a table by board value each
        # (movegen.attack_lines).
        # danger_zone[colour][king]: the squares around a General of `colour` on `king`,
        # read in one pass: each square a step attack on one of its neighbours could come
        # from, and each square one or two steps away: (a table for each, the squares). A
        # table gives, by what stands there, a
        # count of 1 in the field of each neighbour that piece attacks (the field of
        # next_to[king][i] is NEIGHBOUR_BITS bits from bit NEIGHBOUR_BITS * i) plus
        # DANGER_UNIT times the danger units it adds standing there (an enemy, a guard, or
        # nothing next to the General). `king_danger` sums the entries of the squares.
        # line_attacker[colour]: a translate table marking `colour`'s pieces that attack
        # along a line (a slide or a range), the only ones whose lines `king_danger` reads.
        self.attackers = [attack_lines(variant, colour) for colour in (BLACK, WHITE)]
        self.line_attacker = [_line_attacker(self.attackers[colour])
                              for colour in (BLACK, WHITE)]
        self.danger_zone = [_danger_zone(variant, colour, self.attackers[1 - colour],
                                         self.next_to, self.near)
                            for colour in (BLACK, WHITE)]
        rays = [_line_rays(variant, self.attackers[1 - colour], self.next_to)
                for colour in (BLACK, WHITE)]
        # danger_read[colour][king]: an itemgetter of every square whose piece can change the
        # danger to a General of `colour` on `king`: the squares of `danger_zone` first and
        # in its order, then those of the lines below. line_rays[colour][king][i]: the
        # lines along which an enemy piece on the i-th of those squares could attack a
        # square next to the General: (table by board value of the enemy pieces attacking
        # along it, the squares from there on, each with the top bit of its neighbour's
        # field, or 0, up to the last neighbour the line reaches). danger_mask[colour][king]:
        # the bytes of those squares in the board read as one int (`int.from_bytes`), for
        # the key of what stands there (one int to hash, where a tuple has a value each).
        self.danger_read, self.line_rays, self.danger_mask = zip(*(
            _danger_read(variant, self.danger_zone[colour], rays[colour])
            for colour in (BLACK, WHITE)))
        # check_lines[colour][king][sq]: the attacks of `colour` on a General on `king` that
        # pass `sq` (one of its step squares, or on one of its lines): (table by board value
        # of the pieces attacking along it, the squares walked out from the General), none
        # where a piece of `colour` could not attack it from. on_ray[colour][king][sq]: 1 on
        # the lines alone (`movegen.lines_through`), where a piece moving away could uncover
        # one of `colour`'s sliders. A move touching neither cannot give check
        # (`gives_check`).
        self.check_lines = [_check_lines(variant, self.attackers[colour])
                            for colour in (BLACK, WHITE)]
        self.on_ray = [lines_through(variant, colour) for colour in (BLACK, WHITE)]


def _quiet_gain(variant, square_value, hand_value):
    """`_Tables.quiet_gain`: the most one move that takes nothing, or one drop, can add to
    `evaluate_black` for its side. Every step and slide of every piece is weighed (on an
    empty board: a bound, not only the moves of a position), and every drop."""
    gain = 0
    for side, sign in ((BLACK, 1), (WHITE, -1)):
        lines = move_lines(variant, side)
        for kind in variant.kinds:
            values = square_value[kind | side << 5]
            for frm in variant.squares:
                steps, rays, _ = lines[kind | side << 5][frm]
                for to in steps + tuple(sq for ray in rays for sq in ray):
                    gain = max(gain, sign * (values[to] - values[frm]))
        for kind in variant.hand_kinds:
            values = square_value[kind | side << 5]
            gain = max(gain, max(sign * (values[sq] - hand_value[side][kind])
                                 for sq in variant.squares))
    return gain


def _line_rays(variant, enemy_lines, next_to):
    """The lines of `_Tables.line_rays` for a General whose enemy attacks along
    `enemy_lines`, by the General's square and then by the square each line starts on."""
    _, slides, ranges = enemy_lines
    # each line from the attacker's side: the step it goes by, how far it reaches
    lines = [(-delta, variant.size, hit) for delta, hit in slides] + \
        [(-delta, reach, hit) for delta, reach, hit in ranges]
    rays = [()] * variant.size
    for king in variant.squares:
        bits = {sq: NEIGHBOUR_TOP << NEIGHBOUR_BITS * index
                for index, sq in enumerate(next_to[king])}
        # each line that ends next to the General, from each square it can start on to the
        # farthest neighbour it reaches: walked back from the neighbours
        longest = {}
        for near in bits:
            for index, (step, reach, _) in enumerate(lines):
                if near - step == king:
                    continue        # the General stands on this line: it blocks it
                back = tuple((sq, bits.get(sq, 0))
                             for sq in (near,) + walk(variant, near, -step, reach))
                for length in range(1, len(back)):
                    if len(longest.get((back[length][0], index), ())) < length:
                        longest[back[length][0], index] = back[length - 1::-1]
        from_square = [[] for _ in range(variant.size)]
        for (sq, index), ray in sorted(longest.items()):
            from_square[sq].append((lines[index][2], ray))
        rays[king] = tuple(tuple(found) for found in from_square)
    return rays


def _line_attacker(lines):
    """`_Tables.line_attacker` for one colour's attack `lines`."""
    _, slides, ranges = lines
    marks = bytearray(256)
    for hit in [hit for _, hit in slides] + [hit for _, _, hit in ranges]:
        for value, attacks in enumerate(hit):
            marks[value] |= attacks
    return bytes(marks)


def _danger_zone(variant, colour, enemy_lines, next_to, near):
    """`_Tables.danger_zone` for a General of `colour`, by its square."""
    # (delta, the board values that attack along it) of each enemy step attack
    enemy_steps = [(delta, [p for p, hits in enumerate(attacks) if hits])
                   for delta, attacks in enemy_lines[0]]
    assert len(enemy_steps) < NEIGHBOUR_TOP    # no count reaches its field's top bit
    next_to_units = [DANGER_UNIT * _danger_next_to(p, colour) for p in range(65)]
    near_units = [DANGER_UNIT * _danger_near(p, colour) for p in range(65)]
    zone = [()] * variant.size
    for king in variant.squares:
        rows = {}
        for sq in next_to[king]:
            rows[sq] = list(next_to_units)
        for sq in near[king]:
            rows[sq] = list(near_units)
        for index, sq in enumerate(next_to[king]):
            for delta, attackers in enemy_steps:
                if sq + delta != king and variant.on_board(sq + delta):
                    row = rows.setdefault(sq + delta, [0] * 65)
                    for p in attackers:
                        row[p] |= 1 << NEIGHBOUR_BITS * index
        squares = tuple(sq for sq, row in sorted(rows.items()) if any(row))
        zone[king] = (tuple(tuple(rows[sq]) for sq in squares), squares)
    return zone


def _danger_read(variant, danger_zone, rays):
    """(`_Tables.danger_read`, `_Tables.line_rays`, `_Tables.danger_mask`) for one colour,
    from its `danger_zone` and the lines of `_line_rays`."""
    read, rays_read, mask = [None] * variant.size, [()] * variant.size, [0] * variant.size
    for king in variant.squares:
        zone = danger_zone[king][1]
        # (every square of a line but the neighbour it ends on starts a shorter one, and
        # the neighbours are in the zone)
        squares = zone + tuple(sq for sq, found in enumerate(rays[king])
                               if found and sq not in zone)
        read[king] = itemgetter(*squares)
        rays_read[king] = tuple(rays[king][sq] for sq in squares)
        mask[king] = sum(0xFF << 8 * sq for sq in squares)
    return read, rays_read, mask


def _check_lines(variant, lines):
    """`_Tables.check_lines` for one colour's attack `lines`."""
    steps, slides, ranges = lines
    rays = [(delta, variant.size, hit) for delta, hit in slides] + list(ranges)
    check_lines = [()] * variant.size
    for king in variant.squares:
        through = [[] for _ in range(variant.size)]
        for delta, hit in steps:
            if variant.on_board(king + delta):
                through[king + delta].append((hit, (king + delta,)))
        for delta, reach, hit in rays:
            squares = walk(variant, king, delta, reach)
            for sq in squares:
                through[sq].append((hit, squares))
        check_lines[king] = tuple(tuple(found) for found in through)
    return check_lines


def _danger_next_to(piece, colour):
    """Danger units for what stands on a square next to a General of `colour`."""
    if not piece:
        return OPEN_SQUARE_NEXT_TO_KING
    return -GUARD_NEXT_TO_KING if piece >> 5 == colour else ATTACKER_NEXT_TO_KING


def _danger_near(piece, colour):
    """Danger units for what stands two squares from a General of `colour`."""
    return ATTACKER_NEAR_KING if piece and piece >> 5 != colour else 0


def _placement_bonus(variant, symbol, colour, sq):
    """A small positional term: pieces gain by advancing, the General by staying home."""
    ranks = variant.ranks
    rank = variant.rank_of(sq)
    advance = ranks - rank if colour == BLACK else rank - 1  # 0 on the own last rank
    if symbol == "K":
        return 30 - 15 * advance if advance < 3 else -15 * advance
    if symbol.startswith("+"):
        return 0
    if symbol == "P":
        return 4 * advance
    # Centre files are worth a little: pieces there reach both wings.
    centre = (variant.files + 1) / 2.0
    return 2 * advance - int(3 * abs(variant.file_of(sq) - centre))


_TABLES = {}


def tables_for(variant):
    tables = _TABLES.get(variant.name)
    if tables is None:
        tables = _TABLES[variant.name] = _Tables(variant)
    return tables


def evaluate_black(position):
    """Static evaluation in centipawns from Black's side (material, hands, placement)."""
    tables = tables_for(position.variant)
    total = 0
    piece_at = position.piece_at
    square_value = tables.square_value
    for sq in position.variant.squares:
        piece = piece_at(sq)
        if piece:
            total += square_value[piece][sq]
    for colour in (BLACK, WHITE):
        hand_value = tables.hand_value[colour]
        for kind in position.variant.hand_kinds:
            count = position.hand_count(colour, kind)
            if count:
                total += count * hand_value[kind]
    return total


def material_black(position):
    """Material only (pieces on the board and in hand, no placement), from Black's side."""
    tables = tables_for(position.variant)
    total = 0
    for sq in position.variant.squares:
        piece = position.piece_at(sq)
        if piece:
            total += tables.worth[piece] if piece_colour(piece) == BLACK else -tables.worth[piece]
    for kind in position.variant.hand_kinds:
        total += (position.hand_count(BLACK, kind) - position.hand_count(WHITE, kind)) \
            * tables.hand_value[BLACK][kind]
    return total


def king_danger(tables, position, colour, known=None):
    """Centipawns `colour` loses for the danger to its General (see the king-safety
    constants at the top). `known`, kept by a search for each colour, holds by the
    General's square the danger units (without the enemy hand) of each arrangement of the
    pieces around it already counted (in a search most dangers judged are of an
    arrangement seen before; the search bounds the store)."""
    king = position.kings[colour]
    board = position.board
    arrangement = int.from_bytes(board, "little") & tables.danger_mask[colour][king]
    known = {} if known is None else known[king]
    units = known.get(arrangement)
    if units is None:
        around = tables.danger_read[colour][king](board)
        units = known[arrangement] = _units_around(tables, board, colour, king, around)
    hand = position.hands[1 - colour]
    hand_danger = tables.hand_danger
    for kind in position.variant.hand_kinds:
        units += hand[kind] * hand_danger[kind]
    if units <= 0:
        return 0
    return min(KING_DANGER_MAX_CP, KING_DANGER_CP_PER_UNIT2 * units * units)


def _units_around(tables, board, colour, king, around):
    """The danger units of what stands around a General of `colour` on `king` (`around`:
    what stands on the squares of `_Tables.danger_read`). The pieces around the General and
    their step attacks on all its neighbours are summed at once (`_Tables.danger_zone`);
    then the lines of the few enemy pieces that attack along one are walked out from them
    (`_Tables.line_rays`)."""
    found = sum(map(getitem, tables.danger_zone[colour][king][0], around))
    # the neighbours attacked: each field's top bit, set where its count is above 0
    hit = ((found & NEIGHBOUR_FIELDS) + NEIGHBOUR_FILL) & NEIGHBOUR_TOPS
    rays = tables.line_rays[colour][king]
    for index in compress(INDEXES, bytes(around).translate(tables.line_attacker[1 - colour])):
        piece = around[index]
        for attacks, ray in rays[index]:
            if attacks[piece]:
                for to, bit in ray:
                    hit |= bit
                    if board[to]:
                        break
    return found // DANGER_UNIT + ATTACKED_SQUARE_NEXT_TO_KING * hit.bit_count()


def least_attacker(tables, board, sq, colour):
    """The square of `colour`'s least valuable piece attacking `sq` (the first found of
    equal worth), or -1. The lines are read as `movegen.attackers` reads them, in its order,
    keeping only the least so far: this runs at every round of every exchange."""
    worth = tables.exchange_worth
    steps, slides, ranges = tables.attackers[colour]
    best_sq, best_worth = -1, INFINITY
    for delta, hit in steps:
        piece = board[sq + delta]
        if hit[piece] and worth[piece] < best_worth:
            best_sq, best_worth = sq + delta, worth[piece]
    for delta, hit in slides:
        s = sq + delta
        while not board[s]:
            s += delta
        piece = board[s]
        if hit[piece] and worth[piece] < best_worth:
            best_sq, best_worth = s, worth[piece]
    for delta, reach, hit in ranges:
        s = sq + delta
        while not board[s] and reach > 1:
            s += delta
            reach -= 1
        piece = board[s]
        if hit[piece] and worth[piece] < best_worth:
            best_sq, best_worth = s, worth[piece]
    return best_sq


def exchange_gain(tables, position, m):
    """Static exchange evaluation of the move or drop `m`: what the mover nets in
    centipawns (board values; promotions and pins not counted) if both sides go on
    taking on its square with their least valuable piece for as long as it pays. For a
    capture that is what it wins; for a quiet move or a drop, 0 when the piece is safe
    there and less when the enemy wins it. The pieces that took are lifted off the board
    as they go, so a slider behind one joins in; they are put back before returning."""
    board = position.board
    worth = tables.exchange_worth
    frm, to = m >> 8 & 0xFF, m & 0xFF
    gains = [worth[board[to]]]
    piece = moving_piece(position, m)
    on_square = worth[piece]
    lifted = []
    if frm:                                 # (a drop's piece comes from the hand)
        lifted.append((frm, piece))
        board[frm] = 0
    side = 1 - position.side
    while True:
        sq = least_attacker(tables, board, to, side)
        if sq < 0:
            break
        gains.append(on_square - gains[-1])
        if max(-gains[-2], gains[-1]) < 0:
            break            # neither side gains by going on
        lifted.append((sq, board[sq]))
        on_square = worth[board[sq]]
        board[sq] = 0
        side = 1 - side
    for sq, piece in lifted:
        board[sq] = piece
    while len(gains) > 1:
        last = gains.pop()
        gains[-1] = -max(-gains[-1], last)
    return gains[0]


def loses_exchange(tables, position, m):
    """How much the capture `m` loses in the static exchange (a negative gain), or 0: only a
    capture of a piece worth less than the one taking can lose, and one that promotes is not
    judged by it."""
    board = position.board
    if m & PROMOTION or tables.worth[board[m & 0xFF]] >= \
            tables.exchange_worth[board[m >> 8 & 0xFF]]:
        return 0
    return min(exchange_gain(tables, position, m), 0)


def quiet_move_loses(tables, position, m, margin):
    """Does the quiet move or drop `m` lose more than `margin` in the static exchange? It
    cannot lose more than the piece itself, so a piece worth no more than that is not
    looked at (a Pawn never is)."""
    return tables.worth[moving_piece(position, m)] > margin \
        and exchange_gain(tables, position, m) < -margin


def moving_piece(position, m):
    """The piece the move or drop `m` puts on its square (before any promotion)."""
    frm = m >> 8 & 0xFF
    return position.board[frm] if frm else m >> 17 & 31 | position.side << 5


def king_safety_black(tables, position):
    """The king-safety term from Black's side. Not part of `evaluate_black`: it changes with
    pieces far from the moved one, so it is counted afresh where a position is judged."""
    return king_danger(tables, position, WHITE) - king_danger(tables, position, BLACK)


def evaluate(position):
    """Static evaluation in centipawns for the side to move."""
    score = evaluate_black(position) + king_safety_black(tables_for(position.variant), position)
    return score if position.side == BLACK else -score


def move_delta(tables, position, m):
    """How much `m` changes `evaluate_black`; computed before the move is made. (The
    move's bits are read in place, as in `Engine._keyed`: this runs for every move
    searched.)"""
    to = m & 0xFF
    side = position.side
    square_value = tables.square_value
    if not m & 0xFF00:                                    # a drop
        kind = m >> 17 & 31
        return square_value[kind | side << 5][to] - tables.hand_value[side][kind]
    board = position.board
    frm = m >> 8 & 0xFF
    piece = board[frm]
    moved = tables.promoted[piece & 31] | side << 5 if m & PROMOTION else piece
    delta = square_value[moved][to] - square_value[piece][frm]
    captured = board[to]
    if captured:
        delta += tables.hand_value[side][tables.unpromoted[captured & 31]] \
            - square_value[captured][to]
    return delta


class _OutOfTime(Exception):
    """Raised inside the search when the clock or the node budget runs out, or a stop was
    asked for; the last full iteration stands, or a move the unfinished one found better
    (see `Engine.search`)."""


class Engine:
    """The built-in engine. One instance keeps its hash table between moves of a game."""

    name = "yariboard built-in"

    def __init__(self, level=DEFAULT_LEVEL, seed=None):
        if level not in LEVELS:
            raise ValueError("engine level must be one of %s, not %r" % (sorted(LEVELS), level))
        self.level = LEVELS[level]
        self.rng = random.Random(seed)
        self.tt = {}
        self.history = {}
        self._dangers_of = None   # the variant whose king dangers are remembered
        self.tt_max_entries = TT_MAX_ENTRIES
        # Hooks for a caller that shows or controls the search from outside (the USI server):
        # on_progress(side, result) after each completed iteration, score from side's view;
        # stop_event (a threading.Event) ends the search with its best move so far once set.
        self.on_progress = None
        self.stop_event = None
        self.progress = None   # the deepest finished iteration of the search in progress

    def new_game(self):
        """Forget what was learnt about the previous game's positions."""
        self.tt.clear()
        self.history.clear()
        self._dangers_of = None

    def close(self):
        """Nothing to release but memory; present so every engine can be closed the same way."""
        self.tt.clear()
        self._dangers_of = None
        self._dangers = self._known_around = None

    def search(self, position, limit=None):
        """Best move for the side to move in `position` (left unchanged).

        With an empty `limit`, the level's depth and time apply; with only a depth, no
        clock; with a time, iterative deepening until the time is used; a node budget caps
        the nodes searched, exactly (the clock is read every 256 nodes).
        """
        limit = limit or Limit()
        time_limit, depth, nodes = limit.time, limit.depth, limit.nodes
        if limit.is_empty():
            time_limit, depth = self.level.seconds, self.level.depth
        elif depth is None:
            depth = MAX_DEPTH
        depth = max(1, min(depth, MAX_DEPTH))
        start = time.monotonic()
        self._deadline = start + time_limit if time_limit is not None else None
        self._node_limit = nodes
        self._set_position(position)
        self._tables = tables_for(position.variant)
        self._seen = _history_keys(self._pos)
        if self._dangers_of is not position.variant:
            # the dangers are the position's alone, so they stand from move to move: the
            # next search meets most of the last one's positions and arrangements again
            self._dangers_of = position.variant
            self._forget_dangers()
        self._killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.nodes = 0
        self._schedule_check()
        self.progress = None
        if len(self.tt) > self.tt_max_entries:
            self.tt.clear()

        root_moves = self._pos.legal_moves()
        if not root_moves:
            return SearchResult(move=None, score=-MATE_SCORE, mate=0, resign=True,
                                seconds=time.monotonic() - start)
        root_eval = evaluate_black(self._pos)
        root_key = node_key(self._pos, root_eval)
        self._seen[root_key] = 1
        entry = self.tt.get(root_key)
        root_moves = self._order(root_moves, entry[3] if entry else 0, 0)
        best = None
        for iteration in range(1, depth + 1):
            self._overtaker = None
            try:
                score, move = self._aspirated(root_moves, iteration, root_eval, best)
            except _OutOfTime:
                self._set_position(position)   # the interrupted line is left on the board
                if best is not None and self._overtaker is not None:
                    # A later root move beat the last iteration's choice, both searched at
                    # the new depth: the deeper search found that choice wanting. (The
                    # iteration a budget cuts short holds most of its nodes: each ply costs
                    # about three times the one before.)
                    score, move = self._overtaker
                    best = self._found(move, score, best.depth, start)
                break
            root_moves.remove(move)
            root_moves.insert(0, move)
            best = self._found(move, score, iteration, start)
            mate = best.mate
            if mate is not None and abs(mate) <= iteration:
                break  # a mate within the full-width horizon cannot get shorter
            if len(root_moves) == 1:
                break
            if self._deadline is not None and time.monotonic() - start > 0.5 * time_limit:
                break  # the next iteration would not finish in time
        if best is None:
            # Not even depth 1 finished: play the first ordered move rather than nothing.
            best = SearchResult(move=root_moves[0], score=evaluate(self._pos))
        best.nodes = self.nodes
        best.pv = self._principal_variation(best.move, best.depth)
        best.seconds = time.monotonic() - start
        return best

    def _found(self, move, score, depth, start):
        """The search's choice so far, shown to a host watching it while it runs."""
        best = SearchResult(move=move, score=score, mate=mate_plies(score), depth=depth,
                            nodes=self.nodes)
        self.progress = best
        if self.on_progress is not None:
            self._report(best, start)
        return best

    def _set_position(self, position):
        """Search a copy of `position`, played by the quick make and unmake (`playmoves`)."""
        self._pos = position.copy()
        self._make, self._unmake = make_unmake(self._pos)

    def _report(self, best, start):
        progress = SearchResult(move=best.move, score=best.score, mate=best.mate,
                                depth=best.depth, nodes=self.nodes,
                                pv=self._principal_variation(best.move, best.depth),
                                seconds=time.monotonic() - start)
        self.on_progress(self._pos.side, progress)

    def _count_node(self):
        """A node is a position the search plays its way into, counted at the move as a USI
        engine counts them (a node budget then means the same for both engines of a match;
        a re-search of the same child is not a new node). The limits are checked every
        TIME_CHECK_NODES nodes, and at the node budget itself."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check_limits()

    def _check_limits(self):
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise _OutOfTime()
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise _OutOfTime()
        if self.stop_event is not None and self.stop_event.is_set():
            raise _OutOfTime()
        self._schedule_check()

    def _schedule_check(self):
        """The node count at which the limits are next checked: TIME_CHECK_NODES on, or the
        node budget if it comes first (it is spent to the node, as the other engine of a
        match spends it)."""
        self._next_check = self.nodes + TIME_CHECK_NODES
        if self._node_limit is not None:
            self._next_check = min(self._next_check, self._node_limit)

    # -- search ---------------------------------------------------------------------------

    def _aspirated(self, moves, depth, root_eval, previous):
        """The root searched in a window around the previous iteration's score, widened
        when the score falls outside it. Not with noise (every root move needs its exact
        score) nor once the game is decided (scores past 2000 cp, mates), where the score
        moves too far between iterations for a window to pay."""
        if previous is None or depth < 4 or self.level.noise or abs(previous.score) >= 2000:
            return self._search_root(moves, depth, root_eval, -INFINITY, INFINITY)
        width = ASPIRATION_WINDOW
        alpha, beta = previous.score - width, previous.score + width
        while True:
            score, move = self._search_root(moves, depth, root_eval, alpha, beta)
            if score <= alpha:
                alpha = -INFINITY if width > 1000 else score - 4 * width
            elif score >= beta:
                beta = INFINITY if width > 1000 else score + 4 * width
            else:
                return score, move
            width *= 4

    def _search_root(self, moves, depth, root_eval, alpha, beta):
        pos = self._pos
        tables = self._tables
        noise = self.level.noise
        alpha_start = alpha
        best_choice, best_score, best_move = -INFINITY, -INFINITY, moves[0]
        make, unmake = self._make, self._unmake
        for index, m in enumerate(moves):
            child_eval = root_eval + move_delta(tables, pos, m)
            captured = make(m)
            checks = made_check(tables, pos, m)
            self._count_node()
            if index == 0 or noise:
                # With noise every root move needs its exact score, not just a bound.
                score = -self._negamax(depth - 1, -beta, -alpha, 1, child_eval, True, checks)
            else:
                score = -self._negamax(depth - 1, -alpha - 1, -alpha, 1, child_eval, False,
                                       checks)
                if alpha < score < beta:
                    score = -self._negamax(depth - 1, -beta, -score, 1, child_eval, True,
                                           checks)
            unmake(m, captured)
            choice = score
            if noise and abs(score) < MATE_BOUND:
                choice += self.rng.randint(0, noise)
            if choice > best_choice:
                best_choice, best_score, best_move = choice, score, m
                if not noise and score > alpha:
                    if index:
                        self._overtaker = score, m   # beat the first move: see search
                    alpha = score
                    if alpha >= beta:
                        break
        if alpha_start < best_score < beta:
            self._store(node_key(pos, root_eval), depth, EXACT, best_score, best_move, 0)
        return best_score, best_move

    def _negamax(self, depth, alpha, beta, ply, eval_black, pv_node, in_check):
        """`in_check`: is the side to move in check? The move that led here knew it."""
        pos = self._pos
        key = pos.hash + (eval_black << 32)   # node_key, written out: it runs at every node
        seen = self._seen
        if key in seen:
            return 0  # a repeated position: the cycle leads nowhere, count it as a draw
        entry = self.tt.get(key)
        tt_move = 0
        if entry is not None:
            tt_depth, flag, tt_score, tt_move = entry
            if tt_depth >= depth and not pv_node:
                tt_score = _score_from_tt(tt_score, ply)
                if _settles(flag, tt_score, alpha, beta):
                    return tt_score
        tables = self._tables
        if in_check and ply < MAX_PLY // 2:
            depth += 1
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, eval_black, 0, in_check)
        if ply >= MAX_PLY:
            return eval_black if pos.side == BLACK else -eval_black
        if tt_move and not hash_move_legal(pos, tt_move, in_check):
            tt_move = 0          # another position with the same key stored it
        sign = 1 if pos.side == BLACK else -1
        # The king-safety term (Black's side), counted once frontier futility first needs
        # it (the dangers reverse futility judged are remembered, not judged again).
        king_safety = None
        if depth <= REVERSE_FUTILITY_DEPTH and not in_check and not pv_node \
                and abs(beta) < MATE_BOUND:
            # Reverse futility: a position judged this far above beta this close to the
            # horizon almost always fails high (the side to move still has its move to
            # play), so it is cut off with that bound, unsearched. What is missed is a threat
            # of the opponent's that the judgement does not see and the few plies left would.
            # The danger to the enemy's General comes first: without it added the bound
            # mostly falls short, and then the own General's is not needed here.
            bound = sign * eval_black + self._king_danger(key, 1 - pos.side) \
                - REVERSE_FUTILITY_MARGIN * depth
            if bound >= beta:
                bound -= self._king_danger(key, pos.side)
                if bound >= beta:
                    return bound
        seen[key] = 1
        alpha_start = alpha
        best_score, best_move = -INFINITY, 0
        board = pos.board
        # Frontier futility: one ply from the horizon, a quiet move that leaves the score far
        # below alpha cannot raise it (the reply's quiescence would stand pat) unless it
        # checks; skipping it saves a make, an unmake and a node.
        frontier = depth == 1 and not in_check and not pv_node
        # Late-move pruning starts after this many moves (never, on the principal variation
        # or farther from the horizon); a quiet move losing more than this much material is
        # left out (0: not this far from the horizon). Both are the node's, not the move's.
        late_from = LATE_MOVE_COUNTS[depth] if not pv_node and depth < len(LATE_MOVE_COUNTS) \
            else INFINITY
        losing_margin = LOSING_QUIET_MARGIN * depth if depth <= LOSING_QUIET_DEPTH else 0
        make, unmake = self._make, self._unmake
        index = -1
        checks_only = [False]   # set once every quiet move left is searched only if it checks
        for index, m in enumerate(self._staged(tt_move, in_check, ply, checks_only)):
            quiet = not m & 0xFF00 or not (board[m & 0xFF] or m & PROMOTION)
            checks = child_eval = None
            if quiet and index and not in_check:
                # Three prunings of a quiet move or drop, each unless it checks (the checks
                # are the sacrifices that can mate), so the check is tested once, last:
                # late-move pruning; frontier futility; and, this close to the horizon, a
                # move that gives the enemy material for nothing. The first and last keep
                # it while every move so far is mated (it may be the one defence).
                late = index >= late_from and best_score > -MATE_BOUND
                futile = False
                if late:
                    # so is every later quiet move: `_staged` leaves out those that do
                    # not check. (A late move has no score of its own to lend the node,
                    # futile or not.)
                    checks_only[0] = True
                elif frontier:
                    # a quiet move hardly changes the king safety: the parent's stands for
                    # the child's.
                    if king_safety is None:
                        king_safety = self._king_safety_black(key)
                        ceiling = sign * (eval_black + king_safety) + tables.quiet_gain
                    if ceiling <= best_score and ceiling + FUTILITY_MARGIN <= alpha:
                        # no quiet move can lift the score to alpha, nor above the best
                        # so far: neither this move's own score is needed, nor any later
                        # one's (`_staged` leaves out those that do not check)
                        futile = checks_only[0] = True
                        after = ceiling
                    else:
                        child_eval = eval_black + move_delta(tables, pos, m)
                        after = sign * (child_eval + king_safety)
                        futile = after + FUTILITY_MARGIN <= alpha
                if late or futile or best_score > -MATE_BOUND and losing_margin \
                        and quiet_move_loses(tables, pos, m, losing_margin):
                    checks = gives_check(tables, pos, m)
                    if not checks:
                        if futile and after > best_score:
                            best_score = after
                        continue
            if child_eval is None:   # (a move left out above needs it only for futility)
                child_eval = eval_black + move_delta(tables, pos, m)
            captured = make(m)
            if checks is None:
                checks = made_check(tables, pos, m)
            self._count_node()
            if index == 0:
                score = -self._negamax(depth - 1, -beta, -alpha, ply + 1, child_eval, pv_node,
                                       checks)
            else:
                reduction = 1 if (quiet and depth >= 3 and index >= 4 and not in_check) else 0
                score = -self._negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1,
                                       child_eval, False, checks)
                if score > alpha and (reduction or (pv_node and score < beta)):
                    score = -self._negamax(depth - 1, -beta, -alpha, ply + 1, child_eval, pv_node,
                                           checks)
            unmake(m, captured)
            if score > best_score:
                best_score, best_move = score, m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if quiet:
                            killers = self._killers[ply]
                            if killers[0] != m:
                                killers[1] = killers[0]
                                killers[0] = m
                            self.history[m] = self.history.get(m, 0) + depth * depth
                        break
        del seen[key]
        if index < 0:
            return -MATE_SCORE + ply  # no legal move loses, in check or not
        self._store(key, depth, _bound_type(best_score, alpha_start, beta), best_score,
                    best_move, ply)
        return best_score

    def _quiesce(self, alpha, beta, ply, eval_black, qply, in_check):
        """Resolve captures so a position is never judged in the middle of an exchange.
        `in_check`: is the side to move in check? (The move that led here knew it.)

        It shares the hash table with the main search: the same exchanges are reached
        again and again, through other move orders and at each depth, and a bound found
        once (or any deeper search's) answers them; where it does not, the stored move is
        tried first."""
        pos = self._pos
        tables = self._tables
        key = pos.hash + (eval_black << 32)     # node_key, written out
        entry = self.tt.get(key)
        tt_move = 0
        if entry is not None:
            _, flag, tt_score, tt_move = entry
            tt_score = _score_from_tt(tt_score, ply)
            if _settles(flag, tt_score, alpha, beta):
                return tt_score
        # In check the score comes from the evasions: no standing pat to judge.
        stand = eval_black if pos.side == BLACK else -eval_black
        if not in_check:
            # The king-safety term is the costliest part of judging a position, and most
            # positions here are far above beta: the term is counted only as far as needed.
            if stand - KING_DANGER_MAX_CP >= beta:
                return stand - KING_DANGER_MAX_CP   # no danger to the own General is that large
            stand -= self._king_danger(key, pos.side)
            if stand >= beta:
                return stand                        # the enemy's danger would only add
            stand += self._king_danger(key, 1 - pos.side)
        if ply >= MAX_PLY:
            return stand
        if not in_check:
            if stand >= beta or qply >= QUIESCENCE_MAX_PLIES:
                return stand
            if stand > alpha:
                alpha = stand
        worth = tables.worth
        board = pos.board
        if in_check:
            moves = legal_moves(pos, True)   # every evasion, blocking drops included
            if not moves:
                return -MATE_SCORE + ply
            candidates = self._order(moves, 0, ply)
            best = -INFINITY
        else:
            # (a promotion that takes nothing is not judged here)
            moves = captures_and_promotions(pos, False, quiet_promotions=False)
            if not moves and not has_legal_move(tables, pos):
                return -MATE_SCORE + ply  # no legal move at all loses, as in _negamax
            scored = []
            for m in moves:
                victim = board[m & 0xFF]
                if victim:
                    gain = worth[victim]
                    if not m & PROMOTION:
                        if stand + gain + 200 < alpha:
                            continue  # even winning the piece cannot lift the score to alpha
                        if loses_exchange(tables, pos, m):
                            continue  # the exchange on that square loses material
                    scored.append((gain * 16 - worth[board[m >> 8 & 0xFF]] // 16, m))
            if not scored:
                return stand   # nothing worth taking: most nodes that get this far
            scored.sort(reverse=True)
            candidates = [m for _, m in scored]
            best = stand
        if not candidates:
            return best
        if tt_move in candidates:
            candidates.remove(tt_move)
            candidates.insert(0, tt_move)
        alpha_start = alpha
        best_move = 0
        make, unmake = self._make, self._unmake
        for m in candidates:
            child_eval = eval_black + move_delta(tables, pos, m)
            captured = make(m)
            checks = made_check(tables, pos, m)
            self._count_node()
            score = -self._quiesce(-beta, -alpha, ply + 1, child_eval, qply + 1, checks)
            unmake(m, captured)
            if score > best:
                best, best_move = score, m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if entry is None or entry[0] <= 0:   # a deeper search's entry is worth more
            self._store(key, 0, _bound_type(best, alpha_start, beta), best, best_move, ply)
        return best

    def _king_danger(self, key, colour):
        """`king_danger` of `colour` in the search's position, whose `node_key` is `key`.
        Remembered from search to search: iterative deepening judges the same positions
        again at each depth (about a quarter of the calls), the next move's search meets
        them again, and the term is the costliest part of the evaluation. (Where it is
        counted, it is often read from what `king_danger` knows: most moves leave the pieces
        around a General as they were.)"""
        key = key << 1 | colour
        danger = self._dangers.get(key)
        if danger is None:
            if len(self._dangers) >= DANGER_MAX_ENTRIES:
                self._forget_dangers()   # full: start again rather than grow
            danger = king_danger(self._tables, self._pos, colour, self._known_around[colour])
            self._dangers[key] = danger
        return danger

    def _forget_dangers(self):
        """Empty the dangers remembered by position, and `king_danger`'s `known` for each
        colour. Each danger counted adds at most one arrangement to `known`, so the two
        stores together hold at most DANGER_MAX_ENTRIES of each."""
        self._dangers = {}
        self._known_around = [[{} for _ in range(self._pos.variant.size)]
                              for _ in (BLACK, WHITE)]

    def _king_safety_black(self, key):
        """`king_safety_black` of the search's position, from the remembered dangers."""
        return self._king_danger(key, WHITE) - self._king_danger(key, BLACK)

    def _staged(self, tt_move, in_check, ply, checks_only):
        """The moves of the node in the order they are tried, each stage built only when
        the one before has not cut the node off: the hash move, before anything is
        generated; then the captures and promotions, and the killers that are legal here;
        then the other board moves and the drops together, by history, and the captures
        that lose the exchange. (The order of `_keyed`, with each capture's exchange counted
        only when its turn comes. Most nodes are cut off by the hash move or a capture:
        their quiet moves, most of the moves, are never built.)

        Once the search sets `checks_only[0]` (every quiet move left would be left out
        unless it checks: late-move pruning, or frontier futility by its bound), the quiet
        moves and drops still to come that do not check are not handed to it."""
        pos = self._pos
        if tt_move:
            yield tt_move
        if in_check:
            for _, m in self._keyed(legal_moves(pos, True), ply):
                if m != tt_move:
                    yield m
            return
        tables = self._tables
        board = pos.board
        worth = tables.worth
        first = [(_capture_key(worth, board, m) if board[m & 0xFF] else PROMOTION_KEY, m)
                 for m in captures_and_promotions(pos, False)]
        killer, second_killer = self._killers[ply]
        # a killer is a quiet board move (or a drop, ordered by history as the others) that
        # cut off a sibling: it must be checked legal here
        killers = [m for m in (killer, second_killer)
                   if m & 0xFF00 and m != tt_move and not board[m & 0xFF]
                   and hash_move_legal(pos, m, False)]
        first.extend([(KILLER_KEY + (m == killer), m) for m in killers])
        first.sort(reverse=True)
        rest = []
        for key, m in first:
            if m == tt_move:
                continue
            if key >= CAPTURE_KEY:
                loss = loses_exchange(tables, pos, m)
                if loss:
                    rest.append((loss - 1, m))   # its key in `_keyed`
                    continue
            yield m
        history = self.history.get
        rest.extend([(history(m, 0), m) for m in quiet_moves(pos)])
        rest.extend([(history(m, 0), m) for m in drop_moves(pos)])
        rest.sort(reverse=True)
        for _, m in rest:
            if m != tt_move and m not in killers:
                if checks_only[0] and not board[m & 0xFF] and not gives_check(tables, pos, m):
                    continue   # a quiet move the search would leave out
                yield m

    def _order(self, moves, tt_move, ply):
        """`moves` in the order they are tried: the TT move first, then as `_keyed`."""
        ordered = [m for _, m in self._keyed(moves, ply)]
        if tt_move in ordered:
            ordered.remove(tt_move)
            ordered.insert(0, tt_move)
        return ordered

    def _keyed(self, moves, ply):
        """(key, move) pairs, best first: captures by MVV-LVA, promotions, killers, then by
        history, and last the captures that lose material in the exchange. (The move's bits
        are read in place: this runs over every move of the root and of the nodes in check.)"""
        pos = self._pos
        board = pos.board
        tables = self._tables
        worth = tables.worth
        killer, second_killer = self._killers[ply]
        history = self.history.get
        keyed = []
        append = keyed.append
        for m in moves:
            if not m & 0xFF00:                            # a drop
                key = history(m, 0)
            else:
                victim = board[m & 0xFF]
                if victim:
                    loss = loses_exchange(tables, pos, m)
                    # a losing capture: after every quiet move
                    key = loss - 1 if loss else _capture_key(worth, board, m)
                elif m & PROMOTION:
                    key = PROMOTION_KEY
                elif m == killer:
                    key = KILLER_KEY + 1
                elif m == second_killer:
                    key = KILLER_KEY
                else:
                    key = history(m, 0)
            append((key, m))
        keyed.sort(reverse=True)
        return keyed

    def _store(self, key, depth, flag, score, move, ply):
        self.tt[key] = (depth, flag, _score_to_tt(score, ply), move)

    def _principal_variation(self, first, length):
        """Follow the hash table from the root, each move re-checked by the rules core."""
        pos = self._pos
        line = []
        seen = set()
        m = first
        while m and len(line) < max(length, 1) and pos.is_legal(m) and pos.hash not in seen:
            seen.add(pos.hash)
            line.append(m)
            pos.push(m)
            entry = self.tt.get(node_key(pos, evaluate_black(pos)))
            m = entry[3] if entry else 0
        for _ in line:
            pos.pop()
        return line


def has_legal_move(tables, position):
    """Has the side to move, not in check, a legal move? Asked in quiescence wherever
    nothing can be taken: almost always yes, and a piece off every line to its own General
    (so not pinned) with a square to go to says so at once; else the core decides."""
    board = position.board
    side = position.side
    enemy = 1 - side
    king = position.kings[side]
    on_line = tables.on_ray[enemy][king]
    lines = move_lines(position.variant, side)
    moves = []
    for sq in own_squares(board, side):
        if sq != king and not on_line[sq]:
            piece_moves(lines, board, sq, enemy, moves)
            if moves:
                return True
    return bool(position.legal_moves(first_only=True))


def gives_check(tables, position, m):
    """Does the legal move `m` put the opponent in check? Asked of every move the search
    plays (the answer goes with the move: the position it leads to is in check) and of most
    it leaves out near the horizon, so a move that neither lands in line with the enemy
    General nor leaves a square in line with it is answered at once. The rest are played on
    the bare board (no hash, hands or history), and only the lines through the two squares
    the move touches are read from the General: the General was not in check before it
    (the opponent would have had to answer that), so any check now comes from the piece on
    its new square or from a line its old square opened."""
    side = position.side
    king = position.kings[1 - side]
    to, frm = m & 0xFF, m >> 8 & 0xFF
    lines = tables.check_lines[side][king]
    if not (lines[to] or frm and tables.on_ray[side][king][frm]):
        return False
    board = position.board
    mover = moving_piece(position, m)
    standing = board[to]
    board[to] = tables.promoted[mover & 31] | side << 5 if m & PROMOTION else mover
    if frm:
        board[frm] = 0
        checks = _attacked_along(board, lines[to]) or _attacked_along(board, lines[frm])
        board[frm] = mover
    else:
        checks = _attacked_along(board, lines[to])
    board[to] = standing
    return checks


def made_check(tables, position, m):
    """Is the side to move in check by the move `m` just made? `gives_check`, asked after
    the move: the search asks it of each move it plays, and the board already stands as
    the move left it."""
    side = 1 - position.side   # the side that moved
    king = position.kings[position.side]
    to, frm = m & 0xFF, m >> 8 & 0xFF
    lines = tables.check_lines[side][king]
    if not (lines[to] or frm and tables.on_ray[side][king][frm]):
        return False
    board = position.board
    return _attacked_along(board, lines[to]) or bool(frm) and _attacked_along(board, lines[frm])


def _attacked_along(board, lines):
    """Is the General these `lines` walk out from (a part of `_Tables.check_lines`)
    attacked along one of them?"""
    for attacks, squares in lines:
        for sq in squares:
            piece = board[sq]
            if piece:
                if attacks[piece]:
                    return True
                break
    return False


def _capture_key(worth, board, m):
    """The ordering key of the capture `m`: most valuable victim first, and of those the
    least valuable attacker."""
    return CAPTURE_KEY + worth[board[m & 0xFF]] * 16 - worth[board[m >> 8 & 0xFF]] // 16


def _bound_type(score, alpha_start, beta):
    """What a node's score is, for the hash table: a lower bound (it failed high), exact,
    or an upper bound (nothing rose above the window's `alpha_start`)."""
    if score >= beta:
        return LOWER
    return EXACT if score > alpha_start else UPPER


def _settles(flag, score, alpha, beta):
    """Does a stored score of this bound type answer a node searched in (alpha, beta)?"""
    return (flag == EXACT or (flag == LOWER and score >= beta)
            or (flag == UPPER and score <= alpha))


def _score_to_tt(score, ply):
    """Mate scores are stored relative to the node, so they stay right from any path."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _score_from_tt(score, ply):
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


def node_key(position, eval_black):
    """Transposition and repetition key: `Position.hash` (board, hands, side to move; about
    30 bits, sized for the Pico) widened by the evaluation, which is itself a function of the
    position, so that two positions sharing a hash are still told apart almost always."""
    return position.hash + (eval_black << 32)


def _history_keys(position):
    """Keys of the positions of the game so far: reaching one again in the search ends the
    line as a draw."""
    earlier = position.copy()
    seen = {}
    for _ in range(len(earlier.moves())):
        earlier.pop()
        seen[node_key(earlier, evaluate_black(earlier))] = 1
    return seen
