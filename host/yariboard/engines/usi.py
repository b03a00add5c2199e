"""Play against any engine that speaks USI (the shogi engine protocol), as a child process.

`UsiEngine` follows the engine protocol of `yariboard.engines.base` as the built-in engine
does, so the CLI's `--engine PATH` swaps one for the other. Every move the engine names is
checked with the rules core before it is returned: an engine that plays an illegal move, stops
answering or dies raises `UsiError` with a message that says which and when, and the process
is always cleaned up.

Yari Shogi needs an engine that knows it: Fairy-Stockfish offers it as `USI_Variant yarishogi`
(`UCI_Variant` in older builds). In USI mode Fairy-Stockfish reads and writes shogi coordinates and SFEN for every variant
(files counted from the right, ranks lettered from the top), which for Yari is exactly the
project's own USI form, so positions and moves pass through unconverted.

While it thinks, every `info` line is passed to `on_progress(side, result)` (when set): a
SearchResult so far (depth, nodes, score and mate from `side`'s view, the PV, its first move),
so a screen can show the engine thinking.
"""
import time

from shogicore.errors import MoveError
from shogicore.move import parse_usi, to_usi
from shogicore.variants import BLACK, YARI, variant_by_name

from yariboard.engines.base import MATE_BOUND, MATE_SCORE, EngineError, Limit, SearchResult
from yariboard.engines.process import EngineProcess

DEFAULT_MOVE_SECONDS = 1.0
STARTUP_SECONDS = 10.0
# Extra time allowed past the requested thinking time before the engine counts as hung.
GRACE_SECONDS = 5.0
# Without a clock (go depth N, go nodes N), how long to wait for the answer.
DEPTH_SEARCH_SECONDS = 120.0
# Fairy-Stockfish's names for the variants, set through its variant option.
FAIRY_VARIANT_NAMES = {"yari": "yarishogi", "shogi": "shogi"}
# Who plays each variant that no USI engine the project knows offers.
OTHER_ENGINES = {
    "wa": "the built-in engine (the default) and CrazyWa (--engine crazywa, over XBoard; "
          "apt-get install crazywa)",
    "wa-nodrops": "the built-in engine (the default)",
}
# The variant option's name: USI_Variant in USI mode, UCI_Variant in older builds.
VARIANT_OPTIONS = ("USI_Variant", "UCI_Variant")


class UsiError(EngineError):
    """The engine could not be started, broke the protocol, hung, or died."""


class UsiOption:
    """One `option name ... type ...` line of the engine's `usi` answer."""

    def __init__(self, name, type_, default=None, choices=()):
        self.name = name
        self.type = type_
        self.default = default
        self.choices = tuple(choices)

    def __repr__(self):
        return "UsiOption(%r, %r, default=%r)" % (self.name, self.type, self.default)


def parse_option_line(line):
    """'option name Hash type spin default 16 min 1 max 33554432' -> UsiOption.

    Names and string defaults may contain spaces; the keywords split the line."""
    keywords = {"name", "type", "default", "min", "max", "var"}
    fields = {}
    choices = []
    current = None
    words = []
    for token in line.split()[1:] + [None]:
        if token is None or (token in keywords and not (current == "name" and not words)):
            if current == "var":
                choices.append(" ".join(words))
            elif current is not None:
                fields[current] = " ".join(words)
            current, words = token, []
        else:
            words.append(token)
    if "name" not in fields or "type" not in fields:
        raise UsiError("unreadable option line from engine: %r" % line)
    default = fields.get("default")
    if default == "<empty>":
        default = ""
    return UsiOption(fields["name"], fields["type"], default, choices)


class UsiEngine(EngineProcess):
    """A running USI engine bound to one variant. Close it (or use `with`) when done."""

    Error = Died = UsiError

    def __init__(self, path, variant=YARI, options=None, args=(),
                 startup_timeout=STARTUP_SECONDS, nodes=None, name=None):
        """`nodes`: a node budget per move, used when a search is given no time limit."""
        self.path = path
        self.variant = check_usi_variant(variant, name or path)
        self.name = name or path
        self.nodes = nodes
        self.on_progress = None
        self.author = ""
        self.options = {}
        self._new_game_pending = True
        self.progress = None   # the latest `info` of the search in progress
        self._spawn([path] + list(args))
        try:
            self._handshake(options or {}, startup_timeout)
        except BaseException:
            self.close()
            raise

    # -- the common engine interface --------------------------------------------------------

    def search(self, position, limit=None):
        """Ask the engine for its move in `position`; returns a SearchResult whose move is
        legal there (or resign / declare_win set). The limit becomes a `go` command
        (`go_command`)."""
        if position.variant.name != self.variant.name:
            raise UsiError("engine was set up for %s, position is %s"
                           % (self.variant.name, position.variant.name))
        self._discard_stale_output()
        if self._new_game_pending:
            self._send("usinewgame")
            self._new_game_pending = False
        self._send(position_command(position))
        command, timeout = go_command(limit or Limit(), position.side, self.nodes)
        self._send(command)
        start = time.monotonic()
        info = {}
        self.progress = None

        def answered(line):
            if line.startswith("info "):
                collect_info(line, info)
                if self.on_progress is not None and "pv" in line.split():
                    self.on_progress(position.side, self._progress(position, info))
                self.progress = SearchResult(   # read by a host showing the search
                    move=None, score=info.get("score", 0), mate=info.get("mate"),
                    depth=info.get("depth", 0), nodes=info.get("nodes", 0),
                    pv=legal_prefix(position, info.get("pv", [])))
                return False
            return line.startswith("bestmove")

        line = self._read_until(answered, timeout, "bestmove", on_timeout=self._stop_now)
        result = self._result(position, line, info)
        result.seconds = time.monotonic() - start
        return result

    def new_game(self):
        """The next search starts a new game (sends usinewgame first)."""
        self._new_game_pending = True

    def stop(self):
        """Ask a running search (in another thread) for its best move now."""
        self._send("stop")

    def _stop_now(self):
        """A search past its time: ask for the best move so far before giving up on the
        engine, and wait a little more."""
        self.stop()
        return GRACE_SECONDS

    # -- protocol --------------------------------------------------------------------------

    def _handshake(self, options, timeout):
        self._send("usi")

        def header(line):
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
            elif line.startswith("id author "):
                self.author = line[len("id author "):].strip()
            elif line.startswith("option "):
                option = parse_option_line(line)
                self.options[option.name] = option
            return line.strip() == "usiok"

        self._read_until(header, timeout, "usiok", cpu=True)
        self._select_variant()
        for name, value in options.items():
            self.set_option(name, value)
        self._send("isready")
        self._read_until(lambda line: line.strip() == "readyok", timeout, "readyok", cpu=True)

    def _select_variant(self):
        wanted = FAIRY_VARIANT_NAMES[self.variant.name]
        name = next((n for n in VARIANT_OPTIONS if n in self.options), None)
        option = self.options.get(name)
        if option is not None and wanted in option.choices:
            self._send("setoption name %s value %s" % (name, wanted))
        elif self.variant.name != "shogi":
            raise UsiError(
                "engine %r cannot play %s shogi: it offers no USI_Variant %r (Fairy-Stockfish "
                "builds that know %s can); use the built-in engine or standard shogi"
                % (self.name, self.variant.name.capitalize(), wanted, wanted))

    def set_option(self, name, value):
        """`setoption name NAME value VALUE`; UsiError for an option the engine lacks."""
        if name not in self.options:
            raise UsiError("engine %r has no option %r (it has: %s)"
                           % (self.name, name, ", ".join(sorted(self.options)) or "none"))
        if isinstance(value, bool):
            value = "true" if value else "false"
        self._send("setoption name %s value %s" % (name, value))

    def _progress(self, position, info):
        """The search so far, from the info lines read. Only the PV's legal prefix is kept,
        so `move` is None until the engine names a legal one."""
        result = SearchResult(move=None, depth=info.get("depth", 0), nodes=info.get("nodes", 0),
                              score=info.get("score", 0), mate=info.get("mate"))
        result.pv = legal_prefix(position, info.get("pv", []))
        result.move = result.pv[0] if result.pv else None
        return result

    def _result(self, position, line, info):
        words = line.split()
        if len(words) < 2:
            raise UsiError("engine %r sent %r without a move" % (self.name, line.strip()))
        text = words[1]
        result = SearchResult(move=None, depth=info.get("depth", 0), nodes=info.get("nodes", 0))
        if "mate" in info:
            result.mate = info["mate"]
            result.score = info["score"]
        elif "score" in info:
            result.score = info["score"]
        if text == "resign":
            result.resign = True
            return result
        if text == "win":
            result.declare_win = True
            return result
        try:
            move = parse_usi(self.variant, text)
        except MoveError as e:
            raise UsiError("engine %r sent an unreadable move %r: %s" % (self.name, text, e))
        if not position.is_legal(move):
            raise UsiError("engine %r played the illegal move %s in %s"
                           % (self.name, text, position.sfen()))
        result.move = move
        result.pv = legal_prefix(position, info.get("pv", [text]))
        if not result.pv or result.pv[0] != move:
            result.pv = [move]
        return result


def check_usi_variant(variant, engine_name):
    """The Variant of `variant` if a USI engine can be asked to play it; UsiError naming the
    engines that do play it otherwise."""
    variant = variant_by_name(variant)
    if variant.name not in FAIRY_VARIANT_NAMES:
        raise UsiError("%s cannot play the variant %r: no USI engine the project knows offers "
                       "it; it is played by %s" % (engine_name, variant.name,
                                         OTHER_ENGINES.get(variant.name, "the built-in engine")))
    return variant


def go_command(limit, side, default_nodes=None):
    """(the `go` command for `limit`, seconds to wait for its answer). A clock is sent as
    it is; a time for the move as byoyomi; without either, a node budget (the limit's,
    else `default_nodes`) as `go nodes N`, a depth alone as `go depth N`, else 1 s of
    byoyomi. A depth is added to any of them."""
    nodes = limit.nodes if limit.nodes is not None else default_nodes
    if limit.has_clock() and limit.time is None:
        command = "go btime %d wtime %d" % (_ms(limit.black_clock or 0),
                                            _ms(limit.white_clock or 0))
        if limit.byoyomi:
            command += " byoyomi %d" % _ms(limit.byoyomi)
        else:
            command += " binc %d winc %d" % (_ms(limit.black_increment),
                                            _ms(limit.white_increment))
        own = limit.black_clock if side == BLACK else limit.white_clock
        timeout = (own or 0) + limit.byoyomi + GRACE_SECONDS
    elif limit.time is None and (nodes is not None or limit.depth is not None):
        command = "go"
        if nodes is not None:
            command += " nodes %d" % nodes
        timeout = DEPTH_SEARCH_SECONDS
    else:
        seconds = DEFAULT_MOVE_SECONDS if limit.time is None else limit.time
        command = "go btime 0 wtime 0 byoyomi %d" % max(1, _ms(seconds))
        timeout = seconds + GRACE_SECONDS
    if limit.depth is not None:
        command += " depth %d" % limit.depth
    return command, timeout


def _ms(seconds):
    return int(max(0.0, seconds) * 1000)


def position_command(position):
    """'position sfen <start> moves ...': the game's start and its moves, so the engine sees
    the history it needs for repetition."""
    start = position.copy()
    moves = position.moves()
    for _ in moves:
        start.pop()
    command = "position sfen " + start.sfen()
    if moves:
        command += " moves " + " ".join(to_usi(position.variant, m) for m in moves)
    return command


def legal_prefix(position, words):
    """The moves of a USI principal variation, as far as they are legal one after another."""
    pos = position.copy()
    line = []
    for word in words:
        try:
            move = parse_usi(pos.variant, word)
        except MoveError:
            break
        if not pos.is_legal(move):
            break
        pos.push(move)
        line.append(move)
    return line


def collect_info(line, info):
    """Fold an `info ...` line into `info` (depth, nodes, score, mate, pv): later lines
    overwrite earlier ones, so the deepest report stands."""
    words = line.split()
    i = 1
    while i < len(words):
        word = words[i]
        if word == "string":
            break
        if word in ("depth", "nodes") and i + 1 < len(words):
            try:
                info[word] = int(words[i + 1])
            except ValueError:
                pass
            i += 2
        elif word == "score" and i + 2 < len(words):
            _collect_score(words[i + 1], words[i + 2], info)
            i += 3
        elif word == "pv":
            info["pv"] = words[i + 1:]
            break
        else:
            i += 1


def _collect_score(kind, value, info):
    """`score cp 35` or `score mate 5` / `mate -4` / `mate +` (USI mate counts are plies)."""
    if kind == "cp":
        try:
            info["score"] = int(value)
        except ValueError:
            return
        info.pop("mate", None)
    elif kind == "mate":
        if value in ("+", "-"):
            info.pop("mate", None)
            info["score"] = MATE_BOUND if value == "+" else -MATE_BOUND
            return
        try:
            plies = int(value)
        except ValueError:
            return
        info["mate"] = plies
        # Mate in 0 plies can only mean the side to move is already mated.
        info["score"] = MATE_SCORE - plies if plies > 0 else -MATE_SCORE - plies
