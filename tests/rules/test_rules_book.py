"""One test (at least) for every rule in docs/rules.md, including where Yari differs from shogi."""
import pytest

from shogicore import BLACK, SHOGI, WHITE, YARI, Game, MoveError, Position
from shogicore.impasse import impasse_points, impasse_result
from shogicore.move import drop_kind, is_drop, is_promotion, move_to, parse_usi, to_usi


def names(position, moves):
    return sorted(to_usi(position.variant, m) for m in moves)


def dests(sfen, square, variant=YARI):
    """USI moves of the piece on `square` in `sfen`."""
    position = Position(variant, sfen)
    return names(position, position.destinations(variant.parse_square(square)))


# -- board and coordinates -------------------------------------------------------------------
def test_board_is_nine_ranks_by_seven_files_named_from_blacks_view():
    assert (YARI.ranks, YARI.files, len(YARI.squares)) == (9, 7, 63)
    # SFEN reads rank a from file 7 to file 1: the first square is 7a, the last 1i.
    assert YARI.square_name(YARI.squares[0]) == "7a"
    assert YARI.square_name(YARI.squares[6]) == "1a"
    assert YARI.square_name(YARI.squares[-1]) == "1i"
    position = Position(YARI, "6k/7/7/7/7/7/7/7/K6 b - 1")
    assert position.piece_at(YARI.parse_square("1a")) != 0   # top-right: White's General
    assert position.piece_at(YARI.parse_square("7i")) != 0   # bottom-left: Black's General


def test_start_position():
    position = Position()
    assert position.sfen() == "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1"
    assert position.side == BLACK
    assert len(position.legal_moves()) == 20


# -- how each piece moves ------------------------------------------------------------------------
def test_yari_rook_slides_forward_and_sideways_never_back():
    assert dests("k6/7/7/7/7/3R3/7/7/K6 b - 1", "4f") == [
        "4f1f", "4f2f", "4f3f", "4f4a", "4f4a+", "4f4b", "4f4b+", "4f4c", "4f4c+", "4f4d", "4f4e",
        "4f5f", "4f6f", "4f7f"]


def test_yari_bishop_slides_forward_or_steps_diagonally_forward():
    assert dests("k6/7/7/7/7/3B3/7/7/K6 b - 1", "4f") == [
        "4f3e", "4f4a+", "4f4b", "4f4b+", "4f4c", "4f4c+", "4f4d", "4f4e", "4f5e"]


def test_yari_knight_jumps_or_slides_forward():
    assert dests("k6/7/7/7/7/3N3/7/7/K6 b - 1", "4f") == [
        "4f3d", "4f4a+", "4f4b", "4f4b+", "4f4c", "4f4c+", "4f4d", "4f4e", "4f5d"]


def test_knight_jumps_over_pieces():
    assert "4f3d" in dests("k6/7/7/7/2PPP2/3N3/7/7/K6 b - 1", "4f")


def test_pawn_steps_forward():
    assert dests("k6/7/7/7/7/3P3/7/7/K6 b - 1", "4f") == ["4f4e"]


def test_yari_silver_steps_forward_three_ways_or_slides_back():
    assert dests("k6/7/7/7/3+P3/7/7/7/K6 b - 1", "4e") == [
        "4e3d", "4e4d", "4e4f", "4e4g", "4e4h", "4e4i", "4e5d"]


@pytest.mark.parametrize("letter", ["+B", "+N"])
def test_yari_golds_step_five_ways_or_slide_back(letter):
    assert dests("k6/7/7/7/3%s3/7/7/7/K6 b - 1" % letter, "4e") == [
        "4e3d", "4e3e", "4e4d", "4e4f", "4e4g", "4e4h", "4e4i", "4e5d", "4e5e"]


def test_promoted_rook_slides_in_all_four_directions():
    assert len(dests("k6/7/7/7/3+R3/7/7/7/K6 b - 1", "4e")) == 6 + 8


def test_white_moves_are_rotated():
    assert dests("k6/7/7/3p3/7/7/7/7/6K w - 1", "4d") == ["4d4e"]
    assert dests("k6/7/7/3r3/7/7/7/7/6K w - 1", "4d")[:3] == ["4d1d", "4d2d", "4d3d"]


def test_slider_stops_at_first_piece_capturing_only_enemies():
    moves = dests("k6/7/3p3/7/7/3R3/7/7/K6 b - 1", "4f")
    assert "4f4c" in moves and "4f4b" not in moves
    moves = dests("k6/7/3P3/7/7/3R3/7/7/K6 b - 1", "4f")
    assert "4f4c" not in moves and "4f4d" in moves


# -- captures --------------------------------------------------------------------------------------
def test_captured_piece_goes_to_hand_unpromoted():
    position = Position(YARI, "k6/7/7/7/3+b3/3R3/7/7/K6 b - 1")
    position.push_usi("4f4e")
    assert position.hand_count(BLACK, YARI.kind_of("B")) == 1
    assert position.sfen().split()[2] == "B"
    position.pop()
    assert position.sfen() == "k6/7/7/7/3+b3/3R3/7/7/K6 b - 1"


def test_never_capture_own_piece():
    assert "4f4e" not in dests("k6/7/7/7/3P3/3R3/7/7/K6 b - 1", "4f")


# -- promotion ---------------------------------------------------------------------------------------
def test_promotion_optional_into_out_of_and_within_the_zone():
    into = dests("k6/7/7/3P3/7/7/7/7/K6 b - 1", "4d")
    assert into == ["4d4c", "4d4c+"]
    out_of = dests("k6/7/3+P3/7/7/7/7/7/K6 b - 1", "4c")  # already promoted: no choice
    assert "4c4d" in out_of and "4c4d+" not in out_of
    rook_out = dests("k6/7/3R3/7/7/7/7/7/K6 b - 1", "4c")
    assert "4c4b+" in rook_out and "4c4b" in rook_out          # within
    assert "4c1c+" in rook_out and "4c1c" in rook_out          # within, sideways


def test_no_promotion_outside_the_zone():
    assert all(not m.endswith("+") for m in dests("k6/7/7/7/7/3R3/7/7/K6 b - 1", "4f")
               if m[3] not in "abc")


@pytest.mark.parametrize("letter", ["P", "N", "B"])
def test_promotion_forced_on_the_last_rank(letter):
    moves = dests("k6/7/7/7/7/7/7/7/K6 b - 1".replace("k6/7", "k6/3%s3" % letter), "4b")
    assert "4b4a+" in moves and "4b4a" not in moves


def test_yari_knight_on_second_to_last_rank_may_decline():
    moves = dests("k6/7/7/3N3/7/7/7/7/K6 b - 1", "4d")
    assert "4d5b" in moves and "4d5b+" in moves


def test_yari_rook_on_last_rank_may_decline():
    moves = dests("k6/3R3/7/7/7/7/7/7/K6 b - 1", "4b")
    assert "4b4a" in moves and "4b4a+" in moves


def test_general_and_promoted_pieces_never_promote():
    assert not any(m.endswith("+") for m in dests("k6/7/7/3K3/7/7/7/7/7 b - 1", "4d"))
    assert not any(m.endswith("+") for m in dests("k6/7/7/3+R3/7/7/7/7/K6 b - 1", "4d"))


def test_white_promotes_in_ranks_g_to_i():
    moves = dests("k6/7/7/7/7/3p3/7/7/6K w - 1", "4f")
    assert moves == ["4f4g", "4f4g+"]


# -- drops -----------------------------------------------------------------------------------------
def drops(position, kind):
    """The legal drops of `kind` for the side to move."""
    return [m for m in position.legal_moves() if is_drop(m) and drop_kind(m) == kind]


def test_drops_go_on_any_empty_square_unpromoted_and_never_capture():
    position = Position(YARI, "k6/7/7/7/7/7/7/7/K6 b R 1")
    rook_drops = drops(position, YARI.kind_of("R"))
    assert len(rook_drops) == 63 - 2          # every empty square, the last rank included
    assert all(is_drop(m) and not is_promotion(m) for m in rook_drops)


@pytest.mark.parametrize("letter", ["P", "N", "B"])
def test_no_pawn_knight_or_bishop_dropped_on_the_last_rank(letter):
    position = Position(YARI, "k6/7/7/7/7/7/7/7/K6 b %s 1" % letter)
    ranks = set(position.variant.rank_of(move_to(m)) for m in drops(position, YARI.kind_of(letter)))
    assert 1 not in ranks and 2 in ranks


def test_nifu_counts_unpromoted_pawns_only():
    position = Position(YARI, "k6/7/7/7/3P3/7/7/7/K6 b P 1")
    files = set(YARI.file_of(move_to(m)) for m in drops(position, 1))
    assert 4 not in files and 3 in files
    position = Position(YARI, "k6/7/7/7/3+P3/7/7/7/K6 b P 1")
    files = set(YARI.file_of(move_to(m)) for m in drops(position, 1))
    assert 4 in files


# White General on 4a; a Yari Gold on 4c guards 4b, 3b, 5b; Yari Rooks close files 5 and 3.
PAWN_DROP_MATE_YARI = "3k3/7/3+B3/7/7/7/2R1R2/7/3K3 b P 1"


def test_pawn_drop_mate_is_legal_in_yari():
    position = Position(YARI, PAWN_DROP_MATE_YARI)
    m = parse_usi(YARI, "P*4b")
    assert m in position.legal_moves()
    position.push(m)
    assert position.status() == (BLACK, "mate")


def test_pawn_drop_mate_is_illegal_in_standard_shogi():
    # White General on 1a; the silver covers 2a, the gold 2b and the pawn on 1b: P*1b mates.
    position = Position(SHOGI, "8k/6S2/7G1/9/9/9/9/9/4K4 b P 1")
    assert parse_usi(SHOGI, "P*1b") not in position.legal_moves()
    assert parse_usi(SHOGI, "P*1c") in position.legal_moves()


def test_pawn_drop_check_that_is_not_mate_is_legal_in_shogi():
    position = Position(SHOGI, "4k4/9/9/9/9/9/9/9/4K4 b P 1")
    assert parse_usi(SHOGI, "P*5b") in position.legal_moves()


# -- self-check ------------------------------------------------------------------------------------
def test_moves_that_leave_the_general_attacked_are_illegal():
    position = Position(YARI, "k2r3/7/7/7/7/7/7/3B3/3K3 b - 1")   # the Yari Bishop is pinned
    assert all(to_usi(YARI, m)[2] == "4" for m in position.destinations(YARI.parse_square("4h")))
    position = Position(YARI, "k2r3/7/7/7/7/7/7/7/3K3 b - 1")
    assert "4i4h" not in names(position, position.legal_moves())


# -- end of the game -----------------------------------------------------------------------------
def test_no_legal_move_loses_even_without_check():
    # Black's General in the corner, boxed in by White pieces that do not attack 7i itself.
    position = Position(YARI, "3k3/7/7/7/7/7/+b6/2+b4/K6 b - 1")
    assert not position.in_check()
    assert position.legal_moves() == []
    assert position.status() == (WHITE, "mate")


def _shuffle(position, moves, times):
    for _ in range(times):
        for m in moves:
            position.push_usi(m)


def test_third_repetition_is_a_draw_in_yari():
    position = Position(YARI, "3k3/7/7/7/7/7/7/7/R2K3 b - 1")
    cycle = ["7i6i", "4a5a", "6i7i", "5a4a"]
    _shuffle(position, cycle, 1)
    assert position.status() is None             # second occurrence
    _shuffle(position, cycle, 1)
    assert position.status() == (None, "repetition")


def test_fourth_repetition_is_a_draw_in_shogi():
    position = Position(SHOGI, "4k4/9/9/9/9/9/9/9/R3K4 b - 1")
    cycle = ["9i9h", "5a4a", "9h9i", "4a5a"]
    _shuffle(position, cycle, 2)
    assert position.status() is None             # third occurrence
    _shuffle(position, cycle, 1)
    assert position.status() == (None, "repetition")


def test_perpetual_check_loses():
    # Black's Rook checks on file 1 and file 2 in turn while White's General steps aside.
    position = Position(YARI, "6k/7/7/7/7/7/7/7/3K1+R1 b - 1")
    _shuffle(position, ["2i1i", "1a2a", "1i2i", "2a1a"], 2)
    assert position.status() == (WHITE, "perpetual-check")


def test_repetition_with_checks_by_only_some_moves_is_a_draw():
    position = Position(YARI, "6k/7/7/7/7/7/7/7/3K1+R1 b - 1")
    _shuffle(position, ["2i3i", "1a2a", "3i2i", "2a1a"], 2)
    assert position.status() == (None, "repetition")


def test_resignation_is_recorded():
    game = Game()
    game.play_usi("4g4f")
    assert game.resign(WHITE) == (BLACK, "resignation")
    assert game.result == (BLACK, "resignation")
    with pytest.raises(MoveError):
        game.play_usi("4c4d")


def test_impasse_points_and_result():
    position = Position()
    assert impasse_points(position, BLACK) == 29 and impasse_points(position, WHITE) == 29
    assert not position.can_declare_impasse()
    with pytest.raises(MoveError):
        impasse_result(position)
    # Both Generals in their own zones, everything else kept: both have 29, a draw.
    both = Position(YARI, "rnnKbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBkNNR b - 1")
    assert both.can_declare_impasse()
    assert impasse_result(both) == (None, "impasse")
    # Black lost both Yari Rooks to White's hand: 19 against 39, Black loses.
    short = Position(YARI, "rnnKbbr/7/ppppppp/7/7/7/PPPPPPP/7/1BBkNN1 b 2r 1")
    assert impasse_points(short, BLACK) == 19 and impasse_points(short, WHITE) == 39
    assert impasse_result(short) == (WHITE, "impasse")


def test_promotion_is_ignored_in_impasse_points():
    position = Position(YARI, "3K3/7/7/7/7/7/7/7/3k3 b 2R2B2N7P 1")
    promoted = Position(YARI, "3K3/+R+R+B+B+N+N1/7/7/7/7/7/7/6k b 7P 1")
    assert impasse_points(position, BLACK) == impasse_points(promoted, BLACK) == 29


def test_illegal_move_casual_refused_tournament_loses():
    casual = Game()
    with pytest.raises(MoveError):
        casual.play_usi("4g4e")
    assert casual.result is None and casual.position.moves() == []
    tournament = Game(mode="tournament")
    assert tournament.play_usi("4g4e") == (WHITE, "illegal-move")
    assert tournament.illegal_move == parse_usi(YARI, "4g4e")


# -- handicaps -----------------------------------------------------------------------------------
@pytest.mark.parametrize("name,removed", [
    ("bishop", ["2a"]), ("rook", ["1a"]), ("two-pieces", ["1a", "2a"]),
    ("four-pieces", ["1a", "2a", "3a", "7a"]),
    ("six-pieces", ["1a", "2a", "3a", "5a", "6a", "7a"]),
])
def test_handicaps_remove_whites_left_pieces_and_white_moves_first(name, removed):
    game = Game(handicap=name)
    position = game.position
    full = Position()
    assert position.side == WHITE
    for sq in YARI.squares:
        gone = YARI.square_name(sq) in removed
        assert (position.piece_at(sq) == 0) == (gone or full.piece_at(sq) == 0), YARI.square_name(sq)
    assert position.sfen().split()[2] == "-"     # removed pieces are not in hand


# -- standard shogi differences -------------------------------------------------------------------
def test_shogi_knight_must_promote_on_the_last_two_ranks():
    position = Position(SHOGI, "4k4/9/9/4N4/9/9/9/9/4K4 b - 1")
    moves = names(position, position.destinations(SHOGI.parse_square("5d")))
    assert moves == ["5d4b+", "5d6b+"]
