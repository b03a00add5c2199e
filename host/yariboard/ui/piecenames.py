"""Full English names of the pieces, for the key under the terminal board.

The board shows each piece by its Hodges letters (shogicore.notation.hodges_name); for Wa
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


def piece_name(variant, symbol):
    """'Sparrow Pawn' for Wa's 'P'; None when the variant's letters need no key."""
    return PIECE_NAMES.get(variant.name, {}).get(symbol)
