"""Quick hands on the real firmware image in the emulated Pico: 40 ms over each action, the
next move's hands starting while the board commits the last one, button taps of 30 ms while
it saves and compacts. `yariboard bench hands` plays the long games at every tempo.
"""
import random

import pytest
from shogicore.game import Game
from shogicore.move import move_to, to_usi
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


def test_30_ms_taps_while_the_board_saves_and_compacts_are_each_honoured(board):
    # After each move a tap of A lands while the board commits it: its save, and at the 32nd
    # entry the compaction of the record. A short press of A with nothing to confirm asks
    # the PC for a hint: one `hint-request PLY` frame per press. The PIO samples the buttons
    # while the flash chip stops the processor, so every tap is honoured.
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
    tapped = [ply for ply in tapped if ply is not None]
    assert len(tapped) >= 25
    assert honoured == tapped          # each once, in order
    # the flash chip erased meanwhile, and yet the samples reached the RAM every 4 ms
    assert pico.erases
    assert not pico.blind
    assert pico.stats()["pass_longest_ns"] <= 4 * NS_PER_MS + NS_PER_MS // 100


def _inside(erases, *times):
    return any(all(start < t < end for t in times) for start, end in erases)


def _plain(position, captures):
    """The moves of `position` whose hands only lift and put down (no choice asked), with
    their gestures: the captures, or the other moves."""
    out = []
    for m in position.legal_moves():
        gestures = move_gestures(position, m, hand_ms=40)
        lifts = [g for g in gestures if g.startswith("lift")]
        if gestures[-1] == "advance 340" and len(lifts) == (2 if captures else 1):
            out.append((m, gestures))
    return out


def test_a_capture_and_a_tap_made_wholly_inside_flash_erases_are_recorded(board):
    # The board's record keeping erases a sector now and then, in a move's commit. After
    # each move the hands arm the next erase with a capture: 2 ms into it the victim is
    # lifted, 4 ms into it the capturing piece, and 38 ms into it that piece is put down on
    # the victim's square (the erase lasts 45 ms, the victim's square is empty for 34). Once
    # that has happened, at a later erase A is tapped likewise, for 35 ms. The processor
    # stops for each erase; the PIO samples on, and both count.
    board.power_up()
    pico, client = board.pico, board.client
    game = Game("yari")
    rng = random.Random(7)
    played = []
    inside_capture = inside_tap = None
    while inside_tap is None and len(played) < 80:
        m, gestures = rng.choice(_plain(game.position, captures=False))
        game.play(m)
        played.append(m)
        captures = _plain(game.position, captures=True)
        if inside_capture is None and captures:
            capture, capture_gestures = captures[0]
            victim = "lift " + game.variant.square_name(move_to(capture))
            mover = [g for g in capture_gestures if g.startswith("lift") and g != victim][0]
            armed = ["erasing 1 2 " + victim, "erasing 1 4 " + mover,
                     "erasing 1 38 place " + victim.split()[1]]
        elif inside_capture is not None:
            armed = ["erasing 1 3 press A", "erasing 1 38 release A"]
        else:
            armed = []
        erases = len(pico.erases)
        pico.send_commands(armed + gestures + ["advance 600", "disarm"])
        pico.sync()
        erased = pico.erases[erases:]
        if not (armed and erased):
            continue
        assert all(end - start > 38 * NS_PER_MS for start, end in erased)
        if inside_capture is None:
            lifted = [t for t, squares in pico.lifts if squares == victim.split()[1:]]
            assert _inside(erased, lifted[-1])
            game.play(capture)
            played.append(capture)
            inside_capture = len(played)
            pico.send_commands(["advance 400"])
            pico.sync()
        else:
            down, up = [t for t, _, names in pico.buttons if names == ["A"]][-2:]
            assert _inside(erased, down, up)
            inside_tap = len(played)
    assert inside_capture is not None and inside_tap is not None, "no erase came"
    client.request("version")          # answered after every frame the moves caused
    assert [args[1] for args in client.events("move")] == [to_usi(game.variant, m) for m in played]
    assert [int(args[0]) for args in client.events("hint-request")] == [inside_tap]
