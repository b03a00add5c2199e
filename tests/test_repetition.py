"""Repetition across captures and drops: the span of plies that can repeat does not end at a
capture, as the captured piece can be dropped back. python-shogi is the oracle."""
import shogi

from shogicore import SHOGI, Position

# Black's Rook takes the Pawn on 1e, White's Silver takes the Pawn Black drops there, and
# White drops the Pawn back: ten plies later the board, hands and side to move are as before.
START = "k8/9/9/7s1/8p/9/9/9/8R b - 1"
CYCLE = ["1i1e", "9a8a", "1e1i", "8a9a", "P*1e", "2d1e", "9i8i", "1e2d", "8i9i", "P*1e"]


def test_a_repetition_through_captures_and_drops_is_found_at_the_same_ply_as_the_oracle():
    start = START.replace("8R", "K7R")
    position = Position(SHOGI, start)
    board = shogi.Board(start)
    verdicts = []
    for _ in range(3):
        for usi in CYCLE:
            position.push_usi(usi)
            board.push_usi(usi)
            ours = position.status()
            assert (ours == (None, "repetition")) == board.is_fourfold_repetition(), usi
            verdicts.append(ours)
    assert verdicts[:-1] == [None] * 29                  # the fourth occurrence only
    assert verdicts[-1] == (None, "repetition")
    # taking moves back forgets their positions: the repetition is gone again
    position.pop()
    position.push_usi("P*1e")
    assert position.status() == (None, "repetition")
    for _ in range(10):
        position.pop()
    assert position.status() is None
