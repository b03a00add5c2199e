"""Whatever follows the games besides the terminal: the web pages and the voice.

The loops that run a game (play.demo, the console's loops, `yariboard serve`) call a
`watch(session, leds, phase)` after each step; `Spectators.watch(name)` is that callback for
board `name`, publishing it to its live page and saying its moves aloud.
"""
from yariboard.ui.voice import Announcer, Voice
from yariboard.ui.web.feed import LiveFeed
from yariboard.ui.web.publish import LiveBoard
from yariboard.ui.web.server import DEFAULT_HOST, DEFAULT_PORT, WebServer


class Spectators:
    """The web pages (with `serve`) and the voice (with `voice`, a language) of the boards'
    games. The voice follows the first board it is given only (one voice, one game)."""

    def __init__(self, db_path, serve=False, host=DEFAULT_HOST, port=DEFAULT_PORT, voice=None):
        self.feed = LiveFeed()
        self.server = WebServer(self.feed, db_path, host=host, port=port) if serve else None
        self.voice = Voice(voice) if voice else None
        self.announcer = Announcer(self.voice) if voice else None
        self.voiced = None
        self.boards = {}

    def start(self):
        """Start the server and print where its pages are; OSError if the port is taken."""
        if self.server:
            self.server.start()
            print(self.server.banner(), flush=True)
        return self

    def update(self, name, session, leds=None, phase=""):
        """Board `name` after a step of its `session` (`leds`, `phase`: from the board, when
        known)."""
        if self.server:
            if name not in self.boards:
                self.boards[name] = LiveBoard(self.feed, name)
            self.boards[name].update(session, leds, phase)
        if self.announcer and self.voiced in (None, name):
            self.voiced = name
            self.announcer.update(session)

    def gone(self, name):
        """Board `name` was pulled out (its port vanished)."""
        if name in self.boards:
            self.boards[name].gone("pulled out: plug it back in to go on")

    def watch(self, name, then=None):
        """The watch(session, leds, phase) callback of board `name`, calling the watch `then`
        (the terminal's screen) first when given."""
        def watch(session, leds=None, phase=""):
            if then is not None:
                then(session, leds, phase)
            self.update(name, session, leds, phase)
        return watch

    def close(self):
        if self.server:
            self.server.stop()
        if self.voice:
            self.voice.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
