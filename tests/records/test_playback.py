"""The records' own move check (playback.RecordPosition.allows) against the rules core's
list of legal moves, and the walk writers take through checked records."""
import random

import pytest

from shogicore.move import PROMOTION
from shogicore.position import Position
from yariboard.records.game import GameRecord, MoveRecord, RecordError, replay, walk
from yariboard.records.playback import RecordPosition


def random_positions(variant, count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        position = RecordPosition(variant)
        for _ in range(rng.randint(0, 160)):
            legal = position.legal_moves()
            if not legal or position.status():
                break
            position.push(rng.choice(legal))
        yield position


@pytest.mark.parametrize("variant", ["shogi", "yari", "wa", "wa-nodrops"])
def test_allows_exactly_the_legal_board_moves_and_drops(variant):
    for position in random_positions(variant, 6, seed=len(variant)):
        squares = position.variant.squares
        board_moves = [(frm << 8) | to | promote for frm in squares for to in squares
                       for promote in (0, PROMOTION)]
        drops = [(kind << 17) | to | promote for kind in position.variant.kinds for to in squares
                 for promote in (0, PROMOTION)]
        allowed = {m for m in board_moves + drops if position.allows(m)}
        assert allowed == set(position.legal_moves()), position.sfen()


def test_allows_refuses_what_is_no_move_at_all():
    position = RecordPosition("shogi")
    assert not position.allows(0)                       # no origin, no kind
    assert not position.allows((1 << 8) | 2)            # from and to the padding
    assert not position.allows((1 << 23) | (0x70 << 8) | 0x60)   # bits past the move's


def test_walk_gives_the_position_replay_gives():
    record = GameRecord(variant="shogi", start_sfen=RecordPosition("shogi").sfen(),
                        date="2025-01-02T10:00:00Z",
                        moves=[MoveRecord(usi, "2025-01-02T10:00:0%dZ" % n)
                               for n, usi in enumerate(["7g7f", "3c3d", "8h2b+", "3a2b"], 1)])
    seen = []
    final = walk(record, lambda index, position, move: seen.append((index, position.sfen())))
    expected = []
    checked = replay(record, lambda index, position, move: expected.append((index, position.sfen())))
    assert seen == expected and final.sfen() == checked.sfen()


def test_walk_refuses_a_move_of_a_piece_the_mover_does_not_have():
    record = GameRecord(variant="shogi", start_sfen=RecordPosition("shogi").sfen(),
                        date="2025-01-02T10:00:00Z",
                        moves=[MoveRecord("3c3d", "2025-01-02T10:00:01Z")])   # White's pawn
    with pytest.raises(RecordError, match="move 1 \\(3c3d\\)"):
        walk(record, lambda index, position, move: None)
    record.moves = [MoveRecord("P*5e", "2025-01-02T10:00:01Z")]             # an empty hand
    with pytest.raises(RecordError, match="move 1 \\(P\\*5e\\)"):
        walk(record, lambda index, position, move: None)


@pytest.mark.parametrize("variant", ["shogi", "yari", "wa"])
def test_a_position_set_up_from_a_remembered_start_is_the_one_read_from_its_sfen(variant):
    rng = random.Random(7)
    for _ in range(3):
        first, again = RecordPosition(variant), RecordPosition(variant)   # read, then copied
        reference = Position(variant)
        for _ in range(40):
            legal = reference.legal_moves()
            if not legal:
                break
            move = rng.choice(legal)
            for position in (first, again, reference):
                position.push(move)
        assert again.sfen() == reference.sfen() and again.hash == reference.hash
        assert first.board == reference.board and again.status() == reference.status()


def checking_games(variant, seed, count=12):
    """(RecordPosition, the core's Position) after each move of random games that give check
    often: checks, and pieces pinned to their General, are where the fast tests can err."""
    rng = random.Random(seed)
    for _ in range(count):
        fast, core = RecordPosition(variant), Position(variant)
        for _ in range(rng.randint(20, 160)):
            legal = core.legal_moves()
            if not legal or core.status():
                break
            checking = [m for m in legal if gives_check(core, m)]
            move = rng.choice(checking if checking and rng.random() < 0.4 else legal)
            fast.push(move)
            core.push(move)
            yield fast, core, move


def gives_check(position, move):
    position.push(move)
    checked = position.in_check()
    position.pop()
    return checked


@pytest.mark.parametrize("variant", ["shogi", "yari", "wa", "wa-nodrops"])
def test_check_after_each_move_is_the_cores(variant):
    """push asks in_check only where the move can give check (the piece moved, the line it
    opened): the answer after every move, against the core's."""
    checks = 0
    for fast, core, move in checking_games(variant, seed=len(variant) * 7):
        assert fast.checked == core.in_check(), (core.sfen(), move)
        checks += core.in_check()
    assert checks > 50


@pytest.mark.parametrize("variant", ["shogi", "yari", "wa", "wa-nodrops"])
def test_allows_the_legal_moves_of_pinned_and_checked_pieces(variant):
    """A piece that shields its General is made and unmade only when an enemy piece stands
    behind it: the moves of every piece, every few moves of such games, against the core."""
    pinned = 0
    for ply, (fast, core, _) in enumerate(checking_games(variant, seed=len(variant) * 11, count=8)):
        if ply % 2:
            continue
        squares = core.variant.squares
        own = [sq for sq in squares if core.board[sq] and core.board[sq] >> 5 == core.side]
        tried = [(frm << 8) | to | promote for frm in own for to in squares for promote in (0, PROMOTION)]
        legal = set(core.legal_moves())
        assert {m for m in tried if fast.allows(m)} == {m for m in tried if m in legal}, core.sfen()
        pinned += len(core._pinned(core.side))
    assert pinned > 0
