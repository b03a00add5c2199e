"""KIF: handicap games, the Yari dialect, Shift_JIS files, and files as Kifu for Windows and
ShogiHome write them, checked against cshogi and python-shogi."""
import datetime
import os
import random
import subprocess
import sys

import cshogi
import cshogi.KIF
import pytest
import shogi
import shogi.KIF

from shogicore.move import to_usi
from shogicore.position import Position
from shogicore.variants import variant_by_name
from yariboard.records import formats as exports
from yariboard.records.formats import kif
from tests.records.test_records import fitting_ending
from yariboard.records.game import GameRecord, MoveRecord, RecordError

pytestmark = [pytest.mark.external]

DATA = os.path.join(os.path.dirname(__file__), "data")
START = datetime.datetime(2025, 6, 1, 8, 0, 0, tzinfo=datetime.timezone.utc)
STAMP = "%Y-%m-%dT%H:%M:%SZ"
# Endings any final position allows; a stated mate or repetition must be seen on the board,
# and an impasse is added only when the final position allows one to be declared.
ENDINGS = [("", ""), ("black", "resignation"), ("white", "resignation"),
           ("black", "illegal-move"), ("black", "adjudication"), ("draw", "adjudication")]


def random_game(seed, variant, sfen, handicap="", max_plies=60):
    """Random legal moves from `sfen`, random names (Japanese too), times and a fitting result."""
    rng = random.Random(seed)
    rules = variant_by_name(variant)
    position = Position(rules, sfen)
    when = START + datetime.timedelta(days=seed)
    record = GameRecord(variant=variant, start_sfen=sfen, handicap=handicap,
                        black=rng.choice(["Ada", "名人", ""]), white=rng.choice(["上手の人", "Cy"]),
                        date=when.strftime(STAMP), mode=rng.choice(["casual", "tournament"]))
    for _ in range(rng.randint(1, max_plies)):
        moves = position.legal_moves()
        if not moves or position.status():
            break
        move = rng.choice(moves)
        when += datetime.timedelta(seconds=rng.choice([0, 1, 7, 59, 61, 3600]))
        record.moves.append(MoveRecord(to_usi(rules, move), when.strftime(STAMP)))
        position.push(move)
    record.winner, record.reason = fitting_ending(position, rng, ENDINGS)
    return record


def shogi_handicap_games():
    handicaps = variant_by_name("shogi").handicaps
    # cshogi and python-shogi have no position for Kifu for Windows's seven-piece handicaps
    names = sorted(name for name in handicaps if "seven" not in name)
    return [random_game(seed, "shogi", handicaps[names[seed % len(names)]], names[seed % len(names)])
            for seed in range(len(names) * 2)]


def yari_games():
    rules = variant_by_name("yari")
    names = [""] + sorted(rules.handicaps)
    return [random_game(50 + seed, "yari", rules.handicaps.get(names[seed % len(names)], rules.start_sfen),
                        names[seed % len(names)]) for seed in range(18)]


def test_handicap_tables_agree_with_cshogi_and_python_shogi():
    known = [name for name in kif.SHOGI_HANDICAPS if name in cshogi.KIF.Parser.HANDYCAP_SFENS]
    # Kifu for Windows's seven-piece handicaps are the only ones these libraries lack
    assert set(kif.SHOGI_HANDICAPS) - set(known) == {"左七枚落ち", "右七枚落ち"}
    for name in known:
        sfen = kif.SHOGI_HANDICAPS[name]
        assert cshogi.KIF.Parser.HANDYCAP_SFENS[name] == sfen
        assert shogi.KIF.Parser.HANDYCAP_SFENS[name] == sfen


def test_handicap_shogi_games_round_trip():
    for game in shogi_handicap_games():
        text = exports.export_games([game], "kif")
        assert "手合割：%s" % kif.handicap_name(game) in text
        (back,) = exports.import_games(text, "kif")
        assert back.same_game(game)


def test_yari_dialect_round_trips_even_and_handicap_games():
    for game in yari_games():
        text = exports.export_games([game], "kif")
        assert "変種：槍将棋" in text
        (back,) = exports.import_games(text, "kif")
        assert back.same_game(game)


def _write_cp932(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text.encode("cp932"))
    return str(path)


@pytest.mark.parametrize("game", shogi_handicap_games()[:10] + [
    random_game(seed, "shogi", variant_by_name("shogi").start_sfen) for seed in range(5)])
def test_cshogi_and_python_shogi_read_our_shift_jis_kif(tmp_path, game):
    path = _write_cp932(tmp_path, "game.kif", exports.export_games([game], "kif"))
    with open(path, "rb") as raw:
        raw.read().decode("cp932")
        raw.seek(0)
        with pytest.raises(UnicodeDecodeError):
            raw.read().decode("utf-8")
    parsed = cshogi.KIF.Parser.parse_file(path)
    assert parsed.sfen == game.start_sfen
    assert [cshogi.move_to_usi(m) for m in parsed.moves] == game.usi_moves()
    assert parsed.names == [game.black, game.white]
    (summary,) = shogi.KIF.Parser.parse_file(path)
    assert summary["sfen"] == game.start_sfen
    assert summary["moves"] == game.usi_moves()
    if game.winner in ("black", "white"):
        assert summary["win"] == game.winner[0]


def _cshogi_usi(path):
    parsed = cshogi.KIF.Parser.parse_file(path)
    return parsed, [cshogi.move_to_usi(m) for m in parsed.moves]


def read_file(path):
    with open(path, "rb") as source:
        data = source.read()
    encoding = "utf-8" if path.endswith(".kifu") else "cp932"
    return exports.import_games(data.decode(encoding), "kif")


def test_kifu_for_windows_file_with_variation_comments_and_bookmark():
    path = os.path.join(DATA, "kifu_for_windows_even.kif")
    (game,) = read_file(path)
    parsed, usi = _cshogi_usi(path)
    assert game.usi_moves() == usi and len(usi) == 8   # the main line, not the 変化 section
    assert (game.black, game.white) == ("先手太郎", "後手花子")
    assert game.date == "2024-01-20T04:00:00Z"  # 13:00 in Japan
    assert game.moves[0].at == "2024-01-20T04:00:03Z"
    assert game.moves[-1].at == "2024-01-20T04:00:35Z"   # 3+5+2+4+1+10+6+4 seconds
    assert (game.winner, game.reason) == ("white", "resignation")
    assert parsed.win == cshogi.WHITE_WIN


def test_kifu_for_windows_handicap_file():
    path = os.path.join(DATA, "kifu_for_windows_handicap.kif")
    (game,) = read_file(path)
    _, usi = _cshogi_usi(path)
    (summary,) = shogi.KIF.Parser.parse_file(path)
    assert game.usi_moves() == usi == summary["moves"]
    assert game.start_sfen == kif.SHOGI_HANDICAPS["二枚落ち"] == summary["sfen"]
    assert (game.black, game.white) == ("下手の人", "上手の人")
    assert game.date == "2024-02-03T01:00:00Z"  # 10:00 in Japan
    # 上手 (White) moved first and resigned at move 7: 下手 (Black) won.
    assert (game.winner, game.reason) == ("black", "resignation")


def test_shogihome_utf8_file_with_nested_variations_and_multiline_comments():
    path = os.path.join(DATA, "shogihome_variations.kifu")
    (game,) = read_file(path)
    _, usi = _cshogi_usi(path)
    assert game.usi_moves() == usi == ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]
    assert (game.winner, game.reason) == ("", "")
    assert game.date == "2024-02-29T15:00:00Z"  # midnight in Japan


def test_bad_kif_lines_name_the_line():
    text = exports.export_games([shogi_handicap_games()[0]], "kif")
    with pytest.raises(RecordError, match="line 3: unknown handicap '九枚落ち'"):
        kif.read_kif(text.replace("手合割：%s" % kif.handicap_name(shogi_handicap_games()[0]),
                                  "手合割：九枚落ち"))
    yari = exports.export_games([yari_games()[0]], "kif")
    lines = yari.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("   1 "))
    lines[index] = "   1 ８八歩(77)   ( 0:01/00:00:01)"   # file 8 is off a 7-file board
    with pytest.raises(RecordError, match="line %d: unknown ending .８八歩" % (index + 1)):
        kif.read_kif("\n".join(lines))
    # a date that cannot be read keeps its text and never refuses the game
    (game,) = kif.read_kif("手合割：平手\n開始日時：2024/13/45\n手数----指手--\n")
    assert game.tag("開始日時") == "2024/13/45"
    assert "開始日時：2024/13/45" in kif.write_kif([game])


def run_cli(*args, env_db):
    env = dict(os.environ, YARIBOARD_DB=env_db)
    return subprocess.run([sys.executable, "-m", "yariboard.cli.main", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_cli_writes_shift_jis_kif_and_utf8_kifu_and_reads_both(tmp_path):
    from yariboard.records.archive import Archive
    games = [yari_games()[1], shogi_handicap_games()[3]]
    db = str(tmp_path / "a.sqlite3")
    with Archive(db) as archive:
        ids = archive.store_all(games)
    for name, encoding in (("out.kif", "cp932"), ("out.kifu", "utf-8")):
        for game_id, game in zip(ids, games):
            path = str(tmp_path / ("%d-%s" % (game_id, name)))
            done = run_cli("games", "export", str(game_id), "-o", path, env_db=db)
            assert done.returncode == 0, done.stderr
            with open(path, "rb") as written:
                written.read().decode(encoding)
            # A fresh archive per file: an archive already holding the game adds nothing on import.
            other = str(tmp_path / ("%d-%s.sqlite3" % (game_id, name)))
            done = run_cli("games", "import", path, env_db=other)
            assert done.returncode == 0, done.stderr
            with Archive(other) as archive:
                (only,) = archive.ids()
                assert archive.game(only).same_game(game)


def test_name_outside_shift_jis_is_a_one_line_error(tmp_path):
    from yariboard.records.archive import Archive
    game = yari_games()[0]
    game.black = "Ana 😀"
    db = str(tmp_path / "a.sqlite3")
    with Archive(db) as archive:
        (game_id,) = archive.store_all([game])
    done = run_cli("games", "export", str(game_id), "-o", str(tmp_path / "x.kif"), env_db=db)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "Shift_JIS" in done.stderr and ".kifu" in done.stderr
    assert not (tmp_path / "x.kif").exists()
