"""The game in flash: one short entry appended per committed change, compacted now and then.

A committed move costs one line appended to the journal `game.log`, whatever the length of
the game: the save takes the same time at ply 300 as at ply 10. The journal is kept under
_COMPACT_BYTES, so that littlefs holds it inline in its directory block (files up to 512
bytes on the Pico): an append then programs a page or two of that block and erases nothing,
where an append to a larger file copies the file's last block into a freshly erased sector
(copy-on-write), a 45 ms stop of the processor in every move's save. Once the journal is
that long (and at every boot, and for a new game) the whole game is written to `game.tmp`,
renamed over `game.txt`, and the journal removed; the rename is atomic on littlefs (and on
POSIX), so a power cut during a compaction leaves the record as it was before it.

Record format, `game.txt` (text, one item per line):
    yariboard-game 2
    id 5f3a9c01
    variant yari
    mode casual
    handicap -              (or the handicap's name)
    result -
    illegal -               (or the USI of the move that lost a tournament game)
    start <SFEN>
    request 421c0ffee0      (SEQ then frame CRC of the last host request whose change is
                            saved, or -: a retry after a restart is not carried out again)
    moves 7g7f 3c3d ...     (repeated, at most 16 moves per line)
    crc <crc32 of every byte above, 8 hex digits>
Journal format, `game.log`: the `crc` value of the record it follows (8 hex digits, a line),
then the entries appended since:
    + 2g2f 1c0ffee0         a move,
    - 9a3e27b1              a take-back (of the illegal move if one is recorded, else of the
                            last move; it clears the result),
    = white:resignation - 00c0ffee    the result and the illegal move as they now are;
    - 421c0ffee0 9a3e27b1   a take-back or result a host request made ends in its SEQ and
                            frame CRC (as the `request` line).
An entry ends in the CRC-32 of the record's text and the entries up to it (the `crc` line's
value extended by each entry's text before its CRC): an entry that is damaged, missing or
out of place in the chain is caught. A last entry cut short by a power cut (no line end) is
dropped at boot and the record compacted; a journal that follows another record is what a
power cut between a compaction's rename and the journal's removal left (its entries are in
the record) and is dropped; any other damage is reported as CorruptSave, never resumed from.
(Firmware before the journal appended the entries to `game.txt` after its `crc` line: such
a record is still read.)
"""
import binascii
import os
from micropython import const

from boardfw import unload

_FORMAT = const("yariboard-game 2")   # (save_reader.py checks it too)
_MOVES_PER_LINE = const(16)
# Journal bytes that call for a compaction: the longest entry (a result with a host
# request's SEQ, about 45 bytes) still leaves it under littlefs's inline 512.
_COMPACT_BYTES = const(448)
_TMP = const("/game.tmp")
_LOG = const("/game.log")   # the journal (save_reader.py reads it)
_BAD = const("/game.bad")


class SavedGame:
    """What a save holds. `moves`: the USI strings of the moves, an iterable walked once
    (a save turns a game's moves into text one at a time; a load reads them one at a time)."""

    def __init__(self, game_id, variant, mode, handicap, result, illegal, start_sfen, moves,
                 request="-"):
        self.game_id = game_id
        self.variant = variant
        self.mode = mode
        self.handicap = handicap    # '-' or a handicap name
        self.result = result        # protocol result word: '-' or 'black:mate' ...
        self.illegal = illegal      # '-' or the USI of the move that lost a tournament game
        self.start_sfen = start_sfen
        self.moves = moves
        self.request = request      # '-' or SEQ then CRC of the request that made the last change


class CorruptSave(ValueError):
    pass


class GameStore:
    """The record in flash, and what it holds now: `plies` moves, `result`, `illegal`
    (protocol words) and `appended` bytes of journal since the last compaction."""

    def __init__(self, storage_dir, opener=open):
        self.dir = storage_dir
        self.path = storage_dir + "/game.txt"
        self.open = opener
        self.plies = 0
        self.result = "-"
        self.illegal = "-"
        self.appended = 0
        self.crc = 0                # of the record so far: the next entry extends it
        self.request = "-"          # SEQ and CRC of the last request whose change is saved
        self.seq = None             # SEQ and CRC of the request being carried out, saved with
                                    # its change (the controller sets it)

    def save(self, saved):
        """Write `saved` (a SavedGame) whole to the temp file and swap it in atomically."""
        f = self.open(self.dir + _TMP, "wb")
        try:
            # Written in short pieces, a move at a time: nothing grows with the game or is as
            # long as a line, as a large block is what a fragmented heap late in a long game
            # lacks.
            crc = write(f, _FORMAT, 0)
            for key, value in (("id", saved.game_id), ("variant", saved.variant),
                               ("mode", saved.mode), ("handicap", saved.handicap),
                               ("result", saved.result), ("illegal", saved.illegal),
                               ("start", saved.start_sfen),
                               ("request", self.seq or self.request)):
                for text in ("\n", key, " ", value):
                    crc = write(f, text, crc)
            written = 0
            for usi in saved.moves:
                if written % _MOVES_PER_LINE == 0:
                    crc = write(f, "\nmoves", crc)
                crc = write(f, " ", crc)
                crc = write(f, usi, crc)
                written += 1
            crc = write(f, "\n", crc)
            crc &= 0xFFFFFFFF
            f.write(b"crc %08x\n" % crc)
        finally:
            f.close()
        os.rename(self.dir + _TMP, self.path)
        remove(self.dir + _LOG)   # (a cut before this leaves it following another record)
        self.plies = written
        self.request = self.seq or self.request
        self.result = saved.result
        self.illegal = saved.illegal
        self.appended = 0
        self.crc = crc

    def append(self, *words):
        """Append one entry: ('+', USI) a move, ('-',) a take-back, ('=', result, illegal).
        True once the record is due for a compaction (a `save`)."""
        if self.seq:   # in the same line as the change: a power cut keeps both or neither
            words += (self.seq,)
        text = " ".join(words)
        crc = binascii.crc32(text, self.crc) & 0xFFFFFFFF   # a str as its bytes, as in `write`
        line = "%s %08x\n" % (text, crc)
        f = self.open(self.dir + _LOG, "ab" if self.appended else "wb")
        try:
            if not self.appended:   # a new journal (over any leftover): first the CRC of
                self.appended = f.write("%08x\n" % self.crc)   # the record it follows
            self.appended += f.write(line)   # one write: a cut leaves a prefix
        finally:
            f.close()
        self.crc = crc
        self.request = self.seq or self.request
        op = words[0]
        if op == "+":
            self.plies += 1
        elif op == "-":
            if self.illegal == "-":
                self.plies -= 1
            self.illegal = self.result = "-"
        else:
            self.result, self.illegal = words[1], words[2]
        return self.appended >= _COMPACT_BYTES

    def load(self):
        """The saved game, None when there is none; CorruptSave if the record is damaged.
        (Read by boardfw/save_reader.py, loaded for the occasion: it runs once per boot.)"""
        try:
            os.stat(self.path)
        except OSError:   # no game: nothing loaded, so a first power-up's heap is the game's
            return None
        from boardfw import save_reader

        try:
            return save_reader.load(self)
        finally:
            unload("boardfw.save_reader")

    def set_aside_corrupt(self):
        """Keep a damaged save as game.bad (for inspection) so a new game can be saved."""
        remove(self.dir + _BAD)
        os.rename(self.path, self.dir + _BAD)
        remove(self.dir + _LOG)


def write(f, text, crc):
    """Write `text` to `f`; the CRC-32 so far, `crc` extended by it. (MicroPython's files and
    CRC take a str as its bytes: no copy is made.)"""
    f.write(text)
    return binascii.crc32(text, crc)


def remove(path):
    """Remove the file at `path` if there is one."""
    try:
        os.remove(path)
    except OSError:
        pass
