"""Hands the board reads with difficulty (docs/firmware-interpreter.md): two moves in one
gesture, the opponent replying before the mover's move had settled (`read_two_moves`); and a
capture made while the board was blind (`look_again`); and the move a tournament game is
lost by (`record_illegal`).

The interpreter loads this module when the board shows such a state, which play brings
rarely, and unloads it after: its code takes no RAM the rest of the time. It reads and
changes the interpreter only through the names its docstring offers friend modules.
"""
from micropython import const

from shogicore.move import make_drop, make_move

# The interpreter's shape codes read here (interpreter.py numbers them; a test checks that
# the two agree).
_LIFT = const(1)
_VICTIM = const(2)
_MOVE = const(3)
_DROP = const(4)
_LIFT_SLACK_MS = const(100)  # a lift is rung this long at most after the hand took the piece


def read_two_moves(it, overlapped):
    """Read the board as the shown move (`it.shown`) plus one legal reply, or, when
    `overlapped` (the shown move's piece stands untouched), plus a reply begun. True if
    the shown move was played and announced; False leaves the game as it was, for the
    interpreter to read the board as before.

    `overlapped` means the mover's hand left that piece where it was, so another hand made
    the rest (the order of the switch events shows it). A board resting in a state no
    single move explains (a take-back of the move before included: a reply onto the square
    that move came from looks just like one) is read the same way.
    """
    frm, to, seq = it.shown
    it.frm = frm
    it.to = to
    it.shape = _MOVE if frm else _DROP
    first = it.candidates()
    if len(first) != 1 or it.ordered not in (None, first[0]):
        return False
    game = it.game
    changed = it.changed_ms
    touched = it.touched[:]
    game.play(first[0])
    # its destination counts as lifted only if touched since it was put down
    it.rebuild(changed, [sq for sq in touched if sq != to] + ([to] if it.when[to] != seq else []))
    shape = it.shape
    if game.result is None and (
            ((shape == _MOVE or shape == _DROP) and it.candidates())
            or (overlapped and (shape == _LIFT or shape == _VICTIM))):
        it.clear_guidance()
        it.emit(("move", first[0]))
        return True  # the reply, complete or in hand, is read as any move is
    game.undo()
    it.rebuild(changed, touched)
    return False


def look_again(it, now_ms, blind_end):
    """The board rests with one piece up (the interpreter's _LIFT). The flash chip stops the
    CPU while it erases a sector (45 ms) and the switches go unread meanwhile (matrix.Watch):
    a capture made inside that stretch (the taken piece lifted, the capturing one put in its
    place) leaves the board reading just this. If the board was blind since that piece was
    lifted (or as it was), the opposing pieces it could have taken, to blink to be lifted
    and put back (FIX_LIFT) so that the board sees which one was taken; else ()."""
    frm = it.frm
    since_lift = (now_ms - it.lifted_ms[frm]) & 0xFFFF
    if (now_ms - blind_end) & 0x3FFFFFFF > since_lift + _LIFT_SLACK_MS:
        return ()
    pos = it.pos
    victims = [sq for sq in it.destinations(frm) if pos.piece_at(sq)]
    if victims:
        it.emit(("refused", "unseen-capture"))
    return victims


def record_illegal(it):
    """Tournament: the mover loses; the move is named when the board shows one. False, and
    nothing recorded, for a piece put down while the mover's hand is empty: not a move of
    the side to move at all, so refused as in casual play."""
    pos = it.pos
    side = pos.side
    m = None
    if it.shape == _MOVE:
        m = make_move(it.frm, it.to)
    else:
        held = [k for k in it.variant.hand_kinds if pos.hand_count(side, k)]
        if not held:
            return False
        if len(held) == 1:
            m = make_drop(held[0], it.to)
    if m is None:
        it.game.illegal(side)
    else:
        it.game.play(m)
    it.emit(("illegal", m))
    return True
