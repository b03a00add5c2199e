"""The web pages under load, on loopback: VIEWERS viewers follow a tournament of BOARDS
simulated boards (engines playing, PLIES moves each) through the live event stream.

Printed: that every viewer received every move; the delay from a move reaching the archive
to a viewer receiving it (median and worst over every viewer and move); and the recorder's
own delay (the board has committed the move -> the archive holds it) without viewers and
with them, which must not grow. The viewers run in a process of their own (one epoll loop
over raw sockets, see follow), as browsers would; both processes read the same monotonic
clock.

The machine is shared, so one run of each says little: ROUNDS rounds are run, each of
three runs back to back in rotating order (the same load, the load average printed):
without viewers, with them, and with them paused while the boards play (the server alone
at work then: the viewers' stand-in shares this machine's CPUs, remote browsers would
not). Beside each delay the CPU time behind it: the recorder's thread and process per
move, the server's process and the viewers' process while the boards played, and the time
the recorder's thread waited for a CPU per move (Linux's schedstat): a delay that grows
with viewers while that wait grows and the thread's CPU does not is CPU contention, not
the recorder's work. A sign test over the rounds says whether a difference is there at
all. The viewers stand in for browsers on other machines, so they only note when each
chunk arrived while the boards play, and read the events once the play is over; like the
server, they run in the idle class in a session of their own (server.yield_the_cpu).
"""
import json
import math
import os
import select
import signal
import socket
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
ROUNDS = 12
RUN_DEADLINE_S = 600
CONNECT_DEADLINE_S = 120
RECEIVE_BYTES = 65536


def process_cpu_seconds(pid):
    """User + system CPU time of process `pid` so far (Linux's /proc); None elsewhere."""
    try:
        with open("/proc/%d/stat" % pid) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_queue_seconds():
    """How long the calling thread has waited for a CPU so far (runnable, not running:
    Linux's schedstat); None elsewhere."""
    try:
        with open("/proc/thread-self/schedstat") as stat:
            return int(stat.read().split()[1]) / 1e9
    except OSError:
        return None


def sign_test(differences):
    """(positive, counted, two-sided p) of the sign test of `differences` (ties left out):
    how likely so lopsided a split of signs is if either sign were as likely."""
    positive = sum(d > 0 for d in differences)
    counted = sum(d != 0 for d in differences)
    fewer = min(positive, counted - positive)
    tail = sum(math.comb(counted, k) for k in range(fewer + 1)) / 2 ** counted
    return positive, counted, min(1.0, 2 * tail)


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


def start_viewers(server, viewers):
    """The viewers' process, once its `viewers` streams have all connected to `server`."""
    follower = subprocess.Popen(
        [sys.executable, "-c", "from yariboard.benchmarks.web import follow; "
         "follow(%d, %d, %d)" % (server.port, viewers, BOARDS * PLIES)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + CONNECT_DEADLINE_S
    while server.viewers() < viewers:
        if time.monotonic() > deadline or follower.poll() is not None:
            follower.kill()
            raise RuntimeError("only %d of %d viewers connected" % (server.viewers(), viewers))
        time.sleep(0.05)
    return follower


class CpuMeter:
    """The CPU time behind the moves of one run, from its start to `per_move`: the recorder's
    thread and process, their wait on a run queue, the server's and the viewers' processes
    (None where a figure cannot be read)."""

    def __init__(self, server_pid, viewers_pid):
        self.pids = {"server_cpu": server_pid, "viewers_cpu": viewers_pid}
        self.load = os.getloadavg()[0]
        self.started = self._read()

    def _read(self):
        figures = {name: process_cpu_seconds(pid) if pid else None
                   for name, pid in self.pids.items()}
        figures.update(thread_cpu=time.thread_time(), process_cpu=time.process_time(),
                       queued=run_queue_seconds())
        return figures

    def per_move(self, moves):
        ended = self._read()
        return {name: (ended[name] - began) / moves if began is not None else None
                for name, began in self.started.items()}


def tournament(viewers, paused=False):
    """One run: BOARDS boards playing PLIES moves, `viewers` following them (`paused`: their
    process stopped while the boards play, so that the server alone works then, writing
    into the sockets' buffers). Returns a dict of what it measured (see run())."""
    moves = BOARDS * PLIES
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
                follower = start_viewers(server, viewers) if viewers else None
                meter = CpuMeter(server.process.pid, follower.pid if follower else None)
                if paused:
                    os.kill(follower.pid, signal.SIGSTOP)
                try:
                    stored_at, own = play(tables, lives, PLIES)
                finally:
                    if paused:
                        os.kill(follower.pid, signal.SIGCONT)
                figures = meter.per_move(moves)
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
    return dict(figures, stored_at=stored_at, own=own, games=games, seen=seen, load=meter.load)


def follow(port, viewers, moves):
    """Run `viewers` event-stream readers until told on stdin that the play is over and
    each has seen `moves` moves in all (the subprocess side); print {"viewers": per viewer
    {"first_seen": {"board ply": received at}, "usi": {board: [...]}}}.

    They stand for browsers on other machines, so whatever CPU they spend here is an
    artefact of the benchmark, taken from the recording's CPUs: one epoll loop over raw
    sockets, which while the boards play only receives each chunk and notes when it came
    (one clock reading a wake-up for all the chunks it finds); the events are read from
    the chunks once the play is over."""
    yield_the_cpu()                 # browsers run on other machines: not before the recording
    every = [_Viewer(port) for _ in range(viewers)]
    readers = {viewer.sock.fileno(): viewer for viewer in every}
    poll = select.epoll()
    for fd in readers:
        poll.register(fd, select.EPOLLIN)
    stdin = sys.stdin.fileno()
    poll.register(stdin, select.EPOLLIN)
    played = False
    deadline = None
    while readers:
        ready = poll.poll(1.0)
        now = time.monotonic()
        for fd, _ in ready:
            if fd == stdin:
                os.read(stdin, 64)
                poll.unregister(stdin)
                played, deadline = True, now + RUN_DEADLINE_S
            elif not readers[fd].receive(now):
                poll.unregister(fd)
        if played:
            if now > deadline:
                raise RuntimeError("the viewers did not see %d moves in %d s" % (moves, RUN_DEADLINE_S))
            for fd in [fd for fd, viewer in readers.items() if viewer.seen_all(moves)]:
                readers.pop(fd).sock.close()
    print(json.dumps({"viewers": [viewer.figures() for viewer in every]}))


class _Viewer:
    """One viewer's connection: while the boards play it only keeps each chunk and when it
    arrived (a browser does its work on another machine); seen_all() reads them afterwards."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
        self.sock.setblocking(False)
        self.chunks = []            # (arrived at, bytes)
        self.read, self.pending = 0, b""      # chunks read so far, the unended line
        self.closed = False
        self.first_seen, self.usi = {}, {}

    def receive(self, now):
        """Keep what arrived; False once the connection is closed."""
        try:
            data = self.sock.recv(RECEIVE_BYTES)
        except BlockingIOError:
            return True
        self.chunks.append((now, data))
        self.closed = not data
        return not self.closed

    def seen_all(self, moves):
        """Read the chunks not read yet; whether `moves` moves in all were seen (or the
        connection closed). A line arrived with the chunk that ended it."""
        for at, data in self.chunks[self.read:]:
            self.pending += data
            *ended, self.pending = self.pending.split(b"\n")
            for line in ended:
                if line.startswith(b"data: "):
                    snap = json.loads(line[6:])
                    board = snap["board"]
                    self.usi[board] = [row["usi"] for row in snap["moves"]]
                    for ply in range(1, len(snap["moves"]) + 1):
                        self.first_seen.setdefault("%s %d" % (board, ply), at)
        self.read = len(self.chunks)
        return self.closed or sum(min(len(v), PLIES) for v in self.usi.values()) >= moves

    def figures(self):
        return {"first_seen": self.first_seen, "usi": self.usi}


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


# Each round's runs: without viewers, with them, and with them paused while the boards play
# (the server's work alone, without the viewers' stand-in's on the same CPUs).
ARMS = (("without_viewers", 0, False), ("with_viewers", VIEWERS, False),
        ("with_paused_viewers", VIEWERS, True))


def run():
    rounds = []
    for number in range(ROUNDS):            # the order rotates: a load that drifts evens out
        order = ARMS[number % len(ARMS):] + ARMS[:number % len(ARMS)]
        rounds.append({name: tournament(viewers, paused) for name, viewers, paused in order})
    print("web_viewers: %d" % VIEWERS)
    print("web_boards: %d" % BOARDS)
    print("web_moves_per_board: %d" % PLIES)
    print("web_rounds: %d" % ROUNDS)
    complete, delays = [], []
    for number, runs in enumerate(rounds, 1):
        for name, viewers, paused in ARMS:
            result = runs[name]
            if viewers:
                got, waited = viewer_figures(result)
                complete.append(got)
                if not paused:               # a paused stand-in notes arrivals late
                    delays += waited
            print("web_round_%d_%s: recorder delay median %s ms, worst %s ms; per move: "
                  "recorder thread CPU %s ms and run-queue wait %s ms, recorder process CPU %s "
                  "ms, server CPU %s ms, viewers CPU %s ms; load average %.2f"
                  % (number, name, ms(statistics.median(result["own"])), ms(max(result["own"])),
                     ms(result["thread_cpu"]), ms(result["queued"]), ms(result["process_cpu"]),
                     ms(result["server_cpu"]), ms(result["viewers_cpu"]), result["load"]))
    print("web_viewers_with_every_move: %d (fewest of %d runs)" % (min(complete), len(complete)))
    print("web_archive_to_viewer_median_ms: %.1f" % (1000 * statistics.median(delays)))
    print("web_archive_to_viewer_worst_ms: %.1f" % (1000 * max(delays)))
    queued_known = rounds[0]["without_viewers"]["queued"] is not None
    for name, _, _ in ARMS:
        own = [delay for runs in rounds for delay in runs[name]["own"]]
        print("web_recorder_delay_%s_median_ms: %.1f" % (name, 1000 * statistics.median(own)))
        print("web_recorder_delay_%s_worst_ms: %.1f" % (name, 1000 * max(own)))
        print("web_recorder_thread_cpu_per_move_%s_ms: %.2f" % (
            name, 1000 * statistics.median(runs[name]["thread_cpu"] for runs in rounds)))
        if queued_known:
            print("web_recorder_run_queue_wait_per_move_%s_ms: %.2f" % (
                name, 1000 * statistics.median(runs[name]["queued"] for runs in rounds)))
    figures = [("delay", lambda result: statistics.median(result["own"]))]
    if queued_known:
        figures.append(("run_queue_wait", lambda result: result["queued"]))
    for figure, of in figures:
        for name, _, _ in ARMS[1:]:
            differences = [of(runs[name]) - of(runs["without_viewers"]) for runs in rounds]
            longer, counted, p = sign_test(differences)
            print("web_recorder_%s_longer_%s: %d of %d rounds (sign test p = %.3f), median "
                  "difference %+.1f ms" % (figure, name, longer, counted, p,
                                           1000 * statistics.median(differences)))
