"""Running an engine over an archived game: its evaluation of every position, stored as
`records.analysis.Analysis` (which holds the model, the marks and what the exports show).

Every position of the game (the start and the position after each move) is searched with
the same budget; positions where the game is over are judged by the rules, not searched.
"""
import time

from shogicore.move import parse_usi, to_usi
from shogicore.variants import BLACK, variant_by_name

from yariboard.engines.base import MATE_SCORE, Limit
from yariboard.records.analysis import Analysis, PlyEvaluation
from yariboard.records.game import now_stamp, replay, starting_position


def budget_text(nodes=None, seconds=None):
    return "%d nodes" % nodes if nodes else "%g s" % seconds


def analyse(record, engine, engine_name, nodes=None, seconds=None, on_progress=None):
    """Search every position of `record` with `engine`; returns an Analysis.

    `on_progress(done, total, elapsed_seconds)` is called after each position.
    Positions where the game is over are not searched: no legal move is a mate (the side
    to move lost), and a repetition ending scores 0.
    """
    if not nodes and not seconds:
        raise ValueError("give a node budget or seconds per position")
    replay(record)  # refuse a record with an impossible move before the engine starts
    started = time.monotonic()
    result = Analysis(engine=engine_name, budget=budget_text(nodes, seconds), at=now_stamp())
    engine.new_game()
    position = starting_position(record)
    variant = variant_by_name(record.variant)
    usi_moves = record.usi_moves()
    limit = Limit(time=seconds, nodes=nodes)
    for ply in range(len(usi_moves) + 1):
        if ply:
            position.push(parse_usi(variant, usi_moves[ply - 1]))
        result.evaluations.append(_evaluate(position, engine, limit, ply))
        if on_progress:
            on_progress(ply + 1, len(usi_moves) + 1, time.monotonic() - started)
    return result


def _evaluate(position, engine, limit, ply):
    """The PlyEvaluation of `position`, from Black's point of view."""
    sign = 1 if position.side == BLACK else -1
    if not position.legal_moves():
        return PlyEvaluation(ply, -sign * MATE_SCORE, 0)
    if position.status():
        return PlyEvaluation(ply, 0, None)
    found = engine.search(position, limit)
    mate = None if found.mate is None else sign * found.mate
    best = to_usi(position.variant, found.move) if found.move is not None else ""
    return PlyEvaluation(ply, sign * found.score, mate, best)
