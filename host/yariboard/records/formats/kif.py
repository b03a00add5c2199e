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
import datetime
import re

from shogicore.move import drop_kind, is_drop, is_promotion, make_move, move_from, move_to
from shogicore.notation import to_usi
from shogicore.position import Position
from shogicore.variants import BLACK, variant_by_name

from yariboard.records.game import (FIRST_YEAR, LAST_YEAR, GameRecord, MoveRecord, RecordError,
                               now_stamp, parse_stamp, replay, stamp)

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

# Handicap names as KIF writes them after 手合割, and the start position each stands for.
# The handicapped side (上手, White) moves first.
SHOGI_HANDICAPS = {
    "香落ち": "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "右香落ち": "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "角落ち": "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "飛車落ち": "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "飛香落ち": "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "二枚落ち": "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "四枚落ち": "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "六枚落ち": "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "八枚落ち": "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    "十枚落ち": "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
}
# Yari handicaps (names from shogicore's Yari variant) in KIF words.
YARI_HANDICAPS = {"bishop": "角落ち", "rook": "飛車落ち", "two-pieces": "二枚落ち",
                  "four-pieces": "四枚落ち", "six-pieces": "六枚落ち"}
EVEN = "平手"

FULL_WIDTH = "１２３４５６７８９"
KANJI = "一二三四五六七八九"
DATE_FORMAT = "%Y/%m/%d %H:%M:%S"
MOVE_HEADER = "手数----指手---------消費時間--"
SIDE_NAMES = {"black": "先手", "white": "後手"}
HANDICAP_SIDE_NAMES = {"black": "下手", "white": "上手"}
ENDINGS = {"mate": "詰み", "resignation": "投了", "repetition": "千日手",
           "perpetual-check": "連続王手の千日手", "illegal-move": "反則負け",
           "adjudication": "判定", "time": "切れ負け"}
IMPASSE_WIN, IMPASSE_DRAW, SUSPENDED = "入玉勝ち", "持将棋", "中断"
RESULT_RE = re.compile(r"^まで、?(\d+)手で(?:(先手|後手|下手|上手)の\S*?(勝ち|負け)|(千日手|持将棋|引き分け|中断))?")
# Kifu for Windows writes dates as 2024/01/02(火) 10:00:05; ShogiHome may leave out seconds.
DATE_RE = re.compile(r"^(\d{4})/(\d{1,2})/(\d{1,2})(?:\s*\(\S\))?(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$")
TIME_RE = re.compile(r"\(\s*(\d+):(\d\d)(?:\s*/\s*[\d:]*)?\s*\)")


def encoding_for(path):
    """Shift_JIS (CP932) for `.kif`, as Japanese tools expect; UTF-8 for `.kifu` and others."""
    return "cp932" if path.lower().endswith(".kif") else "utf-8"


def _move_re(variant_name):
    names = sorted(set(PIECES[variant_name].values()) | set(PIECE_ALIASES[variant_name]),
                   key=len, reverse=True)
    files = FULL_WIDTH[:variant_by_name(variant_name).files]
    return re.compile(
        r"^\s*(\d+)\s+(?:(同\s*|[%s][一二三四五六七八九])(%s)(打|成|不成)?(?:\((\d)(\d)\))?|(\S+))"
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


def _game(record, notes):
    if record.variant not in PIECES:
        raise RecordError("game %s: KIF holds standard shogi and Yari games, not %s"
                          % (record.id or "?", record.variant))
    handicap = handicap_name(record)
    names = HANDICAP_SIDE_NAMES if handicap != EVEN else SIDE_NAMES
    lines = ["# KIF (yariboard); times are UTC",
             "開始日時：%s" % parse_stamp(record.date).strftime(DATE_FORMAT)]
    if record.variant == "yari":
        lines.append("%s：%s" % YARI_HEADER)
    lines += ["手合割：%s" % handicap,
              "%s：%s" % (names["black"], record.black),
              "%s：%s" % (names["white"], record.white),
              "対局モード：%s" % record.mode,
              MOVE_HEADER]
    lines += ["*" + text for text in notes.get(0, [])]
    variant = variant_by_name(record.variant)
    used = [0, 0]
    previous = [parse_stamp(record.date), None]  # time of the last move, its destination

    def add(index, position, move):
        when = parse_stamp(record.moves[index].at)
        spent = int((when - previous[0]).total_seconds())
        used[position.side] += spent
        text = move_text(variant, position, move, previous[1])
        lines.append("%4d %s   (%2d:%02d/%s)" % (index + 1, _pad(text, 14), spent // 60, spent % 60,
                                              _hms(used[position.side])))
        lines.extend("*" + note for note in notes.get(index + 1, []))
        previous[0], previous[1] = when, move_to(move)

    replay(record, add)
    plies = len(record.moves)
    if record.reason:
        if record.reason == "impasse":
            word = IMPASSE_DRAW if record.winner == "draw" else IMPASSE_WIN
        else:
            word = ENDINGS[record.reason]
        lines.append("%4d %s" % (plies + 1, word))
        if record.winner == "draw":
            outcome = {"repetition": "千日手", "impasse": "持将棋"}.get(record.reason, "引き分け")
        else:
            outcome = "%sの勝ち" % names[record.winner]
        lines.append("まで%d手で%s" % (plies, outcome))
    else:
        lines.append("%4d %s" % (plies + 1, SUSPENDED))
    return "\n".join(lines) + "\n"


def _pad(text, width):
    """Pad to a display width (full-width characters count twice), as KIF readers align."""
    shown = sum(1 if ord(c) < 0x80 else 2 for c in text)
    return text + " " * max(0, width - shown)


def _hms(seconds):
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def move_text(variant, position, move, last_to):
    """One move in KIF words, e.g. ７六歩(77), 同　角成(88), ５五香桂打."""
    pieces = PIECES[variant.name]
    to = move_to(move)
    if last_to == to:
        where = "同　"
    else:
        where = FULL_WIDTH[variant.file_of(to) - 1] + KANJI[variant.rank_of(to) - 1]
    if is_drop(move):
        return where + pieces[variant.symbol(drop_kind(move))] + "打"
    frm = move_from(move)
    kind = position.piece_at(frm) & 31
    text = where + pieces[variant.symbol(kind)]
    if is_promotion(move):
        text += "成"
    # A declined promotion is left unmarked: "不成" is optional in KIF and some readers reject it.
    return text + "(%d%d)" % (variant.file_of(frm), variant.rank_of(frm))


# -- reading -------------------------------------------------------------------------------


def _at_line(line, error):
    return RecordError("line %d: %s" % (line, error))


def parse_date(value, line):
    match = DATE_RE.match(value)
    if not match:
        raise _at_line(line, "bad start date %r (expected YYYY/MM/DD HH:MM:SS)" % value)
    year, month, day, hour, minute, second = (int(part or 0) for part in match.groups())
    try:
        moment = datetime.datetime(year, month, day, hour, minute, second,
                                   tzinfo=datetime.timezone.utc)
    except ValueError as error:
        raise _at_line(line, "bad start date %r: %s" % (value, error))
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise _at_line(line, "start date %r out of range (years %d to %d)"
                       % (value, FIRST_YEAR, LAST_YEAR))
    return stamp(moment)


def _clock_after(clock, minutes, seconds):
    """The time after a move that took `minutes`:`seconds`, as a checked stamp."""
    try:
        later = parse_stamp(clock) + datetime.timedelta(minutes=int(minutes), seconds=int(seconds))
    except OverflowError:
        raise RecordError("move time %s:%s is out of range" % (minutes[:12], seconds))
    return stamp(parse_stamp(stamp(later)))   # refused past the last year a stamp may have


def read_kif(text):
    """The main line of the one game in a KIF text. Times are read as UTC.

    Without a 開始日時 header (ShogiHome leaves it out of edited records) the game is dated
    at the moment of import.
    """
    headers, body = {}, []
    lines = text.splitlines()
    in_moves = False
    for number, raw in enumerate(lines, 1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line[0] in "#*&":
            continue
        if line.startswith("変化："):
            break  # the variations follow the main line; only the main line is kept
        if in_moves:
            body.append((number, line))
            continue
        if line.startswith("手数"):
            in_moves = True
            continue
        key, colon, value = line.partition("：")
        if not colon:
            raise _at_line(number, "expected a 'key：value' header or the move table")
        headers[key.strip()] = (value.strip(), number)
    if not in_moves:
        raise RecordError("line %d: no move table (the '手数----指手' line) found" % (len(lines) or 1))
    return [_record(headers, body)]


def _record(headers, body):
    variant_name = "yari" if headers.get(YARI_HEADER[0], ("",))[0] == YARI_HEADER[1] else "shogi"
    variant = variant_by_name(variant_name)
    record = GameRecord(variant=variant_name)
    for key in ("先手の持駒", "後手の持駒", "下手の持駒", "上手の持駒", "手番"):
        if key in headers:
            raise _at_line(headers[key][1], "KIF from a set-up position is not supported")
    handicap, line = headers.get("手合割", (EVEN, 0))
    record.start_sfen = _start_sfen(variant_name, handicap, record, line)
    if "開始日時" in headers:
        record.date = parse_date(*headers["開始日時"])
    else:
        record.date = now_stamp()
    for keys, field in ((("先手", "下手"), "black"), (("後手", "上手"), "white")):
        for key in keys:
            if key in headers:
                setattr(record, field, headers[key][0])
    if "対局モード" in headers:
        record.mode = headers["対局モード"][0]
    position = Position(variant, record.start_sfen)
    clock, last_to, ending = record.date, None, None
    move_lines = []
    move_re = MOVE_RES[variant_name]
    for number, line in body:
        result = RESULT_RE.match(line)
        if result:
            side, outcome, draw = result.group(2, 3, 4)
            if ending is None:
                raise _at_line(number, "result line without an ending word before it")
            if draw == "中断":
                record.winner = record.reason = ""
            elif draw:
                record.winner = "draw"
            elif side:
                first = side in ("先手", "下手")
                record.winner = "black" if first == (outcome == "勝ち") else "white"
            continue
        match = move_re.match(line)
        if not match:
            raise _at_line(number, "unreadable move line %r" % line[:40])
        if ending is not None:
            raise _at_line(number, "move after the game ended")
        if int(match.group(1)) != len(record.moves) + 1:
            raise _at_line(number, "move number %s, expected %d" % (match.group(1), len(record.moves) + 1))
        if match.group(7):
            ending = _ending(match.group(7), position, number)
            record.reason, record.winner = ending
            continue
        move = _parse_move(variant, position, match, last_to, number)
        spent = TIME_RE.match(match.group(8) or "")
        if spent:
            try:
                clock = _clock_after(clock, spent.group(1), spent.group(2))
            except RecordError as error:
                raise _at_line(number, error)
        record.moves.append(MoveRecord(to_usi(variant, move), clock))
        move_lines.append(number)
        position.push(move)
        last_to = move_to(move)
    try:
        replay(record)
    except RecordError as error:
        raise _at_line(move_lines[-1] if move_lines else 1, error)
    return record


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
        if handicap in SHOGI_HANDICAPS:
            return SHOGI_HANDICAPS[handicap]
        known = SHOGI_HANDICAPS
    raise _at_line(line, "unknown handicap %r (known: %s)" % (handicap, "、".join([EVEN, *known])))


def _ending(word, position, line):
    """(reason, winner) for a KIF ending word; the `まで` line, if any, may restate the winner."""
    mover = "black" if position.side == BLACK else "white"
    other = "white" if mover == "black" else "black"
    if word == SUSPENDED:
        return "", ""
    if word in (IMPASSE_WIN, "入玉宣言"):
        return "impasse", mover
    if word == IMPASSE_DRAW:
        return "impasse", "draw"
    if word == "時間切れ":
        return "time", other
    for reason, kif_word in ENDINGS.items():
        if word == kif_word:
            if reason == "repetition":
                return reason, "draw"
            if reason == "perpetual-check":
                return reason, mover
            return reason, other
    raise _at_line(line, "unknown ending %r" % word)


def _parse_move(variant, position, match, last_to, line):
    where, piece, action, from_file, from_rank = match.group(2, 3, 4, 5, 6)
    if where.startswith("同"):
        if last_to is None:
            raise _at_line(line, "同 (same square) on the first move")
        to = last_to
    else:
        to = variant.square(FULL_WIDTH.index(where[0]) + 1, KANJI.index(where[1]) + 1)
    symbols = {name: symbol for symbol, name in PIECES[variant.name].items()}
    symbol = symbols.get(piece) or PIECE_ALIASES[variant.name][piece]
    if action == "打":
        if from_file:
            raise _at_line(line, "a drop has no origin square")
        candidates = [m for m in position.legal_moves()
                      if is_drop(m) and move_to(m) == to and variant.symbol(drop_kind(m)) == symbol]
    else:
        if not from_file:
            raise _at_line(line, "a move needs its origin square, as (77)")
        frm_file, frm_rank = int(from_file), int(from_rank)
        if not (1 <= frm_file <= variant.files and 1 <= frm_rank <= variant.ranks):
            raise _at_line(line, "no square %s%s on this board" % (from_file, from_rank))
        frm = variant.square(frm_file, frm_rank)
        if variant.symbol(position.piece_at(frm) & 31) != symbol:
            raise _at_line(line, "no %s on %s%s" % (piece, from_file, from_rank))
        move = make_move(frm, to, action == "成")
        candidates = [move] if position.is_legal(move) else []
    if not candidates:
        raise _at_line(line, "move %d %r is not legal here" % (len(position.moves()) + 1,
                                                              match.group(0).strip()))
    return candidates[0]
