"""The terminal view of a game: board with its lit LEDs, both hands, moves, evaluation, link.

`render(state)` builds a rich renderable from a plain ViewState, so the same picture serves
`games show`, `play`, `sim` and `demo` (live-updated there) and tests read it as text.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from shogicore.notation import hodges_name
from shogicore.position import Position, piece_colour, piece_kind
from shogicore.variants import BLACK, WHITE, variant_by_name
from yariboard.piecenames import piece_name

# Background colour of a square per LED style (names from boardfw.ledlang); the legend
# under the board repeats the ones in use.
LED_STYLES = {
    "destination": ("green", "legal destination"),
    "lifted": ("grey50", "lifted from here"),
    "last-move": ("navy_blue", "last move"),
    "check": ("red3", "General in check"),
    "fix-place": ("red", "fix: put a piece here"),
    "fix-lift": ("magenta", "fix: take this piece off"),
    "order-from": ("dark_cyan", "engine move: from"),
    "order-to": ("cyan", "engine move: to"),
    "hint-from": ("dark_goldenrod", "hint: from"),
    "hint-to": ("gold3", "hint: to"),
    "choice-promote": ("orange3", "choice: promote"),
    "choice-keep": ("grey70", "choice: keep"),
    "takeback": ("blue", "take back?"),
    "impasse": ("white", "impasse declared?"),
    "winner": ("green3", "winner"),
    "loser": ("red", "loser"),
    "draw": ("yellow", "draw"),
}
CHOICE_PREFIX = "choice-"
RESULT_TEXT = {"black": "Black wins", "white": "White wins", "draw": "Draw"}


@dataclass
class Evaluation:
    """The engine's latest opinion, from Black's point of view."""
    score: int = 0          # centipawns, + good for Black
    mate: Optional[int] = None  # plies to mate, + Black mates
    depth: int = 0
    pv: List[str] = field(default_factory=list)  # Hodges

    def describe(self):
        if self.mate is not None:
            side = "Black" if self.mate > 0 else "White"
            text = "%s mates in %d" % (side, (abs(self.mate) + 1) // 2)
        else:
            text = "%+.2f" % (self.score / 100.0)
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
    moves: List[str] = field(default_factory=list)       # Hodges, in order
    first_side: int = BLACK                               # who played moves[0]
    black: str = ""
    white: str = ""
    evaluation: Optional[Evaluation] = None
    status: str = ""                                      # connection status line
    result: str = ""                                      # e.g. "black:mate"
    message: str = ""


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


def board_table(state, variant, position):
    table = Table(show_header=True, show_edge=True, box=None, padding=(0, 0), pad_edge=False)
    table.add_column("", justify="left", width=2)
    for file in range(variant.files, 0, -1):
        table.add_column(str(file), justify="center", width=4)
    for rank in range(1, variant.ranks + 1):
        cells = [Text(chr(96 + rank) + " ")]
        for file in range(variant.files, 0, -1):
            square = variant.square(file, rank)
            piece = position.piece_at(square)
            label = piece_label(variant, piece) if piece else "."
            style = "bold" if piece and piece_colour(piece) == BLACK else ("red" if piece else "grey42")
            led = state.leds.get(variant.square_name(square))
            if led:
                style += " on " + led_colour(led)
            cells.append(Text(label.center(4), style=style))
        table.add_row(*cells)
    return table


def piece_key(variant, position):
    """'CK Crane King, SP Sparrow Pawn, ...' for the kinds on the board and in the hands,
    when the variant's letters need a key (yariboard.piecenames); else None."""
    kinds = {piece_kind(position.piece_at(sq)) for sq in variant.squares if position.piece_at(sq)}
    kinds |= {kind for kind in variant.hand_kinds
              if position.hand_count(BLACK, kind) or position.hand_count(WHITE, kind)}
    names = [(hodges_name(variant, kind), piece_name(variant, variant.symbol(kind)))
             for kind in sorted(kinds)]
    if not names or names[0][1] is None:
        return None
    return Text("Pieces: " + ", ".join("%s %s" % pair for pair in names), style="grey62")


def led_colour(style):
    if style in LED_STYLES:
        return LED_STYLES[style][0]
    return "orange3" if style.startswith(CHOICE_PREFIX) else "white"


def led_legend(state):
    used = sorted(set(state.leds.values()))
    if not used:
        return Text("LEDs: all dark", style="grey42")
    legend = Text("LEDs: ")
    for style in used:
        squares = sorted(sq for sq, s in state.leds.items() if s == style)
        meaning = LED_STYLES.get(style, (None, style))[1]
        legend.append("  ", style="on " + led_colour(style))
        legend.append(" %s %s  " % (meaning, ",".join(squares)))
    return legend


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
    side = "Black" if position.side == BLACK else "White"
    title = "%s (Black) vs %s (White)" % (state.black or "?", state.white or "?")
    lines = [
        Text("White hand: " + hand_text(variant, position, WHITE), style="red"),
        board_table(state, variant, position),
        Text("Black hand: " + hand_text(variant, position, BLACK), style="bold"),
        led_legend(state),
    ]
    info = Table.grid(padding=(0, 2))
    info.add_column(style="grey62")
    info.add_column()
    if state.result:
        winner, _, reason = state.result.partition(":")
        info.add_row("result", Text("%s (%s)" % (RESULT_TEXT.get(winner, winner), reason), style="bold"))
    else:
        info.add_row("to move", side)
    if state.evaluation:
        info.add_row("engine", state.evaluation.describe())
    if state.status:
        info.add_row("board", state.status)
    if state.message:
        info.add_row("", state.message)
    body = Table.grid(padding=(0, 3))
    moves = Group(Text("Moves", style="underline"), move_list(state, width=12), Text(""), info)
    if variant.files > 9:   # no room beside an 11 x 11 board in 80 columns: moves go below
        body.add_row(Group(*lines))
        body.add_row(moves)
    else:
        body.add_row(Group(*lines), moves)
    key = piece_key(variant, position)
    return Panel(Group(body, key) if key else body, title=title, title_align="left")
