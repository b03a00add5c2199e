"""The Hodges notation (records/notation.py) held to its definition, read off the list of every
legal move (docs/rules.md#notation): a move is its piece's name, its origin square when
another piece like it reaches the same square, '-' or 'x', the destination, and '+' or '='
when the mover could choose. A text names the moves it can be a writing of; one is read,
several are ambiguous, none is refused. Positions of random games of every variant."""
import pytest

from shogicore.errors import IllegalMoveError, MoveError
from shogicore.move import PROMOTION, is_drop, is_promotion, move_from, move_to
from shogicore.position import Position
from yariboard.records.notation import AmbiguousMoveError, hodges_name, parse_hodges, to_hodges

from tests.records.test_playback import random_positions


def writings(position, m, legal):
    """Every text that names `m`: (the shortest, all of them), from the legal moves alone."""
    v = position.variant
    to = v.square_name(move_to(m))
    if is_drop(m):
        text = "%s*%s" % (hodges_name(v, m >> 17), to)
        return text, {text}
    frm = move_from(m)
    piece = position.board[frm]
    rivals = any(move_to(x) == move_to(m) and move_from(x) != frm and not is_drop(x)
                 and position.board[move_from(x)] == piece for x in legal)
    name = hodges_name(v, piece & 31)
    middle = ("x" if position.board[move_to(m)] else "-") + to
    marks = [""]
    if (m ^ PROMOTION) in legal:
        marks = ["+" if is_promotion(m) else "=", ""]
    shortest = name + (v.square_name(frm) if rivals else "") + middle + marks[0]
    return shortest, {name + origin + middle + mark for origin in ("", v.square_name(frm))
                      for mark in marks}


def variations(text, origin):
    """The text, and texts a person might write instead: with the origin square, without
    the promotion mark, with the other mark, the wrong separator, a bad square or piece."""
    yield text
    cut = min(i for i, c in enumerate(text) if c in "-x*" and i > 0)
    yield text[:cut].rstrip("0123456789abcdefghijk") + origin + text[cut:]
    yield text.rstrip("+=")
    yield text + "+"
    yield text.replace("-", "x", 1) if "-" in text else text.replace("x", "-", 1)
    yield "Q" + text
    yield text[:-1] + "z"
    yield text.replace("*", "3c*", 1)


def outcome(position, text):
    try:
        return parse_hodges(position, text)
    except AmbiguousMoveError:
        return "ambiguous"
    except MoveError:
        return "refused"


@pytest.mark.parametrize("variant", ["shogi", "yari", "wa"])
def test_hodges_is_what_the_legal_moves_define(variant):
    for position in random_positions(variant, 8, seed=len(variant) + 1):
        legal = position.legal_moves()
        named = {m: writings(position, m, legal) for m in legal}
        for move in legal:
            text = to_hodges(position, move)
            assert text == named[move][0]
            origin = position.variant.square_name(move_from(move)) if move_from(move) else "5e"
            for other in variations(text, origin):
                meant = [m for m in legal if other in named[m][1]]
                expected = meant[0] if len(meant) == 1 else ("ambiguous" if meant else "refused")
                assert outcome(position, other) == expected, (position.sfen(), other)


@pytest.mark.parametrize("variant", ["shogi", "yari", "wa"])
def test_any_position_is_named_and_left_as_it_was(variant):
    """The screens' and the voice's positions are the rules core's, with their history: the
    notation reads them as the records' positions and changes nothing in them."""
    for record in random_positions(variant, 3, seed=7):
        played = Position(variant)
        for m in record.moves():
            played.push(m)
        before = (played.sfen(), played.moves())
        for move in record.legal_moves():
            text = to_hodges(played, move)
            assert text == to_hodges(record, move)
            assert parse_hodges(played, text) == move
        assert (played.sfen(), played.moves()) == before


def test_a_move_the_position_does_not_allow_is_refused():
    """A screen may be handed an engine's move for a position already left behind."""
    position = Position("shogi")
    stale = parse_hodges(Position("shogi"), "P-7f")
    position.push(stale)
    with pytest.raises(IllegalMoveError, match="not legal"):
        to_hodges(position, stale)
