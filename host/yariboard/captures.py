"""Legal captures and promotions only, for the engine's quiescence search.

Quiescence looks at nothing else, yet `Position.legal_moves` builds every move, drops
included (often hundreds), before the search throws most of them away. This generator reads
the rules core's movement tables, as `movegen.move_lines` lays them out per square, but keeps
only moves onto an enemy piece and moves that promote, and pays for the king-safety test
(make, look, unmake) only where the core does: in check, for the General, and for pinned
pieces. It lives on the host because the Pico never searches; the rules core stays the one
judge of legality (tests/test_engine_captures.py checks this generator against independent
oracles).
"""
from shogicore.move import PROMOTION

from yariboard.movegen import move_lines, own_squares


def captures_and_promotions(position, in_check=None):
    """Every legal board move of the side to move that captures or promotes (a capture that
    may promote comes both ways, as in `legal_moves`); never a drop. `in_check` may be passed
    when the caller already knows it."""
    board = position.board
    side = position.side
    enemy = 1 - side
    king = position.kings[side]
    if in_check is None:
        in_check = position.in_check()
    pinned = () if in_check else position._pinned(side)
    lines = move_lines(position.variant, side)
    safe = position._safe
    out = []
    append = out.append
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
            elif promotion[to]:
                targets.append((to, 0))
        for ray in rays:
            for to in ray:
                t = board[to]
                if t:
                    if t >> 5 == enemy:
                        targets.append((to, t))
                    break
                if promotion[to]:
                    targets.append((to, 0))
        test = in_check or frm == king or frm in pinned
        for to, victim in targets:
            m = (frm << 8) | to
            if test and not safe(m):
                continue
            can_promote = promotion[to]
            if can_promote:
                if victim and can_promote != 2:
                    append(m)
                append(m | PROMOTION)
            else:
                append(m)
    return out
