"""The engine's piece values come from the variant: a table where one was tuned, else a value
derived from how each piece moves, so a variant the engine has never heard of plays."""
import copy

from shogicore.position import Position
from shogicore.variants import variant_by_name

from yariboard.engines.base import Limit
from yariboard.engines.builtin.search import Engine
from yariboard.engines.builtin.tables import TUNED_VALUES, piece_values, tables_for


def _renamed(name, as_name):
    """The rules of `name` under a name no table of the engine knows."""
    variant = copy.copy(variant_by_name(name))
    variant.name = as_name
    return variant


def test_a_variant_without_a_table_is_played_with_values_derived_from_its_moves():
    variant = _renamed("shogi", "shogi-unknown")
    assert variant.name not in TUNED_VALUES
    position = Position(variant)
    result = Engine(seed=1).search(position, Limit(depth=2))
    assert position.is_legal(result.move)
    values = piece_values(variant)
    # the order a shogi player knows, from the moves alone
    assert values["P"] < values["L"] < values["G"] < values["B"] < values["R"] < values["+R"]
    assert values["S"] < values["G"] and values["B"] < values["+B"]
    assert values["K"] == 0
    assert 80 <= values["P"] <= 120     # about a pawn's hundred centipawns


def test_a_capture_of_a_rook_is_preferred_in_a_variant_without_a_table():
    """Derived values still steer the search: with a Rook and a Pawn to take, it takes the
    Rook."""
    variant = _renamed("shogi", "shogi-unknown-2")
    position = Position(variant, "4k4/9/9/2p1r4/3B5/9/9/9/4K4 b - 1")
    result = Engine(seed=1).search(position, Limit(depth=2))
    assert variant.square_name(result.move & 0xFF) == "5d"


def test_every_tuned_variant_keeps_its_own_values():
    for name in ("yari", "shogi", "wa", "wa-nodrops"):
        variant = variant_by_name(name)
        tables = tables_for(variant)
        for kind in variant.kinds:
            symbol = variant.symbol(kind)
            assert tables.worth[kind] == TUNED_VALUES[name][symbol], (name, symbol)
