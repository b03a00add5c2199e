"""Game record files: export/import round trips, independent KIF readers, corrupt files."""
import datetime
import random

import cshogi
import cshogi.KIF
import pytest
import shogi
import shogi.KIF

from shogicore.impasse import impasse_result
from shogicore.move import to_usi
from shogicore.position import Position
from shogicore.variants import variant_by_name
from yariboard.records import formats as exports
from yariboard.records.game import GameRecord, MoveRecord, RecordError, replay

START = datetime.datetime(2025, 3, 14, 9, 26, 53, tzinfo=datetime.timezone.utc)


def random_record(seed, variant="yari", handicap="", max_plies=70):
    """A game of random legal moves with random headers, times and a fitting result."""
    rng = random.Random(seed)
    rules = variant_by_name(variant)
    sfen = rules.handicaps[handicap] if handicap else rules.start_sfen
    position = Position(rules, sfen)
    when = START + datetime.timedelta(days=seed)
    record = GameRecord(variant=variant, start_sfen=sfen, handicap=handicap,
                        black=rng.choice(["Ada", "Bo \"quoted\"", "名人", ""]),
                        white=rng.choice(["engine level 2", "Cy", ""]),
                        date=when.strftime("%Y-%m-%dT%H:%M:%SZ"),
                        mode=rng.choice(["casual", "tournament"]))
    for _ in range(rng.randint(0, max_plies)):
        moves = position.legal_moves()
        if not moves or position.status():
            break
        move = rng.choice(moves)
        when += datetime.timedelta(seconds=rng.choice([0, 1, 7, 59, 61, 3600]))
        record.moves.append(MoveRecord(to_usi(rules, move), when.strftime("%Y-%m-%dT%H:%M:%SZ")))
        position.push(move)
    record.winner, record.reason = fitting_ending(position, rng)
    return record


# Endings any final position allows (a stated mate or repetition must be seen on the board).
ANY_TIME_ENDINGS = [("", ""), ("black", "resignation"), ("white", "resignation"),
                    ("black", "illegal-move"), ("black", "adjudication"), ("draw", "adjudication")]


def fitting_ending(position, rng, endings=ANY_TIME_ENDINGS):
    """(winner, reason) for a record ending in `position`: its own ending if the game is over,
    else one of `endings`, or an impasse when one can be declared."""
    status = position.status()
    if status:
        winner, reason = status
        return ("black", "white")[winner] if winner is not None else "draw", reason
    endings = list(endings)
    if position.can_declare_impasse():
        winner = impasse_result(position)[0]
        endings.append(("draw" if winner is None else ("black", "white")[winner], "impasse"))
    return rng.choice(endings)


def yari_games():
    handicaps = ["", "", "bishop", "rook", "two-pieces", "four-pieces", "six-pieces"]
    return [random_record(seed, "yari", handicaps[seed % len(handicaps)]) for seed in range(25)]


def shogi_games():
    return [random_record(100 + seed, "shogi") for seed in range(15)]


@pytest.mark.parametrize("fmt", ["pgn", "json"])
def test_every_game_round_trips_alone_and_in_one_file(fmt):
    games = yari_games() + shogi_games()
    for game in games:
        (back,) = exports.import_games(exports.export_games([game], fmt), fmt)
        assert back.same_game(game), game
    together = exports.import_games(exports.export_games(games, fmt), fmt)
    assert len(together) == len(games)
    assert all(a.same_game(b) for a, b in zip(together, games))


def test_kif_round_trips_standard_shogi():
    for game in shogi_games():
        (back,) = exports.import_games(exports.export_games([game], "kif"), "kif")
        assert back.same_game(game), game


def test_kif_refuses_a_set_up_start_with_a_clear_message():
    game = random_record(1, max_plies=0)
    game.start_sfen = game.start_sfen.replace(" b ", " w ")
    with pytest.raises(RecordError, match="even start or a named handicap"):
        exports.export_games([game], "kif")


def test_python_shogi_and_cshogi_read_our_kif_as_the_same_game():
    for game in shogi_games():
        text = exports.export_games([game], "kif")
        (summary,) = shogi.KIF.Parser.parse_str(text)
        assert summary["moves"] == game.usi_moves()
        assert summary["names"] == [game.black, game.white]
        parsed = cshogi.KIF.Parser.parse_str(text)
        assert [cshogi.move_to_usi(m) for m in parsed.moves] == game.usi_moves()
        assert parsed.starttime == datetime.datetime.strptime(game.date, "%Y-%m-%dT%H:%M:%SZ")
        if game.winner in ("black", "white") and game.reason in ("resignation", "mate"):
            assert parsed.win == (cshogi.BLACK_WIN if game.winner == "black" else cshogi.WHITE_WIN)


def test_we_read_kif_written_by_cshogi(tmp_path):
    board = cshogi.Board()
    rng = random.Random(7)
    usi, spent = [], []
    path = tmp_path / "game.kifu"
    writer = cshogi.KIF.Exporter(str(path))
    writer.header(["Sente", "Gote"], starttime=datetime.datetime(2024, 5, 6, 7, 8, 9))
    total = [0, 0]
    for ply in range(40):
        move = rng.choice(list(board.legal_moves))
        seconds = rng.randint(0, 90)
        total[ply % 2] += seconds
        writer.move(move, seconds, total[ply % 2])
        usi.append(cshogi.move_to_usi(move))
        spent.append(seconds)
        board.push(move)
    writer.end("resign")
    writer.close()
    (game,) = exports.import_games(path.read_text(encoding="utf-8"), "kif")
    assert game.usi_moves() == usi
    assert (game.black, game.white) == ("Sente", "Gote")
    assert game.date == "2024-05-05T22:08:09Z"   # 07:08:09 in Japan, as cshogi writes it
    clock = datetime.datetime(2024, 5, 5, 22, 8, 9)   # 07:08:09 in Japan
    for entry, seconds in zip(game.moves, spent):
        clock += datetime.timedelta(seconds=seconds)
        assert entry.at == clock.strftime("%Y-%m-%dT%H:%M:%SZ")
    # 40 moves played, then the side to move (Black) resigned.
    assert (game.winner, game.reason) == ("white", "resignation")


def test_hand_written_pgn_reads_as_the_moves_it_names():
    text = "\n".join([
        '[Variant "yari"]',
        '[Date "2025-01-02T10:00:00Z"]',
        '[Black "Ann"]',
        '[White "Ben"]',
        '',
        '1. P-7f {2025-01-02T10:00:04Z} P-3d',
        '2. P-7e *',
    ])
    (game,) = exports.import_games(text, "pgn")
    assert game.usi_moves() == ["7g7f", "3c3d", "7f7e"]
    # A move without its own time takes the time of the move before it.
    assert [m.at for m in game.moves] == ["2025-01-02T10:00:04Z"] * 3
    assert game.start_sfen == "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1"
    assert (game.winner, game.reason, game.mode) == ("", "", "casual")


def test_pgn_of_a_handicap_game_starts_with_whites_move():
    game = random_record(3, "yari", "rook")
    assert len(game.moves) >= 2
    text = exports.export_games([game], "pgn")
    assert "\n1. ... " in text
    assert '[Handicap "rook"]' in text


def line_of(text, needle):
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def replace_line(text, number, new):
    lines = text.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


def two_game_pgn():
    return exports.export_games([random_record(11), random_record(12)], "pgn")


def test_corrupt_pgn_names_the_line():
    text = two_game_pgn()
    second_date = [n for n, line in enumerate(text.splitlines(), 1) if line.startswith("[Date")][1]
    with pytest.raises(RecordError, match=r"^line %d: .*timestamp" % second_date):
        exports.import_games(replace_line(text, second_date, '[Date "yesterday"]'), "pgn")
    with pytest.raises(RecordError, match=r"^line 3: malformed tag"):
        exports.import_games(replace_line(text, 3, '[White "unterminated]'), "pgn")
    first_moves = line_of(text, "1. ")
    with pytest.raises(RecordError, match=r"^line %d: move 1 'YR-9z'" % first_moves):
        exports.import_games(replace_line(text, first_moves, "1. YR-9z"), "pgn")
    usi_line = line_of(text, "[USI")
    with pytest.raises(RecordError, match=r"^line %d: \[USI\] moves disagree" % usi_line):
        exports.import_games(replace_line(text, usi_line, '[USI "7g7f"]'), "pgn")
    result_line = line_of(text, "[Result")
    with pytest.raises(RecordError, match=r"^line %d: unknown result" % result_line):
        exports.import_games(replace_line(text, result_line, '[Result "2-0"]'), "pgn")


def test_pgn_illegal_move_is_reported_on_its_line():
    text = "\n".join(['[Variant "yari"]', '[Date "2025-01-02T10:00:00Z"]', '',
                      '1. P-7f P-3d', '2. P-7e P-3e', '3. G-4h G-4b', '4. P-6f G-5a'])
    # White's General cannot step onto its own Yari Knight on 5a: move 8, line 7.
    with pytest.raises(RecordError, match=r"^line 7: move 8 'G-5a'"):
        exports.import_games(text, "pgn")


def test_corrupt_kif_names_the_line():
    text = exports.export_games([random_record(105, "shogi", max_plies=30)], "kif")
    fifth = line_of(text, "   5 ")
    broken = replace_line(text, fifth, "   5 ９九王(11)   ( 0:01/00:00:01)")
    with pytest.raises(RecordError, match=r"^line %d: " % fifth):
        exports.import_games(broken, "kif")
    with pytest.raises(RecordError, match=r"^line %d: unknown ending '\?\?'" % fifth):
        exports.import_games(replace_line(text, fifth, "   5 ??"), "kif")
    with pytest.raises(RecordError, match=r"^line %d: unreadable move line" % fifth):
        exports.import_games(replace_line(text, fifth, "five: ７六歩(77)"), "kif")
    date = line_of(text, "開始日時")
    (kept,) = exports.import_games(replace_line(text, date, "開始日時：someday"), "kif")
    assert kept.tag("開始日時") == "someday"      # an unreadable date keeps its text
    with pytest.raises(RecordError, match=r"^line \d+: no move table"):
        exports.import_games("\n".join(text.splitlines()[:5]), "kif")


def test_corrupt_json_names_the_line():
    text = exports.export_games([random_record(21), random_record(22)], "json")
    truncated = "\n".join(text.splitlines()[:20])
    with pytest.raises(RecordError, match=r"^line 2[01]: not valid JSON"):
        exports.import_games(truncated, "json")
    third = [n for n, line in enumerate(text.splitlines(), 1) if '"usi"' in line][2]
    original = text.splitlines()[third - 1]
    bad_usi = original.replace(original.split('"usi": "')[1].split('"')[0], "1a9i")
    with pytest.raises(RecordError, match=r"^line %d: move 3 \(1a9i\) is not legal" % third):
        exports.import_games(replace_line(text, third, bad_usi), "json")
    bad_hodges = original.replace('"hodges": "', '"hodges": "x')
    with pytest.raises(RecordError, match=r"^line %d: \"hodges\"" % third):
        exports.import_games(replace_line(text, third, bad_hodges), "json")
    with pytest.raises(RecordError, match=r"^line 1: not a yariboard games file"):
        exports.import_games('{"games": []}', "json")


def test_format_is_taken_from_the_file_name_or_refused():
    assert exports.format_for_path("a/b/Game.KIF") == "kif"
    assert exports.format_for_path("x.json") == "json"
    assert exports.format_for_path("x.pgn") == "pgn"
    assert exports.format_for_path("x.dat", "json") == "json"
    with pytest.raises(RecordError, match="--format"):
        exports.format_for_path("x.dat")


def test_usi_lines_round_trip_every_variant_and_python_shogi_plays_them():
    games = [random_record(300 + seed, variant, max_plies=40)
             for seed, variant in enumerate(["shogi", "yari", "wa", "shogi"])]
    text = exports.export_games(games, "usi")
    assert text.splitlines()[0].startswith("position startpos moves ")
    back = exports.import_games(text, "usi")
    for game, read in zip(games, back):
        assert (read.variant, read.start_sfen, read.usi_moves()) == (game.variant, game.start_sfen,
                                                                     game.usi_moves())
    board = shogi.Board()
    for usi in back[0].usi_moves():
        board.push_usi(usi)           # python-shogi takes every move as legal, in turn
    assert board.sfen().split()[:3] == replay(back[0]).sfen().split()[:3]


def test_usi_lines_name_the_line_of_a_bad_move():
    with pytest.raises(RecordError, match=r"^line 2: move 2 7g7f is not legal"):
        exports.import_games("# two games\nstartpos moves 7g7f 7g7f\n", "usi")
    with pytest.raises(RecordError, match=r"^line 1: a 80x1 board is no variant's"):
        exports.import_games("position sfen 80 b - 1\n", "usi")


def test_jkf_errors_name_the_line():
    text = '{\n "header": {},\n "moves": [\n  {},\n  {"move": {"to": {"x": 7, "y": 6}, "piece": "FU",\n' \
           '            "from": {"x": 7, "y": 7}}},\n  {"move": {"to": {"x": 7, "y": 5}, "piece": "FU",\n' \
           '            "from": {"x": 7, "y": 6}}}\n ]\n}\n'
    with pytest.raises(RecordError, match=r"^line 7 \(move 2\): .* is not legal here"):
        exports.import_games(text, "jkf")
    with pytest.raises(RecordError, match=r"^line 1: .*header"):
        exports.import_games('{"header": ["x"], "moves": []}', "jkf")
