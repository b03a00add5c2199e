"""Mate search (tsume): a sequence of checks that mates whatever the defender answers, as a
shogi GUI asks for it with USI `go mate`.

Depth-first proof-number search (df-pn, Nagai 2002): at the attacker's turn only the checks
are moves, at the defender's every legal answer. Each position carries a proof number (how
many positions at least must still be shown mated to prove a mate from it) and a disproof
number (the same for an escape); the search always goes down the line that is cheapest to
settle, within thresholds that send it back up as soon as another line becomes cheaper. The
numbers are kept in a table by position, so lines that meet are settled once. A position met
again on the line is an escape (a perpetual check does not mate), and so is a line longer
than MAX_MATE_PLIES. The moves, and whether a move checks, are the engine's own (`movegen`,
`exchange`), held to the rules core by its tests: a pawn drop that mates is never played.
"""
import time

from yariboard.engines.builtin.exchange import gives_check
from yariboard.engines.builtin.movegen import legal_moves
from yariboard.engines.builtin.playmoves import make_unmake
from yariboard.engines.builtin.search import refuse_kingless
from yariboard.engines.builtin.tables import tables_for

INFINITE = 10 ** 9
# The longest line searched, in plies, and how often (in positions) the clock is read.
MAX_MATE_PLIES = 63
CLOCK_CHECK_NODES = 128
# Settled positions kept at most: past it the table starts again (the search goes on).
TABLE_MAX_ENTRIES = 1 << 20
PROVEN, DISPROVEN = (0, INFINITE), (INFINITE, 0)


class MateTimeout(Exception):
    """The time ran out, or a stop was asked for, before the search settled."""


class MateSearch:
    """One mate search of `position` for its side to move; `run()` answers."""

    def __init__(self, position, seconds=None, stop_event=None):
        refuse_kingless(position)
        self.pos = position.copy()
        self.make, self.unmake = make_unmake(self.pos)
        self.tables = tables_for(position.variant)
        self.deadline = time.monotonic() + seconds if seconds is not None else None
        self.stop_event = stop_event
        self.nodes = 0
        self.table = {}     # position -> (proof number, disproof number)
        self.line = set()   # positions on the line searched

    def run(self):
        """The mating moves (the attacker's and the defender's in turn), or None when there is
        no mate within MAX_MATE_PLIES. MateTimeout when the time runs out first."""
        self._search(True, INFINITE - 1, INFINITE - 1, 0)
        if self.table[self._key()][0] != 0:
            return None
        return self._proof_line()

    def _key(self):
        pos = self.pos
        return pos.hash, bytes(pos.board)

    def _count(self):
        self.nodes += 1
        if self.nodes % CLOCK_CHECK_NODES == 0:
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise MateTimeout()
            if self.stop_event is not None and self.stop_event.is_set():
                raise MateTimeout()

    def _moves(self, attacking):
        """The attacker's checks, or every answer of the defender (who is in check)."""
        pos = self.pos
        if not attacking:
            return legal_moves(pos, True)
        tables = self.tables
        return [m for m in legal_moves(pos, pos.in_check()) if gives_check(tables, pos, m)]

    def _numbers(self, key):
        """A position's numbers: from the table, an escape if it is already on the line,
        else those of a position not yet searched."""
        if key in self.line:
            return DISPROVEN
        return self.table.get(key, (1, 1))

    def _search(self, attacking, proof_limit, disproof_limit, ply):
        """Search the position until its proof number reaches `proof_limit` or its disproof
        number `disproof_limit`; its numbers are then in the table."""
        self._count()
        key = self._key()
        moves = self._moves(attacking)
        if not moves:     # no check: an escape; no answer: mated
            self._store(key, DISPROVEN if attacking else PROVEN)
            return
        if ply >= MAX_MATE_PLIES:
            self._store(key, DISPROVEN)
            return
        self.line.add(key)
        after = self._after(moves)
        while True:
            children = [self._numbers(child) + (m,) for child, m in after]
            proof, disproof, best, second = _combine(children, attacking)
            if proof >= proof_limit or disproof >= disproof_limit:
                break
            child_proof, child_disproof, m = children[best]
            if attacking:   # the child's numbers are the defender's: its proof is the goal
                limits = (min(proof_limit, second + 1),
                          disproof_limit - disproof + child_disproof)
            else:
                limits = (proof_limit - proof + child_proof,
                          min(disproof_limit, second + 1))
            captured = self.make(m)
            self._search(not attacking, limits[0], limits[1], ply + 1)
            self.unmake(m, captured)
        self.line.discard(key)
        self._store(key, (proof, disproof))

    def _after(self, moves):
        """(the key of the position after it, move) of each move."""
        after = []
        make, unmake = self.make, self.unmake
        for m in moves:
            captured = make(m)
            after.append((self._key(), m))
            unmake(m, captured)
        return after

    def _children(self, moves):
        """(proof, disproof, move) of the position after each move, from the table."""
        return [self._numbers(key) + (m,) for key, m in self._after(moves)]

    def _store(self, key, numbers):
        if len(self.table) >= TABLE_MAX_ENTRIES:
            self.table.clear()
        self.table[key] = numbers

    def _proof_line(self):
        """The mate the table proves, from the root: the attacker's proven check, and of the
        defender's answers the one whose proof goes on longest (all are proven)."""
        line, seen = [], set()
        attacking = True
        while True:
            key = self._key()
            if key in seen or len(line) > MAX_MATE_PLIES:
                raise MateTimeout()   # the table no longer holds the proof in full
            seen.add(key)
            moves = self._moves(attacking)
            if not moves:
                break
            proven = [m for proof, _, m in self._children(moves) if proof == 0]
            if not proven or not attacking and len(proven) < len(moves):
                raise MateTimeout()
            m = proven[0] if attacking else self._longest_answer(proven)
            line.append(m)
            self.make(m)
            attacking = not attacking
        return line

    def _longest_answer(self, answers):
        """Of the defender's answers (all proven mated), the one after which the attacker's
        proven checks are fewest: a stand-in for the longest resistance, read from the table
        without searching again."""
        def room(m):
            captured = self.make(m)
            checks = self._moves(True)
            unproven = sum(1 for proof, _, _ in self._children(checks) if proof != 0)
            self.unmake(m, captured)
            return unproven
        return max(answers, key=room)


def _combine(children, attacking):
    """(proof, disproof, index of the child to search, the second-best child's number) of a
    position from its children's numbers. The attacker needs one child proven (its proof
    number is the least of theirs, its disproof number their sum), the defender all."""
    if attacking:
        ranked = sorted(range(len(children)), key=lambda i: children[i][0])
        proof = children[ranked[0]][0]
        disproof = min(INFINITE, sum(child[1] for child in children))
        second = children[ranked[1]][0] if len(ranked) > 1 else INFINITE
    else:
        ranked = sorted(range(len(children)), key=lambda i: children[i][1])
        disproof = children[ranked[0]][1]
        proof = min(INFINITE, sum(child[0] for child in children))
        second = children[ranked[1]][1] if len(ranked) > 1 else INFINITE
    return proof, disproof, ranked[0], second
