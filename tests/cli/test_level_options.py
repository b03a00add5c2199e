"""The strength level in `sim` and `demo` (as in `play`): the same measured scale, its
levels named with their ratings in --help, the chosen level's engine on the board and its
name in the archive (which the live page shows)."""
import re

import pytest

from yariboard.cli.main import main
from yariboard.engines import levels
from yariboard.records.archive import Archive

from tests.fsf_support import require_fsf

pytestmark = [pytest.mark.micropython]


def archived(db):
    with Archive(db) as archive:
        return [archive.game(game_id) for game_id in archive.ids()]


VARIANT_TITLES = {"yari": "Yari Shogi", "shogi": "shogi", "wa": "Wa Shogi",
                  "wa-nodrops": "Wa Shogi without drops"}


def help_of(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    # (argparse wraps lines after a hyphen: "Fairy-" ends one line, "Stockfish" starts the next)
    return re.sub(r"(\w)- (\w)", r"\1-\2", " ".join(capsys.readouterr().out.split()))


@pytest.mark.parametrize("command", ["sim", "demo", "play"])
def test_help_names_every_level_of_every_scale_with_its_rating(command, capsys):
    out = help_of(command, capsys)
    for variant in levels.SCALES:
        assert "levels in %s: 1: " % VARIANT_TITLES[variant] in out
        for step in levels.scale(variant):
            assert "%d: %s, %s" % (step.number, step.describe(),
                                   levels.rating_text(variant, step.number)) in out


def test_sim_with_a_level_names_that_engine_in_the_archive(tmp_path):
    """The archive (and so the live page) names the level; White by default."""
    db = str(tmp_path / "games.db")
    script = tmp_path / "moves.sim"
    script.write_text("move 7g7f\n")
    assert main(["--db", db, "sim", "--level", "2", "--script", str(script)]) == 0
    [game] = archived(db)
    assert (game.black, game.white) == ("player", "level 2 (built-in engine)")
    assert game.usi_moves()[:1] == ["7g7f"]


def test_sim_engine_side_black_orders_its_first_move_on_the_board(tmp_path, capsys):
    """The script waits for the engine when it is to move: its move is lit as an order."""
    db = str(tmp_path / "games.db")
    script = tmp_path / "nothing.sim"
    script.write_text("# the engine moves first\n")
    assert main(["--db", db, "sim", "--level", "1", "--engine-side", "black",
                 "--script", str(script)]) == 0
    assert "Black to move; carry out the engine's move" in capsys.readouterr().out


def test_sim_refuses_a_level_off_the_boards_scale_in_one_line(tmp_path, capsys):
    db = tmp_path / "games.db"
    assert main(["--db", str(db), "sim", "--board", "wa-11x11", "--level", "7",
                 "--script", "/dev/null"]) == 1
    assert capsys.readouterr().err == "yariboard: error: level must be 1 to 4 for wa, not 7\n"
    assert not db.exists()


def test_demo_refuses_a_level_off_the_scale_in_one_line(tmp_path, capsys):
    db = tmp_path / "games.db"
    assert main(["--db", str(db), "demo", "--white-level", "10"]) == 1
    assert capsys.readouterr().err == "yariboard: error: level must be 1 to 9 for yari, not 10\n"
    assert not db.exists()


def test_demo_plays_the_scales_levels_and_names_them(tmp_path, capsys):
    """A Fairy-Stockfish level against the built-in engine's weakest, each at its own budget."""
    require_fsf()
    db = str(tmp_path / "games.db")
    assert main(["--db", db, "demo", "--black-level", "5", "--white-level", "1",
                 "--max-plies", "6"]) == 0
    [game] = archived(db)
    assert (game.black, game.white) == ("level 5 (Fairy-Stockfish)", "level 1 (built-in engine)")
    assert len(game.moves) == 6


@pytest.mark.parametrize("command", ["play", "sim"])
def test_a_variant_no_board_plays_is_refused_in_one_line(tmp_path, capsys, command):
    """No board file plays Wa without drops: the board file fixes its variant."""
    db = tmp_path / "games.db"
    args = ["--db", str(db), command, "--variant", "wa-nodrops"]
    args += ["--sim", "--level", "2"] if command == "play" else ["--script", "/dev/null"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.startswith("yariboard: error: no board plays wa-nodrops; the boards play ")
    assert "wa (wa-11x11)" in err and err.count("\n") == 1


def test_play_names_the_board_that_plays_the_variant_asked_for(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "games.db"), "play", "--sim", "--board", "yari-9x7",
                 "--variant", "shogi"]) == 1
    assert capsys.readouterr().err == ("yariboard: error: this board plays yari, not shogi "
                                       "(choose the board with --board shogi-9x9)\n")
