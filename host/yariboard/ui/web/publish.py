"""From a play session to the live feed: what the loops of play, sim, demo and serve call after
each step. It keeps what one snapshot cannot know alone (the notation so far, the
evaluation after each move for the graph) and publishes only when something changed."""
import json

from yariboard.records.analysis import capped
from yariboard.ui.screen import SessionScreen
from yariboard.ui.web import snapshot

MATE_SCORE = 10000


class LiveBoard:
    def __init__(self, feed, name):
        self.feed = feed
        self.name = name
        self.notation = snapshot.Notation()
        self.evals = {}           # ply -> Black's score after it, while the same game goes on
        self.game = None
        self.screen = None        # the SessionScreen of the session followed

    def update(self, session, leds=None, phase=""):
        """Publish the board's state now (`leds`, `phase`: from the board, when known); True
        if it changed. A `watch(session, leds, phase)` as play.demo and ui.console call it."""
        if self.screen is None or self.screen.session is not session:
            self.screen = SessionScreen(session)
        state = self.screen.state(leds, phase=phase)
        record = session.recorder.record()
        snap = snapshot.live(self.name, state, record, self.notation, session.clock)
        if snap["game_id"] != self.game:
            self.game, self.evals = snap["game_id"], {}
        evaluation = state.evaluation
        if evaluation is not None and record is not None:
            score = evaluation.score if evaluation.mate is None else (
                MATE_SCORE if evaluation.mate > 0 else -MATE_SCORE)
            self.evals[len(snap["moves"])] = capped(score)
        snap["evals"] = sorted([ply, score] for ply, score in self.evals.items()
                               if ply <= len(snap["moves"]))
        return self.feed.publish(self.name, snap)

    def gone(self, status):
        """The board was pulled out: its page keeps the game, says so on the status line."""
        _, text = self.feed.latest(self.name)
        snap = json.loads(text)
        snap.update(status=status, leds=[], legend=[])
        self.feed.publish(self.name, snap)
