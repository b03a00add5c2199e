"""Reading the saved game (format: see storage.py). It runs once per boot, so GameStore.load
imports it and unloads it again: its code gives its RAM back to the game in play."""
import binascii

from micropython import const

from boardfw.storage import CorruptSave, SavedGame, remove

_FORMAT = const("yariboard-game 2")   # as storage.py writes it
# Saves of earlier firmware: the same lines with no entries after the `crc` line. A board
# updated in the middle of a game resumes it.
_FORMAT_1 = const("yariboard-game 1")
_TMP = const("/game.tmp")   # as storage.py writes them
_LOG = const("/game.log")


def load(store):
    """The game `store` (a GameStore) holds, None when there is none, and the store set to
    append after it; CorruptSave if it is damaged. A leftover `game.tmp` (a power cut
    during a compaction) is removed: the rename never happened, so `game.txt` still holds
    the record as it was."""
    remove(store.dir + _TMP)
    data = _read(store.open, store.path)
    if data is None:
        return None
    saved, tail = parse(data, True, _read(store.open, store.dir + _LOG) or b"")
    store.plies = tail[0]
    store.request = saved.request
    store.result = saved.result
    store.illegal = saved.illegal
    store.appended = tail[1]
    store.crc = tail[2]
    return saved


def _read(opener, path):
    """The bytes of the file at `path`, None when there is none."""
    try:
        f = opener(path, "rb")
    except OSError:
        return None
    try:
        return f.read()
    finally:
        f.close()


def parse(data, with_state=False, log=b""):
    """Bytes of a record (and of the journal `log` after it) -> SavedGame; CorruptSave names
    the first problem. With `with_state`, also (moves, journal bytes, CRC) of the game:
    what appending goes on from."""
    cut = data.find(b"\ncrc ") + 1
    end = data.find(b"\n", cut) + 1
    if not cut or not end:
        raise CorruptSave("checksum missing")
    crc = binascii.crc32(data[:cut]) & 0xFFFFFFFF
    if data[cut:end] != b"crc %08x\n" % crc:
        raise CorruptSave("checksum wrong")
    # (entries after the `crc` line: a record of firmware before the journal)
    head = b"%08x\n" % crc
    if not log.startswith(head):   # none, or one that follows another record: left out
        log = head
    try:
        lines = data[:cut].decode().split("\n")
        entries = (data[end:] + log[9:]).decode()
    except UnicodeError:
        raise CorruptSave("not text")
    if lines[0] != _FORMAT and lines[0] != _FORMAT_1:
        raise CorruptSave("unknown format")
    fields = {}
    move_lines = []
    for line in lines[1:]:
        key, _, value = line.partition(" ")
        if key == "moves":
            move_lines.append(value)
        elif key:
            fields[key] = value
    try:
        result, illegal = fields["result"], fields["illegal"]
    except KeyError:
        raise CorruptSave("missing field")
    kept = sum(len(line.split()) for line in move_lines)   # of the compacted moves
    kept, tail, crc, result, illegal, request = _apply(entries, crc, kept, result, illegal)
    if request is not None:
        fields["request"] = request
    # The moves one at a time: a long game never becomes one large list, which a fragmented
    # heap might not have room for (at most a compaction's worth of moves waits in `tail`).
    moves = _moves(move_lines, kept, tail)
    try:
        saved = SavedGame(fields["id"], fields["variant"], fields["mode"], fields["handicap"],
                          result, illegal, fields["start"], moves,
                          fields.get("request", "-"))
    except KeyError:
        raise CorruptSave("missing field")
    if with_state:
        return saved, (kept + len(tail), len(log) if log[9:] else 0, crc)
    return saved


def _apply(text, crc, kept, result, illegal):
    """The journal's entries (`text`, a line each) played onto the record's `kept` moves,
    `result` and `illegal`, each entry's checksum chained on from `crc`: (kept, the moves
    appended since, crc, result, illegal, the last host request or None)."""
    tail = []
    request = None
    entries = text.split("\n")
    entries.pop()   # after the last line end: empty, or an entry cut short, which is dropped
    for entry in entries:
        line, _, check = entry.rpartition(" ")
        crc = binascii.crc32(line.encode(), crc) & 0xFFFFFFFF
        if check != "%08x" % crc:
            raise CorruptSave("entry damaged")
        words = line.split()
        if not words:
            raise CorruptSave("unknown entry")
        if len(words) == (2 if words[0] == "-" else 4):   # made by a host request (storage.py)
            request = words.pop()
        if words[0] == "+" and len(words) == 2:
            tail.append(words[1])
        elif words[0] == "-":
            if illegal == "-":
                if tail:
                    tail.pop()
                elif kept:
                    kept -= 1
                else:
                    raise CorruptSave("take-back of no move")
            illegal = result = "-"
        elif words[0] == "=" and len(words) == 3:
            result, illegal = words[1], words[2]
        else:
            raise CorruptSave("unknown entry")
    return kept, tail, crc, result, illegal, request


def _moves(move_lines, kept, tail):
    """The first `kept` compacted moves, then the appended ones."""
    for line in move_lines:
        for usi in line.split():
            if not kept:
                break
            kept -= 1
            yield usi
    for usi in tail:
        yield usi
