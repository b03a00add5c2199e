"""The web server in a thread of its own beside the recording: uvicorn with every limit set.

Connections are bounded in number (`limit_concurrency`: a clear 503 beyond), header size
(h11's incomplete-event limit: a 400), and time: a connection that has not sent a whole
request within HEADER_TIMEOUT_S is closed (uvicorn waits for ever otherwise), an idle
keep-alive one after KEEP_ALIVE_S. Listening beyond 127.0.0.1 makes the pages read-only.
"""
import asyncio
import ipaddress
import secrets
import threading

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from yariboard.ui.web.app import MAX_HEADER_BYTES, make_app

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8710
MAX_CONNECTIONS = 1200
HEADER_TIMEOUT_S = 10.0
KEEP_ALIVE_S = 5
START_TIMEOUT_S = 30.0


class HeaderTimeoutH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose first request is not whole in
    time (thousands of silent connections must not hold the server's places); after a
    response, uvicorn's own keep-alive timeout takes over."""

    def connection_made(self, transport):
        super().connection_made(transport)
        self._header_timer = self.loop.call_later(HEADER_TIMEOUT_S, self._header_timeout)

    def _header_timeout(self):
        if self.cycle is None and not self.transport.is_closing():
            self.transport.close()

    def connection_lost(self, exc):
        self._header_timer.cancel()
        super().connection_lost(exc)


def is_loopback(host):
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


class WebServer:
    """Serves `feed` and the archive at `db_path` until stop(); `port` 0 picks a free one."""

    def __init__(self, feed, db_path=None, host=DEFAULT_HOST, port=DEFAULT_PORT,
                 max_connections=MAX_CONNECTIONS):
        self.feed = feed
        self.host = host
        self.writable = is_loopback(host)
        self.token = secrets.token_urlsafe(16)
        app = make_app(feed, db_path, writable=self.writable, token=self.token)
        self.config = uvicorn.Config(
            app, host=host, port=port, http=HeaderTimeoutH11, ws="none", lifespan="off",
            log_level="warning", access_log=False, limit_concurrency=max_connections,
            h11_max_incomplete_event_size=MAX_HEADER_BYTES, timeout_keep_alive=KEEP_ALIVE_S,
            timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(self.config)
        self.thread = None
        self.error = None

    @property
    def port(self):
        servers = getattr(self.server, "servers", None)
        if servers:
            return servers[0].sockets[0].getsockname()[1]
        return self.config.port

    @property
    def url(self):
        host = "[%s]" % self.host if ":" in self.host else self.host
        return "http://%s:%d/" % (host, self.port)

    def start(self):
        """Start serving in a thread; OSError (the port is taken, ...) if it cannot."""
        self.thread = threading.Thread(target=self._run, name="web server", daemon=True)
        self.thread.start()
        while not self.server.started and self.thread.is_alive():
            self.thread.join(0.02)
        if not self.server.started:
            raise OSError("the web server could not listen on %s port %d: %s"
                          % (self.host, self.config.port, self.error or "it stopped"))
        return self

    def _run(self):
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self.feed.attach(loop)
        try:
            loop.run_until_complete(self.server.serve())
        except (OSError, SystemExit) as error:   # uvicorn exits when it cannot bind
            self.error = error
        finally:
            self.feed.attach(None)
            loop.close()

    def stop(self):
        self.feed.close()
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=10)

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
