"""Keep the archive equal to the board's game: every committed move exactly once.

The board is the source of truth during play (docs/protocol.md). The recorder stores each
`move N` event as ply N of the board's game (the archive ignores a ply it already holds),
and after any connect, reboot (`hello`) or lost frame it resynchronises: `state`, `start`
for a game it has not seen, then `history` from the first ply it lacks, and it checks
that its replay reaches the position the board reported. Moves the board took back are
removed; moves played while the host was away are fetched.

A game enters the archive with its first move, its result, or when it starts from a
set-up position (a handicap, a position from SFEN): opening a session on a board that
waits at the start position stores nothing. While another program holds the archive's
write lock, moves wait in order in `queued` and are written as soon as the lock is free;
play goes on meanwhile.
"""
import dataclasses

from shogicore.position import Position
from shogicore.variants import variant_by_name

from boardfw import protocol
from yariboard.archive import ArchiveBusy
from yariboard.link import Disconnected, LinkError
from yariboard.records import GameRecord, MoveRecord, now_stamp

RESULT_WORDS = ("black", "white")
# A locked archive holds the game up no longer than this per try: moves queue instead.
ARCHIVE_WAIT_S = 0.05


class ResyncError(LinkError):
    """The board's history does not lead to the position it reports."""


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
        self.names = (black, white)
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
            self.link.needs_resync = True
            self._archive_busy()
            return []
        except LinkError as error:
            self.link.status = "waiting for the board: %s" % str(error).split("\n")[0]
            return []

    # -- resynchronising ------------------------------------------------------------------

    def resync(self):
        self.link.needs_resync = False
        words = self.link.request("state")
        board_game, variant, mode, ply, result = words[:5]
        sfen = " ".join(words[5:9])
        ply = int(ply)
        game_id = self.archive.find_board_game(board_game)
        if game_id is None:
            start_words = self.link.request("start")
            self._follow_new(start_words[0], variant, mode, " ".join(start_words[1:5]))
        else:
            self._follow(game_id, board_game, variant)
        if self.stored_count() > ply:
            self.archive.truncate(self.game_id, ply)
        self._fetch(board_game, self.stored_count() + 1, ply)
        self._replay()
        if self.position.sfen() != sfen:
            # The board's game went another way while we were away: find where, refetch.
            self._fetch(board_game, 1, ply, replace=True)
            self._replay()
            if self.position.sfen() != sfen:
                raise ResyncError("board history does not reach its position %s" % sfen)
        self._set_result(result)
        self._changed()

    def _fetch(self, board_game, first, last, replace=False):
        ply = first
        while ply <= last:
            words = self.link.request("history", ply)
            if words[0] != board_game:
                self.link.needs_resync = True        # a new game began meanwhile
                return
            moves = words[2:]
            if not moves:
                break
            for usi in moves:
                if replace and ply <= self.stored_count():
                    if self.archive.game(self.game_id).moves[ply - 1].usi != usi:
                        self.archive.truncate(self.game_id, ply - 1)
                if ply > self.stored_count():
                    self._store_game()
                    self.archive.add_move(self.game_id, ply, usi, now_stamp())
                ply += 1

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
        self.link.status = "archive locked by another program: %d move(s) waiting" % len(self.queued)

    def _archive_free(self):
        """Put the link's own status back, unless the link has said something newer."""
        if self.status_before_busy is not None:
            if self.link.status.startswith("archive locked"):
                self.link.status = self.status_before_busy
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
            self.link.needs_resync = True
            return
        try:
            if verb == "move":
                self._on_move(int(words[0]), words[1], " ".join(words[2:6]))
            elif verb == "undo":
                self._on_undo(int(words[0]), " ".join(words[1:5]))
            elif verb == "new":
                self._on_new(words[0], words[1], words[2], " ".join(words[3:7]))
            elif verb == "end":
                self._set_result(words[0])
            elif verb == "hello":
                self.link.needs_resync = True
        except (IndexError, ValueError):
            self.link.needs_resync = True            # malformed event: trust history instead
        self._changed()

    def _on_move(self, ply, usi, sfen):
        have = self.stored_count() + len(self.queued)
        if ply <= have:
            if self._known_usi(ply) != usi:
                self.link.needs_resync = True
            return
        if ply != have + 1:
            self.link.needs_resync = True            # we missed moves: fetch them
            return
        try:
            self.position.push_usi(usi)
        except ValueError:
            self.link.needs_resync = True
            return
        if self.position.sfen() != sfen:
            self.position.pop()
            self.link.needs_resync = True
            return
        self.queued.append((ply, usi, now_stamp()))
        self._flush()

    def _on_undo(self, ply, sfen):
        stored = self.stored_count()
        del self.queued[max(0, ply - 1 - stored):]
        if stored >= ply:
            self.archive.truncate(self.game_id, ply - 1)
        self._replay()
        if self.result != "-":
            self._set_result("-")
        if self.position.sfen() != sfen:
            self.link.needs_resync = True

    def _on_new(self, board_game, variant, mode, sfen):
        if not self._flush():
            self.link.needs_resync = True            # the last game's moves first
            return
        game_id = self.archive.find_board_game(board_game)
        if game_id is None:
            self._follow_new(board_game, variant, mode, sfen)
        else:
            self._follow(game_id, board_game, variant)
        self._replay()
        self.result = "-"
        if self.stored_count():
            self.link.needs_resync = True

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
