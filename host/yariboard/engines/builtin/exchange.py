"""What the built-in engine reads from the attacks on a square: the static exchange on it
(who wins what if both sides keep taking) and whether a move gives check."""
from shogicore.move import PROMOTION

from yariboard.engines.builtin.tables import GENERAL_IN_EXCHANGE

# Worth more than any piece in an exchange: where the search for the least attacker starts.
ABOVE_EVERY_WORTH = GENERAL_IN_EXCHANGE + 1


def least_attacker(tables, board, sq, colour):
    """The square of `colour`'s least valuable piece attacking `sq` (the first found of
    equal worth), or -1. The lines are read as `movegen.attackers` reads them, in its order,
    keeping only the least so far: this runs at every round of every exchange."""
    worth = tables.exchange_worth
    steps, slides, ranges = tables.attackers[colour]
    best_sq, best_worth = -1, ABOVE_EVERY_WORTH
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


