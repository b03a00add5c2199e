"""A KIF whose last move is the illegal move that lost the game (ShogiGUI and other programs
write them): the game is kept, lost by its mover, and the move's text with it; tsshogi and
cshogi are the oracles."""
import cshogi
import cshogi.CSA
import pytest

from yariboard.records import formats as exports
from yariboard.records.formats import kif
from yariboard.records.game import RecordError

from tests.records import tsshogi

pytestmark = [pytest.mark.external]

HEAD = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n"
# Black drops a pawn it does not hold: White wins by Black's illegal move
LOST = HEAD + ("   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:02/00:00:02)\n"
               "   3 ５五歩打   ( 0:03/00:00:04)\n*no pawn in hand\n   4 反則勝ち\n"
               "まで3手で後手の反則勝ち\n")


def write(folder, name, text):
    path = str(folder / name)
    with open(path, "w", encoding="utf-8") as out:
        out.write(text)
    return path


def test_the_game_is_kept_lost_by_the_mover_with_the_moves_text(tmp_path):
    (record,) = exports.import_games(LOST, "kif")
    assert record.usi_moves() == ["7g7f", "3c3d"]
    assert (record.reason, record.winner) == ("illegal-move", "white")
    assert record.tag(kif.ILLEGAL_TAG) == "５五歩打"
    assert record.comments == {3: "no pawn in hand"}
    original = tsshogi.read([write(tmp_path, "original.kif", LOST)])
    (theirs,) = original.values()
    assert theirs["moves"] == ["7g7f", "3c3d", "P*5e"] and theirs["ending"] == "foulWin"
    # written back as KIF, tsshogi reads what it read from the original
    back_path = write(tmp_path, "back.kif", exports.export_games([record], "kif"))
    back = tsshogi.read([back_path])[back_path]
    assert (back["moves"], back["ending"]) == (theirs["moves"], theirs["ending"])
    assert tsshogi.comments(back) == tsshogi.comments(theirs)


@pytest.mark.parametrize("fmt", ["ki2", "csa", "jkf"])
def test_formats_without_the_move_keep_its_text_and_the_result(fmt, tmp_path):
    (record,) = exports.import_games(LOST, "kif")
    text = exports.export_games([record], fmt)
    assert "５五歩打" in text
    (again,) = exports.import_games(text, fmt)
    assert (again.reason, again.winner) == ("illegal-move", "white")
    assert again.tag(kif.ILLEGAL_TAG) == "５五歩打"
    if fmt == "csa":    # cshogi judges the CSA ending: White won
        (game,) = cshogi.CSA.Parser.parse_file(write(tmp_path, "game.csa", text))
        assert game.win == cshogi.WHITE_WIN


@pytest.mark.parametrize("after", [
    "   4 ８四歩(83)\n",            # play went on: the move is simply not legal
    "   4 投了\n",                  # the game was lost otherwise
    "",                             # the record stops there
])
def test_an_illegal_move_that_did_not_lose_the_game_is_refused(after):
    text = HEAD + "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五歩打\n" + after
    with pytest.raises(RecordError, match="line 7: move 3 .* is not legal here"):
        exports.import_games(text, "kif")
