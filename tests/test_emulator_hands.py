"""Quick hands on the real firmware image in the emulated Pico: 40 ms over each action, the
next move's hands starting while the board commits the last one, button taps of 30 ms while
it saves and compacts. `yariboard bench hands` plays the long games at every tempo.
"""
from shogicore.game import Game
from shogicore.move import to_usi
from tests.emulator import board, flashed, needs_emulator  # noqa: F401 (fixtures)
from yariboard.benchmarks import hands
from yariboard.benchmarks.firmware import long_game
from yariboard.simboard import _choices, move_gestures

pytestmark = needs_emulator
NS_PER_MS = 1000000


def test_a_game_played_with_40_ms_hands_is_recorded_move_for_move(flashed, tmp_path):
    # The first 40 moves of the bench's game: captures, a drop, a promotion, a choice.
    tally = hands.play_tempo(flashed[0], 40, 40, str(tmp_path))
    assert (tally.played, tally.recorded, tally.missed, tally.misrecorded) == (40, 40, 0, 0)


def test_30_ms_taps_while_the_board_saves_and_compacts_are_each_honoured(board):
    # After each move a tap of A lands while the board commits it: its save, and at the 32nd
    # entry the compaction of the record. A short press of A with nothing to confirm asks
    # the PC for a hint, one `hint-request` frame per press.
    board.power_up()
    pico, client = board.pico, board.client
    game = Game("yari")
    taps = 0
    for m in long_game(34, seed=5):
        gestures = move_gestures(game.position, m, hand_ms=40)
        if len(_choices(game.position, m)) == 1:
            # the last change settles about 22 ms after the piece lands, the move 300 ms
            # later: the tap goes down as the commit begins and lasts 30 ms
            assert gestures[-1] == "advance 340"
            gestures[-1:] = ["advance 320", "press A", "advance 30", "release A", "advance 300"]
            taps += 1
        pico.send_commands(gestures)
        game.play(m)
    pico.send_commands(["advance 1000"])
    pico.sync(timeout=3600)            # (a busy machine is slow, never wrong)
    client.request("version")          # answered after every frame the moves caused
    moves = [args[1] for args in client.events("move")]
    assert moves == [to_usi(game.variant, m) for m in long_game(34, seed=5)]
    assert len(client.events("hint-request")) == taps >= 25
    # Between two readings of the switches: never over 20 ms but for the flash chip's work
    assert pico.blind, "the saves stop the CPU: some stretch is expected"
    assert all(end - start - chip_ns <= 20 * NS_PER_MS for start, end, chip_ns in pico.blind)
