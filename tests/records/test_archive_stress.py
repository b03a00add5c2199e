"""The archive under stress: damaged files, another program's write lock, moves recorded
while the archive is locked. Damage is made by seeded generators over a real archive file."""
import random
import sqlite3

import pytest

from shogicore import Position
from shogicore.move import make_move, move_from, move_to, to_usi
from tests.records.test_records import random_record
from yariboard.records import archive as archive_module
from yariboard.records.archive import Archive, ArchiveBusy
from yariboard.cli.main import main
from yariboard.board.link import Link
from yariboard.play.recorder import Recorder
from yariboard.sim.rig import SimRig

pytestmark = [pytest.mark.micropython]

READ_COMMANDS = [["games", "list"], ["games", "show", "1"], ["games", "export"]]


def make_archive(path, games=6):
    with Archive(str(path)) as archive:
        archive.store_all([random_record(seed) for seed in range(games)])
    return path.read_bytes()


def truncated(rng, data):
    return data[:rng.randrange(1, len(data))]


def random_bytes(rng, data):
    return bytes(rng.randrange(256) for _ in range(rng.choice([1, 100, 4096, len(data)])))


def zero_filled(rng, data):
    return bytes(rng.choice([len(data), 4096, 1]))


def smash(rng, data, first, last):
    """Random bytes over a span starting in data[first:last], changing at least one."""
    start = rng.randrange(first, last)
    junk = bytearray(rng.randrange(256) for _ in range(rng.randrange(1, 100 - start + 1)))
    junk[0] = data[start] ^ rng.randrange(1, 256)
    return data[:start] + bytes(junk) + data[start + len(junk):]


def header_smashed(rng, data):
    """The header's magic string damaged (and maybe more of the header)."""
    return smash(rng, data, 0, 16)


def header_fields_changed(rng, data):
    """Damage among the header's fields (page size, counters, reserved bytes)."""
    return smash(rng, data, 16, 100)


def pages_scrambled(rng, data):
    out = bytearray(data)
    for _ in range(rng.randrange(1, 20)):
        at = rng.randrange(100, len(data))
        out[at] = rng.randrange(256)
    return bytes(out)


# (generator, must it be refused?) Truncation, changed header fields and scrambled pages may
# leave a readable archive (free pages, unused bytes): then the command must simply work.
DAMAGE = [(truncated, False), (random_bytes, True), (zero_filled, True),
          (header_smashed, True), (header_fields_changed, False), (pages_scrambled, False)]


@pytest.mark.parametrize("damage,refused", DAMAGE, ids=[d.__name__ for d, _ in DAMAGE])
def test_a_damaged_archive_gives_one_line_naming_the_file_and_is_left_as_it_was(tmp_path, capsys,
                                                                                damage, refused):
    good = make_archive(tmp_path / "good.sqlite3")
    rng = random.Random(damage.__name__)
    for case in range(8):
        path = tmp_path / ("damaged-%d.sqlite3" % case)
        data = damage(rng, good)
        path.write_bytes(data)
        for words in READ_COMMANDS:
            status = main(words + ["--db", str(path)])
            out, err = capsys.readouterr()
            if status:
                assert err.startswith("yariboard: error: ") and str(path) in err, err
                assert len(err.strip().splitlines()) == 1, err
                if refused:
                    assert "is not a readable game archive" in err and "move it aside" in err
            else:
                assert not refused, "%s case %d read as an archive" % (damage.__name__, case)
                assert out and not err
            assert path.read_bytes() == data


def test_an_empty_file_and_a_missing_file_read_as_an_empty_archive(tmp_path, capsys):
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    for path in (empty, tmp_path / "missing.sqlite3"):
        assert main(["games", "list", "--db", str(path)]) == 0
        assert "no games" in capsys.readouterr().out
    assert empty.read_bytes() == b"" and not (tmp_path / "missing.sqlite3").exists()


def test_a_sqlite_file_of_another_program_is_refused(tmp_path, capsys):
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE notes (text TEXT)")
    for words in READ_COMMANDS + [["games", "delete", "1"]]:
        assert main(words + ["--db", str(path)]) == 1
        assert "not a readable game archive" in capsys.readouterr().err


@pytest.fixture
def locked(tmp_path):
    """An archive of 3 games whose write lock another program holds (a transaction open)."""
    path = tmp_path / "games.sqlite3"
    make_archive(path, games=3)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE games SET black='changing' WHERE id=1")
    yield path
    other.execute("ROLLBACK")
    other.close()


@pytest.mark.parametrize("words", READ_COMMANDS, ids=" ".join)
def test_read_only_commands_read_while_another_program_holds_the_write_lock(locked, capsys, words):
    assert main(words + ["--db", str(locked)]) == 0
    out, err = capsys.readouterr()
    assert out and not err
    assert "changing" not in out          # the other program's change is not committed


def test_a_write_to_a_locked_archive_says_so_in_one_line_and_changes_nothing(locked, capsys, monkeypatch):
    monkeypatch.setattr(archive_module, "WRITE_WAIT_S", 0.2)
    with Archive(str(locked), readonly=True) as archive:
        before = archive.ids()
    assert main(["games", "delete", "2", "--db", str(locked)]) == 1
    err = capsys.readouterr().err
    assert "locked by another program" in err and len(err.strip().splitlines()) == 1
    with Archive(str(locked), readonly=True) as archive:
        assert archive.ids() == before


class Lock:
    """Another program taking and releasing the archive's write lock."""

    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None)
        self.held = False

    def take(self):
        if not self.held:
            self.db.execute("BEGIN IMMEDIATE")
            self.held = True

    def release(self):
        if self.held:
            self.db.execute("COMMIT")
            self.held = False


@pytest.mark.parametrize("seed", [1, 2])
def test_moves_played_while_the_archive_is_locked_are_queued_and_all_stored(tmp_path, seed):
    """A random game; another program takes and releases the lock at random moments and
    holds it across several moves. The recorder never raises, play goes on (its position
    follows the board), and once the lock is gone the archive holds every move once."""
    rng = random.Random(seed)
    path = str(tmp_path / "games.sqlite3")
    with SimRig(str(tmp_path / "flash"), log_dir=str(tmp_path)) as rig, Archive(path) as archive:
        link = Link(finder=rig.ports, reply_timeout=0.5)
        recorder = Recorder(link, archive)
        lock = Lock(path)
        for _ in range(5):
            recorder.step(0.02)
        position = Position()
        played = []
        waited = False
        for ply in range(14):
            if ply == 1 or rng.random() < 0.3:
                lock.take()
            elif rng.random() < 0.3:
                lock.release()
            # no capture (so no drop), no promotion choice: the board asks no question
            quiet = [m for m in position.legal_moves() if not position.piece_at(move_to(m))
                     and not position.is_legal(make_move(move_from(m), move_to(m), True))]
            move = rng.choice(sorted(quiet))
            rig.perform(position, move)
            played.append(to_usi(position.variant, move))
            position.push(move)
            for _ in range(3):
                recorder.step(0.02)
            assert recorder.position.sfen() == position.sfen()
            if lock.held and recorder.queued:
                waited = True
                assert link.status == "archive locked by another program: %d move(s) waiting" % len(
                    recorder.queued)
        assert waited
        lock.take()
        with pytest.raises(ArchiveBusy):
            archive.truncate(recorder.game_id or 1, 0)
        lock.release()
        for _ in range(5):
            recorder.step(0.02)
        assert recorder.queued == []
        assert link.status.startswith("connected on ")
        assert archive.game(recorder.game_id).usi_moves() == played
        link.close()
        lock.db.close()
