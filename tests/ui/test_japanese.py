"""Moves in Japanese for the pages and the voice: Wa Shogi's pieces by their traditional
names. A long random Wa game (every kind, promotions taken and declined, drops, captures on
the square just moved to, files and ranks 10 and 11) is written and read move by move and
compared with what the tests' own table of names (tests/ui/wa_names.py) gives for the move's
USI and Hodges."""
import pytest

from shogicore.move import move_to
from yariboard.ui.japanese import spoken_move, written_move
from tests.ui.wa_names import (WA_BY_HODGES, destination, expected_spoken, expected_written,
                               hodges_piece, random_game)


@pytest.mark.parametrize("variant_name", ["wa", "wa-nodrops"])
def test_wa_moves_are_written_and_read_with_the_pieces_own_names(variant_name):
    plies = random_game(variant_name, seed=11)
    seen = set()
    previous = None
    for position, move, usi, hodges in plies:
        last = position.last_move()
        last_to = None if last is None else move_to(last)
        assert written_move(position, move, last_to) == expected_written(usi, hodges, previous)
        assert spoken_move(position, move, last_to) == expected_spoken(usi, hodges, previous)
        seen.add(hodges_piece(hodges))
        previous = usi
    assert len(seen) >= 17, sorted(set(WA_BY_HODGES) - seen)     # most kinds, some promoted
    assert any("*" in hodges for *_, hodges in plies) == (variant_name == "wa")
    assert any(hodges.endswith("+") for *_, hodges in plies)
    assert any(hodges.endswith("=") for *_, hodges in plies)
    targets = [destination(usi) for _, _, usi, _ in plies]
    assert any(file >= 10 for file, _ in targets) and any(rank >= 10 for _, rank in targets)
    assert any(a == b for a, b in zip(targets, targets[1:]))          # 同: where the last went
