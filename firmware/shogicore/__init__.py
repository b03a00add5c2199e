"""Rules core shared by the board (MicroPython) and the PC (CPython): see docs/rules-core.md."""
from shogicore.errors import MoveError, NotationError, SfenError
from shogicore.variants import BLACK, SHOGI, WHITE, YARI, variant_by_name
from shogicore.position import EMPTY, Position, piece_colour, piece_kind
from shogicore.game import Game
