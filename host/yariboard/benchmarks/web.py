"""The web pages under load, on loopback: VIEWERS viewers follow a tournament of BOARDS
simulated boards (engines playing, PLIES moves each) through the live event stream.

Printed: that every viewer received every move; the delay from a move reaching the archive
to a viewer receiving it (median and worst over every viewer and move); and the recorder's
own delay (the board has committed the move -> the archive holds it) without viewers and
with them, which must not grow. The viewers run in a process of their own (asyncio, raw
sockets), as browsers would; both processes read the same monotonic clock.

The machine is shared, so one run of each says little: ROUNDS pairs are run, each pair
without and with viewers back to back, in alternating order (the same load, the load
average printed), and beside each delay the CPU time behind it: the recorder's thread and
process per move, the server's process and the viewers' process while the boards played.
The viewers stand in for browsers on other machines, so they only note when each event
arrived while the boards play, and read the events once the play is over.
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
ROUNDS = 3
RUN_DEADLINE_S = 600
CONNECT_DEADLINE_S = 120


def process_cpu_seconds(pid):
    """User + system CPU time of process `pid` so far (Linux's /proc); None elsewhere."""
    try:
        with open("/proc/%d/stat" % pid) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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
    """One run: BOARDS boards playing PLIES moves, `viewers` following them. Returns a dict
    of what it measured (see run())."""
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
                load = os.getloadavg()[0]
                server_cpu = process_cpu_seconds(server.process.pid)
                thread_cpu, process_cpu = time.thread_time(), time.process_time()
                stored_at, own = play(tables, lives, PLIES)
                thread_cpu = time.thread_time() - thread_cpu
                process_cpu = time.process_time() - process_cpu
                if server_cpu is not None:
                    server_cpu = process_cpu_seconds(server.process.pid) - server_cpu
                games = {table.name: archive.game(table.recorder.game_id).usi_moves()[:PLIES]
                         for table in tables}
                seen = None
                if follower:
                    out, _ = follower.communicate("played\n", timeout=RUN_DEADLINE_S)
                    seen = json.loads(out)
            finally:
                if follower and follower.poll() is None:
                    follower.kill()
                for table in tables:
                    table.close()
    moves = BOARDS * PLIES
    return dict(stored_at=stored_at, own=own, games=games, seen=seen, load=load,
                thread_cpu=thread_cpu / moves, process_cpu=process_cpu / moves,
                server_cpu=server_cpu / moves if server_cpu is not None else None)


def follow(port, viewers, moves):
    """Run `viewers` event-stream readers until told on stdin that the play is over and
    each has seen `moves` moves in all (the subprocess side); print {"viewers": per viewer
    {"first_seen": {"board ply": received at}, "usi": {board: [...]}}, "cpu_s": this
    process's CPU time while the boards played}."""
    yield_the_cpu()                 # browsers run on other machines: not before the recording
    print(json.dumps(asyncio.run(_follow_all(port, viewers, moves))))


async def _follow_all(port, viewers, moves):
    played = asyncio.Event()
    viewing = [asyncio.create_task(_follow_one(port, moves, played)) for _ in range(viewers)]
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    cpu = time.process_time()
    played.set()
    results = await asyncio.wait_for(asyncio.gather(*viewing), RUN_DEADLINE_S)
    return {"viewers": results, "cpu_s": cpu}


class _Viewer(asyncio.Protocol):
    """One viewer's connection: while the boards play it only notes each chunk's arrival
    (a browser does its work on another machine); lines() reads them afterwards."""

    def __init__(self):
        self.chunks = []            # (arrived at, bytes)
        self.arrived = asyncio.Event()
        self.closed = False
        self.read, self.pending = 0, b""      # chunks read by lines(), the unended line

    def connection_made(self, transport):
        transport.write(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
        self.transport = transport

    def data_received(self, data):
        self.chunks.append((time.monotonic(), data))
        self.arrived.set()

    def connection_lost(self, exc):
        self.closed = True
        self.arrived.set()

    def lines(self):
        """(arrived at, line) of the lines ended since the last call: a line arrived with
        the chunk that ended it."""
        whole = []
        for at, data in self.chunks[self.read:]:
            self.pending += data
            *ended, self.pending = self.pending.split(b"\n")
            whole += [(at, line) for line in ended]
        self.read = len(self.chunks)
        return whole


async def _follow_one(port, moves, played):
    """One viewer: note each event's arrival while the boards play, read them afterwards."""
    _, viewer = await asyncio.get_running_loop().create_connection(_Viewer, "127.0.0.1", port)
    await played.wait()
    first_seen, usi = {}, {}
    while True:
        for at, line in viewer.lines():
            if line.startswith(b"data: "):
                snap = json.loads(line[6:])
                board = snap["board"]
                usi[board] = [row["usi"] for row in snap["moves"]]
                for ply in range(1, len(snap["moves"]) + 1):
                    first_seen.setdefault("%s %d" % (board, ply), at)
        if sum(min(len(v), PLIES) for v in usi.values()) >= moves or viewer.closed:
            break
        viewer.arrived.clear()
        await viewer.arrived.wait()
    viewer.transport.close()
    return {"first_seen": first_seen, "usi": usi}


def viewer_figures(result):
    """(viewers with every move, delays archive -> viewer (s)) of a run with viewers."""
    delays, complete = [], 0
    for viewer in result["seen"]["viewers"]:
        got = {board: moves[:PLIES] for board, moves in viewer["usi"].items()}
        complete += got == result["games"]
        for (board, ply), at in result["stored_at"].items():
            received = viewer["first_seen"].get("%s %d" % (board, ply))
            if received is not None and ply <= PLIES:
                delays.append(received - at)
    return complete, delays


def ms(seconds):
    return "%.1f" % (1000 * seconds) if seconds is not None else "n/a"


def run():
    pairs = []
    for number in range(ROUNDS):            # the order alternates: a load that drifts evens out
        if number % 2:
            loaded, alone = tournament(VIEWERS), tournament(0)
        else:
            alone, loaded = tournament(0), tournament(VIEWERS)
        pairs.append((alone, loaded))
    print("web_viewers: %d" % VIEWERS)
    print("web_boards: %d" % BOARDS)
    print("web_moves_per_board: %d" % PLIES)
    print("web_rounds: %d" % ROUNDS)
    complete, delays = [], []
    for number, (alone, loaded) in enumerate(pairs, 1):
        got, waited = viewer_figures(loaded)
        complete.append(got)
        delays += waited
        loaded["cpu_s"] = loaded["seen"]["cpu_s"] / (BOARDS * PLIES)
        for name, result in (("without", alone), ("with", loaded)):
            print("web_round_%d_%s_viewers: recorder delay median %s ms, worst %s ms; CPU per "
                  "move: recorder thread %s ms, recorder process %s ms, server %s ms, viewers "
                  "%s ms; load average %.2f"
                  % (number, name, ms(statistics.median(result["own"])), ms(max(result["own"])),
                     ms(result["thread_cpu"]), ms(result["process_cpu"]),
                     ms(result["server_cpu"]), ms(result.get("cpu_s")), result["load"]))
    print("web_viewers_with_every_move: %d (fewest of %d rounds)" % (min(complete), ROUNDS))
    print("web_archive_to_viewer_median_ms: %.1f" % (1000 * statistics.median(delays)))
    print("web_archive_to_viewer_worst_ms: %.1f" % (1000 * max(delays)))
    for index, name in enumerate(("without", "with")):
        own = [delay for pair in pairs for delay in pair[index]["own"]]
        print("web_recorder_delay_%s_viewers_median_ms: %.1f" % (name, 1000 * statistics.median(own)))
        print("web_recorder_delay_%s_viewers_worst_ms: %.1f" % (name, 1000 * max(own)))
        print("web_recorder_thread_cpu_per_move_%s_viewers_ms: %.2f" % (
            name, 1000 * statistics.median(pair[index]["thread_cpu"] for pair in pairs)))
