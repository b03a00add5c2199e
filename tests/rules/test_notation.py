"""USI, Hodges and Fairy-Stockfish notation, checked by round trips and against the oracle."""
import pyffish
import pytest

from shogicore import SHOGI, YARI, IllegalMoveError, InvalidMoveError, Position
from shogicore.move import is_drop, move_from, move_to, parse_usi, to_usi
from yariboard.records.notation import AmbiguousMoveError, parse_hodges, to_hodges
from yariboard.engines.fsf_notation import sfen_to_fsf, uci_to_usi, usi_to_uci
from tests.oracles import fsf_legal_usi, random_game


def test_fairy_stockfish_coordinates_follow_the_rule_book():
    # file a is shogi file 7, rank 1 is shogi rank i
    assert usi_to_uci(YARI, "7i7h") == "a1a2"
    assert usi_to_uci(YARI, "1a1b") == "g9g8"
    assert usi_to_uci(YARI, "2c2b+") == "f7f8+"
    assert usi_to_uci(YARI, "P*5e") == "P@c5"
    for text in ("7i7h", "1a1b", "2c2b+", "P*5e"):
        assert uci_to_usi(YARI, usi_to_uci(YARI, text)) == text


@pytest.mark.parametrize("variant", [YARI, SHOGI])
def test_usi_round_trips_every_legal_move(variant):
    start, moves = random_game(3, variant.name, max_plies=80)
    position = Position(variant, start)
    for text in moves:
        for m in position.legal_moves():
            assert parse_usi(variant, to_usi(variant, m)) == m
        position.push_usi(text)


@pytest.mark.parametrize("text", ["7g7", "7g7f=", "8g8f", "7z7f", "K*5e", "P*", "P*5j",
                                  "+P*5e", "", "7g7f++"])
def test_malformed_usi_is_rejected_naming_the_text(text):
    with pytest.raises(InvalidMoveError) as error:
        parse_usi(YARI, text)
    assert repr(text) in str(error.value)


def test_illegal_usi_move_is_rejected():
    with pytest.raises(IllegalMoveError, match="illegal move 7g7e"):
        Position().push_usi("7g7e")


def _strip_origin(text):
    """'YB6i-5h' -> 'YB-5h' (Fairy-Stockfish and the rule book disambiguate differently)."""
    for i, c in enumerate(text):
        if c in "-x*":
            head = text[:i]
            if len(head) > 2 and head[-2].isdigit():
                head = head[:-2]
            return head + text[i:]
    return text


FSF_LETTERS = {"K": "G", "N": "YN", "B": "YB", "R": "YR", "P": "P"}


def _fsf_hodges_in_rule_book_letters(text):
    promoted = text.startswith("+")
    body = text[1:] if promoted else text
    return ("+" if promoted else "") + FSF_LETTERS[body[0]] + body[1:]


@pytest.mark.parametrize("seed", range(2))
def test_hodges_matches_the_oracle_and_round_trips(seed):
    start, moves = random_game(seed, max_plies=70)
    position = Position(YARI, start)
    fen = sfen_to_fsf(start)
    played = []
    for text in moves:
        oracle = fsf_legal_usi(YARI, start, played)
        for m in position.legal_moves():
            written = to_hodges(position, m)
            assert parse_hodges(position, written) == m
            usi = to_usi(YARI, m)
            # '+' / '=' exactly when the oracle offers both the promotion and its refusal
            has_choice = not is_drop(m) and (usi.rstrip("+") in oracle and usi.rstrip("+") + "+" in oracle)
            assert written.endswith(("+", "=")) == has_choice, written
            # an origin square exactly when another identical piece could go to the same square
            same = [o for o in position.legal_moves() if not is_drop(o) and move_to(o) == move_to(m)
                    and move_from(o) != move_from(m)
                    and position.piece_at(move_from(o)) == position.piece_at(move_from(m))]
            assert (_strip_origin(written) != written) == bool(same and not is_drop(m))
        m = parse_usi(YARI, text)
        here = pyffish.get_fen("yarishogi", fen, [usi_to_uci(YARI, t) for t in played])
        fsf = pyffish.get_san("yarishogi", here, usi_to_uci(YARI, text), False,
                              pyffish.NOTATION_SHOGI_HODGES)
        expected = _fsf_hodges_in_rule_book_letters(fsf)
        if not to_hodges(position, m).endswith(("+", "=")):
            expected = expected.rstrip("+")   # the rule book marks forced promotions with nothing
        assert _strip_origin(to_hodges(position, m)) == _strip_origin(expected)
        position.push(m)
        played.append(text)


def test_hodges_examples_from_the_rule_book():
    position = Position()
    assert to_hodges(position, parse_usi(YARI, "7g7f")) == "P-7f"
    # Two Yari Bishops (6i, 5i) can both reach 5h: the origin is named.
    assert to_hodges(position, parse_usi(YARI, "6i5h")) == "YB6i-5h"
    assert to_hodges(position, parse_usi(YARI, "5i5h")) == "YB5i-5h"
    assert parse_hodges(position, "YB6i-5h") == parse_usi(YARI, "6i5h")


@pytest.mark.parametrize("text,words,kind", [
    ("YB-5h", "ambiguous", AmbiguousMoveError),
    ("Q-5h", "unknown piece", InvalidMoveError),
    ("P-7e", "no legal move", IllegalMoveError),
    ("Px7f", "empty", IllegalMoveError),
    ("P7f", "no '-', 'x' or '*'", InvalidMoveError),
    ("P-7z", "bad destination", InvalidMoveError),
    ("P*5e", "illegal drop", IllegalMoveError),
    ("P-7f+", "no promotion choice", IllegalMoveError),
])
def test_bad_hodges_is_rejected_with_the_reason_and_its_kind(text, words, kind):
    with pytest.raises(kind) as error:
        parse_hodges(Position(), text)
    assert words in str(error.value)


def test_hodges_promotion_choice_must_be_stated():
    position = Position(YARI, "k6/7/7/3P3/7/7/7/7/K6 b - 1")
    assert parse_hodges(position, "P-4c+") == parse_usi(YARI, "4d4c+")
    assert parse_hodges(position, "P-4c=") == parse_usi(YARI, "4d4c")
    with pytest.raises(AmbiguousMoveError, match="say"):
        parse_hodges(position, "P-4c")
    assert to_hodges(position, parse_usi(YARI, "4d4c+")) == "P-4c+"
