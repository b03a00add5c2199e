"""Playing through the board: engines order their moves, people carry them out.

An engine's move is sent with `show` (the board lights it as an order) and counts only when
the board commits it, i.e. once someone has performed it with the pieces; the recorder
archives it then, like any move. A hint (the board's button or the host's request) is the
engine's choice for the side to move, lit with `hint`. After a reconnect or a board reboot
the pending order is sent again (a rebooted board has forgotten it) without a new search.
"""
from shogicore.notation import parse_usi, to_hodges, to_usi
from shogicore.position import Position
from shogicore.variants import BLACK, variant_by_name

from yariboard.link import BoardRefused, Disconnected
from yariboard.view import Evaluation, ViewState

HINT_SECONDS = 0.5


class PlaySession:
    def __init__(self, recorder, engines, time_limit=None, on_order=None):
        """`engines`: {BLACK or WHITE: engine} for the sides the computer plays.

        `on_order(position, move)` is called after an engine move was lit on the board
        (the demo's scripted hands carry it out there).
        """
        self.recorder = recorder
        self.engines = engines
        self.time_limit = time_limit
        self.on_order = on_order
        self.evaluation = None
        self.message = ""
        self._chosen = {}          # (board game, ply) -> engine move, searched once
        self._lit = None           # (board game, ply, link connections) last sent with show
        self._notation = ([], [])  # (USI moves, their Hodges) of the game shown

    def finished(self):
        return self.recorder.result != "-"

    def step(self, timeout=0.05):
        events = self.recorder.step(timeout)
        for verb, words in events:
            if verb == "hint-request":
                self.hint()
            elif verb == "illegal":
                self.message = "illegal move %s: it loses (tournament)" % (words[0] if words else "")
            elif verb == "refused":
                self.message = "not accepted (%s): fix the lit squares" % (words[0] if words else "?")
            elif verb == "choice":
                self.message = "choice offered: %s (B or re-seat: next, A: confirm)" % (words[0] if words else "")
            elif verb == "warning":
                self.message = "board warning: " + " ".join(words)
            elif verb == "mismatch":
                self.message = ("board differs from the game on %s square(s): %s"
                                % (words[0], " ".join(words[1:])) if words and words[0] != "0" else "")
        self._order_engine_move()
        return events

    def _key(self):
        position = self.recorder.position
        return (self.recorder.board_game, len(position.moves()))

    def _order_engine_move(self):
        position = self.recorder.position
        if position is None or self.finished() or position.side not in self.engines:
            return
        if not self.recorder.link.connected() or self.recorder.link.needs_resync:
            return
        key = self._key()
        lit = key + (self.recorder.link.connections,)
        if self._lit == lit:
            return
        move = self._chosen.get(key)
        if move is None:
            result = self.engines[position.side].search(position.copy(), time_limit=self.time_limit)
            if result.move is None:
                return       # no legal move: the board announces the end itself
            self.evaluation = black_view(position, result)
            move = self._chosen[key] = result.move
        try:
            self.recorder.link.request("show", to_usi(position.variant, move))
        except (BoardRefused, Disconnected):
            self.recorder.link.needs_resync = True
            return
        self._lit = lit
        if self.on_order:
            self.on_order(position, move)

    def hint(self, engine=None):
        """Light the engine's choice for the side to move; returns it (USI) or None."""
        position = self.recorder.position
        if position is None or self.finished():
            return None
        if position.side in self.engines:
            self.message = "no hint: the engine is to move"
            return None
        engine = engine or next(iter(self.engines.values()))
        result = engine.search(position.copy(), time_limit=HINT_SECONDS)
        if result.move is None:
            return None
        self.evaluation = black_view(position, result)
        usi = to_usi(position.variant, result.move)
        try:
            self.recorder.link.request("hint", usi)
        except (BoardRefused, Disconnected):
            return None
        self.message = "hint: " + to_hodges(position, result.move)
        return usi

    def view(self, leds=None, names=("", "")):
        """The ViewState of the game on the board now."""
        record = self.recorder.record()
        if record is None:
            return ViewState(status=self.recorder.link.status, leds=leds or {})
        usi = record.usi_moves()
        done_usi, done_hodges = self._notation
        common = 0
        while common < min(len(usi), len(done_usi)) and usi[common] == done_usi[common]:
            common += 1
        variant = variant_by_name(record.variant)
        position = Position(variant, record.start_sfen)
        first_side = position.side
        hodges = done_hodges[:common]
        for index, text in enumerate(usi):
            move = parse_usi(variant, text)
            if index >= common:
                hodges.append(to_hodges(position, move))
            position.push(move)
        self._notation = (usi, hodges)
        result = "" if self.recorder.result == "-" else self.recorder.result
        return ViewState(variant=record.variant, sfen=position.sfen(), leds=leds or {},
                         moves=hodges, first_side=first_side,
                         black=record.black or names[0], white=record.white or names[1],
                         evaluation=self.evaluation, status=self.recorder.link.status,
                         result=result, message=self.message)


def black_view(position, result):
    """The engine's score for the side to move, turned to Black's point of view."""
    sign = 1 if position.side == BLACK else -1
    pv = []
    walk = position.copy()
    for move in result.pv or [result.move]:
        try:
            pv.append(to_hodges(walk, move))
            walk.push(move)
        except ValueError:
            break
    return Evaluation(score=sign * result.score,
                      mate=None if result.mate is None else sign * result.mate,
                      depth=result.depth, pv=pv)
