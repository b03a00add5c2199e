"""Wa Shogi's Japanese piece names as the tests know them, by Hodges abbreviation (the names
of Wikipedia's "Wa shogi" article, written out here, not taken from the code under test),
and the Japanese a move should be written and read as, worked out from its USI and Hodges;
and a long random Wa game to check them on."""
import random

from shogicore.move import to_usi
from yariboard.records.notation import to_hodges
from shogicore.position import Position
from shogicore.variants import variant_by_name

WA_BY_HODGES = {
    "CK": ("靏玉", "かくぎょく"), "CE": ("雲鷲", "うんじゅう"), "TF": ("隠狐", "いんこ"),
    "FF": ("飛鷹", "ひよう"), "+FF": ("鶏鷹", "けいよう"),
    "SW": ("燕羽", "えんう"), "+SW": ("燕行", "えんぎょう"),
    "RR": ("走兎", "そうと"), "+RR": ("隠狐", "いんこ"),
    "VW": ("猛狼", "もうろう"), "+VW": ("熊眼", "ゆうがん"),
    "VS": ("猛鹿", "もうろく"), "+VS": ("行猪", "ぎょうちょ"),
    "FG": ("鳫飛", "がんひ"), "+FG": ("燕羽", "えんう"),
    "FC": ("鶏飛", "けいひ"), "+FC": ("延鷹", "えんよう"),
    "SC": ("烏行", "うこう"), "+SC": ("飛鷹", "ひよう"),
    "SO": ("鴟行", "しぎょう"), "+SO": ("雲鷲", "うんじゅう"),
    "BD": ("盲犬", "もうけん"), "+BD": ("猛狼", "もうろう"),
    "CM": ("登猿", "とうえん"), "+CM": ("猛鹿", "もうろく"),
    "LH": ("風馬", "ふうま"), "+LH": ("天馬", "てんま"),
    "OC": ("牛車", "ぎっしゃ"), "+OC": ("歬牛", "せんぎゅう"),
    "SP": ("萑歩", "じゃくふ"), "+SP": ("金鳥", "きんちょう"),
}
RANDOM_PLIES = 400


def random_game(variant_name, seed):
    """[(position before, move, USI, Hodges)] of a random game of up to RANDOM_PLIES plies."""
    rng = random.Random(seed)
    position = Position(variant_by_name(variant_name))
    plies = []
    for _ in range(RANDOM_PLIES):
        moves = list(position.legal_moves())
        if not moves:
            break
        move = rng.choice(moves)
        plies.append((position.copy(), move, to_usi(position.variant, move),
                      to_hodges(position, move)))
        position.push(move)
    return plies


FULL_WIDTH_DIGITS = "０１２３４５６７８９"
RANK_KANJI = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一"]
READ_NUMBERS = ["いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう", "じゅう",
                "じゅういち"]


def squares(usi):
    """The (file, rank) squares a USI move names, origin (of a board move) then destination:
    '10k11j' -> [(10, 11), (11, 10)], 'R*4g' -> [(4, 7)]."""
    found, digits = [], ""
    for char in usi:
        if char.isdigit():
            digits += char
        elif digits and char.islower():
            found.append((int(digits), ord(char) - 96))
            digits = ""
    return found


def destination(usi):
    return squares(usi)[-1]


def hodges_piece(hodges):
    """The piece a Hodges move names: '+SW-4j' -> '+SW', 'SP*5e' -> 'SP', 'TF4c-5b' -> 'TF'."""
    head = hodges.split("*")[0].split("-")[0].split("x")[0]
    return head.rstrip("0123456789abcdefghijk")


def expected_written(usi, hodges, previous_usi):
    to = destination(usi)
    if previous_usi is not None and destination(previous_usi) == to:
        where = "同　"
    else:
        where = "".join(FULL_WIDTH_DIGITS[int(d)] for d in str(to[0])) + RANK_KANJI[to[1] - 1]
    kanji = WA_BY_HODGES[hodges_piece(hodges)][0]
    if "*" in hodges:
        return where + kanji + "打"
    frm = squares(usi)[0]
    return where + kanji + ("成" if hodges.endswith("+") else "") + "(%d,%d)" % frm


def expected_spoken(usi, hodges, previous_usi):
    to = destination(usi)
    if previous_usi is not None and destination(previous_usi) == to:
        where = "どう"
    else:
        where = "%s %s" % (READ_NUMBERS[to[0] - 1], READ_NUMBERS[to[1] - 1])
    reading = WA_BY_HODGES[hodges_piece(hodges)][1]
    if "*" in hodges:
        return "%s %s うつ" % (where, reading)
    return "%s %s%s" % (where, reading, " なり" if hodges.endswith("+") else
                        " ならず" if hodges.endswith("=") else "")
