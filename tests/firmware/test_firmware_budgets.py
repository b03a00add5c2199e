"""Heap and qstr budgets on the 32-bit MicroPython unix port, whose objects are the Pico's size
(`../shared/tools/micropython-unix-32bit`; the 64-bit port needs about 1.4x the heap).

Each runs the long games of the benchmarks (`yariboard bench rules|firmware`) once, at the
budget, rather than searching for the smallest heap as the benchmarks do.
"""
import os
import subprocess
import tempfile

import pytest

from shogicore import YARI
from tests.mpy import ROOT
from yariboard.benchmarks import firmware as firmware_bench
from yariboard.benchmarks import rules as rules_bench

pytestmark = [pytest.mark.micropython]

MICROPYTHON_32 = os.path.join(os.path.dirname(ROOT), "shared", "tools", "micropython-unix-32bit")
QSTR_ROOM_MIN = 40   # names left before the qstr table's next pool (7 KB at once on the Pico)

# In CI (CI=true) ../shared is always there, so the tests run; elsewhere they may be skipped,
# and say why, only when the binary is missing.
needs_32_bit = pytest.mark.skipif(
    not os.access(MICROPYTHON_32, os.X_OK) and not os.environ.get("CI"),
    reason="32-bit MicroPython unix port not found at %s" % MICROPYTHON_32)


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory(prefix="budgets-") as path:
        yield path


@pytest.fixture(scope="module")
def long_game(workdir):
    """The firmware as flashed (.mpy) and the first long game of the firmware benchmark."""
    seed = firmware_bench.SEEDS[0]
    control_path, expected = firmware_bench.write_control(workdir, seed)
    mpy_dir = firmware_bench.compile_firmware(os.path.join(workdir, "mpy"))
    return mpy_dir, control_path, expected


@needs_32_bit
def test_the_32_bit_port_is_32_bit():
    assert firmware_bench.word_bits(MICROPYTHON_32) == 32


@needs_32_bit
def test_rules_core_plays_a_300_ply_game_within_36_kb_on_32_bit(workdir):
    game = os.path.join(workdir, "rules-game.txt")
    with open(game, "w") as f:
        f.write("\n".join(rules_bench.long_game(YARI, 300, rules_bench.SEEDS[0])))
    tmp = os.path.join(workdir, "rules")
    os.makedirs(tmp)
    path = rules_bench.compiled_core(tmp)
    script = rules_bench.compiled_script(rules_bench.GAME_SCRIPT % game, tmp)
    proc = subprocess.run([MICROPYTHON_32, "-X", "heapsize=%dK" % rules_bench.BUDGET_KB,
                           "-c", script], env=dict(os.environ, MICROPYPATH=path),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-500:]
    assert proc.stdout.split()[:2] == ["plies", "300"]


@pytest.fixture(scope="module")
def firmware_mpy(workdir):
    """The firmware as flashed (.mpy), compiled once for the budget runs."""
    return firmware_bench.compile_firmware(os.path.join(workdir, "mpy-budget"))


@needs_32_bit
@pytest.mark.parametrize("seed", firmware_bench.SEEDS)
def test_firmware_plays_a_300_ply_game_within_64_kb_on_32_bit(firmware_mpy, workdir, seed):
    control_path, expected = firmware_bench.write_control(workdir, seed)
    assert firmware_bench.plays_whole_game(MICROPYTHON_32, firmware_bench.BUDGET_KB, firmware_mpy,
                                           control_path, expected, workdir)


@needs_32_bit
@pytest.mark.parametrize("seed", firmware_bench.SEEDS)
def test_the_wa_board_plays_a_300_ply_game_within_64_kb_on_32_bit(firmware_mpy, workdir, seed):
    control_path, expected = firmware_bench.write_control(workdir, seed, "wa")
    assert firmware_bench.plays_whole_game(MICROPYTHON_32, firmware_bench.BUDGET_KB, firmware_mpy,
                                           control_path, expected, workdir, board="wa-11x11")


@needs_32_bit
def test_the_whole_game_is_saved_with_room_to_spare(long_game, workdir):
    """The run the budget test repeats at 64 KB, here with heap to spare: a failure of that
    test then means memory, not a fault."""
    mpy_dir, control_path, expected = long_game
    assert firmware_bench.plays_whole_game(MICROPYTHON_32, 128, mpy_dir, control_path,
                                           expected, workdir)


@needs_32_bit
def test_the_qstr_table_has_room_for_40_more_names(long_game, workdir):
    mpy_dir, control_path, _ = long_game
    profile = firmware_bench.heap_profile(MICROPYTHON_32, mpy_dir, control_path, workdir)
    assert profile["plies"] == 300
    assert firmware_bench.qstr_room(profile) >= QSTR_ROOM_MIN, profile
