"""The screen model of a play session: the ViewState drawn from what the session knows.

The session (yariboard.play.session) keeps facts: the recorder's game, the engine's latest
opinion as its raw search result, the search in progress, what is lit and why. This module
turns them into the words and numbers on the screen: moves in Hodges notation, the score
from Black's point of view, the search's progress line.
"""
import time

from shogicore.move import parse_usi
from yariboard.records.notation import to_hodges
from shogicore.position import Position
from shogicore.variants import BLACK, variant_by_name

from yariboard.ui.view import Evaluation, ViewState


class SessionScreen:
    """The ViewState of a session's game; remembers the moves already written in Hodges
    so that a long game is not replayed for every frame."""

    def __init__(self, session):
        self.session = session
        self._notation = ([], [])  # (USI moves, their Hodges) of the game shown

    def state(self, leds=None, names=("", ""), phase=""):
        """The ViewState of the game on the board now (`leds`, `phase`: from the board)."""
        session = self.session
        recorder = session.recorder
        record = recorder.record()
        search = session.searching()
        thinking = thinking_text(search) if search is not None else ""
        if record is None:
            return ViewState(status=recorder.link.status, leds=leds or {}, phase=phase,
                             thinking=thinking, message=session.message)
        variant = variant_by_name(record.variant)
        position = Position(variant, record.start_sfen)
        first_side = position.side
        hodges = self._hodges(position, record.usi_moves())
        result = "" if recorder.result == "-" else recorder.result
        if not result and record.winner and record.reason:   # ended by the host (adjudication)
            result = "%s:%s" % (record.winner, record.reason)
        evaluation = black_view(*session.opinion) if session.opinion else None
        return ViewState(variant=record.variant, sfen=position.sfen(), leds=leds or {},
                         phase=phase, moves=hodges, first_side=first_side,
                         black=record.black or names[0], white=record.white or names[1],
                         evaluation=evaluation, status=recorder.link.status,
                         result=result, message=session.message, hint=session.lit_hint(),
                         order=session.lit_order(), refusal=session.refusal,
                         thinking=thinking, choice=session.choice,
                         mismatch=list(session.mismatch),
                         clock=session.clock.describe() if session.clock else "")

    def _hodges(self, position, usi):
        """The Hodges of `usi` played from `position` (which ends after them)."""
        done_usi, done_hodges = self._notation
        common = 0
        while common < min(len(usi), len(done_usi)) and usi[common] == done_usi[common]:
            common += 1
        hodges = done_hodges[:common]
        for index, text in enumerate(usi):
            move = parse_usi(position.variant, text)
            if index >= common:
                hodges.append(to_hodges(position, move))
            position.push(move)
        self._notation = (usi, hodges)
        return hodges


def thinking_text(search):
    """'thinking 3 s: depth 4, 12000 nodes, best P-7f, +0.35 for Black' (the score is
    always from Black's point of view, whichever side the engine plays)."""
    parts = ["thinking %d s:" % (time.monotonic() - search.started)]
    progress = getattr(search.engine, "progress", None)
    if progress is not None:
        if progress.depth:
            parts.append("depth %d" % progress.depth)
        if progress.nodes:
            parts.append("%d nodes" % progress.nodes)
        best = progress.move if progress.move is not None else (
            progress.pv[0] if progress.pv else None)
        if best is not None:
            try:
                parts.append("best " + to_hodges(search.position, best))
            except ValueError:
                pass
        parts.append(black_view(search.position, progress).score_text())
    return parts[0] + " " + ", ".join(parts[1:])


def black_view(position, result):
    """The engine's score for the side to move, turned to Black's point of view."""
    sign = 1 if position.side == BLACK else -1
    pv = []
    walk = position.copy()
    for move in result.pv or ([result.move] if result.move is not None else []):
        try:
            pv.append(to_hodges(walk, move))
            walk.push(move)
        except ValueError:
            break
    return Evaluation(score=sign * result.score,
                      mate=None if result.mate is None else sign * result.mate,
                      depth=result.depth, pv=pv)
