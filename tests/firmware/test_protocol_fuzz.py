"""Protocol fuzzing against the running firmware: random bytes, corrupted frames, over-long
lines and well-framed nonsense never crash it, never touch the game, and each complete bad
line gets an `err` frame naming what was wrong.
"""
import pytest
import random
import zlib

from boardfw import protocol
from shogicore.game import Game
from yariboard.sim.board import SerialClient, SimBoard, move_gestures

pytestmark = [pytest.mark.micropython]

KNOWN_CODES = {"frame", "crc", "long", "verb",
               "args", "illegal", "sfen", "variant",
               "empty", "over"}

# Well-framed requests (valid CRC) that must all be refused without side effects.
NONSENSE = [
    ["format"], ["state", "now"], ["history"], ["history", "abc"], ["history", "0"],
    ["history", "-3"], ["new", "chess", "-", "casual"], ["new", "yari", "queen-odds", "casual"],
    ["new", "yari", "-", "blitz"], ["new", "shogi", "-", "casual"], ["new", "yari"],
    ["setpos", "yari", "casual", "x", "y", "z", "w"],
    ["setpos", "yari", "casual", "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR", "q", "-", "1"],
    ["setpos", "yari", "casual", "7/7/7/7/7/7/7/7/7", "b", "-", "1"],   # no General at all
    ["setpos", "yari", "casual", "k5k/7/7/7/7/7/7/7/3K3", "b", "-", "1"],  # two of one side
    ["show", "7g7a"], ["show", "zz"], ["show", "P*5e"], ["hint", "9i9h"], ["hint"],
    ["undo", "now"], ["ledtest", "1"], ["sensors", "x"], ["version", "2"],
]


def noise(rng):
    """One chunk of garbage of some kind, as bytes."""
    choice = rng.randrange(6)
    if choice == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80)))
    if choice == 1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60))) + b"\n"
    if choice == 2:
        return b"A" * rng.randrange(protocol.MAX_LINE, 3 * protocol.MAX_LINE) + b"\n"
    if choice == 3:                                   # a good frame with one byte damaged
        frame = bytearray(protocol.encode(rng.randrange(65536), ["state"]))
        frame[rng.randrange(len(frame) - 1)] ^= 1 << rng.randrange(7)
        return bytes(frame)
    if choice == 4:                                   # well framed, but nonsense
        body = ("%d %s" % (rng.randrange(65536), " ".join(rng.choice(NONSENSE)))).encode()
        return body + b" #%08x\n" % zlib.crc32(body)
    return b"\n" * rng.randrange(1, 3)


def test_garbage_never_crashes_the_board_nor_changes_the_game(tmp_path):
    rng = random.Random(2024)
    with SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)) as sim:
        client = SerialClient(sim.port)
        game = Game("yari")
        for _ in range(6):
            m = rng.choice(game.position.legal_moves())
            sim.send_commands(move_gestures(game.position, m))
            game.play(m)
        client.wait_for(lambda f: f[1] == "move" and f[2][0] == "6")
        kind, before = client.request("state")
        assert kind == "ok" and before[3] == "6"
        saved_before = [(tmp_path / "flash" / name).read_bytes() for name in ("game.txt", "game.log")]

        mark = len(client.frames)
        for i in range(400):
            client.write_raw(noise(rng))
            if i % 8 == 0:
                client.pump()                      # keep reading, as a host does
        client.write_raw(b"\n")                    # end any unterminated garbage line
        kind, after = client.request("state", timeout=30)

        assert sim.alive()
        assert kind == "ok" and after == before
        assert [(tmp_path / "flash" / name).read_bytes()
                for name in ("game.txt", "game.log")] == saved_before
        replies = client.frames[mark:]
        errors = [f[2] for f in replies if f[1] == "err"]
        assert len(errors) > 200
        assert {e[1] for e in errors} <= KNOWN_CODES
        assert not [f for f in replies if f[1] in ("move", "undo", "new", "end")]
        client.close()
    assert "Traceback" not in sim.stderr_text()


def test_each_kind_of_bad_line_gets_its_error_code(tmp_path):
    with SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)) as sim:
        client = SerialClient(sim.port)
        cases = [
            (b"hello board\n", "frame"),
            (b"1 state #00000000\n", "crc"),
            (b"B" * 1000 + b"\n", "long"),
            (protocol.encode(5, ["dance"]), "verb"),
            (protocol.encode(6, ["history"]), "args"),
            (protocol.encode(7, ["show", "7g7a"]), "illegal"),
            (protocol.encode(8, ["setpos", "yari", "casual", "k6/7/7", "b", "-", "1"]),
             "sfen"),
            (protocol.encode(9, ["new", "shogi", "-", "casual"]), "variant"),
            (protocol.encode(10, ["undo"]), "empty"),
        ]
        for line, code in cases:
            mark = len(client.frames)
            client.write_raw(line)
            reply = client.wait_for(lambda f: f[1] == "err", start=mark)
            assert reply[2][1] == code, (line, reply)
        client.close()
