"""The entering-king declaration as CSA servers and Japanese rules judge it (27-point rule).

The side to move declares a win when its king stands in the enemy camp, not in check, with
at least ten more of its pieces there, and enough points counting those pieces and its hand
(rook and bishop 5, the others 1): 28 for Black, 27 for White. This is the rule of the
records the shogi world writes (%KACHI, 入玉勝ち); the board's own impasse rule, where both
Generals must be in their zones, is shogicore's and is judged apart.
"""
from shogicore.variants import BLACK

NEEDED_POINTS = {BLACK: 28, 1: 27}
PIECES_IN_ZONE = 10


def declaration_wins(position):
    """True when the side to move may declare a win by the rule above."""
    v = position.variant
    side = position.side
    depth = v.depth[side]
    king = position.kings[side]
    if not king or depth[king] > 3 or position.in_check():   # 0: no king to enter
        return False
    board = position.board
    in_zone = [sq for sq in v.squares
               if sq != king and board[sq] and board[sq] >> 5 == side and depth[sq] <= 3]
    if len(in_zone) < PIECES_IN_ZONE:
        return False
    points = sum(v.points[v.base[board[sq] & 31]] for sq in in_zone)
    points += sum(v.points[kind] * position.hands[side][kind] for kind in v.hand_kinds)
    return points >= NEEDED_POINTS[side]
