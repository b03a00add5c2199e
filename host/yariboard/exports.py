"""Game record files: PGN-like text (Hodges + USI/SFEN), KIF (standard shogi), JSON.

Writers take GameRecords; readers return GameRecords after replaying every move through the
rules core. Anything a reader cannot accept raises RecordError whose message starts with
`line N:`, so a corrupt file is reported where it is broken and nothing is half-imported.
Each format carries every field of a record, so export then import gives the same game.
"""
import bisect
import datetime
import json
import json.decoder
import json.scanner
import re

from shogicore.errors import MoveError
from shogicore.move import drop_kind, is_drop, is_promotion, make_move, move_from, move_to
from shogicore.notation import parse_hodges, to_hodges, to_usi
from shogicore.position import Position
from shogicore.variants import BLACK, variant_by_name

from yariboard.records import (FIRST_YEAR, LAST_YEAR, GameRecord, MoveRecord, RecordError,
                               parse_stamp, replay, stamp, start_sfen_for)

FORMATS = ("pgn", "kif", "json")
EXTENSIONS = {".pgn": "pgn", ".txt": "pgn", ".kif": "kif", ".kifu": "kif", ".json": "json"}


def format_for_path(path, explicit=None):
    """The format named by `explicit`, else the one the file extension implies."""
    if explicit:
        return explicit
    for extension, name in EXTENSIONS.items():
        if path.lower().endswith(extension):
            return name
    raise RecordError("cannot tell the format of %s; name it with --format (%s)"
                      % (path, ", ".join(FORMATS)))


def export_games(records, fmt):
    writer = {"pgn": write_pgn, "kif": write_kif, "json": write_json}[fmt]
    return writer(records)


def import_games(text, fmt):
    reader = {"pgn": read_pgn, "kif": read_kif, "json": read_json}[fmt]
    return reader(text)


def _at_line(line, error):
    return RecordError("line %d: %s" % (line, error))


# -- PGN-like text -------------------------------------------------------------------------
#
#   [Variant "yari"]  [Black "..."]  [White "..."]  [Date "2025-01-02T10:00:05Z"]
#   [Handicap "-"]  [Mode "casual"]  [Result "1-0"]  [Ending "mate"]
#   [SFEN "<start position>"]  [USI "<the moves in USI, space separated>"]
#
#   1. P-7f {2025-01-02T10:00:09Z} P-3d {2025-01-02T10:00:15Z}
#   2. ...
#   1-0
#
# Result: 1-0 Black won, 0-1 White won, 1/2-1/2 draw, * unfinished.

RESULT_TOKENS = {"black": "1-0", "white": "0-1", "draw": "1/2-1/2", "": "*"}
WINNER_OF_TOKEN = {token: winner for winner, token in RESULT_TOKENS.items()}
PGN_TAGS = ("Variant", "Black", "White", "Date", "Handicap", "Mode", "Result", "Ending",
            "SFEN", "USI")
TAG_RE = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$')
TOKEN_RE = re.compile(r"\{[^}]*\}|[^\s{]+")
MOVE_NUMBER_RE = re.compile(r"^\d+\.(\.\.)?$")


def write_pgn(records):
    return "\n".join(_pgn_game(record) for record in records)


def _pgn_escape(value):
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _pgn_game(record):
    tokens = []
    black_first = Position(variant_by_name(record.variant), record.start_sfen).side == BLACK

    def add(index, position, move):
        if position.side == BLACK or index == 0:
            number = (index + (0 if black_first else 1)) // 2 + 1
            tokens.append("%d." % number if position.side == BLACK else "%d. ..." % number)
        tokens.append(to_hodges(position, move))
        tokens.append("{%s}" % record.moves[index].at)

    replay(record, add)
    tags = {
        "Variant": record.variant, "Black": record.black, "White": record.white,
        "Date": record.date, "Handicap": record.handicap or "-", "Mode": record.mode,
        "Result": RESULT_TOKENS[record.winner], "Ending": record.reason or "-",
        "SFEN": record.start_sfen, "USI": " ".join(record.usi_moves()),
    }
    lines = ['[%s "%s"]' % (name, _pgn_escape(tags[name])) for name in PGN_TAGS]
    lines.append("")
    lines.extend(_wrap(tokens + [tags["Result"]]))
    lines.append("")
    return "\n".join(lines)


def _wrap(tokens, width=79):
    lines, current = [], ""
    for token in tokens:
        if current and len(current) + 1 + len(token) > width:
            lines.append(current)
            current = token
        else:
            current = current + " " + token if current else token
    if current:
        lines.append(current)
    return lines


def read_pgn(text):
    """Every game in a PGN-like text, in file order."""
    games, tags, body, tag_line = [], {}, [], 0
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("["):
            if body:
                games.append(_pgn_record(tags, body, tag_line))
                tags, body = {}, []
            match = TAG_RE.match(stripped)
            if not match:
                raise _at_line(number, "malformed tag %r" % stripped[:60])
            tag_line = tag_line if tags else number
            tags[match.group(1)] = (re.sub(r"\\(.)", r"\1", match.group(2)), number)
        elif stripped:
            if not tags:
                raise _at_line(number, "moves before any [Tag] header")
            body.append((number, stripped))
    if tags:
        games.append(_pgn_record(tags, body, tag_line))
    if not games:
        raise RecordError("line 1: no game found")
    return games


def _pgn_record(tags, body, first_line):
    def tag(name, default=None):
        if name in tags:
            return tags[name]
        if default is None:
            raise _at_line(first_line, "missing [%s] tag" % name)
        return default, first_line

    record = GameRecord()
    record.variant, line = tag("Variant")
    variant = _checked(variant_by_name, record.variant, line=line)
    record.black, _ = tag("Black", "")
    record.white, _ = tag("White", "")
    record.date, line = tag("Date")
    _checked(parse_stamp, record.date, line=line)
    handicap, line = tag("Handicap", "-")
    record.handicap = "" if handicap == "-" else handicap
    if record.handicap:
        _checked(start_sfen_for, record.variant, record.handicap, line=line)
    record.mode, _ = tag("Mode", "casual")
    result, result_line = tag("Result", "*")
    if result not in WINNER_OF_TOKEN:
        raise _at_line(result_line, "unknown result %r (expected 1-0, 0-1, 1/2-1/2 or *)" % result)
    record.winner = WINNER_OF_TOKEN[result]
    ending, line = tag("Ending", "-")
    record.reason = "" if ending == "-" else ending
    sfen, sfen_line = tag("SFEN", start_sfen_for(record.variant, record.handicap))
    record.start_sfen = sfen
    try:
        position = Position(variant, sfen)
    except ValueError as error:
        raise _at_line(sfen_line, "bad start position: %s" % error)

    at = record.date
    result_seen = None
    for number, line in body:
        for token in TOKEN_RE.findall(line):
            if result_seen is not None:
                raise _at_line(number, "text after the result %r" % result_seen)
            if token.startswith("{"):
                if not record.moves:
                    raise _at_line(number, "comment %s before the first move" % token)
                record.moves[-1].at = _checked(lambda t: (parse_stamp(t), t)[1], token[1:-1].strip(),
                                               line=number)
            elif MOVE_NUMBER_RE.match(token) or token == "...":
                continue
            elif token in WINNER_OF_TOKEN:
                if token != result:
                    raise _at_line(number, "result %s disagrees with [Result \"%s\"]" % (token, result))
                result_seen = token
            else:
                try:
                    move = parse_hodges(position, token)
                except MoveError as error:
                    raise _at_line(number, "move %d %r: %s" % (len(record.moves) + 1, token, error))
                record.moves.append(MoveRecord(to_usi(variant, move), at))
                position.push(move)
            if record.moves:
                at = record.moves[-1].at
    usi, usi_line = tag("USI", " ".join(record.usi_moves()))
    if usi.split() != record.usi_moves():
        raise _at_line(usi_line, "[USI] moves disagree with the move text")
    return _validated(record, first_line)


def _checked(function, *args, line):
    try:
        return function(*args)
    except (RecordError, ValueError) as error:
        raise _at_line(line, error)


def _validated(record, line, move_lines=None):
    """Replay the whole record; report a failure at the line of the move that broke it."""
    try:
        replay(record)
    except RecordError as error:
        match = re.match(r"move (\d+)", str(error))
        if match and move_lines:
            line = move_lines[int(match.group(1)) - 1]
        raise _at_line(line, error)
    return record


# -- KIF (standard shogi) ------------------------------------------------------------------

KIF_PIECES = {"P": "歩", "L": "香", "N": "桂", "S": "銀", "G": "金", "B": "角", "R": "飛",
              "K": "玉", "+P": "と", "+L": "成香", "+N": "成桂", "+S": "成銀", "+B": "馬",
              "+R": "龍"}
KIF_PIECE_ALIASES = {"王": "K", "竜": "+R", "杏": "+L", "圭": "+N", "全": "+S"}
SYMBOL_OF_KIF = dict({name: symbol for symbol, name in KIF_PIECES.items()}, **KIF_PIECE_ALIASES)
FULL_WIDTH = "１２３４５６７８９"
KANJI = "一二三四五六七八九"
KIF_DATE = "%Y/%m/%d %H:%M:%S"
KIF_MOVE_HEADER = "手数----指手---------消費時間--"
SIDE_NAMES = {"black": "先手", "white": "後手"}
# How the game ended, as the word KIF writes in the move column after the last move.
KIF_ENDINGS = {"mate": "詰み", "resignation": "投了", "repetition": "千日手",
               "perpetual-check": "連続王手の千日手", "illegal-move": "反則負け",
               "adjudication": "判定"}
KIF_IMPASSE_WIN, KIF_IMPASSE_DRAW, KIF_SUSPENDED = "入玉勝ち", "持将棋", "中断"
KIF_MOVE_RE = re.compile(
    r"^\s*(\d+)\s+(?:(同\s*|[１-９][一二三四五六七八九])(成香|成桂|成銀|[歩香桂銀金角飛玉王と杏圭全馬龍竜])"
    r"(打|成|不成)?(?:\((\d)(\d)\))?|(\S+))\s*(?:\(\s*(\d+):(\d\d)\s*/\s*[\d:]+\s*\))?\s*$")
KIF_RESULT_RE = re.compile(r"^まで、?(\d+)手で(?:(先手|後手|下手|上手)の\S*?(勝ち|負け)|(千日手|持将棋|引き分け|中断))?")


def write_kif(records):
    return "\n".join(_kif_game(record) for record in records)


def _kif_game(record):
    if record.variant != "shogi" or record.start_sfen != variant_by_name("shogi").start_sfen:
        raise RecordError("game %s: KIF holds standard shogi from the even start only; "
                          "use pgn or json" % (record.id or "?"))
    lines = [
        "# KIF (yariboard); times are UTC",
        "開始日時：%s" % parse_stamp(record.date).strftime(KIF_DATE),
        "手合割：平手",
        "先手：%s" % record.black,
        "後手：%s" % record.white,
        "対局モード：%s" % record.mode,
        KIF_MOVE_HEADER,
    ]
    variant = variant_by_name("shogi")
    used = [0, 0]
    previous = [parse_stamp(record.date), None]  # time of the last move, its destination

    def add(index, position, move):
        when = parse_stamp(record.moves[index].at)
        spent = int((when - previous[0]).total_seconds())
        used[position.side] += spent
        text = _kif_move(variant, position, move, previous[1])
        lines.append("%4d %s   (%2d:%02d/%s)" % (index + 1, _pad(text, 14), spent // 60, spent % 60,
                                              _hms(used[position.side])))
        previous[0], previous[1] = when, move_to(move)

    replay(record, add)
    plies = len(record.moves)
    if record.reason:
        if record.reason == "impasse":
            word = KIF_IMPASSE_DRAW if record.winner == "draw" else KIF_IMPASSE_WIN
        else:
            word = KIF_ENDINGS[record.reason]
        lines.append("%4d %s" % (plies + 1, word))
        if record.winner == "draw":
            outcome = {"repetition": "千日手", "impasse": "持将棋"}.get(record.reason, "引き分け")
        else:
            outcome = "%sの勝ち" % SIDE_NAMES[record.winner]
        lines.append("まで%d手で%s" % (plies, outcome))
    else:
        lines.append("%4d %s" % (plies + 1, KIF_SUSPENDED))
    return "\n".join(lines) + "\n"


def _pad(text, width):
    """Pad to a display width (full-width characters count twice), as KIF readers align."""
    shown = sum(1 if ord(c) < 0x80 else 2 for c in text)
    return text + " " * max(0, width - shown)


def _hms(seconds):
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def _kif_move(variant, position, move, last_to):
    to = move_to(move)
    if last_to == to:
        where = "同　"
    else:
        where = FULL_WIDTH[variant.file_of(to) - 1] + KANJI[variant.rank_of(to) - 1]
    if is_drop(move):
        return where + KIF_PIECES[variant.symbol(drop_kind(move))] + "打"
    frm = move_from(move)
    kind = position.piece_at(frm) & 15
    text = where + KIF_PIECES[variant.symbol(kind)]
    if is_promotion(move):
        text += "成"
    # A declined promotion is left unmarked: "不成" is optional in KIF and some readers reject it.
    return text + "(%d%d)" % (variant.file_of(frm), variant.rank_of(frm))


def read_kif(text):
    """One game in KIF (a file holds one game). Times are read as UTC."""
    record = GameRecord(variant="shogi")
    variant = variant_by_name("shogi")
    record.start_sfen = variant.start_sfen
    position = Position(variant, record.start_sfen)
    start, clock, last_to = None, None, None
    ending = None
    move_lines = []
    in_moves = False
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith("#") or line.startswith("*") or line.startswith("&"):
            continue
        if not in_moves:
            if line.startswith("手数"):
                in_moves = True
                continue
            key, colon, value = line.partition("：")
            if not colon:
                raise _at_line(number, "expected a 'key：value' header or the move table")
            value = value.strip()
            if key == "開始日時":
                try:
                    start = datetime.datetime.strptime(value, KIF_DATE).replace(
                        tzinfo=datetime.timezone.utc)
                except ValueError:
                    raise _at_line(number, "bad start date %r (expected YYYY/MM/DD HH:MM:SS)" % value)
                if not FIRST_YEAR <= start.year <= LAST_YEAR:
                    raise _at_line(number, "start date %r out of range (years %d to %d)"
                                   % (value, FIRST_YEAR, LAST_YEAR))
                record.date = clock = stamp(start)
            elif key == "手合割" and value != "平手":
                raise _at_line(number, "only even games (手合割：平手) are read from KIF, not %r" % value)
            elif key in ("先手", "下手"):
                record.black = value
            elif key in ("後手", "上手"):
                record.white = value
            elif key == "対局モード":
                record.mode = value
            elif key in ("先手の持駒", "後手の持駒", "手番"):
                raise _at_line(number, "KIF from a set-up position is not supported")
            continue
        result = KIF_RESULT_RE.match(line)
        if result:
            if ending is None:
                raise _at_line(number, "result line without an ending word before it")
            side, outcome, draw = result.group(2, 3, 4)
            if draw == "中断":
                record.winner = record.reason = ""
            elif draw:
                record.winner = "draw"
            elif side:
                first = side in ("先手", "下手")
                record.winner = "black" if first == (outcome == "勝ち") else "white"
            continue
        match = KIF_MOVE_RE.match(line)
        if not match:
            raise _at_line(number, "unreadable move line %r" % line[:40])
        if ending is not None:
            raise _at_line(number, "move after the game ended")
        if int(match.group(1)) != len(record.moves) + 1:
            raise _at_line(number, "move number %s, expected %d" % (match.group(1), len(record.moves) + 1))
        if match.group(7):
            ending = _kif_ending(match.group(7), position, number)
            record.reason, record.winner = ending
            continue
        if start is None:
            raise _at_line(number, "missing 開始日時 (start date) header")
        move = _kif_parse_move(variant, position, match, last_to, number)
        if match.group(8) is not None:
            clock = _checked(_kif_clock, clock, match.group(8), match.group(9), line=number)
        record.moves.append(MoveRecord(to_usi(variant, move), clock))
        move_lines.append(number)
        position.push(move)
        last_to = move_to(move)
    if not in_moves:
        raise RecordError("line %d: no move table (the '手数----指手' line) found"
                          % (len(text.splitlines()) or 1))
    if start is None:
        raise RecordError("line 1: missing 開始日時 (start date) header")
    return [_validated(record, 1, move_lines)]


def _kif_clock(clock, minutes, seconds):
    """The time after a move that took `minutes`:`seconds`, as a checked stamp."""
    try:
        later = parse_stamp(clock) + datetime.timedelta(minutes=int(minutes),
                                                        seconds=int(seconds))
    except OverflowError:
        raise RecordError("move time %s:%s is out of range" % (minutes[:12], seconds))
    return stamp(parse_stamp(stamp(later)))   # refused past the last year a stamp may have


def _kif_ending(word, position, line):
    """(reason, winner) for a KIF ending word; the `まで` line, if any, may restate the winner."""
    mover = "black" if position.side == BLACK else "white"
    other = "white" if mover == "black" else "black"
    if word == KIF_SUSPENDED:
        return "", ""
    if word in (KIF_IMPASSE_WIN, "入玉宣言"):
        return "impasse", mover
    if word == KIF_IMPASSE_DRAW:
        return "impasse", "draw"
    for reason, kif_word in KIF_ENDINGS.items():
        if word == kif_word:
            if reason == "repetition":
                return reason, "draw"
            if reason == "perpetual-check":
                return reason, mover
            return reason, other
    raise _at_line(line, "unknown ending %r" % word)


def _kif_parse_move(variant, position, match, last_to, line):
    where, piece, action, from_file, from_rank = match.group(2, 3, 4, 5, 6)
    if where.startswith("同"):
        if last_to is None:
            raise _at_line(line, "同 (same square) on the first move")
        to = last_to
    else:
        to = variant.square(FULL_WIDTH.index(where[0]) + 1, KANJI.index(where[1]) + 1)
    symbol = SYMBOL_OF_KIF[piece]
    if action == "打":
        if from_file:
            raise _at_line(line, "a drop has no origin square")
        candidates = [m for m in position.legal_moves()
                      if is_drop(m) and move_to(m) == to and variant.symbol(drop_kind(m)) == symbol]
    else:
        if not from_file:
            raise _at_line(line, "a move needs its origin square, as (77)")
        if from_file == "0" or from_rank == "0":
            raise _at_line(line, "no square %s%s on the board" % (from_file, from_rank))
        frm = variant.square(int(from_file), int(from_rank))
        if variant.symbol(position.piece_at(frm) & 15) != symbol:
            raise _at_line(line, "no %s on %s%s" % (piece, from_file, from_rank))
        move = make_move(frm, to, action == "成")
        candidates = [move] if position.is_legal(move) else []
    if not candidates:
        raise _at_line(line, "move %d %r is not legal here" % (len(position.moves()) + 1,
                                                              match.group(0).strip()))
    return candidates[0]


# -- JSON ----------------------------------------------------------------------------------

JSON_FORMAT = "yariboard-games"
JSON_VERSION = 1
HEADER_FIELDS = ("variant", "start_sfen", "black", "white", "date", "handicap", "mode",
                 "winner", "reason")


def write_json(records):
    """Indented JSON with one move object per line (diffable; errors name a useful line)."""
    games = []
    for record in records:
        hodges = []
        replay(record, lambda index, position, move: hodges.append(to_hodges(position, move)))
        fields = ['   %s: %s' % (json.dumps(name), json.dumps(getattr(record, name), ensure_ascii=False))
                  for name in HEADER_FIELDS]
        moves = ['    %s' % json.dumps({"usi": m.usi, "hodges": h, "at": m.at}, ensure_ascii=False)
                 for m, h in zip(record.moves, hodges)]
        fields.append('   "moves": [' + ("\n" + ",\n".join(moves) + "\n   ]" if moves else "]"))
        games.append("  {\n" + ",\n".join(fields) + "\n  }")
    return ('{\n "format": %s,\n "version": %d,\n "games": [%s]\n}\n'
            % (json.dumps(JSON_FORMAT), JSON_VERSION,
               "\n" + ",\n".join(games) + "\n " if games else ""))


class _LineDict(dict):
    """A JSON object that remembers the line it started on."""
    line = 0


JSON_DEPTH = 32   # a games file nests four deep; far deeper is not one (and would recurse)


def _check_depth(text):
    """Refuse JSON nested deeper than JSON_DEPTH before parsing it (the parser recurses)."""
    depth, in_string, escaped, line = 0, False, False, 1
    for c in text:
        if c == "\n":
            line += 1
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > JSON_DEPTH:
                raise _at_line(line, "JSON nested more than %d deep" % JSON_DEPTH)
        elif c in "]}":
            depth -= 1


def _line_aware_loads(text):
    """json.loads, but every object is a _LineDict knowing its line (for error messages)."""
    _check_depth(text)
    newlines = [i for i, c in enumerate(text) if c == "\n"]
    decoder = json.JSONDecoder()
    plain_object = decoder.parse_object

    def parse_object(s_and_end, *args):
        obj, end = plain_object(s_and_end, *args)
        positioned = _LineDict(obj)
        positioned.line = bisect.bisect_left(newlines, s_and_end[1] - 1) + 1
        return positioned, end

    decoder.parse_object = parse_object
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    try:
        return decoder.decode(text)
    except json.JSONDecodeError as error:
        raise _at_line(error.lineno, "not valid JSON: %s (column %d)" % (error.msg, error.colno))


def read_json(text):
    data = _line_aware_loads(text)
    if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
        raise _at_line(getattr(data, "line", 1), "not a yariboard games file (no \"format\": \"%s\")"
                       % JSON_FORMAT)
    if data.get("version") != JSON_VERSION:
        raise _at_line(data.line, "unsupported version %r" % data.get("version"))
    games = data.get("games")
    if not isinstance(games, list):
        raise _at_line(data.line, "\"games\" must be a list")
    return [_json_record(game) for game in games]


def _json_record(game):
    if not isinstance(game, dict):
        raise _at_line(1, "each game must be an object")
    record = GameRecord()
    for name in HEADER_FIELDS:
        value = game.get(name, "" if name not in ("variant", "date", "start_sfen") else None)
        if not isinstance(value, str):
            raise _at_line(game.line, "game field %r must be a string" % name)
        setattr(record, name, value)
    moves = game.get("moves", [])
    if not isinstance(moves, list):
        raise _at_line(game.line, "\"moves\" must be a list")
    lines = []
    for entry in moves:
        line = getattr(entry, "line", game.line)
        if not isinstance(entry, dict) or not isinstance(entry.get("usi"), str) \
                or not isinstance(entry.get("at"), str):
            raise _at_line(line, "a move needs \"usi\" and \"at\" strings")
        record.moves.append(MoveRecord(entry["usi"], entry["at"]))
        lines.append(line)
    _validated(record, game.line, lines)
    # The optional human notation must agree with the USI moves it sits beside.
    checks = []
    replay(record, lambda index, position, move: checks.append(to_hodges(position, move)))
    for entry, expected, line in zip(moves, checks, lines):
        if "hodges" in entry and entry["hodges"] != expected:
            raise _at_line(line, "\"hodges\" %r does not match \"usi\" %r (%s)"
                           % (entry["hodges"], entry["usi"], expected))
    return record
