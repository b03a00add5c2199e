"""CPython's stand-in for MicroPython's built-in `micropython` module, so that the rules core
and board logic the PC shares with the Pico import unchanged. Only const() is needed: on the
Pico, `_NAME = const(7)` is folded into the bytecode and costs no RAM for the name."""


def const(value):
    return value
