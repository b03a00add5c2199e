"""Power cuts: the firmware process is killed (SIGKILL) at random moments, many of them in
the middle of an append (a move's entry half written) or of a compaction (the whole game
being rewritten to game.tmp), and restarted on the same flash directory.

After every cut the save file must be readable (a torn last entry is dropped), hold a prefix
of the intended game, include every move the board had announced, and nothing twice.
"""
import pytest
import os
import random
import time

from boardfw.save_reader import parse
from shogicore.game import Game
from shogicore.move import to_usi
from yariboard.sim.board import SerialClient, SimBoard, move_gestures, occupied_squares

pytestmark = [pytest.mark.micropython]

CUTS = 110
SLOW_SAVE_MS = 8   # each write of a save pauses this long half-way: appends and compactions
                   # are then wide enough to cut into on purpose


def read_save(storage):
    """The saved game: the record and the journal after it (raises if either is damaged)."""
    with open(os.path.join(storage, "game.txt"), "rb") as f:
        return parse(f.read(), log=read_bytes(os.path.join(storage, "game.log")))


def read_bytes(path):
    """The file's bytes, b"" when there is none."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:   # (none yet, or removed by a compaction meanwhile)
        return b""


def wait_until(condition, timeout=5.0):
    """Poll `condition` (file system state) until it holds; False on timeout."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.0005)
    return True


def test_power_cuts_never_lose_or_duplicate_a_committed_move(tmp_path):
    cut_in = cut_power_during_games(tmp_path, "yari-9x7", CUTS, 77)
    assert cut_in["append"] >= 20, cut_in             # the cuts really hit appends in progress
    assert cut_in["compaction"] >= 5, cut_in          # ... and compactions in progress
    assert cut_in["after the save"] >= 10, cut_in


def cut_power_during_games(tmp_path, board, cuts_wanted, seed):
    """Play random games on `board`, cutting the power `cuts_wanted` times; every check of
    the module's docstring is asserted after each cut. Returns how many cuts fell in an
    append, in a compaction, in a new game that was kept, and after the save."""
    rng = random.Random(seed)
    storage = str(tmp_path / "flash")
    log = os.path.join(storage, "game.log")
    tmp = os.path.join(storage, "game.tmp")
    sim = SimBoard(storage, board=board, slow_save_ms=SLOW_SAVE_MS, log_dir=str(tmp_path))
    sim.start()
    variant = sim.config.variant
    client = SerialClient(sim.port)
    game = Game(variant)
    intended = []
    cuts = 0
    cut_in = {"append": 0, "compaction": 0, "new game kept": 0, "after the save": 0}
    try:
        while cuts < cuts_wanted:
            mark = len(client.frames)
            if game.result or len(intended) >= 12:       # next game, its first save cut now and then
                old_id = read_save(storage).game_id
                client.send("new", variant, "-", "casual")
                if rng.random() < 0.8:
                    wait_until(lambda: os.path.exists(tmp))
                    time.sleep(rng.uniform(0, 0.05))
                else:
                    client.wait_for(lambda f: f[1] == "ok", start=mark)
                started_new = False
            else:
                m = rng.choice(game.position.legal_moves())
                size = len(read_bytes(log))
                sim.send_commands(move_gestures(game.position, m, rng))
                game.play(m)
                intended.append(to_usi(game.variant, m))
                roll = rng.random()
                if roll < 0.3:                               # play on without a cut this time
                    frame = client.wait_for(lambda f: f[1] == "move", start=mark)
                    assert frame[2][:2] == [str(len(intended)), intended[-1]]
                    continue
                if roll < 0.7:                                # cut while the entry is written
                    wait_until(lambda: len(read_bytes(log)) != size or os.path.exists(tmp))
                    time.sleep(rng.uniform(0, SLOW_SAVE_MS / 1000))
                else:                                         # somewhere around the save
                    time.sleep(rng.uniform(0, 0.06))
                started_new = None

            sim.kill()
            cuts += 1
            client.pump()
            journal = read_bytes(log)
            torn = journal and not journal.endswith(b"\n")
            if torn:
                cut_in["append"] += 1
            elif os.path.exists(tmp):
                cut_in["compaction"] += 1
            announced = [int(f[2][0]) for f in client.frames[mark:] if f[1] == "move"]
            saved_game = read_save(storage)
            saved = list(saved_game.moves)

            if started_new is not None:                       # the cut was of a new game
                if saved_game.game_id != old_id:
                    assert saved == []
                    game, intended = Game(variant), []
                    sim.occupied = set(occupied_squares(variant))
                else:
                    cut_in["new game kept"] += 1
                    assert not [f for f in client.frames[mark:] if f[1] == "new"]
                    assert saved == intended
            else:
                assert saved == intended[:len(saved)]                  # a prefix: no duplicate
                assert len(saved) >= len(intended) - 1                  # at most the cut move
                for n in announced:
                    assert n <= len(saved)                              # announced => saved
                if len(saved) < len(intended):
                    # the move was cut before it was saved: the player puts the board back
                    intended.pop()
                    game = Game(variant)
                    for usi in intended:
                        game.play_usi(usi)
                    sim.occupied = set(occupied_squares(variant, game.position.sfen()))
                elif not torn:
                    cut_in["after the save"] += 1
            client.close()
            sim.restart()
            client = SerialClient(sim.port)
            client.follow_board()
            kind, state = client.request("state")
            assert kind == "ok" and state[3] == str(len(intended))
            assert " ".join(state[5:]) == game.position.sfen()
            assert not os.path.exists(tmp)
            assert not os.path.exists(log)                # boot compacted the journal away
    finally:
        client.close()
        sim.close()
    assert "Traceback" not in sim.stderr_text()
    assert "Error" not in sim.stderr_text()
    print("power cuts on %s: %d; in an append, a compaction, a new game kept, after the save: %s"
          % (board, cuts, cut_in))
    return cut_in
