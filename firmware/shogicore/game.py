"""A game: a position plus how it ended (mate, repetition, resignation, impasse, illegal)."""
from shogicore.errors import IllegalMoveError, MoveError
from shogicore.move import parse_usi, to_usi
from shogicore.position import Position
from shogicore.variants import variant_by_name

CASUAL = "casual"
TOURNAMENT = "tournament"


class Game:
    """Rules for a whole game; the board firmware and the host both keep one."""

    def __init__(self, variant="yari", sfen=None, mode=CASUAL, handicap=None):
        self.variant = variant_by_name(variant)
        if mode not in (CASUAL, TOURNAMENT):
            raise ValueError("mode must be %r or %r, got %r" % (CASUAL, TOURNAMENT, mode))
        if handicap:
            if sfen:
                raise ValueError("give a handicap or a position, not both")
            try:
                sfen = self.variant.handicaps[handicap]
            except KeyError:
                raise ValueError("unknown %s handicap %r (known: %s)" % (
                    self.variant.name, handicap, ", ".join(sorted(self.variant.handicaps))))
        self.mode = mode
        self.handicap = handicap
        self.position = Position(self.variant, sfen)
        given = sfen or self.variant.start_sfen
        start = self.position.sfen()
        # written as given (the variant's own start, usually): that one str is kept
        self.start_sfen = given if start == given else start
        self.result = None
        self.illegal_move = None

    def play(self, m):
        """Play `m`. Illegal: IllegalMoveError in casual mode; in tournament mode the mover
        loses."""
        if self.result:
            raise IllegalMoveError("the game is over")
        pos = self.position
        if not pos.is_legal(m):
            if self.mode == TOURNAMENT:
                self.illegal_move = m
                self.result = (1 - pos.side, "illegal-move")
                return self.result
            raise IllegalMoveError("illegal move %s" % to_usi(self.variant, m))
        pos.push(m)
        self.result = pos.status()
        return self.result

    def play_usi(self, text):
        return self.play(parse_usi(self.variant, text))

    def undo(self):
        """Take back the last move (or the illegal one that ended a tournament game)."""
        if self.illegal_move is not None:
            m, self.illegal_move = self.illegal_move, None
        elif self.position.plies:
            m = self.position.pop()
        else:
            raise MoveError("no move to take back")
        self.result = None
        return m

    def resign(self, colour):
        if self.result:
            raise IllegalMoveError("the game is over")
        self.result = (1 - colour, "resignation")
        return self.result

    def declare_impasse(self, colour):
        """Either side may declare once both Generals stand in their promotion zones."""
        if self.result:
            raise IllegalMoveError("the game is over")
        from shogicore.impasse import impasse_result   # (see impasse.py: loaded when used)

        self.result = impasse_result(self.position)
        return self.result

    def illegal(self, colour):
        """A tournament loss for an illegal action the rules core cannot see as a move."""
        self.result = (1 - colour, "illegal-move")
        return self.result
