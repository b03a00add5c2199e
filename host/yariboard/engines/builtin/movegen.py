"""Legal moves for the engine's search, built faster than `Position.legal_moves`.

The rules core is written for the Pico's RAM: it tests each drop on its own, and in check it
pays a make, an attack test and an unmake for every drop on every empty square. The search
asks for moves at every node, so here the same moves are built the quick way:

- drops go on the empty squares a kind may stand on, in one pass per kind (the only test
  left per square is the pawn's mate-by-drop ban, where a variant has it, and only in front
  of the enemy General);
- the General's moves are tested with the General lifted off the board, not made and unmade,
  and attacks are read with a lookup table per attack line (`attack_lines`);
- in check, a piece other than the General can only answer by taking the one checker or, with
  a drop too, by standing between it and the General when it comes from a distance: only
  those squares are tried, and the pieces that reach them are looked up from there;
- the other pieces' moves are read from per-square lists made once from the core's tables
  (`move_lines`): the squares each step reaches, the rays of each slide, and whether a move
  to each square may or must promote, so a move costs an index, not a call. Pinned pieces
  still go through the core's own generator, which tests each move for safety;
- a move from the hash table, made for another position with the same key, is checked
  against those lists with one safety test, not by building the piece's moves;
- out of check the moves come in three lists, each built only when the search gets to it:
  the captures and promotions (all that quiescence looks at), the other board moves, and
  the drops (most of a Yari position's moves). A safety test is paid for only where the
  core pays it: for the General, and for pinned pieces.

Host-only: the Pico never searches (tests/engines/test_engine_movegen.py checks these moves against
independent oracles).
"""
from collections import namedtuple
from itertools import compress

from shogicore.move import PROMOTION
from shogicore.variants import KING, PAWN

EMPTY = 0
SidedTables = namedtuple("SidedTables", "steps slides ranges step_attacks slide_attacks "
                                        "range_attacks")
_SIDED = {}
_LINES = {}
_ATTACKS = {}
_THROUGH = {}
# _OWNED[side][value]: 1 where a board value (0..255; 64 is the wall) is a piece of `side`;
# _VACANT: 1 for an empty square. Tables for bytearray.translate (see `own_squares`).
_OWNED = [bytes(1 if 0 < value < 64 and value >> 5 == side else 0 for value in range(256))
          for side in (0, 1)]
_VACANT = bytes(1 if value == EMPTY else 0 for value in range(256))
# 0..255: every square of a board, and every place in what the engine reads around a
# General, for `compress` (a tuple: it reads one faster than a range).
INDEXES = tuple(range(256))


def sided_tables(variant, side):
    """The variant's move and attack tables (SidedTables) turned to `side`: the core keeps
    Black's only (the Pico's RAM); the search reads them at every node, so the host keeps
    both sides' ready."""
    key = (variant, side)
    tables = _SIDED.get(key)
    if tables is None:
        sign = 1 - 2 * side
        tables = _SIDED[key] = SidedTables(
            [tuple(sign * d for d in offsets) for offsets in variant.steps],
            [tuple(sign * d for d in offsets) for offsets in variant.slides],
            [tuple((sign * d, reach) for d, reach in offsets) for offsets in variant.ranges],
            [(sign * d, mask) for d, mask in variant.step_attacks],
            [(sign * d, mask) for d, mask in variant.slide_attacks],
            [(sign * d, reach, mask) for d, reach, mask in variant.range_attacks])
    return tables


def attack_lines(variant, colour):
    """`colour`'s attack lines (steps, slides, ranges) as the core's `_attacked` reads them,
    each with a table by board value (0..64) that is 1 for the pieces of `colour` attacking
    along it: one lookup where the core shifts and compares."""
    key = (variant, colour)
    lines = _ATTACKS.get(key)
    if lines is None:
        sided = sided_tables(variant, colour)

        def hits(mask):
            return bytes(1 if p & 31 and p >> 5 == colour and (mask >> (p & 31) - 1) & 1 else 0
                         for p in range(65))
        lines = _ATTACKS[key] = (
            tuple((delta, hits(mask)) for delta, mask in sided.step_attacks),
            tuple((delta, hits(mask)) for delta, mask in sided.slide_attacks),
            tuple((delta, reach, hits(mask)) for delta, reach, mask in sided.range_attacks))
    return lines


def attacked(board, sq, lines):
    """Is `sq` attacked along `lines` (`attack_lines` of the attacking colour)? The core's
    `Position._attacked`, with lookup tables."""
    steps, slides, ranges = lines
    for delta, hit in steps:
        if hit[board[sq + delta]]:
            return True
    for delta, hit in slides:
        s = sq + delta
        while not board[s]:
            s += delta
        if hit[board[s]]:
            return True
    for delta, reach, hit in ranges:
        s = sq + delta
        while not board[s] and reach > 1:
            s += delta
            reach -= 1
        if hit[board[s]]:
            return True
    return False


def attackers(board, sq, lines):
    """The squares of the pieces attacking `sq` along `lines` (`attack_lines` of their
    colour): those of step attacks first, then of slides, then of ranges. Each comes once,
    as no kind has a step along one of its own slides or ranges."""
    steps, slides, ranges = lines
    found = [sq + delta for delta, hit in steps if hit[board[sq + delta]]]
    for delta, hit in slides:
        s = sq + delta
        while not board[s]:
            s += delta
        if hit[board[s]]:
            found.append(s)
    for delta, reach, hit in ranges:
        s = sq + delta
        while not board[s] and reach > 1:
            s += delta
            reach -= 1
        if hit[board[s]]:
            found.append(s)
    return found


def own_squares(board, side):
    """The squares of `side`'s pieces, in board order. The search asks at most nodes; one
    translate of the board marks them and `compress` picks them out, where a loop would
    read all the squares one by one."""
    return compress(INDEXES, board.translate(_OWNED[side]))


def empty_squares(board):
    """The empty squares, in board order (the walls are not empty), as `own_squares`."""
    return compress(INDEXES, board.translate(_VACANT))


def lines_through(variant, colour):
    """through[king][sq]: 1 where `sq` is on one of `colour`'s slide or range lines through
    a General on `king` (as far as the line reaches from it). Only a piece standing there can
    be pinned against that General by `colour`, or uncover a check on it by moving away."""
    key = (variant, colour)
    through = _THROUGH.get(key)
    if through is None:
        _, slides, ranges = attack_lines(variant, colour)
        through = _THROUGH[key] = [b""] * variant.size
        for king in variant.squares:
            line = bytearray(variant.size)
            for delta, reach in [(delta, variant.size) for delta, _ in slides] + \
                    [(delta, reach) for delta, reach, _ in ranges]:
                for sq in walk(variant, king, delta, reach):
                    line[sq] = 1
            through[king] = bytes(line)
    return through


def move_lines(variant, side):
    """lines[piece][sq] for `side`'s pieces: (the squares its steps reach, its slides' and
    ranges' rays as square tuples, promotion[to]: 0 when a move from `sq` to `to` cannot
    promote, 1 when it may, 2 when it must). Off-board squares are left out, so only what
    stands on a square is left to test."""
    key = (variant, side)
    lines = _LINES.get(key)
    if lines is not None:
        return lines
    sided = sided_tables(variant, side)
    depth = variant.depth[side]
    zone = variant.promotion_ranks
    on_board = variant.on_board
    lines = _LINES[key] = [None] * 64
    for kind in variant.kinds:
        piece = kind | (side << 5)
        per_square = lines[piece] = [None] * variant.size
        for sq in variant.squares:
            steps = tuple(sq + d for d in sided.steps[kind] if on_board(sq + d))
            ends = [(d, variant.size) for d in sided.slides[kind]] + list(sided.ranges[kind])
            rays = [ray for ray in (walk(variant, sq, d, reach) for d, reach in ends) if ray]
            promotion = bytearray(variant.size)
            if variant.promote[kind]:
                for to in variant.squares:
                    if depth[to] <= zone or depth[sq] <= zone:
                        promotion[to] = 2 if depth[to] <= variant.forced[kind] else 1
            per_square[sq] = (steps, tuple(rays), bytes(promotion))
    return lines


def walk(variant, sq, delta, reach):
    """The squares from `sq` (not included) along `delta`, at most `reach` of them, up to
    the edge of the board."""
    squares = []
    sq += delta
    while len(squares) < reach and variant.on_board(sq):
        squares.append(sq)
        sq += delta
    return tuple(squares)


def piece_moves(lines, board, sq, enemy, out):
    """Append the moves of the piece on `sq`, read from `move_lines`; in the core's terms,
    `Position._piece_moves` without a safety test. Legal as they stand only for a piece
    neither pinned nor the General; otherwise the caller tests the General's safety."""
    steps, rays, promotion = lines[board[sq]][sq]
    base = sq << 8
    append = out.append
    for to in steps:
        t = board[to]
        if not t or t >> 5 == enemy:
            can = promotion[to]
            if can != 2:
                append(base | to)
            if can:
                append(base | to | PROMOTION)
    for ray in rays:
        for to in ray:
            t = board[to]
            if t and t >> 5 != enemy:
                break
            can = promotion[to]
            if can != 2:
                append(base | to)
            if can:
                append(base | to | PROMOTION)
            if t:
                break


def captures_and_promotions(position, in_check=None, quiet_promotions=True):
    """Every legal board move of the side to move that captures or promotes (a capture that
    may promote comes both ways, as in `legal_moves`); never a drop. `in_check` may be passed
    when the caller already knows it. Without `quiet_promotions`, only the captures
    (quiescence's moves). Out of check a piece off the enemy's lines through its own General
    cannot be pinned: the pinned pieces are looked for only when one on them can take."""
    board = position.board
    side = position.side
    enemy = 1 - side
    king = position.kings[side]
    if in_check is None:
        in_check = position.in_check()
    pinned = () if in_check else None   # looked for once a piece has something to take
    on_line = None if in_check else lines_through(position.variant, enemy)[king]
    lines = move_lines(position.variant, side)
    out = []
    for frm in own_squares(board, side):
        piece = board[frm]
        steps, rays, promotion = lines[piece][frm]
        # Destinations that count, with what stands there: an enemy piece, or 0 for an
        # empty square where this piece may promote. (0 >> 5 is Black's colour, the
        # wall's colour is 2: hence the explicit emptiness tests.)
        targets = []
        for to in steps:
            t = board[to]
            if t:
                if t >> 5 == enemy:
                    targets.append((to, t))
            elif quiet_promotions and promotion[to]:
                targets.append((to, 0))
        for ray in rays:
            for to in ray:
                t = board[to]
                if t:
                    if t >> 5 == enemy:
                        targets.append((to, t))
                    break
                if quiet_promotions and promotion[to]:
                    targets.append((to, 0))
        if targets:
            pinned = _append_targets(out, position, frm, targets, promotion,
                                     in_check or frm == king, on_line, pinned)
    return out


def _append_targets(out, position, frm, targets, promotion, exposed, on_line, pinned):
    """Append the legal moves of the piece on `frm` to its `targets` ((to, victim) pairs)
    for `captures_and_promotions`, each tested for leaving the General attacked if the piece
    is `exposed` (the General itself, or any piece in check) or pinned. `pinned`: the pinned
    pieces, None until a piece on a line through the General needs them; returned, looked
    for if they had to be."""
    if exposed:
        test = True
    elif not on_line[frm]:
        test = False
    else:
        if pinned is None:
            pinned = position._pinned(position.side)
        test = frm in pinned
    safe = position._safe
    for to, victim in targets:
        m = (frm << 8) | to
        if test and not safe(m):
            continue
        can_promote = promotion[to]
        if can_promote:
            if victim and can_promote != 2:
                out.append(m)
            out.append(m | PROMOTION)
        else:
            out.append(m)
    return pinned


def legal_moves(position, in_check):
    """The same moves as `position.legal_moves()` (`in_check`: is the side to move in
    check?), board moves first."""
    if not in_check:
        out = captures_and_promotions(position, False)
        out.extend(quiet_moves(position))
        out.extend(drop_moves(position))
        return out
    side = position.side
    board = position.board
    king = position.kings[side]
    out = _king_moves(position, king)
    checkers, answers = check_answers(position)
    if checkers < 2:                       # against two checkers only the General moves
        # the other pieces can only take or block the checker: the pieces that reach an
        # answering square (a piece moves as it attacks) are looked up from that square,
        # and their moves kept when they leave the General safe
        own = attack_lines(position.variant, side)
        lines = move_lines(position.variant, side)
        safe = position._safe
        pinned = position._pinned(side)
        for to in answers:
            for frm in attackers(board, to, own):
                if frm == king:
                    continue
                m = (frm << 8) | to
                # with one checker taken or blocked, only a pinned piece can leave the
                # General attacked
                if frm not in pinned or safe(m):
                    can_promote = lines[board[frm]][frm][2][to]
                    if can_promote != 2:
                        out.append(m)
                    if can_promote:
                        out.append(m | PROMOTION)
    hand = position.hands[side]
    blocks = [sq for sq in answers if not board[sq]]
    for kind in position.variant.hand_kinds:
        if hand[kind]:
            columns = position._pawn_columns() if kind == PAWN else None
            for sq in blocks:
                # a drop between the one checker and the General always blocks it: no
                # safety test (in_check False to the core)
                if position._drop_ok(kind, sq, False, columns):
                    out.append((kind << 17) | sq)
    return out


def hash_move_legal(position, m, in_check=True):
    """Is `m`, a move the hash table kept for a position with the same key, legal here?
    The answer of `Position.is_legal`, which builds every move of the piece and makes each
    one; the search asks at most of its nodes, so a board move is looked for among the
    piece's moves from `move_lines` and the General's safety tested once, on the bare
    board. A pawn drop goes to the core (the two-pawn and mate-by-drop rules).

    Out of check (`in_check` False, where the caller knows it), a drop cannot leave the
    General attacked, nor can a piece other than the General moving from off the enemy's
    lines through it (`lines_through`), so their safety test is spared."""
    variant = position.variant
    side = position.side
    board = position.board
    frm, to = m >> 8 & 0xFF, m & 0xFF
    if frm:
        piece = board[frm]
        if not piece or piece >> 5 != side:        # (the wall's colour is 2)
            return False
        if not _reaches(move_lines(variant, side)[piece][frm], board, m, 1 - side):
            return False
        if not in_check and piece & 31 != KING \
                and not lines_through(variant, 1 - side)[position.kings[side]][frm]:
            return True
    else:
        kind = m >> 17 & 31
        if not position.hands[side][kind] or board[to] \
                or variant.depth[side][to] <= variant.forced[kind]:
            return False
        if kind == PAWN:
            return position.is_legal(m)
        if not in_check:
            return True
        piece = kind | side << 5
    king = to if piece & 31 == KING else position.kings[side]
    return not attacked_after(board, frm, to, piece, king, attack_lines(variant, 1 - side))


def _reaches(lines, board, m, enemy):
    """Is the board move `m` among the moves `piece_moves` builds from these `lines` of the
    piece on its square? (Asked of one move: the squares on its way are read, not all the
    piece's moves built.)"""
    to = m & 0xFF
    steps, rays, promotion = lines
    standing = board[to]
    if standing and standing >> 5 != enemy:
        return False                        # an own piece, or the wall
    if m & PROMOTION:
        if not promotion[to]:
            return False                    # a promotion it may not make
    elif promotion[to] == 2:
        return False                        # one it must make
    if to in steps:
        return True
    for ray in rays:
        if to in ray:
            for sq in ray:
                if sq == to:
                    return True
                if board[sq]:
                    return False
    return False


def attacked_after(board, frm, to, placed, sq, lines):
    """Would `sq` be attacked along `lines` once the piece on `frm` (0: one from the hand)
    stood on `to` as `placed`? Played on the bare board (no hash, hands or history),
    looked at and taken back."""
    moved = board[frm]
    standing = board[to]
    board[to] = placed
    if frm:
        board[frm] = EMPTY
    hit = attacked(board, sq, lines)
    if frm:
        board[frm] = moved
    board[to] = standing
    return hit


def quiet_moves(position):
    """The legal board moves that neither capture nor promote, the side to move not being
    in check: those `captures_and_promotions` leaves out."""
    side = position.side
    board = position.board
    king = position.kings[side]
    out = _king_moves(position, king, False)
    pinned = position._pinned(side)
    lines = move_lines(position.variant, side)
    append = out.append
    for sq in own_squares(board, side):
        if sq == king:
            continue
        if sq in pinned:
            moves = []
            position._piece_moves(sq, moves, False, pinned)
            out.extend([m for m in moves if not board[m & 0xFF] and not m & PROMOTION])
            continue
        steps, rays, promotion = lines[board[sq]][sq]
        base = sq << 8
        for to in steps:
            if not board[to] and promotion[to] != 2:
                append(base | to)
        for ray in rays:
            for to in ray:
                if board[to]:
                    break
                if promotion[to] != 2:
                    append(base | to)
    return out


def drop_moves(position):
    """The legal drops, the side to move not being in check: a separate list, so the
    search builds them only once the board moves have failed to cut the node off."""
    side = position.side
    variant = position.variant
    hand = position.hands[side]
    kinds = [kind for kind in variant.hand_kinds if hand[kind]]
    out = []
    if not kinds:
        return out
    board = position.board
    empty = list(empty_squares(board))
    depth = variant.depth[side]
    for kind in kinds:
        forced = variant.forced[kind]
        if kind != PAWN:
            out.extend([(kind << 17) | sq for sq in empty if depth[sq] > forced])
            continue
        columns = position._pawn_columns()
        stride = variant.stride
        for sq in empty:
            if depth[sq] > forced and not columns[sq % stride]:
                m = (kind << 17) | sq
                if variant.pawn_drop_mate_legal or not position._pawn_drop_mates(m):
                    out.append(m)
    return out


def _king_moves(position, king, captures=True):
    """The General's moves (without `captures`, only those to an empty square): each
    destination tested with the General lifted off its square (so a slider's line through
    it counts), without making the move."""
    board = position.board
    side = position.side
    enemy = 1 - side
    lines = attack_lines(position.variant, enemy)
    general = board[king]
    board[king] = EMPTY
    out = []
    try:
        for d in sided_tables(position.variant, side).steps[KING]:
            to = king + d
            t = board[to]
            if (t == EMPTY or captures and t >> 5 == enemy) and not attacked(board, to, lines):
                out.append((king << 8) | to)
    finally:
        board[king] = general
    return out


def check_answers(position):
    """(number of pieces giving check, squares where a piece other than the General may
    answer it: the checker's and, for a checker from a distance, those between; none when
    two pieces give check)."""
    board = position.board
    variant = position.variant
    enemy = 1 - position.side
    king = position.kings[position.side]
    checkers = 0
    answers = ()
    tables = sided_tables(variant, enemy)
    for delta, mask in tables.step_attacks:
        p = board[king + delta]
        if p and p >> 5 == enemy and (mask >> (p & 31) - 1) & 1:
            checkers += 1
            answers = (king + delta,)
    # slides reach to the edge; ranges stop after their most squares
    lines = [(delta, variant.size, mask) for delta, mask in tables.slide_attacks]
    for delta, reach, mask in lines + tables.range_attacks:
        line = []
        s = king + delta
        while board[s] == EMPTY and len(line) < reach - 1:
            line.append(s)
            s += delta
        p = board[s]
        if p and p >> 5 == enemy and (mask >> (p & 31) - 1) & 1:
            checkers += 1
            answers = line + [s]
    return checkers, answers if checkers == 1 else ()
