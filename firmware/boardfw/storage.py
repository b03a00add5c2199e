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

FORMAT = "yariboard-game 1"
_MOVES_PER_LINE = const(16)


class SavedGame:
    """What a save holds; moves as USI strings."""

    def __init__(self, game_id, variant, mode, handicap, result, illegal, start_sfen, moves):
        self.game_id = game_id
        self.variant = variant
        self.mode = mode
        self.handicap = handicap    # '-' or a handicap name
        self.result = result        # protocol result word: '-' or 'black:mate' ...
        self.illegal = illegal      # '-' or the USI of the move that lost a tournament game
        self.start_sfen = start_sfen
        self.moves = moves          # a MoveText


class CorruptSave(ValueError):
    pass


class MoveText:
    """A game's moves as USI text, _MOVES_PER_LINE to a string: the `moves` lines of a save.

    Kept up to date one move at a time, it lets a save (and a history request) walk a long
    game through a few short strings instead of one large list, which a fragmented heap
    might not have room for.
    """

    def __init__(self):
        self.lines = []
        self.count = 0

    def clear(self):
        self.lines = []
        self.count = 0

    def push(self, usi):
        if self.count % _MOVES_PER_LINE:
            self.lines[-1] += " " + usi
        else:
            self.lines.append(usi)
        self.count += 1

    def pop(self):
        if not self.count:
            return
        self.count -= 1
        if self.count % _MOVES_PER_LINE:
            self.lines[-1] = self.lines[-1][:self.lines[-1].rfind(" ")]
        else:
            self.lines.pop()

    def __iter__(self):
        for line in self.lines:
            for usi in line.split():
                yield usi

    def batch(self, first, size):
        """Up to `size` moves from index `first` (0-based), as a list of USI strings."""
        out = []
        line = first // _MOVES_PER_LINE
        skip = first % _MOVES_PER_LINE
        while len(out) < size and line < len(self.lines):
            out.extend(self.lines[line].split()[skip:])
            skip = 0
            line += 1
        return out[:size]


class GameStore:
    def __init__(self, directory, opener=open):
        self.path = directory + "/game.txt"
        self.tmp_path = directory + "/game.tmp"
        self.bad_path = directory + "/game.bad"
        self._open = opener

    def save(self, saved):
        """Write `saved` (a SavedGame) to the temp file and swap it in atomically."""
        f = self._open(self.tmp_path, "wb")
        try:
            crc = 0
            for line in (FORMAT, "id " + saved.game_id, "variant " + saved.variant,
                         "mode " + saved.mode, "handicap " + saved.handicap,
                         "result " + saved.result, "illegal " + saved.illegal,
                         "start " + saved.start_sfen):
                crc = self._write(f, line, crc)
            for line in saved.moves.lines:
                crc = self._write(f, "moves " + line, crc)
            f.write(b"crc %08x\n" % (crc & 0xFFFFFFFF))
        finally:
            f.close()
        os.rename(self.tmp_path, self.path)

    @staticmethod
    def _write(f, line, crc):
        data = line.encode() + b"\n"
        f.write(data)
        return binascii.crc32(data, crc)

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
    moves = MoveText()
    try:
        lines = data[:cut].decode().split("\n")
    except UnicodeError:
        raise CorruptSave("not text")
    if lines[0] != FORMAT:
        raise CorruptSave("unknown format")
    for line in lines[1:]:
        key, _, value = line.partition(" ")
        if key == "moves":
            for usi in value.split():
                moves.push(usi)
        elif key:
            fields[key] = value
    try:
        return SavedGame(fields["id"], fields["variant"], fields["mode"], fields["handicap"],
                         fields["result"], fields["illegal"], fields["start"], moves)
    except KeyError:
        raise CorruptSave("missing field")


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass
