"""Game record files: PGN-like text (Hodges + USI/SFEN), JSON, and in their own modules KIF,
KI2, CSA, JKF and plain USI lines (usi.py).

Writers take GameRecords; readers return GameRecords after replaying every move through the
rules core. Anything a reader cannot accept raises RecordError whose message starts with
`line N:`, so a corrupt file is reported where it is broken and nothing is half-imported.
Each format carries every field of a record, so export then import gives the same game.
"""
import bisect
import json
import json.decoder
import json.scanner
import re

from shogicore.errors import MoveError
from shogicore.variants import BLACK, variant_by_name

from yariboard.records import analysis

from yariboard.records.formats import csa, jkf, ki2, kif, usi, xboard_pgn
from yariboard.records.notation import parse_hodges, to_hodges
from yariboard.records.game import (GameRecord, MoveRecord, RecordError, parse_stamp, replay,
                                    settle, stamp_seconds, start_sfen_for, walk)
from yariboard.records.playback import RecordPosition, usi_table

FORMATS = ("pgn", "kif", "ki2", "csa", "json", "jkf", "usi", "xboard")
EXTENSIONS = {".pgn": "pgn", ".txt": "pgn", ".kif": "kif", ".kifu": "kif", ".ki2": "ki2",
              ".ki2u": "ki2", ".json": "json", ".jkf": "jkf", ".csa": "csa", ".usi": "usi",
              ".sfen": "usi"}


def format_for_path(path, explicit=None):
    """The format named by `explicit`, else the one the file extension implies."""
    if explicit:
        return explicit
    for extension, name in EXTENSIONS.items():
        if path.lower().endswith(extension):
            return name
    raise RecordError("cannot tell the format of %s; name it with --format (%s)"
                      % (path, ", ".join(FORMATS)))


def export_games(records, fmt, analyses=None):
    """The records as text; `analyses` ({game id: analysis.Analysis}) adds their comments."""
    analyses = analyses or {}
    render = {"pgn": analysis.pgn_comments, "kif": analysis.kif_comments,
              "ki2": analysis.kif_comments, "jkf": analysis.kif_comments,
              "usi": lambda record, result: None, "xboard": lambda record, result: None,
              "csa": lambda record, result: {ply: [text] for ply, text
                                             in analysis.pgn_comments(record, result).items()},
              "json": analysis.json_fields}[fmt]

    def comments(record):
        return render(record, analyses[record.id]) if record.id in analyses else None

    writer = {"pgn": write_pgn, "kif": kif.write_kif, "ki2": ki2.write_ki2, "csa": csa.write_csa,
              "json": write_json, "jkf": jkf.write_jkf, "usi": usi.write_usi,
              "xboard": xboard_pgn.write_xboard}[fmt]
    return writer(records, comments)


def import_games(text, fmt):
    reader = {"pgn": read_pgn, "kif": kif.read_kif, "ki2": ki2.read_ki2, "csa": csa.read_csa,
              "json": read_json, "jkf": jkf.read_jkf, "usi": usi.read_usi,
              "xboard": xboard_pgn.read_xboard}[fmt]
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
XBOARD_VARIANT_RE = re.compile(r'^\[Variant\s+"(crazywa|11x11\+16_chu)"\]', re.MULTILINE)


def write_pgn(records, comments=None):
    """`comments(record)` may give {ply: text}, written as a `{...}` after the move's time."""
    return "\n".join(_pgn_game(record, (comments and comments(record)) or {}) for record in records)


def _pgn_escape(value):
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _pgn_game(record, notes):
    tokens = []
    black_first = [True]

    def add(index, position, move):
        if index == 0:
            black_first[0] = position.side == BLACK
        if position.side == BLACK or index == 0:
            number = (index + (0 if black_first[0] else 1)) // 2 + 1
            tokens.append("%d." % number if position.side == BLACK else "%d. ..." % number)
        tokens.append(to_hodges(position, move))
        tokens.append("{%s}" % record.moves[index].at)
        if index + 1 in notes:
            tokens.append("{%s}" % notes[index + 1].replace("}", ")"))

    walk(record, add)
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
    """Every game in a PGN-like text, in file order (XBoard's Wa Shogi PGN goes to its reader)."""
    if XBOARD_VARIANT_RE.search(text):
        return xboard_pgn.read_xboard(text)
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
        position = RecordPosition(variant, sfen)
    except ValueError as error:
        raise _at_line(sfen_line, "bad start position: %s" % error)

    _read_movetext(record, position, body, result)
    usi, usi_line = tag("USI", " ".join(record.usi_moves()))
    if usi.split() != record.usi_moves():
        raise _at_line(usi_line, "[USI] moves disagree with the move text")
    try:
        return settle(record, position)
    except RecordError as error:
        raise _at_line(first_line, error)


def _read_movetext(record, position, body, result):
    """The moves in Hodges notation, each followed by its time in braces, then the result."""
    usi = usi_table(position.variant)
    at = record.date
    result_seen = None
    for number, line in body:
        for token in TOKEN_RE.findall(line):
            if result_seen is not None:
                raise _at_line(number, "text after the result %r" % result_seen)
            if token[0] == "{":
                if token.startswith("{[%"):
                    continue  # an analysis comment ({[%eval ...] ...}), not a time
                if not record.moves:
                    raise _at_line(number, "comment %s before the first move" % token)
                at = record.moves[-1].at = _checked(_checked_stamp, token[1:-1].strip(), line=number)
            elif token[0].isdigit() and MOVE_NUMBER_RE.match(token) or token == "...":
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
                record.moves.append(MoveRecord(usi[move], at))
                position.push(move)


def _checked_stamp(text):
    stamp_seconds(text)
    return text


def _checked(function, *args, line):
    try:
        return function(*args)
    except (RecordError, ValueError) as error:
        raise _at_line(line, error)


def _validated(record, line, move_lines=None, on_move=None):
    """Replay the whole record; report a failure at the line of the move that broke it."""
    try:
        replay(record, on_move)
    except RecordError as error:
        match = re.match(r"move (\d+)", str(error))
        if match and move_lines:
            line = move_lines[int(match.group(1)) - 1]
        raise _at_line(line, error)
    return record


# -- JSON ----------------------------------------------------------------------------------

JSON_FORMAT = "yariboard-games"
JSON_VERSION = 1
HEADER_FIELDS = ("variant", "start_sfen", "black", "white", "date", "handicap", "mode",
                 "winner", "reason")


def write_json(records, comments=None):
    """Indented JSON with one move object per line (diffable; errors name a useful line).

    `comments(record)` may give (header, {ply: fields}): an "analysis" object for the game
    and fields added to each move (eval, loss, mark, best; see analysis.json_fields)."""
    games = []
    for record in records:
        texts = []
        walk(record, lambda index, position, move: texts.append(to_hodges(position, move)))
        fields = ['   %s: %s' % (json.dumps(name), json.dumps(getattr(record, name), ensure_ascii=False))
                  for name in HEADER_FIELDS]
        header, extra = (comments and comments(record)) or (None, {})
        if header:
            fields.append('   "analysis": %s' % json.dumps(header, ensure_ascii=False))
        moves = ['    %s' % json.dumps(dict({"usi": m.usi, "hodges": h, "at": m.at}, **extra.get(ply, {})),
                                       ensure_ascii=False)
                 for ply, (m, h) in enumerate(zip(record.moves, texts), 1)]
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
    except ValueError:   # Python reads no whole number of more than 4300 digits
        raise _at_line(1, "not valid JSON: a number of more than 4300 digits")


def read_json(text):
    data = _line_aware_loads(text)
    if isinstance(data, dict) and "format" not in data and ("moves" in data or "header" in data):
        return jkf.read_jkf(text)    # a JKF record named .json (Kifu-for-JS's examples)
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
    # The optional human notation must agree with the USI moves it sits beside.
    checks = []
    _validated(record, game.line, lines,
               lambda index, position, move: checks.append(to_hodges(position, move)))
    for entry, expected, line in zip(moves, checks, lines):
        if "hodges" in entry and entry["hodges"] != expected:
            raise _at_line(line, "\"hodges\" %r does not match \"usi\" %r (%s)"
                           % (entry["hodges"], entry["usi"], expected))
    return record
