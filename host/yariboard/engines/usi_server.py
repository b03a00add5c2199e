"""The built-in engine as a USI engine (`yariboard usi`), so shogi GUIs can play it.

Commands are read line by line; a search runs in a thread of its own so that `stop` and
`quit` are heard while it thinks. Input the engine cannot use (an unknown command, a bad
position or move, a bad option value) is answered with one `info string error: ...` line and
otherwise ignored: a GUI session never ends in a traceback.

Time: `movetime` is used as given; otherwise the clock is planned as every engine plans it
(`Limit.planned_seconds`: a share of the main time left plus most of the increment or the
byoyomi, never more than half the main time left), minus a safety margin. `go infinite` and
`go ponder` search until `stop` (the best move is held back until then, as USI asks);
other commands sent during a timed search wait for its answer;
`ponderhit` turns a ponder search into a normal one with the time limits it was given.
`go mate MS|infinite` searches for a mate (`builtin.mate`) and answers `checkmate` with the
mating moves, `checkmate nomate`, or `checkmate timeout` once the time is up or on `stop`.
"""
import gc
import threading
import time

from shogicore.errors import MoveError
from shogicore.move import parse_usi, to_usi
from shogicore.position import Position
from shogicore.variants import variant_by_name

from yariboard.engines.base import MATE_BOUND, Limit
from yariboard.engines.builtin.mate import MateSearch, MateTimeout
from yariboard.engines.builtin.search import DEFAULT_LEVEL, LEVELS, MAX_DEPTH, Engine

ENGINE_NAME = "Yari Board built-in engine"
# Commands heard while a search runs; any other waits until a timed search has answered
# (and is refused during an infinite or ponder search, which only stop ends).
DURING_SEARCH = ("stop", "quit", "ponderhit", "isready", "gameover")
ENGINE_AUTHOR = "the Yari Board project"
# USI_Variant values and the project's variant each selects ("yari" accepted as well).
VARIANTS = {"shogi": "shogi", "yarishogi": "yari", "yari": "yari"}
HASH_DEFAULT_MB, HASH_MAX_MB = 64, 4096
# A transposition-table entry of the built-in engine (dict slot, key, tuple) is about this
# many bytes, so USI_Hash (MB) becomes an entry count.
TT_ENTRY_BYTES = 200
# Kept back from every time budget for the GUI's and the pipe's delays.
MARGIN_MS = 100
MIN_MOVE_MS = 20


def parse_go(words):
    """The arguments of a `go` command -> dict (numbers as ints, flags as True; `mate` as
    its milliseconds, None for infinite). ValueError names the first one that is not
    understood."""
    numeric = {"btime", "wtime", "byoyomi", "binc", "winc", "nodes", "depth", "movetime",
               "movestogo", "mate"}
    flags = {"infinite", "ponder"}
    limits = {}
    i = 0
    while i < len(words):
        word = words[i]
        if word in flags:
            limits[word] = True
            i += 1
        elif word == "mate" and i + 1 < len(words) and words[i + 1] == "infinite":
            limits[word] = None
            i += 2
        elif word in numeric:
            if i + 1 >= len(words):
                raise ValueError("go %s needs a number" % word)
            try:
                limits[word] = int(words[i + 1])
            except ValueError:
                raise ValueError("go %s needs a number, not %r" % (word, words[i + 1]))
            i += 2
        else:
            raise ValueError("unknown go argument %r" % word)
    return limits


def go_limit(limits):
    """The `go` limits as the engines' Limit (times in seconds)."""
    def seconds(name):
        return limits[name] / 1000.0 if name in limits else None

    return Limit(time=seconds("movetime"), depth=limits.get("depth"), nodes=limits.get("nodes"),
                 black_clock=seconds("btime"), white_clock=seconds("wtime"),
                 black_increment=seconds("binc") or 0.0, white_increment=seconds("winc") or 0.0,
                 byoyomi=seconds("byoyomi") or 0.0, moves_to_go=limits.get("movestogo"))


def move_time_ms(limits, side):
    """Thinking time for this move from the `go` limits, less the margin, or None for no
    clock."""
    planned = go_limit(limits).planned_seconds(side)
    if planned is None:
        return None
    return max(MIN_MOVE_MS, int(planned * 1000) - MARGIN_MS)


def info_line(variant, result, seconds):
    """`info depth .. score cp|mate .. nodes .. nps .. time .. pv ..` for a search result."""
    if result.mate is not None:
        score = "mate %d" % result.mate
    elif abs(result.score) >= MATE_BOUND:
        score = "mate %s" % ("+" if result.score > 0 else "-")
    else:
        score = "cp %d" % result.score
    ms = max(1, int(seconds * 1000))
    return "info depth %d score %s nodes %d nps %d time %d pv %s" % (
        result.depth, score, result.nodes, result.nodes * 1000 // ms, ms,
        " ".join(to_usi(variant, m) for m in result.pv))


class _Job:
    """One `go`: its stop signal, and for infinite/ponder searches the hold that keeps the
    best move back until stop. A job abandoned by ponderhit answers nothing."""

    def __init__(self, hold):
        self.stop = threading.Event()
        self.hold = threading.Event() if hold else None
        self.silent = False
        self.shown_nodes = 0   # the nodes the last info line counted
        self.thread = None
        self.started = time.monotonic()

    def release(self):
        self.stop.set()
        if self.hold is not None:
            self.hold.set()
        self.thread.join()


class UsiServer:
    """One USI session: `handle(line)` for each input line, output through `write(line)`."""

    def __init__(self, write, variant="shogi"):
        self.write = write
        self.engine = Engine(level=DEFAULT_LEVEL)
        self.engine.on_progress = self._progress
        self.level = max(LEVELS)
        self.variant = variant_by_name(VARIANTS[variant])
        self.position = Position(self.variant)
        self._job = None           # the current (or last) search
        self._ponder = None        # the limits of a `go ponder`, used at ponderhit
        self._lock = threading.Lock()
        self.quit = False

    # -- input -----------------------------------------------------------------------------

    def handle(self, line):
        """Act on one line of input; returns False once the session is over (quit)."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        handler = getattr(self, "_cmd_" + command, None)
        if handler is None:
            self.error("unknown command %r" % command)
            return True
        if command not in DURING_SEARCH and self._busy() and self._job.hold is None:
            self._job.thread.join()
        try:
            handler(args)
        except ValueError as e:
            self.error(str(e))
        return not self.quit

    def error(self, message):
        self.write("info string error: %s" % message)

    def _cmd_usi(self, args):
        self.write("id name %s" % ENGINE_NAME)
        self.write("id author %s" % ENGINE_AUTHOR)
        self.write("option name USI_Variant type combo default %s var shogi var yarishogi"
                   % ("yarishogi" if self.variant.name == "yari" else "shogi"))
        self.write("option name Level type spin default %d min %d max %d"
                   % (self.level, min(LEVELS), max(LEVELS)))
        self.write("option name USI_Hash type spin default %d min 1 max %d"
                   % (HASH_DEFAULT_MB, HASH_MAX_MB))
        # The search is single-threaded: Threads is offered for GUIs that insist, fixed at 1.
        self.write("option name Threads type spin default 1 min 1 max 1")
        self.write("usiok")

    def _cmd_isready(self, args):
        if not self._busy():
            # what the first move's clock must not pay for: the variant's tables, and (the
            # tables frozen out of the collector's reach) long collections during a search
            self.engine.prepare(self.variant)
            gc.freeze()
        self.write("readyok")

    def _cmd_setoption(self, args):
        if len(args) < 2 or args[0] != "name":
            raise ValueError("setoption name NAME [value VALUE]")
        if "value" in args:
            at = args.index("value")
            name, value = " ".join(args[1:at]), " ".join(args[at + 1:])
        else:
            name, value = " ".join(args[1:]), ""
        if self._busy():
            raise ValueError("setoption while searching")
        if name in ("USI_Variant", "UCI_Variant"):
            if value.lower() not in VARIANTS:
                raise ValueError("USI_Variant must be shogi or yarishogi, not %r" % value)
            self.variant = variant_by_name(VARIANTS[value.lower()])
            self.position = Position(self.variant)
            self.engine.new_game()
        elif name == "Level":
            level = self._int(name, value, min(LEVELS), max(LEVELS))
            self.level = level
        elif name == "USI_Hash":
            megabytes = self._int(name, value, 1, HASH_MAX_MB)
            self.engine.tt_max_entries = megabytes * 1024 * 1024 // TT_ENTRY_BYTES
        elif name == "Threads":
            self._int(name, value, 1, 1)
        elif name in ("USI_Ponder", "USI_OwnBook"):
            pass    # GUIs send these whether offered or not; nothing to change
        else:
            raise ValueError("no option %r" % name)

    @staticmethod
    def _int(name, value, low, high):
        try:
            number = int(value)
        except ValueError:
            raise ValueError("%s needs a whole number, not %r" % (name, value))
        if not low <= number <= high:
            raise ValueError("%s must be %d..%d, not %d" % (name, low, high, number))
        return number

    def _cmd_usinewgame(self, args):
        self.engine.new_game()
        self.position = Position(self.variant)

    def _cmd_position(self, args):
        if self._busy():
            raise ValueError("position while searching")
        if not args:
            raise ValueError("position startpos|sfen SFEN [moves ...]")
        moves = []
        if "moves" in args:
            at = args.index("moves")
            args, moves = args[:at], args[at + 1:]
        if not args:
            raise ValueError("position startpos|sfen SFEN [moves ...]: no position before moves")
        if args == ["startpos"]:
            position = Position(self.variant)
        elif args[0] == "sfen" and len(args) >= 2:
            try:
                position = Position(self.variant, " ".join(args[1:]))
            except (ValueError, MoveError, IndexError, KeyError) as e:
                raise ValueError("bad SFEN %r: %s" % (" ".join(args[1:]), e))
            if not all(position.kings):   # the rules core holds it; the engine cannot judge it
                raise ValueError("a position with a side without a General (a tsume problem's "
                                 "attacker) is not supported by the built-in engine")
        else:
            raise ValueError("position startpos|sfen SFEN [moves ...]")
        for text in moves:
            try:
                move = parse_usi(self.variant, text)
            except (MoveError, ValueError) as e:
                raise ValueError("bad move %r: %s" % (text, e))
            if not position.is_legal(move):
                raise ValueError("illegal move %s in %s" % (text, position.sfen()))
            position.push(move)
        self.position = position

    def _cmd_go(self, args):
        if self._busy():
            raise ValueError("go while searching")
        limits = parse_go(args)
        if "mate" in limits:
            self._start_mate(limits["mate"])
            return
        self._ponder = None
        if "ponder" in limits:
            self._ponder = limits
            limits = {"infinite": True}
        self._start(limits)

    def _start(self, limits):
        job = self._job = _Job(hold="infinite" in limits)
        position = self.position.copy()
        seconds = None
        if "infinite" not in limits:
            ms = move_time_ms(limits, position.side)
            seconds = None if ms is None else ms / 1000.0
        depth = limits.get("depth")
        nodes = limits.get("nodes")
        if seconds is None and depth is None and nodes is None and "infinite" not in limits:
            level = LEVELS[self.level]
            seconds, depth = level.seconds, level.depth
        if "infinite" in limits and depth is None:
            depth = MAX_DEPTH
        self.engine.level = LEVELS[self.level]
        self.engine.stop_event = job.stop
        job.thread = threading.Thread(target=self._run, args=(job, position, seconds, depth, nodes),
                                      daemon=True)
        job.thread.start()

    def _run(self, job, position, seconds, depth, nodes):
        result = self.engine.search(position, Limit(time=seconds, depth=depth, nodes=nodes))
        if job.hold is not None:
            job.hold.wait()       # infinite / ponder: answer only when told to stop
        if job.silent:
            return                # ponderhit went on with a new search
        if result.move is None:
            answer = "win" if position.can_declare_impasse() else "resign"
        elif position.can_declare_impasse():
            answer = "win"
        else:
            answer = to_usi(position.variant, result.move)
        with self._lock:
            if job.shown_nodes and result.nodes > job.shown_nodes:
                # cut short in an iteration: the last line a GUI shows counts every node
                self.write(info_line(self.variant, result, time.monotonic() - job.started))
            self.write("bestmove %s" % answer)

    def _start_mate(self, ms):
        job = self._job = _Job(hold=False)
        seconds = None if ms is None else max(MIN_MOVE_MS, ms - MARGIN_MS) / 1000.0
        job.thread = threading.Thread(target=self._run_mate,
                                      args=(job, self.position.copy(), seconds), daemon=True)
        job.thread.start()

    def _run_mate(self, job, position, seconds):
        try:
            line = MateSearch(position, seconds, job.stop).run()
        except MateTimeout:
            answer = "timeout"
        else:
            answer = "nomate" if line is None else \
                " ".join(to_usi(position.variant, m) for m in line)
        with self._lock:
            self.write("checkmate " + answer)

    def _cmd_stop(self, args):
        if self._job is not None:
            self._ponder = None
            self._job.release()

    def _cmd_ponderhit(self, args):
        """The predicted move was played: search on with the limits the ponder go gave."""
        if self._ponder is None or not self._busy():
            raise ValueError("ponderhit without go ponder")
        limits = dict(self._ponder)
        limits.pop("ponder")
        self._ponder = None
        self._job.silent = True
        self._job.release()
        self._start(limits)

    def _cmd_gameover(self, args):
        self._cmd_stop(args)

    def _cmd_quit(self, args):
        self._cmd_stop(args)
        self.quit = True

    def _busy(self):
        return self._job is not None and self._job.thread.is_alive()

    def end_of_input(self):
        """The GUI has gone: stop a running search at once (its bestmove is still written),
        so no search outlives its GUI for the rest of its budget."""
        self._cmd_stop([])

    # -- output ----------------------------------------------------------------------------

    def _progress(self, side, result):
        with self._lock:
            self.write(info_line(self.variant, result, time.monotonic() - self._job.started))
            self._job.shown_nodes = result.nodes


def serve(stdin, stdout, variant="shogi"):
    """Run a USI session on two text streams until quit or end of input."""
    def write(line):
        try:
            stdout.write(line + "\n")
            stdout.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass        # the GUI has gone; the end of its input ends the session

    server = UsiServer(write, variant)
    for line in stdin:
        if not server.handle(line):
            return 0
    server.end_of_input()
    return 0
