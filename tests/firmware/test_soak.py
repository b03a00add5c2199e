"""The soak (`make soak`): 10 000 noisy games with overlapping moves and 1 000 power cuts.

Not part of `make test` (marked slow and soak); it prints its figures. SOAK_GAMES and
SOAK_CUTS change the counts. Every game is checked on CPython and every tenth again on the
firmware's interpreter on the MicroPython unix port; the power cuts are those of
tests/firmware/test_firmware_powercut.py, many more of them.
"""
import json
import os
import random
import time

import pytest

from boardfw.interpreter import SETTLE_MS
from shogicore.game import CASUAL, TOURNAMENT
from shogicore.variants import SHOGI, YARI
from tests.firmware import test_firmware_powercut
from tests.mpy import run_micropython
from tests.firmware.test_interpreter_overlap import (REPLAY, TEMPO_MS, OverlapPlayer, check,
                                            replay_here)

pytestmark = [pytest.mark.slow, pytest.mark.soak]

KINDS = ((YARI, CASUAL), (YARI, TOURNAMENT), (SHOGI, CASUAL))


def test_soak_noisy_games_with_overlapping_moves(tmp_path):
    games = int(os.environ.get("SOAK_GAMES", "10000"))
    began = time.monotonic()
    rng = random.Random(15)
    totals = {}
    tempos = []
    plies = 0
    sample = tmp_path / "sample.jsonl"
    with open(sample, "w") as out:
        for i in range(games):
            variant, mode = KINDS[i % len(KINDS)]
            game_tempos = [rng.randint(0, TEMPO_MS) for _ in range(4)]
            player = OverlapPlayer(i, game_tempos, variant=variant, mode=mode, plies=40)
            script = player.run()
            check(script, replay_here(script))
            tempos.extend(player.seen.get("tempo", ()))
            for what, n in player.seen.items():
                if what != "tempo":
                    totals[what] = totals.get(what, 0) + n
            plies += len(script["expected_moves"])
            if i % 10 == 0:
                out.write(json.dumps(script) + "\n")
    cpython_s = time.monotonic() - began
    code = REPLAY + ("\nimport json\nwith open(%r) as f:\n    for line in f:\n"
                     "        print(json.dumps(replay(json.loads(line))))\n" % str(sample))
    _, stdout, _ = run_micropython(code, timeout=7200)
    checked = 0
    with open(sample) as scripts:
        for line, got in zip(scripts, stdout.splitlines()):
            check(json.loads(line), json.loads(got))
            checked += 1
    overlapped = sum(1 for t in tempos if t < SETTLE_MS)
    print("\nsoak: %d noisy games, %d moves recorded, all as played (CPython, %.0f s);"
          " %d of them replayed identically on MicroPython" % (games, plies, cpython_s, checked))
    print("soak: %d replies began 0..%d ms after the move: %d before it settled (< %d ms),"
          " %d after; %d onto the square just vacated, %d capturing the piece just moved;"
          " %d nudges, %d slides" % (
              len(tempos), TEMPO_MS, overlapped, SETTLE_MS, len(tempos) - overlapped,
              totals.get("reply-onto-vacated", 0), totals.get("reply-captures-mover", 0),
              totals.get("nudge", 0), totals.get("slide", 0)))
    assert checked == (games + 9) // 10
    assert overlapped and len(tempos) > overlapped


def test_soak_power_cuts(tmp_path, monkeypatch):
    monkeypatch.setattr(test_firmware_powercut, "CUTS", int(os.environ.get("SOAK_CUTS", "1000")))
    began = time.monotonic()
    test_firmware_powercut.test_power_cuts_never_lose_or_duplicate_a_committed_move(tmp_path)
    print("soak: %d power cuts in %.0f s, every committed move kept, none twice"
          % (test_firmware_powercut.CUTS, time.monotonic() - began))
