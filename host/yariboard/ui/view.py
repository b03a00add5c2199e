"""The terminal view of a game: board with its lit LEDs, both hands, moves, evaluation, link.

`render(state)` builds a rich renderable from a plain ViewState, so the same picture serves
`games show`, `play`, `sim` and `demo` (live-updated there) and tests read it as text.

The LEDs are drawn from the firmware's own LED table (boardfw/ledlang.py): each lit square
gets its style's colour as background and a one-character mark after the piece, so the
picture reads without colour too; a blinking style is drawn lit (with the terminal's blink
attribute) whatever the moment, since the board shows it every second. The status line
says what the board is waiting for, derived from the interpreter's phase and the lit styles
only, so it cannot go stale.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from yariboard.records.notation import hodges_name
from shogicore.position import Position, piece_colour, piece_kind
from shogicore.variants import BLACK, WHITE, variant_by_name
from yariboard.board.ledstyles import MEANINGS, channels, style_names, style_rows
from yariboard.ui.piecenames import piece_name

# The mark each LED style adds to its square in the grid (drop choices: the piece letter).
LED_MARKS = {
    "destination": "o", "lifted": "^", "last-move": "~", "check": "!", "fix-place": "?",
    "fix-lift": "x", "order-from": "<", "order-to": ">", "hint-from": "h", "hint-to": "H",
    "choice-promote": "+", "choice-keep": "=", "takeback": "u", "impasse": "I",
    "winner": "W", "loser": "#", "draw": "D",
}
CHOICE_PREFIX = "choice-"
STEADY = b"########"
BLINK_WORDS = {b"####....": "blinks", b"#.#.#.#.": "flashes", b"######..": "pulses"}
RESULT_TEXT = {"black": "Black wins", "white": "White wins", "draw": "Draw"}
# A board at most this many characters wide leaves room for the moves at its right in 80
# columns (the 9x9 board); a wider one (11x11) gets the moves under it.
SIDE_BY_SIDE_WIDTH = 48
# Terminal colours of the LEDs: the table's colours are dim (they light a square from
# below), so each is scaled up to this brightness, keeping its hue.
SCREEN_BRIGHTNESS = 200


def _style_rows():
    return {name: row for row, name in enumerate(style_names())}


STYLE_ROWS = _style_rows()


def led_mark(style):
    if style.startswith(CHOICE_PREFIX) and style not in LED_MARKS:
        return style[len(CHOICE_PREFIX):]
    return LED_MARKS.get(style, "*")


def led_rgb(style):
    """The screen colour '#rrggbb' of a style: the LED table's colour, brightened."""
    row = STYLE_ROWS.get(style)
    if row is None:
        return "#808080"
    r, g, b = channels(style_rows()[row][0])
    scale = SCREEN_BRIGHTNESS / max(r, g, b, 1)
    return "#%02x%02x%02x" % tuple(min(255, int(c * scale)) for c in (r, g, b))


def led_blink(style):
    """'' for a steady style, else how it blinks ('blinks', 'flashes', 'pulses')."""
    row = STYLE_ROWS.get(style)
    if row is None:
        return ""
    pattern = bytes(style_rows()[row][1])
    return "" if pattern == STEADY else BLINK_WORDS.get(pattern, "blinks")


@dataclass
class Evaluation:
    """The engine's latest opinion, from Black's point of view."""
    score: int = 0          # centipawns, + good for Black
    mate: Optional[int] = None  # plies to mate, + Black mates
    depth: int = 0
    pv: List[str] = field(default_factory=list)  # Hodges

    def score_text(self):
        """'+0.35 for Black' or 'White mates in 2': always from Black's point of view."""
        if self.mate is not None:
            side = "Black" if self.mate > 0 else "White"
            return "%s mates in %d" % (side, (abs(self.mate) + 1) // 2)
        return "%+.2f for Black" % (self.score / 100.0)

    def describe(self):
        text = self.score_text()
        if self.depth:
            text += "  (depth %d)" % self.depth
        if self.pv:
            text += "  " + " ".join(self.pv[:6])
        return text


@dataclass
class ViewState:
    variant: str = "yari"
    sfen: str = ""
    leds: Dict[str, str] = field(default_factory=dict)   # square name -> LED style
    phase: str = ""                                       # the interpreter's, if known
    moves: List[str] = field(default_factory=list)       # Hodges, in order
    first_side: int = BLACK                               # who played moves[0]
    black: str = ""
    white: str = ""
    evaluation: Optional[Evaluation] = None
    status: str = ""                                      # connection status line
    result: str = ""                                      # e.g. "black:mate"
    message: str = ""
    hint: str = ""                                        # Hodges of the lit hint
    order: str = ""                                       # "the engine's move P-7f"
    refusal: str = ""                                     # why the board refused
    choice: str = ""                                      # offered move (board events)
    mismatch: List[str] = field(default_factory=list)     # squares to put right (events)
    thinking: str = ""                                    # the engine's search in progress
    clock: str = ""                                       # both clocks


def piece_label(variant, piece):
    """Hodges letters of a piece ('YR', '+P'), White's marked with a leading 'v'."""
    text = hodges_name(variant, piece_kind(piece))
    return ("v" + text) if piece_colour(piece) == WHITE else text


def hand_text(variant, position, colour):
    parts = []
    for kind in variant.hand_kinds:
        count = position.hand_count(colour, kind)
        if count:
            parts.append(hodges_name(variant, kind) + ("x%d" % count if count > 1 else ""))
    return " ".join(parts) or "-"


def label_width(variant):
    """Characters of the longest piece label of the variant ('v+YR': 4)."""
    return 1 + max(len(hodges_name(variant, kind)) for kind in variant.kinds)


def board_grid(state, variant, position):
    """The board as text lines: file numbers, then one line per rank, each square as its
    piece label right-aligned plus one LED mark (blank when dark)."""
    width = label_width(variant) + 1
    header = Text("  " + "".join(str(file).rjust(width) + " " for file in
                                 range(variant.files, 0, -1)), style="grey62")
    lines = [header]
    for rank in range(1, variant.ranks + 1):
        line = Text(chr(96 + rank) + " ", style="grey62")
        for file in range(variant.files, 0, -1):
            square = variant.square(file, rank)
            piece = position.piece_at(square)
            label = piece_label(variant, piece) if piece else "."
            style = "bold" if piece and piece_colour(piece) == BLACK else ("red" if piece else "grey42")
            led = state.leds.get(variant.square_name(square))
            if led:
                style = "bold black on " + led_rgb(led) + (" blink" if led_blink(led) else "")
                line.append(label.rjust(width) + led_mark(led), style=style)
            else:
                line.append(label.rjust(width) + " ", style=style)
        lines.append(line)
    return lines


def piece_key(variant, position):
    """'CK Crane King, SP Sparrow Pawn, ...' for the kinds on the board and in the hands,
    when the variant's letters need a key (yariboard.ui.piecenames); else None."""
    kinds = {piece_kind(position.piece_at(sq)) for sq in variant.squares if position.piece_at(sq)}
    kinds |= {kind for kind in variant.hand_kinds
              if position.hand_count(BLACK, kind) or position.hand_count(WHITE, kind)}
    names = [(hodges_name(variant, kind), piece_name(variant, variant.symbol(kind)))
             for kind in sorted(kinds)]
    if not names or names[0][1] is None:
        return None
    return Text("Pieces: " + ", ".join("%s %s" % pair for pair in names), style="grey62")


def led_legend(state):
    """One line per style lit: its mark and colour, meaning, blinking and squares."""
    used = sorted(set(state.leds.values()), key=lambda s: STYLE_ROWS.get(s, 99))
    if not used:
        return [Text("LEDs: all dark", style="grey42")]
    lines = [Text("LEDs:", style="grey62")]
    for style in used:
        squares = sorted(sq for sq, s in state.leds.items() if s == style)
        line = Text("  ")
        line.append(" %s " % led_mark(style), style="bold black on " + led_rgb(style))
        meaning = MEANINGS.get(style, style)
        blink = led_blink(style)
        line.append(" %s%s: %s" % (meaning, " (%s)" % blink if blink else "", " ".join(squares)))
        lines.append(line)
    return lines


def side_name(colour):
    return "Black" if colour == BLACK else "White"


def status_line(state, position):
    """What the board is waiting for, from the phase and the lit styles alone."""
    leds = state.leds
    lit = set(leds.values())
    at = {style: sq for sq, style in sorted(leds.items())}
    return (_game_over_text(state) or _phase_text(state, lit, at)
            or _to_move_text(state, position, lit))


def _game_over_text(state):
    if state.result:
        winner, _, reason = state.result.partition(":")
        return "game over: %s (%s)" % (RESULT_TEXT.get(winner, winner), reason)
    if state.phase == "game-over":
        return "game over"
    return None


def _phase_text(state, lit, at):
    """What the board waits for in a phase of its own (a set-up, a refusal, a choice, a
    take-back, a piece in the hand), or what a real board last reported; None in play."""
    phase = state.phase
    if phase == "setup":
        return "set up the board: fill the '?' squares, empty the 'x' squares"
    if phase == "refused":
        return "not accepted%s: put the lit squares right" % (
            " (%s)" % state.refusal if state.refusal else "")
    if not phase and state.mismatch:  # a real board: no picture, its last reports
        return "put the pieces right on %s" % " ".join(state.mismatch)
    if not phase and state.choice:
        return "choice offered: %s (B or re-seat: next; A: confirm)" % state.choice
    if phase == "choice":
        for style in lit:
            if style.startswith(CHOICE_PREFIX):
                return "choice on %s: %s (B or re-seat: next; A: confirm)" % (
                    at[style], MEANINGS.get(style, style).replace("choice offered: ", ""))
        return "choice offered"
    if phase == "takeback":
        return "the drop on %s lifted: A takes it back, or put it back" % at["takeback"]
    if phase == "moving" and "lifted" in lit:
        count = sum(1 for style in state.leds.values() if style == "destination")
        return "piece lifted from %s: %d legal destination%s lit" % (
            at["lifted"], count, "" if count == 1 else "s")
    if phase == "moving":
        return "pieces moving"
    return None


def _to_move_text(state, position, lit):
    """Whose move it is, and what the lit squares ask of the person meanwhile."""
    text = "%s to move" % side_name(position.side)
    if "check" in lit:
        text += ", in check"
    if "order-to" in lit:
        text += "; carry out %s" % (state.order or "the lit move")
        text += " (<from >to)" if "order-from" in lit else " (>drop here)"
    if "hint-to" in lit:
        text += "; hint: %s" % (state.hint or "")
    if "impasse" in lit:
        text += "; press B again to declare impasse"
    return text


def move_list(state, width=6):
    """Numbered pairs, last `width` lines: '12. P-7f  P-3d'."""
    rows = []
    moves = list(state.moves)
    if state.first_side == WHITE and moves:
        moves.insert(0, "...")
    for index in range(0, len(moves), 2):
        pair = moves[index:index + 2]
        rows.append("%3d. %-9s %s" % (index // 2 + 1, pair[0], pair[1] if len(pair) > 1 else ""))
    return Text("\n".join(rows[-width:]) or "(no moves yet)")


def render(state):
    variant = variant_by_name(state.variant)
    position = Position(variant, state.sfen or None)
    title = "%s (Black) vs %s (White)" % (state.black or "?", state.white or "?")
    board = [Text("White hand: " + hand_text(variant, position, WHITE), style="red")]
    board += board_grid(state, variant, position)
    board.append(Text("Black hand: " + hand_text(variant, position, BLACK), style="bold"))
    info = Table.grid(padding=(0, 1))
    info.add_column(style="grey62")
    info.add_column()
    if state.result:
        winner, _, reason = state.result.partition(":")
        info.add_row("result", Text("%s (%s)" % (RESULT_TEXT.get(winner, winner), reason), style="bold"))
    else:
        info.add_row("to move", side_name(position.side))
    if state.evaluation:
        info.add_row("engine", state.evaluation.describe())
    if state.status:
        info.add_row("board", state.status)
    moves = Group(Text("Moves", style="underline"), move_list(state, width=variant.ranks + 3),
                  Text(""), info)
    width = 2 + variant.files * (label_width(variant) + 2)
    if width <= SIDE_BY_SIDE_WIDTH:
        body = Table.grid(padding=(0, 2))
        body.add_column(no_wrap=True, min_width=width)
        body.add_column()
        body.add_row(Group(*board), moves)
        parts = [body]
    else:
        parts = [Group(*board), moves]
    parts += led_legend(state)
    parts.append(Text("status: " + status_line(state, position), style="bold"))
    if state.clock:
        parts.append(Text("clock: " + state.clock))
    if state.thinking:
        parts.append(Text("engine " + state.thinking, style="cyan"))
    if state.message:
        parts.append(Text(state.message, style="yellow"))
    key = piece_key(variant, position)
    if key:
        parts.append(key)
    return Panel(Group(*parts), title=title, title_align="left")
