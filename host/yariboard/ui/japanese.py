"""Moves in Japanese, written for the pages' move lists and read aloud for the voice.

Yari Shogi and standard shogi are written as KIF writes them (records.formats.kif) and read
from those words ('なな ろく ふ'). Wa Shogi, which KIF has no words for, is written and read
with its pieces' traditional names (ui.piecenames.WA_JAPANESE): '６十靏玉(6,11)', 'ろく じゅう
かくぎょく'. Files and ranks past nine are 10 and 11: １０, 十, じゅう; １１, 十一, じゅういち.
"""
from shogicore.move import drop_kind, is_drop, is_promotion, move_from, move_to
from yariboard.records.notation import to_hodges
from yariboard.records.formats.kif import FULL_WIDTH, PIECES as KIF_PIECES
from yariboard.records.formats.kif import move_text as kif_move_text
from yariboard.ui.piecenames import japanese_name

RANK_KANJI = ("", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一")
NUMBER_READINGS = ("", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう",
                   "じゅう", "じゅういち")
# Readings of the KIF piece names (a Yari name is read from its characters: 香桂 やりけい).
KIF_READINGS = {
    "歩": "ふ", "香": "きょう", "桂": "けい", "銀": "ぎん", "金": "きん", "角": "かく",
    "飛": "ひしゃ", "玉": "ぎょく", "と": "と", "馬": "うま", "龍": "りゅう", "成": "なり",
    "香桂": "やりけい", "香角": "やりかく", "香飛": "やりびしゃ", "香銀": "やりぎん",
}


def piece_kanji(variant, symbol):
    """The name written on a piece: '歩' for standard shogi's 'P', '萑歩' for Wa's."""
    if variant.name in KIF_PIECES:
        return KIF_PIECES[variant.name][symbol]
    return japanese_name(variant, symbol)[0]


def written_move(position, move, last_to):
    """The move of `position` (not yet played) as the move list writes it; `last_to`: the
    previous move's square ('同')."""
    variant = position.variant
    if variant.name in KIF_PIECES:
        return kif_move_text(variant, position, move, last_to)
    to = move_to(move)
    if last_to == to:
        text = "同　"
    else:
        text = full_width(variant.file_of(to)) + RANK_KANJI[variant.rank_of(to)]
    if is_drop(move):
        return text + piece_kanji(variant, variant.symbol(drop_kind(move))) + "打"
    frm = move_from(move)
    text += piece_kanji(variant, variant.symbol(position.piece_at(frm) & 31))
    if is_promotion(move):
        text += "成"
    return text + "(%d,%d)" % (variant.file_of(frm), variant.rank_of(frm))


def full_width(number):
    return "".join(FULL_WIDTH[int(digit) - 1] if digit != "0" else "０" for digit in str(number))


def spoken_move(position, move, last_to):
    """The move as a kifu is read aloud ('なな ろく ふ', 'ろく じゅう かくぎょく')."""
    variant = position.variant
    to = move_to(move)
    where = "どう" if last_to == to else "%s %s" % (NUMBER_READINGS[variant.file_of(to)],
                                                   NUMBER_READINGS[variant.rank_of(to)])
    if is_drop(move):
        return "%s %s うつ" % (where, piece_reading(variant, variant.symbol(drop_kind(move))))
    name = piece_reading(variant, variant.symbol(position.piece_at(move_from(move)) & 31))
    hodges = to_hodges(position, move)
    suffix = " なり" if hodges.endswith("+") else " ならず" if hodges.endswith("=") else ""
    return "%s %s%s" % (where, name, suffix)


def piece_reading(variant, symbol):
    names = japanese_name(variant, symbol)
    if names is not None:
        return names[1]
    kanji = KIF_PIECES[variant.name][symbol]
    if kanji in KIF_READINGS:
        return KIF_READINGS[kanji]
    return "".join(KIF_READINGS.get(char, char) for char in kanji)
