"""The promotion zone's depth is the variant's `promotion_ranks`, read by the rules core and
the engine's move generator alike: a variant with a shallower zone needs no other edit."""
import importlib

import pytest

from shogicore import Position
from shogicore.move import to_usi
from yariboard.engines.builtin.movegen import legal_moves

# Black's pawn on 7d may step to 7c: the third rank from White's side.
SFEN = "3k3/7/7/P6/7/7/7/7/3K3 b - 1"


def fresh_yari(promotion_ranks):
    """A Yari variant built anew (the cached one is left alone) with its zone changed."""
    variant = importlib.import_module("shogicore.yari_tables").build()
    variant.promotion_ranks = promotion_ranks
    return variant


def pawn_moves(position, generate):
    return sorted(usi for usi in (to_usi(position.variant, m) for m in generate(position))
                  if usi.startswith("7d"))


@pytest.mark.parametrize("ranks, expected", [(3, ["7d7c", "7d7c+"]), (2, ["7d7c"])])
def test_the_zone_depth_comes_from_the_variant(ranks, expected):
    position = Position(fresh_yari(ranks), SFEN)
    assert pawn_moves(position, Position.legal_moves) == expected
    assert pawn_moves(position, lambda p: legal_moves(p, False)) == expected


def test_every_variant_names_its_zone():
    from shogicore import variant_by_name
    for name in ("yari", "shogi", "wa", "wa-nodrops"):
        assert variant_by_name(name).promotion_ranks == 3
