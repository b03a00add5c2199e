"""The board's firmware: drivers, interpreter, controller (main.py starts it)."""
import sys

FIRMWARE_VERSION = "0.1.0"   # sent in `hello` and `version` (docs/protocol.md)


def unload(name):
    """Drop module `name` ('shogicore.sfen') if it is loaded: code the board runs only now and
    then (reading the board file, setting up a game) gives its RAM back to the game in
    play, and the next import loads it again."""
    if name in sys.modules:
        del sys.modules[name]
        package, _, module = name.rpartition(".")
        delattr(sys.modules[package], module)
