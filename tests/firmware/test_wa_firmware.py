"""The same firmware on the Wa Shogi board (11 x 11): noisy random Wa games through the real
firmware on the MicroPython unix port must be recorded move for move, power cuts must lose
and duplicate nothing, and a 300-ply game fits the heap budget Yari's does.

The intended moves come from the rules core on CPython; the firmware sees only the switch
changes a person's hands make (tests/firmware/test_firmware_games.py has the players and the checks).
"""
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from shogicore.variants import variant_by_name
from tests.firmware.test_firmware_games import play_games
from tests.firmware.test_firmware_powercut import cut_power_during_games
from yariboard.resources import board_file
from yariboard.sim.board import micropython_binary

pytestmark = [pytest.mark.micropython]

WA_BOARD = "wa-11x11"
SAMPLE_GAMES = 16        # in every run: about 8 s on two cores
ALL_GAMES = 120          # `make test-slow`
GAMES_PER_BOARD = 8      # games per firmware process


def run_wa_games(tmp_path, count, seed_base, board=WA_BOARD):
    variant_by_name("wa")   # built once, before two threads could both start building it
    variant_by_name("wa-nodrops")
    batches = [list(range(seed_base + i, seed_base + min(i + GAMES_PER_BOARD, count)))
               for i in range(0, count, GAMES_PER_BOARD)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        jobs = [pool.submit(play_games, tmp_path / ("board%d" % i), board, seeds)
                for i, seeds in enumerate(batches)]
        results = [job.result() for job in jobs]
    failures = [f for batch_failures, _ in results for f in batch_failures]
    coverages = [coverage for _, coverage in results]
    return failures, coverages


def total(coverages, name):
    return sum(getattr(c, name) for c in coverages)


def test_a_sample_of_noisy_random_wa_games_is_recorded_exactly(tmp_path):
    failures, coverages = run_wa_games(tmp_path, SAMPLE_GAMES, 7000)
    assert failures == []
    drops = set().union(*(c.drops for c in coverages))
    assert {variant for variant, _ in drops} == {"wa"} and len(drops) >= 2
    assert total(coverages, "promoted") > 0 and total(coverages, "declined") > 0
    assert total(coverages, "capture_first") > 0 and total(coverages, "mover_first") > 0
    assert total(coverages, "moves") > SAMPLE_GAMES * 15


def test_the_wa_board_plays_the_game_without_drops_when_its_file_says_so(tmp_path):
    """The board plays its board file's variant: 'wa-nodrops' gives the historical game."""
    with open(board_file(WA_BOARD)) as stream:
        data = json.load(stream)
    data["variant"] = "wa-nodrops"
    path = tmp_path / "wa-nodrops.json"
    path.write_text(json.dumps(data))
    failures, coverages = run_wa_games(tmp_path, 6, 8000, board=str(path))
    assert failures == []
    assert set().union(*(c.drops for c in coverages)) == set()
    assert total(coverages, "moves") > 6 * 15


@pytest.mark.slow
def test_120_noisy_random_wa_games_are_recorded_exactly(tmp_path):
    failures, coverages = run_wa_games(tmp_path, ALL_GAMES, 70000)
    assert failures == []
    assert len(set().union(*(c.drops for c in coverages))) >= 6
    assert total(coverages, "moves") > ALL_GAMES * 15


def test_power_cuts_on_the_wa_board_never_lose_or_duplicate_a_committed_move(tmp_path):
    cut_in = cut_power_during_games(tmp_path, WA_BOARD, 30, 1414)
    assert cut_in["append"] >= 3, cut_in              # the cuts really hit saves in progress
    assert cut_in["after the save"] >= 3, cut_in


def test_a_300_ply_wa_game_leaves_the_qstr_table_below_its_next_pool(tmp_path):
    """Past 620 names the qstr table takes another 7 KB at once (docs: README, Benchmarks):
    Wa's letters and tables must not push the firmware over it."""
    from yariboard.benchmarks import firmware as bench

    lines, expected = bench.game_script(bench.long_game(variant="wa"), "wa")
    control = tmp_path / "game.control"
    control.write_text("\n".join(lines) + "\n")
    mpy_dir = bench.compile_firmware(str(tmp_path / "mpy"))
    profile = bench.heap_profile(micropython_binary(), mpy_dir, str(control), str(tmp_path),
                                 board=WA_BOARD)
    assert profile["plies"] == 300
    assert profile["qstr_pools"] == 5 and bench.qstr_room(profile) >= 0


# -- the same kind of games straight through the interpreter (tests/firmware/test_interpreter_games) --

def wa_scripts(count, first_seed):
    from shogicore.game import CASUAL, TOURNAMENT
    from tests.firmware.test_interpreter_games import Player

    scripts = []
    for i in range(count):
        variant = variant_by_name("wa-nodrops" if i % 4 == 3 else "wa")
        player = Player(first_seed + i, variant, mode=TOURNAMENT if i % 3 == 2 else CASUAL,
                        plies=70)
        script = player.run()
        script["seen"] = player.seen
        scripts.append(script)
    return scripts


def test_noisy_random_wa_games_through_the_interpreter_on_both_interpreters(tmp_path):
    from tests.firmware.test_interpreter_games import replay_here, replay_on_micropython

    scripts = wa_scripts(24, 9000)
    for script in scripts:
        got = replay_here(script)
        assert got["log"] == script["expected_log"], script["sfen"]
        assert got["moves"] == script["expected_moves"]
    seen = {}
    for script in scripts:
        for what, n in script["seen"].items():
            seen[what] = seen.get(what, 0) + n
    for gesture in ("capture-own-first", "capture-victim-first", "slide", "drop-choice",
                    "promotion-chosen", "promotion-declined", "takeback-move"):
        assert seen.get(gesture), (gesture, seen)
    assert {s["variant"] for s in scripts} == {"wa", "wa-nodrops"}
    sample = scripts[:8]
    results = replay_on_micropython(sample, tmp_path)
    assert [r["moves"] for r in results] == [s["expected_moves"] for s in sample]
    assert [r["log"] for r in results] == [s["expected_log"] for s in sample]
