"""`pip install .` as a user does it: the built wheel in a fresh virtualenv, run from a
folder far from the checkout. Everything the installed tool needs (subpackages, the
firmware the simulator runs, the board files) must come from the wheel."""
import filecmp
import os
import shutil
import sqlite3
import subprocess
import sys
import tomllib

import pytest
import shogi

from shogicore import YARI, Position
from shogicore.move import to_usi
from tests.mpy import ROOT
from tests.oracles import fsf_legal_usi

pytestmark = [pytest.mark.external]


def run(cmd, cwd, env, timeout=300):
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, "%s failed (%d):\n%s\n%s" % (cmd, proc.returncode, proc.stdout, proc.stderr)
    return proc.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(yariboard console script, the venv's python, a work folder, environment)."""
    base = tmp_path_factory.mktemp("install")
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "VIRTUAL_ENV", "YARIBOARD_DB")}
    wheels, venv, work, scratch = (base / name for name in ("wheels", "venv", "work", "tmp"))
    for folder in (work, scratch):
        folder.mkdir()
    # built from a copy: building in the checkout would leave a build/ folder there
    source = base / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".mypy_cache"))
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)], base, env)
    run([sys.executable, "-m", "venv", str(venv)], base, env)
    wheel = [str(w) for w in wheels.iterdir() if w.suffix == ".whl"]
    assert len(wheel) == 1
    run([str(venv / "bin" / "pip"), "install", "-q", wheel[0]], base, env)
    # A temporary folder of its own shows what the commands leave behind in it.
    env["TMPDIR"] = str(scratch)
    return venv / "bin" / "yariboard", venv / "bin" / "python", work, env


def test_the_installed_package_is_the_wheels_not_the_checkouts(installed):
    tool, python, work, env = installed
    where = run([str(python), "-c", "import yariboard, boardfw; print(yariboard.__file__); print(boardfw.__file__)"],
                work, env)
    for path in where.split():
        assert not path.startswith(ROOT) and "site-packages" in path


def test_the_wheel_carries_the_firmware_and_board_files_as_they_are_in_the_checkout(installed):
    tool, python, work, env = installed
    paths = run([str(python), "-c", "from yariboard import resources as r; print(r.firmware_dir()); "
                 "print(r.boards_dir())"], work, env).split()
    firmware, boards = paths
    assert "site-packages" in firmware and "site-packages" in boards
    for relative in ["main.py"] + ["%s/%s" % (package, name) for package in ("boardfw", "shogicore")
                                   for name in os.listdir(os.path.join(ROOT, "firmware", package))
                                   if name.endswith(".py")]:
        assert filecmp.cmp(os.path.join(ROOT, "firmware", relative), os.path.join(firmware, relative),
                           shallow=False), relative
    checkout_boards = sorted(os.listdir(os.path.join(ROOT, "hardware", "boards")))
    assert sorted(os.listdir(boards)) == checkout_boards


def test_version_is_the_one_in_pyproject(installed):
    tool, python, work, env = installed
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        version = tomllib.load(f)["project"]["version"]
    assert run([str(tool), "--version"], work, env).strip() == "yariboard " + version


def test_legal_and_perft_agree_with_the_oracles(installed):
    tool, python, work, env = installed
    yari = run([str(tool), "legal", "--moves", "1g1f"], work, env).split()
    assert set(yari) == fsf_legal_usi(YARI, Position().sfen(), ["1g1f"])
    board = shogi.Board()
    nodes = 0
    for move in list(board.legal_moves):
        board.push(move)
        nodes += len(list(board.legal_moves))
        board.pop()
    out = run([str(tool), "perft", "2", "--variant", "shogi"], work, env).splitlines()
    assert out[-1] == "nodes %d" % nodes


def test_demo_and_scripted_sim_play_on_the_packaged_firmware_and_leave_no_temporary_folders(installed):
    tool, python, work, env = installed
    db = work / "games.sqlite3"
    out = run([str(tool), "demo", "--max-plies", "4", "--db", str(db)], work, env)
    assert str(db) in out
    position = Position()
    script = []
    for _ in range(2):
        move = sorted(position.legal_moves())[0]
        script.append("move " + to_usi(position.variant, move))
        position.push(move)
    (work / "script.txt").write_text("\n".join(script) + "\n")
    run([str(tool), "sim", "--script", "script.txt", "--db", str(db)], work, env)
    with sqlite3.connect(db) as archive:
        counts = [row[0] for row in archive.execute(
            "SELECT (SELECT COUNT(*) FROM moves WHERE game_id=g.id) FROM games g ORDER BY id")]
        last = [row[0] for row in archive.execute(
            "SELECT usi FROM moves WHERE game_id=(SELECT MAX(id) FROM games) ORDER BY ply")]
    assert counts == [4, 2]
    assert last == [line.split()[1] for line in script]
    assert os.listdir(env["TMPDIR"]) == []


def test_a_benchmark_needing_the_development_setup_says_so_in_one_line(installed):
    tool, python, work, env = installed
    proc = subprocess.run([str(tool), "bench", "rules"], cwd=work, env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.startswith("yariboard: error: bench rules needs the development setup")
    assert len(proc.stderr.strip().splitlines()) == 1


def test_the_emulated_pico_from_an_installed_copy_says_in_one_line_how_to_get_it(installed):
    """An installed copy has no tools/ (the emulator, the deployment): `sim --emulator` and
    `play --sim --emulator` say where the emulated Pico runs, in one line, no traceback."""
    tool, python, work, env = installed
    (work / "moves.txt").write_text("move 7g7f\n")
    for args in (["sim", "--emulator", "--script", "moves.txt"],
                 ["play", "--sim", "--emulator", "--new"]):
        proc = subprocess.run([str(tool), "--db", str(work / "emu.db")] + args, cwd=work,
                              env=env, capture_output=True, text=True, timeout=300,
                              stdin=subprocess.DEVNULL)
        assert proc.returncode != 0, args
        assert "Traceback" not in proc.stderr, proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and "make emulator" in lines[0] and "checkout" in lines[0], lines
