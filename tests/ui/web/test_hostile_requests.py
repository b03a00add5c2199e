"""Requests nobody's page sends get a clear refusal, and the recording goes on untouched:
path traversal, huge headers and bodies, other methods, malformed event requests, idle
connections by the hundred, a viewer that stops reading; and the one change a page can
make needs the start-up token, and is refused outright when the server is shared."""
import socket
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from yariboard.play.boards import SimTable
from yariboard.records.archive import Archive
from yariboard.ui.web.feed import LiveFeed
from yariboard.ui.web.publish import LiveBoard
from yariboard.ui.web.server import WebServer

pytestmark = [pytest.mark.micropython]

WAIT_S = 60               # generous: a busy machine is slow, never wrong
MOVE_WAIT_S = 120


def raw(port, request, read=True):
    """Send bytes as they are (no client tidies the path) and return the reply's bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as sock:
        sock.sendall(request)
        if not read:
            return b""
        reply = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            reply += chunk
        return reply


def status(reply):
    return int(reply.split(b" ", 2)[1])


def get(port, path, extra=b""):
    return raw(port, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" + extra + b"\r\n")


@pytest.fixture
def recording(tmp_path):
    """A server beside a simulated board whose game is being recorded; `play(n)` makes n
    more moves and publishes them."""
    db = str(tmp_path / "games.sqlite3")
    feed = LiveFeed()
    with Archive(db) as archive, WebServer(feed, db, port=0, max_connections=60,
                                                  header_timeout=1.0, send_timeout=1.0) as server:
        table = SimTable("1", archive, seed=7)
        live = LiveBoard(feed, "1")

        def play(moves):
            target = table.recorder.stored_count() + moves
            deadline = time.monotonic() + MOVE_WAIT_S
            while table.recorder.stored_count() < target or table.pending:
                assert time.monotonic() < deadline
                table.step(0.02)
                live.update(table.session, table.leds(), table.phase())

        try:
            play(2)
            yield server, archive, table, play, feed
            play(2)       # the recording goes on after all of it...
            game = archive.game(table.recorder.game_id)
            assert game.usi_moves() == table.played      # ...with every move, exactly once
            assert table.recorder.faults == 0
        finally:
            table.close()


def test_paths_outside_the_served_files_are_refused(recording):
    server, _, _, play, _ = recording
    for path in (b"/static/../../../../etc/passwd", b"/static/..%2f..%2f..%2fapp.py",
                 b"/static/%2e%2e/%2e%2e/server.py", b"/static/shogiground/../../app.py",
                 b"/static//etc/passwd", b"/../../etc/passwd", b"/static/%00"):
        reply = get(server.port, path)
        assert status(reply) in (400, 404), path
        assert b"root:" not in reply and b"import" not in reply
        play(0)
    for path in (b"/game/99999999999999999999999", b"/game/-1", b"/game/1/download.exe",
                 b"/board/%00", b"/archive?player=%ff%fe&date=%00"):
        reply = get(server.port, path)
        assert status(reply) in (200, 404), path               # an answer, never a 500
    assert status(get(server.port, b"/static/board.js")) == 200


def test_huge_headers_bodies_and_other_methods_are_refused(recording):
    server, _, _, play, _ = recording
    reply = get(server.port, b"/", b"X-Big: " + b"a" * 100000 + b"\r\n")
    assert status(reply) in (400, 431)           # refused by h11 while it arrives, or whole
    reply = get(server.port, b"/", b"X-Big: " + b"a" * 17000 + b"\r\n")
    assert status(reply) in (400, 431)
    reply = get(server.port, b"/", b"".join(b"X-%d: 1\r\n" % n for n in range(5000)))
    assert status(reply) in (400, 431)
    reply = get(server.port, b"/", b"".join(b"X-%d: 1\r\n" % n for n in range(100)))
    assert status(reply) == 431 and b"more than 64 header lines" in reply
    reply = raw(server.port, b"POST /game/1/players HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n"
                             b"Connection: close\r\n\r\n" + b"a" * 1000)
    assert status(reply) == 413 and b"request body over 4096 bytes" in reply
    chunk = b"a" * 3000
    reply = raw(server.port, b"POST /game/1/players HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                             b"X-Yariboard-Token: " + server.token.encode() + b"\r\n"
                             b"Connection: close\r\n\r\n" + (b"%x\r\n%s\r\n" % (len(chunk), chunk)) * 3
                + b"0\r\n\r\n")
    assert status(reply) == 413 and b"request body over 4096 bytes" in reply
    for method in (b"PUT", b"DELETE", b"PATCH", b"OPTIONS", b"TRACE"):
        reply = raw(server.port, method + b" / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status(reply) == 405, method
    reply = get(server.port, b"/archive?player=" + b"a" * 5000)
    assert status(reply) == 414
    play(1)


def test_malformed_event_requests_get_a_clear_refusal(recording):
    server, _, _, play, _ = recording
    for path, code in ((b"/events?board=nowhere", 404), (b"/events?size=1", 400),
                       (b"/events?board=1&board=1", 400), (b"/events?board=%ff%fe", 404),
                       (b"/events?board=\xff", 400), (b"/events?" + b"&" * 3000, 414)):
        reply = get(server.port, path)
        assert status(reply) == code, path
        assert reply.rstrip().split(b"\r\n")[-1], "a refusal says why"
    reply = raw(server.port, b"POST /events HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                             b"Connection: close\r\n\r\n")
    assert status(reply) == 405
    play(1)


def test_idle_connections_are_refused_beyond_the_limit_then_dropped(recording):
    server, _, _, play, _ = recording
    idle = [socket.create_connection(("127.0.0.1", server.port), timeout=WAIT_S) for _ in range(70)]
    try:
        idle[0].sendall(b"GET / HTTP/1.1\r\nHost")          # half a request, never finished
        play(1)
        reply = get(server.port, b"/")
        assert status(reply) == 503                           # the server's places are taken
        deadline = time.monotonic() + WAIT_S                  # silent ones are let go
        for sock in idle:
            sock.settimeout(max(0.1, deadline - time.monotonic()))
            assert sock.recv(1) == b""
        assert status(get(server.port, b"/")) == 200
    finally:
        for sock in idle:
            sock.close()
    play(1)


def test_a_viewer_that_stops_reading_is_dropped(recording):
    server, _, _, play, feed = recording
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    try:
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        deadline = time.monotonic() + WAIT_S
        while server.viewers() < 1:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        padding = "x" * 200000
        for number in range(100):                # 20 MB the viewer never reads
            assert feed.publish("flood %d" % number, {"padding": padding})
        while server.viewers():
            assert time.monotonic() < deadline, "the viewer that reads nothing was kept"
            time.sleep(0.05)
        play(2)
    finally:
        sock.close()


def test_changes_need_the_token_and_a_shared_server_refuses_them(recording, tmp_path):
    server, archive, table, play, _ = recording
    game_id = table.recorder.game_id
    url = server.url + "game/%d/players" % game_id
    form = urllib.parse.urlencode({"black": "Aoki", "white": "Brown"}).encode()

    def post(token, target=url):
        request = urllib.request.Request(target, data=form, method="POST")
        if token is not None:
            request.add_header("X-Yariboard-Token", token)
        try:
            with urllib.request.urlopen(request, timeout=WAIT_S) as reply:
                return reply.status, reply.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    assert post(None)[0] == 403
    assert post("guess")[0] == 403
    reply = raw(server.port, b"POST /game/%d/players HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                             b"X-Yariboard-Token: \xe9\xff\r\nConnection: close\r\n\r\n" % game_id)
    assert status(reply) == 403
    assert archive.game(game_id).black != "Aoki"
    assert post(server.token) == (200, b"players of game %d set\n" % game_id)
    assert (archive.game(game_id).black, archive.game(game_id).white) == ("Aoki", "Brown")
    with WebServer(LiveFeed(), archive.path, host="0.0.0.0", port=0) as shared:
        assert not shared.writable and "read-only" in shared.banner()
        code, text = post(shared.token, "http://127.0.0.1:%d/game/%d/players" % (shared.port, game_id))
        assert code == 403 and b"read-only" in text
    play(1)
