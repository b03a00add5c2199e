"""Plain USI lines (`.usi`, `.sfen` files): one game a line, as engines and GUIs pass them.

    position startpos moves 7g7f 3c3d
    position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d
    startpos moves 7g7f            (the word `position` may be left out)

A line holds the start position and the moves only: read, a game has no names, no result
and the moment of import as its date. `startpos` is standard shogi's start; Yari and Wa
games are written with their SFEN, whose board size names the variant.
"""
from shogicore.move import parse_usi
from shogicore.position import Position
from shogicore.variants import variant_by_name

from yariboard.records.game import GameRecord, MoveRecord, RecordError, now_stamp, replay

# Files and ranks of each variant's board, as an SFEN's rows show them.
BOARD_SIZES = {(9, 9): "shogi", (7, 9): "yari", (11, 11): "wa"}


def _at_line(line, error):
    return RecordError("line %d: %s" % (line, error))


def write_usi(records, comments=None):
    """One line a game; `comments` (analysis) have no place in a USI line."""
    lines = []
    for record in records:
        replay(record)
        even = record.variant == "shogi" and record.start_sfen == variant_by_name("shogi").start_sfen
        start = "startpos" if even else "sfen " + record.start_sfen
        moves = " moves " + " ".join(record.usi_moves()) if record.moves else ""
        lines.append("position %s%s" % (start, moves))
    return "\n".join(lines) + "\n"


def read_usi(text):
    """Every game of a text of USI lines (blank lines and `#` comments skipped)."""
    games = []
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split()
        if not words or words[0].startswith("#"):
            continue
        games.append(_game(words[1:] if words[0] == "position" else words, number))
    if not games:
        raise RecordError("line 1: no `position startpos moves ...` line found")
    return games


def _game(words, line):
    if words[:1] == ["startpos"]:
        variant_name, sfen, rest = "shogi", variant_by_name("shogi").start_sfen, words[1:]
    elif words[:1] == ["sfen"] and len(words) >= 4:
        sfen = " ".join(words[1:5] if len(words) > 4 and words[4] != "moves" else words[1:4] + ["1"])
        rest = words[5:] if len(words) > 4 and words[4] != "moves" else words[4:]
        rows = sfen.split()[0].split("/")
        files = _files(rows[0]) if rows else 0
        variant_name = BOARD_SIZES.get((files, len(rows)))
        if variant_name is None:
            raise _at_line(line, "a %dx%d board is no variant's" % (files, len(rows)))
    else:
        raise _at_line(line, "expected `startpos` or `sfen ...` after `position`")
    if rest[:1] not in ([], ["moves"]):
        raise _at_line(line, "expected `moves` after the position, not %r" % rest[0][:20])
    variant = variant_by_name(variant_name)
    try:
        position = Position(variant, sfen)
    except ValueError as error:
        raise _at_line(line, "bad start position: %s" % error)
    at = now_stamp()
    record = GameRecord(variant=variant_name, start_sfen=position.sfen(), date=at)
    for index, usi in enumerate(rest[1:], 1):
        try:
            move = parse_usi(variant, usi)
        except ValueError as error:
            raise _at_line(line, "move %d: %s" % (index, error))
        if not position.is_legal(move):
            raise _at_line(line, "move %d %s is not legal in %s" % (index, usi, position.sfen()))
        position.push(move)
        record.moves.append(MoveRecord(usi, at))
    return record


def _files(row):
    """How many files an SFEN row covers (a run of digits is one number: Wa has 10 and 11)."""
    count, digits = 0, ""
    for char in row[:64]:
        if char.isdigit():
            digits += char
            continue
        count += int(digits or 0) + (char != "+")
        digits = ""
    return count + int(digits or 0)
