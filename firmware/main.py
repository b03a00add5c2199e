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

# Collect garbage each time a 24th of the heap has been allocated (10 KB on the Pico, under
# 3 KB in the 64 KB the firmware is held to). Left to pile up until the heap is full,
# garbage pushes the allocations that stay (loaded code, a game's history) into scattered
# holes, and a long game then fails for want of one contiguous block while kilobytes are
# free in crumbs: the smaller the heap, the sooner it must be collected. A collection takes
# longer the larger the heap, so a large one is collected less often. (Every name in this
# file costs RAM too, as it is compiled on the board: the constants here are written out.)
gc.threshold((gc.mem_free() + gc.mem_alloc()) // 24)


def load_board(path):
    """The checked board file; the checker is then unloaded, as it runs once per power-up.
    The variant's move tables are built here too, before anything else takes up RAM."""
    import boardfw.config

    board = boardfw.config.load(path)
    boardfw.unload("boardfw.config")
    from shogicore.variants import variant_by_name

    variant_by_name(board.variant)
    return board


def log_crash(e):
    """A fault must not end the game: log it where it cannot garble the serial link."""
    # (the stubs type print_exception's file as IOBase_mp; any stream works)
    if sys.platform == "rp2":
        with open("/crash.txt", "a") as log:
            sys.print_exception(e, log)  # type: ignore[arg-type]
    else:
        sys.print_exception(e, sys.stderr)  # type: ignore[arg-type]


def main():
    # The board file first: its checker comes and goes before the rest takes up RAM.
    if sys.platform == "rp2":
        from boardfw.pico_hw import PicoHardware

        config = load_board("/board.json")
        hw, store = PicoHardware(config), None
    else:  # the unix port: the simulated board, set up by its command line (docs/simulator.md)
        import boardfw.sim_start

        config, hw, store = boardfw.sim_start.from_command_line(sys.argv, load_board)
        boardfw.unload("boardfw.sim_start")
    from boardfw.controller import Controller
    from boardfw.serial_link import SerialLink

    link = SerialLink()
    gc.collect()   # clear what loading left behind before the game takes its share of RAM
    try:
        while True:
            try:
                hw.controller = Controller(hw, config, link, store)  # sim_hw reports what it lights
                hw.controller.run()
            except Exception as e:  # KeyboardInterrupt is not an Exception: Ctrl-C still stops
                log_crash(e)
                time.sleep_ms(1000)  # a pause, then start again from the saved game
    finally:
        if sys.platform == "rp2":
            hw.stop()   # its interrupt and DMA would outlive this run


try:
    main()
except Exception as e:  # before the loop could run: a bad board file, too little memory
    log_crash(e)
    raise
