"""A record's result survives every round trip, in every format, as the same winner and the
same reason; CSA's and KIF's own readers (cshogi, tsshogi) see the same winner.

Results a format has no words for are written as a stopped game that other readers see, with
the result beside it for ours (docs/host.md says the same)."""
import datetime

import cshogi
import cshogi.CSA
import pytest

from shogicore.variants import variant_by_name
from yariboard.records import formats as exports
from yariboard.records.game import GameRecord, MoveRecord

from tests.records import tsshogi

pytestmark = [pytest.mark.external]

FORMATS = ("pgn", "json", "kif", "ki2", "csa", "jkf")
# The games below end with Black to move: a resignation or a loss on time is Black's, and
# one out of turn (White resigning while Black thinks) is the odd case.
RESULTS = [("resignation", "white"), ("time", "white"), ("resignation", "black"),
           ("illegal-move", "black"), ("illegal-move", "white")] + [
               ("adjudication", winner) for winner in ("black", "white", "draw")]
# CSA has no word for a referee's decided win or a resignation out of turn, nor JKF, whose
# endings are CSA's: both write the game stopped (%CHUDAN, CHUDAN) and the result where
# yariboard reads it back (a comment in CSA, the header 対局結果 in JKF).
CSA_WINNER = {cshogi.BLACK_WIN: "black", cshogi.WHITE_WIN: "white", cshogi.DRAW: "draw"}
TSSHOGI_MOVER_LOSES = ("resign", "timeout", "foulLose")


def game(reason, winner):
    start = datetime.datetime(2025, 3, 1, 10, 0, 0)
    stamps = [(start + datetime.timedelta(seconds=s)).strftime("%Y-%m-%dT%H:%M:%SZ") for s in (0, 5, 9)]
    return GameRecord(variant="shogi", start_sfen=variant_by_name("shogi").start_sfen, black="Ann",
                      white="Ben", date=stamps[0], winner=winner, reason=reason,
                      moves=[MoveRecord("7g7f", stamps[1]), MoveRecord("3c3d", stamps[2])])


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("reason,winner", RESULTS)
def test_every_result_comes_back_from_every_format(fmt, reason, winner):
    (back,) = exports.import_games(exports.export_games([game(reason, winner)], fmt), fmt)
    assert (back.reason, back.winner) == (reason, winner)


@pytest.mark.parametrize("reason,winner", RESULTS)
def test_cshogi_reads_the_winner_of_our_csa(reason, winner):
    text = exports.export_games([game(reason, winner)], "csa")
    assert "%HIKIWAKE" not in text or winner == "draw"
    (parsed,) = cshogi.CSA.Parser.parse_str(text)
    if (reason, winner) in (("adjudication", "black"), ("adjudication", "white"),
                            ("resignation", "black")):
        assert parsed.endgame == "%CHUDAN"      # stopped, neither drawn nor the wrong winner
    else:
        assert CSA_WINNER[parsed.win] == winner
    if reason == "time":
        assert parsed.endgame == "%TIME_UP"


@pytest.mark.parametrize("reason,winner", [r for r in RESULTS if r[0] != "adjudication"
                                           and r != ("resignation", "black")])
def test_tsshogi_reads_the_winner_of_our_kif_and_ki2(reason, winner, tmp_path):
    paths = []
    for fmt in ("kif", "ki2"):
        path = tmp_path / ("game." + fmt)
        path.write_text(exports.export_games([game(reason, winner)], fmt), encoding="utf-8")
        paths.append(str(path))
    for path, entry in tsshogi.read(paths).items():
        mover = "black"          # two moves were made: Black is to move
        loses = entry["ending"] in TSSHOGI_MOVER_LOSES
        assert entry["ending"] in TSSHOGI_MOVER_LOSES + ("foulWin",), path
        assert (winner == mover) != loses, (path, entry["ending"])
        assert entry["ending"] != "resign" or reason == "resignation"


@pytest.mark.parametrize("reason,winner", [("adjudication", "black"), ("resignation", "black")])
def test_tsshogi_reads_a_result_jkf_cannot_say_as_a_stopped_game(reason, winner, tmp_path):
    path = tmp_path / "game.jkf"
    path.write_text(exports.export_games([game(reason, winner)], "jkf"), encoding="utf-8")
    (entry,) = tsshogi.read([str(path)]).values()
    assert entry["ending"] == "interrupt" and entry["moves"] == ["7g7f", "3c3d"]
    assert entry["custom"].get("対局結果") == "%s,%s" % (reason, winner)
