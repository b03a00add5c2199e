"""The live boards' newest snapshots, handed from the recording to the web pages' streams.

`publish` (the recording's side, any thread) serialises a snapshot once, keeps only the
newest one per board and tells the listeners, which must not wait: the web server's
listener hands the text to the server's own process (server.py), where the event streams
publish it into their own copy of the feed and wake their viewers. A snapshot is complete (every move), so a slow viewer skips
versions, never moves.
"""
import json
import threading


class LiveFeed:
    def __init__(self):
        self._lock = threading.Lock()
        self._boards = {}        # name -> (version, JSON text)
        self._order = []         # board names, in order of first publication
        self.listeners = []      # listener(board, text), called after every change

    def publish(self, board, snap):
        """Make `snap` the newest state of `board`; True if it differs from the last one."""
        return self.publish_text(board, json.dumps(snap, ensure_ascii=False,
                                                   separators=(",", ":")))

    def publish_text(self, board, text):
        with self._lock:
            version, old = self._boards.get(board, (0, None))
            if text == old:
                return False
            if board not in self._boards:
                self._order.append(board)
            self._boards[board] = (version + 1, text)
        for listener in list(self.listeners):
            listener(board, text)
        return True

    def names(self):
        with self._lock:
            return list(self._order)

    def latest(self, board):
        """(version, JSON text) of a board; KeyError for an unknown board."""
        with self._lock:
            return self._boards[board]
