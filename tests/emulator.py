"""The emulated Pico for tests: skipped (with the reason) where Node or rp2040js is missing,
never in CI, which installs them (.ci/run, `make emulator`)."""
import os
import subprocess
import sys

import pytest

from tests.mpy import ROOT
from yariboard.sim.emulator import EmulatedPico, missing_parts
from yariboard.sim.board import SerialClient

needs_emulator = pytest.mark.skipif(bool(missing_parts()) and not os.environ.get("CI"),
                                    reason=missing_parts() or "ready")


def flash_emulator(flash_image, port="emulator", variant="yari"):
    """`make flash PORT=emulator` (tools/flash.py: mpremote over the emulated Pico's USB
    serial port) onto a fresh flash image, or with port="image" the same files written into
    its filesystem on the host; the command's output."""
    proc = subprocess.run([sys.executable, "-m", "tools.flash", "--variant", variant,
                           "--port", port, "--flash-image", flash_image,
                           "--build-dir", os.path.join(os.path.dirname(flash_image), "build")],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout + proc.stderr


@pytest.fixture(scope="session")
def flashed(tmp_path_factory):
    """(image, output): a flash image holding the yari firmware in its filesystem (written
    on the host, as the simulator does), shared by the emulator tests (each runs on its own
    copy). tests/sim/test_emulator_board.py deploys through mpremote as well."""
    image = str(tmp_path_factory.mktemp("pico") / "flash.bin")
    return image, flash_emulator(image, port="image")


@pytest.fixture
def board(flashed, tmp_path):
    """A Bench on a fresh copy of the flashed image."""
    copy = str(tmp_path / "flash.bin")
    with open(flashed[0], "rb") as src, open(copy, "wb") as dst:
        dst.write(src.read())
    bench = Bench(copy, str(tmp_path))
    yield bench
    bench.close()


class Bench:
    """An emulated board running the deployed firmware, with a protocol client on its port."""

    def __init__(self, flash_image, log_dir, occupied=None, board="yari-9x7"):
        self.pico = EmulatedPico(flash_image, board=board, occupied=occupied, log_dir=log_dir)
        self.client = None

    def power_up(self):
        """Boot and wait for the firmware's `hello` on the USB serial port."""
        self.pico.start()
        self.pico.wait_booted(1)
        if self.client is None:
            # its waits in the board's own time, which a busy machine slows as much as the board
            self.client = SerialClient(self.pico.port, timeout=120, clock=self.pico.board_seconds)
        mark = len(self.client.frames)
        return self.client.wait_for(lambda f: f[1] == "hello", start=mark, timeout=180)

    def close(self):
        if self.client:
            self.client.close()
        self.pico.close()
