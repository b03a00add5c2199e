"""main.py run again in one interpreter on the emulated Pico, as `bench emulator` and a person
at the REPL do: Ctrl-C must leave nothing of the last run sampling (its DMA would write into
a ring that is freed), and the next run must read its own rows, whatever the state machine
left in its FIFO meanwhile (the RP2040 empties it when the program is set up again)."""
import pytest
from shogicore.game import Game
from shogicore.move import move_to, to_usi
from tests.emulator import board, flashed, needs_emulator  # noqa: F401 (fixtures)
from yariboard.benchmarks.emulator import repl
from yariboard.sim.board import SerialClient, move_gestures

pytestmark = [needs_emulator, pytest.mark.emulator]

# the DMA channels still busy (CTRL bit 24) and PIO0's enabled state machines (CTRL bits 0-3)
RUNNING = (b"from machine import mem32; print('RUNNING',"
           b" [c for c in range(12) if mem32[0x50000010 + 0x40 * c] >> 24 & 1],"
           b" mem32[0x50200000] & 15)\r\n")


def running(client):
    """(the busy DMA channels as the REPL prints the list, the mask of PIO0's running machines)"""
    out = repl(client, RUNNING, until=b"\r\n>>> ")
    channels, machines = out.split("RUNNING ")[-1].split("\r\n")[0].rsplit(" ", 1)
    return channels, int(machines)


def test_main_run_again_after_ctrl_c_reads_its_own_rows_and_nothing_of_the_last_run_runs(board):
    # the REPL sleeps between keys and its board time runs ahead: wait in the emulator's work
    board.client = SerialClient(board.pico.port, timeout=300, clock=board.pico.work_seconds)
    board.power_up()
    board.pico.wait_scanning()
    repl(board.client, b"\x03\x03", timeout=60)
    assert running(board.client) == ("[]", 0)
    # the program left in the PIO samples on into its FIFO, which nothing empties now
    repl(board.client, b"import rp2, time; rp2.StateMachine(0).active(1); time.sleep_ms(40)\r\n",
         until=b"\r\n>>> ")
    assert running(board.client) == ("[]", 1)
    repl(board.client, b"import sys; [sys.modules.pop(k) for k in list(sys.modules)]\r\n",
         until=b"\r\n>>> ")
    mark = len(board.client.frames)
    board.client.write_raw(b"import main\r\n")
    board.client.wait_for(lambda f: f[1] == "hello", start=mark)
    game = Game("yari")
    played = []
    for _ in range(2):
        m = next(m for m in game.position.legal_moves() if not game.position.piece_at(move_to(m)))
        board.pico.send_commands(move_gestures(game.position, m, hand_ms=40))
        game.play(m)
        played.append(m)
        board.client.wait_for(lambda f: f[1] == "move" and f[2][0] == str(len(played)), start=mark)
    assert [f[2][1] for f in board.client.frames[mark:] if f[1] == "move"] == \
        [to_usi(game.variant, m) for m in played]
