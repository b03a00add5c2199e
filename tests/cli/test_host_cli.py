"""The `yariboard` command line: help everywhere, archive commands, the demo, the view."""
import os
import subprocess
import sys

import pytest
from rich.console import Console

from tests.records.test_records import random_record
from yariboard.records import formats as exports
from yariboard.records.archive import DB_ENV, Archive
from yariboard.cli.main import build_parser, main
from yariboard.records.game import replay
from yariboard.ui.view import Evaluation, ViewState, render

pytestmark = [pytest.mark.external]

SUBCOMMANDS = [["games"], ["games", "list"], ["games", "show"], ["games", "export"],
               ["games", "import"], ["play"], ["sim"], ["demo"]]


@pytest.mark.parametrize("words", SUBCOMMANDS, ids=" ".join)
def test_every_subcommand_has_help(words, capsys):
    with pytest.raises(SystemExit) as leave:
        main(words + ["--help"])
    assert leave.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: yariboard " + " ".join(words))
    assert "--db" in out


def test_play_help_names_engine_and_level(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert "--engine PATH" in out and "--level" in out and "--port" in out


def write_games(path, records, fmt):
    path.write_text(exports.export_games(records, fmt), encoding="utf-8")
    return str(path)


def test_import_list_show_export_round_trip(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    games = [random_record(seed) for seed in range(3)]
    source = write_games(tmp_path / "in.pgn", games, "pgn")
    assert main(["--db", db, "games", "import", source]) == 0
    assert "imported 3 game(s)" in capsys.readouterr().out
    assert main(["games", "list", "--db", db]) == 0
    listing = capsys.readouterr().out
    assert listing.count("yari") == 3
    assert main(["--db", db, "games", "show", "2"]) == 0
    shown = capsys.readouterr().out
    assert games[1].moves[0].usi in shown
    out = str(tmp_path / "out.json")
    assert main(["--db", db, "games", "export", "-o", out]) == 0
    back = exports.import_games(open(out, encoding="utf-8").read(), "json")
    assert [g.usi_moves() for g in back] == [g.usi_moves() for g in games]
    assert all(a.same_game(b) for a, b in zip(back, games))


def test_a_corrupt_file_is_refused_whole_with_its_line(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    text = exports.export_games([random_record(1), random_record(2)], "pgn")
    lines = text.splitlines()
    second_sfen = [n for n, line in enumerate(lines) if line.startswith("[SFEN")][1]
    lines[second_sfen] = '[SFEN "rnnkbbr/7/ppppppp/7 b - 1"]'
    bad = tmp_path / "bad.pgn"
    bad.write_text("\n".join(lines), encoding="utf-8")
    assert main(["--db", db, "games", "import", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "line %d:" % (second_sfen + 1) in err and "bad start position" in err
    with Archive(db) as archive:
        assert archive.ids() == []        # the good first game was not kept either


def test_export_of_a_missing_game_fails_cleanly(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "g.db"), "games", "export", "7"]) == 1
    assert "no game 7" in capsys.readouterr().err


def test_database_comes_from_the_environment(tmp_path):
    db = str(tmp_path / "env.db")
    source = write_games(tmp_path / "in.json", [random_record(4)], "json")
    env = dict(os.environ, **{DB_ENV: db})
    subprocess.run([sys.executable, "-m", "yariboard.cli.main", "games", "import", source],
                   env=env, check=True, capture_output=True)
    with Archive(db) as archive:
        assert archive.game(1).same_game(random_record(4))


def test_demo_plays_a_whole_game_through_the_simulator_and_saves_it(tmp_path):
    db = str(tmp_path / "demo.db")
    proc = subprocess.run([sys.executable, "-m", "yariboard.cli.main", "--db", db, "demo", "--seed", "1"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    with Archive(db) as archive:
        (game_id,) = archive.ids()
        game = archive.game(game_id)
    assert game.winner in ("black", "white", "draw") and game.reason
    final = replay(game)
    if game.reason == "mate":
        assert final.status() == (0 if game.winner == "black" else 1, "mate")
    assert "saved in %s" % db in proc.stdout
    assert "Black wins" in proc.stdout or "White wins" in proc.stdout or "Draw" in proc.stdout


def test_demo_shows_the_adjudicated_result_at_the_move_limit(tmp_path):
    """At the move limit the host adjudicates: the screen and the summary say who won."""
    db = str(tmp_path / "demo.db")
    proc = subprocess.run([sys.executable, "-m", "yariboard.cli.main", "--db", db, "demo",
                           "--max-plies", "4"], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, COLUMNS="100"))
    assert proc.returncode == 0, proc.stderr
    with Archive(db) as archive:
        (game_id,) = archive.ids()
        game = archive.game(game_id)
    assert len(game.moves) == 4 and game.reason == "adjudication"
    said = {"black": "Black wins", "white": "White wins", "draw": "Draw"}[game.winner]
    assert "%s (adjudication)" % said in proc.stdout          # the last picture's result row
    assert "4 moves, %s (adjudication)" % said in proc.stdout  # the summary line


def text_of(state, width=100):
    console = Console(width=width, record=True, color_system=None)
    console.print(render(state))
    return console.export_text()


def test_view_shows_pieces_hands_leds_moves_and_evaluation():
    state = ViewState(sfen="rnnk1br/7/ppppp2/7/7/7/PPPPPP1/6P/RBBKNNR w 2Pb 2",
                      leds={"1h": "last-move", "5c": "hint-from"}, moves=["P-1h"],
                      black="Ann", white="Ben", evaluation=Evaluation(score=-135, depth=3, pv=["P-3d"]),
                      status="connected on /dev/ttyACM0")
    text = text_of(state)
    rows = {line.split()[1]: line.split()[2:9] for line in text.splitlines()
            if len(line.split()) > 8 and line.split()[1] in "abcdefghi"}
    assert rows["a"] == ["vYR", "vYN", "vYN", "vG", ".", "vYB", "vYR"]
    assert rows["i"] == ["YR", "YB", "YB", "G", "YN", "YN", "YR"]
    assert rows["h"][-1] == "P~"          # the last move's LED marks its square
    assert "White hand: YB" in text and "Black hand: Px2" in text
    assert "the previous move (from and to): 1h" in text and "hint: move from here: 5c" in text
    assert "1. P-1h" in text and "-1.35 for Black" in text and "White" in text
    assert "connected on /dev/ttyACM0" in text and "Ann (Black) vs Ben (White)" in text


def test_view_shows_mate_and_result():
    text = text_of(ViewState(evaluation=Evaluation(mate=-3), result="white:resignation",
                             first_side=1, moves=["P-3d", "P-7f"]))
    assert "White mates in 2" in text
    assert "White wins (resignation)" in text
    assert "1. ...       P-3d" in text


def test_parser_lists_the_host_commands():
    choices = build_parser()._subparsers._group_actions[0].choices
    assert {"games", "play", "sim", "demo", "bench"} <= set(choices)


def test_a_board_too_wide_for_moves_beside_it_gets_them_underneath(monkeypatch):
    import yariboard.ui.view as view

    state = ViewState(variant="shogi", moves=["P-7f", "P-3d"], leds={"7f": "last-move"},
                      phase="idle", status="connected")
    side_by_side = text_of(state, width=80).splitlines()
    monkeypatch.setattr(view, "SIDE_BY_SIDE_WIDTH", 20)    # as for a board wider than 9x9
    stacked = text_of(state, width=80).splitlines()
    assert all(len(line) <= 80 for line in side_by_side + stacked)
    rank_i = [n for n, line in enumerate(stacked) if line.split()[1:2] == ["i"]][0]
    moves = [n for n, line in enumerate(stacked) if "1. P-7f" in line][0]
    assert moves > rank_i                                    # the moves come under the board
    beside_rank_i = [n for n, line in enumerate(side_by_side) if line.split()[1:2] == ["i"]][0]
    beside = [n for n, line in enumerate(side_by_side) if "1. P-7f" in line][0]
    assert beside < beside_rank_i                            # 9x9: beside it, in 80 columns
