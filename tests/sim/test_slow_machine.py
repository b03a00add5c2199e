"""A slow machine makes the emulated Pico slow, never wrong: the host waits for its replies
in the board's own time (EmulatedPico.board_seconds), so a board that gets no processor
for a while is waited for, where a wall-clock wait gives up on it.

The machine's business is played by stopping the emulator's process (SIGSTOP) for longer
than the link's every retry would wait on the wall clock.
"""
import os
import shutil
import signal
import threading
import time

import pytest

from tests.emulator import flashed, needs_emulator  # noqa: F401 (fixture)
from yariboard.board import replies
from yariboard.board.link import Disconnected, Link
from yariboard.sim.emulator import EmuRig

pytestmark = [needs_emulator, pytest.mark.emulator]
REPLY_S, RETRIES = 1.0, 1
STOPPED_S = 4 * REPLY_S * (RETRIES + 1)   # longer than all the tries on the wall clock


@pytest.fixture
def rig(flashed, tmp_path):  # noqa: F811
    image = str(tmp_path / "pico" / "flash.bin")
    os.makedirs(os.path.dirname(image))
    shutil.copy(flashed[0], image)
    rig = EmuRig(image, log_dir=str(tmp_path)).start()
    yield rig
    rig.close()


def request_while_stopped(rig, clock):
    """`state` asked of a board whose process is stopped for STOPPED_S; its reply words."""
    link = Link(finder=rig.ports, reply_timeout=REPLY_S, retries=RETRIES, clock=clock)
    link.connect(timeout=600)
    pid = rig.board.process.pid
    os.kill(pid, signal.SIGSTOP)
    wake = threading.Timer(STOPPED_S, os.kill, (pid, signal.SIGCONT))
    wake.start()
    started = time.monotonic()
    try:
        return link.request("state"), time.monotonic() - started
    finally:
        wake.cancel()
        os.kill(pid, signal.SIGCONT)
        link.close()


def test_a_board_the_machine_stops_is_waited_for_in_its_own_time(rig):
    words, waited = request_while_stopped(rig, rig.board_seconds)
    assert replies.state(words)[1] == "yari"
    assert waited >= STOPPED_S          # it really was stopped for all of the link's tries


def test_on_the_wall_clock_the_same_wait_gives_up(rig):
    """The contrast that shows the test above means something."""
    with pytest.raises(Disconnected):
        request_while_stopped(rig, time.monotonic)
