"""The Pico's flash filesystem, written on the host into a flash image file.

MicroPython's RPI_PICO build keeps a littlefs v2 filesystem in the last 1408 KB of the 2 MB
flash (4 KB blocks, formatted with progsize=256 by its _boot.py). Written here with
littlefs-python in the same geometry, the emulated Pico boots straight into the firmware's
files: no serial copy, so nothing waits on a wall clock that a busy machine could outrun.
`make flash` still copies through mpremote, as onto a real board; the tests hold the two
filesystems to the same files (tests/sim/test_emulator_board.py).
"""
import os

from littlefs import LittleFS, LittleFSError, UserContext

FLASH_BYTES = 2 * 1024 * 1024
BLOCK_BYTES = 4096
FILESYSTEM_OFFSET = FLASH_BYTES - 1408 * 1024
BLOCK_COUNT = (FLASH_BYTES - FILESYSTEM_OFFSET) // BLOCK_BYTES
# As MicroPython's VfsLfs2 on the rp2 port sets it up (extmod/vfs_lfs.c, ports/rp2/_boot.py):
# littlefs 2.1 on disk, 256-byte programs, reads of 32.
GEOMETRY = dict(block_size=BLOCK_BYTES, block_count=BLOCK_COUNT, read_size=32, prog_size=256,
                cache_size=1024, lookahead_size=32, block_cycles=100, disk_version=0x00020001)


def _mounted(region, blank_ok):
    """The filesystem of `region` (the flash from FILESYSTEM_OFFSET on), mounted. Where
    there is none, formatted if `blank_ok` (as _boot.py formats a Pico's blank flash)."""
    fs = LittleFS(context=UserContext(buffer=region), mount=False, **GEOMETRY)
    try:
        fs.mount()
    except LittleFSError:
        if not blank_ok:
            raise
        fs.format()
        fs.mount()
    return fs


def read_image(path):
    """The flash image at `path`, 2 MB (erased flash, 0xff, where the file is short)."""
    flash = bytearray(b"\xff" * FLASH_BYTES)
    if os.path.exists(path):
        with open(path, "rb") as f:
            data = f.read(FLASH_BYTES)
        flash[:len(data)] = data
    return flash


def write_files(path, files, clean=()):
    """Put `files` ({path on the Pico: bytes}) into the filesystem of the flash image at
    `path`, after removing every file of the folders `clean` (a stale module of an earlier
    deploy would be imported); whatever else is there (the saved game) stays."""
    flash = read_image(path)
    region = flash[FILESYSTEM_OFFSET:]
    fs = _mounted(region, blank_ok=True)
    for folder in clean:
        if folder.strip("/") in fs.listdir("/"):
            for name in fs.listdir(folder):
                fs.remove(folder + "/" + name)
    for name in sorted(files):
        fs.makedirs(os.path.dirname(name), exist_ok=True)
        with fs.open(name, "wb") as f:
            f.write(files[name])
    fs.unmount()
    flash[FILESYSTEM_OFFSET:] = region
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as f:
        f.write(flash)


def read_files(path):
    """{path on the Pico: bytes} of every file in the flash image's filesystem."""
    fs = _mounted(read_image(path)[FILESYSTEM_OFFSET:], blank_ok=False)
    out = {}
    for root, _, names in fs.walk("/"):
        for name in names:
            full = root.rstrip("/") + "/" + name
            with fs.open(full, "rb") as f:
                out[full] = f.read()
    return out
