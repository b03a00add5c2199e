"""The simulated board's start-up on the unix port: main.py's command line read into the
board, its simulated hardware and its store (docs/simulator.md).

Apart from sim_hw.py because it runs once: main.py unloads it after, as the Pico's own
start-up leaves nothing behind either, and the heap figures are taken on this board.
"""
import sys

from boardfw.sim_hw import SimHardware


def from_command_line(argv, load_board):
    """(board, SimHardware, GameStore or None) from main.py's command line on the unix port:
    --board PATH --storage DIR [--control PATH --report PATH] [--clock virtual|real]
    [--slow-save-ms N]. `load_board` reads the board file as main.py does on the Pico."""
    options = {"--clock": "virtual", "--slow-save-ms": "0"}
    for i in range(1, len(argv) - 1, 2):
        options[argv[i]] = argv[i + 1]
    config = load_board(options["--board"])
    control = open(options["--control"], "rb") if "--control" in options else None
    report = open(options["--report"], "wb") if "--report" in options else None
    hw = SimHardware(config, options["--storage"], control, report,
                     virtual_clock=options["--clock"] == "virtual")
    hw.watch(sys.stdin.buffer)
    slow_ms = int(options["--slow-save-ms"])
    if not slow_ms:
        return config, hw, None
    from boardfw.sim_slow_flash import slow_opener
    from boardfw.storage import GameStore

    return config, hw, GameStore(hw.storage_dir, slow_opener(slow_ms))
