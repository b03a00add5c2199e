"""Names and meanings of the board's LED styles, for the legend picture and the simulator's
view. The firmware keeps only colours and blink patterns (boardfw/ledlang.py): the board
never shows a name, and on the Pico every string costs RAM."""
from boardfw import ledlang

MEANINGS = {
    "destination": "legal destination of the lifted piece",
    "lifted": "where the lifted piece came from",
    "last-move": "the previous move (from and to)",
    "check": "this General is in check",
    "fix-place": "fix: put a piece back here",
    "fix-lift": "fix: take this piece off",
    "order-from": "ordered move (PC/engine): take from here",
    "order-to": "ordered move (PC/engine): put it here",
    "hint-from": "hint: move from here",
    "hint-to": "hint: to here",
    "choice-promote": "choice offered: promote",
    "choice-keep": "choice offered: do not promote",
    "choice-P": "drop choice offered: Pawn (Wa: Sparrow Pawn)",
    "choice-L": "drop choice offered: Lance (shogi), Swooping Owl (Wa)",
    "choice-N": "drop choice offered: (Yari) Knight",
    "choice-S": "drop choice offered: Silver (shogi), Swallow's Wings (Wa)",
    "choice-G": "drop choice offered: Gold (shogi), Flying Goose (Wa)",
    "choice-B": "drop choice offered: (Yari) Bishop",
    "choice-R": "drop choice offered: (Yari) Rook, Running Rabbit (Wa)",
    "choice-O": "drop choice offered: Oxcart (Wa)",
    "choice-H": "drop choice offered: Liberated Horse (Wa)",
    "choice-F": "drop choice offered: Flying Falcon (Wa)",
    "choice-V": "drop choice offered: Violent Stag (Wa)",
    "choice-W": "drop choice offered: Violent Wolf (Wa)",
    "choice-C": "drop choice offered: Flying Cock (Wa)",
    "choice-U": "drop choice offered: Strutting Crow (Wa)",
    "choice-M": "drop choice offered: Climbing Monkey (Wa)",
    "choice-D": "drop choice offered: Blind Dog (Wa)",
    "choice-E": "drop choice offered: Cloud Eagle (Wa)",
    "choice-X": "drop choice offered: Treacherous Fox (Wa)",
    "takeback": "dropped piece lifted: press A to take the drop back",
    "impasse": "press B again to declare impasse",
    "winner": "game over: the winner's General",
    "loser": "game over: the loser's General",
    "draw": "game over: a draw (both Generals)",
}

NOT_STYLES = ("STEP_MS", "CHOICE_P")


def channels(rgb):
    """0xRRGGBB -> (r, g, b)."""
    return (rgb >> 16, rgb >> 8 & 255, rgb & 255)


def style_constants():
    """{constant name: row} for the style constants of ledlang (CHOICE_P is the first of
    the drop-choice rows, named by their piece letters)."""
    return {key: value for key, value in vars(ledlang).items()
            if key.isupper() and key[0] != "_" and isinstance(value, int)
            and key not in NOT_STYLES}


def style_rows():
    """(colour 0xRRGGBB, blink pattern) of every style, in order: ledlang.TABLE by rows."""
    return list(zip(ledlang.TABLE[::2], ledlang.TABLE[1::2]))


def style_names():
    """The legend's name of every row of ledlang.TABLE, in order: 'destination', 'choice-P'."""
    names = {row: key.lower().replace("_", "-") for key, row in style_constants().items()}
    for letter in ledlang.DROP_LETTERS:
        names[ledlang.drop_choice(letter)] = "choice-" + letter
    return [names[row] for row in range(len(style_rows()))]
