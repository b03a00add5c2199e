"""Generated requests of every shape against the pages: each gets an answer with a status
that says what happened, never a server error, and the server goes on answering."""
import socket

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yariboard.records.archive import Archive
from yariboard.ui.web.feed import LiveFeed
from yariboard.ui.web.server import WebServer

pytestmark = [pytest.mark.external]

ANSWERS = {200, 307, 400, 403, 404, 405, 413, 414, 415, 431, 503}
SEGMENTS = st.sampled_from(["", "static", "board", "game", "archive", "events", "1", "..",
                            "%2e%2e", "%00", "%ff", "download.pgn", "players", "board.js",
                            "shogiground", "9" * 30, "-1", "a" * 300])
QUERY = st.lists(st.tuples(st.sampled_from(["board", "player", "date", "variant", "result", "x"]),
                           st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF),
                                   max_size=40)), max_size=6)
METHOD = st.sampled_from([b"GET", b"HEAD", b"POST", b"PUT", b"GARBAGE"])
HEADERS = st.lists(st.tuples(st.sampled_from([b"Content-Length", b"X-Yariboard-Token",
                                              b"Transfer-Encoding", b"Accept", b"X-Junk"]),
                             st.binary(max_size=30).filter(lambda b: b"\r" not in b and b"\n" not in b)),
                   max_size=5)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("fuzz") / "games.sqlite3")
    Archive(db).close()
    feed = LiveFeed()
    feed.publish("1", {"board": "1", "moves": []})
    with WebServer(feed, db, port=0) as running:
        yield running


def quote(text):
    return "".join(c if c.isalnum() else "%%%02X" % b for c in text for b in c.encode("utf-8")
                   ) if text else ""


def ask(port, request):
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(request)
        reply = b""
        while b"text/event-stream" not in reply:       # a stream never ends: its head will do
            chunk = sock.recv(65536)
            if not chunk:
                break
            reply += chunk
    return reply


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(method=METHOD, segments=st.lists(SEGMENTS, max_size=5), query=QUERY, headers=HEADERS)
def test_any_request_gets_an_answer_never_a_server_error(server, method, segments, query, headers):
    path = ("/" + "/".join(segments)).encode("utf-8")
    if query:
        path += b"?" + "&".join("%s=%s" % (key, quote(value)) for key, value in query).encode()
    request = (method + b" " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
               + b"".join(name + b": " + value + b"\r\n" for name, value in headers) + b"\r\n")
    reply = ask(server.port, request)
    assert reply.startswith(b"HTTP/1.1 "), reply[:80]
    assert int(reply.split(b" ", 2)[1]) in ANSWERS, reply[:200]
    assert b"Traceback" not in reply
