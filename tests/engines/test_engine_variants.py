"""An engine asked for a variant it cannot play says so in one line, naming the engines that
do play it, before anything is started: `play --engine fsf` and `games analyse --engine fsf`
on Wa Shogi, run as a person runs them."""
import os
import subprocess
import sys

import pytest

from yariboard.engines import fsf
from yariboard.engines.usi import UsiEngine, UsiError
from yariboard.records.archive import Archive
from yariboard.records.game import GameRecord, MoveRecord

pytestmark = [pytest.mark.external]

AT = "2026-01-02T10:00:00Z"
YARIBOARD = os.path.join(os.path.dirname(sys.executable), "yariboard")


def yariboard(tmp_path, *words):
    return subprocess.run([YARIBOARD, "--db", str(tmp_path / "games.db")] + list(words),
                          cwd=str(tmp_path), input="", capture_output=True, text=True,
                          timeout=300)


def _one_line_naming_the_wa_engines(run):
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    [line] = run.stderr.strip().splitlines()
    assert "'wa'" in line and "built-in engine" in line and "crazywa" in line
    return line


@pytest.mark.parametrize("variant", ["wa", "wa-nodrops"])
def test_a_usi_engine_refuses_wa_before_it_starts(variant):
    with pytest.raises(UsiError, match="built-in engine"):
        UsiEngine("/nonexistent/engine", variant=variant)   # never started: no 'cannot start'
    with pytest.raises(UsiError, match="Fairy-Stockfish cannot play"):
        fsf.open_engine(variant, node="/nonexistent/node")


def test_play_with_fairy_stockfish_on_wa_is_one_line(tmp_path):
    line = _one_line_naming_the_wa_engines(yariboard(tmp_path, "play", "--variant", "wa",
                                                     "--engine", "fsf"))
    assert "Fairy-Stockfish" in line


def test_analysing_a_wa_game_with_fairy_stockfish_is_one_line(tmp_path):
    with Archive(str(tmp_path / "games.db")) as archive:
        game_id = archive.new_game(GameRecord(variant="wa", black="a", white="b", date=AT,
                                              moves=[MoveRecord("11k11j", AT)]))
    run = yariboard(tmp_path, "games", "analyse", str(game_id), "--engine", "fsf")
    _one_line_naming_the_wa_engines(run)
    with Archive(str(tmp_path / "games.db")) as archive:
        assert archive.game(game_id).usi_moves() == ["11k11j"]   # nothing lost
