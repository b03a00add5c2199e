"""JKF (JSON Kifu Format) records: what the Kifu-for-JS web viewer and ShogiHome read.

    {"header": {"先手": ..., "開始日時": ...},
     "initial": {"preset": "HIRATE"} or {"preset": "OTHER", "data": {board, color, hands}},
     "moves": [{"comments": [...]}, {"move": {...}, "time": {...}, "comments": [...]},
               ..., {"special": "TORYO"}]}

Headers are KIF's, so a record keeps them as it keeps KIF's; an ending is a CSA word without
its `%`, and a result no such word says (a referee's decided win, a resignation out of
turn) is the standard CHUDAN with yariboard's own header 対局結果 (`adjudication,black`)
beside it. Variations (`forks`) are skipped: the main line is kept. Standard shogi only.
"""
import json

from shogicore.move import drop_kind, is_drop, is_promotion, make_drop, make_move, move_from, move_to
from shogicore.variants import variant_by_name

from yariboard.records.formats import bod, csa, dates, kif
from yariboard.records.game import (REASONS, WINNERS, GameRecord, MoveRecord, RecordError,
                                    handicap_of, now_stamp, settle, stamp_at, stamp_seconds, walk)
from yariboard.records.playback import RecordPosition, usi_of

PRESETS = {"HIRATE": kif.EVEN, "KY": "香落ち", "KY_R": "右香落ち", "KA": "角落ち", "HI": "飛車落ち",
           "HIKY": "飛香落ち", "2": "二枚落ち", "3": "三枚落ち", "4": "四枚落ち", "5": "五枚落ち",
           "5_L": "左五枚落ち", "6": "六枚落ち", "7_L": "左七枚落ち", "7_R": "右七枚落ち",
           "8": "八枚落ち", "10": "十枚落ち"}
# The presets tsshogi (ShogiHome) refuses: written as the position itself ("OTHER").
DRAWN_PRESETS = ("3", "5", "5_L", "7_L", "7_R")
PRESET_OF_NAME = {name: preset for preset, name in PRESETS.items()}
# A result JKF's endings (CSA's words) cannot say, as `reason,winner`: yariboard's own header
# beside the standard "CHUDAN" (a referee's decided win, a resignation out of turn).
RESULT_HEADER = "対局結果"
# Headers that are a record's fields (手合割 is the start position, written from it).
FIELD_HEADERS = ("先手", "後手", "下手", "上手", "手合割", "対局モード", RESULT_HEADER)
DEPTH = 32   # a record nests five deep; far deeper is not one (and json would recurse)


def _error(where, message):
    return RecordError("%s: %s" % (where, message))


# -- reading -------------------------------------------------------------------------------


def read_jkf(text):
    """The main line of the one game in a JKF text."""
    # the JSON reader's own parser: bounded in depth, and its objects know their line
    from yariboard.records.formats import _line_aware_loads    # (the package imports this module)
    data = _line_aware_loads(text)
    if not isinstance(data, dict) or not isinstance(data.get("moves", []), list):
        raise _error(_line(data), "not a JKF record (an object with \"header\" and \"moves\")")
    header = data.get("header") or {}
    if not isinstance(header, dict) or not all(isinstance(v, str) for v in header.values()):
        raise _error(_line(header, data), "\"header\" must map names to text")
    reader = _MoveEntries(_headed_record(data, header), _line(data))
    for ply, entry in enumerate(data.get("moves", [])):
        reader.read("%s (move %d)" % (_line(entry, data), ply), entry)
    return [reader.finished(header.get(RESULT_HEADER, ""))]


def _headed_record(data, header):
    """A record with what JKF's header and initial position say."""
    record = GameRecord(variant="shogi", zone=dates.JAPAN)
    initial = data.get("initial")
    record.start_sfen = _initial(initial, _line(initial, data))
    record.handicap = handicap_of("shogi", record.start_sfen)
    for keys, field in ((("先手", "下手"), "black"), (("後手", "上手"), "white")):
        for key in keys:
            if key in header:
                setattr(record, field, header[key].strip())
    record.mode = header.get("対局モード", record.mode)
    record.date = dates.read_date(header["開始日時"], record.zone) if "開始日時" in header else None
    record.tags = [(key, value.strip()) for key, value in header.items() if key not in FIELD_HEADERS
                   and (key != "開始日時" or dates.needs_text(value, record.date, record.zone))]
    handicap = header.get("手合割", "").strip()
    if (isinstance(initial, dict) and initial.get("preset") == "OTHER" and handicap
            and not record.handicap and (handicap != "その他" or "下手" in header or "上手" in header)):
        # beside a set-up position, as KIF keeps it: the words the sides go by
        record.tags.append(("手合割", handicap))
    record.date = record.date or now_stamp()
    return record


class _MoveEntries:
    """JKF's `moves` read in order onto the record: moves with their times, the ending
    (`special`), the comments."""

    def __init__(self, record, where):
        self.record = record
        self.variant = variant_by_name("shogi")
        self.position = RecordPosition(self.variant, record.start_sfen)
        self.clock = stamp_seconds(record.date)
        self.ending = self.last_to = None
        self.where = where

    def read(self, where, entry):
        self.where = where
        if not isinstance(entry, dict):
            raise _error(where, "must be an object")
        said = entry.get("comments") or []
        if not isinstance(said, list) or not all(isinstance(line, str) for line in said):
            raise _error(where, "\"comments\" must be a list of text")
        if "special" in entry:
            self._special(where, entry["special"])
        elif "move" in entry:
            self._move(where, entry)
        if said:
            ply = len(self.record.moves) + (1 if self.ending is not None else 0)
            self.record.comments[ply] = "\n".join(said).rstrip("\n")

    def _special(self, where, special):
        if special in kif.KEPT_UNFINISHED:
            self.ending = ("", "")
            self.record.tags.append((kif.ENDING_TAG, special))
            return
        word = "%" + str(special)
        if word not in csa.ENDINGS:
            raise _error(where, "unknown ending %r" % (special,))
        self.ending = csa._ending_of(word, self.position)
        if self.ending[0] == "declaration" and not csa.declaration_wins(self.position):
            self.ending = csa._ending_of("%ILLEGAL_MOVE", self.position)

    def _move(self, where, entry):
        if self.ending:
            raise _error(where, "a move after the game ended")
        move = _move(self.variant, self.position, entry["move"], self.last_to, where)
        spent = (entry.get("time") or {}).get("now") or {}
        self.clock += (_number(spent, "h", where) * 3600 + _number(spent, "m", where) * 60
                       + _number(spent, "s", where))
        try:
            at = stamp_at(self.clock)
        except RecordError:
            raise _error(where, "move time out of range")
        self.record.moves.append(MoveRecord(usi_of(self.variant, move), at))
        self.position.push(move)
        self.last_to = move_to(move)

    def finished(self, stated):
        """The record once its result (the header's `reason,winner` when the game stopped)
        and every move's time are checked."""
        record = self.record
        if self.ending:
            record.reason, record.winner = self.ending
        reason, _, winner = stated.partition(",")
        if self.ending == ("", "") and reason in REASONS and winner in WINNERS:
            record.reason, record.winner = reason, winner
        try:
            return settle(record, self.position)
        except RecordError as error:
            raise _error(self.where, error)


def _line(item, parent=None):
    """'line N' of a JSON object (else of the object holding it)."""
    return "line %d" % (getattr(item, "line", 0) or getattr(parent, "line", 0) or 1)


def _number(mapping, key, where):
    value = mapping.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 10 ** 8:
        raise _error(where, "time %r must be a whole number" % key)
    return value


def _initial(initial, where):
    if not initial:
        return variant_by_name("shogi").start_sfen
    preset = initial.get("preset") if isinstance(initial, dict) else None
    if preset in PRESETS:
        name = PRESETS[preset]
        return variant_by_name("shogi").start_sfen if name == kif.EVEN else kif.SHOGI_HANDICAPS[name]
    if preset != "OTHER" or not isinstance(initial.get("data"), dict):
        raise _error(where, "unknown preset %r" % (preset,))
    data = initial["data"]
    rows = _board_rows(data.get("board"), where)
    hands = _hands(data.get("hands") or [{}, {}], where)
    try:
        return bod.diagram_sfen(rows, hands, "w" if data.get("color") == 1 else "b", 1)
    except RecordError as error:   # the diagram's reader names line 1; the object's line is here
        raise _error(where, str(error).split(": ", 1)[1])


def _board_rows(board, where):
    """JKF's board (nine files of nine squares) as the diagram reader's rows."""
    if not isinstance(board, list) or len(board) != 9 or not all(isinstance(f, list) and len(f) == 9 for f in board):
        raise _error(where, "a board is nine files of nine squares")
    rows = [[None] * 9 for _ in range(9)]
    for file_index, column in enumerate(board):
        for rank_index, square in enumerate(column):
            if square:
                piece = csa.SYMBOL_OF.get(square.get("kind")) if isinstance(square, dict) else None
                if piece is None or square.get("color") not in (0, 1):
                    raise _error(where, "unreadable square %r" % (square,))
                rows[rank_index][8 - file_index] = (piece, square["color"])
    return rows


def _hands(hands, where):
    """JKF's hands ([Black's, White's], {CSA code: count}) as {symbol: count} each."""
    counted = [{}, {}]
    for colour in (0, 1):
        for code, count in (hands[colour] if isinstance(hands, list) and len(hands) == 2
                            and isinstance(hands[colour], dict) else {}).items():
            symbol = csa.SYMBOL_OF.get(code)
            if symbol not in csa.HAND_PIECES or not isinstance(count, int) or not 0 <= count <= 18:
                raise _error(where, "unreadable piece in hand %r" % code)
            if count:
                counted[colour][symbol] = count
    return counted


def _move(variant, position, move, last_to, where):
    if not isinstance(move, dict) or not isinstance(move.get("to"), dict):
        raise _error(where, "a move needs \"to\"")
    to = _square(variant, move["to"])
    symbol = csa.SYMBOL_OF.get(move.get("piece"))
    if to is None:
        raise _error(where, "no square %r" % (move["to"],))
    if symbol is None:
        raise _error(where, "unknown piece %r" % (move.get("piece"),))
    frm = move.get("from")
    if frm is None:
        candidate = make_drop(variant.kind_of(symbol), to)
    else:
        origin = _square(variant, frm) if isinstance(frm, dict) else None
        candidate = make_move(origin, to, bool(move.get("promote"))) if origin else None
    if candidate is None or not position.allows(candidate):
        raise _error(where, "%s is not legal here" % json.dumps(move, ensure_ascii=False)[:80])
    return candidate


def _square(variant, place):
    """A JKF place ({"x": file, "y": rank}) as a square, None when it is none."""
    file, rank = place.get("x"), place.get("y")
    if file in range(1, 10) and rank in range(1, 10):
        return variant.square(file, rank)
    return None


# -- writing -------------------------------------------------------------------------------


def write_jkf(records, comments=None):
    """JKF text: one game as an object; several as a list of them (JKF holds one game)."""
    games = [_game(record, (comments and comments(record)) or {}) for record in records]
    return json.dumps(games[0] if len(games) == 1 else games, ensure_ascii=False, indent=1) + "\n"


def _game(record, notes):
    if record.variant != "shogi":
        raise RecordError("game %s: JKF holds standard shogi only, not %s; use pgn, kif or json"
                          % (record.id or "?", record.variant))
    header, name = _header(record)
    if PRESET_OF_NAME.get(name, "OTHER") not in DRAWN_PRESETS + ("OTHER",):
        initial = {"preset": PRESET_OF_NAME[name]}
    else:
        initial = {"preset": "OTHER", "data": _data(record.start_sfen)}
    first = {}
    said = _said(record, notes, 0)
    if said:
        first["comments"] = said
    moves = [first]
    variant = variant_by_name("shogi")
    previous, used, last_to = [stamp_seconds(record.date)], [0, 0], [None]

    def add(index, position, move):
        when = stamp_seconds(record.moves[index].at)
        spent = when - previous[0]
        used[position.side] += spent
        previous[0] = when
        entry = {"move": _move_entry(variant, position, move, last_to[0])}
        last_to[0] = move_to(move)
        total = used[position.side]
        entry["time"] = {"now": {"m": spent // 60, "s": spent % 60},
                         "total": {"h": total // 3600, "m": total // 60 % 60, "s": total % 60}}
        said = _said(record, notes, index + 1)
        if said:
            entry["comments"] = said
        moves.append(entry)

    final = walk(record, add)
    word = record.tag(kif.ENDING_TAG) or "CHUDAN"
    if record.reason:
        said_word = csa._ending_word(record, final)
        if csa._ending_of(said_word, final) == (record.reason, record.winner):
            word = said_word[1:]
        else:   # no CSA word says it (a referee's decided win, a resignation out of turn)
            header[RESULT_HEADER] = "%s,%s" % (record.reason, record.winner)
    ending = {"special": word}
    said = _said(record, {}, len(record.moves) + 1)
    if said:
        ending["comments"] = said
    moves.append(ending)
    return {"header": header, "initial": initial, "moves": moves}


def _header(record):
    """JKF's header for the record, and the 手合割 name of its start (None for a set-up)."""
    name = None
    try:
        name = kif.handicap_name(record)
    except RecordError:
        pass
    # a set-up position keeps the 手合割 its file gave, which says what the sides are called
    handicap = name or record.tag("手合割").strip()
    names = kif.HANDICAP_SIDE_NAMES if handicap not in ("", kif.EVEN) else kif.SIDE_NAMES
    header = {}
    if record.tag("開始日時") == "":
        header["開始日時"] = dates.write_date(record.date, record.zone)
    header.update((key, value) for key, value in record.tags if key != kif.ENDING_TAG)
    header["手合割"] = handicap or "その他"
    header[names["black"]], header[names["white"]] = record.black, record.white
    if record.mode != "casual":
        header["対局モード"] = record.mode
    return header, name


def _move_entry(variant, position, move, last_to):
    """JKF's `move` object for `move`, about to be played in `position`."""
    to = move_to(move)
    entry = {"to": {"x": variant.file_of(to), "y": variant.rank_of(to)}, "color": position.side}
    if is_drop(move):
        entry["piece"] = csa.PIECES[variant.symbol(drop_kind(move))]
    else:
        frm = move_from(move)
        entry["from"] = {"x": variant.file_of(frm), "y": variant.rank_of(frm)}
        entry["piece"] = csa.PIECES[variant.symbol(position.piece_at(frm) & 31)]
        if is_promotion(move):
            entry["promote"] = True
        if position.piece_at(to):
            entry["capture"] = csa.PIECES[variant.symbol(position.piece_at(to) & 31)]
    if last_to == to:
        entry["same"] = True
    return entry


def _said(record, notes, ply):
    text = record.comments.get(ply, "")
    return (text.split("\n") if text else []) + list(notes.get(ply, []))


def _data(sfen):
    board_text, side, hand = sfen.split()[:3]
    board = [[{} for _ in range(9)] for _ in range(9)]
    for rank, row in enumerate(board_text.split("/")):
        file, promoted = 9, False
        for char in row:
            if char.isdigit():
                file -= int(char)
            elif char == "+":
                promoted = True
            else:
                symbol = ("+" if promoted else "") + char.upper()
                board[file - 1][rank] = {"color": 0 if char.isupper() else 1, "kind": csa.PIECES[symbol]}
                file, promoted = file - 1, False
    hands = [{csa.PIECES[p]: 0 for p in csa.HAND_PIECES} for _ in range(2)]
    number = ""
    for char in "" if hand == "-" else hand:
        if char.isdigit():
            number += char
            continue
        hands[0 if char.isupper() else 1][csa.PIECES[char.upper()]] = int(number or 1)
        number = ""
    return {"board": board, "color": 0 if side == "b" else 1, "hands": hands}

