"""The web server in a process of its own beside the recording: uvicorn with every limit set.

Its own process, so that however many viewers it serves it never takes the recording's
interpreter; in the idle scheduling class and in a session of its own, so that the CPU it
spends is not charged to the recording (yield_the_cpu). The recording's feed hands each
changed snapshot to a sender thread (newest per board only, never waiting), which writes
those of each BATCH_S down a pipe in one message; the server process reads them into its own
feed and wakes the streams once. When the recording process ends, the pipe closes and the
server stops.

Connections are bounded in number (`limit_concurrency`: a clear 503 beyond), header size
(h11's limit while a request arrives, app.Limits once whole), and time: a connection that
has not sent a whole request within `header_timeout` is closed (uvicorn would wait for
ever), an idle keep-alive one after KEEP_ALIVE_S. Listening beyond this machine makes the
pages read-only.
"""
import asyncio
import ipaddress
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection

from yariboard.ui.web.app import MAX_HEADER_BYTES, SEND_TIMEOUT_S, TRANSPORT

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8710
MAX_CONNECTIONS = 1200
HEADER_TIMEOUT_S = 10.0
KEEP_ALIVE_S = 5
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 10.0
NICENESS = 10             # the server process's lower CPU priority than the recording's
BATCH_S = 0.025           # the snapshots handed over together: at most this much later


def is_loopback(host):
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


class WebServer:
    """Serves `feed` and the archive at `db_path` until stop(); `port` 0 picks a free one."""

    def __init__(self, feed, db_path=None, host=DEFAULT_HOST, port=DEFAULT_PORT,
                 max_connections=MAX_CONNECTIONS, header_timeout=HEADER_TIMEOUT_S,
                 send_timeout=SEND_TIMEOUT_S):
        self.feed = feed
        self.host = host
        self.port = port
        self.writable = is_loopback(host)
        self.token = secrets.token_urlsafe(16)
        self.settings = dict(db_path=db_path, host=host, port=port, writable=self.writable,
                             token=self.token, max_connections=max_connections,
                             header_timeout=header_timeout, send_timeout=send_timeout)
        self.process = None
        self._pipe = None
        self._pending = {}               # board -> newest JSON text not yet sent
        self._handed = set()             # the boards the server process has had
        self._wake = threading.Condition()
        self._send_lock = threading.Lock()
        self._viewers = 0
        self._stopping = False

    @property
    def url(self):
        host = "[%s]" % self.host if ":" in self.host else self.host
        return "http://%s:%d/" % (host, self.port)

    def start(self):
        """Start the server process; OSError (the port is taken, ...) if it cannot listen."""
        parent_sock, child_sock = socket.socketpair()
        self._pipe = Connection(parent_sock.detach())
        child_fd = child_sock.detach()
        # A fresh interpreter, not multiprocessing's spawn: that would run the caller's own
        # main script again in the child. In a session of its own: see yield_the_cpu.
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from yariboard.ui.web.server import serve; serve(%d)" % child_fd],
            pass_fds=(child_fd,), stdin=subprocess.DEVNULL, start_new_session=True)
        os.close(child_fd)
        self._pipe.send(self.settings)
        if not self._pipe.poll(START_TIMEOUT_S):
            self.process.kill()
            raise OSError("the web server did not start within %d s" % START_TIMEOUT_S)
        try:
            kind, value = self._pipe.recv()
        except EOFError:
            kind, value = "error", "its process ended (exit status %s)" % self.process.wait()
        if kind == "error":
            self.process.wait(STOP_TIMEOUT_S)
            raise OSError("the web server could not listen on %s port %d: %s"
                          % (self.host, self.settings["port"], value))
        self.port = value
        # the boards already live go at once, not a batch later: a page asked for as soon as
        # the server is up finds them. Listening first, a board that changes meanwhile is
        # sent twice rather than missed.
        self.feed.listeners.append(self._changed)
        live = {name: self.feed.latest(name)[1] for name in self.feed.names()}
        self._pipe.send(("boards", live))
        self._handed.update(live)
        threading.Thread(target=self._send, name="web feed", daemon=True).start()
        threading.Thread(target=self._receive, name="web viewers", daemon=True).start()
        return self

    def _changed(self, board, text):
        with self._wake:
            self._pending[board] = text
            self._wake.notify()

    def _send(self):
        """Hand the newest snapshots to the server process (this thread alone may wait), those
        of one BATCH_S window in one message: the server's loop then wakes once for all of
        them (a board changes about twice a move, some 15 ms apart). A board the server has
        not had yet ends the window at once, whenever it comes: until the server has it,
        its page is "not found"."""
        while True:
            with self._wake:
                while not self._pending and not self._stopping:
                    self._wake.wait()
                window_ends = time.monotonic() + BATCH_S
                while not self._stopping and self._handed.issuperset(self._pending):
                    left = window_ends - time.monotonic()
                    if left <= 0:
                        break
                    self._wake.wait(left)
                if self._stopping:
                    return
                pending, self._pending = self._pending, {}
            self._handed.update(pending)
            try:
                with self._send_lock:
                    self._pipe.send(("boards", pending))
            except (OSError, ValueError):
                return

    def _receive(self):
        while True:
            try:
                kind, value = self._pipe.recv()
            except (EOFError, OSError):
                return
            if kind == "viewers":
                self._viewers = value

    def viewers(self):
        """How many viewers follow the live boards (as the server process last said)."""
        return self._viewers

    def stop(self):
        if self.process is None:
            return
        if self._changed in self.feed.listeners:
            self.feed.listeners.remove(self._changed)
        with self._wake:
            self._stopping = True
            self._wake.notify()
        try:
            with self._send_lock:
                self._pipe.send(("stop", None))
        except (OSError, ValueError):
            pass
        try:
            self.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._pipe.close()
        self.process = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def banner(self):
        """What the command prints when it starts: where to look, and the token."""
        lines = ["web pages on %s" % self.url]
        if self.writable:
            lines.append("token for changes from the pages: %s" % self.token)
        else:
            lines.append("shared beyond this machine: the pages are read-only")
        return "\n".join(lines)


# -- the server process ---------------------------------------------------------------------


def serve(fd):
    """The server process: listen, tell the port, serve until told to stop or orphaned.
    `fd`: its end of the socket pair to the recording's process."""
    import uvicorn

    from yariboard.ui.web.app import make_app
    from yariboard.ui.web.feed import LiveFeed

    signal.signal(signal.SIGINT, signal.SIG_IGN)      # Ctrl-C is the recording's to handle
    yield_the_cpu()                                    # a busy CPU goes to the recording first
    pipe = Connection(fd)
    settings = pipe.recv()
    try:
        family = socket.AF_INET6 if ":" in settings["host"] else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((settings["host"], settings["port"]))
        sock.listen(512)
    except OSError as error:
        pipe.send(("error", error.strerror or str(error)))
        return
    feed = LiveFeed()
    lock = threading.Lock()

    def tell_viewers(count):
        with lock:
            pipe.send(("viewers", count))

    app, streams = make_app(feed, settings["db_path"], settings["writable"], settings["token"],
                            settings["send_timeout"], tell_viewers)
    config = uvicorn.Config(
        app, http=server_protocol(settings["header_timeout"]), ws="none",
        lifespan="off", log_level="warning", access_log=False,
        limit_concurrency=settings["max_connections"],
        h11_max_incomplete_event_size=MAX_HEADER_BYTES, timeout_keep_alive=KEEP_ALIVE_S,
        timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)

    def read_feed():
        while True:
            try:
                kind, texts = pipe.recv()
            except (EOFError, OSError):
                kind = "stop"
            if kind == "stop":
                streams.close()
                server.should_exit = True
                return
            streams.publish(texts)

    threading.Thread(target=read_feed, name="web feed", daemon=True).start()
    with lock:
        pipe.send(("listening", sock.getsockname()[1]))
    asyncio.run(server.serve(sockets=[sock]))


def yield_the_cpu():
    """Give way to the recording: Linux's idle scheduling class where there is one, else the
    lowest priority.

    The class ranks processes within one scheduling group only, and Linux's autogroups (one
    group a session) share a busy CPU between groups first: in the recording's session the
    CPU spent here would be charged to the recording's group, whose next move then waits
    behind other sessions' work. So the server (and the benchmark's viewers) start in a
    session of their own, a group of their own."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(NICENESS)


def server_protocol(seconds):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose first request is not whole
    within `seconds` (thousands of silent connections must not hold the server's places;
    after a response, uvicorn's own keep-alive timeout takes over), and handing the
    application the connection's transport (the scope's TRANSPORT extension), which the event
    streams write to directly (app.EventStreams)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class ServerProtocol(H11Protocol):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            app = self.app

            async def app_with_transport(scope, receive, send):
                scope.setdefault("extensions", {})[TRANSPORT] = self.transport
                await app(scope, receive, send)
            self.app = app_with_transport

        def connection_made(self, transport):
            super().connection_made(transport)
            self._header_timer = self.loop.call_later(seconds, self._header_timeout)

        def _header_timeout(self):
            if self.cycle is None and not self.transport.is_closing():
                self.transport.close()

        def connection_lost(self, exc):
            self._header_timer.cancel()
            super().connection_lost(exc)

    return ServerProtocol
