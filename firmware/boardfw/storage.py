"""The game in flash: saved after every committed move, atomically.

A save writes the whole game to `game.tmp` and renames it over `game.txt`; the rename is
atomic on littlefs (and on POSIX), so after a power cut the file holds either the game
before or after the move, never half of one. A CRC-32 trailer catches any other damage.

File format (text, one item per line):
    yariboard-game 1
    id 5f3a9c01
    variant yari
    mode casual
    handicap -              (or the handicap's name)
    result -
    illegal -               (or the USI of the move that lost a tournament game)
    start <SFEN>
    moves 7g7f 3c3d ...     (repeated, at most 16 moves per line)
    crc <crc32 of every byte above, 8 hex digits>
"""
import binascii
import os
from micropython import const

_FORMAT = const("yariboard-game 1")
_MOVES_PER_LINE = const(16)


class SavedGame:
    """What a save holds. `moves`: the USI strings of the moves, an iterable walked once
    (a save turns a game's moves into text one at a time; a load reads them one at a time)."""

    def __init__(self, game_id, variant, mode, handicap, result, illegal, start_sfen, moves):
        self.game_id = game_id
        self.variant = variant
        self.mode = mode
        self.handicap = handicap    # '-' or a handicap name
        self.result = result        # protocol result word: '-' or 'black:mate' ...
        self.illegal = illegal      # '-' or the USI of the move that lost a tournament game
        self.start_sfen = start_sfen
        self.moves = moves


class CorruptSave(ValueError):
    pass


class GameStore:
    def __init__(self, storage_dir, opener=open):
        self.path = storage_dir + "/game.txt"
        self.tmp_path = storage_dir + "/game.tmp"
        self.bad_path = storage_dir + "/game.bad"
        self._open = opener

    def save(self, saved):
        """Write `saved` (a SavedGame) to the temp file and swap it in atomically."""
        f = self._open(self.tmp_path, "wb")
        try:
            crc = _write(f, _FORMAT + "\n", 0)
            for key, value in (("id", saved.game_id), ("variant", saved.variant),
                               ("mode", saved.mode), ("handicap", saved.handicap),
                               ("result", saved.result), ("illegal", saved.illegal),
                               ("start", saved.start_sfen)):
                crc = _write(f, key + " " + value + "\n", crc)
            # The moves go out one at a time: nothing grows with the game, as a large block
            # is what a fragmented heap late in a long game lacks.
            written = 0
            for usi in saved.moves:
                if written % _MOVES_PER_LINE == 0:
                    crc = _write(f, "moves", crc)
                crc = _write(f, " " + usi, crc)
                written += 1
                if written % _MOVES_PER_LINE == 0:
                    crc = _write(f, "\n", crc)
            if written % _MOVES_PER_LINE:
                crc = _write(f, "\n", crc)
            f.write(b"crc %08x\n" % (crc & 0xFFFFFFFF))
        finally:
            f.close()
        os.rename(self.tmp_path, self.path)

    def load(self):
        """The saved game, None when there is none; CorruptSave if the file is damaged.

        A leftover `game.tmp` (power cut during a save) is removed: the rename never
        happened, so `game.txt` still holds the last complete save.
        """
        _remove(self.tmp_path)
        try:
            f = self._open(self.path, "rb")
        except OSError:
            return None
        try:
            data = f.read()
        finally:
            f.close()
        return parse(data)

    def set_aside_corrupt(self):
        """Keep a damaged save as game.bad (for inspection) so a new game can be saved."""
        _remove(self.bad_path)
        os.rename(self.path, self.bad_path)


def parse(data):
    """Bytes of a save file -> SavedGame; CorruptSave names the first problem."""
    cut = data.rfind(b"crc ")
    if cut < 0 or data[cut:] != b"crc %08x\n" % (binascii.crc32(data[:cut]) & 0xFFFFFFFF):
        raise CorruptSave("checksum missing or wrong")
    fields = {}
    move_lines = []
    try:
        lines = data[:cut].decode().split("\n")
    except UnicodeError:
        raise CorruptSave("not text")
    if lines[0] != _FORMAT:
        raise CorruptSave("unknown format")
    for line in lines[1:]:
        key, _, value = line.partition(" ")
        if key == "moves":
            move_lines.append(value)
        elif key:
            fields[key] = value
    # The moves one at a time: a long game never becomes one large list, which a fragmented
    # heap might not have room for.
    moves = (usi for line in move_lines for usi in line.split())
    try:
        return SavedGame(fields["id"], fields["variant"], fields["mode"], fields["handicap"],
                         fields["result"], fields["illegal"], fields["start"], moves)
    except KeyError:
        raise CorruptSave("missing field")


def _write(f, text, crc):
    """Write `text` to `f`; the CRC-32 so far, `crc` extended by it."""
    data = text.encode()
    f.write(data)
    return binascii.crc32(data, crc)


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass
