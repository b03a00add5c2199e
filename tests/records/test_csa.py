"""CSA: export and import round trips (even and PI handicap games), checked against cshogi's
and python-shogi's CSA readers, and files written as floodgate and CSA's standard show."""
import os

import cshogi
import cshogi.CSA
import pytest
import shogi
import shogi.CSA

from shogicore.variants import variant_by_name
from tests.records import tsshogi
from tests.records.test_kif import random_game, shogi_handicap_games
from yariboard.records.formats import csa, kif
from yariboard.records import formats as exports
from yariboard.records.game import RecordError

pytestmark = [pytest.mark.external]

DATA = os.path.join(os.path.dirname(__file__), "data")


def shogi_games():
    even = variant_by_name("shogi").start_sfen
    return [random_game(200 + seed, "shogi", even) for seed in range(12)] + shogi_handicap_games()


def test_every_game_round_trips_alone_and_in_one_file():
    games = shogi_games()
    for game in games:
        (back,) = exports.import_games(exports.export_games([game], "csa"), "csa")
        assert back.same_game(game), exports.export_games([game], "csa")
    together = exports.import_games(exports.export_games(games, "csa"), "csa")
    assert [a.same_game(b) for a, b in zip(together, games)] == [True] * len(games)


@pytest.mark.parametrize("game", shogi_games()[::2])
def test_cshogi_and_python_shogi_read_our_csa(game):
    text = exports.export_games([game], "csa")
    (parsed,) = cshogi.CSA.Parser.parse_str(text)
    assert parsed.sfen == game.start_sfen
    assert [cshogi.move_to_usi(m) for m in parsed.moves] == game.usi_moves()
    assert parsed.names == [game.black, game.white]
    # cshogi's clock: seconds per move, from the T lines
    assert len(parsed.times) == len(game.moves)
    (summary,) = shogi.CSA.Parser.parse_str(text)
    assert summary["moves"] == game.usi_moves()
    assert summary["sfen"] == game.start_sfen
    mover = "white" if (len(game.moves) % 2 == 0) == (game.start_sfen.split()[1] == "w") else "black"
    if game.reason == "resignation" and game.winner != mover:
        # CSA's %TORYO is the side to move resigning; other resignations go in our comment line
        assert parsed.win == (cshogi.BLACK_WIN if game.winner == "black" else cshogi.WHITE_WIN)


def test_handicaps_are_written_as_pi_with_white_to_move():
    game = random_game(3, "shogi", kif.SHOGI_HANDICAPS["飛香落ち"])
    lines = exports.export_games([game], "csa").splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("PI"))
    assert lines[index] in ("PI11KY82HI", "PI82HI11KY")
    assert lines[index + 1] == "-"


def test_floodgate_style_file_with_a_board_and_one_line_moves():
    with open(os.path.join(DATA, "floodgate_style.csa"), encoding="utf-8") as source:
        text = source.read()
    (game,) = csa.read_csa(text)
    (parsed,) = cshogi.CSA.Parser.parse_str(text)
    assert game.usi_moves() == [cshogi.move_to_usi(m) for m in parsed.moves]
    assert game.usi_moves() == ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]
    assert (game.black, game.white) == ("Alice", "Bob")
    assert game.date == "2024-04-05T12:00:00Z"   # 21:00 in Japan
    assert game.zone == "+09:00"
    assert [m.at[-6:-1] for m in game.moves] == ["00:12", "00:18", "00:21", "00:23", "00:43"]
    assert (game.winner, game.reason) == ("black", "resignation")
    assert parsed.win == cshogi.BLACK_WIN


def test_handicap_file_as_the_csa_standard_shows_it():
    with open(os.path.join(DATA, "two_piece_handicap.csa"), encoding="utf-8") as source:
        text = source.read()
    (game,) = csa.read_csa(text)
    (parsed,) = cshogi.CSA.Parser.parse_str(text)
    assert game.start_sfen == kif.SHOGI_HANDICAPS["二枚落ち"] == parsed.sfen
    assert game.usi_moves() == [cshogi.move_to_usi(m) for m in parsed.moves]
    assert (game.winner, game.reason) == ("", "")
    # the same game written as KIF names the handicap the way KIF readers know it
    assert "手合割：二枚落ち" in exports.export_games([game], "kif")


def test_yari_games_are_refused_clearly():
    yari = random_game(1, "yari", variant_by_name("yari").start_sfen)
    with pytest.raises(RecordError, match="standard shogi only"):
        exports.export_games([yari], "csa")


def test_set_up_positions_with_pieces_in_hand_round_trip():
    odd = random_game(2, "shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P 1")
    text = exports.export_games([odd], "csa")
    assert "P+00FU" in text and "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY" in text
    (back,) = exports.import_games(text, "csa")
    assert back.same_game(odd)


def test_an_unreadable_start_time_keeps_its_text_and_the_game():
    (game,) = exports.import_games("V2.2\n$START_TIME:yesterday\nPI\n+\n+7776FU\n", "csa")
    assert game.usi_moves() == ["7g7f"] and game.tag("開始日時") == "yesterday"
    assert "$START_TIME:yesterday" in exports.export_games([game], "csa")


@pytest.mark.parametrize("text, message", [
    ("V2.2\nPI\n+\n+7775FU\n", "line 4: move 1 \\+7775FU is not legal here"),
    ("V2.2\nPI\n+\n+7776FU\n+3334FU\n", "line 5: \\+3334FU: it is White's move"),
    ("V2.2\nPI99HI\n+\n", "line 2: PI: no HI at the start on 99"),
    ("V2.2\nPI\n+\n+7776XX\n", "line 4: unknown piece 'XX'"),
    ("V2.2\nPI\n+\n%WHATEVER\n", "line 4: unknown ending"),
    ("V2.2\n+7776FU\n", "line 2: move before the start position"),
    ("V2.2\nN+a\n", "no start position"),
    ("V2.2\nP1-KY\nPI\n+\n", "needs the nine lines"),
    ("V2.2\nPI\n+\nT5\n", "line 4: time T5 before the first move"),
    ("V2.2\nPI\n+\nhello\n", "line 4: unreadable line 'hello'"),
])
def test_broken_csa_names_the_line(text, message):
    with pytest.raises(RecordError, match=message):
        csa.read_csa(text)


def test_a_set_up_with_pieces_in_hand_and_00al_reads_as_tsshogi_reads_it(tmp_path):
    rows = ["P%d%s" % (rank, " * " * 4 + ("-OU" if rank == 1 else "+OU" if rank == 9 else " * ") + " * " * 4)
            for rank in range(1, 10)]
    text = "V2.2\n" + "\n".join(rows) + "\nP+00KI\nP-00AL\n+\n+0052KI\n%CHUDAN\n"
    (game,) = exports.import_games(text, "csa")
    path = tmp_path / "hands.csa"
    path.write_text(text)
    (theirs,) = tsshogi.read([str(path)]).values()      # cshogi does not know 00AL
    assert game.start_sfen.split()[:3] == tsshogi.position(theirs)
    assert game.start_sfen.split()[2] == "G2r2b3g4s4n4l18p"
    assert game.usi_moves() == theirs["moves"] == ["G*5b"]
