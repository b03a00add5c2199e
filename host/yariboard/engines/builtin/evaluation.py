"""The built-in engine's judgement of a position: material and placement (kept up to date
move by move through `move_delta`) and the danger to each General (counted afresh where a
position is judged)."""
from itertools import compress
from operator import getitem

from shogicore.move import PROMOTION
from shogicore.position import piece_colour
from shogicore.variants import BLACK, WHITE

from yariboard.engines.builtin.movegen import INDEXES
from yariboard.engines.builtin.tables import (ATTACKED_SQUARE_NEXT_TO_KING, DANGER_UNIT,
                                              KING_DANGER_CP_PER_UNIT2, KING_DANGER_MAX_CP,
                                              NEIGHBOUR_FIELDS, NEIGHBOUR_FILL, NEIGHBOUR_TOPS,
                                              tables_for)


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


