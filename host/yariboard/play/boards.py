"""Several boards recorded by one host at once, into one archive.

Each board has its own link and its own Recorder, so each resynchronises on its own: after
any reconnect a recorder asks its board which game it plays (`state`) and follows that game
by the board's own game id, so a move is stored under the game of the board that made it
whichever port the board comes back on.

`BoardPool` follows the real boards on the serial ports (a USB hub) by their identity (the
USB serial number: link.attached_boards): a board that appears gets a recorder, one that is
gone is let go, and plugged back on any port it is the same board again. `SimTable` is one
simulated board where two built-in engines play, for `serve --sim N` and the tests; its
name is its identity.
"""
from shogicore.move import to_usi
from shogicore.variants import BLACK, WHITE
from yariboard.board.link import Link, attached_boards
from yariboard.engines.builtin.search import Engine
from yariboard.engines.players import adjudicate
from yariboard.play.demo import WINNER_NAMES
from yariboard.play.recorder import Recorder
from yariboard.play.session import PlaySession
from yariboard.sim.rig import SimRig


class BoardPool:
    """A play session (a recorder, no engine) for every board the `finder` lists as
    {identity: port path}: the attached Picos by default."""

    def __init__(self, archive, finder=attached_boards):
        self.archive = archive
        self.finder = finder
        self.sessions = {}           # identity -> PlaySession
        self.ports = {}              # identity -> port path, as last scanned

    def scan(self):
        """Follow the boards that appeared; let go those that were pulled out. Returns the
        identities followed."""
        self.ports = dict(self.finder())
        for identity in sorted(set(self.ports) - set(self.sessions)):
            link = Link(finder=lambda identity=identity: self._port_of(identity))
            self.sessions[identity] = PlaySession(Recorder(link, self.archive), {})
        for identity in sorted(set(self.sessions) - set(self.ports)):
            self.sessions.pop(identity).recorder.link.close()
        return sorted(self.sessions)

    def _port_of(self, identity):
        """Where board `identity` was last seen: a board moved to another port between two
        scans is reconnected there."""
        return [self.ports[identity]] if identity in self.ports else []

    def step(self, timeout=0.05):
        """One step of every board, the time shared between them."""
        share = timeout / max(1, len(self.sessions))
        for session in list(self.sessions.values()):
            session.step(share)

    def close(self):
        for session in self.sessions.values():
            session.recorder.link.close()
        self.sessions = {}


class SimTable:
    """A simulated board with two built-in engines playing on it: what a demo tournament
    shows. Every engine move is lit on the board and carried out by scripted hands."""

    def __init__(self, name, archive, levels=(2, 1), seed=1, seconds_per_move=0.1,
                 board="yari-9x7", clock=None, max_plies=None):
        self.name = name
        self.archive = archive
        self.max_plies = max_plies
        self.names = tuple("%s: level %d" % (side, level) for side, level
                           in zip(("Black", "White"), levels))
        self.rig = SimRig(board=board).start()
        self.link = Link(finder=self.rig.ports)
        self.recorder = Recorder(self.link, archive, black=self.names[0], white=self.names[1])
        self.pending = []
        self.adjudicated = False
        self.played = []             # USI of the moves the hands carried out, in order
        engines = {BLACK: Engine(level=levels[0], seed=seed),
                   WHITE: Engine(level=levels[1], seed=seed + 1)}
        self.session = PlaySession(self.recorder, engines, time_limit=seconds_per_move,
                                   on_order=self._ordered, clock=clock)

    def _ordered(self, position, move):
        self.pending.append((position.copy(), move))

    def step(self, timeout=0.02):
        """Follow the board, and carry out the engine's move once it is lit; at the move
        limit the game is adjudicated by material, as the demo does."""
        if self.finished():
            self.recorder.step(timeout)
            return
        self.session.step(timeout)
        if self.pending:
            position, move = self.pending.pop()
            self.rig.perform(position, move)
            self.played.append(to_usi(position.variant, move))
        position = self.recorder.position
        if self.max_plies and position is not None and len(position.moves()) >= self.max_plies:
            self.archive.finish(self.recorder.game_id, WINNER_NAMES[adjudicate(position)],
                                "adjudication")
            self.adjudicated = True

    def finished(self):
        return self.adjudicated or self.session.finished()

    def leds(self):
        """The board's LEDs now (square -> style)."""
        return self.rig.led_styles()

    def phase(self):
        """What the board is doing now, as its screen says it."""
        return self.rig.phase()

    def close(self):
        self.link.close()
        self.rig.close()
