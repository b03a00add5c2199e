"""The built-in engine's per-variant tables: piece values on the board and in hand, placement,
and the precomputed lines and neighbourhoods that the evaluation, the static exchange and the
check tests read. Built once per variant (`tables_for`), signed for Black (+) and White (-)."""
from operator import itemgetter

from shogicore.variants import BLACK, KING, WHITE

from yariboard.engines.builtin.movegen import attack_lines, lines_through, move_lines, walk

# Centipawn values of each piece on the board, by its SFEN symbol as Black, as tuned by play
# for the games that have them (`piece_values`: any other variant, or a piece a table lacks,
# gets a value derived from how it moves).
# Yari: the Yari Rook is the strongest unpromoted piece; a promoted Pawn (Yari Silver) gains
# most, like a tokin; the Yari Bishop and Knight both become a Yari Gold.
TUNED_VALUES = {
    "yari": {"P": 100, "N": 380, "B": 400, "R": 700,
             "+P": 430, "+N": 550, "+B": 550, "+R": 1000, "K": 0},
    "shogi": {"P": 90, "L": 315, "N": 405, "S": 495, "G": 540, "B": 855, "R": 990,
              "+P": 540, "+L": 540, "+N": 540, "+S": 540, "+B": 945, "+R": 1395, "K": 0},
}
# Wa: by how far and how freely each piece moves (docs/rules-wa.md); step movers are worth
# little, the Flying Falcon and the Cloud Eagle are its Bishop and Rook.
TUNED_VALUES["wa"] = TUNED_VALUES["wa-nodrops"] = {
    "P": 100, "O": 300, "H": 400, "S": 500, "F": 900, "R": 450, "V": 400, "W": 450,
    "G": 250, "C": 250, "U": 200, "L": 200, "M": 250, "D": 300, "E": 1000, "X": 700, "K": 0,
    "+P": 500, "+O": 550, "+H": 350, "+S": 950, "+F": 1300, "+R": 700, "+V": 550, "+W": 550,
    "+G": 500, "+C": 650, "+U": 900, "+L": 1000, "+M": 400, "+D": 450,
}
# A derived value: this much for each square the piece reaches on an empty board (the mean
# over the squares it can stand on), plus a base. It gives a Pawn about 100, a Gold about
# 400, a shogi Rook about 1150.
DERIVED_BASE = 40
DERIVED_PER_SQUARE = 70
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
        values = piece_values(variant)
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


def piece_values(variant):
    """{SFEN symbol as Black: centipawns} of every kind of `variant`: the tuned value where
    the variant has a table with it, else one derived from its moves (`derived_value`), so
    a new variant plays without an edit here. The General is worth 0 (it is never traded)."""
    tuned = TUNED_VALUES.get(variant.name, {})
    lines = move_lines(variant, BLACK)
    values = {}
    for kind in variant.kinds:
        symbol = variant.symbol(kind)
        if symbol in tuned:
            values[symbol] = tuned[symbol]
        else:
            values[symbol] = 0 if kind == KING else derived_value(variant, lines, kind)
    return values


def derived_value(variant, lines, kind):
    """A value for `kind` from its reach: the squares it moves to from each square of an
    empty board (`lines`: `movegen.move_lines` for Black), on average."""
    reached = 0
    for sq in variant.squares:
        steps, rays, _ = lines[kind][sq]
        reached += len(steps) + sum(len(ray) for ray in rays)
    return DERIVED_BASE + DERIVED_PER_SQUARE * reached // len(variant.squares)


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

