"""Quick hands on the real firmware image in the emulated Pico: 40 ms over each action, the
next move's hands starting while the board commits the last one, button taps of 30 ms while
it saves and compacts. `yariboard bench hands` plays the long games at every tempo.
"""
import pytest
from shogicore.game import Game
from shogicore.move import to_usi
from tests.emulator import board, flashed, needs_emulator  # noqa: F401 (fixtures)
from yariboard.benchmarks import hands
from yariboard.benchmarks.firmware import long_game
from yariboard.sim.board import move_gestures

pytestmark = [needs_emulator, pytest.mark.emulator]
NS_PER_MS = 1000000


def test_a_game_played_with_40_ms_hands_is_recorded_move_for_move(flashed, tmp_path):
    # The first 40 moves of the bench's game: captures, a drop, a promotion, a choice.
    tally = hands.play_tempo(flashed[0], 40, 40, str(tmp_path))
    assert (tally.played, tally.recorded, tally.missed, tally.misrecorded) == (40, 40, 0, 0)


def test_30_ms_taps_while_the_board_saves_and_compacts_are_each_honoured_unless_blind(board):
    # After each move a tap of A lands while the board commits it: its save, and at the 32nd
    # entry the compaction of the record. A short press of A with nothing to confirm asks
    # the PC for a hint: one `hint-request PLY` frame per press. Every tap is honoured, but
    # for one the flash chip's erase hid (the processor stops then: docs/emulator.md).
    board.power_up()
    pico, client = board.pico, board.client
    game = Game("yari")
    tapped = []                        # per move, the ply after which its tap came, or None
    for m in long_game(34, seed=5):
        gestures = move_gestures(game.position, m, hand_ms=40)
        game.play(m)
        tapped.append(None)            # (a choice asked: it is confirmed with a press of A)
        if gestures[-1] == "advance 340":   # no choice asked: the move is in 340 ms on
            # the last change settles about 22 ms after the piece lands, the move 300 ms
            # later: the tap goes down as the commit begins and lasts 30 ms
            gestures[-1:] = ["advance 320", "press A", "advance 30", "release A", "advance 300"]
            tapped[-1] = game.position.plies
        pico.send_commands(gestures)
    pico.send_commands(["advance 1000"])
    pico.sync()
    client.request("version")          # answered after every frame the moves caused
    moves = [args[1] for args in client.events("move")]
    assert moves == [to_usi(game.variant, m) for m in long_game(34, seed=5)]
    honoured = [int(args[0]) for args in client.events("hint-request")]
    # the presses of A as the emulator made them, one a move: its tap or its choice's A
    edges = [t for t, _, names in pico.buttons if names == ["A"]]
    presses = list(zip(edges[::2], edges[1::2]))
    assert len(presses) == len(tapped)
    taps = [press for press, ply in zip(presses, tapped) if ply is not None]
    tapped = [ply for ply in tapped if ply is not None]
    assert len(taps) >= 25
    # a tap that overlaps a stretch without readings may be hidden (wholly, or so much of it
    # that what is left is shorter than the debounce); every other one is honoured, once
    blinded = [ply for ply, (down, up) in zip(tapped, taps)
               if any(start < up and down < end for start, end, _ in pico.blind)]
    assert len(honoured) == len(set(honoured)) and set(honoured) <= set(tapped)
    assert set(tapped) - set(blinded) <= set(honoured)
    assert len(blinded) <= len(tapped) // 4
    # Between two readings of the switches: never over 20 ms but for the flash chip's work
    assert pico.blind, "the saves stop the CPU: some stretch is expected"
    assert all(end - start - chip_ns <= 20 * NS_PER_MS for start, end, chip_ns in pico.blind)
