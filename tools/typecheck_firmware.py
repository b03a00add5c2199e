"""Type-check the firmware against the Raspberry Pi Pico's MicroPython API.

The stub packages (pinned in pyproject.toml) describe what MicroPython on the Pico offers:
`micropython-stdlib-stubs` its standard library (a typeshed layout), and
`micropython-rp2-rpi-pico-stubs` its port modules (machine, neopixel, time with ticks_ms,
select, binascii...). mypy is given one typeshed assembled from both, so CPython's own
library is out of sight: a call that exists only on CPython (say time.perf_counter) is an error.

The firmware is written without annotations (it must run on MicroPython), so bodies are
checked with --check-untyped-defs; --no-strict-optional accepts attributes that start as
None and are set later; "index" is off for the same reason (an attribute set to None in
__init__ and filled by a helper), and the codes that only ask for annotations are off.

Usage: python -m tools.typecheck_firmware [--build-dir build]   (exit status 0 = clean)
"""
import argparse
import os
import shutil
import subprocess
import sys
from importlib import metadata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
STDLIB_STUBS = "micropython-stdlib-stubs"
PORT_STUBS = "micropython-rp2-rpi_pico-stubs"
# Complaints that follow from writing MicroPython without annotations, not from API misuse.
DISABLED_CODES = ("var-annotated", "has-type", "index")


def build_typeshed(target):
    """Lay out target/stdlib from the two stub distributions; returns `target`."""
    stdlib = os.path.join(target, "stdlib")
    if os.path.exists(target):
        shutil.rmtree(target)
    added = set()
    for dist_name in (STDLIB_STUBS, PORT_STUBS):
        for record in metadata.distribution(dist_name).files or ():
            parts = record.parts
            if record.suffix != ".pyi":
                if parts[-1] == "VERSIONS":
                    _copy(record, os.path.join(stdlib, "VERSIONS"))
                continue
            if parts[0] == "stubs":            # typeshed's third-party part (mypy_extensions)
                _copy(record, os.path.join(target, *parts))
                continue
            inside = parts[1:] if parts[0] == "stdlib" else parts
            _copy(record, os.path.join(stdlib, *inside))
            if parts[0] != "stdlib":
                added.add(inside[0][:-4] if inside[0].endswith(".pyi") else inside[0])
    with open(os.path.join(stdlib, "VERSIONS"), "a") as versions:
        for module in sorted(added):
            versions.write("%s: 3.0-\n" % module)
    return target


def _copy(record, destination):
    os.makedirs(os.path.dirname(destination), exist_ok=True)
    shutil.copyfile(str(record.locate()), destination)


FIRMWARE_PATHS = (os.path.join(FIRMWARE, "main.py"), os.path.join(FIRMWARE, "boardfw"),
                  os.path.join(FIRMWARE, "shogicore"))


def mypy_command(typeshed, paths=FIRMWARE_PATHS):
    return [sys.executable, "-m", "mypy", "--custom-typeshed-dir", typeshed,
            "--no-site-packages", "--check-untyped-defs", "--no-strict-optional",
            "--no-incremental",
            "--python-version", "3.11", "--platform", "linux"] + [
            "--disable-error-code=" + code for code in DISABLED_CODES] + list(paths)


def run(build_dir, paths=FIRMWARE_PATHS):
    """Type-check `paths` (default: the whole firmware); returns (exit status, mypy's output)."""
    typeshed = build_typeshed(os.path.join(build_dir, "micropython-typeshed"))
    env = dict(os.environ, MYPYPATH=FIRMWARE)
    proc = subprocess.run(mypy_command(typeshed, paths), cwd=FIRMWARE, env=env,
                          capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    args = parser.parse_args(argv)
    status, output = run(args.build_dir)
    print(output, end="")
    return status


if __name__ == "__main__":
    sys.exit(main())
