"""Keep the archive equal to the board's game: every committed move exactly once.

The board is the source of truth during play (docs/protocol.md). The recorder stores each
`move N` event as ply N of the board's game (the archive ignores a ply it already holds),
and after any connect, reboot (`hello`) or lost frame it resynchronises: `state`, `start`
for a game it has not seen, then `history` from the first ply it lacks, and it checks
that its replay reaches the position the board reported. Moves the board took back are
removed; moves played while the host was away are fetched.

Nothing the board says reaches the archive unchecked (yariboard.board.replies): a history is
replayed by the rules and must reach the reported position before any of it is stored, and
events are checked the same way. A reply that fails is a link fault: logged, counted in
`faults`, followed by a resync; never stored and never raised out of step().

A game enters the archive with its first move, its result, or when it starts from a
set-up position (a handicap, a position from SFEN): opening a session on a board that
waits at the start position stores nothing. While another program holds the archive's
write lock, moves wait in order in `queued` and are written as soon as the lock is free;
play goes on meanwhile.
"""
import dataclasses
import logging

from shogicore.errors import MoveError
from shogicore.position import Position
from shogicore.variants import variant_by_name

from boardfw import protocol
from yariboard.board import replies
from yariboard.records.archive import ArchiveBusy
from yariboard.board.link import Disconnected, LinkError
from yariboard.records.game import GameRecord, MoveRecord, clean_name, now_stamp
from yariboard.board.replies import BadReply

log = logging.getLogger(__name__)

RESULT_WORDS = ("black", "white")
# A locked archive holds the game up no longer than this per try: moves queue instead.
ARCHIVE_WAIT_S = 0.05


def result_fields(word):
    """Protocol result word -> (winner, reason) as the archive stores them."""
    result = protocol.parse_result(word)
    if result is None:
        return "", ""
    winner, reason = result
    return ("draw" if winner is None else RESULT_WORDS[winner]), reason


class Recorder:
    """Follows one board through a link and writes what it learns to an archive."""

    def __init__(self, link, archive, black="", white="", on_change=None):
        self.link = link
        self.archive = archive
        archive.wait_when_busy(ARCHIVE_WAIT_S)
        self.names = (clean_name(black), clean_name(white))   # typed live: made storable
        self.on_change = on_change       # called after anything about the game changed
        self.game_id = None              # None until the followed game is in the archive
        self.header = None               # the followed game's headers (GameRecord, no moves)
        self.queued = []                 # (ply, usi, at) of moves waiting for the archive
        self.status_before_busy = None   # the link's status line while the archive is locked
        self.board_game = None
        self.variant = None
        self.position = None             # the board's current position, replayed here
        self.result = "-"
        self.last_event = None
        self.faults = 0                  # replies and events refused as link faults

    # -- the loop -------------------------------------------------------------------------

    def step(self, timeout=0.05):
        """Connect if needed, resynchronise if needed, handle the events of `timeout` s.

        Returns the events handled. A lost link is not an error here: the next step
        reconnects (waiting for the board to come back).
        """
        try:
            if not self.link.connected():
                self.link.connect(timeout=0)
            if self._flush() and self.link.needs_resync:
                self.resync()
            events = self.link.poll(timeout)
            for event in events:
                self.handle(*event)
            if self.link.needs_resync and self._flush():
                self.resync()
            if not self.queued and not self.link.needs_resync:
                self._archive_free()
            return events
        except Disconnected:
            return []
        except ArchiveBusy:
            # resynchronise once the archive is free: that redoes whatever was cut short
            self.link.want_resync()
            self._archive_busy()
            return []
        except BadReply as error:
            self._fault(error)
            return []
        except LinkError as error:
            self.link.set_status("waiting for the board: %s" % str(error).split("\n")[0])
            return []

    # -- resynchronising ------------------------------------------------------------------

    def _fault(self, error):
        self.faults += 1
        self.link.want_resync()
        self.link.set_status("link fault (resynchronising): %s" % error)
        log.warning("board reply refused: %s", error)

    def resync(self):
        """Catch up with the board; the archive changes only once the board's whole story
        (start, moves, position, result) has been checked."""
        self.link.resync_begins()
        state = replies.state(self.link.request("state"))
        game_id = self.archive.find_board_game(state.game_id)
        if game_id is None:
            start_sfen = replies.start(self.link.request("start"), state)
            if start_sfen is None:
                self.link.want_resync()        # a new game began meanwhile
                return
            stored = []
        else:
            record = self.archive.game(game_id)
            start_sfen, stored = record.start_sfen, [entry.usi for entry in record.moves]
        moves = self._board_moves(state, start_sfen, stored[:state.ply])
        if moves is None:
            return
        if game_id is None:
            self._follow_new(state.game_id, state.variant, state.mode, start_sfen)
        else:
            self._follow(game_id, state.game_id, state.variant)
        keep = 0
        while keep < min(len(stored), len(moves)) and stored[keep] == moves[keep]:
            keep += 1
        if len(stored) > keep:
            self.archive.truncate(self.game_id, keep)
        for ply in range(keep + 1, len(moves) + 1):
            self._store_game()
            self.archive.add_move(self.game_id, ply, moves[ply - 1], now_stamp())
        self._replay()
        self._set_result(state.result)
        self._changed()

    def _board_moves(self, state, start_sfen, known):
        """The board's moves, checked: legal from `start_sfen` and reaching state.sfen.
        Tries `known` (what the archive holds) plus the rest first, then the whole history.
        None if the board began another game meanwhile; BadReply if no history fits."""
        for prefix in ((known, []) if known else ([],)):
            fetched = self._fetch(state, len(prefix) + 1)
            if fetched is None:
                return None
            moves = prefix + fetched
            position = Position(variant_by_name(state.variant), start_sfen)
            try:
                for usi in moves:
                    position.push_usi(usi)
            except (MoveError, ValueError) as error:
                if not prefix:
                    raise BadReply("history holds an impossible move: %s" % error)
                continue
            if position.sfen() == state.sfen:
                return moves
        raise BadReply("board history does not reach its position %s" % state.sfen)

    def _fetch(self, state, first):
        """Moves `first`..state.ply from `history` replies; None if the game changed."""
        moves = []
        ply = first
        while ply <= state.ply:
            board_game, batch = replies.history(self.link.request("history", ply), ply)
            if board_game != state.game_id:
                self.link.want_resync()        # a new game began meanwhile
                return None
            if not batch:
                raise BadReply("history ends at ply %d, the board reported %d"
                               % (ply - 1, state.ply))
            moves.extend(batch[:state.ply - ply + 1])
            ply += len(batch)
        return moves

    def _follow_new(self, board_game, variant, mode, start_sfen):
        """Follow a game the archive does not have; store it now only if it is set up."""
        rules = variant_by_name(variant)
        handicap = next((name for name, sfen in sorted(rules.handicaps.items())
                         if sfen == start_sfen), "")
        self._follow(None, board_game, variant)
        self.header = GameRecord(variant=variant, start_sfen=start_sfen, black=self.names[0],
                                 white=self.names[1], date=now_stamp(), handicap=handicap,
                                 mode=mode, board_game=board_game)
        if start_sfen != rules.start_sfen:
            self._store_game()

    def _follow(self, game_id, board_game, variant):
        self.game_id, self.board_game, self.variant = game_id, board_game, variant
        self.header = None
        self.queued = []

    def _store_game(self):
        """Put the followed game's headers in the archive if they are not there yet."""
        if self.game_id is None:
            self.game_id = self.archive.new_game(self.header)

    def stored_count(self):
        """How many moves of the followed game the archive holds."""
        return self.archive.move_count(self.game_id) if self.game_id is not None else 0

    def _known_usi(self, ply):
        """The move at `ply` as stored or queued."""
        stored = self.stored_count()
        if ply <= stored:
            return self.archive.game(self.game_id).moves[ply - 1].usi
        return self.queued[ply - stored - 1][1]

    def _flush(self):
        """Write the queued moves; False while the archive stays locked (they keep waiting)."""
        try:
            while self.queued:
                self._store_game()
                self.archive.add_move(self.game_id, *self.queued[0])
                self.queued.pop(0)
        except ArchiveBusy:
            self._archive_busy()
            return False
        return True

    def _archive_busy(self):
        """Say on the status line that the archive is locked and what waits for it."""
        if self.status_before_busy is None:
            self.status_before_busy = self.link.status
        self.link.set_status("archive locked by another program: %d move(s) waiting" % len(self.queued))

    def _archive_free(self):
        """Put the link's own status back, unless the link has said something newer."""
        if self.status_before_busy is not None:
            if self.link.status.startswith("archive locked"):
                self.link.set_status(self.status_before_busy)
            self.status_before_busy = None

    def _replay(self):
        record = self.record()
        position = Position(variant_by_name(record.variant), record.start_sfen)
        for entry in record.moves:
            position.push_usi(entry.usi)
        self.position = position

    def _set_result(self, word):
        self.result = word
        winner, reason = result_fields(word)
        if self.game_id is None and not winner:
            return
        self._store_game()
        stored = self.archive.game(self.game_id)
        if (stored.winner, stored.reason) != (winner, reason):
            self.archive.finish(self.game_id, winner, reason)

    def _changed(self):
        if self.on_change:
            self.on_change(self)

    # -- events ---------------------------------------------------------------------------

    def handle(self, verb, words):
        self.last_event = (verb, words)
        if self.board_game is None and verb in ("move", "undo", "end"):
            self.link.want_resync()
            return
        try:
            if verb == "move":
                self._on_move(replies.ply(words[0]), words[1], words[2:6])
            elif verb == "undo":
                self._on_undo(replies.ply(words[0]), words[1:5])
            elif verb == "new":
                self._on_new(replies.game_id(words[0]), words[1], replies.mode(words[2]),
                             words[3:7])
            elif verb == "end":
                self._set_result(replies.result(words[0]))
            elif verb == "hello":
                self.link.want_resync()
        except IndexError:
            self._fault(BadReply("%s event too short: %r" % (verb, " ".join(words))))
        except BadReply as error:
            self._fault(error)                       # trust the checked history instead
        self._changed()

    def _on_move(self, ply, usi, sfen_words):
        sfen = replies.sfen(self.position.variant, sfen_words)
        have = self.stored_count() + len(self.queued)
        if ply <= have:
            if self._known_usi(ply) != usi:
                self.link.want_resync()
            return
        if ply != have + 1:
            self.link.want_resync()            # we missed moves: fetch them
            return
        try:
            self.position.push_usi(usi)
        except ValueError:
            raise BadReply("move event with an impossible move %r" % usi)
        if self.position.sfen() != sfen:
            self.position.pop()
            self.link.want_resync()
            return
        self.queued.append((ply, usi, now_stamp()))
        self._flush()

    def _on_undo(self, ply, sfen_words):
        sfen = replies.sfen(self.position.variant, sfen_words)
        if ply != self.stored_count() + len(self.queued) or ply < 1:
            self.link.want_resync()            # not our last move: ask the board
            return
        position = self.position.copy()
        position.pop()
        if position.sfen() != sfen:
            raise BadReply("undo event to %s, but taking back ply %d gives %s"
                           % (sfen, ply, position.sfen()))
        stored = self.stored_count()
        del self.queued[max(0, ply - 1 - stored):]
        if stored >= ply:
            self.archive.truncate(self.game_id, ply - 1)
        self._replay()
        if self.result != "-":
            self._set_result("-")

    def _on_new(self, board_game, variant, mode, sfen_words):
        rules = replies.variant(variant)
        sfen = replies.sfen(rules, sfen_words)
        variant = rules.name
        if not self._flush():
            self.link.want_resync()            # the last game's moves first
            return
        game_id = self.archive.find_board_game(board_game)
        if game_id is None:
            self._follow_new(board_game, variant, mode, sfen)
        else:
            self._follow(game_id, board_game, variant)
        self._replay()
        self.result = "-"
        if self.stored_count():
            self.link.want_resync()

    # -- what the view needs --------------------------------------------------------------

    def record(self):
        """The followed game as far as known: stored moves, then the queued ones (None
        before the board was first heard). A game not yet stored has no id."""
        if self.game_id is not None:
            record = self.archive.game(self.game_id)
        elif self.header is not None:
            record = dataclasses.replace(self.header, moves=[])
        else:
            return None
        record.moves += [MoveRecord(usi, at) for _, usi, at in self.queued]
        return record
