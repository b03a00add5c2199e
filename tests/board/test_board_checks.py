"""`yariboard board version | ledtest | sensors` against the real firmware on a simulated
board, over its pseudo-terminal opened with pyserial exactly like a real board's port."""
import json
import os
import re
import signal
import subprocess
import sys

import pytest

from boardfw import protocol
from shogicore import Position, variant_by_name
from tests.mpy import FIRMWARE
from yariboard import resources
from yariboard.cli.main import main
from yariboard.cli import board as board_command
from yariboard.sim.board import SimBoard

pytestmark = [pytest.mark.micropython]

YARIBOARD = os.path.join(os.path.dirname(sys.executable), "yariboard")


def board_json(name):
    with open(resources.board_file(name)) as f:
        return json.load(f)


def start_squares(variant):
    position = Position(variant_by_name(variant))
    return {position.variant.square_name(sq) for sq in position.variant.squares if position.piece_at(sq)}


@pytest.fixture(scope="module", params=["yari-9x7", "shogi-9x9"])
def sim(request, tmp_path_factory):
    """One booted board per board file, shared by the checks (each leaves it as it was)."""
    tmp_path = tmp_path_factory.mktemp(request.param)
    with SimBoard(str(tmp_path / "flash"), board=request.param, log_dir=str(tmp_path)) as board:
        board.name = request.param
        yield board


def test_version_names_the_board_variant_firmware_and_protocol(sim, capsys):
    assert main(["board", "version", "--port", sim.port]) == 0
    out = capsys.readouterr().out
    layout = board_json(sim.name)
    with open(os.path.join(FIRMWARE, "boardfw", "__init__.py")) as f:
        firmware = re.search(r'^FIRMWARE_VERSION = "([^"]+)"', f.read(), re.M).group(1)
    assert re.search(r"^board: +%s \(%s\)$" % (re.escape(layout["name"]), re.escape(sim.port)), out, re.M)
    assert re.search(r"^variant: +%s$" % layout["variant"], out, re.M)
    assert re.search(r"^firmware: +%s$" % re.escape(firmware), out, re.M)
    assert re.search(r"^protocol: +%d$" % protocol.PROTOCOL_VERSION, out, re.M)


def closed(out):
    return set(re.search(r"^closed \(\d+\): (.*?)(   still settling: (.*))?$", out, re.M).group(1).split())


def test_sensors_list_the_squares_holding_a_piece_and_the_ones_still_settling(sim, capsys):
    assert main(["board", "sensors", "--port", sim.port]) == 0
    out = capsys.readouterr().out
    squares = start_squares(board_json(sim.name)["variant"])
    assert closed(out) == squares
    layout = board_json(sim.name)
    assert "matrix %d rows x %d columns" % (layout["ranks"], layout["files"]) in out
    lifted = sorted(squares)[0]
    sim.send_commands(["lift " + lifted])
    sim.sync()
    assert main(["board", "sensors", "--port", sim.port]) == 0
    out = capsys.readouterr().out
    assert closed(out) == squares and "still settling: %s" % lifted in out
    sim.advance(200)
    sim.sync()
    assert main(["board", "sensors", "--port", sim.port]) == 0
    assert closed(capsys.readouterr().out) == squares - {lifted}
    sim.send_commands(["place " + lifted])
    sim.advance(200)
    sim.sync()


def test_ledtest_lights_every_led_red_green_blue_then_white(sim, capsys, monkeypatch):
    monkeypatch.setattr(board_command, "LEDTEST_STEP_S", 0.01)
    assert main(["board", "ledtest", "--port", sim.port]) == 0
    assert "red, then green, blue and white" in capsys.readouterr().out
    count = board_json(sim.name)["files"] * board_json(sim.name)["ranks"]
    seen = []
    for _ in range(40):          # the board's clock is virtual: 4 s in steps of 0.1 s
        sim.sync()
        colours = set(sim.leds.values())
        if len(sim.leds) == count and len(colours) == 1:
            lit = tuple(channel > 0 for channel in colours.pop())
            if not seen or seen[-1] != lit:
                seen.append(lit)
        sim.advance(100)
    assert seen[:4] == [(True, False, False), (False, True, False), (False, False, True), (True, True, True)]
    assert len(seen) == 4 or seen[4] == (False, False, False)   # then back to the game


def test_sensors_watch_prints_each_change_until_interrupted(tmp_path):
    with SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)) as sim:
        watch = subprocess.Popen([YARIBOARD, "board", "sensors", "--watch", "--port", sim.port],
                                 stdout=subprocess.PIPE, text=True)
        try:
            lines = [watch.stdout.readline() for _ in range(3)]
            assert lines[2].startswith("closed (28)")
            sim.send_commands(["lift 4i"])
            sim.advance(200)
            sim.sync()
            line = watch.stdout.readline()
            while "settling" in line:
                line = watch.stdout.readline()
            assert line.startswith("closed (27)") and "4i" not in line.split()
        finally:
            watch.send_signal(signal.SIGINT)
            assert watch.wait(timeout=10) == 0


@pytest.mark.parametrize("check", ["version", "ledtest", "sensors"])
def test_no_board_on_the_port_is_one_line_naming_it(tmp_path, capsys, monkeypatch, check):
    monkeypatch.setattr(board_command, "CONNECT_TIMEOUT_S", 0)
    port = str(tmp_path / "ttyNONE")
    assert main(["board", check, "--port", port]) == 1
    err = capsys.readouterr().err
    assert err.startswith("yariboard: error: no board answered on %s" % port)
    assert len(err.strip().splitlines()) == 1
