"""The serial protocol fuzz test over the emulated Pico's USB CDC port (bridged to a pty):
garbage never crashes the real firmware image nor touches its game, and every complete bad
line gets an `err` frame with a known code."""
import random

import pytest

from tests.emulator import board, flashed, needs_emulator  # noqa: F401 (fixtures)
from tests.firmware.test_protocol_fuzz import KNOWN_CODES, noise

pytestmark = [needs_emulator, pytest.mark.emulator]


def fuzz(bench, chunks, seed):
    rng = random.Random(seed)
    bench.power_up()
    client = bench.client
    kind, before = client.request("state")
    assert kind == "ok"
    mark = len(client.frames)
    for i in range(chunks):
        # Ctrl-C stops the firmware on purpose (that is how `make flash` gets in); hosts
        # never send it, as frames are printable (docs/protocol.md): everything else goes
        client.write_raw(noise(rng).replace(b"\x03", b"?"))
        if i % 8 == 0:
            client.pump()
    client.write_raw(b"\n")
    kind, after = client.request("state", timeout=180)
    assert bench.pico.alive()
    assert kind == "ok" and after == before
    replies = client.frames[mark:]
    errors = [f[2] for f in replies if f[1] == "err"]
    assert len(errors) >= chunks // 3
    assert {e[1] for e in errors} <= KNOWN_CODES
    assert not [f for f in replies if f[1] in ("move", "undo", "new", "end", "hello")]


def test_garbage_over_the_usb_port_never_crashes_the_pico_nor_changes_the_game(board):
    fuzz(board, chunks=40, seed=7)


@pytest.mark.slow
def test_long_fuzz_over_the_usb_port(board):
    fuzz(board, chunks=400, seed=2024)
