"""The USI adapter against a real engine: Debian's fairy-stockfish (standard shogi over USI).

Games are replayed through python-shogi as an independent referee, engine failures are
provoked for real (killed process, programs that do not speak USI), and no engine process
may be left behind.
"""
import os
import random
import shutil
import signal
import threading

import pyffish
import pytest
import shogi

from shogicore.move import move_to, to_usi
from yariboard.engines.fsf_notation import usi_to_uci
from shogicore.position import Position
from shogicore.variants import BLACK, SHOGI, WHITE, YARI

from yariboard.engines import usi
from yariboard.engines.base import MATE_BOUND, MATE_SCORE, Limit
from yariboard.engines.builtin.search import Engine
from yariboard.engines.players import play_game
from yariboard.engines.usi import (UsiEngine, UsiError, collect_info, parse_option_line,
                           position_command)

pytestmark = [pytest.mark.engine]

FAIRY = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
# Skipped (and reported so) on a machine without the engine; never in CI, which installs it.
needs_fairy = pytest.mark.skipif(not os.access(FAIRY, os.X_OK) and not os.environ.get("CI"),
                                 reason="Debian package fairy-stockfish is not installed")

MATE_IN_1 = "k8/3R5/3B5/9/7P1/9/9/9/2K6 b NP 3"


def engine_children():
    """Our child processes that are (or were, as zombies) a fairy-stockfish."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        if ppid == os.getpid() and "fairy" in name:
            found.append(int(entry))
    return found


def referee_replay(moves_usi, sfen=None):
    """Replay a game with python-shogi; every move must be legal there too."""
    board = shogi.Board(sfen) if sfen else shogi.Board()
    for text in moves_usi:
        move = shogi.Move.from_usi(text)
        assert board.is_legal(move), "python-shogi rejects %s after %s" % (text, board.sfen())
        board.push(move)
    return board


@pytest.fixture
def fairy():
    engine = UsiEngine(FAIRY, SHOGI)
    yield engine
    engine.close()
    assert not engine_children()


@needs_fairy
def test_handshake_reads_identity_and_options(fairy):
    assert "Fairy-Stockfish" in fairy.name
    assert fairy.author
    assert fairy.options["UCI_Variant"].type == "combo"
    assert "shogi" in fairy.options["UCI_Variant"].choices
    assert fairy.options["Hash"].type == "spin"


@needs_fairy
def test_complete_game_against_the_built_in_engine():
    with UsiEngine(FAIRY, SHOGI) as fairy:
        outcome = play_game(fairy, Engine(seed=1), variant=SHOGI, limit=Limit(time=0.05),
                            max_plies=300)
    assert outcome.reason in ("mate", "resignation", "repetition", "perpetual-check",
                              "adjudication")
    moves = [to_usi(SHOGI, m) for m in outcome.moves]
    board = referee_replay(moves)
    if outcome.reason == "mate":
        assert not any(True for _ in board.legal_moves)
        assert outcome.winner == (BLACK if len(moves) % 2 else WHITE)
    assert not engine_children()


@needs_fairy
def test_complete_game_engine_against_itself():
    with UsiEngine(FAIRY, SHOGI) as strong, \
            UsiEngine(FAIRY, SHOGI, options={"Skill Level": 0}) as weak:
        outcome = play_game(strong, weak, variant=SHOGI, limit=Limit(time=0.03), max_plies=300)
    assert outcome.reason != "illegal-move"
    assert len(outcome.moves) >= 10
    referee_replay([to_usi(SHOGI, m) for m in outcome.moves])
    assert not engine_children()


@needs_fairy
def test_mate_score_and_mating_move(fairy):
    position = Position(SHOGI, MATE_IN_1)
    result = fairy.search(position, Limit(time=0.3))
    assert result.mate == 1 and result.score >= MATE_BOUND
    position.push(result.move)
    assert position.status() == (BLACK, "mate")
    # The mated side's engine resigns, and its score says it is lost.
    lost = fairy.search(position, Limit(time=0.3))
    assert lost.resign and lost.move is None
    assert lost.score <= -MATE_BOUND


@needs_fairy
def test_centipawn_score_depth_and_pv_from_info_lines(fairy):
    position = Position(SHOGI)
    position.push_usi("7g7f")
    result = fairy.search(position, Limit(time=0.2))
    assert position.is_legal(result.move)
    assert result.depth >= 2 and result.nodes > 0
    assert abs(result.score) < 2000 and result.mate is None
    assert len(result.pv) >= 2 and result.pv[0] == result.move


@needs_fairy
def test_depth_limit_is_passed_to_the_engine(fairy):
    result = fairy.search(Position(SHOGI), Limit(depth=3))
    assert result.depth == 3


@needs_fairy
def test_hung_search_is_stopped_and_still_answers(fairy, monkeypatch):
    """Past its deadline the adapter sends `stop` and takes the engine's best move so far."""
    monkeypatch.setattr(usi, "DEPTH_SEARCH_SECONDS", 0.3)
    position = Position(SHOGI)
    result = fairy.search(position, Limit(depth=200))
    assert position.is_legal(result.move)
    assert result.depth < 200 and result.seconds < 0.3 + usi.GRACE_SECONDS


@needs_fairy
def test_yari_needs_an_engine_that_knows_yarishogi():
    with pytest.raises(UsiError, match="yarishogi"):
        UsiEngine(FAIRY, YARI)
    assert not engine_children()


@needs_fairy
def test_unknown_option_is_refused_with_the_known_names():
    with pytest.raises(UsiError, match="no option 'Colour'.*Hash"):
        UsiEngine(FAIRY, SHOGI, options={"Colour": "blue"})
    assert not engine_children()


@needs_fairy
def test_engine_killed_while_thinking_gives_a_clear_error(fairy):
    pid = fairy.pid
    threading.Timer(0.3, os.kill, (pid, signal.SIGKILL)).start()
    with pytest.raises(UsiError, match=r"exited \(code -9\) while waiting for bestmove"):
        fairy.search(Position(SHOGI), Limit(depth=60))


@needs_fairy
def test_engine_dead_before_the_search_gives_a_clear_error(fairy):
    os.kill(fairy.pid, signal.SIGKILL)
    with pytest.raises(UsiError, match="exited"):
        fairy.search(Position(SHOGI), Limit(time=0.1))


def test_missing_program_is_reported():
    with pytest.raises(UsiError, match="cannot start engine '/nonexistent/engine'"):
        UsiEngine("/nonexistent/engine", SHOGI)


def test_program_that_exits_at_once_is_reported():
    with pytest.raises(UsiError, match=r"exited \(code 0\) while (sending .usi.|waiting for usiok)"):
        UsiEngine(shutil.which("true"), SHOGI)


def test_program_that_never_says_usiok_times_out():
    # `cat` echoes the commands back but never answers usiok.
    with pytest.raises(UsiError, match="did not send usiok within 0.5 s"):
        UsiEngine(shutil.which("cat"), SHOGI, startup_timeout=0.5)


def test_position_command_sends_start_and_moves():
    position = Position(SHOGI)
    assert position_command(position) == "position sfen " + SHOGI.start_sfen
    position.push_usi("7g7f")
    position.push_usi("3c3d")
    assert position_command(position) == (
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        " moves 7g7f 3c3d")
    yari = Position(YARI, "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1")
    yari.push_usi("7c7d")
    assert position_command(yari) == (
        "position sfen rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1 moves 7c7d")


def test_option_lines_are_parsed():
    spin = parse_option_line("option name Skill Level type spin default 20 min -20 max 20")
    assert (spin.name, spin.type, spin.default) == ("Skill Level", "spin", "20")
    combo = parse_option_line(
        "option name UCI_Variant type combo default shogi var chess var shogi var yarishogi")
    assert combo.choices == ("chess", "shogi", "yarishogi")
    empty = parse_option_line("option name Debug Log File type string default <empty>")
    assert empty.default == ""
    with pytest.raises(UsiError, match="unreadable option"):
        parse_option_line("option garbage")


def test_yari_positions_are_sent_as_fairy_stockfish_writes_them():
    """For Yari the adapter sends the project's SFEN unchanged; Fairy-Stockfish's own SFEN
    for the same game (pyffish, variant yarishogi) must read the same, promoted pieces and
    hands included."""
    rng = random.Random(7)
    position = Position(YARI)
    uci_moves = []
    for _ in range(120):
        moves = position.legal_moves()
        if not moves:
            break
        captures = [m for m in moves if position.piece_at(move_to(m))]
        m = rng.choice(captures or moves)
        uci_moves.append(usi_to_uci(YARI, to_usi(YARI, m)))
        position.push(m)
        theirs = pyffish.get_fen("yarishogi", pyffish.start_fen("yarishogi"), uci_moves,
                                 False, True)
        ours = position_command(Position(YARI, position.sfen()))
        assert ours.split()[2:5] == theirs.split()[:3]
    assert "+" in position.sfen() and position.sfen().split()[2] != "-"


def test_info_lines_are_folded_into_the_last_report():
    info = {}
    collect_info("info depth 12 seldepth 15 multipv 1 score cp -92 nodes 92736 nps 346029 "
                 "time 268 pv 5a4b 3i3h", info)
    assert info == {"depth": 12, "nodes": 92736, "score": -92, "pv": ["5a4b", "3i3h"]}
    collect_info("info depth 13 score cp 40 lowerbound nodes 100", info)
    assert (info["depth"], info["score"], info["nodes"]) == (13, 40, 100)
    collect_info("info depth 14 score mate -3 pv 5a4b", info)
    assert info["mate"] == -3 and info["score"] == -(MATE_SCORE - 3)
    collect_info("info depth 15 score cp 10", info)
    assert "mate" not in info and info["score"] == 10
    collect_info("info string depth 99 is only text", info)
    assert info["depth"] == 15
    collect_info("info score mate +", info)
    assert "mate" not in info and info["score"] == MATE_BOUND
