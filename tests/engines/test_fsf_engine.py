"""Fairy-Stockfish (npm package under Node.js) behind the project's USI adapter: install and
locate it, count Yari perft with it, play Yari and shogi moves the independent oracles accept,
report its thinking, and fail with one clear line when Node or the package is missing."""
import os
import shutil
import subprocess

import pyffish
import pytest
import shogi

from shogicore.move import parse_usi, to_usi
from yariboard.engines.fsf_notation import sfen_to_fsf, usi_to_uci
from shogicore.perft import perft
from shogicore.position import Position
from shogicore.variants import BLACK, WHITE, variant_by_name
from yariboard.engines.base import Limit
from yariboard.engines import fsf
from yariboard.cli.main import main

from tests.fsf_support import require_fsf
from tests.oracles import random_game

pytestmark = [pytest.mark.engine]

YARI = variant_by_name("yari")
SHOGI = variant_by_name("shogi")


def perft_counts(argv, depths):
    """Yari perft from the start position at each depth, as the engine at `argv` counts it."""
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        process.stdin.write("usi\nsetoption name USI_Variant value yarishogi\n")
        for depth in depths:
            process.stdin.write("position startpos\ngo perft %d\n" % depth)
        process.stdin.flush()
        counts = []
        for line in process.stdout:
            if line.startswith("Nodes searched:"):
                counts.append(int(line.split(":")[1]))
                if len(counts) == len(depths):
                    break
        return counts
    finally:
        process.stdin.close()
        process.wait(10)


def fsf_sfens(argv, commands):
    """The `Sfen:` lines Fairy-Stockfish prints for each `d` among `commands`."""
    wanted = sum(1 for c in commands if c == "d")
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        process.stdin.write("".join(c + "\n" for c in commands))
        process.stdin.flush()
        sfens = []
        for line in process.stdout:
            if line.startswith("Sfen:"):
                sfens.append(line.split(":", 1)[1].strip())
                if len(sfens) == wanted:
                    break
        return sfens
    finally:
        process.stdin.close()
        process.wait(10)


def test_positions_pass_to_fsf_unconverted_promotions_and_hands_included():
    # Seeded random games (biased to drops, promotions and captures): Fairy-Stockfish must
    # read the project's USI moves and SFEN as they are and write back the same SFEN.
    argv = require_fsf()
    commands, expected = ["usi", "setoption name USI_Variant value yarishogi"], []
    for seed in (5, 6, 7):
        start, moves = random_game(seed, max_plies=80)
        position = Position(YARI, start)
        for text in moves:
            position.push(parse_usi(YARI, text))
        commands += ["position sfen %s moves %s" % (start, " ".join(moves)), "d",
                     "position sfen " + position.sfen(), "d"]
        expected += [position.sfen()] * 2
    assert any("+" in sfen for sfen in expected)
    assert all(sfen.split()[2] != "-" for sfen in expected)
    assert fsf_sfens(argv, commands) == expected


@pytest.fixture(scope="module")
def yari_fsf():
    require_fsf()
    engine = fsf.open_engine("yari", nodes=400)
    yield engine
    engine.close()


def test_fsf_counts_yari_perft_like_the_rules_core_and_the_rule_book():
    counts = perft_counts(require_fsf(), (1, 2, 3, 4))
    start = Position(YARI)
    assert counts[:3] == [perft(start, d) for d in (1, 2, 3)]
    assert counts[3] == 158404   # the rule book's figure


def test_fsf_plays_legal_yari_moves_with_drops_through_the_adapter(yari_fsf):
    position = Position(YARI)
    progress = []
    yari_fsf.on_progress = lambda side, result: progress.append((side, result))
    try:
        while len(position.moves()) < 60 and position.status() is None:
            result = yari_fsf.search(position)
            assert result.move is not None
            position.push(result.move)
    finally:
        yari_fsf.on_progress = None
    # Independent check of the whole game: each move legal for pyffish in turn.
    fen = sfen_to_fsf(YARI.start_sfen)
    played = []
    for move_text in [to_usi(YARI, m) for m in position.moves()]:
        uci = usi_to_uci(YARI, move_text)
        assert uci in pyffish.legal_moves("yarishogi", fen, played)
        played.append(uci)
    assert len(played) >= 20
    assert any("*" in to_usi(YARI, m) for m in position.moves()), "no drop was played"
    assert progress and {side for side, _ in progress} == {BLACK, WHITE}
    depths = [result.depth for _, result in progress]
    assert max(depths) >= 3
    assert all(result.move is None or result.move == result.pv[0] for _, result in progress)


def test_fsf_plays_standard_shogi_that_python_shogi_accepts():
    require_fsf()
    board = shogi.Board()
    position = Position(SHOGI)
    with fsf.open_engine("shogi", nodes=300, skill=5) as engine:
        for _ in range(30):
            result = engine.search(position)
            text = to_usi(SHOGI, result.move)
            assert shogi.Move.from_usi(text) in board.legal_moves
            board.push_usi(text)
            position.push(result.move)
    assert board.sfen().split()[:3] == position.sfen().split()[:3]


def test_time_per_move_is_sent_as_byoyomi_and_answered(yari_fsf):
    yari_fsf.new_game()
    result = yari_fsf.search(Position(YARI), Limit(time=0.3))
    assert Position(YARI).is_legal(result.move)
    assert result.depth >= 1


def test_install_is_a_no_op_when_the_pinned_version_is_there(tmp_path):
    argv = require_fsf()
    folder = fsf.package_dir()
    assert fsf.install(npm="/nonexistent/npm") == folder     # npm is not even looked for
    assert argv[-1] == os.path.join(folder, "uci.js")


def test_missing_package_says_how_to_install(tmp_path):
    with pytest.raises(fsf.EngineMissing, match="yariboard engines install fsf"):
        fsf.command(root=str(tmp_path))


def test_wrong_version_installed_says_to_reinstall(tmp_path):
    folder = tmp_path / "fsf" / "node_modules" / fsf.FSF_PACKAGE
    folder.mkdir(parents=True)
    (folder / "package.json").write_text('{"version": "1.0.0"}')
    (folder / "uci.js").write_text("")
    with pytest.raises(fsf.EngineMissing, match="1.0.0 is installed, %s is needed" % fsf.FSF_VERSION):
        fsf.command(root=str(tmp_path))


def test_missing_node_says_how_to_get_it(tmp_path):
    with pytest.raises(fsf.EngineMissing, match="apt install nodejs"):
        fsf.find_node(str(tmp_path / "no-node"))
    not_node = tmp_path / "not-node"
    not_node.write_text("#!/bin/sh\necho hello\n")
    not_node.chmod(0o755)
    with pytest.raises(fsf.EngineMissing, match="does not run as Node.js"):
        fsf.find_node(str(not_node))


def test_missing_npm_says_how_to_get_it_and_creates_nothing(tmp_path):
    with pytest.raises(fsf.EngineMissing, match="npm not found: .*apt install nodejs npm"):
        fsf.install(root=str(tmp_path / "engines"), npm=str(tmp_path / "no-npm"))
    assert not (tmp_path / "engines").exists()


@pytest.mark.skipif(not shutil.which("npm") and not os.environ.get("CI"),
                    reason="npm is not installed (apt-get install npm)")
def test_npm_failing_to_reach_its_registry_says_why_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("npm_config_registry", "http://127.0.0.1:9/")   # nothing listens there
    monkeypatch.setenv("npm_config_cache", str(tmp_path / "cache"))     # nothing cached either
    monkeypatch.setenv("npm_config_fetch_retries", "0")
    status = main(["engines", "--engines-dir", str(tmp_path / "engines"), "install", "fsf"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 1 and len(err) == 1
    assert err[0].startswith("yariboard: error: npm install of fairy-stockfish-nnue.wasm@")
    assert "code ECONNREFUSED; " in err[0] and "127.0.0.1:9" in err[0]
    assert fsf.installed_version(str(tmp_path / "engines")) is None


def test_npm_error_keeps_the_cause_and_drops_the_trace_and_log_path():
    npm10 = ("npm error code ETARGET\n"
             "npm error notarget No matching version found for x@9.9.9.\n"
             "npm error notarget In most cases you or one of your dependencies are requesting\n"
             "npm error A complete log of this run can be found in: /root/.npm/_logs/1.log\n")
    assert fsf.npm_error(npm10) == "code ETARGET; notarget No matching version found for x@9.9.9."
    npm10_fetch = ("npm error code ECONNRESET\n"
                   "npm error syscall read\n"
                   "npm error FetchError: request to https://r/x failed\n"
                   "npm error     at ClientRequest.<anonymous> (index.js:130:14) {\n"
                   "npm error   code: 'ECONNRESET',\n"
                   "npm error }\n")
    assert fsf.npm_error(npm10_fetch) == "code ECONNRESET; FetchError: request to https://r/x failed"
    npm6 = "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://r/x - Not found\n"
    assert fsf.npm_error(npm6) == "code E404; 404 Not Found - GET https://r/x - Not found"
    assert fsf.npm_error("segfault\n") == "no message"


def test_engines_list_and_play_without_the_package(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv(fsf.ENGINES_DIR_ENV, str(tmp_path))
    assert main(["engines", "list"]) == 0
    out = capsys.readouterr().out
    assert "fsf        not installed (yariboard engines install fsf)" in out
    assert main(["play", "--sim", "--engine", "fsf"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "yariboard engines install fsf" in err[0]
    assert main(["play", "--sim", "--nodes", "100"]) == 1
    assert "--engine fsf" in capsys.readouterr().err


def test_engines_list_shows_the_installed_engine_and_node(capsys):
    require_fsf()
    assert main(["engines", "list"]) == 0
    out = capsys.readouterr().out
    assert "Fairy-Stockfish %s in %s" % (fsf.FSF_VERSION, fsf.package_dir()) in out
    assert "runs with Node.js" in out
