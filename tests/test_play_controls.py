"""`yariboard play` on a board reached through its serial port (here the real firmware on
the simulated board's pty): the host controls typed at the keyboard, bad ones answered with
one line each, and a resignation typed at the host recorded for the person's side."""
import os
import subprocess
import sys

from yariboard.archive import Archive
from yariboard.simboard import SimBoard


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
    assert record.black == "player" and record.white.startswith("built-in engine")
