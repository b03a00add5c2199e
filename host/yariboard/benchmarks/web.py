"""The web pages under load, on loopback: VIEWERS viewers follow a tournament of BOARDS
simulated boards (engines playing, PLIES moves each) through the live event stream.

Printed: that every viewer received every move; the delay from a move reaching the archive
to a viewer receiving it (median and worst over every viewer and move); and the recorder's
own delay (the board has committed the move -> the archive holds it) without viewers and
with them, which must not grow. The viewers run in a process of their own (asyncio, raw
sockets), as browsers would; both processes read the same monotonic clock.
"""
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from yariboard.play.boards import SimTable
from yariboard.records.archive import Archive
from yariboard.ui.web.feed import LiveFeed
from yariboard.ui.web.publish import LiveBoard
from yariboard.ui.web.server import WebServer, yield_the_cpu

VIEWERS = 200
BOARDS = 4
PLIES = 12
RUN_DEADLINE_S = 600
CONNECT_DEADLINE_S = 120


def play(tables, lives, plies):
    """Play until every board has `plies` moves; returns {(board, ply): stored at} and the
    recorder's delays (s): from the hands' move committed on the board to the archive."""
    stored_at, own = {}, []
    committed = {}
    deadline = time.monotonic() + RUN_DEADLINE_S
    while any(table.recorder.stored_count() < plies or table.pending for table in tables):
        if time.monotonic() > deadline:
            raise RuntimeError("the boards did not play %d moves in %d s" % (plies, RUN_DEADLINE_S))
        for table in tables:
            if table.recorder.stored_count() >= plies and not table.pending:
                continue
            before, performed = table.recorder.stored_count(), len(table.played)
            table.step(0.005)
            if len(table.played) > performed:
                committed[table.name] = time.monotonic()    # perform() returned: committed
            count = table.recorder.stored_count()
            now = time.monotonic()
            for ply in range(before + 1, count + 1):
                stored_at[(table.name, ply)] = now
                if table.name in committed:
                    own.append(now - committed.pop(table.name))
            lives[table.name].update(table.session, table.leds(), table.phase())
    return stored_at, own


def tournament(viewers):
    """One run: BOARDS boards playing PLIES moves, `viewers` following them."""
    with tempfile.TemporaryDirectory(prefix="yariboard-bench-web-") as work:
        db = os.path.join(work, "games.sqlite3")
        feed = LiveFeed()
        with Archive(db) as archive, WebServer(feed, db, port=0) as server:
            tables = [SimTable(str(n + 1), archive, levels=(1, 1), seed=n + 1, seconds_per_move=0.02)
                      for n in range(BOARDS)]
            lives = {table.name: LiveBoard(feed, table.name) for table in tables}
            follower = None
            try:
                for table in tables:
                    while table.recorder.position is None:
                        table.step(0.02)
                    lives[table.name].update(table.session, table.leds(), table.phase())
                if viewers:
                    follower = subprocess.Popen(
                        [sys.executable, "-c", "from yariboard.benchmarks.web import follow; "
                         "follow(%d, %d, %d)" % (server.port, viewers, BOARDS * PLIES)],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                    deadline = time.monotonic() + CONNECT_DEADLINE_S
                    while server.viewers() < viewers:
                        if time.monotonic() > deadline or follower.poll() is not None:
                            raise RuntimeError("only %d of %d viewers connected"
                                               % (server.viewers(), viewers))
                        time.sleep(0.05)
                stored_at, own = play(tables, lives, PLIES)
                games = {table.name: archive.game(table.recorder.game_id).usi_moves()[:PLIES]
                         for table in tables}
                seen = None
                if follower:
                    out, _ = follower.communicate(timeout=RUN_DEADLINE_S)
                    seen = json.loads(out)
            finally:
                if follower and follower.poll() is None:
                    follower.kill()
                for table in tables:
                    table.close()
    return stored_at, own, games, seen


def follow(port, viewers, moves):
    """Run `viewers` event-stream readers until each has seen `moves` moves in all (the
    subprocess side); print per viewer {board: [[ply, received at], ...], "usi": ...}."""
    yield_the_cpu()                 # browsers run on other machines: not before the recording
    results = asyncio.run(_follow_all(port, viewers, moves))
    print(json.dumps(results))


async def _follow_all(port, viewers, moves):
    return await asyncio.wait_for(
        asyncio.gather(*(_follow_one(port, moves) for _ in range(viewers))), RUN_DEADLINE_S)


async def _follow_one(port, moves):
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 22)
    writer.write(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
    await writer.drain()
    first_seen = {}
    usi = {}
    while sum(min(len(v), PLIES) for v in usi.values()) < moves:
        line = await reader.readline()
        if not line:
            break
        if line.startswith(b"data: "):
            now = time.monotonic()
            snap = json.loads(line[6:])
            board = snap["board"]
            usi[board] = [row["usi"] for row in snap["moves"]]
            for ply in range(1, len(snap["moves"]) + 1):
                first_seen.setdefault("%s %d" % (board, ply), now)
    writer.close()
    return {"first_seen": first_seen, "usi": usi}


def run():
    _, alone, _, _ = tournament(0)
    stored_at, loaded, games, seen = tournament(VIEWERS)
    delays, complete = [], 0
    for viewer in seen:
        got = {board: moves[:PLIES] for board, moves in viewer["usi"].items()}
        complete += got == games
        for (board, ply), at in stored_at.items():
            received = viewer["first_seen"].get("%s %d" % (board, ply))
            if received is not None and ply <= PLIES:
                delays.append(received - at)
    print("web_viewers: %d" % VIEWERS)
    print("web_boards: %d" % BOARDS)
    print("web_moves_per_board: %d" % PLIES)
    print("web_viewers_with_every_move: %d" % complete)
    print("web_archive_to_viewer_median_ms: %.1f" % (1000 * statistics.median(delays)))
    print("web_archive_to_viewer_worst_ms: %.1f" % (1000 * max(delays)))
    for name, own in (("without", alone), ("with", loaded)):
        print("web_recorder_delay_%s_viewers_median_ms: %.1f" % (name, 1000 * statistics.median(own)))
        print("web_recorder_delay_%s_viewers_worst_ms: %.1f" % (name, 1000 * max(own)))
