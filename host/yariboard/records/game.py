"""A finished or running game as the host keeps it: headers, moves, timestamps.

The archive stores these, the exports write and read them, and `replay` checks every
move against the shared rules core so that no record with an impossible move is ever kept.
"""
import datetime
import unicodedata
from dataclasses import dataclass, field

from shogicore.errors import MoveError
from shogicore.notation import to_usi
from shogicore.impasse import impasse_result
from shogicore.position import Position
from shogicore.variants import variant_by_name

WINNERS = ("black", "white", "draw")
# How a game can end: the rules core's reasons, plus a referee's decision (used by the demo
# when a game reaches its move limit), a game left unfinished for good, and a loss on time
# (the host's game clock).
REASONS = ("mate", "resignation", "repetition", "perpetual-check", "impasse",
           "illegal-move", "adjudication", "abandoned", "time")
MODES = ("casual", "tournament")   # the one list of game modes the host offers
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
# Years a timestamp may have: four digits in every format, with room for a game's clock.
FIRST_YEAR, LAST_YEAR = 1000, 9998
NAME_CHARS = 200
# Characters a name may not hold: controls and line breaks (a file would break in two),
# lone surrogates (not text at all; no file or database can hold them).
_BAD_NAME_CATEGORIES = ("Cc", "Cs", "Zl", "Zp")


class RecordError(ValueError):
    """A game record that cannot be accepted; the message says what and, for files, where."""


def now_stamp():
    """The current UTC time as stored: ISO 8601, whole seconds, `Z` suffix."""
    return stamp(datetime.datetime.now(datetime.timezone.utc))


def stamp(moment):
    return moment.astimezone(datetime.timezone.utc).strftime(TIME_FORMAT)


def parse_stamp(text):
    """'2025-01-02T10:00:05Z' -> aware datetime; RecordError on anything else."""
    try:
        moment = datetime.datetime.strptime(text, TIME_FORMAT)
    except (TypeError, ValueError):
        raise RecordError("bad timestamp %r (expected YYYY-MM-DDTHH:MM:SSZ)" % (text,))
    if not FIRST_YEAR <= moment.year <= LAST_YEAR or len(text) != 20:
        raise RecordError("timestamp %r out of range (years %d to %d)"
                          % (text, FIRST_YEAR, LAST_YEAR))
    return moment.replace(tzinfo=datetime.timezone.utc)


def check_name(name, side):
    """A player's name: one line of text (it must survive every file format unchanged)."""
    if not isinstance(name, str):
        raise RecordError("%s's name must be text" % side)
    if len(name) > NAME_CHARS:
        raise RecordError("%s's name is longer than %d characters" % (side, NAME_CHARS))
    if name != name.strip():
        raise RecordError("%s's name %r begins or ends with a space" % (side, name))
    for c in name:
        if unicodedata.category(c) in _BAD_NAME_CATEGORIES:
            raise RecordError("%s's name %s holds a control character, line break or lone "
                              "surrogate (U+%04X)" % (side, ascii(name)[:60], ord(c)))
    return name


def clean_name(name):
    """`name` made acceptable to check_name (for names typed live, e.g. on the command line)."""
    kept = "".join(" " if unicodedata.category(c) in _BAD_NAME_CATEGORIES else c
                   for c in name)
    return " ".join(kept.split())[:NAME_CHARS].strip()


@dataclass
class MoveRecord:
    usi: str
    at: str  # when the move was committed, see TIME_FORMAT


@dataclass
class GameRecord:
    variant: str = "yari"
    start_sfen: str = ""
    black: str = ""
    white: str = ""
    date: str = ""          # when the game started, see TIME_FORMAT
    handicap: str = ""      # '' for an even game, else a name from variant.handicaps
    mode: str = "casual"
    winner: str = ""        # '' while unfinished, else one of WINNERS
    reason: str = ""        # '' while unfinished, else one of REASONS
    moves: list = field(default_factory=list)
    id: int = 0             # archive row id; 0 when not stored
    board_game: str = ""    # the board's own identifier of the game, for resynchronisation

    def usi_moves(self):
        return [move.usi for move in self.moves]

    def same_game(self, other):
        """Equal in everything a record carries except where it is stored."""
        return (self.headers() == other.headers()
                and [(m.usi, m.at) for m in self.moves] == [(m.usi, m.at) for m in other.moves])

    def headers(self):
        return (self.variant, self.start_sfen, self.black, self.white, self.date,
                self.handicap, self.mode, self.winner, self.reason)


def start_sfen_for(variant_name, handicap=""):
    """The start position of an even game or of the named handicap."""
    variant = variant_by_name(variant_name)
    if not handicap:
        return variant.start_sfen
    try:
        return variant.handicaps[handicap]
    except KeyError:
        raise RecordError("unknown handicap %r for %s (known: %s)"
                          % (handicap, variant_name, ", ".join(sorted(variant.handicaps)) or "none"))


def check_headers(record):
    """Raise RecordError unless the headers are well formed."""
    try:
        variant_by_name(record.variant)
    except (KeyError, ValueError):
        raise RecordError("unknown variant %r" % (record.variant,))
    if record.mode not in MODES:
        raise RecordError("unknown mode %r (expected %s)" % (record.mode, " or ".join(MODES)))
    if record.winner and record.winner not in WINNERS:
        raise RecordError("unknown winner %r" % (record.winner,))
    if record.reason and record.reason not in REASONS:
        raise RecordError("unknown ending %r" % (record.reason,))
    if bool(record.winner) != bool(record.reason):
        raise RecordError("a result needs both a winner and how the game ended")
    check_name(record.black, "Black")
    check_name(record.white, "White")
    parse_stamp(record.date)
    if record.handicap:
        start_sfen_for(record.variant, record.handicap)


def starting_position(record):
    try:
        return Position(variant_by_name(record.variant), record.start_sfen)
    except ValueError as error:
        raise RecordError("bad start position: %s" % error)


def replay(record, on_move=None):
    """Play the record's moves from its start; returns the final Position.

    `on_move(index, position_before, move)` is called for each move (0-based index), so
    writers can render notation. Raises RecordError naming the first impossible move.
    """
    check_headers(record)
    variant = variant_by_name(record.variant)
    position = starting_position(record)
    previous = record.date
    for index, entry in enumerate(record.moves):
        parse_stamp(entry.at)
        if entry.at < previous:
            raise RecordError("move %d (%s) is timed before the move or start before it"
                              % (index + 1, entry.usi))
        previous = entry.at
        legal = {to_usi(variant, m): m for m in position.legal_moves()}
        move = legal.get(entry.usi)
        if move is None:
            raise RecordError("move %d (%s) is not legal in %s" % (index + 1, entry.usi, position.sfen()))
        if on_move:
            on_move(index, position, move)
        position.push(move)
    check_ending(record, position)
    return position


# Endings the final position must show itself; the others (a resignation, an illegal move
# the record does not hold, a referee's decision) need a game that had not ended yet.
_SEEN_ON_THE_BOARD = ("mate", "repetition", "perpetual-check")


def check_ending(record, position):
    """Raise RecordError unless the stated ending fits `position`, the final one."""
    if not record.reason:
        return
    status = position.status()
    if record.reason in _SEEN_ON_THE_BOARD:
        stated = (None if record.winner == "draw" else WINNERS.index(record.winner),
                  record.reason)
        if status != stated:
            raise RecordError("the record says %s %s, but the final position shows %s"
                              % (record.winner, record.reason, _describe(status)))
    elif record.reason == "impasse":
        try:
            winner, _ = impasse_result(position)
        except MoveError as error:
            raise RecordError("the record says impasse, but %s" % error)
        if record.winner != ("draw" if winner is None else WINNERS[winner]):
            raise RecordError("the record says impasse won by %s; the points give %s"
                              % (record.winner, "a draw" if winner is None else WINNERS[winner]))
    elif status is not None and record.reason != "adjudication":
        raise RecordError("the record says %s, but the game had already ended: %s"
                          % (record.reason, _describe(status)))
    if record.reason in ("resignation", "illegal-move") and record.winner == "draw":
        raise RecordError("a %s cannot end in a draw" % record.reason)


def _describe(status):
    if status is None:
        return "no ending"
    winner, reason = status
    return "%s (%s)" % (reason, "draw" if winner is None else WINNERS[winner] + " wins")

