"""One test (at least) for every rule of docs/rules-wa.md, both rule sets ('wa', 'wa-nodrops').

The expected moves are written out from the rule book's words (and, for the start position,
square by square from the seed's description), never taken from the tables under test.
"""
import pytest

from shogicore import BLACK, WHITE, Game, MoveError, Position, SfenError, variant_by_name
from shogicore.move import is_drop, move_to, to_usi

pytestmark = [pytest.mark.micropython]

WA = variant_by_name("wa")
NODROPS = variant_by_name("wa-nodrops")
START = "hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/1F3S3E1/ODUGWKVCLMH b - 1"

# As Black sees the board: forward is towards rank a, left towards file 11.
FWD, BACK, LEFT, RIGHT = (0, -1), (0, 1), (1, 0), (-1, 0)
FL, FR, BL, BR = (1, -1), (-1, -1), (1, 1), (-1, 1)
DIAGONALS = (FL, FR, BL, BR)
ALL_8 = (FWD, BACK, LEFT, RIGHT) + DIAGONALS


def reach(file, rank, directions, most=1):
    """Squares up to `most` steps away along each direction on an empty board."""
    out = set()
    for df, dr in directions:
        f, r = file, rank
        for _ in range(most):
            f, r = f + df, r + dr
            if not (1 <= f <= 11 and 1 <= r <= 11):
                break
            out.add("%d%c" % (f, 96 + r))
    return out


def targets(sfen, square, variant=WA):
    """Destination squares of the piece on `square` (promotion or not)."""
    position = Position(variant, sfen)
    return set(variant.square_name(move_to(m))
               for m in position.destinations(variant.parse_square(square)))


def usi_moves(position):
    return set(to_usi(position.variant, m) for m in position.legal_moves())


def alone(symbol, side="b"):
    """`symbol` on 6f, the Kings on 2k (Black) and 10a (White), out of its way."""
    if symbol == "K":
        return "1k9/11/11/11/11/5K5/11/11/11/11/11 b - 1"
    return "1k9/11/11/11/11/5%s5/11/11/11/11/9K1 %s - 1" % (symbol, side)


# -- board and squares ---------------------------------------------------------------------------
def test_board_is_eleven_by_eleven_named_from_blacks_view():
    assert (WA.files, WA.ranks, len(WA.squares)) == (11, 11, 121)
    assert WA.square_name(WA.squares[0]) == "11a"
    assert WA.square_name(WA.squares[10]) == "1a"
    assert WA.square_name(WA.squares[-1]) == "1k"
    for name in ("11k", "10a", "1a", "6f"):
        assert WA.square_name(WA.parse_square(name)) == name


@pytest.mark.parametrize("text", ["12a", "0a", "6l", "06f", "f6", "", "111a"])
def test_squares_off_the_board_are_refused_by_name(text):
    with pytest.raises(ValueError, match="11x11"):
        WA.parse_square(text)


def test_promotion_zones_are_the_three_far_ranks():
    # A Sparrow Pawn may promote arriving on rank c, not on rank d (Black); White mirrored.
    assert usi_moves(Position(WA, "1k9/11/11/5P5/11/11/11/11/11/11/9K1 b - 1")) >= {
        "6d6c", "6d6c+"}
    assert "6e6d+" not in usi_moves(Position(WA, "1k9/11/11/11/5P5/11/11/11/11/11/9K1 b - 1"))
    assert usi_moves(Position(WA, "1k9/11/11/11/11/11/11/5p5/11/11/9K1 w - 1")) >= {
        "6h6i", "6h6i+"}


# -- start position (the seed's squares, written k10 there and 10k here) ---------------------
START_MOVES = {
    "11k": {"11j"},                                    # Oxcart
    "10k": {"11j", "9j"},                              # Blind Dog
    "9k": {"9j"},                                      # Strutting Crow
    "8k": {"9j", "8j", "7j"},                          # Flying Goose
    "7k": {"8j", "7j"},                                # Violent Wolf
    "6k": {"7j", "5j"},                                # Crane King
    "5k": {"5j", "4j"},                                # Violent Stag
    "4k": {"5j", "3j"},                                # Flying Cock
    "3k": {"3j"},                                      # Swooping Owl
    "2k": {"3j", "1j"},                                # Climbing Monkey
    "1k": {"1j"},                                      # Liberated Horse
    "10j": set(),                                      # Flying Falcon, hemmed in
    "6j": {"9j", "8j", "7j", "5j", "4j", "3j"},        # Swallow's Wings
    "2j": {"3j", "1j"},                                # Cloud Eagle
    "8i": {"8j", "9h", "7h", "9j", "7j", "8g", "10g", "6g"},   # Treacherous Fox
    "4i": {"5h", "3h", "5j", "3j", "4j"},              # Running Rabbit
    "8h": {"8g"}, "4h": {"4g"},
}


@pytest.mark.parametrize("variant", [WA, NODROPS])
def test_start_position_and_first_moves_from_the_seed(variant):
    position = Position(variant)
    assert position.sfen() == START
    expected = dict(START_MOVES)
    for file in (11, 10, 9, 7, 6, 5, 3, 2, 1):
        expected["%di" % file] = {"%dh" % file}
    for square, moves in expected.items():
        assert targets(START, square, variant) == moves, square
    assert len(position.legal_moves()) == sum(len(m) for m in expected.values()) == 51


def test_white_is_set_up_point_symmetric_to_black():
    position = Position(WA)
    for sq in WA.squares:
        mirror = WA.square(12 - WA.file_of(sq), 12 - WA.rank_of(sq))
        p, q = position.piece_at(sq), position.piece_at(mirror)
        assert (p == 0) == (q == 0)
        if p:
            assert p & 31 == q & 31 and p >> 5 != q >> 5


# -- how each piece moves (on 6f of an empty board) -------------------------------------------
PIECE_MOVES = {
    "K": reach(6, 6, ALL_8),
    "E": reach(6, 6, (FWD, BACK), 10) | reach(6, 6, (LEFT, RIGHT, BL, BR))
         | reach(6, 6, (FL, FR), 3),
    "F": reach(6, 6, DIAGONALS, 10) | reach(6, 6, (FWD,)),
    "S": reach(6, 6, (LEFT, RIGHT), 10) | reach(6, 6, (FWD, BACK)),
    "X": reach(6, 6, (FWD, BACK) + DIAGONALS, 2),
    "R": reach(6, 6, (FWD,), 10) | reach(6, 6, DIAGONALS + (BACK,)),
    "V": reach(6, 6, (FWD,) + DIAGONALS),
    "W": reach(6, 6, (FWD, LEFT, RIGHT, FL, FR, BACK)),
    "G": reach(6, 6, (FWD, FL, FR, BACK)),
    "C": reach(6, 6, (LEFT, RIGHT, FL, FR)),
    "U": reach(6, 6, (FWD, BL, BR)),
    "L": reach(6, 6, (FWD, BL, BR)),
    "D": reach(6, 6, (LEFT, RIGHT, BACK, FL, FR)),
    "M": reach(6, 6, (FWD, FL, FR, BACK)),
    "H": reach(6, 6, (FWD,), 10) | reach(6, 6, (BACK,), 2),
    "O": reach(6, 6, (FWD,), 10),
    "P": reach(6, 6, (FWD,)),
    "+F": reach(6, 6, DIAGONALS + (FWD, BACK), 10) | reach(6, 6, (LEFT, RIGHT)),
    "+S": reach(6, 6, (FWD, BACK, LEFT, RIGHT), 10),
    "+R": reach(6, 6, (FWD, BACK) + DIAGONALS, 2),
    "+V": reach(6, 6, (FWD, LEFT, RIGHT) + DIAGONALS),
    "+W": reach(6, 6, ALL_8),
    "+G": reach(6, 6, (LEFT, RIGHT), 10) | reach(6, 6, (FWD, BACK)),
    "+C": reach(6, 6, (FWD, BACK), 10) | reach(6, 6, (LEFT, RIGHT, FL, FR)),
    "+U": reach(6, 6, DIAGONALS, 10) | reach(6, 6, (FWD,)),
    "+L": reach(6, 6, (FWD, BACK), 10) | reach(6, 6, (LEFT, RIGHT, BL, BR))
          | reach(6, 6, (FL, FR), 3),
    "+M": reach(6, 6, (FWD,) + DIAGONALS),
    "+D": reach(6, 6, (FWD, LEFT, RIGHT, FL, FR, BACK)),
    "+H": {"7d", "5d", "7h", "5h"},
    "+O": reach(6, 6, ALL_8),
    "+P": reach(6, 6, (FWD, LEFT, RIGHT, FL, FR, BACK)),
}
# The Treacherous Fox's two-square moves are jumps; a slide "up to 2" would reach the same
# squares on an empty board, so the next test blocks them.


@pytest.mark.parametrize("symbol", sorted(PIECE_MOVES))
def test_each_piece_moves_as_the_rule_book_says(symbol):
    assert targets(alone(symbol), "6f") == PIECE_MOVES[symbol]


@pytest.mark.parametrize("symbol", sorted(PIECE_MOVES))
def test_white_pieces_move_turned_half_round(symbol):
    mirrored = set("%d%c" % (12 - int(s[:-1]), 96 + 12 - (ord(s[-1]) - 96))
                   for s in PIECE_MOVES[symbol])
    white = alone(symbol.lower()).replace(" b ", " w ")
    if symbol == "K":
        white = "11/11/11/11/11/5k5/11/11/11/11/9K1 w - 1"
    assert targets(white, "6f") == mirrored


@pytest.mark.parametrize("symbol", ["X", "+R"])
def test_treacherous_fox_jumps_over_pieces(symbol):
    # Ring the fox with Black Sparrow Pawns' fellow pieces (Golden Birds): it still lands
    # two squares away in its six directions.
    ring = "1k9/11/11/11/4+P1+P4/5%s5/4+P+P+P4/11/11/11/9K1 b - 1" % symbol
    assert targets(ring, "6f") >= {"6d", "8d", "4d", "6h", "8h", "4h"}


def test_liberated_horse_retreat_is_blocked_by_the_first_square():
    assert targets("1k9/11/11/11/11/5H5/5P5/11/11/11/9K1 b - 1", "6f") == reach(
        6, 6, (FWD,), 10)


def test_cloud_eagle_diagonal_stops_at_three_squares_and_at_a_piece():
    assert "9c" in targets(alone("E"), "6f") and "10b" not in targets(alone("E"), "6f")
    blocked = targets("1k9/11/11/11/4P6/5E5/11/11/11/11/9K1 b - 1", "6f")
    assert "7e" not in blocked and "8d" not in blocked


def test_heavenly_horse_jumps_over_pieces():
    assert targets("1k9/11/11/11/4+P+P+P4/4+P+H+P4/4+P+P+P4/11/11/11/9K1 b - 1", "6f") == {
        "7d", "5d", "7h", "5h"}


# -- promotion ---------------------------------------------------------------------------------
PROMOTES_TO = {"P": "+P", "O": "+O", "H": "+H", "S": "+S", "F": "+F", "R": "+R", "V": "+V",
               "W": "+W", "G": "+G", "C": "+C", "U": "+U", "L": "+L", "D": "+D", "M": "+M"}


@pytest.mark.parametrize("variant", [WA, NODROPS])
def test_promotions_of_the_seed(variant):
    for base, promoted in PROMOTES_TO.items():
        assert variant.promote[variant.kind_of(base)] == variant.kind_of(promoted)
        assert variant.base[variant.kind_of(promoted)] == variant.kind_of(base)
    for never in ("K", "E", "X") + tuple(PROMOTES_TO.values()):
        assert variant.promote[variant.kind_of(never)] == 0, never


def test_promoted_pieces_move_like_the_pieces_they_are_named_after():
    for promoted, like in (("+R", "X"), ("+G", "S"), ("+U", "F"), ("+L", "E"), ("+M", "V"),
                           ("+D", "W"), ("+W", "K"), ("+O", "K")):
        assert targets(alone(promoted), "6f") == targets(alone(like), "6f")


def test_promotion_optional_into_within_and_out_of_the_zone():
    into = usi_moves(Position(WA, "1k9/11/11/5S5/11/11/11/11/11/11/9K1 b - 1"))
    assert {"6d6c", "6d6c+"} <= into and "6d6e+" not in into
    within = usi_moves(Position(WA, "1k9/11/5S5/11/11/11/11/11/11/11/9K1 b - 1"))
    assert {"6c6b", "6c6b+", "6c7c", "6c7c+"} <= within
    out_of = usi_moves(Position(WA, "1k9/11/5S5/11/11/11/11/11/11/11/9K1 b - 1"))
    assert {"6c6d", "6c6d+"} <= out_of


@pytest.mark.parametrize("symbol", ["P", "O"])
def test_sparrow_pawn_and_oxcart_must_promote_on_the_last_rank(symbol):
    moves = usi_moves(Position(WA, "1k9/5%s5/11/11/11/11/11/11/11/11/9K1 b - 1" % symbol))
    assert "6b6a+" in moves and "6b6a" not in moves
    # set up there (a composed position), it stays, without a move
    stuck = Position(WA, "1k3%s5/11/11/11/11/11/11/11/11/11/9K1 b - 1" % symbol)
    assert not [m for m in usi_moves(stuck) if m.startswith("6a")]


@pytest.mark.parametrize("symbol", ["H", "U", "L", "G", "M", "C", "D", "S", "W", "V", "R", "F"])
def test_other_pieces_may_decline_on_the_last_rank(symbol):
    moves = usi_moves(Position(WA, "1k9/5%s5/11/11/11/11/11/11/11/11/9K1 b - 1" % symbol))
    arriving = [m for m in moves if m[2:4] in ("5a", "6a", "7a")]
    assert arriving and any(not m.endswith("+") for m in arriving), symbol


# -- captured pieces -----------------------------------------------------------------------------
def test_without_drops_a_captured_piece_is_gone():
    position = Position(NODROPS, "1k9/11/11/11/5p5/5+S5/11/11/11/11/9K1 b - 1")
    position.push_usi("6f6e")
    assert position.sfen().split()[2] == "-"
    assert not any(is_drop(m) for m in position.legal_moves())
    with pytest.raises(MoveError, match="cannot be dropped"):
        Position(NODROPS).push_usi("P*5e")
    with pytest.raises(SfenError, match="cannot be in hand"):
        Position(NODROPS, "1k9/11/11/11/11/11/11/11/11/11/9K1 b P 1")


def test_with_drops_a_captured_piece_goes_to_hand_unpromoted():
    position = Position(WA, "1k9/11/11/11/5+p5/5S5/11/11/11/11/9K1 b - 1")
    position.push_usi("6f6e")
    assert position.sfen().split()[2] == "P"
    position.pop()
    assert position.sfen().split()[2] == "-"


def test_drops_go_on_any_empty_square_unpromoted():
    position = Position(WA, "1k9/11/11/11/11/11/11/11/11/11/9K1 b E 1")
    drops = set(u for u in usi_moves(position) if "*" in u)
    assert len(drops) == 121 - 2
    position.push_usi("E*6b")
    assert position.sfen().split()[0].startswith("1k9/5E5/")    # unpromoted, in the zone


@pytest.mark.parametrize("symbol", ["P", "O"])
def test_no_sparrow_pawn_or_oxcart_dropped_on_the_last_rank(symbol):
    drops = usi_moves(Position(WA, "1k9/11/11/11/11/11/11/11/11/11/9K1 b %s 1" % symbol))
    assert "%s*6a" % symbol not in drops and "%s*6b" % symbol in drops
    white = usi_moves(Position(WA, "1k9/11/11/11/11/11/11/11/11/11/9K1 w %s 1"
                               % symbol.lower()))
    assert "%s*6k" % symbol not in white and "%s*6j" % symbol in white


def test_no_two_unpromoted_sparrow_pawns_on_a_file():
    drops = usi_moves(Position(WA, "1k9/11/11/11/11/5P5/11/11/4+P6/11/9K1 b P 1"))
    assert not any(d.startswith("P*6") for d in drops)
    assert "P*5e" in drops            # a Golden Bird on file 5 does not count


def test_sparrow_pawn_drop_mate_is_illegal_other_drop_mates_are_not():
    # White's King on 6a, Owls on 7a and 5a; a Black Violent Stag on 6c guards 6b, 7b, 5b.
    assert "P*6b" not in usi_moves(Position(WA, "4lkl4/11/5V5/11/11/11/11/11/11/11/5K5 b P 1"))
    position = Position(WA, "4lkl4/11/5V5/11/11/11/11/11/11/11/5K5 b G 1")
    position.push_usi("G*6b")
    assert position.status() == (BLACK, "mate")
    # A Sparrow Pawn drop that checks without mating is fine.
    assert "P*6b" in usi_moves(Position(WA, "5k5/11/11/11/11/11/11/11/11/11/5K5 b P 1"))


# -- check, mate and the end -------------------------------------------------------------------
def test_moves_that_leave_the_king_attacked_are_illegal():
    # The Swallow's Wings on 6j shields its King from the Oxcart on 6a.
    position = Position(WA, "4ko5/11/11/11/11/11/11/11/11/5S5/5K5 b - 1")
    assert "6j5j" not in usi_moves(position) and "6j6i" in usi_moves(position)


def test_cloud_eagle_pins_at_three_squares():
    # White's Cloud Eagle on 9h reaches 6k diagonally: the Violent Wolf on 7j may not leave.
    position = Position(WA, "5k5/11/11/11/11/11/11/2e8/11/4W6/5K5 b - 1")
    assert not any(m.startswith("7j") for m in usi_moves(position) if m[2:4] != "8i")


@pytest.mark.parametrize("variant", [WA, NODROPS])
def test_no_legal_move_loses(variant):
    # Black's King on 11k, unattacked; an Oxcart holds file 10, a Swallow's Wings rank j.
    position = Position(variant, "1o3k5/11/11/11/11/11/11/11/11/10s/K10 b - 1")
    assert not position.in_check()
    assert position.legal_moves() == []
    assert position.status() == (WHITE, "mate")


def test_mate():
    position = Position(WA, "4lkl4/11/5V5/11/11/11/11/11/11/11/5K5 b G 1")
    position.push_usi("G*6b")
    assert position.in_check() and position.legal_moves() == []
    assert Game(WA, position.sfen()).position.status() == (BLACK, "mate")


def _shuffle(position, moves, times):
    for _ in range(times):
        for m in moves:
            position.push_usi(m)


@pytest.mark.parametrize("variant", [WA, NODROPS])
def test_fourth_repetition_is_a_draw(variant):
    position = Position(variant, "5k5/11/11/11/11/11/11/11/11/11/S4K5 b - 1")
    cycle = ["11k11j", "6a5a", "11j11k", "5a6a"]
    _shuffle(position, cycle, 2)
    assert position.status() is None            # the third occurrence
    _shuffle(position, cycle, 1)
    assert position.status() == (None, "repetition")


def test_perpetual_check_loses():
    # Black's Gliding Swallow checks along file 1 and file 2 in turn.
    position = Position(WA, "10k/11/11/11/11/11/11/11/11/11/5K3+S1 b - 1")
    _shuffle(position, ["2k1k", "1a2a", "1k2k", "2a1a"], 3)
    assert position.status() == (WHITE, "perpetual-check")


@pytest.mark.parametrize("variant", [WA, NODROPS])
def test_there_is_no_impasse(variant):
    position = Position(variant, "5K5/11/11/11/11/11/11/11/11/11/5k5 b - 1")
    assert not position.can_declare_impasse()
    game = Game(variant, position.sfen())
    with pytest.raises(MoveError, match="has no impasse rule"):
        game.declare_impasse(BLACK)
    assert game.result is None


def test_resignation_ends_the_game():
    game = Game(NODROPS)
    game.play_usi("1i1h")
    assert game.resign(WHITE) == (BLACK, "resignation")
    with pytest.raises(MoveError):
        game.play_usi("1c1d")


# -- the same rules on the board's interpreter ------------------------------------------------
def test_wa_rules_are_the_same_on_micropython():
    from tests.mpy import run_micropython
    from tests.oracles import random_game
    start, moves = random_game(21, variant="wa", max_plies=80)
    code = ("from shogicore import Position\n"
            "from shogicore.move import to_usi\n"
            "from shogicore.perft import perft\n"
            "for name in ('wa', 'wa-nodrops'):\n"
            "    print([perft(Position(name), d) for d in (1, 2)])\n"
            "p = Position('wa')\n"
            "for u in %r:\n"
            "    p.push_usi(u)\n"
            "print(p.sfen())\n"
            "print(' '.join(sorted(to_usi(p.variant, m) for m in p.legal_moves())))\n" % moves)
    _, out, _ = run_micropython(code)
    lines = out.strip().splitlines()
    assert lines[0] == lines[1] == "[51, 2601]"
    position = Position(WA, start)
    for u in moves:
        position.push_usi(u)
    assert lines[2] == position.sfen()
    assert lines[3].split() == sorted(usi_moves(position))
