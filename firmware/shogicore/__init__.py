"""Rules core shared by the board (MicroPython) and the PC (CPython): see docs/rules-core.md."""
from shogicore.errors import IllegalMoveError, InvalidMoveError, MoveError, SfenError
from shogicore.variants import BLACK, WHITE, variant_by_name
from shogicore.position import EMPTY, Position, piece_colour, piece_kind
from shogicore.game import Game


def __getattr__(name):
    """YARI and SHOGI, built on first use (a Yari board never builds shogi's tables)."""
    if name == "YARI" or name == "SHOGI":
        return variant_by_name(name.lower())
    raise AttributeError(name)
