"""The records' Hodges notation (formats/hodges.py) gives the rules core's texts and reads
texts to the core's moves and errors, in positions of random games of every variant."""
import pytest

from shogicore.errors import MoveError
from shogicore.notation import parse_hodges, to_hodges
from yariboard.records.formats import hodges

from tests.records.test_playback import random_positions


def outcome(read, position, text):
    try:
        return read(position, text)
    except MoveError as error:
        return type(error).__name__, str(error)


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


@pytest.mark.parametrize("variant", ["shogi", "yari", "wa"])
def test_the_records_hodges_is_the_cores(variant):
    for position in random_positions(variant, 8, seed=len(variant) + 1):
        for move in position.legal_moves():
            text = to_hodges(position, move)
            assert hodges.write_move(position, move) == text
            origin = position.variant.square_name((move >> 8) & 0xFF) if move >> 8 & 0xFF else "5e"
            for other in variations(text, origin):
                assert outcome(hodges.read_move, position, other) == outcome(parse_hodges, position, other)
