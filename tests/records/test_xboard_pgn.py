"""Wa Shogi in XBoard's PGN dialect: written, read back, and the start FEN checked against
the one CrazyWa itself announces. (CrazyWa ignores an illegal move in force mode without a
word, so it cannot judge our move text; the rules core replays every move read back.)"""
import subprocess

import pytest

from shogicore.variants import variant_by_name
from yariboard.records import formats as exports
from yariboard.records.formats import xboard_pgn
from yariboard.records.game import RecordError

from tests.records.test_records import random_record

pytestmark = [pytest.mark.engine]

CRAZYWA = "/usr/games/crazywa"


def crazywa():
    """CrazyWa's output when asked for Wa Shogi (ending with a ping it answers last)."""
    done = subprocess.run([CRAZYWA], input="\n".join(["xboard", "protover 2", "variant crazywa",
                                                      "ping 9", "quit"]) + "\n",
                          capture_output=True, text=True, timeout=120)
    assert "pong 9" in done.stdout, done.stdout[-500:]
    return done.stdout


def wa_games():
    return [random_record(400 + seed, "wa", max_plies=60) for seed in range(6)]


def test_wa_games_round_trip_through_the_xboard_dialect():
    games = wa_games()
    text = exports.export_games(games, "xboard")
    assert text.count('[Variant "crazywa"]') == len(games)
    for game, back in zip(games, exports.import_games(text, "xboard")):
        assert back.same_game(game)
    # a .pgn file in XBoard's dialect is read as such
    assert [g.usi_moves() for g in exports.import_games(text, "pgn")] == [g.usi_moves() for g in games]


def test_our_start_fen_is_crazywas():
    out = crazywa()
    setup = next(line for line in out.splitlines() if line.startswith("setup "))
    theirs = setup.split(") ", 1)[1].split(" ", 1)[1]          # after the piece table and size
    ours = xboard_pgn.xboard_fen(variant_by_name("wa").start_sfen)
    assert ours.replace("[]", "") == theirs.strip()


def test_other_variants_and_bad_moves_are_refused_in_one_line():
    with pytest.raises(RecordError, match="for Wa Shogi, not yari"):
        exports.export_games([random_record(1, "yari")], "xboard")
    text = exports.export_games(wa_games()[:1], "xboard").replace("1. ", "1. z9z9 ", 1)
    with pytest.raises(RecordError, match=r"^line \d+: move 1 'z9z9' is not legal here"):
        exports.import_games(text, "xboard")
