"""`yariboard play` on a board reached through its serial port (here the real firmware on
the simulated board's pty): the host controls typed at the keyboard, bad ones answered with
one line each, and a resignation typed at the host recorded for the person's side."""
import pytest
import os
import subprocess
import sys
import threading
import time

from yariboard.records.archive import Archive
from yariboard.sim.board import SimBoard

pytestmark = [pytest.mark.micropython]


def yariboard():
    return os.path.join(os.path.dirname(sys.executable), "yariboard")


def test_controls_typed_during_a_game_on_a_board(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    typed = "\n".join(["draw", "new yari queen", "new chess", "sfen 9/9 b - 1", "takeback", "hint [now]",
                       "replay 42", "dance", "resign"]) + "\n"
    with SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)) as board:
        proc = subprocess.run([yariboard(), "--db", db, "play", "--port", board.port,
                               "--level", "1", "--seconds", "0.2"], input=typed,
                              capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, COLUMNS="80"))
    out = proc.stdout
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in out + proc.stderr
    for expected in ("no draw by agreement",
                     "valid handicaps: bishop, four-pieces, rook, six-pieces, two-pieces",
                     "valid variants: yari, shogi", "bad SFEN", "no move to take back",
                     "no game 42 in the archive", "unknown command 'dance'",
                     "unknown command 'hint [now]'",
                     "White wins (resignation)"):
        assert expected in out, expected
    with Archive(db) as archive:
        record = archive.game(max(archive.ids()))
    assert (record.winner, record.reason) == ("white", "resignation")
    assert record.black == "player" and record.white == "level 1 (built-in engine)"


def start_play(db, board, *options):
    """`yariboard play` against the level-1 engine on `board`, its typed input a pipe; the
    process and the list its output lines are gathered into as they come."""
    proc = subprocess.Popen([yariboard(), "--db", db, "play", "--port", board.port, "--level", "1",
                             *options], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=dict(os.environ, COLUMNS="80"))
    out = []
    threading.Thread(target=lambda: out.extend(proc.stdout), daemon=True).start()
    return proc, out


def test_a_board_without_a_picture_still_says_which_choice_it_offers(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    with SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)) as board:
        proc, out = start_play(db, board, "--engine-side", "white", "--seconds", "0.2")

        def last_status(containing, seconds=20):
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                lines = [line for line in list(out) if "status:" in line]
                if lines and containing in lines[-1]:
                    return lines[-1]
                time.sleep(0.1)
            raise AssertionError("no status with %r; output:\n%s" % (containing, "".join(out)))

        try:
            last_status("Black to move")
            proc.stdin.write("sfen 3k3/7/7/P6/7/7/7/7/3K3 b - 1\n")
            proc.stdin.flush()
            last_status("put the pieces right on")
            board.send_commands(["set 4a 4i 7d", "advance 200"])
            board.sync()
            last_status("Black to move")
            board.send_commands(["lift 7d", "advance 60", "place 7c", "advance 400"])
            board.sync()
            assert "choice offered: P-7c+" in last_status("choice offered")
            board.send_commands(["press B", "advance 60", "release B", "advance 60"])
            board.sync()
            assert "choice offered: P-7c=" in last_status("P-7c=")
            board.send_commands(["press A", "advance 60", "release A", "advance 60"])
            board.sync()
            assert "choice" not in last_status("White to move")
        finally:
            proc.stdin.close()
            proc.wait(timeout=30)
    assert "Traceback" not in "".join(out)
    with Archive(db) as archive:
        assert archive.game(max(archive.ids())).usi_moves() == ["7d7c"]


def test_a_long_press_of_a_before_the_engines_first_move_is_the_persons_resignation(tmp_path):
    """The engine plays Black and is still thinking about its first move: the board was told
    at the start which side the engine plays, so the person (White) resigns, not the engine."""
    db = str(tmp_path / "games.sqlite3")
    with SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)) as board:
        proc, out = start_play(db, board, "--engine-side", "black", "--seconds", "20")
        try:
            deadline = time.monotonic() + 30
            while not any("thinking" in line for line in list(out)):
                assert time.monotonic() < deadline, "".join(out)
                time.sleep(0.1)
            board.send_commands(["press A", "advance 1000", "release A", "advance 60"])
            board.sync()
            deadline = time.monotonic() + 30
            while not any("wins" in line for line in list(out)):
                assert time.monotonic() < deadline, "".join(out)
                time.sleep(0.1)
        finally:
            proc.stdin.close()
            proc.wait(timeout=60)
    text = "".join(out)
    assert "Traceback" not in text
    assert "Black wins (resignation)" in text
    with Archive(db) as archive:
        record = archive.game(max(archive.ids()))
    assert (record.winner, record.reason, record.usi_moves()) == ("black", "resignation", [])
