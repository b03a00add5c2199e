"""The web pages: live boards, the tournament, the archive; and what every request may ask.

Safe by default: the pages only read. The one change a page can make (the players' names of
an archived game) needs the token printed when the server starts, and is refused outright
when the server listens beyond this machine (`writable` False). Every request is bounded:
GET, HEAD or POST only, a short URL, a small body; static files come only from the
package's own folder (Starlette's StaticFiles refuses any path outside it).
"""
import asyncio
import secrets
import socket
import threading
from importlib import resources
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from yariboard.records import analysis as analyses
from yariboard.records import formats
from yariboard.records.archive import Archive, ArchiveError
from yariboard.records.game import RecordError, check_name
from yariboard.ui.web import pages, snapshot

MAX_URL = 2048               # characters of path and query
MAX_BODY = 4096              # bytes of a request body (the names form)
MAX_HEADERS = 64             # header lines of a request
MAX_HEADER_BYTES = 16384     # all of them together (h11 refuses a longer one still arriving)
MAX_STREAMS = 1000           # viewers following the live boards at once
SEND_TIMEOUT_S = 5.0         # a viewer that reads nothing for this long is dropped
HEARTBEAT_S = 15.0           # a comment line keeps quiet streams open through proxies
MAX_BUFFERED = 256 * 1024    # bytes a viewer may leave unread beyond the socket's own buffer
STREAM_SOCKET_BUFFER = 64 * 1024   # an event stream's socket send buffer (Linux doubles it)
TRANSPORT = "yariboard.transport"   # the scope's extension holding the connection's transport
STREAM_HEAD = (b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
               b"cache-control: no-store\r\nx-accel-buffering: no\r\nconnection: close\r\n\r\n")
METHODS = ("GET", "HEAD", "POST")
MAX_GAME_ID = 2 ** 63 - 1    # SQLite's largest row id
SEARCH_FIELDS = ("player", "date", "variant", "result")
CONTENT_TYPES = {"pgn": "text/plain", "kif": "text/plain", "csa": "text/plain",
                 "json": "application/json"}


def static_dir():
    return str(resources.files("yariboard.ui.web") / "static")


class Limits:
    """ASGI middleware refusing what no page sends: other methods, long URLs, big bodies."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        refusal = None
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if len(scope["headers"]) > MAX_HEADERS:
            refusal = (431, "more than %d header lines" % MAX_HEADERS)
        elif sum(len(name) + len(value) for name, value in scope["headers"]) > MAX_HEADER_BYTES:
            refusal = (431, "headers over %d bytes" % MAX_HEADER_BYTES)
        elif scope["method"] not in METHODS:
            refusal = (405, "method not allowed: the pages only read (GET) and send forms (POST)")
        elif len(scope["raw_path"]) + len(scope["query_string"]) > MAX_URL:
            refusal = (414, "URL longer than %d characters" % MAX_URL)
        elif not length.isdigit() or int(length) > MAX_BODY:
            refusal = (413, "request body over %d bytes" % MAX_BODY)
        elif scope["method"] != "POST" and (int(length) or b"transfer-encoding" in dict(scope["headers"])):
            refusal = (400, "a %s request carries no body" % scope["method"])
        if refusal:
            response = PlainTextResponse(refusal[1] + "\n", status_code=refusal[0],
                                         headers={"Connection": "close"})
            return await response(scope, receive, send)
        return await self.app(scope, _bounded(receive), send)


def _bounded(receive):
    """A receive that stops a chunked body past MAX_BODY (a Content-Length was checked)."""
    seen = 0

    async def bounded():
        nonlocal seen
        message = await receive()
        seen += len(message.get("body", b""))
        if seen > MAX_BODY:
            raise HTTPException(413, "request body over %d bytes" % MAX_BODY)
        return message
    return bounded


def make_app(feed, db_path=None, writable=True, token=None, send_timeout=SEND_TIMEOUT_S,
             on_viewers=None):
    """The ASGI application and its EventStreams. `feed`: the LiveFeed of the boards
    recorded here; `db_path`: the archive the pages read (None: the default one)."""
    token = token or secrets.token_urlsafe(16)

    def archive():
        return Archive(db_path, readonly=True)

    def read_game(request):
        game_id = request.path_params["game_id"]
        if game_id > MAX_GAME_ID:
            raise HTTPException(404, "no game %d in the archive" % game_id)
        with archive() as db:
            try:
                record = db.game(game_id)
            except KeyError:
                raise HTTPException(404, "no game %d in the archive" % game_id)
            return record, analyses.load(db, game_id)

    def tournament(request):
        return HTMLResponse(pages.tournament(feed.names()))

    def live_board(request):
        name = request.path_params["board"]
        if name not in feed.names():
            raise HTTPException(404, "no live board %r" % name)
        return HTMLResponse(pages.live(name))

    def archive_list(request):
        query = {field: request.query_params.get(field, "").strip()[:64] for field in SEARCH_FIELDS}
        with archive() as db:
            rows = [(record, count) for record, count in db.summaries() if matches(record, query)]
        return HTMLResponse(pages.archive(rows, query))

    def game_page(request):
        record, stored = read_game(request)
        return HTMLResponse(pages.game(snapshot.archived(record, stored), writable_formats(record)))

    def download(request):
        fmt = request.path_params["fmt"]
        if fmt not in formats.FORMATS:
            raise HTTPException(404, "the archive writes %s, not %r" % (", ".join(formats.FORMATS), fmt))
        record, stored = read_game(request)
        try:
            text = formats.export_games([record], fmt, {record.id: stored} if stored else None)
        except RecordError as error:
            raise HTTPException(415, str(error))
        name = "game-%d.%s" % (record.id, fmt)
        return Response(text, media_type=CONTENT_TYPES[fmt] + "; charset=utf-8",
                        headers={"Content-Disposition": 'attachment; filename="%s"' % name})

    async def set_players(request):
        if not writable:
            raise HTTPException(403, "read-only: this server is shared beyond this machine")
        given = request.headers.get("x-yariboard-token", "").encode("latin-1")
        if not secrets.compare_digest(given, token.encode("ascii")):
            raise HTTPException(403, "the token printed when the server started is needed")
        try:
            form = dict(parse_qsl((await request.body()).decode("utf-8"), max_num_fields=2,
                                  strict_parsing=True))
        except (UnicodeDecodeError, ValueError):
            raise HTTPException(400, "the form is black=NAME&white=NAME, URL-encoded")
        names = (form.get("black", ""), form.get("white", ""))
        try:
            for name, side in zip(names, ("black", "white")):
                check_name(name, side)
        except RecordError as error:
            raise HTTPException(400, str(error))
        record, _ = await asyncio.to_thread(read_game, request)
        await asyncio.to_thread(rename, record.id, names)
        return PlainTextResponse("players of game %d set\n" % record.id)

    def rename(game_id, names):
        with Archive(db_path) as db:
            db.set_players(game_id, *names)

    async def styles(request):
        return Response(STYLES, media_type="text/css")

    async def refused(request, exc):
        return PlainTextResponse("%s\n" % exc.detail, status_code=exc.status_code,
                                 headers=getattr(exc, "headers", None))

    routes = [
        Route("/", tournament),
        Route("/board/{board}", live_board),
        Route("/archive", archive_list),
        Route("/game/{game_id:int}", game_page),
        Route("/game/{game_id:int}/download.{fmt}", download),
        Route("/game/{game_id:int}/players", set_players, methods=["POST"]),
        Route("/pieces.css", styles),
        Mount("/static", StaticFiles(directory=static_dir()), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: refused,
                                                      ArchiveError: archive_failed})
    streams = EventStreams(feed, app, send_timeout, on_viewers)
    return Limits(streams), streams


STYLES = snapshot.piece_styles()


async def archive_failed(request, exc):
    return PlainTextResponse("the archive cannot be read: %s\n" % str(exc).split("\n")[0],
                             status_code=503)


def writable_formats(record):
    """The formats that can hold this game (CSA is for standard shogi only, ...)."""
    def writes(fmt):
        try:
            formats.export_games([record], fmt)
        except RecordError:
            return False
        return True
    return [fmt for fmt in formats.FORMATS if writes(fmt)]


def matches(record, query):
    """Whether an archived game fits the archive page's search (every field given must fit)."""
    player = query["player"].lower()
    if player and player not in record.black.lower() and player not in record.white.lower():
        return False
    if query["date"] and not record.date.startswith(query["date"]):
        return False
    if query["variant"] and record.variant != query["variant"]:
        return False
    result = query["result"]
    if result == "unfinished":
        return not record.winner
    return not result or record.winner == result


class EventStreams:
    """`/events`: server-sent events of the live boards (`?board=NAME`: one, else all).

    Many viewers must cost this machine, shared with the recording, as little as they can,
    so a stream is not an ASGI response fed by a task of its own: once the request is
    checked, the response's head and every event after it are written straight into the
    connection's transport (which the server's protocol puts in the scope under TRANSPORT),
    and the body ends when the connection closes (`Connection: close`, no chunked framing),
    so every viewer of the same boards is sent the very same bytes. The boards' changes
    reach the server's loop in one wake a batch (publish); each changed board's event is
    encoded once, and each viewer costs one write: every stream of all the boards gets
    one write of every change, every stream of one board one write of its change.

    A viewer that stops reading is dropped: its unsent bytes are bounded (the socket's
    buffer, STREAM_SOCKET_BUFFER, then MAX_BUFFERED more), and a stream whose bytes have not
    drained within `send_timeout` is cut off. Every stream is sent a comment at the
    heartbeat (one timer for all). `on_viewers(count)` is told how many streams are open
    whenever that changes."""

    def __init__(self, feed, app, send_timeout=SEND_TIMEOUT_S, on_viewers=None):
        self.feed = feed
        self.app = app
        self.send_timeout = send_timeout
        self.on_viewers = on_viewers
        self.closing = False
        self._loop = None
        self._heartbeat = None           # the timer that writes to every stream every HEARTBEAT_S
        self._following = {None: set()}  # board (None: all of them) -> its streams' transports
        self._board_of = {}              # transport -> the board it follows (None: all)
        self._stalled = {}               # transport -> the timer that drops it if still stalled
        self._encoded = {}               # board -> (version, event bytes)
        self._lock = threading.Lock()
        self._changed = []               # boards changed since the last write, in order
        self._write_due = False          # a write of the changes is on the loop's way

    def publish(self, texts):
        """From any thread: make `texts` ({board: JSON text}) the boards' newest snapshots
        and wake the server's loop once to send the changes. The feed changes under the
        lock a new stream reads it under, so that a stream gets each version once: in what it
        reads first, or in the changes sent after."""
        with self._lock:
            changed = [board for board, text in texts.items()
                       if self.feed.publish_text(board, text)]
            if self._loop is None:        # no stream yet: the first reads the feed as it is
                return
            self._changed += [board for board in changed if board not in self._changed]
            if self._write_due or not self._changed:
                return
            self._write_due = True
        self._on_loop(self._send_changes)

    def _on_loop(self, callback):
        try:
            self._loop.call_soon_threadsafe(callback)
        except RuntimeError:              # the loop closed meanwhile: nobody to send to
            pass

    def _send_changes(self):
        with self._lock:
            changed, self._changed, self._write_due = self._changed, [], False
        events = [(board, self._event(board)) for board in changed]
        self._write(self._following[None], b"".join(event for _, event in events))
        for board, event in events:
            self._write(self._following.get(board, ()), event)

    def _write(self, transports, data):
        """The one write per viewer: what a stream could not send yet waits in its
        transport's buffer, bounded in size and time."""
        for transport in list(transports):
            transport.write(data)
            if transport.get_write_buffer_size():
                self._watch(transport)

    def _watch(self, transport):
        if transport.get_write_buffer_size() > MAX_BUFFERED:
            self._drop(transport)
        elif transport not in self._stalled:
            self._stalled[transport] = self._loop.call_later(
                self.send_timeout, self._check, transport, transport.get_write_buffer_size())

    def _check(self, transport, buffered):
        """send_timeout after a stream's bytes began to wait: dropped unless its backlog
        drained or shrank (one that grew meanwhile is a viewer falling further behind)."""
        del self._stalled[transport]
        now = transport.get_write_buffer_size()
        if now and now >= buffered:
            self._drop(transport)
        elif now:
            self._watch(transport)

    def _drop(self, transport):
        """Cut off a viewer that stopped reading (its request's coroutine ends then)."""
        timer = self._stalled.pop(transport, None)
        if timer:
            timer.cancel()
        transport.abort()

    def _beat(self):
        for transports in self._following.values():
            self._write(transports, b": still here\n\n")
        self._heartbeat = self._loop.call_later(HEARTBEAT_S, self._beat)

    def close(self):
        """End every stream (the server is stopping); from any thread."""
        self.closing = True
        if self._loop is not None:
            self._on_loop(self._close_all)

    def _close_all(self):
        for transport in list(self._board_of):
            transport.close()

    def viewers(self):
        return len(self._board_of)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"] != "/events":
            return await self.app(scope, receive, send)
        refusal = self._refusal(scope)
        if refusal:
            response = PlainTextResponse(refusal[1] + "\n", status_code=refusal[0])
            return await response(scope, receive, send)
        if self._loop is None:
            with self._lock:
                self._loop = asyncio.get_running_loop()
            self._heartbeat = self._loop.call_later(HEARTBEAT_S, self._beat)
        await self._stream(scope, receive)

    def _refusal(self, scope):
        if scope["method"] != "GET":
            return 405, "events are read with GET"
        query = _query(scope)
        if query is None:
            return 400, "malformed query: only ?board=NAME is understood"
        board = query.get("board")
        if board is not None and board not in self.feed.names():
            return 404, "no live board %r" % board[:40]
        if len(self._board_of) >= MAX_STREAMS:
            return 503, "too many viewers (%d): try again later" % MAX_STREAMS
        if self.closing:
            return 503, "the server is stopping"
        return None

    def _count(self):
        if self.on_viewers:
            self.on_viewers(len(self._board_of))

    async def _stream(self, scope, receive):
        board = _query(scope).get("board")
        transport = scope["extensions"][TRANSPORT]
        # Not the megabytes Linux would let the buffer grow to for a viewer that stops reading
        transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF,
                                                      STREAM_SOCKET_BUFFER)
        self._board_of[transport] = board
        self._following.setdefault(board, set()).add(transport)
        self._count()
        try:
            with self._lock:              # the boards whose changes are on their way come with them
                boards = [name for name in ([board] if board else self.feed.names())
                          if name not in self._changed]
                first = STREAM_HEAD + b"".join(self._event(name) for name in boards)
            self._write([transport], first)
            while (await receive())["type"] != "http.disconnect":
                pass                  # a viewer sends nothing more; its connection's end ends this
        finally:
            self._board_of.pop(transport)
            self._following[board].discard(transport)
            timer = self._stalled.pop(transport, None)
            if timer:
                timer.cancel()
            self._count()

    def _event(self, name):
        """The event's bytes of a board's newest snapshot, encoded once for every viewer."""
        version, text = self.feed.latest(name)
        cached = self._encoded.get(name)
        if cached is None or cached[0] != version:
            event = "event: board\ndata: %s\n\n" % text
            cached = self._encoded[name] = (version, event.encode("utf-8"))
        return cached[1]


def _query(scope):
    """The query as a dict, or None when it holds anything but one `board` field."""
    try:
        pairs = parse_qsl(scope["query_string"].decode("ascii"), strict_parsing=False,
                          max_num_fields=1)
    except (UnicodeDecodeError, ValueError):
        return None
    if any(key != "board" for key, _ in pairs):
        return None
    return dict(pairs)
