"""CSA game records (standard shogi): the text format of the Computer Shogi Association.

CSA is what shogi servers and engines exchange (floodgate, cshogi, python-shogi). A file
holds one or more games separated by `/` lines. Handicaps are written as `PI` followed by
the squares and pieces the handicapped side leaves out (`PI82HI22KA` for two pieces), then
the side to move (`-`: White, the handicapped side, moves first).

CSA has no word for some of the record's fields: the game mode, and endings such as
adjudication. They are written as `'yariboard:` comment lines that other readers skip and
that ours reads back, so export then import gives the same game.
"""
import functools
import re

from shogicore.move import drop_kind, is_drop, is_promotion, make_drop, make_move, move_from, move_to
from shogicore.variants import BLACK, variant_by_name

from yariboard.records.declaration import declaration_wins
from yariboard.records.formats import dates
from yariboard.records.game import (GameRecord, MoveRecord, RecordError, handicap_of, now_stamp,
                                    settle, stamp_at, stamp_seconds, walk)
from yariboard.records.playback import RecordPosition, usi_table

PIECES = {"P": "FU", "L": "KY", "N": "KE", "S": "GI", "G": "KI", "B": "KA", "R": "HI",
          "K": "OU", "+P": "TO", "+L": "NY", "+N": "NK", "+S": "NG", "+B": "UM", "+R": "RY"}
SYMBOL_OF = {code: symbol for symbol, code in PIECES.items()}
DATE_FORMAT = "%Y/%m/%d %H:%M:%S"
SIDES = {"black": "+", "white": "-"}
# (reason, who wins) for each ending word; "mover" is the side to move when it is written.
ENDINGS = {
    "%TORYO": ("resignation", "other"), "%TSUMI": ("mate", "other"),
    "%SENNICHITE": ("repetition", "draw"), "%OUTE_SENNICHITE": ("perpetual-check", "mover"),
    "%KACHI": ("declaration", "mover"), "%JISHOGI": ("impasse", "draw"),
    "%HIKIWAKE": ("adjudication", "draw"), "%TIME_UP": ("time", "other"),
    "%ILLEGAL_MOVE": ("illegal-move", "other"),
    "%+ILLEGAL_ACTION": ("illegal-move", "white"), "%-ILLEGAL_ACTION": ("illegal-move", "black"),
    "%CHUDAN": ("", ""),
}
WORD_OF_REASON = {"resignation": "%TORYO", "mate": "%TSUMI", "repetition": "%SENNICHITE",
                  "perpetual-check": "%OUTE_SENNICHITE", "adjudication": "%HIKIWAKE",
                  "time": "%TIME_UP", "declaration": "%KACHI", "abandoned": "%CHUDAN"}
# $ headers as tsshogi and ShogiHome name them in KIF (the record keeps KIF's names).
TAG_OF_KEY = {"EVENT": "表題", "SITE": "場所", "START_TIME": "開始日時", "END_TIME": "終了日時",
              "TIME_LIMIT": "持ち時間", "OPENING": "戦型", "MAX_MOVES": "最大手数",
              "JISHOGI": "持将棋規定", "NOTE": "備考"}
KEY_OF_TAG = {tag: key for key, tag in TAG_OF_KEY.items()}
HAND_PIECES = "RBGSNLP"
# How many of each piece a set of shogi pieces holds (00AL gives the rest to one side).
PIECE_SET = {"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}
OWN_COMMENT = "'yariboard:"
MOVE_RE = re.compile(r"^([+-])(\d\d)(\d\d)([A-Z]{2})$")


def _board(sfen):
    """SFEN board -> {(file, rank): letter} and the side to move."""
    rows, side = sfen.split()[0].split("/"), sfen.split()[1]
    cells = {}
    for rank, row in enumerate(rows, 1):
        file, promoted = 9, ""
        for char in row:
            if char.isdigit():
                file -= int(char)
            elif char == "+":
                promoted = "+"
            else:
                cells[(file, rank)] = promoted + char
                file, promoted = file - 1, ""
    return cells, side


def _sfen(cells, side, hands=({}, {})):
    rows = []
    for rank in range(1, 10):
        row, empty = "", 0
        for file in range(9, 0, -1):
            piece = cells.get((file, rank))
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    hand = "".join(("%d" % hands[colour][p] if hands[colour][p] > 1 else "")
                   + (p if colour == 0 else p.lower())
                   for colour in (0, 1) for p in HAND_PIECES if hands[colour].get(p))
    return "%s %s %s 1" % ("/".join(rows), side, hand or "-")


def handicap_squares(start_sfen):
    """The `PI` squares that turn the even start into `start_sfen`; RecordError if none do."""
    even, _ = _board(variant_by_name("shogi").start_sfen)
    cells, side = _board(start_sfen)
    hands = start_sfen.split()[2]
    if hands != "-" or any(even.get(square) != piece for square, piece in cells.items()):
        raise RecordError("CSA holds games from the even start or a handicap (pieces left out), "
                          "not %s; use pgn or json" % start_sfen)
    return [(square, even[square]) for square in sorted(even) if square not in cells], side


# -- writing -------------------------------------------------------------------------------


def write_csa(records, comments=None):
    """CSA text; `comments(record)` may give {ply: [lines]} written as `'` comments."""
    return "/\n".join(_game(record, (comments and comments(record)) or {}) for record in records)


def _game(record, notes):
    if record.variant != "shogi":
        raise RecordError("game %s: CSA holds standard shogi only, not %s; use pgn, kif or json"
                          % (record.id or "?", record.variant))
    lines = ["V2.2", "N+" + _one_line(record.black), "N-" + _one_line(record.white)]
    tags = dict(record.tags)
    if "開始日時" not in tags:
        lines.append("$START_TIME:" + dates.write_date(record.date, record.zone))
    lines += ["$%s:%s" % (KEY_OF_TAG.get(key, key), _one_line(value))
              for key, value in record.tags if ":" not in key]   # 終局 (封じ手) too
    lines += [OWN_COMMENT + "zone=" + (record.zone or "UTC")]
    if record.mode != "casual":
        lines.append(OWN_COMMENT + "mode=" + record.mode)
    lines += _position_lines(record.start_sfen)
    lines += _comment_lines(record.comments.get(0, ""), notes.get(0, []))
    variant = variant_by_name("shogi")
    previous = [stamp_seconds(record.date)]
    comments = record.comments

    def add(index, position, move):
        when = stamp_seconds(record.moves[index].at)
        lines.append(move_text(variant, position, move))
        lines.append("T%d" % (when - previous[0]))
        if index + 1 in comments or index + 1 in notes:
            lines.extend(_comment_lines(comments.get(index + 1, ""), notes.get(index + 1, [])))
        previous[0] = when

    final = walk(record, add)
    if record.reason:
        word = _ending_word(record, final)
        if _ending_of(word, final) != (record.reason, record.winner):
            # no CSA word says it (a resignation out of turn, a referee's decision): other
            # readers see the game stopped, ours reads the result from the comment
            lines.append("%sresult=%s,%s" % (OWN_COMMENT, record.reason, record.winner))
            word = "%CHUDAN"
        lines.append(word)
    else:
        lines.append("%CHUDAN")
    lines += _comment_lines(record.comments.get(len(record.moves) + 1, ""), [])
    return "\n".join(lines) + "\n"


def _one_line(text):
    return " ".join(text.splitlines())


def _comment_lines(comment, analysis):
    """A record's comment as `'*` lines (what CSA readers keep), then analysis lines."""
    # `'*` with nothing after it is no comment to CSA readers: blank lines cannot be kept
    return ["'*" + line for line in comment.split("\n") if line] + ["'" + text for text in analysis]


def _position_lines(sfen):
    """`PI` and the side to move for the even start or a handicap, else P1..P9 and hands."""
    try:
        removed, side = handicap_squares(sfen)
        return ["PI" + "".join("%d%d%s" % (file, rank, PIECES[piece.upper()])
                               for (file, rank), piece in removed),
                "+" if side == "b" else "-"]
    except RecordError:
        pass
    cells, side = _board(sfen)
    lines = []
    for rank in range(1, 10):
        row = ""
        for file in range(9, 0, -1):
            piece = cells.get((file, rank))
            row += " * " if piece is None else (
                ("+" if piece.lstrip("+").isupper() else "-") + PIECES["+" * piece.startswith("+")
                                                                      + piece.lstrip("+").upper()])
        lines.append("P%d%s" % (rank, row))
    hand, number = sfen.split()[2], ""
    held = ["", ""]
    for char in "" if hand == "-" else hand:
        if char.isdigit():
            number += char
            continue
        held[0 if char.isupper() else 1] += ("00" + PIECES[char.upper()]) * int(number or 1)
        number = ""
    lines += ["P%s%s" % (sign, text) for sign, text in zip("+-", held) if text]
    return lines + ["+" if side == "b" else "-"]


def _ending_word(record, final):
    if record.reason == "impasse":
        return "%JISHOGI" if record.winner == "draw" else "%KACHI"
    if record.reason == "illegal-move":
        if _ending_of("%ILLEGAL_MOVE", final)[1] == record.winner:
            return "%ILLEGAL_MOVE"      # the side to move lost: every reader agrees on this
        return "%-ILLEGAL_ACTION" if record.winner == "black" else "%+ILLEGAL_ACTION"
    return WORD_OF_REASON[record.reason]


def _ending_of(word, position):
    reason, who = ENDINGS[word]
    mover = "black" if position.side == BLACK else "white"
    other = "white" if mover == "black" else "black"
    return reason, {"mover": mover, "other": other}.get(who, who)


def move_text(variant, position, move):
    """+7776FU, -0055KA: side, origin (00 for a drop), destination, piece after the move."""
    squares, codes = _codes(variant)
    sign = "+" if position.side == BLACK else "-"
    if is_drop(move):
        return sign + "00" + squares[move_to(move)] + codes[drop_kind(move)]
    frm = move_from(move)
    kind = position.piece_at(frm) & 31
    if is_promotion(move):
        kind = variant.promote[kind]
    return sign + squares[frm] + squares[move_to(move)] + codes[kind]


@functools.lru_cache(maxsize=None)
def _codes(variant):
    """{square: `76`}, {kind: `FU`}: what every CSA move is written with."""
    squares = {square: "%d%d" % (variant.file_of(square), variant.rank_of(square))
               for square in variant.squares}
    return squares, {variant.kind_of(symbol): code for symbol, code in PIECES.items()}


# -- reading -------------------------------------------------------------------------------


def _at_line(line, error):
    return RecordError("line %d: %s" % (line, error))


def read_csa(text):
    """Every game of a CSA text, in file order."""
    games, current, first = [], [], 1
    lines = text.splitlines()
    for number, raw in enumerate(lines, 1):
        line = raw.strip().lstrip("\ufeff")
        if line == "/":
            games.append(_record(current, first))
            current, first = [], number + 1
        elif line:
            # A line may hold several statements separated by commas (`+7776FU,T12`),
            # except comments, which run to the end of the line.
            # ... except comments (which keep their spaces), names and $ headers
            if line[0] == "'":
                current.append((number, raw.lstrip(" \t\ufeff").rstrip("\r")))
            elif line[0] in "N$" or "," not in line:
                current.append((number, line))
            else:
                current.extend((number, statement.strip()) for statement in line.split(","))
    if current or not games:
        games.append(_record(current, first))
    return games


def _record(statements, first_line):
    reader = _GameReader()
    read = reader.read
    for number, statement in statements:
        read(number, statement)
    return reader.finished(statements, first_line)


class _GameReader:
    """The statements of one CSA game read in order onto its record: one method for each
    kind of statement, chosen by its first character."""

    def __init__(self):
        self.variant = variant_by_name("shogi")
        self.record = GameRecord(variant="shogi", zone=dates.JAPAN)
        self.position = self.override = self.ending = self.date_text = self.cells = None
        self.own = self.zone_named = False
        self.move_lines, self.rows, self.notes, self.seconds = [], {}, {}, []
        self.hands = [{}, {}]
        self.usi = usi_table(self.variant)
        self.by_first = {"'": self._comment, "V": self._skip, "N": self._name, "$": self._header,
                         "P": self._position_line, "+": self._sign, "-": self._sign,
                         "T": self._time, "%": self._ending}

    def read(self, number, statement):
        read = self.by_first.get(statement[:1])
        if read is None:
            raise _at_line(number, "unreadable line %r" % statement[:40])
        read(number, statement)

    def _skip(self, number, statement):
        pass

    def _comment(self, number, statement):
        if statement.startswith(OWN_COMMENT):
            self._own(statement[len(OWN_COMMENT):])
        elif statement.startswith("'*"):
            ply = len(self.record.moves) + (1 if self.ending is not None else 0)
            self.notes.setdefault(ply, []).append(statement[2:])

    def _own(self, text):
        """yariboard's own comment lines: the fields CSA has no word for."""
        self.own = True
        key, _, value = text.partition("=")
        if key == "mode":
            self.record.mode = value
        elif key == "zone":
            self.zone_named = True
            self.record.zone = "" if value == "UTC" else value
        elif key == "result" and value.count(",") == 1:
            self.override = tuple(value.split(","))

    def _name(self, number, statement):
        if statement[1:2] not in ("+", "-"):
            raise _at_line(number, "unreadable line %r" % statement[:40])
        setattr(self.record, "black" if statement[1] == "+" else "white", statement[2:])

    def _header(self, number, statement):
        key, _, value = statement[1:].partition(":")
        if self.position is None or key in ("END_TIME",):
            self.record.tags.append((TAG_OF_KEY.get(key, key), value))
        if key == "START_TIME" and self.position is None:
            self.date_text = value

    def _position_line(self, number, statement):
        if statement.startswith("PI"):
            self.cells = _handicap(statement[2:], number)
        elif "1" <= statement[1:2] <= "9":
            self.rows[int(statement[1])] = (statement[2:], number)
        elif statement[:2] in ("P+", "P-"):
            if self.position is not None:
                raise _at_line(number, "a set-up line after the moves began")
            if self.cells is None:
                self.cells = _rows_cells(self.rows) if self.rows else {}
                self.rows = {}
            _place(self.cells, self.hands, statement, number)
        else:
            raise _at_line(number, "unreadable position line %r" % statement[:40])

    def _sign(self, number, statement):
        if statement in ("+", "-") and self.position is None:
            self._start(number, statement)
        else:
            self._move(number, statement)

    def _start(self, number, statement):
        """The side to move: the start position is complete."""
        record = self.record
        if self.rows:
            self.cells = _rows_cells(self.rows)
        if self.cells is None:      # Shogi Wars writes no position line for the even start
            self.cells = _handicap("", number)
        _give_the_rest(self.cells, self.hands)
        record.start_sfen = _sfen(self.cells, "b" if statement == "+" else "w", self.hands)
        try:
            self.position = RecordPosition(self.variant, record.start_sfen)
        except ValueError as error:
            raise _at_line(number, "bad start position: %s" % error)
        record.start_sfen = self.position.sfen()
        record.handicap = handicap_of("shogi", record.start_sfen)

    def _move(self, number, statement):
        if self.position is None:
            raise _at_line(number, "move before the start position (PI and +/-)")
        if self.ending is not None:
            raise _at_line(number, "move after the game ended")
        move = _parse_move(self.variant, self.position, statement, number)
        # a move without its T line took what the move before it took (0 for the first)
        self.seconds.append(self.seconds[-1] if self.seconds else 0)
        self.record.moves.append(MoveRecord(self.usi[move], None))
        self.move_lines.append(number)
        self.position.push(move)

    def _time(self, number, statement):
        digits = statement[1:]
        if not digits.isdecimal():
            raise _at_line(number, "unreadable line %r" % statement[:40])
        if not self.record.moves:
            raise _at_line(number, "time %s before the first move" % statement)
        if len(digits) > MOVE_SECONDS_DIGITS:
            raise _at_line(number, "move time %s... is out of range" % statement[:12])
        self.seconds[-1] = int(digits)

    def _ending(self, number, statement):
        if statement not in ENDINGS:
            raise _at_line(number, "unknown ending %r" % statement[:20])
        if self.position is None:
            raise _at_line(number, "ending before the start position")
        self.ending = _ending_of(statement, self.position)
        if self.ending[0] == "declaration" and not declaration_wins(self.position):
            # a declaration that fails the rule loses (the server's 'illegal kachi)
            self.ending = _ending_of("%ILLEGAL_MOVE", self.position)

    def finished(self, statements, first_line):
        """The record, its date, times, comments and ending checked."""
        record = self.record
        if self.position is None:
            raise _at_line(statements[-1][0] if statements else first_line,
                           "no start position (PI and +/-) found")
        if self.own and not self.zone_named:
            record.zone = ""       # yariboard's files before it named the zone were in UTC
        date_text = self.date_text
        record.date = dates.read_date(date_text, record.zone) if date_text else None
        if date_text is not None and not dates.needs_text(date_text, record.date, record.zone):
            record.tags.remove(("開始日時", date_text))
        record.date = record.date or now_stamp()
        record.comments = {ply: "\n".join(lines).rstrip("\n") for ply, lines in self.notes.items()}
        if self.ending is not None:
            record.reason, record.winner = self.override or self.ending
        try:
            _timestamps(record, self.seconds)
            return settle(record, self.position)
        except RecordError as error:
            raise _at_line(self.move_lines[-1] if self.move_lines else first_line, error)


# A move's seconds (T lines): ten digits is over 300 years, far past any stamp a game can have.
MOVE_SECONDS_DIGITS = 10


def _place(cells, hands, statement, line):
    """P+63KI00FU, P-00AL: pieces for one side, on squares or (00) in hand."""
    colour, text = (0 if statement[1] == "+" else 1), statement[2:]
    if len(text) % 4:
        raise _at_line(line, "a set-up line wants squares and pieces in groups of four")
    for index in range(0, len(text), 4):
        square, code = text[index:index + 2], text[index + 2:index + 4]
        if code == "AL" and square == "00":
            hands[colour]["AL"] = 1
            continue
        symbol = SYMBOL_OF.get(code)
        if symbol is None or not square.isdigit():
            raise _at_line(line, "unreadable piece %r" % text[index:index + 4])
        if square == "00":
            if symbol not in HAND_PIECES:
                raise _at_line(line, "%s cannot be in hand" % code)
            hands[colour][symbol] = hands[colour].get(symbol, 0) + 1
        elif "0" in square:
            raise _at_line(line, "no square %s" % square)
        else:
            cells[(int(square[0]), int(square[1]))] = symbol if colour == 0 else symbol.lower()


def _give_the_rest(cells, hands):
    """00AL: every piece not on the board or in a hand goes to that side's hand."""
    for colour in (0, 1):
        if hands[colour].pop("AL", None) is None:
            continue
        for piece, total in PIECE_SET.items():
            used = sum(1 for p in cells.values() if p.lstrip("+").upper() == piece)
            used += hands[0].get(piece, 0) + hands[1].get(piece, 0)
            if total > used:
                hands[colour][piece] = hands[colour].get(piece, 0) + total - used


def _timestamps(record, seconds):
    """Give each move the moment it was made, from the seconds each took (T lines)."""
    clock = stamp_seconds(record.date)
    for entry, spent in zip(record.moves, seconds):
        clock += spent
        entry.at = stamp_at(clock)


def _rows_cells(rows):
    """P1..P9 board lines (three characters a square: ` * `, `+FU`, `-KA`) -> cells."""
    if sorted(rows) != list(range(1, 10)):
        raise _at_line(min(line for _, line in rows.values()), "a board needs the nine lines P1..P9")
    cells = {}
    for rank, (text, line) in rows.items():
        squares = [text[i:i + 3] for i in range(0, 27, 3)]
        if len(text.rstrip()) > 27 or len(squares[-1].strip()) not in (0, 1, 3):
            raise _at_line(line, "a board line has nine squares of three characters")
        for index, square in enumerate(squares):
            if square.strip() in ("*", ""):
                continue
            if square[0] not in "+-" or square[1:] not in SYMBOL_OF:
                raise _at_line(line, "unknown square %r" % square)
            symbol = SYMBOL_OF[square[1:]]
            cells[(9 - index, rank)] = symbol if square[0] == "+" else symbol.lower()
    return cells


def _handicap(text, line):
    """`82HI22KA...` -> the even start without those pieces (side to move set later)."""
    cells, side = _board(variant_by_name("shogi").start_sfen)
    if len(text) % 4:
        raise _at_line(line, "PI wants squares and pieces in groups of four, as 82HI")
    for index in range(0, len(text), 4):
        group = text[index:index + 4]
        square = (int(group[0]), int(group[1])) if group[:2].isdigit() else None
        if square not in cells or PIECES.get(cells[square].upper()) != group[2:]:
            raise _at_line(line, "PI: no %s at the start on %s" % (group[2:], group[:2]))
        del cells[square]
    return cells


def _parse_move(variant, position, statement, line):
    match = MOVE_RE.match(statement)
    if not match:
        raise _at_line(line, "unreadable move %r (expected e.g. +7776FU)" % statement[:20])
    sign, origin, destination, code = match.groups()
    if (sign == "+") != (position.side == BLACK):
        raise _at_line(line, "%s: it is %s's move" % (statement, "Black" if position.side == BLACK else "White"))
    squares, kinds = _squares(variant)
    kind = kinds.get(code)
    if kind is None:
        raise _at_line(line, "unknown piece %r" % code)
    to = squares.get(destination)
    if to is None:
        raise _at_line(line, "no square %s" % destination)
    if origin == "00":
        move = make_drop(kind, to)
    else:
        frm = squares.get(origin)
        if frm is None:
            raise _at_line(line, "no square %s" % origin)
        before = position.piece_at(frm) & 31
        promote = kind != before and variant.promote[before] == kind
        if not position.piece_at(frm) or not (promote or kind == before):
            raise _at_line(line, "%s: no piece on %s that could become %s" % (statement, origin, code))
        move = make_move(frm, to, promote)
    if not position.allows(move):
        raise _at_line(line, "move %d %s is not legal here" % (position.plies + 1, statement))
    return move


@functools.lru_cache(maxsize=None)
def _squares(variant):
    """{`76`: square}, {`FU`: kind}: what every CSA move is read with."""
    squares, codes = _codes(variant)
    return ({text: square for square, text in squares.items()},
            {code: kind for kind, code in codes.items()})
