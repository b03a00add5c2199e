"""Real game records from public repositories (tests/records/corpus, sources in MANIFEST.tsv)
read by yariboard and by tsshogi, ShogiHome's record library, as the oracle.

Every file tsshogi reads must be imported with the same start position, moves, comments and
ending, and written back in every format with them unchanged: what tsshogi reads from our
file is what it read from the original.
"""
import dataclasses
import os

import cshogi
import cshogi.CSA
import pytest

from yariboard.cli.games import decode_record
from yariboard.records import formats as exports
from yariboard.records.formats import kif
from yariboard.records.game import RecordError

from tests.records import tsshogi

pytestmark = [pytest.mark.external]

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
FILES = sorted(name for name in os.listdir(CORPUS) if name != "MANIFEST.tsv")
MANIFEST = os.path.join(CORPUS, "MANIFEST.tsv")


@pytest.fixture(scope="module")
def originals():
    return tsshogi.read([os.path.join(CORPUS, name) for name in FILES])


def read_ours(name):
    with open(os.path.join(CORPUS, name), "rb") as source:
        text = decode_record(source.read())
    return exports.import_games(text, exports.format_for_path(name))


def test_every_file_has_its_source_in_the_manifest():
    with open(MANIFEST, encoding="utf-8") as manifest:
        rows = [line.split("\t") for line in manifest.read().splitlines()[1:] if line.strip()]
    named = {row[0]: row for row in rows}
    assert sorted(named) == FILES
    assert all(len(row) >= 4 and "/" in row[1] and row[2] for row in named.values())


def test_every_file_tsshogi_reads_is_imported_as_tsshogi_reads_it(originals):
    read, refused = 0, []
    for name in FILES:
        theirs = originals[os.path.join(CORPUS, name)]
        if "error" in theirs:
            continue
        try:
            (ours,) = read_ours(name)
        except RecordError as error:
            refused.append((name, str(error)))
            continue
        assert ours.start_sfen.split()[:3] == tsshogi.position(theirs), name
        assert ours.usi_moves() == played(theirs, ours), name
        assert ours.comments == tsshogi.comments(theirs), name
        read += 1
    print("corpus: %d of %d files tsshogi reads imported" % (read, read + len(refused)))
    assert not refused and read >= 100


@pytest.mark.parametrize("fmt", ["kif", "ki2", "csa", "jkf"])
def test_exports_read_by_tsshogi_give_what_it_read_from_the_original(originals, fmt, tmp_path):
    exported = {}
    for name in FILES:
        theirs = originals[os.path.join(CORPUS, name)]
        if "error" in theirs:
            continue
        (ours,) = read_ours(name)
        if fmt == "csa" and ours.variant != "shogi":
            continue
        path = str(tmp_path / (name.replace(".", "_") + "." + fmt))
        with open(path, "w", encoding="utf-8") as out:
            out.write(exports.export_games([ours], fmt))
        exported[path] = (name, ours)
    again = tsshogi.read(list(exported))
    for path, (name, ours) in exported.items():
        original, back = originals[os.path.join(CORPUS, name)], again[path]
        assert "error" not in back, (name, back)
        assert tsshogi.position(back) == tsshogi.position(original), name
        assert back["moves"] == (original["moves"] if fmt == "kif" else played(original, ours)), name
        assert tsshogi.comments(back) == kept_comments(tsshogi.comments(original), fmt), name
        if original["ending"] in OUTCOMES or original["ending"] is None:
            assert judged(back, fmt, ours, tmp_path) == judged(original, name, None, tmp_path), name
        if exports.format_for_path(name) == fmt:
            assert headers(back, original) == headers(original, original), name
        # and yariboard reads its own file as the same game
        (again_ours,) = exports.import_games(open(path, encoding="utf-8").read(), fmt)
        expected = dataclasses.replace(ours, comments=kept_comments(ours.comments, fmt))
        if fmt == "ki2":     # KI2 has no clock times: its moves are dated at the start
            expected.moves = [dataclasses.replace(move, at=ours.date) for move in ours.moves]
        assert again_ours.same_game(expected), name


def played(entry, record):
    """The moves of tsshogi's reading that a record plays: all but the illegal move that lost
    the game, which tsshogi reads as a move and a record keeps as text (written back as a
    move by KIF alone)."""
    if record.tag(kif.ILLEGAL_TAG):
        return entry["moves"][:-1]
    return entry["moves"]


# tsshogi's endings: who wins, the side to move ("mover") or the other, or "draw".
OUTCOMES = {"resign": "other", "mate": "other", "timeout": "other", "foulLose": "other",
            "foulWin": "mover", "enteringOfKing": "mover", "repetitionDraw": "draw",
            "impass": "draw", "draw": "draw", "interrupt": None}


def kept_comments(comments, fmt):
    """What a format can keep of comments: CSA has no blank comment line."""
    if fmt != "csa":
        return comments
    kept = {ply: "\n".join(line for line in text.split("\n") if line) for ply, text in comments.items()}
    return {ply: text for ply, text in kept.items() if text}


FOULS = ("foulWin", "foulLose")


def judged(entry, fmt, record, folder):
    # `record`: the game yariboard read, for an export; None for the original file
    """(ending, winner) as tsshogi reads `entry`, but for a CSA or JKF illegal action.

    tsshogi reads %+ILLEGAL_ACTION as a win for Black when Black is to move; the CSA standard,
    cshogi and Kifu for Windows as Black's illegal action, a win for White. There cshogi
    judges who won, from the record written as CSA (JKF's endings are CSA's words)."""
    found = outcome(entry)
    if found and found[0] in FOULS and fmt.rsplit(".", 1)[-1] in ("csa", "jkf"):
        if record is None:        # an original file
            with open(entry["file"], "rb") as source:
                return "foul", cshogi_winner(decode_record(source.read()), folder)
        return "foul", cshogi_winner(exports.export_games([record], "csa"), folder)
    return ("foul", found[1]) if found and found[0] in FOULS else found


def cshogi_winner(text, folder):
    path = str(folder / "cshogi.csa")
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
    (game,) = cshogi.CSA.Parser.parse_file(path)
    return {cshogi.BLACK_WIN: "black", cshogi.WHITE_WIN: "white", cshogi.DRAW: "draw"}.get(game.win)


def outcome(entry):
    """(ending, winner) of a tsshogi reading; an unfinished game has neither."""
    ending = entry["ending"]
    if OUTCOMES.get(ending) is None:
        return None
    black_first = entry["sfen"].split()[1] == "b"
    mover = "black" if black_first == (len(entry["moves"]) % 2 == 0) else "white"
    winner = {"mover": mover, "other": "white" if mover == "black" else "black"}.get(
        OUTCOMES[ending], "draw")
    return ending, winner


def headers(entry, original):
    """The headers tsshogi read; a start time only if the original had one (yariboard dates
    a record without one at its import, and writes that date)."""
    found = dict(entry["metadata"], **entry["custom"])
    if "startDatetime" not in original["metadata"]:
        found.pop("startDatetime", None)
    found.pop("手合割", None)     # the start position, compared as such
    return {key: value.strip() for key, value in found.items()}
