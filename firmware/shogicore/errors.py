"""Exceptions of the rules core: each names the problem in its message."""


class SfenError(ValueError):
    """A position string that does not describe a legal starting point."""


class MoveError(ValueError):
    """A move string that is malformed, or a move that is not legal here."""


class NotationError(MoveError):
    """A move in human (Hodges) notation that cannot be read or matched."""
