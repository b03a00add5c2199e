"""Yari Board firmware: the Pico runs this file at power-up.

What happens, in order:
1. the board file /board.json says which pins, matrix layout and LED chain this board has;
2. the last saved game is loaded from flash (or a new game starts);
3. the controller loop scans the pieces, reads the buttons, talks to the PC over USB and
   lights the squares, saving every move before it announces it.

To update the firmware, `make flash` (mpremote interrupts this loop with Ctrl-C, which is
left enabled for exactly that). The same file runs on the MicroPython unix port with a
simulated board: `micropython main.py --board B.json --storage DIR --control C --report R`
(see docs/simulator.md).
"""
import gc
import sys
import time
from micropython import const

CRASH_LOG = "/crash.txt"
_RESTART_PAUSE_MS = const(1000)


def load_board(path):
    """The checked board file; the checker is then unloaded, as it runs once per power-up.
    The variant's move tables are built here too, before anything else takes up RAM."""
    from boardfw import config as board_config

    board = board_config.load(path)
    del sys.modules["boardfw.config"]
    delattr(sys.modules["boardfw"], "config")
    from shogicore.variants import variant_by_name

    variant_by_name(board.variant)
    return board


def pico_board():
    from boardfw.pico_hw import PicoHardware

    config = load_board("/board.json")
    return config, PicoHardware(config), None


def simulated_board(argv):
    """--board PATH --storage DIR [--control PATH --report PATH] [--clock virtual|real]
    [--slow-save-ms N]"""
    from boardfw import sim_hw
    from boardfw.storage import GameStore

    options = {"--clock": "virtual", "--slow-save-ms": "0"}
    for i in range(1, len(argv) - 1, 2):
        options[argv[i]] = argv[i + 1]
    config = load_board(options["--board"])
    control = open(options["--control"], "rb") if "--control" in options else None
    report = open(options["--report"], "wb") if "--report" in options else None
    hw = sim_hw.SimHardware(config, options["--storage"], control, report,
                            virtual_clock=options["--clock"] == "virtual")
    hw.watch(sys.stdin.buffer)
    slow_ms = int(options["--slow-save-ms"])
    store = None
    if slow_ms:
        from boardfw.sim_slow_flash import slow_opener

        store = GameStore(hw.storage_dir, slow_opener(slow_ms))
    return config, hw, store


def log_crash(error):
    """A fault must not end the game: log it where it cannot garble the serial link."""
    # (the stubs type print_exception's file as IOBase_mp; any stream works)
    if sys.platform == "rp2":
        with open(CRASH_LOG, "a") as log:
            sys.print_exception(error, log)  # type: ignore[arg-type]
    else:
        sys.print_exception(error, sys.stderr)  # type: ignore[arg-type]


def main():
    # The board file first: its checker comes and goes before the rest takes up RAM.
    config, hw, store = pico_board() if sys.platform == "rp2" else simulated_board(sys.argv)
    from boardfw.controller import Controller
    from boardfw.serial_link import SerialLink

    link = SerialLink()
    gc.collect()   # clear what loading left behind before the game takes its share of RAM
    while True:
        try:
            Controller(hw, config, link, store).run()
        except Exception as error:  # KeyboardInterrupt is not an Exception: Ctrl-C still stops
            log_crash(error)
            time.sleep_ms(_RESTART_PAUSE_MS)  # then start again from the saved game


try:
    main()
except Exception as fault:  # before the loop could run: a bad board file, too little memory
    log_crash(fault)
    raise
