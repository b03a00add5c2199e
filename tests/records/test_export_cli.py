"""`yariboard games export` and `import` through the command line: every game written, and
one-line errors (never a traceback) for a file that cannot be written or read."""
import os
import subprocess
import sys

import pytest

from shogicore.variants import variant_by_name
from yariboard.records import formats as exports
from yariboard.records.archive import Archive
from yariboard.records.game import GameRecord, MoveRecord, RecordError

from tests.records import tsshogi

pytestmark = [pytest.mark.external]

SET_UP = "4k4/9/4p4/9/9/9/4P4/9/4K4 b G2r 1"


def cli(db, *args):
    env = dict(os.environ, YARIBOARD_DB=db)
    return subprocess.run([sys.executable, "-m", "yariboard.cli.main", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def one_line_error(result):
    assert result.returncode == 1, result
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("yariboard: error: ") and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


@pytest.fixture
def archive(tmp_path):
    path = str(tmp_path / "games.sqlite3")
    even = GameRecord(variant="shogi", start_sfen=variant_by_name("shogi").start_sfen, black="Ann",
                      white="Ben", date="2025-03-01T10:00:00Z",
                      moves=[MoveRecord("7g7f", "2025-03-01T10:00:05Z")])
    set_up = GameRecord(variant="shogi", start_sfen=SET_UP, black="Cy", white="Di",
                        date="2025-03-02T10:00:00Z", moves=[MoveRecord("G*5b", "2025-03-02T10:00:07Z")],
                        comments={1: "a gold from the hand"})
    with Archive(path) as store:
        store.store_all([even, set_up, even])
    return path


def test_export_all_as_kif_writes_every_game_set_up_positions_as_diagrams(archive, tmp_path):
    out = str(tmp_path / "all.kifu")
    result = cli(archive, "games", "export", "-o", out)
    assert result.returncode == 0, result.stderr
    text = open(out, encoding="utf-8").read()
    assert text.count("手数----指手") == 3
    assert "+---------------------------+" in text and "先手の持駒：金" in text
    assert "*a gold from the hand" in text
    (set_up_game,) = [game for game in text.split("# yariboard") if "先手：Cy" in game]
    (back,) = exports.import_games("# yariboard" + set_up_game, "kif")
    assert back.start_sfen == SET_UP and back.usi_moves() == ["G*5b"]
    # and ShogiHome's reader sees the same position in the diagram
    alone = tmp_path / "set_up.kifu"
    alone.write_text("# yariboard" + set_up_game, encoding="utf-8")
    (theirs,) = tsshogi.read([str(alone)]).values()
    assert tsshogi.position(theirs) == SET_UP.split()[:3] and theirs["moves"] == ["G*5b"]


@pytest.mark.parametrize("name", ["x.foo", "x"])
def test_export_to_a_file_of_no_known_format_is_one_line(archive, tmp_path, name):
    error = one_line_error(cli(archive, "games", "export", "1", "-o", str(tmp_path / name)))
    assert "cannot tell the format" in error
    assert not os.path.exists(tmp_path / name)


def test_export_into_a_missing_folder_is_one_line(archive, tmp_path):
    error = one_line_error(cli(archive, "games", "export", "1", "-o", str(tmp_path / "missing" / "x.kif")))
    assert "no folder" in error
    assert not os.path.exists(tmp_path / "missing")


def test_export_onto_a_folder_is_one_line(archive, tmp_path):
    error = one_line_error(cli(archive, "games", "export", "1", "--format", "pgn", "-o", str(tmp_path)))
    assert "is a folder" in error


def test_a_huge_csa_time_is_refused_on_its_line():
    text = "V2.2\nPI\n+\n+7776FU\nT" + "9" * 25 + "\n"
    with pytest.raises(RecordError, match=r"^line 5: move time T9{11}\.\.\. is out of range"):
        exports.import_games(text, "csa")


def test_a_huge_csa_time_through_import_is_one_line(tmp_path):
    path = tmp_path / "huge.csa"
    path.write_text("V2.2\nPI\n+\n+7776FU\nT" + "9" * 25 + "\n%TORYO\n")
    error = one_line_error(cli(str(tmp_path / "games.sqlite3"), "games", "import", str(path)))
    assert "line 5" in error


def test_games_list_pages_and_finds(archive):
    first = cli(archive, "games", "list", "--per-page", "2")
    assert first.returncode == 0 and "games 1-2 of 3, next: --page 2" in first.stdout
    second = cli(archive, "games", "list", "--per-page", "2", "--page", "2")
    assert "games 3-3 of 3" in second.stdout and "next" not in second.stdout
    cy = cli(archive, "games", "list", "--player", "cy")
    assert "games 1-1 of 1" in cy.stdout and "Cy" in cy.stdout and "Ann" not in cy.stdout
    opening = cli(archive, "games", "list", "--opening", "7g7f")
    assert "games 1-2 of 2" in opening.stdout
    assert "no games found" in cli(archive, "games", "list", "--result", "draw").stdout
    one_line_error(cli(archive, "games", "list", "--page", "0"))
