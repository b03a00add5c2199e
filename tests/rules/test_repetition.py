"""Repetition across captures and drops: the span of plies that can repeat does not end at a
capture, as the captured piece can be dropped back. python-shogi is the oracle."""
import shogi

from shogicore import SHOGI, Position
from shogicore.move import to_usi

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


def test_positions_that_share_the_low_16_bits_of_their_hash_are_no_repetition():
    # The history keeps 16 bits of each hash; a match there is confirmed on the whole hash,
    # by taking moves back and replaying them. Here the stored bits of three earlier
    # positions are made to match the current one, as a collision would.
    position = Position(SHOGI, START.replace("8R", "K7R"))
    for usi in CYCLE[:8]:
        position.push_usi(usi)
    sfen, plies, full_hash = position.sfen(), position.plies, position.hash
    for ply in (0, 2, 4):
        chunk = position._history[ply // 16]
        chunk[ply % 16 * 3 + 2] = full_hash & 0xFFFF
    assert position.status() is None
    assert (position.sfen(), position.plies, position.hash) == (sfen, plies, full_hash)
    assert [to_usi(SHOGI, m) for m in position.moves()] == CYCLE[:8]
