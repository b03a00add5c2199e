"""The Wa Shogi board on the emulated Pico: its rows are not one run of pins (GP2-GP10, then
GP26 and GP27) and two of its columns are GP28 and GP1, so the PIO program that samples the
matrix skips the columns, LED and buttons between its rows (boardfw/pico_hw.py)."""
import pytest
from shogicore.game import Game
from shogicore.move import move_from, move_to, to_usi
from tests.emulator import Bench, flash_emulator, needs_emulator
from yariboard.sim.board import move_gestures

pytestmark = [needs_emulator, pytest.mark.emulator]


def test_moves_on_the_rows_of_gp26_gp27_and_the_columns_of_gp28_gp1_are_recorded(tmp_path):
    image = str(tmp_path / "flash.bin")
    flash_emulator(image, port="image", variant="wa")
    bench = Bench(image, str(tmp_path), board="wa-11x11")
    try:
        bench.power_up()
        game = Game("wa")
        name = game.variant.square_name
        played = []
        # black's pieces start on ranks i to k: a piece of rank k (GP27) that goes to file 1
        # (GP1) on rank j (GP26) first (2k1j: file 2 is GP28), then one that goes to rank h
        for wanted in (lambda m: name(move_from(m))[-1] == "k" and name(move_to(m)) == "1j",
                       lambda m: name(move_to(m))[-1] == "h"):
            m = next(m for m in game.position.legal_moves() if wanted(m))
            bench.pico.send_commands(move_gestures(game.position, m, hand_ms=40))
            game.play(m)
            played.append(m)
            reply = next(m for m in game.position.legal_moves() if not game.position.piece_at(move_to(m)))
            bench.pico.send_commands(move_gestures(game.position, reply, hand_ms=40))
            game.play(reply)
            played.append(reply)
        bench.pico.send_commands(["advance 500"])
        bench.pico.sync()
        bench.client.request("version")
        assert [args[1] for args in bench.client.events("move")] == \
            [to_usi(game.variant, m) for m in played]
        assert not bench.pico.blind
    finally:
        bench.close()
