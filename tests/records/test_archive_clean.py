"""An archive that stays clean: no empty games, deletion, imports that never duplicate, no
archive (or folder) made where the user did not mean one, no temporary folders left."""
import os
import subprocess
import sys
import tempfile

import pytest

from shogicore import Position
from shogicore.move import to_usi
from tests.records.test_records import random_record
from yariboard.records import formats as exports
from yariboard.records.archive import Archive
from yariboard.cli.main import main
from yariboard.board.link import Link
from yariboard.play.recorder import Recorder
from yariboard.sim.rig import SimRig

pytestmark = [pytest.mark.micropython]


def settle(recorder, rounds=5):
    for _ in range(rounds):
        recorder.step(0.02)


@pytest.fixture
def desk(tmp_path):
    """A simulated board, the host following it, and the archive file."""
    rig = SimRig(str(tmp_path / "flash"), log_dir=str(tmp_path)).start()
    archive = Archive(str(tmp_path / "games.sqlite3"))
    link = Link(finder=rig.ports, reply_timeout=0.5)
    recorder = Recorder(link, archive)
    settle(recorder)
    yield rig, archive, link, recorder
    link.close()
    archive.close()
    rig.close()


def test_a_game_enters_the_archive_with_its_first_move_not_when_the_host_connects(desk):
    rig, archive, link, recorder = desk
    assert link.connected() and recorder.position is not None
    assert archive.ids() == []
    position = Position()
    move = sorted(position.legal_moves())[0]
    rig.perform(position, move)
    settle(recorder)
    (game_id,) = archive.ids()
    assert archive.game(game_id).usi_moves() == [to_usi(position.variant, move)]


def test_a_game_set_up_from_a_handicap_is_stored_at_once(desk):
    rig, archive, link, recorder = desk
    link.request("new", "yari", "rook", "casual")
    settle(recorder)
    (game_id,) = archive.ids()
    record = archive.game(game_id)
    assert record.handicap == "rook" and record.moves == []


def test_a_new_game_at_the_start_position_replacing_a_played_one_adds_no_empty_game(desk):
    rig, archive, link, recorder = desk
    position = Position()
    rig.perform(position, sorted(position.legal_moves())[0])
    settle(recorder)
    link.request("new", "yari", "-", "casual")
    settle(recorder)
    assert len(archive.ids()) == 1


def test_an_aborted_play_session_stores_nothing_and_leaves_no_temporary_folder(tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    db = tmp_path / "games.sqlite3"
    env = dict(os.environ, TMPDIR=str(scratch))
    proc = subprocess.run([os.path.join(os.path.dirname(sys.executable), "yariboard"), "play", "--sim",
                           "--db", str(db)], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    with Archive(str(db)) as archive:
        assert archive.ids() == []
    assert os.listdir(scratch) == []


def test_sim_and_the_link_benchmark_leave_no_temporary_folder(tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    script = tmp_path / "script.txt"
    script.write_text("move 1g1f\nwait 100\n")
    assert main(["sim", "--script", str(script), "--db", str(tmp_path / "g.sqlite3")]) == 0
    from yariboard.benchmarks import link as bench_link
    assert len(bench_link.measure("virtual", 2)) == 2
    assert os.listdir(scratch) == []


def stored(db, records):
    with Archive(db) as archive:
        return archive.store_all(records)


def test_games_delete_removes_the_named_games_and_refuses_unknown_ones_whole(tmp_path, capsys):
    db = str(tmp_path / "games.sqlite3")
    ids = stored(db, [random_record(seed) for seed in range(4)])
    assert main(["games", "delete", str(ids[1]), str(ids[3]), "--db", db]) == 0
    with Archive(db) as archive:
        assert archive.ids() == [ids[0], ids[2]]
        assert archive.game(ids[0]).same_game(random_record(0))
    capsys.readouterr()
    assert main(["games", "delete", str(ids[0]), "999", "--db", db]) == 1
    err = capsys.readouterr().err
    assert "999" in err and len(err.strip().splitlines()) == 1
    with Archive(db) as archive:
        assert archive.ids() == [ids[0], ids[2]]


@pytest.mark.parametrize("fmt", ["pgn", "json"])
def test_importing_the_same_file_twice_adds_each_game_once(tmp_path, capsys, fmt):
    db = str(tmp_path / "games.sqlite3")
    records = [random_record(seed) for seed in range(5)]
    path = tmp_path / ("games." + fmt)
    path.write_text(exports.export_games(records, fmt), encoding="utf-8")
    assert main(["games", "import", str(path), "--db", db]) == 0
    assert main(["games", "import", str(path), "--db", db]) == 0
    assert "skipped" in capsys.readouterr().out
    with Archive(db) as archive:
        games = [archive.game(game_id) for game_id in archive.ids()]
    assert len(games) == len(records)
    assert all(any(g.same_game(r) for g in games) for r in records)


def test_a_game_differing_only_in_one_move_or_header_is_a_different_game(tmp_path):
    db = str(tmp_path / "games.sqlite3")
    record = random_record(3)
    other_header = random_record(3)
    other_header.black += " jr"
    shorter = random_record(3)
    shorter.moves = shorter.moves[:-1]
    shorter.winner = shorter.reason = ""
    with Archive(db) as archive:
        added, present = archive.import_all([record, other_header, shorter, random_record(3)])
    assert len(added) == 3 and present == [added[0]]


@pytest.mark.parametrize("words", [["games", "list"], ["games", "import", "x.pgn"],
                                   ["games", "delete", "1"], ["demo", "--max-plies", "1"]])
def test_db_in_a_missing_folder_is_an_error_and_makes_no_folder(tmp_path, capsys, words):
    missing = tmp_path / "no" / "such"
    (tmp_path / "x.pgn").write_text(exports.export_games([random_record(1)], "pgn"), encoding="utf-8")
    os.chdir(tmp_path)
    assert main(words + ["--db", str(missing / "games.sqlite3")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("yariboard: error: ") and str(missing) in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "no").exists()


def test_demo_saves_where_it_is_pointed_and_says_so(tmp_path, capsys):
    db = str(tmp_path / "elsewhere.sqlite3")
    assert main(["demo", "--max-plies", "2", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "saved in %s" % db in out
    with Archive(db) as archive:
        (game_id,) = archive.ids()
        assert len(archive.game(game_id).moves) == 2


def test_yariboard_db_in_a_missing_folder_is_an_error_too(tmp_path, capsys, monkeypatch):
    missing = tmp_path / "no" / "games.sqlite3"
    monkeypatch.setenv("YARIBOARD_DB", str(missing))
    (tmp_path / "x.pgn").write_text(exports.export_games([random_record(1)], "pgn"), encoding="utf-8")
    assert main(["games", "import", str(tmp_path / "x.pgn")]) == 1
    assert str(missing.parent) in capsys.readouterr().err
    assert not (tmp_path / "no").exists()
