"""The live event streams as a viewer's socket sees them: every viewer of all the boards is
sent the very same bytes, a viewer of one board only that board's events, each ending with
the newest snapshot; and a viewer that stops reading is dropped after the send timeout even
when what it left unread is under the size that drops it at once."""
import json
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

from yariboard.ui.web.app import MAX_BUFFERED
from yariboard.ui.web.feed import LiveFeed
from yariboard.ui.web import server as server_module
from yariboard.ui.web.server import WebServer

WAIT_S = 60               # generous: a busy machine is slow, never wrong
CHANGES = 6


def follow(port, query=b""):
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT_S)
    sock.sendall(b"GET /events" + query + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    return sock


def wait_until_known(server, board):
    """Until the server process has `board`: the recording hands a new board over at once,
    but through a pipe to another process, and a stream of a board it does not have yet is
    refused."""
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            urllib.request.urlopen(server.url + "board/" + board, timeout=WAIT_S).close()
            return
        except urllib.error.HTTPError:
            assert time.monotonic() < deadline, "the server never had board %s" % board
            time.sleep(0.02)


def wait_for_viewers(server, count):
    deadline = time.monotonic() + WAIT_S
    while server.viewers() != count:
        assert time.monotonic() < deadline, "%d viewers, not %d" % (server.viewers(), count)
        time.sleep(0.02)


def read_until(sock, last):
    """The bytes a viewer receives until every board in `last` ({board: n}) has shown its
    snapshot number n."""
    received = b""
    while True:
        head, _, body = received.partition(b"\r\n\r\n")
        newest = {}
        for board, n in snapshots(body):
            newest[board] = n
        if all(newest.get(board) == n for board, n in last.items()):
            return head, body
        chunk = sock.recv(65536)
        assert chunk, "the stream ended before the newest snapshots"
        received += chunk


def snapshots(body):
    """(board, n) of every whole event in a stream's body, in order."""
    found = []
    for event in body.split(b"\n\n")[:-1]:
        lines = event.split(b"\n")
        if lines[0] == b"event: board":
            snap = json.loads(lines[1][len(b"data: "):])
            found.append((snap["board"], snap["n"]))
    return found


@pytest.fixture
def server():
    feed = LiveFeed()
    feed.publish("east", {"board": "east", "n": 0})
    feed.publish("west", {"board": "west", "n": 0})
    with WebServer(feed, port=0, send_timeout=1.0) as running:
        yield running, feed


def test_every_viewer_of_the_boards_is_sent_the_same_bytes_and_one_board_only_its_own(server):
    server, feed = server
    everything = [follow(server.port) for _ in range(2)]
    wait_for_viewers(server, 2)
    wait_until_known(server, "west")
    west = follow(server.port, b"?board=west")
    wait_for_viewers(server, 3)
    try:
        for n in range(1, CHANGES + 1):
            for board in ("east", "west"):
                feed.publish(board, {"board": board, "n": n})
        first = read_until(everything[0], {"east": CHANGES, "west": CHANGES})
        second = read_until(everything[1], {"east": CHANGES, "west": CHANGES})
        assert first == second
        head, body = first
        assert head.startswith(b"HTTP/1.1 200 ")
        assert b"content-type: text/event-stream; charset=utf-8" in head.lower()
        seen = snapshots(body)
        assert seen[:2] == [("east", 0), ("west", 0)]
        for board in ("east", "west"):
            numbers = [n for name, n in seen if name == board]
            assert numbers == sorted(set(numbers))        # newer each time, none twice
        _, body = read_until(west, {"west": CHANGES})
        assert {name for name, _ in snapshots(body)} == {"west"}
    finally:
        for sock in everything + [west]:
            sock.close()
    wait_for_viewers(server, 0)


def test_a_viewer_that_leaves_less_than_the_limit_unread_is_dropped_after_the_timeout(server):
    server, feed = server
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    reader = follow(server.port)
    read = {}
    # the viewer that reads does so all along, in a thread: the padding must not pile up in
    # its socket too, however small the kernel's buffers
    reading = threading.Thread(target=lambda: read.update(
        until=read_until(reader, {"pad 2": 1, "west": 1})), daemon=True)
    try:
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        wait_for_viewers(server, 2)
        reading.start()
        padding = "x" * (MAX_BUFFERED // 4)
        for n in range(3):                       # 3/4 of the limit, which the viewer never reads
            feed.publish("pad %d" % n, {"board": "pad %d" % n, "n": 1, "padding": padding})
        deadline = time.monotonic() + WAIT_S
        while server.viewers() != 1:
            assert time.monotonic() < deadline, "the viewer that reads nothing was kept"
            time.sleep(0.05)
        feed.publish("west", {"board": "west", "n": 1})
        reading.join(WAIT_S)
        assert "until" in read                   # the one that reads goes on
    finally:
        sock.close()
        reader.close()


def test_a_board_that_starts_after_the_server_is_handed_to_it_at_once(monkeypatch):
    """Changes of boards the server has go in batches; a board it has not had yet must not
    wait for one, even one already begun (its page is "not found" until the server has it).
    With an hour's batch, only that rule lets the page be found within the wait."""
    monkeypatch.setattr(server_module, "BATCH_S", 3600)
    feed = LiveFeed()
    feed.publish("early", {"board": "early", "n": 0})
    with WebServer(feed, port=0) as running:
        feed.publish("early", {"board": "early", "n": 1})     # begins an hour's batch
        time.sleep(0.2)   # for the batch to begin (on a busy machine it may not: no harm)
        feed.publish("late", {"board": "late", "n": 0})
        wait_until_known(running, "late")
