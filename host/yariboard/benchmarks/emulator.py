"""Figures of the real firmware image on the emulated Pico (rp2040js, MicroPython v1.28.0 UF2).

Memory is read inside the emulated chip: the heap's size (free plus allocated) at the REPL,
then what is free after main.py has imported everything and set up the board, and after a
game of PLIES plies played on the emulated switches. A pin interrupt on a spare GPIO (GP26)
takes the readings while the firmware runs, so its objects are all alive. Budget: >= 128 KB
free after 300 plies. Times are board time from the emulator's cycle count at 125 MHz: lift
to lit destinations after the debounce (budget 50 ms), the board time from one sample of the
switches reaching the RAM to the next (a PIO state machine takes one every 4 ms, DMA carries
it into a ring), and the flash work of the save that follows a move
(erases and page programs, at the W25Q16JV's datasheet typical times).
"""
import os
import shutil
import sys
import tempfile

from shogicore.game import Game
from shogicore.move import is_drop, move_from, to_usi
from yariboard.benchmarks.firmware import long_game
from yariboard.sim.emulator import (HAND_MS, EmulatedPico, EmulatorError, install_firmware,
                                   led_styles, missing_parts)
from yariboard.sim.board import SerialClient, move_gestures

PLIES = int(os.environ.get("YARIBOARD_BENCH_PLIES", "300"))
PROBE_PIN = 26
BUDGET_KB = 128
LIFT_BUDGET_MS = 50

HOOK = ("import gc, machine\r\nM = []\r\ndef _m(p):\r\n    gc.collect()\r\n    M.append(gc.mem_free())\r\n"
        "_p = machine.Pin(%d, machine.Pin.IN)\r\n_p.irq(_m, machine.Pin.IRQ_RISING)\r\nimport main\r\n"
        % PROBE_PIN)


def repl(client, text, until=b">>> ", timeout=120):
    """Send raw bytes to the REPL and collect the reply up to `until`, waiting up to
    `timeout` seconds of the client's clock (the emulator's processor time)."""
    client.serial.reset_input_buffer()
    client.serial.write(text)
    out = b""
    deadline = client.clock() + timeout
    while until not in out:
        if client.clock() > deadline:
            raise EmulatorError("no REPL answer: %r" % out[-200:])
        out += client.serial.read(256)
    return out.decode(errors="replace")


def probe(pico):
    pico.send_commands(["pin %d 1" % PROBE_PIN, "advance 30", "pin %d 0" % PROBE_PIN, "advance 30"])
    pico.sync()


def run():
    why = missing_parts()
    if why:
        print("emulator: not run (%s)" % why)
        return
    folder = tempfile.mkdtemp(prefix="bench-emulator-")
    pico = EmulatedPico(os.path.join(folder, "flash.bin"), log_dir=folder)
    try:
        try:
            install_firmware(pico.flash_path)
        except EmulatorError as error:
            print("emulator: %s" % error)
            return
        pico.start()
        pico.wait_booted(1)          # its USB port is up: what the host sends arrives
        pico.wait_scanning()
        # every wait in the emulator's own processor time: a busy machine slows the board,
        # never fails it (and its REPL, asleep, runs board time far ahead)
        client = SerialClient(pico.port, timeout=300, clock=pico.work_seconds)
        repl(client, b"\x03\x03")
        # main.py is run again below as at power-up: every module imported afresh
        repl(client, b"import gc, sys; [sys.modules.pop(k) for k in list(sys.modules)]\r\n",
             until=b"\r\n>>> ")
        out = repl(client, b"print('HEAP', gc.mem_free() + gc.mem_alloc())\r\n",
                   until=b"\r\n>>> ")
        heap_total = int(out.split("HEAP ")[-1].split()[0])
        mark = len(client.frames)
        client.serial.write(b"\x05" + HOOK.encode() + b"\x04")
        client.wait_for(lambda f: f[1] == "hello", start=mark)   # main.py is running
        probe(pico)
        try:
            run_game(pico, client)
        except (EmulatorError, TimeoutError) as error:
            print("emulator: the %d-ply game stopped: %s" % (PLIES, error))
            if not pico.alive():
                print("emulator: the emulator itself ended: %s" % pico.stderr_text()[-500:])
            for line in pico.errors[-5:]:
                print("emulator reported: %s" % line)
            return
        stats = pico.stats()
        probe(pico)
        out = repl(client, b"\x03\x03", timeout=60)
        out = repl(client, b"print('MEM', M)\r\n", until=b"\r\n>>> ")
        readings = [int(v) for v in out.split("MEM [")[-1].split("]")[0].split(",")]
        report(heap_total, readings, stats, pico)
    finally:
        pico.close()
        shutil.rmtree(folder, ignore_errors=True)


def run_game(pico, client):
    """Play PLIES plies as hands do; return when the last one is announced."""
    game = Game("yari")
    saves = []
    passes = []
    pickups = []
    for number, m in enumerate(long_game(PLIES), 1):
        before = pico.stats()
        if not is_drop(m):
            pickups.append((len(pico.lifts), game.variant.square_name(move_from(m))))
        mark = len(client.frames)
        pico.send_commands(move_gestures(game.position, m, hand_ms=HAND_MS))
        game.play(m)
        frame = client.wait_for(lambda f: f[1] == "move" and f[2][0] == str(number), start=mark)
        if frame[2][1] != to_usi(game.variant, m):
            raise EmulatorError("move %d: the board recorded %s where the hands played %s"
                                % (number, frame[2][1], to_usi(game.variant, m)))
        after = pico.stats()
        passes.append((after["pass_mean_ns"], after["pass_max_ns"]))
        saves.append((number, after["erases"] - before["erases"],
                      after["programs"] - before["programs"], after["chip_ns"] - before["chip_ns"]))
    run_game.saves = saves
    run_game.passes = passes
    run_game.pickups = pickups


def pickup_delays(pico, pickups):
    """Board ms from each move's lift of the moving piece to the frame that lights it, after
    the debounce. The capture's other lift (the taken piece) lights nothing of its own."""
    delays = []
    for first, square in pickups:
        lifted = next((t for t, squares in pico.lifts[first:] if square in squares), None)
        if lifted is None:
            continue
        lit = next((t for t, leds in pico.led_times
                    if t > lifted and led_styles(leds).get(square) == "lifted"), None)
        if lit is not None:
            delays.append((lit - lifted) / 1e6 - pico.config.debounce_ms)
    return delays


def report(heap_total, readings, stats, pico):
    lifts = pickup_delays(pico, run_game.pickups)
    print("emulated Pico: MicroPython v1.28.0 UF2 in rp2040js, board time at 125 MHz")
    print("MicroPython's heap on the Pico: %d bytes" % heap_total)
    print("heap free after imports and board set-up: %d bytes (in use: %d)"
          % (readings[0], heap_total - readings[0]))
    print("heap free after a %d-ply game: %d bytes (in use: %d; budget >= %d KB free: %s)"
          % (PLIES, readings[-1], heap_total - readings[-1], BUDGET_KB,
             "ok" if readings[-1] >= BUDGET_KB * 1024 else "OVER"))
    if lifts:
        print("lift to lit after debounce: mean %.1f ms, max %.1f ms over %d lifts (budget %d ms: %s)"
              % (sum(lifts) / len(lifts), max(lifts), len(lifts), LIFT_BUDGET_MS,
                 "ok" if max(lifts) <= LIFT_BUDGET_MS else "OVER"))
    passes = run_game.passes
    print("from one sample of the switches reaching the RAM to the next: mean %.2f ms, max %.2f ms"
          % (sum(p[0] for p in passes) / len(passes) / 1e6, max(p[1] for p in passes) / 1e6))
    number, erases, programs, chip_ns = run_game.saves[-1]
    print("save after move %d: %d sector erases, %d page programs, %.1f ms of flash chip time"
          % (number, erases, programs, chip_ns / 1e6))
    worst = max(run_game.saves, key=lambda s: s[3])
    print("slowest save: move %d, %d erases, %d programs, %.1f ms of flash chip time"
          % (worst[0], worst[1], worst[2], worst[3] / 1e6))


if __name__ == "__main__":
    sys.exit(run())
