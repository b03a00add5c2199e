"""KIF and KI2 board diagrams (BOD): a set-up position drawn as text, read and written.

    後手の持駒：角　金二　
      ９ ８ ７ ６ ５ ４ ３ ２ １
    +---------------------------+
    | ・ ・ ・ ・ ・ ・ ・v桂v香|一
    ...
    +---------------------------+
    先手の持駒：なし
    後手番

Kifu for Windows, ShogiHome, Shogidokoro and tsume-problem files write this instead of a
`手合割` name when a game does not start from a standard position. `v` marks White's pieces.
Standard shogi only (9x9); the reader's work is one pass over the lines it is given.
"""
import re

from shogicore.position import Position
from shogicore.variants import BLACK, variant_by_name

from yariboard.records.game import RecordError

# One character a piece, as the diagram draws it (promoted pieces have one-character names).
PIECE_OF_CHAR = {"歩": "P", "香": "L", "桂": "N", "銀": "S", "金": "G", "角": "B", "飛": "R",
                 "玉": "K", "王": "K", "と": "+P", "杏": "+L", "圭": "+N", "全": "+S", "馬": "+B",
                 "龍": "+R", "竜": "+R", "成香": "+L", "成桂": "+N", "成銀": "+S"}
CHAR_OF_PIECE = {"P": "歩", "L": "香", "N": "桂", "S": "銀", "G": "金", "B": "角", "R": "飛",
                 "K": "玉", "+P": "と", "+L": "杏", "+N": "圭", "+S": "全", "+B": "馬", "+R": "龍"}
HAND_ORDER = "RBGSNLP"
KANJI_NUMBERS = "一二三四五六七八九"
HAND_KEYS = {"先手の持駒": BLACK, "下手の持駒": BLACK, "後手の持駒": 1, "上手の持駒": 1}
SIDE_LINES = {"先手番": "b", "下手番": "b", "後手番": "w", "上手番": "w"}
ROW_RE = re.compile(r"^\|(.*)\|\s*([一二三四五六七八九])?")
FRAME_RE = re.compile(r"^(\+-+\+|[\s９８７６５４３２１　]+)$")


def _at_line(line, error):
    return RecordError("line %d: %s" % (line, error))


def is_diagram_line(line):
    """True for the lines of the drawing itself (frame, file numbers, a row, whose turn)."""
    return bool(ROW_RE.match(line) or FRAME_RE.match(line)) or line in SIDE_LINES


def kanji_count(text):
    """'' -> 1, '二' -> 2, '十' -> 10, '十八' -> 18; None if not a count."""
    if not text:
        return 1
    if "十" in text:
        tens, _, units = text.partition("十")
        if len(tens) > 1 or len(units) > 1 or (tens and tens not in KANJI_NUMBERS) \
                or (units and units not in KANJI_NUMBERS):
            return None
        return (KANJI_NUMBERS.index(tens) + 1 if tens else 1) * 10 + (
            KANJI_NUMBERS.index(units) + 1 if units else 0)
    if len(text) == 1 and text in KANJI_NUMBERS:
        return KANJI_NUMBERS.index(text) + 1
    return None


def read_hand(text, line):
    """'角　金二　' -> {'B': 1, 'G': 2}; 'なし' -> {}."""
    hand = {}
    for item in text.replace(" ", "　").split("　"):
        if not item or item == "なし":
            continue
        piece = PIECE_OF_CHAR.get(item[0])
        count = kanji_count(item[1:])
        if piece is None or piece.startswith("+") or piece == "K" or count is None:
            raise _at_line(line, "unreadable piece in hand %r" % item[:10])
        hand[piece] = hand.get(piece, 0) + count
    return hand


def read_row(text, line):
    """The nine squares of one row, file 9 first: None or (piece letter, colour)."""
    squares, index = [], 0
    while index < len(text):
        mark, index = text[index], index + 1
        if mark == "・":
            squares.append(None)
            continue
        if mark not in " v^":
            raise _at_line(line, "unreadable square %r in the board diagram" % mark)
        name = text[index:index + 2] if text[index:index + 2] in PIECE_OF_CHAR else text[index:index + 1]
        if name not in PIECE_OF_CHAR:
            if name.strip() in ("・", ""):
                squares.append(None)
                index += len(name)
                continue
            raise _at_line(line, "unreadable piece %r in the board diagram" % name)
        index += len(name)
        squares.append((PIECE_OF_CHAR[name], 1 if mark == "v" else BLACK))
    if len(squares) != 9:
        raise _at_line(line, "a board diagram row holds 9 squares, this one %d" % len(squares))
    return squares


def diagram_sfen(rows, hands, side, line):
    """The SFEN of a diagram: `rows` are nine row lists from read_row, `hands` two dicts."""
    if len(rows) != 9:
        raise _at_line(line, "a board diagram has 9 rows, this one %d" % len(rows))
    text = []
    for row in rows:
        out, empty = "", 0
        for square in row:
            if square is None:
                empty += 1
                continue
            piece, colour = square
            out += (str(empty) if empty else "") + (piece if colour == BLACK else piece.lower())
            empty = 0
        text.append(out + (str(empty) if empty else ""))
    hand = "".join(("%d" % hands[colour][p] if hands[colour][p] > 1 else "")
                   + (p if colour == BLACK else p.lower())
                   for colour in (0, 1) for p in HAND_ORDER if hands[colour].get(p))
    sfen = "%s %s %s 1" % ("/".join(text), side, hand or "-")
    try:
        return Position(variant_by_name("shogi"), sfen).sfen()
    except ValueError as error:
        raise _at_line(line, "the board diagram is not a position the rules accept: %s" % error)


def write_diagram(sfen, names=("先手", "後手")):
    """The diagram lines of a standard shogi SFEN, as Kifu for Windows draws it."""
    board, side, hand = sfen.split()[:3]
    counts = [{}, {}]
    number = ""
    for char in "" if hand == "-" else hand:
        if char.isdigit():
            number += char
            continue
        counts[0 if char.isupper() else 1][char.upper()] = int(number or 1)
        number = ""

    def hand_line(colour):
        items = ["%s%s" % (CHAR_OF_PIECE[p], _kanji(counts[colour][p]) if counts[colour][p] > 1 else "")
                 for p in HAND_ORDER if counts[colour].get(p)]
        return "%s の持駒：%s" % (names[colour], "　".join(items) + "　" if items else "なし")

    lines = [hand_line(1).replace(" ", ""), "  ９ ８ ７ ６ ５ ４ ３ ２ １",
             "+---------------------------+"]
    for rank, row in enumerate(board.split("/")):
        cells, promoted = "", False
        for char in row:
            if char.isdigit():
                cells += " ・" * int(char)
            elif char == "+":
                promoted = True
            else:
                piece = ("+" if promoted else "") + char.upper()
                cells += ("v" if char.islower() else " ") + CHAR_OF_PIECE[piece]
                promoted = False
        lines.append("|%s|%s" % (cells, KANJI_NUMBERS[rank]))
    lines += ["+---------------------------+", hand_line(0).replace(" ", "")]
    if side == "w":
        lines.append(names[1] + "番")
    return lines


def _kanji(count):
    if count < 10:
        return KANJI_NUMBERS[count - 1]
    return "十" + (KANJI_NUMBERS[count - 11] if count > 10 else "")
