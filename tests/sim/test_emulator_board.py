"""The real firmware image on the emulated Pico (rp2040js running the stock MicroPython UF2):
deployed by `make flash PORT=emulator` (mpremote) and written into its filesystem on the
host, played with noisy hands on the emulated reed switches, its LEDs read back from the
decoded WS2812 stream, its power cut in the middle of a save.

The default run plays a short sample; `make test-slow` plays long games and many cuts.
"""
import os
import re
import random
import subprocess
import sys

import pytest

from shogicore.game import Game
from shogicore.move import is_drop, move_from, to_usi
from tests.emulator import board, flash_emulator, flashed, needs_emulator  # noqa: F401 (fixtures)
from tests.oracles import fsf_legal_usi
from yariboard.sim.emulator import HAND_MS, MICROPYTHON_VERSION, led_styles
from tools.pico_filesystem import read_files
from yariboard.sim.board import move_gestures, occupied_squares

pytestmark = [needs_emulator, pytest.mark.emulator]


def test_make_flash_deploys_through_mpremote_and_the_pico_reboots_into_main(flashed, tmp_path):
    """The deployment a user runs, copied over the USB serial port by mpremote; its files
    are the very ones the other tests and the simulator write into the filesystem on the
    host (tools/pico_filesystem.py), read back from both flash images by littlefs."""
    image = str(tmp_path / "flash.bin")
    output = flash_emulator(image)
    assert "micropython-v%s-RPI_PICO.uf2" % MICROPYTHON_VERSION in output
    assert "cp firmware/main.py :main.py" in output
    assert "rebooted into main.py" in output
    copied, written = read_files(image), read_files(flashed[0])
    assert "/main.py" in copied and "/boardfw/interpreter.mpy" in copied
    assert copied == written


def destinations_lit(pico):
    return sorted(sq for sq, style in led_styles(pico.leds).items() if style == "destination")


def oracle_destinations(variant, start_sfen, played, square):
    """Fairy-Stockfish's legal destinations of the piece on `square` (USI squares)."""
    legal = fsf_legal_usi(variant, start_sfen, played)
    return sorted({m[2:4] for m in legal if m[:2] == square})


def play_noisy_game(bench, seed, plies):
    """Random legal moves carried out with noisy hands; each lifted piece's lit destinations
    are checked against the oracle first. Returns the game and the USI moves played."""
    rng = random.Random(seed)
    pico, client = bench.pico, bench.client
    game = Game("yari")
    start = game.position.sfen()
    played = []
    for _ in range(plies):
        if game.result:
            break
        m = rng.choice(game.position.legal_moves())
        if not is_drop(m):
            frm = game.variant.square_name(move_from(m))
            pico.send_commands(["lift " + frm, "advance 120"])
            pico.sync()
            assert destinations_lit(pico) == oracle_destinations(game.variant, start, played, frm), frm
            pico.send_commands(["place " + frm, "advance 450"])
        mark = len(client.frames)
        pico.send_commands(move_gestures(game.position, m, rng, hand_ms=HAND_MS))
        game.play(m)
        played.append(to_usi(game.variant, m))
        frame = client.wait_for(lambda f: f[1] == "move", start=mark, timeout=180)
        assert frame[2][:2] == [str(len(played)), played[-1]]
        assert " ".join(frame[2][2:]) == game.position.sfen()
    return game, played


def board_history(client):
    kind, words = client.request("state", timeout=120)
    assert kind == "ok"
    ply = int(words[3])
    moves = []
    while len(moves) < ply:
        kind, words = client.request("history", str(len(moves) + 1), timeout=120)
        assert kind == "ok"
        moves += words[2:]
    return moves


def check_noisy_game(bench, seed, plies):
    bench.power_up()
    game, played = play_noisy_game(bench, seed, plies)
    assert board_history(bench.client) == played
    assert not bench.pico.errors
    return game, played


def test_noisy_game_on_the_emulated_switches_is_recorded_exactly_with_the_right_leds(board):
    check_noisy_game(board, seed=5, plies=4)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12])
def test_long_noisy_games_on_the_emulated_pico(board, seed):
    check_noisy_game(board, seed=seed, plies=30)


def cut_and_reboot(bench, cut, rng, game, played):
    """Make the next move with a power cut scheduled by `cut(pico)`, reboot on the same flash
    and check nothing the board had announced is lost and nothing is there twice."""
    pico, client = bench.pico, bench.client
    m = rng.choice(game.position.legal_moves())
    mark = len(client.frames)
    cut(pico)
    pico.send_commands(move_gestures(game.position, m, rng, hand_ms=HAND_MS))
    intended = played + [to_usi(game.variant, m)]
    cut_at = pico.wait_cut()
    assert cut_at is not None
    client.pump()
    announced = [f[2][1] for f in client.frames[mark:] if f[1] == "move"]
    pieces = set(pico.occupied)
    bench.pico.occupied = pieces                 # the hands left the pieces where they were
    bench.power_up()
    saved = board_history(client)
    assert saved == intended[:len(saved)]        # a prefix of the game: nothing twice
    assert len(saved) >= len(played) + len(announced)   # nothing announced is lost
    assert len(saved) >= len(played)
    return m, saved


def test_power_cut_in_the_middle_of_the_saves_flash_write_loses_nothing(board):
    game, played = check_noisy_game(board, seed=8, plies=1)
    rng = random.Random(3)
    fraction = rng.random()
    m, saved = cut_and_reboot(board, lambda pico: pico.cut_in_flash_operation(0, fraction),
                              rng, game, played)
    # the cut came during the save's first flash write: the move was not announced, and
    # the board holds the game before it or after it, whole
    assert saved in (played, played + [to_usi(game.variant, m)])


@pytest.mark.slow
def test_power_cuts_at_random_instruction_counts(board):
    rng = random.Random(21)
    game, played = check_noisy_game(board, seed=9, plies=1)
    for _ in range(12):
        cycles = rng.randrange(1, 125_000_000)          # within a second of board time
        if rng.random() < 0.5:
            # the save may take fewer flash operations than asked for: then the power goes
            # three seconds of board time on, after the move
            cut = lambda pico: (pico.cut_in_flash_operation(rng.randrange(3), rng.random()),
                                pico.cut_after(3 * 125_000_000))
        else:
            cut = lambda pico: pico.cut_after(cycles)
        m, saved = cut_and_reboot(board, cut, rng, game, played)
        if len(saved) > len(played):
            game.play(m)
            played = saved
        else:   # the move was lost with the power: put the pieces back as the board lights
            game = Game("yari")
            for usi in played:
                game.play_usi(usi)
            kind, _ = board.client.request("state")
            assert kind == "ok"
            board.pico.send_commands(["set " + " ".join(occupied_squares("yari", game.position.sfen())),
                                      "advance 500"])
            board.pico.sync()


def test_yariboard_sim_plays_through_the_emulated_pico(tmp_path):
    script = tmp_path / "moves.txt"
    script.write_text("move 7g7f\nmove 4c4d\n")
    proc = subprocess.run([sys.executable, "-m", "yariboard.cli.main", "--db", str(tmp_path / "a.db"),
                           "sim", "--emulator", "--storage", str(tmp_path / "flash"),
                           "--script", str(script)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1. P-7f" in proc.stdout and "P-4d" in proc.stdout
    # read back from the decoded WS2812 frames: the legend lists the last move's squares
    assert re.search(r"the previous move \(from and to\): 4c,? 4d", proc.stdout), proc.stdout
    assert os.path.getsize(tmp_path / "flash" / "flash.bin") == 2 * 1024 * 1024


def test_yariboard_play_against_the_engine_through_the_emulated_pico(tmp_path):
    """`play --sim --emulator` at a terminal: the person's move on the emulated switches, the
    engine's move lit by the Pico's LEDs and carried out as they order, then a resignation;
    the archive holds the game as played."""
    from tests.ui.test_terminal_play import Terminal, carry_out_engine_move, status, yariboard_command
    from yariboard.records.archive import Archive

    db = str(tmp_path / "games.sqlite3")
    # the emulated Pico's flash image is kept in a new folder under TMPDIR
    env = dict(os.environ, TERM="xterm", COLUMNS="80", LINES="50", TMPDIR=str(tmp_path))
    # its waits in the processor time of yariboard and the emulator: a busy machine slows them
    term = Terminal([yariboard_command(), "--db", db, "play", "--sim", "--emulator", "--new",
                     "--level", "1", "--seconds", "0.3"], env=env, work_clock=True)
    try:
        term.wait_for(lambda s: "Black to move" in status(s), seconds=300, what="the start")
        term.type("move 7g7f")
        screen = carry_out_engine_move(term, 1)
        assert "1. P-7f" in screen
        term.type("resign")
        term.wait_for(lambda s: "White wins (resignation)" in s, seconds=60, what="the resignation")
        term.read(3)
        assert term.process.wait() == 0
    finally:
        term.close()
    assert "Traceback" not in term.output
    # the flash image stays, as a Pico keeps its flash; nothing else of ours is left behind
    left = [name for name in os.listdir(tmp_path)     # (tsx-*: Node's compile cache)
            if name != "games.sqlite3" and not name.startswith("tsx-")]
    assert len(left) == 1 and left[0].startswith("yariboard-emulator-"), left
    with Archive(db) as archive:
        record = archive.game(max(archive.ids()))
    assert record.usi_moves()[0] == "7g7f" and len(record.usi_moves()) == 2
    assert fsf_legal_usi(Game("yari").variant, record.start_sfen, record.usi_moves()[:1]) >= {record.usi_moves()[1]}
    assert (record.winner, record.reason) == ("white", "resignation")
