"""The LED language: the one table of what each square's light means on the board.

Each style has a colour and a blink pattern. A pattern is 8 steps of STEP_MS (one second in
all): b'#' lit, b'.' dark. The interpreter says which style each square shows (a small int,
the style's row in TABLE); `colour(style, now_ms)` turns that into the 0xRRGGBB to send at
that instant. docs/led-language.png, drawn from this table by tools/render_led_language.py,
gives each style's name and meaning (host/yariboard/ledstyles.py).
"""

STEP_MS = 125
OFF = 0

STEADY = b"########"
BLINK = b"####...."
FAST = b"#.#.#.#."
OFFER = b"######.."

# colour 0xRRGGBB, pattern: one row per style, in the order of the legend in the picture.
TABLE = (
    (0x005A00, STEADY),     # DESTINATION
    (0x282828, STEADY),     # LIFTED
    (0x00002D, STEADY),     # LAST_MOVE
    (0xA00000, BLINK),      # CHECK
    (0xC80000, FAST),       # FIX_PLACE
    (0xA000A0, FAST),       # FIX_LIFT
    (0x006E6E, STEADY),     # ORDER_FROM
    (0x006E6E, BLINK),      # ORDER_TO
    (0x6E5A00, STEADY),     # HINT_FROM
    (0x6E5A00, BLINK),      # HINT_TO
    (0xC87800, OFFER),      # CHOICE_PROMOTE
    (0x787878, OFFER),      # CHOICE_KEEP
    (0x969696, OFFER),      # CHOICE_P + 0: drop a Pawn
    (0x00A0A0, OFFER),      # ... + 1: a Lance (shogi)
    (0x00AA00, OFFER),      # ... + 2: a Knight
    (0x5A6EBE, OFFER),      # ... + 3: a Silver (shogi)
    (0xC89600, OFFER),      # ... + 4: a Gold (shogi)
    (0x0000DC, OFFER),      # ... + 5: a Bishop
    (0xDC0000, OFFER),      # ... + 6: a Rook
    (0x003CC8, BLINK),      # TAKEBACK
    (0x969696, FAST),       # IMPASSE
    (0x00A000, BLINK),      # WINNER
    (0xA00000, STEADY),     # LOSER
    (0x8C6E00, STEADY),     # DRAW
)

# The styles, by their rows in TABLE (tests check the rows against the names the legend
# gives them; the board itself needs no names).
(DESTINATION, LIFTED, LAST_MOVE, CHECK, FIX_PLACE, FIX_LIFT, ORDER_FROM, ORDER_TO,
 HINT_FROM, HINT_TO, CHOICE_PROMOTE, CHOICE_KEEP, CHOICE_P) = range(13)
DROP_LETTERS = "PLNSGBR"    # the drop-choice rows from CHOICE_P on, one per piece letter
TAKEBACK, IMPASSE, WINNER, LOSER, DRAW = range(CHOICE_P + len(DROP_LETTERS), len(TABLE))


def drop_choice(symbol):
    """The style offering a drop of the piece with SFEN letter `symbol` ('P', 'N' ...)."""
    return CHOICE_P + DROP_LETTERS.index(symbol)


def channels(rgb):
    """0xRRGGBB -> (r, g, b)."""
    return (rgb >> 16, rgb >> 8 & 255, rgb & 255)


def lit(style, now_ms):
    """Is `style` in the lit part of its blink pattern at `now_ms`?"""
    pattern = TABLE[style][1]
    return pattern[(now_ms // STEP_MS) % len(pattern)] == 35  # ord('#')


def colour(style, now_ms):
    """The 0xRRGGBB a square of `style` shows at `now_ms`; OFF in a dark blink step."""
    return TABLE[style][0] if lit(style, now_ms) else OFF
