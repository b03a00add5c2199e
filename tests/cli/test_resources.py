"""Run-time files found through yariboard.resources, and `--board NAME` checked against them."""
import glob
import os

import pytest

from tests.mpy import ROOT
from yariboard import resources
from yariboard.records.archive import Archive
from yariboard.cli.main import main

pytestmark = [pytest.mark.micropython]


def test_the_boards_are_the_board_files_of_the_checkout():
    files = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(ROOT, "hardware", "boards", "*.json")))
    assert resources.board_names() == files
    for name in files:
        assert os.path.samefile(resources.board_file(name), os.path.join(ROOT, "hardware", "boards", name + ".json"))
    assert os.path.samefile(os.path.join(resources.firmware_dir(), "main.py"), os.path.join(ROOT, "firmware", "main.py"))


def test_an_unknown_board_names_the_valid_ones():
    with pytest.raises(resources.UnknownBoard) as refused:
        resources.board_file("foo")
    assert str(refused.value) == "unknown board 'foo'; valid boards: %s" % ", ".join(resources.board_names())


@pytest.mark.parametrize("command", [["sim"], ["play", "--sim"]], ids=" ".join)
def test_board_option_lists_the_boards_in_help_and_refuses_others_in_one_line(command, capsys):
    with pytest.raises(SystemExit):
        main(command[:1] + ["--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--board NAME" in help_text
    assert all(name in help_text for name in resources.board_names())
    with pytest.raises(SystemExit) as leave:
        main(command + ["--board", "foo"])
    assert leave.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].endswith(
        "argument --board: unknown board 'foo'; valid boards: %s" % ", ".join(resources.board_names()))


def test_sim_plays_on_the_standard_shogi_board(tmp_path):
    script = tmp_path / "script.txt"
    script.write_text("move 7g7f\nmove 3c3d\n")
    db = str(tmp_path / "games.sqlite3")
    assert main(["sim", "--board", "shogi-9x9", "--script", str(script), "--db", db]) == 0
    with Archive(db) as archive:
        (game_id,) = archive.ids()
        record = archive.game(game_id)
    assert record.variant == "shogi" and record.usi_moves() == ["7g7f", "3c3d"]
