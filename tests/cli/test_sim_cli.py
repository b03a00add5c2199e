"""`yariboard sim --storage DIR`: the flash folder is made when missing, but only in a folder
that exists, the rule `--db` follows for the archive."""
import pytest

from yariboard.cli.main import main

pytestmark = [pytest.mark.micropython]


@pytest.mark.parametrize("extra", [[], ["--emulator"]], ids=["unix port", "emulator"])
def test_storage_in_a_missing_folder_is_one_line_and_makes_no_folder(tmp_path, capsys, extra):
    missing = tmp_path / "no" / "such" / "flash"
    script = tmp_path / "moves.txt"
    script.write_text("move 7g7f\n")
    arguments = ["--db", str(tmp_path / "games.sqlite3"), "sim", "--storage", str(missing),
                 "--script", str(script)] + extra
    assert main(arguments) == 1
    err = capsys.readouterr().err
    assert err == ("yariboard: error: no folder %s for the board's flash %s: create it first "
                   "or choose another --storage\n" % (missing.parent, missing))
    assert not (tmp_path / "no").exists()


def test_storage_in_a_folder_that_exists_is_made_and_used(tmp_path, capsys):
    flash = tmp_path / "flash"
    script = tmp_path / "moves.txt"
    script.write_text("move 7g7f\n")
    assert main(["--db", str(tmp_path / "games.sqlite3"), "sim", "--storage", str(flash),
                 "--script", str(script)]) == 0
    assert "1. P-7f" in capsys.readouterr().out
    assert flash.is_dir() and any(flash.iterdir())
