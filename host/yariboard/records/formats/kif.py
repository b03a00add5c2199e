"""KIF game records: standard shogi (even and handicap games) and a KIF dialect for Yari.

KIF is what Japanese shogi software writes (Kifu for Windows, ShogiHome, Shogidokoro).
Standard shogi is written as those tools write it, so they (and cshogi, python-shogi) read
our files; handicaps are named in the `手合割` header. Yari games use the same layout with a
`変種：槍将棋` header, 7 files, and the traditional names of the Yari pieces; only yariboard
reads that dialect, and it re-imports every field of the record.

Reading accepts what Kifu for Windows and ShogiHome write: comments (`*`), bookmarks (`&`),
the `+` after a move that has variations, variation sections (`変化：N手`; the main line is
kept, the variations are skipped), times with or without hours, and a start date with or
without seconds or weekday. Files named `.kif` are Shift_JIS (CP932) by convention, `.kifu`
UTF-8 (see `encoding_for`).
"""
import functools
import re

from shogicore.move import drop_kind, is_drop, is_promotion, make_drop, make_move, move_from, move_to
from shogicore.variants import BLACK, variant_by_name

from yariboard.records.declaration import declaration_wins
from yariboard.records.formats import bod, dates
from yariboard.records.game import (GameRecord, MoveRecord, RecordError,
                               handicap_of, now_stamp, settle, stamp_at,
                                    stamp_seconds, walk)
from yariboard.records.playback import RecordPosition, usi_table

PIECES = {
    "shogi": {"P": "歩", "L": "香", "N": "桂", "S": "銀", "G": "金", "B": "角", "R": "飛",
              "K": "玉", "+P": "と", "+L": "成香", "+N": "成桂", "+S": "成銀", "+B": "馬",
              "+R": "龍"},
    # Yari: the pieces' Japanese names (香 = "lance-like", as the Yari pieces slide forward).
    "yari": {"P": "歩", "N": "香桂", "B": "香角", "R": "香飛", "K": "玉", "+P": "香銀",
             "+N": "成香桂", "+B": "成香角", "+R": "飛"},
}
PIECE_ALIASES = {"shogi": {"王": "K", "竜": "+R", "杏": "+L", "圭": "+N", "全": "+S"},
                 "yari": {"王": "K"}}
YARI_HEADER = ("変種", "槍将棋")

# Handicap names as KIF writes them after 手合割 (the start positions are the rules core's).
# The handicapped side (上手, White) moves first.
SHOGI_HANDICAP_WORDS = {"lance": "香落ち", "right-lance": "右香落ち", "bishop": "角落ち",
                        "rook": "飛車落ち", "rook-lance": "飛香落ち", "two-pieces": "二枚落ち",
                        "three-pieces": "三枚落ち", "four-pieces": "四枚落ち", "five-pieces": "五枚落ち",
                        "left-five-pieces": "左五枚落ち", "six-pieces": "六枚落ち",
                        "left-seven-pieces": "左七枚落ち", "right-seven-pieces": "右七枚落ち",
                        "eight-pieces": "八枚落ち", "ten-pieces": "十枚落ち"}
# The handicaps whose 手合割 words tsshogi (ShogiHome) and other readers do not know: written
# with the board diagram after the word, so that they read the position from the diagram.
DIAGRAM_TOO = ("三枚落ち", "五枚落ち", "左五枚落ち", "左七枚落ち", "右七枚落ち")
SHOGI_HANDICAPS = {word: variant_by_name("shogi").handicaps[name]
                   for name, word in SHOGI_HANDICAP_WORDS.items()}
# Yari handicaps (names from shogicore's Yari variant) in KIF words.
YARI_HANDICAPS = {"bishop": "角落ち", "rook": "飛車落ち", "two-pieces": "二枚落ち",
                  "four-pieces": "四枚落ち", "six-pieces": "六枚落ち"}
EVEN = "平手"

FULL_WIDTH = "１２３４５６７８９"
KANJI = "一二三四五六七八九"
DATE_FORMAT = "%Y/%m/%d %H:%M:%S"
MOVE_HEADER = "手数----指手---------消費時間--"
# An unfinished game's last line when it is not 中断 (封じ手, a sealed move), kept as a tag.
ENDING_TAG = "終局"
# The KIF text of the illegal move a game was lost by (it is not one of the record's moves).
ILLEGAL_TAG = "反則手"
SIDE_NAMES = {"black": "先手", "white": "後手"}
HANDICAP_SIDE_NAMES = {"black": "下手", "white": "上手"}
ENDINGS = {"mate": "詰み", "resignation": "投了", "repetition": "千日手",
           "perpetual-check": "連続王手の千日手", "illegal-move": "反則負け",
           "adjudication": "判定", "time": "切れ負け", "declaration": "入玉勝ち",
           "abandoned": "中断"}
IMPASSE_WIN, IMPASSE_DRAW, SUSPENDED = "入玉勝ち", "持将棋", "中断"
RESULT_RE = re.compile(r"^まで、?(\d+)手で(?:(先手|後手|下手|上手)の\S*?(勝ち|負け)|(千日手|持将棋|引き分け|中断))?")
# Kifu for Windows writes dates as 2024/01/02(火) 10:00:05; ShogiHome may leave out seconds.
DATE_RE = re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})(?:\s*\(\S\))?(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$")
TIME_RE = re.compile(r"\(\s*(\d+):(\d\d)(?:\s*/\s*[\d:]*)?\s*\)")


def encoding_for(path):
    """Shift_JIS (CP932) for `.kif` and `.ki2`, as Japanese tools expect; UTF-8 for `.kifu`,
    `.ki2u` and others."""
    return "cp932" if path.lower().endswith((".kif", ".ki2")) else "utf-8"


def _move_re(variant_name):
    names = sorted(set(PIECES[variant_name].values()) | set(PIECE_ALIASES[variant_name]),
                   key=len, reverse=True)
    files = FULL_WIDTH[:variant_by_name(variant_name).files]
    return re.compile(
        r"^\s*(\d+)\s+(?:(同\s*|[%s][一二三四五六七八九])(%s)(打|成|不成)?(?:\((\d)(\d)\))?|((?:先手|後手|下手|上手)?\s*\S+))"
        r"\s*(\(\s*[\d:]+\s*(?:/\s*[\d:]*\s*)?\))?\s*(\+)?\s*$" % (files, "|".join(names)))


MOVE_RES = {name: _move_re(name) for name in PIECES}


# -- writing -------------------------------------------------------------------------------


def handicap_name(record):
    """The 手合割 word for the record's start position; RecordError if KIF cannot name it."""
    rules = variant_by_name(record.variant)
    if record.start_sfen == rules.start_sfen:
        return EVEN
    if record.variant == "yari":
        for name, sfen in rules.handicaps.items():
            if sfen == record.start_sfen:
                return YARI_HANDICAPS[name]
    elif record.variant == "shogi":
        for name, sfen in SHOGI_HANDICAPS.items():
            if sfen == record.start_sfen:
                return name
    raise RecordError("game %s: KIF holds games from the even start or a named handicap only; "
                      "use pgn or json" % (record.id or "?"))


def write_kif(records, comments=None):
    """KIF text of the records. `comments(record)` may give {ply: [lines]} to add as `*` lines."""
    return "\n".join(_game(record, (comments and comments(record)) or {}) for record in records)


def head_lines(record, apart=(ENDING_TAG,)):
    """The header lines of a KIF or KI2 game, and the names its sides go by there; the tags
    `apart` are written elsewhere (KIF writes the illegal move that lost as a move)."""
    if record.variant not in PIECES:
        raise RecordError("game %s: KIF and KI2 hold standard shogi and Yari games, not %s"
                          % (record.id or "?", record.variant))
    try:
        word = handicap_name(record)
        position_lines = ["手合割：%s" % word]
        names = HANDICAP_SIDE_NAMES if word != EVEN else SIDE_NAMES
        if word in DIAGRAM_TOO:
            # the diagram first: readers that know the word (cshogi, python-shogi) take the
            # position from it, those that do not (tsshogi) keep the diagram's
            position_lines = bod.write_diagram(record.start_sfen) + position_lines
    except RecordError:
        if record.variant != "shogi":
            raise
        position_lines = bod.write_diagram(record.start_sfen)
        names = SIDE_NAMES if record.tag("手合割").strip() in ("", EVEN) else HANDICAP_SIDE_NAMES
    lines = ["# yariboard: times in %s" % (record.zone or "UTC")]
    if record.tag("開始日時") == "":
        lines.append("開始日時：%s" % dates.write_date(record.date, record.zone))
    lines += ["%s：%s" % (key, _one_line(value)) for key, value in record.tags if key not in apart]
    if record.variant == "yari":
        lines.append("%s：%s" % YARI_HEADER)
    lines += position_lines
    lines += ["%s：%s" % (names["black"], record.black),
              "%s：%s" % (names["white"], record.white)]
    if record.mode != "casual":       # yariboard's own header; casual when it is missing
        lines.append("対局モード：%s" % record.mode)
    return lines, names


def _game(record, notes):
    lines, names = head_lines(record, (ENDING_TAG, ILLEGAL_TAG))
    lines.append(MOVE_HEADER)
    lines += comment_lines(record.comments.get(0, ""), notes.get(0, []))
    variant = variant_by_name(record.variant)
    used = [0, 0]
    previous = [stamp_seconds(record.date), None]  # time of the last move, its destination
    comments = record.comments

    def add(index, position, move):
        when = stamp_seconds(record.moves[index].at)
        spent = when - previous[0]
        used[position.side] += spent
        text = move_text(variant, position, move, previous[1])
        lines.append("%4d %s   (%2d:%02d/%s)" % (index + 1, _padded(text), spent // 60, spent % 60,
                                              _hms(used[position.side])))
        if index + 1 in comments or index + 1 in notes:
            lines.extend(comment_lines(comments.get(index + 1, ""), notes.get(index + 1, [])))
        previous[0], previous[1] = when, move_to(move)

    final = walk(record, add)
    plies = len(record.moves)
    if record.reason == "illegal-move" and record.tag(ILLEGAL_TAG):
        # the move that lost is written as the file had it, then the side to move wins
        plies += 1
        lines.append("%4d %s" % (plies, record.tag(ILLEGAL_TAG)))
        lines.extend(comment_lines(record.comments.get(plies, ""), []))
        lines.append("%4d 反則勝ち" % (plies + 1))
        lines.extend(comment_lines(record.comments.get(plies + 1, ""), []))
        lines.append("まで%d手で%sの反則勝ち" % (plies, names[record.winner]))
    elif record.reason:
        if record.reason == "impasse":
            word = IMPASSE_DRAW if record.winner == "draw" else IMPASSE_WIN
        elif record.reason == "illegal-move" and _ending("反則勝ち", final, 0)[1] == record.winner:
            word = "反則勝ち"        # the side to move wins: the other side's illegal action
        else:
            word = ENDINGS[record.reason]
        lines.append("%4d %s" % (plies + 1, word))
        lines.extend(comment_lines(record.comments.get(plies + 1, ""), []))
        if record.winner == "draw":
            outcome = {"repetition": "千日手", "impasse": "持将棋"}.get(record.reason, "引き分け")
        else:
            outcome = "%sの勝ち" % names[record.winner]
        lines.append("まで%d手で%s" % (plies, outcome))
    else:
        lines.append("%4d %s" % (plies + 1, record.tag(ENDING_TAG) or SUSPENDED))
        lines.extend(comment_lines(record.comments.get(plies + 1, ""), []))
    return "\n".join(lines) + "\n"


def _one_line(text):
    return " ".join(text.splitlines())


def comment_lines(comment, analysis):
    """A record's comment, one `*` line for each of its lines, then the analysis lines."""
    return ["*" + line for line in comment.split("\n") if comment] + ["*" + text for text in analysis]


@functools.lru_cache(maxsize=4096)
def _padded(text, width=14):
    """Pad to a display width (full-width characters count twice), as KIF readers align."""
    shown = sum(1 if ord(c) < 0x80 else 2 for c in text)
    return text + " " * max(0, width - shown)


def _hms(seconds):
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def move_text(variant, position, move, last_to):
    """One move in KIF words, e.g. ７六歩(77), 同　角成(88), ５五香桂打."""
    destinations, origins, pieces = _words(variant)
    to = move_to(move)
    where = "同　" if last_to == to else destinations[to]
    if is_drop(move):
        return where + pieces[drop_kind(move)] + "打"
    frm = move_from(move)
    text = where + pieces[position.piece_at(frm) & 31]
    if is_promotion(move):
        text += "成"
    # A declined promotion is left unmarked: "不成" is optional in KIF and some readers reject it.
    return text + origins[frm]


@functools.lru_cache(maxsize=None)
def _words(variant):
    """The KIF words of a variant, looked up for every move written: {square: `７六`},
    {square: `(76)`}, {kind: `歩`}."""
    destinations, origins = {}, {}
    for square in variant.squares:
        file, rank = variant.file_of(square), variant.rank_of(square)
        destinations[square] = FULL_WIDTH[file - 1] + KANJI[rank - 1]
        origins[square] = "(%d%d)" % (file, rank)
    pieces = {variant.kind_of(symbol): name for symbol, name in PIECES[variant.name].items()}
    return destinations, origins, pieces


# -- reading -------------------------------------------------------------------------------


def _at_line(line, error):
    return RecordError("line %d: %s" % (line, error))


def read_kif(text):
    """The main line of the one game in a KIF text, with its headers and comments.

    Times are Japan's (UTC+9) unless yariboard wrote the file and named its zone. Without a
    readable 開始日時 header (ShogiHome leaves it out of edited records) the game is dated at
    the moment of import, and the header's text is kept.
    """
    return [record_of(*scan(text))]


def scan(text, ki2=False):
    """(headers, body lines, diagram SFEN or None, zone, side to move) of a KIF or KI2 text.

    The body holds the move lines (KI2's start with ▲ or △), comments (`*`) and the `まで`
    line, each with its line number."""
    scanner = _Scanner(ki2)
    for number, raw in enumerate(text.splitlines(), 1):
        if not scanner.read(number, raw):
            break
    if not scanner.in_moves and not scanner.diagram_rows and not ki2:
        raise RecordError("line %d: no move table (the '手数----指手' line) found"
                          % (text.count("\n") + 1 if text else 1))
    diagram = None
    if scanner.diagram_rows:
        diagram = bod.diagram_sfen(scanner.diagram_rows, scanner.hands, scanner.side or "b",
                                   scanner.diagram_line)
    return scanner.headers, scanner.body, diagram, scanner.zone, scanner.side


class _Scanner:
    """The lines of a KIF or KI2 text sorted by kind: headers, board diagram, body."""

    def __init__(self, ki2):
        self.ki2 = ki2
        self.headers, self.body, self.diagram_rows = [], [], []
        self.hands, self.side, self.zone, self.diagram_line = [{}, {}], None, dates.JAPAN, 0
        self.in_moves = False
        self.starts_move = _starts_ki2_move if ki2 else _starts_move

    def read(self, number, raw):
        """Take one line; False once the rest of the text is variations, not the game."""
        line = raw.strip().lstrip("\ufeff")
        if not line or line[0] == "&":
            return True
        if line[0] == "#":
            self.zone = _own_zone(line, self.zone)
        elif line.startswith("変化："):
            return self._variation_continues(line)
        elif line[0] == "*":
            self.body.append((number, raw.lstrip(" \t\ufeff").rstrip("\r")))   # its spaces kept
        elif line.startswith("まで") or self.starts_move(line):
            self.in_moves = True
            self.body.append((number, line))
        elif MOVE_TABLE_RE.match(line):
            self.in_moves = True
        else:
            self._diagram_or_header(number, line)
        return True

    def _variation_continues(self, line):
        """The variations follow the main line and only the main line is kept; one that
        starts past the main line's end continues it (Gekisashi writes such files)."""
        played = 1 + sum(1 for _, b in self.body if _starts_move(b))
        return not self.ki2 and line[3:].rstrip("手").strip() == str(played)

    def _diagram_or_header(self, number, line):
        row = bod.ROW_RE.match(line)
        if row and not self.in_moves:
            self.diagram_rows.append(bod.read_row(row.group(1), number))
            self.diagram_line = self.diagram_line or number
        elif line in bod.SIDE_LINES:
            self.side = bod.SIDE_LINES[line]
        elif not (bod.FRAME_RE.match(line) and not self.in_moves):
            self._header(number, line)

    def _header(self, number, line):
        key, colon, value = line.partition("：")
        if not colon and self.in_moves:
            raise _at_line(number, "unreadable move line %r" % line[:40])
        if not colon:
            raise _at_line(number, "expected a 'key：value' header or the move table")
        key, value = key.strip(), value.strip()
        if key in bod.HAND_KEYS:
            self.hands[bod.HAND_KEYS[key]] = bod.read_hand(value, number)
            self.diagram_line = self.diagram_line or number
        else:
            self.headers.append((key, value, number))


MOVE_TABLE_RE = re.compile(r"^手数[-－ー―=＝]")
OWN_ZONE_RE = re.compile(r"^# yariboard: times in (UTC|[+-]\d\d:\d\d)$")
# What yariboard wrote before it named the zone: its times were UTC.
OLD_OWN_MARK = "# KIF (yariboard); times are UTC"


def _own_zone(line, zone):
    if line == OLD_OWN_MARK:
        return ""
    match = OWN_ZONE_RE.match(line)
    if match:
        return "" if match.group(1) == "UTC" else match.group(1)
    return zone


def _starts_move(line):
    return line[0] in "0123456789"


def _starts_ki2_move(line):
    return line[0] in "▲△☗☖▼▽"


# Headers that are fields of a record (or the start position), not kept as tags.
FIELD_HEADERS = ("先手", "後手", "下手", "上手", "手合割", "対局モード", YARI_HEADER[0])


def record_of(headers, body, diagram, zone, side):
    """The record a scanned KIF or KI2 text (see scan) holds: its headers, then its moves."""
    record = headed_record(headers, diagram, zone, side)
    reader = _MoveLines(record)
    for number, line in body:
        reader.read(number, line)
    return reader.finished()


def headed_record(headers, diagram, zone, side):
    """A record with the fields KIF's headers give: variant, start, date, tags, names, mode."""
    values = {key: (value, line) for key, value, line in headers}
    variant_name = "yari" if values.get(YARI_HEADER[0], ("",))[0] == YARI_HEADER[1] else "shogi"
    record = GameRecord(variant=variant_name, zone=zone)
    if diagram:
        if variant_name != "shogi":
            raise _at_line(headers[0][2] if headers else 1, "a board diagram is for standard shogi")
        record.start_sfen = diagram
        named = SHOGI_HANDICAPS.get(values.get("手合割", ("",))[0].strip())
        if named == diagram:      # a handicap drawn for readers that do not know its name
            record.handicap = handicap_of("shogi", diagram)
            values.pop("手合割")
    else:
        handicap, line = values.get("手合割", (EVEN, 0))
        words = handicap.split()
        record.start_sfen = _start_sfen(variant_name, words[0] if words else EVEN, record, line)
        if side == "w":
            record.start_sfen = record.start_sfen.replace(" b ", " w ")
    _date_and_tags(record, headers, values, diagram and "手合割" in values)
    for keys, field in ((("先手", "下手"), "black"), (("後手", "上手"), "white")):
        for key in keys:
            if key in values:
                setattr(record, field, values[key][0])
    if "対局モード" in values:
        record.mode = values["対局モード"][0]
    return record


def _date_and_tags(record, headers, values, handicap_word_kept):
    """The start date (now, when the file has none) and the headers kept as tags."""
    started = values.get("開始日時", ("",))[0].strip()   # an empty one says nothing: no date
    zone = record.zone
    record.date = dates.read_date(started, zone) if started else None
    record.tags = [(key, value) for key, value, _ in headers if key not in FIELD_HEADERS
                   and (key != "開始日時" or started and dates.needs_text(value, record.date, zone))]
    if handicap_word_kept:
        # beside a diagram it names no position, only which words the sides go by (下手/上手)
        record.tags.append(("手合割", values["手合割"][0]))
    record.date = record.date or now_stamp()


class _MoveLines:
    """The body of one KIF game read line by line onto its record: moves with their times,
    comments, the ending word and the `まで` line."""

    def __init__(self, record):
        self.record = record
        self.variant = variant_by_name(record.variant)
        self.position = RecordPosition(self.variant, record.start_sfen)
        self.move_re = MOVE_RES[record.variant]
        self.usi = usi_table(self.variant)
        self.clock = stamp_seconds(record.date)
        self.last_to = None
        self.ending = None
        self.illegal = None  # (error, KIF text) of a move that is not legal, kept if it lost the game
        self.move_lines, self.notes = [], {}

    def read(self, number, line):
        if line[0] == "*":
            ply = len(self.record.moves) + (self.ending is not None) + bool(self.illegal)
            self.notes.setdefault(ply, []).append(line[1:])
            return
        if not line.startswith("まで"):
            match = self.move_re.match(line)
            if not match:
                raise _at_line(number, "unreadable move line %r" % line[:40])
            self._move_line(number, line, match)
            return
        result = RESULT_RE.match(line)
        if result:      # else a summary such as まで61手詰 (a problem's length)
            self._result(*result.group(2, 3, 4))

    def _result(self, side_word, outcome, draw):
        """The `まで` line: it may restate the winner of the ending already read."""
        record = self.record
        if self.ending is None:
            self.ending = ("", "")
        if draw == "中断":
            record.winner = record.reason = ""
        elif draw and record.reason:
            record.winner = "draw"
        elif side_word and record.reason:
            first = side_word in ("先手", "下手")
            record.winner = "black" if first == (outcome == "勝ち") else "white"

    def _move_line(self, number, line, match):
        if self.ending is not None:
            raise _at_line(number, "move after the game ended")
        word = match.group(7)
        if self.illegal and not (word and _ending(word, self.position, number)[0] == "illegal-move"):
            raise self.illegal[0]
        plies = len(self.record.moves) + bool(self.illegal)
        if int(match.group(1)) != plies + 1:
            raise _at_line(number, "move number %s, expected %d" % (match.group(1), plies + 1))
        if self.illegal:
            # the game was lost by this illegal move: its mover, the side to move, lost
            self.ending = self.record.reason, self.record.winner = (
                "illegal-move", "white" if self.position.side == BLACK else "black")
            self.record.tags.append((ILLEGAL_TAG, self.illegal[1]))
        elif word:
            self.ending = self.record.reason, self.record.winner = _ending(word, self.position, number)
            if not self.record.reason and word != SUSPENDED:
                self.record.tags.append((ENDING_TAG, word))
        else:
            self._played(number, line, match)

    def _played(self, number, line, match):
        try:
            move = _parse_move(self.variant, self.position, match, self.last_to, number)
        except RecordError as error:
            end = match.end(6) + 1 if match.group(6) else max(match.end(3), match.end(4))  # (59)
            self.illegal = error, line[match.start(2):end]
            return
        spent = TIME_RE.match(match.group(8) or "")
        if spent:
            minutes, seconds = spent.group(1, 2)
            self.clock += int(minutes) * 60 + int(seconds)
            try:
                at = stamp_at(self.clock)
            except RecordError as error:
                raise _at_line(number, "move time %s:%s: %s" % (minutes[:12], seconds, error))
        else:
            at = self.record.moves[-1].at if self.record.moves else self.record.date
        self.record.moves.append(MoveRecord(self.usi[move], at))
        self.move_lines.append(number)
        self.position.push(move)
        self.last_to = move_to(move)

    def finished(self):
        """The record, once its ending, comments and every move's time are checked."""
        record = self.record
        if self.illegal and self.ending is None:
            raise self.illegal[0]
        record.comments = {ply: "\n".join(lines).rstrip("\n") for ply, lines in self.notes.items()}
        try:
            return settle(record, self.position)
        except RecordError as error:
            raise _at_line(self.move_lines[-1] if self.move_lines else 1, error)


def _start_sfen(variant_name, handicap, record, line):
    rules = variant_by_name(variant_name)
    if handicap == EVEN:
        return rules.start_sfen
    if variant_name == "yari":
        for name, word in YARI_HANDICAPS.items():
            if word == handicap:
                record.handicap = name
                return rules.handicaps[name]
        known = YARI_HANDICAPS.values()
    else:
        for name, word in SHOGI_HANDICAP_WORDS.items():
            if word == handicap:
                record.handicap = name
                return rules.handicaps[name]
        known = SHOGI_HANDICAPS
    raise _at_line(line, "unknown handicap %r (known: %s)" % (handicap, "、".join([EVEN, *known])))


def _ending(word, position, line):
    """(reason, winner) for a KIF ending word; the `まで` line, if any, may restate the winner.

    封じ手 (a sealed move) and the others of KEPT_UNFINISHED leave the game unfinished."""
    word, mover = _said_by(word, "black" if position.side == BLACK else "white")
    other = "white" if mover == "black" else "black"
    if word in (IMPASSE_WIN, "入玉宣言"):
        # standard shogi's records mean the 27-point declaration; the board's impasse
        # (both Generals in their zones) is what yariboard's own games write
        if position.variant.name == "shogi" and (declaration_wins(position)
                                                 or not position.can_declare_impasse()):
            return "declaration", mover
        return "impasse", mover
    if word not in _ENDING_OF_WORD:
        raise _at_line(line, "unknown ending %r" % word)
    reason, who = _ENDING_OF_WORD[word]
    return reason, {"mover": mover, "other": other}.get(who, who)


def _said_by(word, mover):
    """The ending word without the side Shogi Club 24 writes before it (`先手 反則負け`),
    and the side that lost by it: that side, whoever is to move, for a loss it names."""
    named = re.match(r"^(先手|後手|下手|上手)\s*", word)
    if not named:
        return word, mover
    word = word[named.end():]
    if word in ("反則負け", "投了", "切れ負け", "時間切れ"):
        mover = "black" if named.group(1) in ("先手", "下手") else "white"
    return word, mover


# Last lines that leave a game unfinished, kept with the record (封じ手: a sealed move).
KEPT_UNFINISHED = ("封じ手", "不詰", "不戦勝", "不戦敗")
# (reason, winner) of each ending word but 入玉勝ち; "mover" is the side to move when it is
# written, "other" its opponent.
_ENDING_OF_WORD = {word: ("", "") for word in KEPT_UNFINISHED}
_ENDING_OF_WORD.update((word, (reason, {"repetition": "draw", "perpetual-check": "mover"}.get(reason, "other")))
                       for reason, word in ENDINGS.items())
_ENDING_OF_WORD.update({SUSPENDED: ("", ""), "反則勝ち": ("illegal-move", "mover"),
                        "詰": ("mate", "other"), "詰み": ("mate", "other"),
                        IMPASSE_DRAW: ("impasse", "draw"), "時間切れ": ("time", "other")})


def _parse_move(variant, position, match, last_to, line):
    where, piece, action, from_file, from_rank = match.group(2, 3, 4, 5, 6)
    destinations, origins, kinds = _squares(variant)
    if where[0] == "同":
        if last_to is None:
            raise _at_line(line, "同 (same square) on the first move")
        to = last_to
    else:
        to = destinations[where]
    kind = kinds[piece]
    if action == "打":
        if from_file:
            raise _at_line(line, "a drop has no origin square")
        move = make_drop(kind, to)
    else:
        if not from_file:
            raise _at_line(line, "a move needs its origin square, as (77)")
        frm = origins.get(from_file + from_rank)
        if frm is None:
            raise _at_line(line, "no square %s%s on this board" % (from_file, from_rank))
        if position.piece_at(frm) & 31 != kind:
            raise _at_line(line, "no %s on %s%s" % (piece, from_file, from_rank))
        move = make_move(frm, to, action == "成")
    if not position.allows(move):
        raise _at_line(line, "move %d %r is not legal here" % (position.plies + 1,
                                                              match.group(0).strip()))
    return move


@functools.lru_cache(maxsize=None)
def _squares(variant):
    """What a KIF move line names, read for every move: {`７六`: square}, {`76`: square},
    {piece word or alias: kind}."""
    destinations, origins, pieces = _words(variant)
    kinds = {name: variant.kind_of(symbol) for symbol, name in PIECES[variant.name].items()}
    kinds.update((alias, variant.kind_of(symbol)) for alias, symbol in PIECE_ALIASES[variant.name].items())
    return ({word: square for square, word in destinations.items()},
            {word.strip("()"): square for square, word in origins.items()}, kinds)
