"""Analysis of archived games: evaluations, marks, storage (and the schema migration), the
command line, the comments in every export format, and the plot."""
import json
import os
import re
import sqlite3
import subprocess
import sys

import cshogi
import cshogi.KIF
import pytest

from shogicore.move import parse_usi
from shogicore.position import Position
from shogicore.variants import variant_by_name
from tests.fsf_support import require_fsf
from tests.records.old_schemas import GAMES_AND_MOVES_V1
from yariboard.records import analysis, formats as exports
from yariboard.engines import fsf
from yariboard.engines.analysis import analyse
from yariboard.records.archive import SCHEMA_VERSION, Archive
from yariboard.engines.builtin.search import Engine
from yariboard.records.game import GameRecord, MoveRecord

pytestmark = [pytest.mark.engine]

# Standard shogi: Black exchanges bishops with 8h2b+, and White, instead of taking the
# promoted bishop back (silver 3a2b or rook 8b2b), pushes an edge pawn: a whole bishop lost.
BLUNDER_GAME = ["7g7f", "3c3d", "8h2b+", "9c9d"]
RECAPTURES = ("3a2b", "8b2b")


def record_of(usi_moves, variant="shogi", reason="", winner=""):
    rules = variant_by_name(variant)
    return GameRecord(variant=variant, start_sfen=rules.start_sfen, black="Ann", white="Bo",
                      date="2025-01-02T10:00:00Z", winner=winner, reason=reason,
                      moves=[MoveRecord(usi, "2025-01-02T10:00:%02dZ" % (index + 1))
                             for index, usi in enumerate(usi_moves)])


def test_marks_follow_the_documented_thresholds():
    assert [analysis.mark_for(loss) for loss in (0, 49, 50, 149, 150, 299, 300, 5000)] == [
        "", "", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_builtin_engine_finds_the_lost_bishop():
    record = record_of(BLUNDER_GAME)
    result = analyse(record, Engine(level=8), "built-in engine", nodes=3000)
    assert len(result.evaluations) == len(BLUNDER_GAME) + 1
    position = Position(variant_by_name("shogi"))
    for evaluation, usi in zip(result.evaluations, BLUNDER_GAME + [None]):
        # every best move the analysis names is legal where it is named
        assert position.is_legal(parse_usi(position.variant, evaluation.best))
        if usi:
            position.push(parse_usi(position.variant, usi))
    notes = analysis.move_notes(record, result)
    assert [note.ply for note in notes] == [1, 2, 3, 4]
    assert notes[3].mark == "blunder" and notes[3].best in RECAPTURES
    assert notes[3].loss >= 500
    assert notes[2].mark == ""                 # taking the bishop was fine
    assert result.evaluations[-1].score > 500  # Black is a bishop up
    assert [e.ply for e in result.evaluations] == list(range(5))


def test_a_mated_position_is_scored_without_a_search():
    # A gold dropped on 1b, held by the pawn on 1c, mates the king in the corner.
    rules = variant_by_name("shogi")
    sfen = "8k/9/8P/9/9/9/9/9/K8 b G 1"     # Black drops the gold on 1b: mate
    record = GameRecord(variant="shogi", start_sfen=sfen, date="2025-01-02T10:00:00Z",
                        winner="black", reason="mate",
                        moves=[MoveRecord("G*1b", "2025-01-02T10:00:01Z")])
    position = Position(rules, sfen)
    position.push(parse_usi(rules, "G*1b"))
    assert not position.legal_moves()          # the rules core agrees it is mate
    result = analyse(record, Engine(level=8), "built-in engine", nodes=2000)
    assert result.evaluations[1].mate == 0 and result.evaluations[1].score > 90000
    assert result.evaluations[1].best == ""
    assert result.evaluations[0].mate == 1     # Black to move mates in one ply
    assert analysis.move_notes(record, result)[0].loss == 0


def test_stored_analysis_survives_reopening_and_is_dropped_with_taken_back_moves(tmp_path):
    path = str(tmp_path / "a.sqlite3")
    record = record_of(BLUNDER_GAME)
    result = analyse(record, Engine(level=8), "built-in engine", nodes=1000)
    with Archive(path) as archive:
        (game_id,) = archive.store_all([record])
        analysis.save(archive, game_id, result)
    with Archive(path) as archive:
        assert analysis.load(archive, game_id) == result
        archive.truncate(game_id, 2)
        assert analysis.load(archive, game_id) is None


def test_an_archive_of_schema_1_gains_the_analysis_tables_and_keeps_its_games(tmp_path):
    path = str(tmp_path / "old.sqlite3")
    db = sqlite3.connect(path)
    db.executescript(GAMES_AND_MOVES_V1)
    db.execute("INSERT INTO games (id, variant, start_sfen, date) VALUES (1, 'shogi', ?, ?)",
               (variant_by_name("shogi").start_sfen, "2025-01-02T10:00:00Z"))
    db.executemany("INSERT INTO moves VALUES (1, ?, ?, ?)",
                   [(i + 1, usi, "2025-01-02T10:00:%02dZ" % (i + 1)) for i, usi in enumerate(BLUNDER_GAME)])
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    with Archive(path) as archive:
        assert archive.game(1).usi_moves() == BLUNDER_GAME
        assert analysis.load(archive, 1) is None
        record = archive.game(1)
        analysis.save(archive, 1, analyse(record, Engine(level=8), "built-in", nodes=500))
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("SELECT COUNT(*) FROM analysis_plies WHERE game_id=1").fetchone()[0] == 5
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("DELETE FROM games WHERE id=1")        # deleting a game takes its analysis along
    db.commit()
    assert db.execute("SELECT COUNT(*) FROM analysis_plies").fetchone()[0] == 0


def cli(db, *args):
    env = dict(os.environ, YARIBOARD_DB=db, COLUMNS="150")
    return subprocess.run([sys.executable, "-m", "yariboard.cli.main", *args], capture_output=True,
                          text=True, env=env, timeout=300)


@pytest.fixture
def analysed(tmp_path):
    """An archive with the blunder game, analysed through the command line."""
    db = str(tmp_path / "a.sqlite3")
    with Archive(db) as archive:
        (game_id,) = archive.store_all([record_of(BLUNDER_GAME, reason="resignation", winner="black")])
    done = cli(db, "games", "analyse", str(game_id), "--nodes", "3000",
               "--plot", str(tmp_path / "eval.png"))
    assert done.returncode == 0, done.stderr
    return db, game_id, done


def test_cli_analyses_with_progress_and_stores_the_result(analysed):
    db, game_id, done = analysed
    progress = [line for line in done.stderr.splitlines() if line.startswith("analysing game")]
    assert progress[-1].startswith("analysing game %d: 5/5 positions" % game_id)
    assert all("s left" in line for line in progress)
    assert "1 blunder" in done.stdout
    with Archive(db) as archive:
        assert len(analysis.load(archive, game_id).evaluations) == 5
    shown = cli(db, "games", "show", str(game_id))
    assert shown.returncode == 0
    row = next(line for line in shown.stdout.splitlines() if line.split()[:2] == ["4", "9c9d"])
    assert "?? blunder" in row and any(best in row for best in RECAPTURES)
    assert "evaluation: " in shown.stdout


def test_analysis_goes_into_every_export_as_comments_and_the_games_still_round_trip(analysed, tmp_path):
    db, game_id, _ = analysed
    with Archive(db) as archive:
        record = archive.game(game_id)
    for fmt in ("pgn", "kif", "csa", "json"):
        path = str(tmp_path / ("out." + ("kif" if fmt == "kif" else fmt)))
        assert cli(db, "games", "export", str(game_id), "-o", path).returncode == 0
        with open(path, "rb") as source:
            text = source.read().decode("cp932" if fmt == "kif" else "utf-8")
        (back,) = exports.import_games(text, fmt)
        if fmt == "kif":
            # KIF readers keep `*` lines as the moves' comments: the analysis comes back as such
            assert "#評価値" in back.comments[1]
            back.comments = {}
        assert back.same_game(record), fmt
        if fmt == "pgn":
            assert "{[%eval" in text and re.search(r"blunder \(-\d+\), best [SR]x2b", text)
        elif fmt == "kif":
            parsed = cshogi.KIF.Parser.parse_file(path)
            assert [cshogi.move_to_usi(m) for m in parsed.moves] == BLUNDER_GAME
            assert "#評価値=" in parsed.comments[0]
            assert "大悪手" in parsed.comments[3]
            assert "２二銀(31)" in parsed.comments[3] or "２二飛(82)" in parsed.comments[3]
        elif fmt == "csa":
            assert "blunder" in text
        else:
            moves = json.loads(text)["games"][0]["moves"]
            assert moves[3]["mark"] == "blunder" and moves[3]["best"] in RECAPTURES
            assert moves[3]["loss"] >= 500 and moves[3]["eval"] > 500
            assert json.loads(text)["games"][0]["analysis"]["budget"] == "3000 nodes"


def test_plot_is_a_png_and_an_svg(analysed, tmp_path):
    db, game_id, _ = analysed
    with open(str(tmp_path / "eval.png"), "rb") as png:
        assert png.read(8) == b"\x89PNG\r\n\x1a\n"
    svg = str(tmp_path / "eval.svg")
    done = cli(db, "games", "plot", str(game_id), svg)
    assert done.returncode == 0, done.stderr
    with open(svg, encoding="utf-8") as source:
        assert "<svg" in source.read(2000)


@pytest.mark.parametrize("args, message", [
    (["games", "analyse", "99"], "no game 99"),
    (["games", "analyse", "1", "--nodes", "0"], "must be a number above 0"),
    (["games", "analyse", "1", "--engine", "/no/such/engine"], "/no/such/engine"),
    (["games", "analyse", "1", "--plot", "x.gif"], ".png or .svg"),
    (["games", "plot", "1", "x.png"], "no analysis"),
    (["games", "plot", "1", "/no/such/folder/x.png"], "no folder"),
])
def test_bad_requests_are_one_line_errors(tmp_path, args, message):
    db = str(tmp_path / "a.sqlite3")
    with Archive(db) as archive:
        archive.store_all([record_of(BLUNDER_GAME)])
    done = cli(db, *args)
    assert done.returncode != 0
    # one error line (argparse puts the usage line before its own)
    last = done.stderr.strip().splitlines()[-1]
    assert "error: " in last and message in last, done.stderr
    assert "Traceback" not in done.stderr


def test_fairy_stockfish_finds_the_lost_bishop(tmp_path):
    require_fsf()
    record = record_of(BLUNDER_GAME)
    engine = fsf.open_engine("shogi")
    try:
        result = analyse(record, engine, "Fairy-Stockfish", nodes=20000)
    finally:
        engine.close()
    notes = analysis.move_notes(record, result)
    assert notes[3].mark == "blunder" and notes[3].best in RECAPTURES
    assert result.evaluations[-1].score > 500


def test_without_matplotlib_the_plot_says_how_to_get_it(tmp_path):
    blocker = tmp_path / "blocked" / "matplotlib"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('No module named matplotlib')\n")
    db = str(tmp_path / "a.sqlite3")
    with Archive(db) as archive:
        archive.store_all([record_of(BLUNDER_GAME)])
    env = dict(os.environ, YARIBOARD_DB=db, PYTHONPATH=str(tmp_path / "blocked"))
    done = subprocess.run([sys.executable, "-m", "yariboard.cli.main", "games", "analyse", "1",
                           "--plot", str(tmp_path / "x.png")], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0
    assert "pip install 'yariboard[plot]'" in done.stderr
    with Archive(db) as archive:
        assert archive.analysis_rows(1) is None   # refused before any search was made
