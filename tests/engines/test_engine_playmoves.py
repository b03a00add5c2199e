"""The search's make and unmake (yariboard.engines.builtin.playmoves) against the rules core's `make` and
`unmake`: in random games of every variant, every legal move, made and taken back, and
random lines of moves made one after another and taken back in turn, must leave the board,
hands, Generals, side and hash exactly as the core's leave them (the core is held to
pyffish, python-shogi and CrazyWa by its own tests)."""
import random

import pytest

from shogicore import Position, variant_by_name
from shogicore.move import PROMOTION
from yariboard.engines.builtin.playmoves import make_unmake

VARIANTS = ("yari", "shogi", "wa", "wa-nodrops")
GAMES = 6
LINE = 12


def state(position):
    return (bytes(position.board), [list(hand) for hand in position.hands],
            list(position.kings), position.side, position.hash)


def random_positions(variant, seed):
    """Positions of a seeded random game (captures taken when offered, so the hands fill),
    each given once, as the game goes on."""
    rng = random.Random(seed)
    position = Position(variant_by_name(variant))
    for _ in range(120):
        moves = position.legal_moves()
        if not moves:
            return
        yield position
        captures = [m for m in moves if m & 0xFF00 and position.board[m & 0xFF]]
        position.push(rng.choice(captures if captures and rng.random() < 0.7 else moves))


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_move_made_and_taken_back_as_the_core_does(variant):
    made = drops = captures = promotions = 0
    for seed in range(GAMES):
        for position in random_positions(variant, seed):
            twin = position.copy()
            make, unmake = make_unmake(position)
            before = state(position)
            for m in position.legal_moves():
                captured = make(m)
                core_captured = twin.make(m)
                assert (captured, state(position)) == (core_captured, state(twin)), m
                unmake(m, captured)
                twin.unmake(m, core_captured)
                assert state(position) == state(twin) == before, m
                made += 1
                drops += not m & 0xFF00
                captures += bool(captured)
                promotions += bool(m & PROMOTION)
    assert made > 1000 and captures > 50 and promotions > 20
    assert drops > 100 or variant == "wa-nodrops"


@pytest.mark.parametrize("variant", VARIANTS)
def test_lines_of_moves_taken_back_in_turn(variant):
    rng = random.Random(variant)
    lines = deep = 0
    for seed in range(GAMES):
        for position in random_positions(variant, 100 + seed):
            if rng.random() > 0.2:
                continue
            twin = position.copy()
            make, unmake = make_unmake(position)
            played = []
            for _ in range(LINE):
                moves = position.legal_moves()
                if not moves:
                    break
                m = rng.choice(moves)
                played.append((m, make(m), twin.make(m)))
                assert state(position) == state(twin)
            for m, captured, core_captured in reversed(played):
                unmake(m, captured)
                twin.unmake(m, core_captured)
                assert state(position) == state(twin)
            lines += 1
            deep += len(played) == LINE
    assert lines >= 10 and deep >= 10
