"""Reads a board file: the firmware's view (boardfw.config) plus the facts only the build needs."""
import json

from boardfw import config


class BuildFacts:
    """Board-file keys the firmware ignores: square size and number of pieces (magnets)."""

    def __init__(self, data, source):
        square = data.get("square_mm")
        if (not isinstance(square, list) or len(square) != 2
                or not all(isinstance(v, (int, float)) and v > 0 for v in square)):
            raise ValueError("%s: square_mm must be [width, height] in mm" % source)
        pieces = data.get("pieces")
        if not isinstance(pieces, int) or pieces <= 0:
            raise ValueError("%s: pieces must be the number of pieces in a set" % source)
        self.square_width_mm, self.square_height_mm = square
        self.pieces = pieces


def load(path):
    """(board.Board, BuildFacts) for the board file at `path`."""
    board = config.load(path)
    with open(path) as stream:
        facts = BuildFacts(json.load(stream), path)
    return board, facts
