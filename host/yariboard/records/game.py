"""A finished or running game as the host keeps it: headers, moves, timestamps.

The archive stores these, the exports write and read them, and `replay` checks every
move against the shared rules core so that no record with an impossible move is ever kept.
"""
import datetime
import functools
import re
import unicodedata
from dataclasses import dataclass, field

from shogicore.errors import MoveError
from shogicore.impasse import impasse_result
from shogicore.variants import variant_by_name

from yariboard.records.declaration import declaration_wins
from yariboard.records.playback import RecordPosition, move_of, usi_of

WINNERS = ("black", "white", "draw")
# How a game can end: the rules core's reasons, plus a referee's decision (used by the demo
# when a game reaches its move limit), a game left unfinished for good, and a loss on time
# (the host's game clock), and an entering-king declaration judged by CSA's points rule
# (records from elsewhere: %KACHI, 入玉勝ち; see declaration.py).
REASONS = ("mate", "resignation", "repetition", "perpetual-check", "impasse",
           "illegal-move", "adjudication", "abandoned", "time", "declaration")
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
    """'2025-01-02T10:00:05Z' -> aware datetime; RecordError on anything else.

    Read by hand, not by strptime: every move's time is read when a game is checked, and
    strptime took most of an export's time."""
    match = _STAMP_RE.match(text) if isinstance(text, str) else None
    try:
        moment = datetime.datetime(*map(int, match.groups()), tzinfo=datetime.timezone.utc)
    except (AttributeError, ValueError):
        raise RecordError("bad timestamp %r (expected YYYY-MM-DDTHH:MM:SSZ)" % (text,))
    if not FIRST_YEAR <= moment.year <= LAST_YEAR:
        raise RecordError("timestamp %r out of range (years %d to %d)"
                          % (text, FIRST_YEAR, LAST_YEAR))
    return moment


_STAMP_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z\Z")


def stamp_seconds(text):
    """Seconds since 1970 of a stamp as stored (RecordError as parse_stamp): what a writer
    needs of every move's time, without building a datetime for each."""
    match = _STAMP_RE.match(text) if isinstance(text, str) else None
    if not match:
        parse_stamp(text)       # says what is wrong with it
    hours, minutes, seconds = int(match.group(4)), int(match.group(5)), int(match.group(6))
    try:
        day = _day_seconds(text[:10])
    except RecordError:
        day = None
    if day is None or hours > 23 or minutes > 59 or seconds > 59:
        parse_stamp(text)
    return day + hours * 3600 + minutes * 60 + seconds


@functools.lru_cache(maxsize=4096)
def _day_seconds(day):
    return int(parse_stamp(day + "T00:00:00Z").timestamp())


def stamp_at(seconds):
    """The stamp `seconds` after 1970 (the inverse of stamp_seconds), RecordError when it
    falls outside the years a stamp may have: a reader's clock after each move's time."""
    day, rest = divmod(seconds, 86400)
    return "%sT%02d:%02d:%02dZ" % (_day_text(day), rest // 3600, rest // 60 % 60, rest % 60)


@functools.lru_cache(maxsize=4096)
def _day_text(day):
    try:
        date = _EPOCH + datetime.timedelta(days=day)
    except OverflowError:
        date = None
    if date is None or not FIRST_YEAR <= date.year <= LAST_YEAR:
        raise RecordError("a time out of range (years %d to %d)" % (FIRST_YEAR, LAST_YEAR))
    return date.isoformat()


_EPOCH = datetime.date(1970, 1, 1)


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
    # The UTC offset the record's clock times were kept in ('+09:00' for a Japanese file),
    # '' for UTC: the file's local times are written back as they were.
    zone: str = ""
    # Headers no other field holds, [(name, text)] in file order, written back as they were
    # (KIF names: 棋戦, 場所, 持ち時間, ...; see formats/headers.py for CSA's names).
    tags: list = field(default_factory=list)
    # {ply: text}: 0 before the first move, n after move n, len(moves) + 1 after the ending.
    comments: dict = field(default_factory=dict)

    def usi_moves(self):
        return [move.usi for move in self.moves]

    def same_game(self, other):
        """Equal in everything a record carries except where it is stored."""
        return (self.headers() == other.headers() and self.notes() == other.notes()
                and [(m.usi, m.at) for m in self.moves] == [(m.usi, m.at) for m in other.moves])

    def notes(self):
        """What a record keeps beside its moves and headers: zone, extra headers, comments."""
        return (self.zone, [tuple(tag) for tag in self.tags],
                {int(ply): text for ply, text in self.comments.items() if text})

    def tag(self, name, default=""):
        for key, value in self.tags:
            if key == name:
                return value
        return default

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


def handicap_of(variant_name, sfen):
    """The name of the variant's handicap that starts from `sfen`, '' for none."""
    for name, start in variant_by_name(variant_name).handicaps.items():
        if start == sfen:
            return name
    return ""


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
        return RecordPosition(variant_by_name(record.variant), record.start_sfen)
    except ValueError as error:
        raise RecordError("bad start position: %s" % error)


def replay(record, on_move=None):
    """Play the record's moves from its start, checking each; returns the final Position.

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
        try:    # the one move, checked alone: no list of every legal move (speed at scale)
            move = move_of(variant, entry.usi)
        except MoveError:
            move = None
        if move is None or not position.allows(move) or usi_of(variant, move) != entry.usi:
            raise RecordError("move %d (%s) is not legal in %s" % (index + 1, entry.usi, position.sfen()))
        if on_move:
            on_move(index, position, move)
        position.push(move)
    check_ending(record, position)
    return position


def walk(record, on_move):
    """Play a checked record's moves (the archive's, a reader's) for a writer: `on_move` as
    for replay, and the final position, whose history is not kept (see playback.py).

    Only what a writer would misname is looked at: each move's piece is the mover's."""
    check_headers(record)
    variant = variant_by_name(record.variant)
    position = starting_position(record)
    for index, entry in enumerate(record.moves):
        try:
            move = move_of(variant, entry.usi)
        except MoveError:
            move = None
        if move is None or not _mover_holds(position, move):
            raise RecordError("move %d (%s) is not legal in %s" % (index + 1, entry.usi, position.sfen()))
        on_move(index, position, move)
        position.walk(move)
    return position


def _mover_holds(position, move):
    """Does the side to move hold the piece `move` plays, on its origin or in hand?"""
    frm = move >> 8 & 0xFF
    if frm:
        piece = position.board[frm]
        return piece != 0 and piece >> 5 == position.side
    return position.hands[position.side][move >> 17 & 31] > 0


def settle(record, position):
    """After a reader played the record's moves on `position` (each one checked by
    `allows`): the headers, the moves' times in order and the ending."""
    check_headers(record)
    previous = record.date
    for index, entry in enumerate(record.moves):
        if entry.at < previous:
            raise RecordError("move %d (%s) is timed before the move or start before it"
                              % (index + 1, entry.usi))
        previous = entry.at
    check_ending(record, position)
    return record


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
    elif record.reason == "declaration":
        declarer = WINNERS[position.side]
        if record.winner != declarer or not declaration_wins(position):
            raise RecordError("the record says %s won by declaration, but %s to move cannot "
                              "declare (king in the enemy camp, 10 pieces there, 28/27 points)"
                              % (record.winner, declarer))
    elif status is not None and not _may_follow(record, status):
        raise RecordError("the record says %s, but the game had already ended: %s"
                          % (record.reason, _describe(status)))
    if record.reason in ("resignation", "illegal-move") and record.winner == "draw":
        raise RecordError("a %s cannot end in a draw" % record.reason)


def _may_follow(record, status):
    """A referee's decision may follow any ending; a mated side may still resign (real
    records write 投了 and %TORYO after the mate), and so the mating side wins either way."""
    if record.reason == "adjudication":
        return True
    return (record.reason == "resignation" and status[1] == "mate"
            and status[0] is not None and WINNERS[status[0]] == record.winner)


def _describe(status):
    if status is None:
        return "no ending"
    winner, reason = status
    return "%s (%s)" % (reason, "draw" if winner is None else WINNERS[winner] + " wins")

