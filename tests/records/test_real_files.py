"""What real files carry, one case each, from the corpus (tests/records/corpus, sources in
MANIFEST.tsv): dates as Japanese files write them, EUC-JP, a record stopped at a sealed
move, a resignation written after the mate, entering-king declarations."""
import os

from yariboard.cli.games import decode_record
from yariboard.records import formats as exports
from yariboard.records.game import replay

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def read(name):
    with open(os.path.join(CORPUS, name), "rb") as source:
        (record,) = exports.import_games(decode_record(source.read()), exports.format_for_path(name))
    return record


def test_a_full_width_colon_in_the_start_time():
    record = read("jkf__jt201409130101.kif")            # 開始日時：2014/09/13 14：59
    assert (record.date, record.zone) == ("2014-09-13T05:59:00Z", "+09:00")
    assert record.tag("開始日時") == "2014/09/13 14：59"  # written back as the file had it
    assert "開始日時：2014/09/13 14：59" in exports.export_games([record], "kif")


def test_a_two_day_range_dates_the_game_at_its_first_day_and_keeps_the_text():
    record = read("jkf__ryuou4.kif")                    # 開始日時：2005/11/29･30日
    assert record.date == "2005-11-28T15:00:00Z"        # midnight in Japan
    assert record.tag("開始日時") == "2005/11/29･30日"


def test_a_japanese_style_date_with_weekday():
    record = read("bioshogi__piyo_nimaiochi_source.kif")  # 2022年01月09日(日) 14:48:02
    assert record.date == "2022-01-09T05:48:02Z"


def test_a_file_in_euc_jp():
    record = read("jkf__2005_YAMADA_GPS.csa")
    assert record.white == "山田将棋 Version 2.18 (LEVEL5)"


def test_a_record_stopped_at_a_sealed_move_stays_unfinished_and_sealed():
    record = read("jkf__meijinsen_20180508_M7_10034.kif")
    assert (record.winner, record.reason, len(record.moves)) == ("", "", 52)
    assert exports.export_games([record], "kif").rstrip().endswith("53 封じ手")


def test_a_resignation_written_after_the_mate():
    record = read("sugyan__Shogidokoro.kif")            # 132 投了 after a mate by Black
    assert (record.winner, record.reason) == ("black", "resignation")
    assert replay(record).status() == (0, "mate")


def test_entering_king_declarations_by_the_27_point_rule():
    wars = read("bioshogi__swars_kachi.csa")            # Shogi Wars: White declares
    assert (wars.winner, wars.reason) == ("white", "declaration")
    server = read("sserver__jishogi_kachi.csa")         # shogi-server: 27 points for White
    assert (server.winner, server.reason) == ("white", "declaration")
    for fmt in ("kif", "ki2", "csa", "jkf", "json"):
        (back,) = exports.import_games(exports.export_games([wars], fmt), fmt)
        assert (back.winner, back.reason) == ("white", "declaration"), fmt


def test_a_declaration_short_of_the_points_is_the_declarers_loss():
    record = read("bioshogi__swars_kachi.csa")
    text = exports.export_games([record], "csa").replace("%KACHI", "")
    cut = text.rsplit("\n+", 1)[0]     # without Black's last move: Black to move declares
    (early,) = exports.import_games(cut + "\n%KACHI\n", "csa")
    assert (early.winner, early.reason) == ("white", "illegal-move")
