"""Exceptions of the rules core: each names the problem in its message.

A move's text can fail three ways, as in python-chess: it reads as no move at all
(InvalidMoveError), it names a move the position does not allow (IllegalMoveError), or it
names more than one (AmbiguousMoveError, in the host's yariboard.records.notation: only Hodges
can be ambiguous, and the board, which never writes Hodges, keeps no name it does not use). MoveError, their
root, is what a caller that only reports the message catches; it is raised itself for what
is no move (nothing to take back).
"""


class SfenError(ValueError):
    """A position string that does not describe a legal starting point."""


class MoveError(ValueError):
    """A move that cannot be read or played here."""


class InvalidMoveError(MoveError):
    """A move text that is malformed: no position has a move written so."""


class IllegalMoveError(MoveError):
    """A well-formed move that the position or the game does not allow."""
