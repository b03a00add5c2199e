"""The LED language: the one table of what each square's light means on the board.

Each style has a colour and a blink pattern. A pattern is 8 steps of STEP_MS (one second in
all): b'#' lit, b'.' dark. The interpreter says which style each square shows (a small int,
the style's row in TABLE); `colour(style, now_ms)` turns that into the 0xRRGGBB to send at
that instant. docs/led-language.png, drawn from this table by tools/render_led_language.py,
gives each style's name and meaning (host/yariboard/board/ledstyles.py).
"""

from micropython import const

STEP_MS = 125
_OFF = const(0)

_STEADY = const(b"########")
_BLINK = const(b"####....")
_FAST = const(b"#.#.#.#.")
_OFFER = const(b"######..")

# colour 0xRRGGBB, pattern: one row per style, in the order of the legend in the picture.
# Flat, the rows back to back: one tuple in the board's RAM, not one more per row (the
# host reads it by rows: yariboard.board.ledstyles.style_rows).
TABLE: tuple = (   # (typed as a tuple of anything: colours and patterns alternate)
    0x005A00, _STEADY,     # DESTINATION
    0x282828, _STEADY,     # LIFTED
    0x00002D, _STEADY,     # LAST_MOVE
    0xA00000, _BLINK,      # CHECK
    0xC80000, _FAST,       # FIX_PLACE
    0xA000A0, _FAST,       # FIX_LIFT
    0x006E6E, _STEADY,     # ORDER_FROM
    0x006E6E, _BLINK,      # ORDER_TO
    0x6E5A00, _STEADY,     # HINT_FROM
    0x6E5A00, _BLINK,      # HINT_TO
    0xC87800, _OFFER,      # CHOICE_PROMOTE
    0x787878, _OFFER,      # CHOICE_KEEP
    0x969696, _OFFER,      # CHOICE_P + 0: drop a Pawn (Wa: a Sparrow Pawn)
    0x00A0A0, _OFFER,      # ... + 1: a Lance (shogi; Wa: a Swooping Owl)
    0x00AA00, _OFFER,      # ... + 2: a Knight
    0x5A6EBE, _OFFER,      # ... + 3: a Silver (shogi; Wa: a Swallow's Wings)
    0xC89600, _OFFER,      # ... + 4: a Gold (shogi; Wa: a Flying Goose)
    0x0000DC, _OFFER,      # ... + 5: a Bishop
    0xDC0000, _OFFER,      # ... + 6: a Rook (Wa: a Running Rabbit)
    0x8C4614, _OFFER,      # ... + 7: Wa, an Oxcart
    0x3CC83C, _OFFER,      # ... + 8: Wa, a Liberated Horse
    0xDC00DC, _OFFER,      # ... + 9: Wa, a Flying Falcon
    0xC83C00, _OFFER,      # ... + 10: Wa, a Violent Stag
    0x6E3CC8, _OFFER,      # ... + 11: Wa, a Violent Wolf
    0xDC6E8C, _OFFER,      # ... + 12: Wa, a Flying Cock
    0x3C3CDC, _OFFER,      # ... + 13: Wa, a Strutting Crow
    0x96C800, _OFFER,      # ... + 14: Wa, a Climbing Monkey
    0x00C86E, _OFFER,      # ... + 15: Wa, a Blind Dog
    0x00A0DC, _OFFER,      # ... + 16: Wa, a Cloud Eagle
    0xC8C800, _OFFER,      # ... + 17: Wa, a Treacherous Fox
    0x003CC8, _BLINK,      # TAKEBACK
    0x969696, _FAST,       # IMPASSE
    0x00A000, _BLINK,      # WINNER
    0xA00000, _STEADY,     # LOSER
    0x8C6E00, _STEADY,     # DRAW
)

# The styles, by their rows in TABLE (tests check the rows against the names the legend
# gives them; the board itself needs no names).
(DESTINATION, LIFTED, LAST_MOVE, CHECK, FIX_PLACE, FIX_LIFT, ORDER_FROM, ORDER_TO,
 HINT_FROM, HINT_TO, CHOICE_PROMOTE, CHOICE_KEEP, CHOICE_P) = range(13)
DROP_LETTERS = "PLNSGBROHFVWCUMDEX"  # the drop-choice rows from CHOICE_P on, one per letter
TAKEBACK, IMPASSE, WINNER, LOSER, DRAW = range(CHOICE_P + len(DROP_LETTERS), len(TABLE) // 2)


def drop_choice(symbol):
    """The style offering a drop of the piece with SFEN letter `symbol` ('P', 'N' ...)."""
    return CHOICE_P + DROP_LETTERS.index(symbol)


def lit(style, now_ms):
    """Is `style` in the lit part of its blink pattern at `now_ms`?"""
    pattern = TABLE[2 * style + 1]
    return pattern[(now_ms // STEP_MS) % len(pattern)] == 35  # ord('#')


def colour(style, now_ms):
    """The 0xRRGGBB a square of `style` shows at `now_ms`; 0 (dark) in a dark blink step."""
    return TABLE[2 * style] if lit(style, now_ms) else _OFF
