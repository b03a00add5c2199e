"""Full names of the pieces: English ones for the key under the terminal board, and Wa
Shogi's Japanese ones for the move lists and the voice (ui.japanese).

The board shows each piece by its Hodges letters (records.notation.hodges_name); for Wa
Shogi's seventeen birds and beasts two letters are not enough to recognise a piece, so the
view adds a key from this table. Keyed by the SFEN symbol as Black writes it; a variant
that is missing here gets no key (Yari's and standard shogi's letters are the usual ones).
"""

PIECE_NAMES = {
    "wa": {
        "K": "Crane King",
        "P": "Sparrow Pawn", "+P": "Golden Bird",
        "O": "Oxcart", "+O": "Plodding Ox",
        "H": "Liberated Horse", "+H": "Heavenly Horse",
        "S": "Swallow's Wings", "+S": "Gliding Swallow",
        "F": "Flying Falcon", "+F": "Tenacious Falcon",
        "R": "Running Rabbit", "+R": "Treacherous Fox",
        "V": "Violent Stag", "+V": "Roaming Boar",
        "W": "Violent Wolf", "+W": "Bear's Eyes",
        "G": "Flying Goose", "+G": "Swallow's Wings",
        "C": "Flying Cock", "+C": "Raiding Falcon",
        "U": "Strutting Crow", "+U": "Flying Falcon",
        "L": "Swooping Owl", "+L": "Cloud Eagle",
        "M": "Climbing Monkey", "+M": "Violent Stag",
        "D": "Blind Dog", "+D": "Violent Wolf",
        "E": "Cloud Eagle",
        "X": "Treacherous Fox",
    },
}
PIECE_NAMES["wa-nodrops"] = PIECE_NAMES["wa"]

# Wa Shogi's traditional names: the two kanji on each piece's face (a promoted piece's on its
# back) and their reading, as the English-language references on the game list them (the
# Sparrow Pawn's 萑 is read 雀, じゃく; the Treacherous Fox is read いんこ or おんこ).
WA_JAPANESE = {
    "K": ("靏玉", "かくぎょく"),
    "P": ("萑歩", "じゃくふ"), "+P": ("金鳥", "きんちょう"),
    "O": ("牛車", "ぎっしゃ"), "+O": ("歬牛", "せんぎゅう"),
    "H": ("風馬", "ふうま"), "+H": ("天馬", "てんま"),
    "S": ("燕羽", "えんう"), "+S": ("燕行", "えんぎょう"),
    "F": ("飛鷹", "ひよう"), "+F": ("鶏鷹", "けいよう"),
    "R": ("走兎", "そうと"), "+R": ("隠狐", "いんこ"),
    "V": ("猛鹿", "もうろく"), "+V": ("行猪", "ぎょうちょ"),
    "W": ("猛狼", "もうろう"), "+W": ("熊眼", "ゆうがん"),
    "G": ("鳫飛", "がんひ"), "+G": ("燕羽", "えんう"),
    "C": ("鶏飛", "けいひ"), "+C": ("延鷹", "えんよう"),
    "U": ("烏行", "うこう"), "+U": ("飛鷹", "ひよう"),
    "L": ("鴟行", "しぎょう"), "+L": ("雲鷲", "うんじゅう"),
    "M": ("登猿", "とうえん"), "+M": ("猛鹿", "もうろく"),
    "D": ("盲犬", "もうけん"), "+D": ("猛狼", "もうろう"),
    "E": ("雲鷲", "うんじゅう"),
    "X": ("隠狐", "いんこ"),
}
JAPANESE_NAMES = {"wa": WA_JAPANESE, "wa-nodrops": WA_JAPANESE}


def piece_name(variant, symbol):
    """'Sparrow Pawn' for Wa's 'P'; None when the variant's letters need no key."""
    return PIECE_NAMES.get(variant.name, {}).get(symbol)


def japanese_name(variant, symbol):
    """(kanji, reading) of a piece: ('萑歩', 'じゃくふ') for Wa's 'P'; None outside Wa (Yari
    and standard shogi have KIF's names)."""
    return JAPANESE_NAMES.get(variant.name, {}).get(symbol)
