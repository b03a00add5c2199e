"""Analysis of an archived game: an engine's evaluation of every position, and marks for
the moves that lost the most. (`yariboard.engines.analysis` runs the engine; this module
keeps what it found.)

Every position of the game (the start and the position after each move) is searched with
the same budget. The evaluation after a move, set against the evaluation before it, both
from the mover's point of view, is what the move lost (never less than 0; a move the engine
itself chose loses nothing). Evaluations are capped at ±EVAL_CAP first, so a won game
thrown away counts as a big loss while a mate found one move later than possible does not.

| mark | loss (centipawns) | shown |
|---|---|---|
| inaccuracy | 50 to 149 | `?!` |
| mistake | 150 to 299 | `?` |
| blunder | 300 or more | `??` |

A pawn is worth 90-100 centipawns in both variants, so a blunder gives away about three
pawns or a minor piece, a mistake about one and a half pawns.
"""
from dataclasses import dataclass, field
from typing import List, Optional

from shogicore.move import parse_usi
from yariboard.records.notation import to_hodges
from shogicore.variants import BLACK

from yariboard.records.game import replay, starting_position

EVAL_CAP = 2000
MARKS = (("blunder", 300, "??"), ("mistake", 150, "?"), ("inaccuracy", 50, "?!"))
SYMBOL_OF_MARK = {name: symbol for name, _, symbol in MARKS}


@dataclass
class PlyEvaluation:
    """The engine's view of the position after `ply` moves (0: the start)."""
    ply: int
    score: int               # centipawns, + good for Black; a mate is ±(100000 - plies)
    mate: Optional[int]      # plies to mate, + Black mates; None when no mate was seen
    best: str = ""           # the engine's move in this position (USI); '' when it has none


@dataclass
class Analysis:
    engine: str              # which engine, e.g. "Fairy-Stockfish 1.1.12"
    budget: str              # its budget per position, e.g. "10000 nodes" or "1 s"
    at: str                  # when the analysis was made (records.TIME_FORMAT)
    evaluations: List[PlyEvaluation] = field(default_factory=list)


@dataclass
class MoveNote:
    """What the analysis says about move number `ply` (1-based)."""
    ply: int
    usi: str
    before: PlyEvaluation
    after: PlyEvaluation
    loss: int                # centipawns the mover lost with it (0 when it was the best move)
    mark: str                # '', 'inaccuracy', 'mistake' or 'blunder'
    best: str                # the engine's move (USI) when it differs from the one played


def capped(score):
    return max(-EVAL_CAP, min(EVAL_CAP, score))


def mark_for(loss):
    for name, threshold, _ in MARKS:
        if loss >= threshold:
            return name
    return ""


def move_notes(record, analysis):
    """One MoveNote per move; [] when the analysis does not fit the record (moves changed)."""
    evaluations = analysis.evaluations
    if len(evaluations) != len(record.moves) + 1:
        return []
    notes = []
    start_side = starting_position(record).side
    for ply, entry in enumerate(record.moves, 1):
        before, after = evaluations[ply - 1], evaluations[ply]
        mover_sign = 1 if (start_side == BLACK) == (ply % 2 == 1) else -1
        if before.best == entry.usi:
            loss = 0
        else:
            loss = max(0, mover_sign * (capped(before.score) - capped(after.score)))
        notes.append(MoveNote(ply, entry.usi, before, after, loss, mark_for(loss),
                              before.best if before.best != entry.usi else ""))
    return notes


def describe_score(evaluation):
    """'+0.35', '-2.10', 'Black mates in 3' (moves, not plies), from Black's point of view."""
    if evaluation.mate is not None:
        if evaluation.mate == 0:
            return "mated" if evaluation.score < 0 else "mate"
        side = "Black" if evaluation.mate > 0 else "White"
        return "%s mates in %d" % (side, (abs(evaluation.mate) + 1) // 2)
    return "%+.2f" % (evaluation.score / 100.0)


SPARK = "▁▂▃▄▅▆▇█"


def sparkline(analysis, scale=1000):
    """One character per position: low = White ahead, high = Black ahead (±`scale` cp)."""
    out = []
    for evaluation in analysis.evaluations:
        share = (max(-scale, min(scale, evaluation.score)) + scale) / (2.0 * scale)
        out.append(SPARK[min(len(SPARK) - 1, int(share * len(SPARK)))])
    return "".join(out)


def bar(evaluation, width=10, scale=500):
    """A two-sided bar: Black's advantage grows right of the middle, White's left."""
    share = max(-scale, min(scale, evaluation.score)) / float(scale)
    cells = int(round(abs(share) * width))
    if share >= 0:
        return " " * width + "|" + "█" * cells + " " * (width - cells)
    return " " * (width - cells) + "█" * cells + "|" + " " * width


# -- storing ------------------------------------------------------------------------------


def save(archive, game_id, analysis):
    archive.store_analysis(game_id, analysis.engine, analysis.budget, analysis.at,
                           [(e.ply, e.score, e.mate, e.best) for e in analysis.evaluations])


def load(archive, game_id):
    """The stored Analysis of a game, or None."""
    stored = archive.analysis_rows(game_id)
    if stored is None:
        return None
    engine, budget, at, rows = stored
    return Analysis(engine, budget, at, [PlyEvaluation(*row) for row in rows])


# -- comments for the exports --------------------------------------------------------------


def comment_text(note, best_text, with_eval=True):
    parts = ["eval %s" % describe_score(note.after)] if with_eval else []
    if note.mark:
        parts.append("%s (-%d)" % (note.mark, note.loss))
    if note.best:
        parts.append("best %s" % best_text)
    return ", ".join(parts)


def pgn_comments(record, analysis):
    """{ply: text} for the PGN-like writer: `[%eval ...] mark, best Hodges`."""
    notes = move_notes(record, analysis)
    hodges = _best_in(record, notes, to_hodges)
    return {note.ply: ("[%%eval %s] %s" % (describe_score(note.after),
                                            comment_text(note, hodges[note.ply], with_eval=False))).strip()
            for note in notes}


def kif_comments(record, analysis):
    """{ply: [lines]} for the KIF writer: ShogiHome's `#評価値=` line, then a note."""
    from yariboard.records.formats.kif import move_text
    notes = move_notes(record, analysis)
    words = {"inaccuracy": "疑問手", "mistake": "悪手", "blunder": "大悪手"}
    best = _best_in(record, notes, lambda position, move: move_text(position.variant, position, move, None))
    out = {}
    for note in notes:
        lines = ["#評価値=%d" % note.after.score]
        text = comment_text(note, best[note.ply])
        if note.mark:
            text = words[note.mark] + " " + text
        lines.append(text)
        out[note.ply] = lines
    return out


def json_fields(record, analysis):
    """{ply: fields} for the JSON writer, and the analysis' own header."""
    notes = move_notes(record, analysis)
    moves = {}
    for note in notes:
        fields = {"eval": note.after.score, "loss": note.loss}
        if note.after.mate is not None:
            fields["mate"] = note.after.mate
        if note.mark:
            fields["mark"] = note.mark
        if note.best:
            fields["best"] = note.best
        moves[note.ply] = fields
    header = {"engine": analysis.engine, "budget": analysis.budget, "at": analysis.at,
              "start_eval": analysis.evaluations[0].score if notes else None}
    return header, moves


def _best_in(record, notes, render):
    """{ply: the best move, rendered in its position} for the notes that name one."""
    wanted = {note.ply: note.best for note in notes if note.best}
    out = {note.ply: "" for note in notes}

    def visit(index, position, move):
        if index + 1 in wanted:
            out[index + 1] = render(position, parse_usi(position.variant, wanted[index + 1]))

    replay(record, visit)
    return out
