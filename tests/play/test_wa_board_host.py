"""The host with Wa Shogi games: archive, exports, the terminal view of the 11 x 11 board
with its piece key, and the built-in engine playing Wa with and without drops."""
import re

import pytest
from rich.console import Console

from shogicore.position import Position
from shogicore.variants import BLACK, WHITE, variant_by_name
from tests.records.test_records import random_record
from yariboard.engines.base import Limit
from yariboard.records import formats as exports
from yariboard.records.archive import Archive
from yariboard.cli.main import main
from yariboard.engines.builtin.search import Engine
from yariboard.ui.piecenames import PIECE_NAMES
from yariboard.engines.players import RandomPlayer, play_game
from yariboard.records.game import replay
from yariboard.ui.view import ViewState, render

WA_VARIANTS = ("wa", "wa-nodrops")


def wa_games():
    return ([random_record(300 + seed, "wa", max_plies=150) for seed in range(6)]
            + [random_record(400 + seed, "wa-nodrops", max_plies=150) for seed in range(4)])


def test_wa_games_keep_every_move_in_the_archive(tmp_path):
    games = wa_games()
    path = str(tmp_path / "games.sqlite3")
    with Archive(path) as archive:
        ids = [archive.new_game(game) for game in games]
    with Archive(path) as archive:
        for game_id, game in zip(ids, games):
            stored = archive.game(game_id)
            assert stored.same_game(game)
            assert stored.variant == game.variant
            # the stored moves replay under the rules of the variant the game was played in
            assert [m.usi for m in stored.moves] == game.usi_moves()
            replay(stored)
    # the sample holds moves on the files only an 11 x 11 board has
    assert any(re.search(r"(^|\*|[a-k])1[01][a-k]", m.usi) for game in games for m in game.moves)


def test_wa_games_round_trip_through_pgn_and_json(tmp_path):
    games = wa_games()
    for fmt in ("pgn", "json"):
        text = exports.export_games(games, fmt)
        back = exports.import_games(text, fmt)
        assert [g.usi_moves() for g in back] == [g.usi_moves() for g in games]
        assert all(a.same_game(b) for a, b in zip(back, games))
        assert [g.variant for g in back] == [g.variant for g in games]


def test_pgn_export_carries_the_wa_start_sfen_and_two_digit_usi():
    game = random_record(7, "wa", max_plies=60)
    text = exports.export_games([game], "pgn")
    start = variant_by_name("wa").start_sfen
    assert '[SFEN "%s"]' % start in text
    usi_line = re.search(r'\[USI "([^"]*)"\]', text).group(1).split()
    assert usi_line == game.usi_moves()
    # every move names squares with files 1-11 and ranks a-k
    for usi in usi_line:
        assert re.fullmatch(r"(\d{1,2}[a-k]|[A-Z]\*)\d{1,2}[a-k]\+?", usi), usi
        for number in re.findall(r"\d+", usi):
            assert 1 <= int(number) <= 11


def test_kif_export_of_a_wa_game_is_refused_with_one_line(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    with Archive(db) as archive:
        archive.new_game(random_record(5, "wa", max_plies=10))
    out = str(tmp_path / "game.kif")
    assert main(["--db", db, "games", "export", "--format", "kif", "-o", out]) != 0
    error = capsys.readouterr().err.strip()
    assert error.startswith("yariboard: error:") and "\n" not in error
    assert "Traceback" not in error


def render_text(state, width=110):
    console = Console(width=width, record=True, color_system=None)
    console.print(render(state))
    return console.export_text()


def test_the_terminal_view_draws_eleven_files_and_ranks_with_a_piece_key():
    variant = variant_by_name("wa")
    position = Position(variant)
    position.push_usi("11k11j")          # the Oxcart steps up
    text = render_text(ViewState(variant="wa", sfen=position.sfen(), leds={"11j": "last-move"}))
    lines = text.splitlines()
    header = [line for line in lines if re.search(r"\b11\s+10\s+9\s+8\b", line)]
    assert len(header) == 1
    assert re.findall(r"\d+", header[0]) == [str(f) for f in range(11, 0, -1)]
    rank_rows = [line for line in lines if re.match(r"^│ [a-k] ", line)]
    assert [row[2] for row in rank_rows] == list("abcdefghijk")
    assert "OC" in rank_rows[9] and "vOC" in rank_rows[0]   # Black's Oxcart on j, White's on a
    key = " ".join(lines[lines.index(next(l for l in lines if "Pieces:" in l)):])
    for name in ("Crane King", "Sparrow Pawn", "Oxcart", "Cloud Eagle", "Treacherous Fox"):
        assert name in key
    assert re.search(r"~ +the previous move \(from and to\): 11j", text)


def test_the_piece_key_names_every_wa_piece_once_and_only_wa_gets_one():
    wa = variant_by_name("wa")
    symbols = {wa.symbol(kind) for kind in wa.kinds}
    assert set(PIECE_NAMES["wa"]) == symbols
    # a promoted piece in play is named by its promoted name
    sfen = "hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPP1R+PPP/1F3S3E1/ODUGWKVCLMH b P 1"
    assert "+SP Golden Bird" in " ".join(render_text(ViewState(variant="wa", sfen=sfen)).split())
    assert "Pieces:" not in render_text(ViewState(variant="yari"))


@pytest.mark.parametrize("variant", WA_VARIANTS)
def test_the_built_in_engine_beats_a_random_mover_at_wa(variant):
    wins = 0
    for game in range(4):
        engine_colour = BLACK if game % 2 == 0 else WHITE
        engine, opponent = Engine(seed=game), RandomPlayer(seed=game)
        black, white = (engine, opponent) if engine_colour == BLACK else (opponent, engine)
        outcome = play_game(black, white, variant, limit=Limit(depth=1))
        assert outcome.reason != "illegal-move"
        wins += outcome.winner == engine_colour
    assert wins == 4
