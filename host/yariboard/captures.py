"""Legal captures and promotions only, for the engine's quiescence search.

Quiescence looks at nothing else, yet `Position.legal_moves` builds every move, drops
included (often hundreds), before the search throws most of them away. This generator walks
the same movement tables as the rules core but keeps only moves onto an enemy piece and moves
that promote, and pays for the king-safety test (make, look, unmake) only where the core does:
in check, for the General, and for pinned pieces. It lives on the host because the Pico never
searches; the rules core stays the one judge of legality (tests/test_engine_captures.py checks
this generator against independent oracles).
"""
from shogicore.move import PROMOTION
from shogicore.variants import KING

from yariboard.movegen import sided_tables

# The promotion zone is the three farthest ranks, as in Position._add.
_ZONE_DEPTH = 3


def captures_and_promotions(position, in_check=None):
    """Every legal board move of the side to move that captures or promotes (a capture that
    may promote comes both ways, as in `legal_moves`); never a drop. `in_check` may be passed
    when the caller already knows it."""
    board = position.board
    variant = position.variant
    side = position.side
    enemy = 1 - side
    if in_check is None:
        in_check = position.in_check()
    pinned = () if in_check else position._pinned(side)
    tables = sided_tables(variant, side)
    depth = variant.depth[side]
    promote = variant.promote
    forced = variant.forced
    steps, slides, ranges = tables.steps, tables.slides, tables.ranges
    safe = position._safe
    out = []
    append = out.append
    for frm in variant.squares:
        piece = board[frm]
        if not piece or piece >> 5 != side:
            continue
        kind = piece & 31
        test = in_check or kind == KING or frm in pinned
        promotes = promote[kind]
        from_zone = depth[frm] <= _ZONE_DEPTH
        # Candidate destinations with what stands there: an enemy piece, or 0 for an empty
        # square, kept only when this piece may promote there. (0 >> 5 is Black's colour,
        # the wall's colour is 2: hence the explicit emptiness tests.)
        targets = []
        for d in steps[kind]:
            to = frm + d
            t = board[to]
            if t:
                if t >> 5 == enemy:
                    targets.append((to, t))
            elif promotes and (from_zone or depth[to] <= _ZONE_DEPTH):
                targets.append((to, 0))
        for d in slides[kind]:
            to = frm + d
            t = board[to]
            while not t:
                if promotes and (from_zone or depth[to] <= _ZONE_DEPTH):
                    targets.append((to, 0))
                to += d
                t = board[to]
            if t >> 5 == enemy:
                targets.append((to, t))
        for d, reach in ranges[kind]:
            to = frm
            for _ in range(reach):
                to += d
                t = board[to]
                if t:
                    if t >> 5 == enemy:
                        targets.append((to, t))
                    break
                if promotes and (from_zone or depth[to] <= _ZONE_DEPTH):
                    targets.append((to, 0))
        for to, victim in targets:
            can_promote = promotes and (from_zone or depth[to] <= _ZONE_DEPTH)
            m = (frm << 8) | to
            if test and not safe(m):
                continue
            if can_promote:
                if victim and depth[to] > forced[kind]:
                    append(m)
                append(m | PROMOTION)
            else:
                append(m)
    return out
