"""KI2 game records: KIF's headers with the moves as books print them (▲７六歩 △同　銀).

A KI2 move names no origin square: the piece, its destination and, when several pieces of
that kind could go there, the words that tell them apart (右 左 直 上 引 寄), then 成, 不成
or 打. The reader resolves each move against the legal moves and hands the game to the KIF
reader as KIF move lines, so both formats share headers, diagrams, comments and endings.
The writer adds the telling words only where they are needed, as ShogiHome does.
"""
import re

from shogicore.move import drop_kind, is_drop, is_promotion, make_drop, move_from, move_to
from shogicore.position import Position
from shogicore.variants import BLACK, variant_by_name

from yariboard.records.formats import kif
from yariboard.records.game import RecordError, replay

MARKS = {"▲": BLACK, "☗": BLACK, "▼": BLACK, "△": 1, "☖": 1, "▽": 1}
TELLERS = "右左直上引寄"
# Telling words the writer tries, fewest first (the first that singles the move out wins).
TELLINGS = ["上", "引", "寄", "直", "右", "左", "右上", "右引", "右寄", "左上", "左引", "左寄"]


def _move_re(variant_name):
    names = sorted(set(kif.PIECES[variant_name].values()) | set(kif.PIECE_ALIASES[variant_name]),
                   key=len, reverse=True)
    files = kif.FULL_WIDTH[:variant_by_name(variant_name).files]
    return re.compile(r"([▲△☗☖▼▽])\s*(同\s*|[%s][一二三四五六七八九])(%s)([%s]*)(不成|成|打|生)?"
                      % (files, "|".join(names), TELLERS))


MOVE_RES = {name: _move_re(name) for name in kif.PIECES}


def _at_line(line, error):
    return RecordError("line %d: %s" % (line, error))


# -- reading -------------------------------------------------------------------------------


def read_ki2(text):
    """The main line of the one game in a KI2 text (see kif.read_kif for what is kept)."""
    headers, body, diagram, zone, side = kif.scan(text, ki2=True)
    values = {key: value for key, value, _ in headers}
    variant_name = "yari" if values.get(kif.YARI_HEADER[0]) == kif.YARI_HEADER[1] else "shogi"
    variant = variant_by_name(variant_name)
    if diagram:
        start = diagram
    else:
        record = kif.GameRecord(variant=variant_name)
        handicap = (values.get("手合割", kif.EVEN).split() or [kif.EVEN])[0]
        start = kif._start_sfen(variant_name, handicap, record, 0)
        if side == "w":
            start = start.replace(" b ", " w ")
    position = Position(variant, start)
    lines, last_to, ply = [], None, 0
    move_re = MOVE_RES[variant_name]
    for number, line in body:
        if line.startswith("*"):
            lines.append((number, line))
            continue
        if re.match(r"まで\d+手詰\s*$", line):
            continue   # a tsume problem's length, as KIF reads it (see kif.py), not a result
        if line.startswith("まで"):
            word = _ending_word(line, number)
            lines.append((number, "%d %s" % (ply + 1, word)))
            lines.append((number, line.replace("判定により", "")))   # KIF's words for the winner
            continue
        rest = line
        while rest.strip():
            match = move_re.match(rest.strip())
            if not match:
                raise _at_line(number, "unreadable move %r" % rest.strip()[:20])
            rest = rest.strip()[match.end():]
            move = _resolve(variant, position, match, last_to, number)
            ply += 1
            lines.append((number, "%d %s" % (ply, kif.move_text(variant, position, move, last_to))))
            position.push(move)
            last_to = move_to(move)
    return [kif.record_of(headers, lines, diagram, zone, side)]


def _ending_word(line, number):
    """The KIF ending word for a KI2 `まで…` line (KI2 writes no ending move)."""
    clean = re.sub(r"\s", "", re.sub(r"^まで\d+手で?", "", line))
    if clean.startswith("時間切れ") or clean.endswith("切れ負け"):
        return "切れ負け"
    if clean.startswith("判定"):
        return "判定"
    for word in ("反則勝ち", "反則負け", "入玉勝ち", "連続王手の千日手", "千日手", "持将棋", "中断",
                 "詰み", *kif.KEPT_UNFINISHED):
        if clean.endswith(word):
            return word
    if clean.endswith("勝ち"):
        return "投了"
    if clean in ("詰", "引き分け"):
        return {"詰": "詰み", "引き分け": "持将棋"}[clean]
    raise _at_line(number, "unknown ending %r" % line[:30])


def _resolve(variant, position, match, last_to, line):
    mark, where, piece, tellers, action = match.groups()
    if MARKS[mark] != position.side:
        raise _at_line(line, "%s: it is %s's move" % (match.group(0), "Black" if position.side == BLACK else "White"))
    if where.startswith("同"):
        if last_to is None:
            raise _at_line(line, "同 (same square) on the first move")
        to = last_to
    else:
        to = variant.square(kif.FULL_WIDTH.index(where[0]) + 1, kif.KANJI.index(where[1]) + 1)
    symbols = {name: symbol for symbol, name in kif.PIECES[variant.name].items()}
    symbol = symbols.get(piece) or kif.PIECE_ALIASES[variant.name][piece]
    kind = variant.kind_of(symbol)
    drops = [make_drop(kind, to)] if kind in variant.hand_kinds else []   # checked below
    board = _reachers(variant, position, symbol, to, action == "成")
    chosen = drops if action == "打" or (not board and not tellers) else board
    chosen = [m for m in _tell(variant, position, chosen, tellers) if position.is_legal(m)]
    if len(chosen) != 1:
        raise _at_line(line, "move %d %s: %s" % (len(position.moves()) + 1, match.group(0),
                                                 "ambiguous" if chosen else "not legal here"))
    return chosen[0]


def _reachers(variant, position, symbol, to, promote):
    """The board moves of the mover's `symbol` pieces to `to`, pinned pieces' too: KI2 tells
    apart every piece that could reach the square, as the eye sees the board."""
    found = []
    for square in variant.squares:
        piece = position.piece_at(square)
        if piece and piece >> 5 == position.side and variant.symbol(piece & 31) == symbol:
            moves = []
            position._piece_moves(square, moves, False, ())
            found += [m for m in moves if move_to(m) == to and is_promotion(m) == promote]
    return found


def _kind(variant, position, move):
    if is_drop(move):
        return variant.symbol(drop_kind(move))
    return variant.symbol(position.piece_at(move_from(move)) & 31)


def _tell(variant, position, moves, tellers):
    """The moves the telling words (右 左 直 上 引 寄) point at, as seen by the mover."""
    forward = -1 if position.side == BLACK else 1   # rank change of a forward step
    for word in tellers:
        if word in _BY_STEP:
            keep = _BY_STEP[word]
            moves = [m for m in moves if keep(*_steps(variant, m, forward))]
        elif moves:
            moves = _at_edge(variant, position, moves, word)
    return moves


# What 上, 引, 寄 and 直 say of a move, from (files moved, ranks moved forward).
_BY_STEP = {"上": lambda files, up: up > 0, "引": lambda files, up: up < 0,
            "寄": lambda files, up: up == 0, "直": lambda files, up: files == 0 and up == 1}


def _steps(variant, m, forward):
    frm, to = move_from(m), move_to(m)
    return (variant.file_of(to) - variant.file_of(frm),
            (variant.rank_of(to) - variant.rank_of(frm)) * forward)


def _at_edge(variant, position, moves, word):
    """右 or 左: the moves from the mover's rightmost or leftmost file among them."""
    files = [variant.file_of(move_from(m)) for m in moves]
    # Black's right is the low files, White's the high ones
    rightmost = min(files) if position.side == BLACK else max(files)
    leftmost = max(files) if position.side == BLACK else min(files)
    edge = rightmost if word == "右" else leftmost
    return [m for m, f in zip(moves, files) if f == edge]


# -- writing -------------------------------------------------------------------------------


def write_ki2(records, comments=None):
    """KI2 text of the records. `comments(record)` may give {ply: [lines]} as `*` lines."""
    return "\n".join(_game(record, (comments and comments(record)) or {}) for record in records)


def _game(record, notes):
    lines, names = kif.head_lines(record)
    lines += kif.comment_lines(record.comments.get(0, ""), notes.get(0, []))
    variant = variant_by_name(record.variant)
    row, last_to = [], [None]

    def add(index, position, move):
        row.append(move_words(variant, position, move, last_to[0]))
        last_to[0] = move_to(move)
        said = kif.comment_lines(record.comments.get(index + 1, ""), notes.get(index + 1, []))
        if said or len(row) == 6:
            lines.append("    ".join(row))
            row.clear()
        lines.extend(said)

    final = replay(record, add)
    if row:
        lines.append("    ".join(row))
    plies = len(record.moves)
    mover = "black" if final.side == BLACK else "white"
    if record.reason:
        lines.append("まで%d手で%s" % (plies, _outcome(record, names, mover)))
    else:
        lines.append("まで%d手で%s" % (plies, record.tag(kif.ENDING_TAG) or kif.SUSPENDED))
    lines.extend(kif.comment_lines(record.comments.get(plies + 1, ""), []))
    return "\n".join(lines) + "\n"


def _outcome(record, names, mover):
    winner = names.get(record.winner, "")
    if record.reason == "adjudication":
        return "判定により" + ("引き分け" if record.winner == "draw" else "%sの勝ち" % winner)
    if record.winner == "draw":
        return {"repetition": "千日手", "impasse": "持将棋"}.get(record.reason, "持将棋")
    if record.reason == "time":
        return "時間切れにより%sの勝ち" % winner

    if record.reason == "illegal-move":
        return ("%sの反則勝ち" % winner if record.winner == mover
                else "%sの反則負け" % names[mover])
    if record.reason in ("declaration", "impasse"):
        return "%sの入玉勝ち" % winner
    if record.reason == "perpetual-check":
        return "連続王手の千日手"
    if record.reason == "mate":
        return "詰み"
    return "%sの勝ち" % winner


def move_words(variant, position, move, last_to):
    """One move in KI2 words: ▲７六歩, △同　銀, ▲５七銀右, ▲５五角打."""
    mark = "▲" if position.side == BLACK else "△"
    to = move_to(move)
    where = "同　" if last_to == to else (kif.FULL_WIDTH[variant.file_of(to) - 1]
                                          + kif.KANJI[variant.rank_of(to) - 1])
    symbol = _kind(variant, position, move)
    text = mark + where + kif.PIECES[variant.name][symbol]
    if is_drop(move):
        return text + ("打" if _reachers(variant, position, symbol, to, False) else "")
    board = _reachers(variant, position, symbol, to, is_promotion(move))
    if len(board) > 1:
        words = next((words for words in TELLINGS if _tell(variant, position, board, words) == [move]), None)
        if words is None:
            raise RecordError("KI2 has no words that tell %s apart from the other pieces that "
                              "reach its square; use kif" % text)
        text += words
    if is_promotion(move):
        return text + "成"
    if any(move_from(m) == move_from(move) for m in _reachers(variant, position, symbol, to, True)):
        return text + "不成"
    return text
