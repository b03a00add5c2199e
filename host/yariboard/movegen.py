"""Legal moves for the engine's search, built faster than `Position.legal_moves`.

The rules core is written for the Pico's RAM: it tests each drop on its own, and in check it
pays a make, an attack test and an unmake for every drop on every empty square. The search
asks for moves at every node, so here the same moves are built the quick way:

- drops go on the empty squares a kind may stand on, in one pass per kind (the only test
  left per square is the pawn's mate-by-drop ban, where a variant has it, and only in front
  of the enemy General);
- the General's moves are tested with the General lifted off the board, not made and unmade;
- in check, a piece other than the General can only answer by taking the one checker or, with
  a drop too, by standing between it and the General when it comes from a distance: only
  those squares are tried.

The other pieces' moves come from the core's own tables. Host-only: the Pico never searches
(tests/test_engine_movegen.py checks these moves against independent oracles).
"""
from collections import namedtuple

from shogicore.variants import KING, PAWN

EMPTY = 0
SidedTables = namedtuple("SidedTables", "steps slides ranges step_attacks slide_attacks "
                                        "range_attacks")
_SIDED = {}


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


def legal_moves(position, in_check):
    """The same moves as `position.legal_moves()` (`in_check`: is the side to move in
    check?), board moves first."""
    if not in_check:
        out = board_moves(position)
        out.extend(drop_moves(position))
        return out
    side = position.side
    board = position.board
    king = position.kings[side]
    out = _king_moves(position, king)
    checkers, answers = check_answers(position)
    if checkers < 2:                       # against two checkers only the General moves
        # the other pieces can only take or block the checker: their moves are kept when
        # they land there and leave the General safe
        moves = []
        for sq in position.variant.squares:
            p = board[sq]
            if p and p >> 5 == side and sq != king:
                position._piece_moves(sq, moves, False, ())
        safe = position._safe
        out.extend([m for m in moves if m & 0xFF in answers and safe(m)])
    hand = position.hands[side]
    blocks = [sq for sq in answers if not board[sq]]
    for kind in position.variant.hand_kinds:
        if hand[kind]:
            columns = position._pawn_columns() if kind == PAWN else None
            for sq in blocks:
                if position._drop_ok(kind, sq, True, columns):
                    out.append((kind << 17) | sq)
    return out


def board_moves(position):
    """The legal moves of the pieces on the board, the side to move not being in check."""
    side = position.side
    board = position.board
    king = position.kings[side]
    out = _king_moves(position, king)
    pinned = position._pinned(side)
    for sq in position.variant.squares:
        p = board[sq]
        if p and p >> 5 == side and sq != king:
            position._piece_moves(sq, out, False, pinned)
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
    empty = [sq for sq in variant.squares if not board[sq]]
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


def _king_moves(position, king):
    """The General's moves: each destination tested with the General lifted off its square
    (so a slider's line through it counts), without making the move."""
    board = position.board
    side = position.side
    enemy = 1 - side
    attacked = position._attacked
    general = board[king]
    board[king] = EMPTY
    out = []
    try:
        for d in sided_tables(position.variant, side).steps[KING]:
            to = king + d
            t = board[to]
            if (t == EMPTY or t >> 5 == enemy) and not attacked(to, enemy):
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
        if p >> 5 == enemy and (mask >> (p & 31)) & 1:
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
        if p >> 5 == enemy and (mask >> (p & 31)) & 1:
            checkers += 1
            answers = line + [s]
    return checkers, answers if checkers == 1 else ()


def gives_check(position, m):
    """Does the legal move `m` put the opponent in check? (made, looked at, taken back)"""
    captured = position._make(m)
    check = position.in_check()
    position._unmake(m, captured)
    return check
