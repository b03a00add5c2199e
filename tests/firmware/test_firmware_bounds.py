"""What the board does with a request whose text claims far more than its length: a SFEN
rank of eleven nines (docs/protocol.md: every reply fits a frame, every reader is bounded).

Each board is the real firmware: on the MicroPython unix port, and on the emulated Pico
running the real image. A refused request leaves the game as it was and the next request is
answered.
"""
import pytest

from tests.emulator import board as emulated, flashed, needs_emulator  # noqa: F401 (fixtures)
from yariboard.sim.board import SerialClient, SimBoard

pytestmark = [pytest.mark.emulator, pytest.mark.micropython]

HUGE_RUN = "k99999999999/7/7/7/7/7/7/7/3K3 b - 1"
# Before the fix the board walked one square per unit of the run: it never answered again.
# This is the time the board gets for its refusal on the busiest machine, not a speed.
ANSWER_S = 120


def refuses_and_answers_after(client):
    before = client.request("state")
    assert before[0] == "ok"
    kind, words = client.request("setpos", "yari", "casual", *HUGE_RUN.split(),
                                 timeout=ANSWER_S)
    assert kind == "err" and words[0] == "sfen", words
    assert "99" in " ".join(words)            # the message says what is wrong
    assert client.request("state", timeout=ANSWER_S) == before


def test_a_huge_run_of_empty_squares_is_refused_and_the_board_answers_after(tmp_path):
    with SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)) as sim:
        client = SerialClient(sim.port)
        try:
            refuses_and_answers_after(client)
        finally:
            client.close()
        assert "Traceback" not in sim.stderr_text()


@needs_emulator
def test_the_pico_refuses_a_huge_run_and_answers_after(emulated):  # noqa: F811
    emulated.power_up()
    refuses_and_answers_after(emulated.client)
    assert emulated.pico.alive()


@pytest.mark.parametrize("rank", ["k" + "9" * 3000, "k" + "1" * 5000, "9" * 40 + "k"])
def test_long_runs_on_the_unix_port_are_refused_at_once(rank):
    """The firmware's reader on MicroPython: refused with one SfenError, whatever the run."""
    from tests.mpy import run_micropython

    code = ("from shogicore.position import Position\n"
            "from shogicore.errors import SfenError\n"
            "try:\n    Position('yari', %r)\nexcept SfenError as e:\n    print('refused', e)\n"
            % (rank + "/7/7/7/7/7/7/7/3K3 b - 1"))
    _, out, _ = run_micropython(code, timeout=ANSWER_S)
    assert out.startswith("refused rank a has more than 99 squares"), out
