"""`yariboard usi`: the built-in engine behind the USI protocol.

Driven three ways: by the project's own USI adapter (the same code that runs Fairy-Stockfish),
by a transcript piped through the real command, and line by line in-process for the
commands that need timing (infinite, stop, ponder). Moves it names are checked with
independent oracles (python-shogi for shogi, pyffish for Yari).
"""
import subprocess
import threading

import pyffish
import pytest
import shogi

from shogicore.move import parse_usi, to_usi
from yariboard.engines.fsf_notation import sfen_to_fsf, usi_to_uci
from shogicore.position import Position
from shogicore.variants import BLACK, WHITE, variant_by_name
from yariboard.engines.base import EngineError, Limit
from yariboard.engines.builtin.search import Engine
from yariboard.engines.match import builtin_usi_argv, open_builtin
from yariboard.engines.usi_server import UsiServer, move_time_ms, parse_go

pytestmark = [pytest.mark.engine]

YARI = variant_by_name("yari")
SHOGI = variant_by_name("shogi")


def transcript(commands, timeout=60):
    """Output lines of `yariboard usi` for `commands` piped in (end of input ends it)."""
    done = subprocess.run(builtin_usi_argv(), input="".join(c + "\n" for c in commands),
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout.splitlines()


# -- through the project's USI adapter ---------------------------------------------------------

def test_adapter_drives_the_built_in_engine_in_yari_and_agrees_with_it_in_process():
    position = Position(YARI)
    reports = []
    with open_builtin("yari", nodes=1500) as engine:
        assert engine.name == "Yari Board built-in engine"
        assert {"yarishogi", "shogi"} <= set(engine.options["USI_Variant"].choices)
        engine.on_progress = lambda side, result: reports.append((side, result))
        in_process = Engine()
        for _ in range(8):
            result = engine.search(position)
            # The same search in this process, with the same node budget, picks the same move.
            assert result.move == in_process.search(position, Limit(nodes=1500)).move
            position.push(result.move)
    fen = sfen_to_fsf(YARI.start_sfen)
    uci = [usi_to_uci(YARI, to_usi(YARI, m)) for m in position.moves()]
    for ply in range(len(uci)):
        assert uci[ply] in pyffish.legal_moves("yarishogi", fen, uci[:ply])
    assert {side for side, _ in reports} == {BLACK, WHITE}
    assert all(r.nodes <= 1500 + 256 for _, r in reports)


def test_adapter_plays_standard_shogi_with_the_built_in_engine_at_a_time_limit():
    board = shogi.Board()
    position = Position(SHOGI)
    with open_builtin("shogi", None) as engine:
        for _ in range(6):
            result = engine.search(position, Limit(time=0.2))
            text = to_usi(SHOGI, result.move)
            assert shogi.Move.from_usi(text) in board.legal_moves
            board.push_usi(text)
            position.push(result.move)


# -- a transcript through the real command ----------------------------------------------------

def test_transcript_handshake_options_errors_and_moves():
    lines = transcript([
        "usi",
        "isready",
        "setoption name USI_Variant value yarishogi",
        "setoption name Level value 3",
        "setoption name USI_Hash value 16",
        "setoption name Threads value 1",
        "usinewgame",
        "position startpos moves 7g7f 1c1d",
        "go btime 1000 wtime 1000 binc 100 winc 100 depth 2",
        "no-such-command",
        "setoption name Level value 9",
        "setoption name Colour value red",
        "position startpos moves 7g7f 7g7f",
        "position sfen not-a-position",
        "go depth two",
        "position sfen " + YARI.handicaps["rook"],
        "go nodes 500",
        "setoption name USI_Variant value shogi",
        "position startpos",
        "go byoyomi 300 btime 0 wtime 0",
        "quit",
        "isready",     # never read: quit ends the session
    ])
    assert lines[0] == "id name Yari Board built-in engine"
    usiok = lines.index("usiok")
    options = [line for line in lines[:usiok] if line.startswith("option ")]
    assert any("USI_Variant type combo" in line and "var yarishogi" in line for line in options)
    assert lines[usiok + 1] == "readyok"
    errors = [line for line in lines if line.startswith("info string error:")]
    assert len(errors) == 6
    assert "unknown command 'no-such-command'" in errors[0]
    assert "Level must be 1..8" in errors[1]
    assert "no option 'Colour'" in errors[2]
    assert "illegal move 7g7f" in errors[3]
    assert "bad SFEN" in errors[4]
    assert "go depth needs a number" in errors[5]
    bestmoves = [line.split()[1] for line in lines if line.startswith("bestmove")]
    assert len(bestmoves) == 3
    # 1) Yari after 7g7f 1c1d, Black to move; 2) the rook handicap, White first; 3) shogi.
    fen = sfen_to_fsf(YARI.start_sfen)
    assert usi_to_uci(YARI, bestmoves[0]) in pyffish.legal_moves(
        "yarishogi", fen, [usi_to_uci(YARI, "7g7f"), usi_to_uci(YARI, "1c1d")])
    assert usi_to_uci(YARI, bestmoves[1]) in pyffish.legal_moves(
        "yarishogi", sfen_to_fsf(YARI.handicaps["rook"]), [])
    assert shogi.Move.from_usi(bestmoves[2]) in shogi.Board().legal_moves
    info = [line for line in lines if line.startswith("info depth")]
    assert info and all(" score " in line and " pv " in line for line in info)
    # the last line before a move found under a node budget counts the nodes searched
    budgeted = [i for i, line in enumerate(lines) if line.startswith("bestmove")][1]
    assert " nodes 500 " in lines[budgeted - 1]
    assert lines[budgeted - 1].split(" pv ")[1].split()[0] == bestmoves[1]
    assert lines.count("readyok") == 1


def test_position_with_moves_but_no_position_is_a_one_line_error():
    lines = transcript(["usi", "position moves 7g7f", "position", "isready"])
    errors = [line for line in lines if line.startswith("info string error:")]
    assert len(errors) == 2 and all("position startpos|sfen" in e for e in errors)
    assert lines[-1] == "readyok"      # the session went on


def test_a_tsume_position_without_the_attackers_king_is_a_one_line_error():
    tsume = "7pk/7p1/7p1/7p1/7p1/7p1/7p1/7p1/7p1 b 2R4L4s4n 1"   # the rules core reads it
    Position(SHOGI, tsume)
    lines = transcript(["usi", "setoption name USI_Variant value shogi",
                        "position sfen " + tsume, "isready"])
    errors = [line for line in lines if line.startswith("info string error:")]
    assert len(errors) == 1 and "side without a General" in errors[0]
    assert lines[-1] == "readyok"
    with pytest.raises(EngineError, match="needs both Generals"):
        Engine().search(Position(SHOGI, tsume), Limit(depth=1))


def test_end_of_input_during_a_timed_search_ends_the_program_at_once():
    """A clock of two weeks plans hours for the move; the GUI going away ends it. (The
    timeout is a hundred times what stopping takes: the search stops within 64 nodes.)"""
    lines = transcript(["usi", "position startpos", "go btime 1200000000 wtime 1200000000"],
                       timeout=120)
    assert lines[-1].startswith("bestmove ")
    assert Position(SHOGI).is_legal(parse_usi(SHOGI, lines[-1].split()[1]))


def test_mated_side_resigns_and_end_of_input_ends_the_session():
    # White's king on 5a, a Gold on 5b guarded by another on 5c: White to move is mated.
    lines = transcript(["usi", "position sfen 4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1", "go depth 1"])
    assert lines[-1] == "bestmove resign"


# -- go mate (a GUI's mate search) -------------------------------------------------------------

def _is_mate_by_checks(sfen, moves):
    """python-shogi's word: every attacker move checks and the last one mates."""
    board = shogi.Board(sfen)
    for index, text in enumerate(moves):
        move = shogi.Move.from_usi(text)
        assert move in board.legal_moves, (index, text)
        board.push(move)
        if index % 2 == 0:
            assert board.is_check(), (index, text)
    return board.is_checkmate()


def _mates_in_one(sfen):
    board = shogi.Board(sfen)
    for move in list(board.legal_moves):
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return True
    return False


def test_go_mate_answers_a_mating_line_nomate_and_timeout():
    in_one = "4k4/9/4P4/9/9/9/9/9/4K4 b GG 1"
    longer = "8k/9/9/9/9/9/9/9/K8 b RR 1"          # two Rooks against a bare General
    lone = "4k4/9/9/9/9/9/9/9/4K4 b - 1"            # not one check to give
    guarded = "lns1kgsnl/9/9/9/9/9/9/9/4K4 b RBG 1"  # checks without end, no mate proven
    lines = transcript(["usi", "position sfen " + in_one, "go mate 60000",
                        "position sfen " + longer, "go mate 60000",
                        "position sfen " + lone, "go mate infinite",
                        "position sfen " + guarded, "go mate 300", "usinewgame"])
    answers = [line.split()[1:] for line in lines if line.startswith("checkmate")]
    assert len(answers) == 4
    assert answers[0] == ["G*5b"] and _is_mate_by_checks(in_one, answers[0])
    assert not _mates_in_one(longer) and len(answers[1]) >= 3
    assert _is_mate_by_checks(longer, answers[1])
    assert answers[2] == ["nomate"]
    assert answers[3] == ["timeout"]


def test_go_mate_in_yari_is_a_mate_by_pyffish():
    sfen = "3k3/7/7/7/7/7/7/7/3K3 b RR 1"       # two Yari Rooks against a bare General
    session = Session()
    session.send("position sfen " + sfen, "go mate 60000", "usinewgame")
    [answer] = [line.split()[1:] for line in session.lines if line.startswith("checkmate")]
    fen = sfen_to_fsf(sfen)
    uci = [usi_to_uci(YARI, text) for text in answer]
    for ply in range(len(uci)):
        assert uci[ply] in pyffish.legal_moves("yarishogi", fen, uci[:ply])
        if ply % 2 == 0:
            assert pyffish.gives_check("yarishogi", fen, uci[:ply + 1])
    assert pyffish.legal_moves("yarishogi", fen, uci) == []


def test_stop_ends_an_infinite_mate_search_with_timeout():
    session = Session()
    session.send("setoption name USI_Variant value shogi",
                 "position sfen lns1kgsnl/9/9/9/9/9/9/9/4K4 b RBG 1", "go mate infinite")
    assert not any(line.startswith("info string error") for line in session.lines)
    session.send("stop")
    assert [line for line in session.lines if line.startswith("checkmate")] == \
        ["checkmate timeout"]


# -- in-process: infinite, stop, ponder --------------------------------------------------------

class Session:
    def __init__(self):
        self.lines = []
        self.got = threading.Condition()
        self.server = UsiServer(self.write, "yari")

    def write(self, line):
        with self.got:
            self.lines.append(line)
            self.got.notify_all()

    def send(self, *commands):
        for command in commands:
            assert self.server.handle(command) or command == "quit"

    def bestmoves(self):
        return [line for line in self.lines if line.startswith("bestmove")]

    def wait_for_info(self, count, timeout=20):
        with self.got:
            assert self.got.wait_for(
                lambda: sum(1 for l in self.lines if l.startswith("info depth")) >= count, timeout)


def test_go_infinite_holds_its_move_until_stop():
    session = Session()
    session.send("position startpos", "go infinite")
    session.wait_for_info(3)
    assert session.bestmoves() == []
    session.send("position startpos moves 7g7f")            # refused while it thinks
    assert "info string error: position while searching" in session.lines
    session.send("stop")
    moves = session.bestmoves()
    assert len(moves) == 1
    assert Position(YARI).is_legal(parse_usi(YARI, moves[0].split()[1]))


def test_ponderhit_turns_a_ponder_search_into_a_timed_one():
    session = Session()
    session.send("position startpos moves 7g7f", "go ponder btime 0 wtime 0 byoyomi 300")
    session.wait_for_info(1)
    session.send("ponderhit")
    session.send("usinewgame")     # (waits for the timed search's answer)
    assert len(session.bestmoves()) == 1
    session.send("ponderhit")
    assert session.lines[-1] == "info string error: ponderhit without go ponder"


def test_quit_during_a_search_answers_and_ends():
    session = Session()
    session.send("position startpos", "go infinite")
    session.wait_for_info(1)
    assert session.server.handle("quit") is False
    assert len(session.bestmoves()) == 1


# -- time management ---------------------------------------------------------------------------

def test_parse_go_reads_every_limit_and_names_what_it_cannot():
    assert parse_go("btime 60000 wtime 50000 binc 1000 winc 2000 byoyomi 0 movestogo 20".split()) == {
        "btime": 60000, "wtime": 50000, "binc": 1000, "winc": 2000, "byoyomi": 0,
        "movestogo": 20}
    assert parse_go(["infinite"]) == {"infinite": True}
    assert parse_go("nodes 100 depth 3 movetime 50".split()) == {"nodes": 100, "depth": 3,
                                                                 "movetime": 50}
    assert parse_go("mate 3000".split()) == {"mate": 3000}
    assert parse_go("mate infinite".split()) == {"mate": None}
    for bad, message in ((["btime"], "needs a number"), (["depth", "x"], "not 'x'"),
                         (["sometimes"], "unknown go argument")):
        with pytest.raises(ValueError, match=message):
            parse_go(bad)


def test_move_time_uses_the_movers_clock_increment_and_byoyomi():
    # Black: 1/30 of 60 s plus its 1 s increment, less the margin; White's clock is ignored.
    black = move_time_ms({"btime": 60000, "wtime": 1000, "binc": 1000, "winc": 0}, BLACK)
    white = move_time_ms({"btime": 60000, "wtime": 1000, "binc": 1000, "winc": 0}, WHITE)
    assert black > white
    assert 2000 < black < 3100
    # Byoyomi only: nearly all of it.
    assert 300 <= move_time_ms({"btime": 0, "wtime": 0, "byoyomi": 500}, BLACK) < 500
    # Never more than what is left on the clock.
    assert move_time_ms({"btime": 50, "wtime": 0, "binc": 10000}, BLACK) <= 50
    assert move_time_ms({"movetime": 700}, WHITE) < 700
    assert move_time_ms({"nodes": 10}, BLACK) is None


# -- the hooks the server uses on the built-in engine -------------------------------------------

def test_built_in_engine_reports_iterations_obeys_a_node_budget_and_stops_on_request():
    engine = Engine()
    reports = []
    engine.on_progress = lambda side, result: reports.append((side, result))
    position = Position(YARI, "rnnkbbr/7/ppppppp/7/7/P6/1PPPPPP/7/RBBKNNR w - 2")
    result = engine.search(position, Limit(nodes=3000))
    assert result.nodes == 3000       # spent to the node, as Fairy-Stockfish spends it
    assert [r.depth for _, r in reports] == list(range(1, len(reports) + 1))
    assert {side for side, _ in reports} == {WHITE}
    assert all(r.pv and r.pv[0] == r.move and position.is_legal(r.move) for _, r in reports)
    assert reports[-1][1].move == result.move and reports[-1][1].depth == result.depth

    engine.new_game()
    stop = threading.Event()
    engine.stop_event = stop
    at_stop = []

    def stop_at_depth_2(side, result):
        if result.depth >= 2 and not stop.is_set():
            at_stop.append(result.nodes)
            stop.set()

    engine.on_progress = stop_at_depth_2
    stopped = engine.search(position, Limit(depth=30))
    # The stop is seen within 64 nodes: a very short next iteration may still complete.
    assert 2 <= stopped.depth <= 3 and position.is_legal(stopped.move)
    assert stopped.nodes - at_stop[0] <= 64


def test_isready_builds_the_variants_tables_so_no_move_pays_for_them(monkeypatch):
    """The tables of a variant take tenths of a second to build, more on a busy machine: at
    `isready`, not on the first move's clock."""
    import yariboard.engines.builtin.tables as tables_module
    built = []
    build = tables_module._Tables
    monkeypatch.setattr(tables_module, "_TABLES", {})
    monkeypatch.setattr(tables_module, "_Tables",
                        lambda variant: built.append(variant.name) or build(variant))
    session = Session()
    session.send("setoption name USI_Variant value shogi", "isready")
    assert built == ["shogi"] and session.lines[-1] == "readyok"
    session.send("position startpos moves 7g7f", "go depth 2", "usinewgame")
    assert len(session.bestmoves()) == 1
    assert built == ["shogi"]       # the search found them built
