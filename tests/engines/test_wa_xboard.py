"""The XBoard client (yariboard.engines.xboard) as an engine for Wa Shogi with drops: it plays legal
moves, says clearly when the engine is missing, cannot play the variant, breaks or dies."""
import os
import random
import re
import stat
import sys

import pytest

from shogicore import Position
from yariboard.engines.base import Limit
from shogicore.move import to_usi
from yariboard.engines.xboard import (EngineDied, XBoardEngine, XBoardError, find_crazywa,
                                      usi_to_xboard)

pytestmark = [pytest.mark.engine]

needs_crazywa = pytest.mark.skipif(not find_crazywa() and not os.environ.get("CI"),
                                   reason="crazywa is not installed (apt-get install crazywa)")


@needs_crazywa
def test_crazywa_answers_with_legal_moves_along_a_game():
    # CrazyWa plays Black, a seeded random player White. A position that crashes the engine
    # twice, or an answer that drops a piece Black does not hold (CrazyWa 1.0.5 does both,
    # see test_wa_oracle.py), ends the game; any other illegal answer fails.
    rng = random.Random(7)
    position = Position("wa")
    answered = died = 0
    with XBoardEngine(variant="wa") as engine:
        assert engine.name.startswith("CrazyWa")
        while position.plies < 40 and not position.status():
            if position.side == 0:
                try:
                    result = engine.search(position, Limit(depth=2))
                except EngineDied:
                    died += 1
                    break
                except XBoardError as e:
                    assert re.search(r"illegal move [A-Z]@", str(e)), e
                    held = position.sfen().split()[2]
                    assert re.search(r"\(([A-Z])\*", str(e)).group(1) not in held, e
                    died += 1
                    break
                assert result.move is not None and position.is_legal(result.move)
                assert result.pv and result.pv[0] == result.move
                position.push(result.move)
                answered += 1
            else:
                position.push(rng.choice(position.legal_moves()))
        pid = engine.pid
    assert answered >= 8, (answered, died)
    assert engine.pid is None
    if pid is not None:
        with pytest.raises(OSError):
            os.kill(pid, 0)                   # the process is gone


@needs_crazywa
def test_a_search_with_a_time_limit_answers_in_time():
    with XBoardEngine(variant="wa") as engine:
        result = engine.search(Position("wa"), Limit(time=0.5))
    assert result.move is not None and result.seconds < 5


@needs_crazywa
@pytest.mark.parametrize("variant", ["yari", "wa-nodrops"])
def test_an_engine_without_the_variant_is_refused(tmp_path, variant):
    with pytest.raises(XBoardError, match=r"no XBoard engine is set up for %s \(only: wa\)"
                       % variant):
        XBoardEngine(variant=variant)


def test_a_missing_engine_says_how_to_get_it(tmp_path):
    with pytest.raises(XBoardError, match="apt-get install crazywa"):
        XBoardEngine(str(tmp_path / "no-such-engine"), variant="wa")


def _fake_engine(tmp_path, body):
    path = tmp_path / "fake-engine"
    path.write_text("#!%s\nimport sys\n%s\n" % (sys.executable, body))
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


FEATURES = ('print("feature myname=\\"Fake\\" variants=\\"crazywa\\" done=1", flush=True)\n')


def test_an_engine_that_plays_an_illegal_move_is_caught(tmp_path):
    body = FEATURES + (
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if w and w[0] == 'ping': print('pong', w[1], flush=True)\n"
        "    if w and w[0] == 'go': print('move a1a5', flush=True)\n")
    with XBoardEngine(_fake_engine(tmp_path, body), variant="wa") as engine:
        with pytest.raises(XBoardError, match="illegal move a1a5"):
            engine.search(Position("wa"), Limit(depth=1))


def test_an_engine_that_dies_is_reported_with_its_exit_code(tmp_path):
    body = FEATURES + (
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if w and w[0] == 'ping': print('pong', w[1], flush=True)\n"
        "    if w and w[0] == 'go': sys.exit(3)\n")
    with XBoardEngine(_fake_engine(tmp_path, body), variant="wa") as engine:
        with pytest.raises(XBoardError, match=r"exited \(code 3\)"):
            engine.search(Position("wa"), Limit(depth=1))
        assert engine.restarts == 1             # one fresh start, then it gave up


def test_an_engine_that_does_not_offer_the_variant_is_refused(tmp_path):
    body = ('print("feature variants=\\"shogi\\" done=1", flush=True)\n'
            "for line in sys.stdin: pass\n")
    with pytest.raises(XBoardError, match="does not offer variant 'crazywa'"):
        XBoardEngine(_fake_engine(tmp_path, body), variant="wa")


def test_a_silent_engine_times_out(tmp_path):
    body = "for line in sys.stdin: pass\n"
    with pytest.raises(XBoardError, match="did not send its features within 0.5 s"):
        XBoardEngine(_fake_engine(tmp_path, body), variant="wa", startup_timeout=0.5)


def test_a_game_that_kills_the_engine_is_asked_again_as_the_position_alone(tmp_path):
    """CrazyWa 1.0.5 crashes on some games replayed move by move; the second try shows it
    the position by setboard, without the moves."""
    position = Position("wa")
    position.push(position.legal_moves()[0])
    reply = position.legal_moves()[0]
    wanted = usi_to_xboard(position.variant, to_usi(position.variant, reply))
    body = FEATURES + (
        "for line in sys.stdin:\n"
        "    w = line.split()\n"
        "    if w and w[0] == 'ping': print('pong', w[1], flush=True)\n"
        "    if w and w[0] == 'usermove': sys.exit(11)\n"
        "    if w and w[0] == 'go': print('move %s', flush=True)\n" % wanted)
    with XBoardEngine(_fake_engine(tmp_path, body), variant="wa") as engine:
        result = engine.search(position, Limit(depth=1))
        assert result.move == reply
        assert engine.restarts == 1
