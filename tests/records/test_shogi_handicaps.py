"""Standard shogi handicaps: in the rules core, playable on the 9x9 board, and written with
the 手合割 and PI lines that KIF and CSA readers know (cshogi and python-shogi the oracles)."""
import pytest
import cshogi
import cshogi.CSA
import cshogi.KIF
import shogi.KIF

from shogicore.game import Game
from shogicore.move import to_usi
from shogicore.variants import variant_by_name
from yariboard.play.controls import check_new_game
from yariboard.records import formats as exports
from yariboard.records.formats import kif
from yariboard.records.game import GameRecord, MoveRecord
from yariboard.sim.board import SerialClient, SimBoard, occupied_squares

from tests.records import tsshogi

pytestmark = [pytest.mark.micropython]

HANDICAPS = variant_by_name("shogi").handicaps


def legal_usi(game):
    return {to_usi(game.variant, m) for m in game.position.legal_moves()}


# KIF's 手合割 words (Kifu for Windows) that cshogi and python-shogi have no position for.
SEVEN_PIECES = ("左七枚落ち", "右七枚落ち")


def test_every_handicap_kif_names_is_the_position_cshogi_and_python_shogi_know():
    assert len(HANDICAPS) == len(kif.SHOGI_HANDICAP_WORDS) == 15
    for name, word in kif.SHOGI_HANDICAP_WORDS.items():
        check_new_game("shogi", name, "casual")      # --handicap NAME is accepted
        if word not in SEVEN_PIECES:
            assert HANDICAPS[name] == cshogi.KIF.Parser.HANDYCAP_SFENS[word] == shogi.KIF.Parser.HANDYCAP_SFENS[word]


def test_tsshogi_reads_every_handicap_we_write_as_its_position(tmp_path):
    """tsshogi knows ten 手合割 words and JKF presets: the others are read from the diagram
    (KIF), the PI line (CSA) and the position (JKF) written with them."""
    paths = {}
    for name, sfen in HANDICAPS.items():
        record = GameRecord(variant="shogi", start_sfen=sfen, handicap=name, date="2025-03-01T10:00:00Z")
        for fmt in ("kif", "csa", "jkf"):
            path = tmp_path / ("%s.%s" % (name, fmt))
            path.write_text(exports.export_games([record], fmt), encoding="utf-8")
            paths[str(path)] = sfen
    for path, entry in tsshogi.read(list(paths)).items():
        assert entry["sfen"] == paths[path], path


def test_a_handicap_game_is_written_with_its_names_and_read_back_by_cshogi():
    for name, sfen in HANDICAPS.items():
        game = Game("shogi", handicap=name)
        assert game.start_sfen == sfen
        first = next(m for m in ("6a5b", "4a5b", "5a5b") if m in legal_usi(game))   # White moves first
        record = GameRecord(variant="shogi", start_sfen=sfen, handicap=name, date="2025-03-01T10:00:00Z",
                            moves=[MoveRecord(first, "2025-03-01T10:00:04Z")])
        kif_text = exports.export_games([record], "kif")
        assert "手合割：%s" % kif.SHOGI_HANDICAP_WORDS[name] in kif_text
        (parsed,) = cshogi.CSA.Parser.parse_str(exports.export_games([record], "csa"))
        assert parsed.sfen == sfen
        for fmt in ("kif", "csa", "ki2", "jkf"):
            (back,) = exports.import_games(exports.export_games([record], fmt), fmt)
            assert (back.handicap, back.start_sfen) == (name, sfen), fmt


@pytest.mark.parametrize("handicap", ["rook", "right-seven-pieces"])
def test_the_9x9_board_starts_a_handicap_game(handicap, tmp_path):
    with SimBoard(str(tmp_path / "flash"), board="shogi-9x9") as sim:
        client = SerialClient(sim.port)
        try:
            kind, words = client.request("new", "shogi", handicap, "casual")
            assert kind == "ok", words
            sim.send_commands(["set " + " ".join(occupied_squares("shogi", HANDICAPS[handicap])), "advance 100"])
            sim.sync()
            kind, state = client.request("state")
            assert " ".join(state[5:]) == HANDICAPS[handicap]
        finally:
            client.close()
