"""Power cuts: the firmware process is killed (SIGKILL) at random moments, many of them in
the middle of a save, and restarted on the same flash directory.

After every cut the save file must be readable, hold a prefix of the intended game, include
every move the board had announced, and nothing twice.
"""
import os
import random
import time

from boardfw.storage import parse
from shogicore.game import Game
from shogicore.notation import to_usi
from yariboard.simboard import SerialClient, SimBoard, move_gestures, occupied_squares

CUTS = 110
SLOW_SAVE_MS = 1      # each write of a save takes this long: a save spans 10-60 ms (one write per move)


def read_save(storage):
    with open(os.path.join(storage, "game.txt"), "rb") as f:
        return parse(f.read())     # raises if the file is damaged


def test_power_cuts_never_lose_or_duplicate_a_committed_move(tmp_path):
    cuts, cut_mid_save, resumed_with_move = cut_power_during_games(tmp_path, "yari-9x7", CUTS, 77)
    assert cut_mid_save >= 10            # the cuts really hit saves in progress
    assert resumed_with_move >= 10 and cuts - resumed_with_move >= 10


def cut_power_during_games(tmp_path, board, cuts_wanted, seed):
    """Play random games on `board`, cutting the power `cuts_wanted` times; every check of
    the module's docstring is asserted after each cut. Returns (cuts, cuts during a save,
    restarts with the cut move saved)."""
    rng = random.Random(seed)
    storage = str(tmp_path / "flash")
    sim = SimBoard(storage, board=board, slow_save_ms=SLOW_SAVE_MS, log_dir=str(tmp_path))
    sim.start()
    variant = sim.config.variant
    client = SerialClient(sim.port)
    game = Game(variant)
    intended = []
    cuts = cut_mid_save = resumed_with_move = 0
    try:
        while cuts < cuts_wanted:
            if game.result or len(intended) >= 40:       # next game
                kind, _ = client.request("new", variant, "-", "casual")
                assert kind == "ok"
                game, intended = Game(variant), []
                sim.send_commands(["set " + " ".join(occupied_squares(variant)), "advance 100"])
                sim.sync()
            m = rng.choice(game.position.legal_moves())
            mark = len(client.frames)
            sim.send_commands(move_gestures(game.position, m, rng))
            game.play(m)
            intended.append(to_usi(game.variant, m))
            if rng.random() < 0.4:                        # play on without a cut this time
                frame = client.wait_for(lambda f: f[1] == "move", start=mark)
                assert frame[2][:2] == [str(len(intended)), intended[-1]]
                continue

            time.sleep(rng.uniform(0, 0.06))              # somewhere around the save
            sim.kill()
            cuts += 1
            client.pump()
            announced = [int(f[2][0]) for f in client.frames[mark:] if f[1] == "move"]
            if os.path.exists(os.path.join(storage, "game.tmp")):
                cut_mid_save += 1
            saved = list(read_save(storage).moves)
            assert saved == intended[:len(saved)]                      # a prefix: no duplicate
            assert len(saved) >= len(intended) - 1                      # at most the cut move
            for n in announced:
                assert n <= len(saved)                                  # announced => saved

            if len(saved) < len(intended):
                # the move was cut before it was saved: the player puts the board back
                intended.pop()
                game = Game(variant)
                for usi in intended:
                    game.play_usi(usi)
                sim.occupied = set(occupied_squares(variant, game.position.sfen()))
            else:
                resumed_with_move += 1
            client.close()
            sim.restart()
            client = SerialClient(sim.port)
            kind, state = client.request("state")
            assert kind == "ok" and state[3] == str(len(intended))
            assert " ".join(state[5:]) == game.position.sfen()
    finally:
        client.close()
        sim.close()
    assert "Traceback" not in sim.stderr_text()
    figures = (cuts, cut_mid_save, resumed_with_move)
    print("power cuts on %s: %d, during a save: %d, after the save: %d" % ((board,) + figures))
    return figures
