"""The LED language: the one table of what each square's light means on the board.

Each style has a colour, a blink pattern and a meaning. A pattern is 8 steps of STEP_MS
(one second in all): b'#' lit, b'.' dark. The interpreter says which style each square
shows; `colour(style, now_ms)` turns that into the (r, g, b) to send at that instant.
docs/led-language.png is drawn from this table by tools/render_led_language.py.
"""

STEP_MS = 125
OFF = (0, 0, 0)

STEADY = b"########"
BLINK = b"####...."
FAST = b"#.#.#.#."
OFFER = b"######.."
FLASH = b"#......."

# Style names (the interpreter uses these constants, the table below describes them).
DESTINATION = "destination"
LIFTED = "lifted"
LAST_MOVE = "last-move"
CHECK = "check"
FIX_PLACE = "fix-place"
FIX_LIFT = "fix-lift"
ORDER_FROM = "order-from"
ORDER_TO = "order-to"
HINT_FROM = "hint-from"
HINT_TO = "hint-to"
CHOICE_PROMOTE = "choice-promote"
CHOICE_KEEP = "choice-keep"
TAKEBACK = "takeback"
IMPASSE = "impasse"
WINNER = "winner"
LOSER = "loser"
DRAW = "draw"

# One drop-choice style per piece letter (SFEN, as Black writes it): "choice-P" ...
CHOICE_PREFIX = "choice-"

# name, (r, g, b), pattern, meaning. Order = order of the legend in the picture.
TABLE = (
    (DESTINATION, (0, 90, 0), STEADY, "legal destination of the lifted piece"),
    (LIFTED, (40, 40, 40), STEADY, "where the lifted piece came from"),
    (LAST_MOVE, (0, 0, 45), STEADY, "the previous move (from and to)"),
    (CHECK, (160, 0, 0), BLINK, "this General is in check"),
    (FIX_PLACE, (200, 0, 0), FAST, "fix: put a piece back here"),
    (FIX_LIFT, (160, 0, 160), FAST, "fix: take this piece off"),
    (ORDER_FROM, (0, 110, 110), STEADY, "ordered move (PC/engine): take from here"),
    (ORDER_TO, (0, 110, 110), BLINK, "ordered move (PC/engine): put it here"),
    (HINT_FROM, (110, 90, 0), STEADY, "hint: move from here"),
    (HINT_TO, (110, 90, 0), BLINK, "hint: to here"),
    (CHOICE_PROMOTE, (200, 120, 0), OFFER, "choice offered: promote"),
    (CHOICE_KEEP, (120, 120, 120), OFFER, "choice offered: do not promote"),
    (CHOICE_PREFIX + "P", (150, 150, 150), OFFER, "drop choice offered: Pawn"),
    (CHOICE_PREFIX + "L", (0, 160, 160), OFFER, "drop choice offered: Lance (shogi)"),
    (CHOICE_PREFIX + "N", (0, 170, 0), OFFER, "drop choice offered: (Yari) Knight"),
    (CHOICE_PREFIX + "S", (90, 110, 190), OFFER, "drop choice offered: Silver (shogi)"),
    (CHOICE_PREFIX + "G", (200, 150, 0), OFFER, "drop choice offered: Gold (shogi)"),
    (CHOICE_PREFIX + "B", (0, 0, 220), OFFER, "drop choice offered: (Yari) Bishop"),
    (CHOICE_PREFIX + "R", (220, 0, 0), OFFER, "drop choice offered: (Yari) Rook"),
    (TAKEBACK, (0, 60, 200), BLINK, "dropped piece lifted: press A to take the drop back"),
    (IMPASSE, (150, 150, 150), FAST, "press B again to declare impasse"),
    (WINNER, (0, 160, 0), BLINK, "game over: the winner's General"),
    (LOSER, (160, 0, 0), STEADY, "game over: the loser's General"),
    (DRAW, (140, 110, 0), STEADY, "game over: a draw (both Generals)"),
)

STYLES = {}
DROP_CHOICE = {}  # piece letter -> its drop-choice style name
for _name, _rgb, _pattern, _meaning in TABLE:
    STYLES[_name] = (_rgb, _pattern)
    if _name.startswith(CHOICE_PREFIX) and len(_name) == len(CHOICE_PREFIX) + 1:
        DROP_CHOICE[_name[-1]] = _name


def lit(style, now_ms):
    """Is `style` in the lit part of its blink pattern at `now_ms`?"""
    pattern = STYLES[style][1]
    return pattern[(now_ms // STEP_MS) % len(pattern)] == 35  # ord('#')


def colour(style, now_ms):
    """The (r, g, b) a square of `style` shows at `now_ms`; OFF in a dark blink step."""
    return STYLES[style][0] if lit(style, now_ms) else OFF
