"""The SQLite archive: idempotent move storage, refusals that change nothing, crash safety."""
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from tests.records.old_schemas import GAMES_AND_MOVES_V1
from tests.records.test_records import random_record
from yariboard.records.archive import (DB_ENV, SCHEMA_VERSION, Archive, ArchiveError, ArchiveFull,
                                      Query, default_path)
from yariboard.records.game import GameRecord, RecordError

pytestmark = [pytest.mark.external]


def empty_game(**headers):
    fields = dict(variant="yari", start_sfen="rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1",
                  black="Ann", white="Ben", date="2025-01-02T10:00:00Z")
    fields.update(headers)
    return GameRecord(**fields)


def test_a_game_survives_closing_and_reopening_the_file(tmp_path):
    path = str(tmp_path / "games.sqlite3")
    record = random_record(5)
    with Archive(path) as archive:
        game_id = archive.new_game(record)
    with Archive(path) as archive:
        assert archive.game(game_id).same_game(record)
        assert archive.ids() == [game_id]


def test_storing_a_move_again_is_a_no_op_and_a_different_one_is_refused(tmp_path):
    with Archive(str(tmp_path / "a.db")) as archive:
        game_id = archive.new_game(empty_game())
        assert archive.add_move(game_id, 1, "7g7f", "2025-01-02T10:00:05Z") is True
        assert archive.add_move(game_id, 1, "7g7f", "2025-01-02T10:09:00Z") is False
        with pytest.raises(ArchiveError, match="already has 7g7f at move 1"):
            archive.add_move(game_id, 1, "6g6f")
        with pytest.raises(ArchiveError, match="has 1 moves; cannot store move 3"):
            archive.add_move(game_id, 3, "3c3d")
        moves = archive.game(game_id).moves
        assert [(m.usi, m.at) for m in moves] == [("7g7f", "2025-01-02T10:00:05Z")]


def test_timestamps_never_go_backwards(tmp_path):
    with Archive(str(tmp_path / "a.db")) as archive:
        game_id = archive.new_game(empty_game())
        archive.add_move(game_id, 1, "7g7f", "2025-01-02T10:00:05Z")
        archive.add_move(game_id, 2, "3c3d", "2025-01-02T09:00:00Z")
        assert [m.at for m in archive.game(game_id).moves] == ["2025-01-02T10:00:05Z"] * 2


def test_taking_moves_back_and_finishing(tmp_path):
    with Archive(str(tmp_path / "a.db")) as archive:
        game_id = archive.new_game(empty_game(board_game="0badf00d"))
        for ply, usi in enumerate(["7g7f", "3c3d", "7f7e"], 1):
            archive.add_move(game_id, ply, usi)
        archive.truncate(game_id, 2)
        assert archive.game(game_id).usi_moves() == ["7g7f", "3c3d"]
        archive.finish(game_id, "white", "resignation")
        game = archive.game(game_id)
        assert (game.winner, game.reason) == ("white", "resignation")
        assert archive.find_board_game("0badf00d") == game_id
        assert archive.find_board_game("ffffffff") is None
        with pytest.raises(RecordError, match="unknown ending"):
            archive.finish(game_id, "white", "boredom")
        assert archive.game(game_id).reason == "resignation"


def test_bad_headers_are_refused_before_anything_is_written(tmp_path):
    with Archive(str(tmp_path / "a.db")) as archive:
        with pytest.raises(RecordError, match="unknown variant"):
            archive.new_game(empty_game(variant="chess"))
        with pytest.raises(RecordError, match="unknown mode"):
            archive.new_game(empty_game(mode="blitz"))
        assert archive.ids() == []


def test_a_listing_counts_moves_newest_first(tmp_path):
    with Archive(str(tmp_path / "a.db")) as archive:
        old = archive.new_game(random_record(1))
        new = archive.new_game(random_record(2))
        listed, total = archive.find()
        assert total == 2
        assert [record.id for record, _ in listed] == [new, old]
        assert [count for _, count in listed] == [len(random_record(2).moves), len(random_record(1).moves)]


def test_the_database_path_comes_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(DB_ENV, str(tmp_path / "elsewhere.db"))
    assert default_path() == str(tmp_path / "elsewhere.db")
    monkeypatch.delenv(DB_ENV)
    assert default_path().endswith(os.path.join("yariboard", "games.sqlite3"))


WRITER = """
import sys
from yariboard.records.archive import Archive
from yariboard.records.game import GameRecord
path, moves = sys.argv[1], sys.argv[2].split()
archive = Archive(path)
game_id = archive.find_board_game("kill-test")
if game_id is None:
    game_id = archive.new_game(GameRecord(variant="yari", date="2025-01-02T10:00:00Z",
        start_sfen="rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1", board_game="kill-test"))
print("ready", flush=True)
for ply, usi in enumerate(moves, 1):
    if archive.add_move(game_id, ply, usi):
        print("stored", ply, flush=True)
print("done", flush=True)
"""


def test_killing_the_writer_at_random_moments_loses_nothing_committed(tmp_path):
    """SIGKILL a real writer mid-stream again and again; every acknowledged move stays."""
    path = str(tmp_path / "kill.db")
    # The archive does not judge moves: a long stream of plausible ones keeps it writing.
    moves = ["%d%s%d%s" % (1 + n % 7, "abcdefghi"[n % 9], 1 + n // 7 % 7, "abcdefghi"[n // 9 % 9])
             for n in range(400)]
    rng = random.Random(3)
    acknowledged = 0
    kills = 0
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    for _ in range(12):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, path, " ".join(moves)],
                                stdout=subprocess.PIPE, text=True, env=env)
        assert proc.stdout.readline() == "ready\n"
        # Let it store a random number of further moves, then kill it wherever it is.
        for _ in range(rng.randint(0, 25)):
            proc.stdout.readline()
        time.sleep(rng.uniform(0.0, 0.005))
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
        complete_lines = out.split("\n")[:-1]      # a kill can cut the last line short
        stored = [int(line.split()[1]) for line in complete_lines if line.startswith("stored")]
        if "done" not in out:
            kills += 1
        if stored:
            acknowledged = max(acknowledged, stored[-1])
        with Archive(path) as archive:
            game = archive.game(archive.find_board_game("kill-test"))
            assert len(game.moves) >= acknowledged
            assert game.usi_moves() == moves[:len(game.moves)]
        check = sqlite3.connect(path)
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        check.close()
    assert kills == 12
    # A final uninterrupted run completes the game with every move exactly once.
    subprocess.run([sys.executable, "-c", WRITER, path, " ".join(moves)], check=True,
                   capture_output=True)
    with Archive(path) as archive:
        assert archive.game(archive.find_board_game("kill-test")).usi_moves() == moves


def full_disk_archive(path, games):
    """An archive holding `games` that cannot grow by one page: SQLite's own limit on pages
    gives the error a full disk gives (SQLITE_FULL), on any machine."""
    archive = Archive(path)
    archive.store_all(games)
    pages = archive.db.execute("PRAGMA page_count").fetchone()[0]
    archive.db.execute("PRAGMA max_page_count=%d" % pages)
    return archive


def test_a_full_disk_says_so_and_loses_nothing(tmp_path):
    path = str(tmp_path / "games.sqlite3")
    kept = [random_record(seed, "shogi") for seed in range(3)]
    archive = full_disk_archive(path, kept)
    many = [random_record(100 + seed, "shogi", max_plies=150) for seed in range(200)]
    with pytest.raises(ArchiveFull, match="disk is full.*nothing of this change was written"):
        archive.import_all(many)
    archive.close()
    with Archive(path, readonly=True) as again:
        assert [again.game(i).same_game(game) for i, game in zip(again.ids(), kept)] == [True] * 3
        assert len(again.ids()) == 3
        assert again.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_an_archive_of_schema_2_gains_zone_and_notes_and_keeps_its_games(tmp_path):
    path = str(tmp_path / "old.sqlite3")
    db = sqlite3.connect(path)
    db.executescript(GAMES_AND_MOVES_V1 + """
        INSERT INTO games (variant, start_sfen, black, date) VALUES
            ('shogi', 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1', 'Old',
             '2024-01-01T00:00:00Z');
        INSERT INTO moves VALUES (1, 1, '7g7f', '2024-01-01T00:00:03Z');
        PRAGMA user_version=2;
    """)
    db.close()
    with Archive(path, readonly=True) as look:     # a read-only look does not migrate
        assert look.game(1).usi_moves() == ["7g7f"] and look.game(1).notes() == ("", [], {})
    with Archive(path) as archive:
        game = archive.game(1)
        assert (game.black, game.usi_moves(), game.zone, game.tags) == ("Old", ["7g7f"], "", [])
        game.id, game.comments, game.tags = 0, {1: "kept"}, [("棋戦", "club")]
        new_id = archive.new_game(game)
        assert archive.game(new_id).comments == {1: "kept"}
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    indexes = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert {"games_by_date", "games_by_black", "games_by_white"} <= indexes


def test_find_by_player_date_variant_result_opening_and_start_a_page_at_a_time(tmp_path):
    games = [random_record(seed, "shogi" if seed % 3 else "yari") for seed in range(60)]
    with Archive(str(tmp_path / "a.db")) as archive:
        ids = archive.store_all(games)
        stored = dict(zip(ids, games))

        def expected(keep):
            chosen = sorted(((g.date, i) for i, g in stored.items() if keep(g)), reverse=True)
            return [i for _, i in chosen]

        def found(query, per_page=7):
            pages, page = [], 0
            while True:
                listed, total = archive.find(query, per_page, page * per_page)
                pages += [record.id for record, _ in listed]
                page += 1
                if not listed:
                    assert len(pages) == total
                    return pages

        some = games[7]
        assert found(Query(player="ADA")) == expected(lambda g: "ada" in (g.black + " " + g.white).lower())
        assert found(Query(player="ADA"))      # the random names include Ada
        month = some.date[:7]
        assert found(Query(since=month, until=month)) == expected(lambda g: g.date.startswith(month))
        assert found(Query(variant="yari", result="unfinished")) == expected(
            lambda g: g.variant == "yari" and not g.winner)
        opening = " ".join(some.usi_moves()[:2])
        assert found(Query(opening=opening)) == expected(lambda g: g.usi_moves()[:2] == some.usi_moves()[:2])
        assert found(Query(start=some.start_sfen, result="black")) == expected(
            lambda g: g.start_sfen == some.start_sfen and g.winner == "black")
        # the index holds the first moves: a longer opening is refused, not silently cut
        with pytest.raises(ArchiveError, match="at most 16 moves"):
            archive.find(Query(opening=" ".join(["7g7f"] * 17)))


def as_a_reader(argv, tmp_root):
    """Run the command line as a user who may not write to the archive. Run as root (who
    may write anywhere), the tests switch to `nobody` with setpriv, with the system's Python
    of the same version and this checkout on its path."""
    host = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if os.geteuid() != 0:
        return subprocess.run([sys.executable, "-m", "yariboard.cli.main", *argv],
                              capture_output=True, text=True, timeout=120)
    system = "/usr/bin/python3"
    version = subprocess.run([system, "-c", "import sys; print(sys.version_info[:2])"],
                             capture_output=True, text=True).stdout.strip()
    assert version == str(tuple(sys.version_info[:2])), "no system Python %s for nobody" % version
    site = [p for p in sys.path if p.endswith("site-packages") and p.startswith(sys.prefix)]
    path = ":".join([os.path.join(host, "host"), os.path.join(host, "firmware")] + site)
    return subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "env",
                           "PYTHONPATH=" + path, "HOME=" + tmp_root, system, "-m",
                           "yariboard.cli.main", *argv], capture_output=True, text=True, timeout=120)


def test_a_read_only_archive_in_a_read_only_folder_lists_shows_and_exports():
    import shutil
    import tempfile
    folder = tempfile.mkdtemp(prefix="yariboard-readonly-")
    try:
        os.chmod(folder, 0o755)
        path = os.path.join(folder, "games.sqlite3")
        game = random_record(3, "shogi")
        with Archive(path) as archive:
            game_id = archive.new_game(game)
        os.chmod(path, 0o444)
        os.chmod(folder, 0o555)
        listed = as_a_reader(["--db", path, "games", "list"], folder)
        assert listed.returncode == 0, listed.stderr
        assert "games 1-1 of 1" in listed.stdout
        shown = as_a_reader(["--db", path, "games", "export", str(game_id), "--format", "usi"], folder)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.split()[-len(game.moves):] == game.usi_moves()
        # a command that writes says so in one line and changes nothing
        deleted = as_a_reader(["--db", path, "games", "delete", str(game_id)], folder)
        assert deleted.returncode == 1 and "Traceback" not in deleted.stderr
        assert len(deleted.stderr.strip().splitlines()) == 1 and "is read-only" in deleted.stderr
        with Archive(path, readonly=True) as archive:
            assert archive.game(game_id).same_game(archive.game(game_id)) and archive.ids() == [game_id]
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(folder)
