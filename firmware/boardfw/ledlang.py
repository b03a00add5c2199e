"""The LED language: the one table of what each square's light means on the board.

Each style has a colour and a blink pattern. A pattern is 8 steps of STEP_MS (one second in
all): b'#' lit, b'.' dark. The interpreter says which style each square shows (a small int,
the style's row in TABLE); `colour(style, now_ms)` turns that into the 0xRRGGBB to send at
that instant. docs/led-language.png, drawn from this table by tools/render_led_language.py,
gives each style's meaning.
"""

STEP_MS = 125
OFF = 0

STEADY = b"########"
BLINK = b"####...."
FAST = b"#.#.#.#."
OFFER = b"######.."

# name, colour 0xRRGGBB, pattern. Order = order of the legend in the picture.
TABLE = (
    ("destination", 0x005A00, STEADY),
    ("lifted", 0x282828, STEADY),
    ("last-move", 0x00002D, STEADY),
    ("check", 0xA00000, BLINK),
    ("fix-place", 0xC80000, FAST),
    ("fix-lift", 0xA000A0, FAST),
    ("order-from", 0x006E6E, STEADY),
    ("order-to", 0x006E6E, BLINK),
    ("hint-from", 0x6E5A00, STEADY),
    ("hint-to", 0x6E5A00, BLINK),
    ("choice-promote", 0xC87800, OFFER),
    ("choice-keep", 0x787878, OFFER),
    ("choice-P", 0x969696, OFFER),
    ("choice-L", 0x00A0A0, OFFER),
    ("choice-N", 0x00AA00, OFFER),
    ("choice-S", 0x5A6EBE, OFFER),
    ("choice-G", 0xC89600, OFFER),
    ("choice-B", 0x0000DC, OFFER),
    ("choice-R", 0xDC0000, OFFER),
    ("takeback", 0x003CC8, BLINK),
    ("impasse", 0x969696, FAST),
    ("winner", 0x00A000, BLINK),
    ("loser", 0xA00000, STEADY),
    ("draw", 0x8C6E00, STEADY),
)

# The styles by name, in TABLE order (tests check each constant against its row's name).
(DESTINATION, LIFTED, LAST_MOVE, CHECK, FIX_PLACE, FIX_LIFT, ORDER_FROM, ORDER_TO,
 HINT_FROM, HINT_TO, CHOICE_PROMOTE, CHOICE_KEEP, CHOICE_P, CHOICE_L, CHOICE_N, CHOICE_S,
 CHOICE_G, CHOICE_B, CHOICE_R, TAKEBACK, IMPASSE, WINNER, LOSER, DRAW) = range(len(TABLE))

DROP_LETTERS = "PLNSGBR"    # the pieces of the choice-P .. choice-R rows, in order


def drop_choice(symbol):
    """The style offering a drop of the piece with SFEN letter `symbol` ('P', 'N' ...)."""
    return CHOICE_P + DROP_LETTERS.index(symbol)


def channels(rgb):
    """0xRRGGBB -> (r, g, b)."""
    return (rgb >> 16, rgb >> 8 & 255, rgb & 255)


def lit(style, now_ms):
    """Is `style` in the lit part of its blink pattern at `now_ms`?"""
    pattern = TABLE[style][2]
    return pattern[(now_ms // STEP_MS) % len(pattern)] == 35  # ord('#')


def colour(style, now_ms):
    """The 0xRRGGBB a square of `style` shows at `now_ms`; OFF in a dark blink step."""
    return TABLE[style][1] if lit(style, now_ms) else OFF
