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
    rng = random.Random(77)
    storage = str(tmp_path / "flash")
    sim = SimBoard(storage, slow_save_ms=SLOW_SAVE_MS, log_dir=str(tmp_path))
    sim.start()
    client = SerialClient(sim.port)
    game = Game("yari")
    intended = []
    cuts = cut_mid_save = resumed_with_move = 0
    try:
        while cuts < CUTS:
            if game.result or len(intended) >= 40:       # next game
                kind, _ = client.request("new", "yari", "-", "casual")
                assert kind == "ok"
                game, intended = Game("yari"), []
                sim.send_commands(["set " + " ".join(occupied_squares("yari")), "advance 100"])
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
                game = Game("yari")
                for usi in intended:
                    game.play_usi(usi)
                sim.occupied = set(occupied_squares("yari", game.position.sfen()))
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
    print("power cuts: %d, during a save: %d, after the save: %d" % figures)
    assert cut_mid_save >= 10, figures           # the cuts really hit saves in progress
    assert resumed_with_move >= 10 and cuts - resumed_with_move >= 10, figures
