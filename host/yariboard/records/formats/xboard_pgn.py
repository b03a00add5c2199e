"""Wa Shogi games in the PGN dialect of XBoard/WinBoard and CrazyWa (`--format xboard`).

    [Event "yariboard"] [Site "?"] [Date "2025.03.01"] [Round "-"]
    [White "Ann"] [Black "Ben"] [Result "1-0"]
    [Variant "crazywa"] [SetUp "1"] [FEN "hmlcvkwgudo/1e3s3f1/.../ODUGWKVCLMH[] w 0 1"]
    [Ending "mate"] [Mode "casual"] [Zone ""]

    1. d3d4 {2025-03-01T10:00:04Z} i9i8 {2025-03-01T10:00:09Z} 2. P@e5 ...
    1-0

XBoard's sides are named the other way round: its White moves first (the project's Black),
so `[White]` is the project's Black player and `1-0` a win for the side that moved first.
Squares are XBoard's: files are letters from the left as the first player sees the board
(a is file 11), ranks numbers from that player's side; drops are `P@e5`, promotions end in
`+`. The FEN's letters are the project's SFEN letters, which CrazyWa's are, with the hand
in brackets. Each move's time follows it in braces; `[Ending]`, `[Mode]`, `[Zone]` and
`[Stamp]` carry what XBoard has no tag for (it skips tags it does not know).
"""
import re

from shogicore.move import drop_kind, is_drop, is_promotion, move_from, move_to, to_usi
from shogicore.position import Position
from shogicore.variants import BLACK, variant_by_name

from yariboard.records.game import (GameRecord, MoveRecord, RecordError, parse_stamp, replay,
                                    start_sfen_for)

VARIANT_NAMES = ("crazywa", "wa", "11x11+16_chu")     # what XBoard may call the game
RESULTS = {"black": "1-0", "white": "0-1", "draw": "1/2-1/2", "": "*"}
WINNERS = {token: winner for winner, token in RESULTS.items()}
TAG_RE = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
TOKEN_RE = re.compile(r"\{[^}]*\}|;[^\n]*|[^\s{;]+")
MOVE_NUMBER_RE = re.compile(r"^\d+\.+$")


def _at_line(line, error):
    return RecordError("line %d: %s" % (line, error))


def xboard_square(variant, sq):
    return "%c%d" % (97 + variant.files - variant.file_of(sq), variant.ranks + 1 - variant.rank_of(sq))


def move_text(variant, move):
    """d3d4, P@e5, i9i10+ (the side to move does not change the text)."""
    if is_drop(move):
        return "%s@%s" % (variant.symbol(drop_kind(move)), xboard_square(variant, move_to(move)))
    return (xboard_square(variant, move_from(move)) + xboard_square(variant, move_to(move))
            + ("+" if is_promotion(move) else ""))


def xboard_fen(sfen):
    """Project SFEN -> XBoard FEN: the board as it is, the hand in brackets, sides renamed."""
    board, side, hand = sfen.split()[:3]
    pieces, count = "", ""
    for char in "" if hand == "-" else hand:
        if char.isdigit():
            count += char
        else:
            pieces += char * int(count or 1)
            count = ""
    return "%s[%s] %s 0 1" % (board, pieces, "w" if side == "b" else "b")


def sfen_of(fen, line):
    """XBoard FEN -> project SFEN (the start position's check is the rules core's)."""
    match = re.match(r"^(\S+?)(?:\[([A-Za-z]*)\])?\s+([wb])\b", fen)
    if not match:
        raise _at_line(line, "unreadable FEN %r" % fen[:60])
    board, hand, side = match.groups()
    counts = {}
    for char in hand or "":
        counts[char] = counts.get(char, 0) + 1
    held = "".join(("%d" % n if n > 1 else "") + char for char, n in sorted(
        counts.items(), key=lambda item: (item[0].islower(), item[0])))
    return "%s %s %s 1" % (board, "b" if side == "w" else "w", held or "-")


def _escape(text):
    return text.replace("\\", "\\\\").replace('"', '\\"')


# -- writing -------------------------------------------------------------------------------


def write_xboard(records, comments=None):
    return "\n".join(_game(record) for record in records)


def _game(record):
    if record.variant != "wa":
        raise RecordError("game %s: the XBoard dialect is for Wa Shogi, not %s; use pgn, kif or csa"
                          % (record.id or "?", record.variant))
    variant = variant_by_name("wa")
    tokens = []

    def add(index, position, move):
        if position.side == BLACK:
            tokens.append("%d." % (index // 2 + 1))
        elif index == 0:
            tokens.append("1. ...")
        tokens.append(move_text(variant, move))
        tokens.append("{%s}" % record.moves[index].at)

    replay(record, add)
    tags = [("Event", "yariboard"), ("Site", "?"), ("Date", parse_stamp(record.date).strftime("%Y.%m.%d")),
            ("Round", "-"), ("White", record.black), ("Black", record.white),
            ("Result", RESULTS[record.winner]), ("Variant", "crazywa"), ("SetUp", "1"),
            ("FEN", xboard_fen(record.start_sfen)), ("Stamp", record.date),
            ("Ending", record.reason or "-"), ("Mode", record.mode), ("Zone", record.zone),
            ("Handicap", record.handicap or "-")]
    lines = ['[%s "%s"]' % (name, _escape(value)) for name, value in tags] + [""]
    line = ""
    for token in tokens + [RESULTS[record.winner]]:
        if line and len(line) + 1 + len(token) > 79:
            lines.append(line)
            line = token
        else:
            line = line + " " + token if line else token
    return "\n".join(lines + [line, ""]) + "\n"


# -- reading -------------------------------------------------------------------------------


def read_xboard(text):
    """Every game of an XBoard PGN text (Wa Shogi)."""
    games, tags, body = [], {}, []
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("["):
            if body:
                games.append(_record(tags, body))
                tags, body = {}, []
            match = TAG_RE.match(stripped)
            if not match:
                raise _at_line(number, "malformed tag %r" % stripped[:60])
            tags[match.group(1)] = (re.sub(r"\\(.)", r"\1", match.group(2)), number)
        elif stripped:
            body.append((number, stripped))
    if tags or body:
        games.append(_record(tags, body))
    if not games:
        raise RecordError("line 1: no game found")
    return games


def _record(tags, body):
    first = min([line for _, line in tags.values()] + [line for line, _ in body[:1]] or [1])
    name, line = tags.get("Variant", ("", first))
    if name.lower() not in VARIANT_NAMES:
        raise _at_line(line, "[Variant \"%s\"] is not Wa Shogi (%s)" % (name[:30], ", ".join(VARIANT_NAMES)))
    record = GameRecord(variant="wa", black=tags.get("White", ("",))[0], white=tags.get("Black", ("",))[0])
    _date(record, tags, first)
    record.mode = tags.get("Mode", ("casual",))[0]
    record.zone = tags.get("Zone", ("",))[0]
    handicap = tags.get("Handicap", ("-",))[0]
    record.handicap = "" if handicap == "-" else handicap
    position = _start(record, tags, first)
    _result(record, tags, first)
    _moves(record, position, body)
    try:
        replay(record)
    except RecordError as error:
        raise _at_line(body[-1][0] if body else first, error)
    return record


def _date(record, tags, first):
    """Our own [Stamp], else XBoard's [Date] (a day: its midnight)."""
    record.date, line = tags.get("Stamp", (None, first))
    if record.date is None:
        date, line = tags.get("Date", ("", first))
        record.date = (date.replace(".", "-") + "T00:00:00Z") if re.match(r"^\d{4}\.\d\d\.\d\d$", date) else ""
    try:
        parse_stamp(record.date)
    except RecordError as error:
        raise _at_line(line, error)


def _start(record, tags, first):
    """The start position: [FEN], else the handicap's or the even start."""
    fen, line = tags.get("FEN", (None, first))
    record.start_sfen = sfen_of(fen, line) if fen else start_sfen_for("wa", record.handicap)
    try:
        position = Position(variant_by_name("wa"), record.start_sfen)
    except ValueError as error:
        raise _at_line(line, "bad start position: %s" % error)
    record.start_sfen = position.sfen()
    return position


def _result(record, tags, first):
    result, line = tags.get("Result", ("*", first))
    if result not in WINNERS:
        raise _at_line(line, "unknown result %r" % result[:20])
    record.winner = WINNERS[result]
    ending = tags.get("Ending", ("-",))[0]
    record.reason = "" if ending == "-" else ending
    if record.winner and not record.reason:
        record.reason = "resignation" if record.winner != "draw" else "adjudication"


def _moves(record, position, body):
    """The moves of the movetext, each followed by the time it was made in braces."""
    variant = position.variant
    at = record.date
    for number, text in body:
        for token in TOKEN_RE.findall(text):
            if token.startswith("{"):
                stamp = token[1:-1].strip()
                if record.moves and re.match(r"^\d{4}-\d\d-\d\dT", stamp):
                    record.moves[-1].at = at = stamp
                continue
            if token.startswith(";") or MOVE_NUMBER_RE.match(token) or token == "..." or token in WINNERS:
                continue
            moves = {move_text(variant, m): m for m in position.legal_moves()}
            move = moves.get(token[:-1] if token.endswith("=") else token)
            if move is None:
                raise _at_line(number, "move %d %r is not legal here" % (len(record.moves) + 1, token[:20]))
            record.moves.append(MoveRecord(to_usi(variant, move), at))
            position.push(move)
