"""tools/pico_filesystem.py: the Pico's littlefs written on the host keeps what a redeploy
keeps (the saved game) and drops what it removes (a module of an earlier deploy); what it
writes is read back byte for byte, and the firmware part of the flash is left as it was.
(tests/sim/test_emulator_board.py boots it on the emulated Pico and holds it to what
mpremote copies.)"""
from tools.pico_filesystem import FILESYSTEM_OFFSET, read_files, read_image, write_files


def test_a_redeploy_replaces_the_modules_and_keeps_the_saved_game(tmp_path):
    image = str(tmp_path / "flash.bin")
    firmware = bytes(range(256)) * 16
    with open(image, "wb") as f:           # the UF2's part of the flash, then nothing
        f.write(firmware)
    write_files(image, {"/main.py": b"import boardfw\n", "/boardfw/old.mpy": b"M\x06",
                        "/game.txt": b"yari casual 7g7f\n"})
    write_files(image, {"/main.py": b"import boardfw  # v2\n", "/boardfw/new.mpy": b"M\x06\x00"},
                clean=["/boardfw", "/shogicore"])
    assert read_files(image) == {"/main.py": b"import boardfw  # v2\n",
                                 "/boardfw/new.mpy": b"M\x06\x00",
                                 "/game.txt": b"yari casual 7g7f\n"}
    flash = read_image(image)
    assert len(flash) == 2 * 1024 * 1024
    assert flash[:len(firmware)] == firmware
    assert set(flash[len(firmware):FILESYSTEM_OFFSET]) == {0xff}   # erased, untouched
