"""`sim`, `demo` and `play` with the Wa Shogi board, as a person runs them: the installed
`yariboard` command, a real SQLite archive, and for `play` the real CrazyWa engine."""
import os
import re
import subprocess
import sys
import time

import pytest

from yariboard.records.archive import Archive
from yariboard.records.game import replay
from yariboard.engines.xboard import find_crazywa

pytestmark = [pytest.mark.engine]

YARIBOARD = os.path.join(os.path.dirname(sys.executable), "yariboard")
# Skipped (and reported so) on a machine without the engine; never in CI, which installs it.
needs_crazywa = pytest.mark.skipif(not find_crazywa() and not os.environ.get("CI"),
                                   reason="crazywa is not installed (apt-get install crazywa)")


def yariboard(tmp_path, *words, stdin=None, timeout=300):
    return subprocess.run([YARIBOARD, "--db", str(tmp_path / "games.db")] + list(words),
                          cwd=str(tmp_path), input=stdin, capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ, COLUMNS="100"))


def archived(tmp_path):
    with Archive(str(tmp_path / "games.db")) as archive:
        return [archive.game(game_id) for game_id in archive.ids()]


def test_sim_script_on_the_wa_board_records_the_moves(tmp_path):
    script = tmp_path / "wa.sim"
    script.write_text("move 11k11j\nmove 1a1b\nmove 10j11k\nlift 2b\nwait 100\nshow\n")
    run = yariboard(tmp_path, "sim", "--board", "wa-11x11", "--script", str(script))
    assert run.returncode == 0, run.stderr
    [game] = archived(tmp_path)
    assert game.variant == "wa" and game.usi_moves() == ["11k11j", "1a1b", "10j11k"]
    assert "legal destination" in run.stdout and "Cloud Eagle" in run.stdout
    assert re.search(r"\b11\s+10\s+9\s+8\b", run.stdout)


def test_an_unknown_board_is_one_line_naming_the_known_ones(tmp_path):
    for command in (["sim"], ["demo"], ["play", "--sim"]):
        run = yariboard(tmp_path, *command, "--board", "wa-12x12", stdin="")
        assert run.returncode == 2
        last = run.stderr.strip().splitlines()[-1]
        assert "'wa-12x12'" in last and "wa-11x11" in last
        assert "shogi-9x9" in last and "yari-9x7" in last
        assert "Traceback" not in run.stderr


def test_demo_on_the_wa_board_saves_a_legal_wa_game(tmp_path):
    run = yariboard(tmp_path, "demo", "--board", "wa-11x11", "--max-plies", "24")
    assert run.returncode == 0, run.stderr
    [game] = archived(tmp_path)
    assert game.variant == "wa"
    replay(game)                       # every stored move is legal under Wa's rules
    # the engines search for a time, so the game is the machine's: it runs to the move
    # limit, or ends sooner only with a winner (a weak level can be mated in a dozen plies)
    if game.reason == "adjudication":
        assert len(game.moves) == 24
    else:
        assert game.winner in ("black", "white") and 0 < len(game.moves) < 24


@needs_crazywa
def test_play_against_crazywa_on_the_simulated_wa_board(tmp_path):
    proc = subprocess.Popen([YARIBOARD, "--db", str(tmp_path / "games.db"), "play", "--sim",
                             "--board", "wa-11x11", "--engine", "crazywa",
                             "--engine-side", "white", "--you", "Ann"],
                            cwd=str(tmp_path), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, COLUMNS="100"))
    try:
        time.sleep(2)
        proc.stdin.write("move 11k11j\n")
        proc.stdin.flush()
        time.sleep(5)                  # CrazyWa answers; its move is lit as an order
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "Ann (Black) vs crazywa (White)" in out
    assert "ordered move (PC/engine)" in out and "carry out the engine's move" in out
    assert "(depth " in out
    [game] = archived(tmp_path)
    assert game.variant == "wa" and game.white == "crazywa" and game.usi_moves()[:1] == ["11k11j"]


def test_wa_without_drops_is_refused_before_any_engine_starts(tmp_path):
    """No board file plays Wa without drops (CrazyWa couldn't either): one line, no engine."""
    run = yariboard(tmp_path, "play", "--sim", "--board", "wa-11x11", "--variant", "wa-nodrops",
                    "--engine", "crazywa", stdin="")
    assert run.returncode == 1
    assert run.stderr.startswith("yariboard: error: no board plays wa-nodrops; ")
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1
