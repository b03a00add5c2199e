"""What a web page is told about a game: plain JSON-ready dicts, built from the same state
the terminal view draws (ui.view.ViewState) or from an archived record.

One snapshot is complete on its own (position, hands, every move, LEDs, clocks, evaluation),
so a viewer that missed an update loses nothing by getting only the newest one. Squares are
named as in the rules core ('7g'), which is also how the board component (shogiground) keys
them; the page draws pieces with the variant's own names (`piece_styles`).
"""
from shogicore.move import is_drop, move_from, move_to, parse_usi
from yariboard.records.notation import hodges_name, to_hodges
from shogicore.position import Position
from shogicore.variants import BLACK, variant_by_name
from yariboard.board.ledstyles import MEANINGS, style_names
from yariboard.play.clocks import format_seconds
from yariboard.ui.japanese import piece_kanji, written_move
from yariboard.ui.piecenames import piece_name
from yariboard.ui.view import RESULT_TEXT, led_rgb

VARIANTS = ("yari", "shogi", "wa", "wa-nodrops")
PROMOTED_COLOUR = "#b3261e"


def role(symbol):
    """The board component's name of a piece: its SFEN letter, lower case, 'p' before it
    when promoted ('+B' -> 'pb'); a CSS class, so it must be a plain word."""
    return ("p" if symbol.startswith("+") else "") + symbol[-1].lower()


def symbols(variant):
    """Every SFEN symbol of a variant as Black writes it, in kind order."""
    kinds = range(1, len(variant.symbols) // 2)
    return [s for s in (variant.symbol(kind) for kind in kinds) if s]


def layout(variant_name):
    """Board size and the kinds a hand can hold, as the page sets up its board."""
    variant = variant_by_name(variant_name)
    return {"variant": variant.name, "files": variant.files, "ranks": variant.ranks,
            "hand_roles": [role(variant.symbol(kind)) for kind in variant.hand_kinds]}


class Notation:
    """The moves of a game in Hodges and Japanese, kept from one snapshot to the next so a
    long game is not written out again for every move."""

    def __init__(self):
        self.key = None
        self.usi = []
        self.rows = []
        self.position = None
        self.last_to = None

    def rows_for(self, variant_name, start_sfen, usi_moves):
        key = (variant_name, start_sfen)
        if key != self.key or usi_moves[:len(self.usi)] != self.usi:
            self.key, self.usi, self.rows = key, [], []
            self.position = Position(variant_by_name(variant_name), start_sfen)
            self.last_to = None
        variant = self.position.variant
        for text in usi_moves[len(self.usi):]:
            move = parse_usi(variant, text)
            japanese = written_move(self.position, move, self.last_to)
            self.rows.append({"usi": text, "hodges": to_hodges(self.position, move),
                              "japanese": japanese})
            self.position.push(move)
            self.last_to = move_to(move)
            self.usi.append(text)
        return self.rows


def position_fields(position):
    """The position as the page's board takes it, with the last move's squares."""
    board, side, hands = position.sfen().split()[:3]
    last = []
    move = position.last_move()
    if move is not None:
        variant = position.variant
        last = [variant.square_name(move_to(move))]
        if not is_drop(move):
            last.insert(0, variant.square_name(move_from(move)))
    return {"sfen": position.sfen(), "board_sfen": board, "hands_sfen": "" if hands == "-" else hands,
            "turn": "black" if side == "b" else "white", "last": last}


def clock_fields(clock):
    """Both clocks as the board's owner sees them: [{side, text, running}]; [] without one."""
    if clock is None:
        return []
    rows = []
    for side, name in ((BLACK, "black"), (1 - BLACK, "white")):
        main, byoyomi = clock.remaining(side)
        text = format_seconds(main)
        if main <= 0 and clock.control.byoyomi:
            text = "byoyomi " + format_seconds(byoyomi)
        rows.append({"side": name, "text": text, "running": clock.running == side})
    return rows


def result_text(result):
    """'Black wins (mate)' from 'black:mate'; '' for a game going on."""
    if not result:
        return ""
    winner, _, reason = result.partition(":")
    text = RESULT_TEXT.get(winner, winner)
    return "%s (%s)" % (text, reason) if reason else text


def live(board, state, record, notation, clock=None):
    """The snapshot of one board now: `state` its ViewState, `record` the followed game as
    the recorder holds it (None before the board was heard)."""
    snap = {"board": board, "status": state.status, "message": state.message,
            "leds": sorted([square, style] for square, style in state.leds.items()),
            "clocks": clock_fields(clock), "order": state.order, "hint": state.hint,
            "legend": [[style, MEANINGS.get(style, style)] for style in sorted(set(state.leds.values()))]}
    if record is None:
        snap.update(layout("yari"), moves=[], game_id=None, black="", white="", result="",
                    sfen="", board_sfen="", hands_sfen="", turn="black", last=[])
        return snap
    usi = record.usi_moves()
    rows = notation.rows_for(record.variant, record.start_sfen, usi)
    snap.update(layout(record.variant))
    snap.update(position_fields(notation.position))
    snap.update(game_id=record.id or None, black=state.black or record.black,
                white=state.white or record.white, moves=rows,
                result=result_text(state.result), evaluation=None)
    if state.evaluation is not None:
        snap["evaluation"] = {"text": state.evaluation.score_text(),
                              "score": state.evaluation.score, "mate": state.evaluation.mate,
                              "pv": state.evaluation.pv}
    return snap


def archived(record, analysis=None):
    """An archived game for its page: headers, every position along the game (so stepping
    needs no server), the moves and the stored analysis."""
    position = Position(variant_by_name(record.variant), record.start_sfen)
    positions = [position_fields(position)]
    walk = [position.copy()]
    for entry in record.moves:
        position.push_usi(entry.usi)
        positions.append(position_fields(position))
        walk.append(position.copy())
    rows = Notation().rows_for(record.variant, record.start_sfen, record.usi_moves())
    game = dict(layout(record.variant), game_id=record.id or None, black=record.black,
                white=record.white, date=record.date, handicap=record.handicap,
                mode=record.mode, result=result_text(
                    "%s:%s" % (record.winner, record.reason) if record.winner else ""),
                moves=rows, positions=positions, analysis=None)
    if analysis is not None:
        game["analysis"] = {"engine": analysis.engine, "budget": analysis.budget,
                            "plies": [{"ply": e.ply, "score": e.score, "mate": e.mate,
                                       "best": _hodges(walk, e.ply, e.best)}
                                      for e in analysis.evaluations]}
    return game


def _hodges(positions, ply, usi):
    """The engine's best move at `ply` in Hodges ('' when none or not a move there)."""
    if not usi or not 0 <= ply < len(positions):
        return usi
    try:
        return to_hodges(positions[ply], parse_usi(positions[ply].variant, usi))
    except ValueError:
        return usi


def piece_styles():
    """CSS giving every piece of every variant its label (its Japanese name and the Hodges
    letters) and every LED style its colour, from the tables the rules core and the firmware
    use, so the page never keeps a copy of its own."""
    rules = []
    for name in VARIANTS[:3]:
        variant = variant_by_name(name)
        for symbol in symbols(variant):
            kind = variant.kind_of(symbol)
            label = "%s\\A %s" % (piece_kanji(variant, symbol), hodges_name(variant, kind))
            title = piece_name(variant, symbol)
            colour = (" color: %s;" % PROMOTED_COLOUR) if symbol.startswith("+") else ""
            scopes = [name] + (["wa-nodrops"] if name == "wa" else [])
            rules.append('%s { content: "%s";%s }%s' % (
                ", ".join(".v-%s piece.%s::after" % (scope, role(symbol)) for scope in scopes),
                label, colour, (" /* %s */" % title) if title else ""))
    for style in style_names():
        rules.append("sg-squares sq.led-%s { box-shadow: inset 0 0 0 0.35em %s; "
                     "background-color: %s66; }" % (style, led_rgb(style), led_rgb(style)))
        rules.append(".led-swatch.led-%s { background: %s; }" % (style, led_rgb(style)))
    return "\n".join(rules) + "\n"
