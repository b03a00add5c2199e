"""Where the files the host needs at run time are: the firmware the simulator runs and the
board files (hardware/boards/*.json).

In a source checkout they are read where they live (firmware/, hardware/boards/). An
installed wheel carries copies of both inside the yariboard package (yariboard/firmware/,
yariboard/boards/; see setup.py), so the tool works from any folder without the checkout.
Every other module asks here instead of building paths from its own location.
"""
import os
from importlib import resources

CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class UnknownBoard(ValueError):
    """A board name with no board file; the message lists the boards there are."""


def _packaged(name):
    """The folder `name` inside the installed package, or None in a source checkout."""
    folder = resources.files("yariboard").joinpath(name)
    return str(folder) if folder.is_dir() else None


def firmware_dir():
    """The folder holding main.py, boardfw/ and shogicore/, laid out as on the Pico."""
    return _packaged("firmware") or os.path.join(CHECKOUT, "firmware")


def boards_dir():
    """The folder of the board files."""
    return _packaged("boards") or os.path.join(CHECKOUT, "hardware", "boards")


def board_names():
    """The names of every board there is a board file for, sorted: ['shogi-9x9', 'yari-9x7']."""
    return sorted(name[:-len(".json")] for name in os.listdir(boards_dir())
                  if name.endswith(".json"))


def board_file(name):
    """The path of board `name`'s file; a path to a .json file passes through unchanged.

    UnknownBoard names the valid boards when there is no such board.
    """
    if name.endswith(".json"):
        if not os.path.isfile(name):
            raise UnknownBoard("no board file %s" % name)
        return name
    if name not in board_names():
        raise UnknownBoard("unknown board %r; valid boards: %s" % (name, ", ".join(board_names())))
    return os.path.join(boards_dir(), name + ".json")
