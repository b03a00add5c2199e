"""The board <-> host line protocol (see docs/protocol.md): framing only, no I/O.

Pure and shared: the firmware frames and parses with it on the Pico, the host imports the
very same module, so both sides agree on the format by construction.

A frame is one line of printable ASCII:  ``SEQ WORD WORD ... #CRC\\n``
SEQ is a decimal 0..65535 frame number, CRC the CRC-32 of everything before `` #``
(eight lowercase hex digits).
"""
import binascii
from micropython import const

PROTOCOL_VERSION = 1
MAX_LINE = 256          # bytes, newline included; longer input is refused whole
_SEQ_MODULO = const(65536)  # sequence numbers wrap from 65535 to 0
HISTORY_BATCH = 16      # moves per `history` reply frame
MISMATCH_LIST = 16      # squares listed per `mismatch` frame

# Requests the board accepts: verb -> least args + most args * _MOST + _CHANGES if it
# changes something (one small int each, not a tuple: this table stays in the Pico's RAM).
# A SFEN counts as 4 words. A request that changes something must carry a SEQ newer than
# the last one carried out (docs/protocol.md); reading requests are answered whatever their
# SEQ.
_MOST = const(8)
_CHANGES = const(64)
REQUESTS = {
    "version": 0,
    "state": 0,
    "start": 0,
    "history": 1 + 1 * _MOST,                   # FROM (ply, 1-based)
    "new": 3 + 3 * _MOST + _CHANGES,            # VARIANT HANDICAP|- MODE
    "setpos": 6 + 6 * _MOST + _CHANGES,         # VARIANT MODE SFEN(4 words)
    "show": 1 + 1 * _MOST + _CHANGES,           # USI move to light as the host's move
    "hint": 1 + 1 * _MOST + _CHANGES,           # USI move to light as a hint
    "clear": _CHANGES,                          # drop any shown move or hint
    "undo": _CHANGES,
    "resign": 1 + 2 * _MOST + _CHANGES,         # SIDE [time]: SIDE resigns or lost on time
    "host": 1 + 1 * _MOST + _CHANGES,           # black|white|-: the host engine's side
    "ledtest": _CHANGES,
    "sensors": 0,
}

# Error codes carried by `err` frames (written out where they are raised: on the Pico a
# name for each would cost RAM for good):
#   frame     not SEQ ... #CRC, bad characters, bad sequence number
#   crc       checksum does not match
#   long      line longer than MAX_LINE
#   verb      unknown request
#   args      wrong number or form of arguments
#   illegal   move not legal in the current position
#   sfen      position text refused
#   variant   unknown variant, handicap or mode
#   over      the game has ended; the request needs a game in progress
#   empty     nothing to undo
#   internal  a fault in the firmware; the request was not carried out
#   stale     SEQ not newer than the last request carried out: an old frame


class ProtocolError(ValueError):
    """A frame that cannot be accepted; `code` is one of the error codes above."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def checksum(body):
    """CRC-32 (as zlib / binascii.crc32) of the frame body bytes, as an int."""
    return binascii.crc32(body) & 0xFFFFFFFF


def next_seq(seq):
    return (seq + 1) % _SEQ_MODULO


def encode(seq, words):
    """Frame `words` (strings, joined with spaces; a word may be a list of parts, as in
    write_frame) with sequence number `seq`; returns bytes. The host's way: write_frame's
    pieces joined, each word handed over as a list of bytes parts."""
    pieces = []
    write_frame(pieces.append, seq, [[w.encode()] if isinstance(w, str)
                                     else [part.encode() for part in w] for w in words])
    return b"".join(pieces)


def write_frame(write, seq, words):
    """Hand the frame of `words` to `write` piece by piece, the CRC running over the pieces:
    the board then needs no block as long as the line, and its heap, fragmented after a long
    game, has few such holes. A word is a str, or a list of parts written back to back (a
    SFEN by ranks: Position.sfen_parts). A part is a str on MicroPython, whose CRC and
    streams take a str as its bytes, and bytes on CPython (`encode`)."""
    head = b"%d" % seq
    length = len(head)
    for word in words:
        for part in (word,) if isinstance(word, str) else word:
            length += len(part)
        length += 1
    if length + 11 > MAX_LINE:
        raise ProtocolError("long", "frame too long")
    write(head)
    crc = binascii.crc32(head)
    for word in words:
        write(b" ")
        crc = binascii.crc32(b" ", crc)
        for part in (word,) if isinstance(word, str) else word:
            write(part)
            crc = binascii.crc32(part, crc)
    write(b" #%08x\n" % (crc & 0xFFFFFFFF))


_HEX_DIGITS = const(b"0123456789abcdef")


def decode(line):
    """Parse one received line (bytes, newline optional) -> (seq, verb, args list).

    Raises ProtocolError naming what is wrong; never anything else for any input bytes.
    """
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) + 1 > MAX_LINE:
        raise ProtocolError("long", "line longer than %d bytes" % MAX_LINE)
    for byte in line:
        if byte < 0x20 or byte > 0x7E:
            raise ProtocolError("frame", "non-printable byte")
    cut = line.rfind(b" #")
    if cut < 0 or len(line) - cut != 10:
        raise ProtocolError("frame", "missing ' #CRC' trailer")
    body = line[:cut]
    if line[cut + 2:] != b"%08x" % checksum(body):
        for byte in line[cut + 2:]:
            if byte not in _HEX_DIGITS:
                raise ProtocolError("frame", "CRC is not eight lowercase hex digits")
        raise ProtocolError("crc", "checksum mismatch")
    words = body.decode().split()
    if len(words) < 2:
        raise ProtocolError("frame", "need a sequence number and a verb")
    seq_text = words[0]
    if not seq_text.isdigit() or len(seq_text) > 5 or int(seq_text) >= _SEQ_MODULO:
        raise ProtocolError("frame", "bad sequence number")
    return int(seq_text), words[1], words[2:]


def check_request(verb, args):
    """Raise ProtocolError unless `verb` is a known request with an acceptable arg count;
    True if the request changes something (then its SEQ must be new)."""
    limits = REQUESTS.get(verb)
    if limits is None:
        raise ProtocolError("verb", "unknown request")
    most = limits % _CHANGES // _MOST
    if not limits % _MOST <= len(args) <= most:
        raise ProtocolError("args", "%s takes %d argument words" % (verb, most))
    return limits >= _CHANGES


def result_word(result):
    """Game result as one word: '-' while playing, else 'black:mate', 'draw:repetition'."""
    if result is None:
        return "-"
    winner, reason = result
    return "%s:%s" % (("black", "white")[winner] if winner is not None else "draw", reason)


def parse_result(word):
    """Inverse of result_word: '-' -> None, 'white:resignation' -> (1, 'resignation')."""
    if word == "-":
        return None
    side, _, reason = word.partition(":")
    if side not in ("black", "white", "draw") or not reason:
        raise ProtocolError("args", "bad result word")
    return (None if side == "draw" else ("black", "white").index(side)), reason
