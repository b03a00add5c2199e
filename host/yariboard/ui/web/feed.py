"""The live boards' newest snapshots, handed from the recording to the web pages' streams.

The recording (any thread) calls `publish`; that serialises the snapshot once, keeps only the
newest one per board and wakes the server's loop with a non-blocking call, so the recording
never waits for a viewer. A stream that wakes sends each board's newest snapshot it has not
sent yet; a snapshot is complete (every move), so a slow viewer skips versions, never moves.
"""
import asyncio
import json
import threading
import time


class LiveFeed:
    def __init__(self):
        self._lock = threading.Lock()
        self._boards = {}        # name -> (version, JSON text, time.monotonic() of publication)
        self._order = []         # board names, in order of first publication
        self._loop = None
        self._waiters = set()    # asyncio.Event of every open stream
        self.closing = False     # set when the server stops: every stream ends

    def attach(self, loop):
        """The server's event loop, where the streams wait."""
        self._loop = loop
        self.closing = False

    def publish(self, board, snap):
        """Make `snap` the newest state of `board`; True if it differs from the last one."""
        text = json.dumps(snap, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            version, old, _ = self._boards.get(board, (0, None, 0.0))
            if text == old:
                return False
            if board not in self._boards:
                self._order.append(board)
            self._boards[board] = (version + 1, text, time.monotonic())
        self._call(self._wake)
        return True

    def close(self):
        """End every stream (the server is stopping)."""
        self.closing = True
        self._call(self._wake)

    def _call(self, function):
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(function)
            except RuntimeError:          # the loop closed meanwhile: nobody to wake
                pass

    def _wake(self):
        for event in self._waiters:
            event.set()

    def names(self):
        with self._lock:
            return list(self._order)

    def latest(self, board):
        """(version, JSON text, published at) of a board; KeyError for an unknown board."""
        with self._lock:
            return self._boards[board]

    def subscribe(self):
        """An asyncio.Event set whenever a board changes (call on the server's loop)."""
        event = asyncio.Event()
        self._waiters.add(event)
        return event

    def unsubscribe(self, event):
        self._waiters.discard(event)

    def viewers(self):
        return len(self._waiters)
