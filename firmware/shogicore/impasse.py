"""The impasse rule: once both Generals stand in their promotion zones, either side may
declare, and the pieces' points decide (docs/rules.md).

Apart from position.py because a game sees at most one declaration: the board loads this
module for it and unloads it after, so its code takes no RAM while the game is played.
Whether a declaration is allowed at all is Position.can_declare_impasse.
"""
from shogicore.errors import IllegalMoveError
from shogicore.variants import BLACK, WHITE


def impasse_points(position, colour):
    """`colour`'s points: its pieces on the board (promoted ones count as unpromoted) and in
    its hand."""
    v = position.variant
    board = position.board
    total = 0
    for sq in v.squares:
        p = board[sq]
        if p and p >> 5 == colour:
            total += v.points[v.base[p & 31]]
    hand = position.hands[colour]
    for kind in v.hand_kinds:
        total += v.points[kind] * hand[kind]
    return total


def impasse_result(position):
    """(winner, 'impasse') by the point rule; IllegalMoveError when impasse
    cannot be declared."""
    v = position.variant
    if not v.impasse_threshold:
        raise IllegalMoveError("%s has no impasse rule" % v.name)
    if not position.can_declare_impasse():
        raise IllegalMoveError("impasse needs both Generals in their promotion zones")
    short = [impasse_points(position, c) < v.impasse_threshold for c in (BLACK, WHITE)]
    if short[BLACK] and not short[WHITE]:
        return (WHITE, "impasse")
    if short[WHITE] and not short[BLACK]:
        return (BLACK, "impasse")
    return (None, "impasse")
