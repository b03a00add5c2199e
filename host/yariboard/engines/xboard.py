"""Play against, or check the rules with, an engine that speaks the XBoard protocol.

CrazyWa (Debian package `crazywa`, `variant crazywa`) plays Wa Shogi with drops. `XBoardEngine`
follows the engine protocol of `yariboard.engines.base` as the built-in engine and `UsiEngine`
do (a node budget is sent as `nps` with one second of thinking), and checks every move it is
given with the rules core. `root_moves(position)` is
the engine's own list of legal moves, which the tests compare with the rules core's.

XBoard coordinates differ from the project's USI: files are letters a.. from the left as
Black sees the board (so file 11 is `a`), ranks are numbers 1.. from Black's side, drops are
written `P@e5`, and in a FEN `w` is the side that moves first (the project's Black), with the
hand in brackets after the board. The board letters are the project's own SFEN letters.
"""
import shutil
import time

from shogicore.errors import MoveError
from shogicore.move import parse_usi, to_usi
from shogicore.variants import variant_by_name

from yariboard.engines.base import MATE_BOUND, EngineError, Limit, SearchResult
from yariboard.engines.process import EngineProcess
from yariboard.engines.usi import legal_prefix

# The engine's name for each variant it can play for the project.
XBOARD_VARIANT_NAMES = {"wa": "crazywa"}
DEFAULT_COMMAND = "crazywa"
DEFAULT_MOVE_SECONDS = 1.0
STARTUP_SECONDS = 10.0
GRACE_SECONDS = 5.0
DEPTH_SEARCH_SECONDS = 120.0
# CrazyWa 1.0.5 as Debian builds it crashes in a search from the start position at depth 5,
# and deeper than 2 plies within a few moves of most games: every search is capped at this
# depth. It still dies now and then, at 1 and 2 plies too, in games it plays against itself
# with nothing but `sd` and `go` (a read past the end of one of its tables: docs/engines.md,
# "Strength levels").
DEEPEST = 2
# Scores at or past this size (centipawns) mean a mate was seen: CrazyWa's mate is 100000.
MATE_CENTIPAWNS = 10000
# root_moves: search this deep, listing every root move whose score is within this margin
# of the best (its largest), at every depth. Each depth's list misses moves its pruning
# skipped (at depth 1 every drop, at 2 drops onto attacked squares); together they miss few.
LIST_DEPTH = 2
LIST_MARGIN = 10000


class XBoardError(EngineError):
    """The engine could not be started, broke the protocol, hung, or died."""


class EngineDied(XBoardError):
    """The engine process ended while it was being asked something."""


def find_crazywa():
    """Path of the installed CrazyWa (Debian puts it in /usr/games), or None."""
    return shutil.which(DEFAULT_COMMAND) or shutil.which(DEFAULT_COMMAND, path="/usr/games")


# -- coordinates ------------------------------------------------------------------------------
def square_to_xboard(variant, name):
    """'11k' -> 'a1' (USI square name -> XBoard square name)."""
    sq = variant.parse_square(name)
    return "%c%d" % (96 + variant.files + 1 - variant.file_of(sq),
                     variant.ranks + 1 - variant.rank_of(sq))


def square_from_xboard(variant, text):
    """'a1' -> '11k'; ValueError when it is not a square of the board."""
    if len(text) < 2 or not "a" <= text[0] <= "z" or not text[1:].isdigit():
        raise ValueError("not an XBoard square: %r" % (text,))
    file = variant.files + 1 - (ord(text[0]) - 96)
    rank = variant.ranks + 1 - int(text[1:])
    if not (1 <= file <= variant.files and 1 <= rank <= variant.ranks):
        raise ValueError("not a square of a %dx%d board: %r" % (variant.files, variant.ranks,
                                                               text))
    return variant.square_name(variant.square(file, rank))


def usi_to_xboard(variant, text):
    """'8i8g' -> 'd3d5', 'P*7f' -> 'P@e5', '3c3b+' -> 'i9i10+'."""
    m = parse_usi(variant, text)
    to = variant.square_name(m & 0xFF)
    if "*" in text:
        return text[0] + "@" + square_to_xboard(variant, to)
    frm = variant.square_name((m >> 8) & 0xFF)
    return (square_to_xboard(variant, frm) + square_to_xboard(variant, to)
            + ("+" if text.endswith("+") else ""))


def _split_squares(text):
    """'d3d5' -> ('d3', 'd5'); 'a10a11' -> ('a10', 'a11')."""
    i = 1
    while i < len(text) and text[i].isdigit():
        i += 1
    return text[:i], text[i:]


def usi_from_xboard(variant, text):
    """XBoard move ('d3d5', 'P@e5', 'i9i10+', 'i9i10=') -> USI; MoveError if unreadable."""
    try:
        if "@" in text:
            piece, _, square = text.partition("@")
            usi = piece.upper() + "*" + square_from_xboard(variant, square)
        else:
            body = text.rstrip("+=")
            frm, to = _split_squares(body)
            usi = (square_from_xboard(variant, frm) + square_from_xboard(variant, to)
                   + ("+" if text.endswith("+") else ""))
        parse_usi(variant, usi)
    except (ValueError, MoveError) as e:
        raise MoveError("unreadable XBoard move %r: %s" % (text, e))
    return usi


def sfen_to_xboard_fen(sfen):
    """Project SFEN -> XBoard FEN: same board letters, hand in brackets, sides renamed."""
    fields = sfen.split()
    hand = ""
    count = 0
    for c in fields[2] if fields[2] != "-" else "":
        if c.isdigit():
            count = count * 10 + int(c)
        else:
            hand += c * (count or 1)
            count = 0
    side = "w" if fields[1] == "b" else "b"
    return "%s[%s] %s 0 1" % (fields[0], hand, side)


# -- the engine --------------------------------------------------------------------------------
class XBoardEngine(EngineProcess):
    """A running XBoard engine bound to one variant. Close it (or use `with`) when done."""

    Error = XBoardError
    Died = EngineDied

    def __init__(self, path=None, variant="wa", startup_timeout=STARTUP_SECONDS):
        self.variant = variant_by_name(variant)
        if self.variant.name not in XBOARD_VARIANT_NAMES:
            raise XBoardError("no XBoard engine is set up for %s (only: %s)" % (
                self.variant.name, ", ".join(sorted(XBOARD_VARIANT_NAMES))))
        self.path = path or find_crazywa() or DEFAULT_COMMAND
        self.name = self.path
        self.restarts = 0
        self._startup_timeout = startup_timeout
        self._start()

    def _start(self):
        self._pings = 0
        self._spawn([self.path], " (Debian/Ubuntu: apt-get install crazywa)")
        try:
            self._handshake(self._startup_timeout)
        except BaseException:
            self.close()
            raise

    def _once_more_if_it_dies(self, ask, position, *args):
        """CrazyWa 1.0.5 now and then crashes on a game that a second try answers, shown the
        position alone without the moves that led to it (so it sees no repetition in that
        one search): restart once, and count it in `restarts`."""
        try:
            return ask(position, *args)
        except EngineDied:
            self.close()
            self.restarts += 1
            self._start()
            return ask(position, *args, history=False)

    # -- the common engine interface --------------------------------------------------------
    def search(self, position, limit=None):
        """The engine's move in `position` as a SearchResult whose move is legal there (or
        with resign set when the engine gives up or sees no move)."""
        return self._once_more_if_it_dies(self._search, position, limit or Limit())

    def root_moves(self, position):
        """(the USI moves the engine lists as playable in `position`, the one it would play
        or None, its best score in centipawns for the side to move). The list leaves out
        moves its search pruned, and moves with a mate score (a move that leaves the King to
        be taken scores so too). Only the position counts, not how it was reached.

        Each list comes from a fresh process: entries an earlier search left in the engine's
        hash table cut moves from the list (a new game does not clear them).
        """
        self._restart()
        return self._root_moves(position)

    def accepts(self, position, usi):
        """Does the engine count the board move `usi` legal in `position`? All its other
        moves are excluded from a search: it plays `usi` or finds nothing to play. The
        exclusion list ignores drops, so the engine is shown the board with empty hands
        (the hands never change which board moves are legal), and it cannot judge a drop."""
        if "*" in usi:
            raise ValueError("the engine cannot be asked about a drop: %r" % (usi,))
        self._restart()
        fields = position.sfen().split()
        self._new_game()
        self._send("setboard %s" % sfen_to_xboard_fen(" ".join(fields[:2] + ["-"])))
        wanted = usi_to_xboard(self.variant, usi)
        self._send("exclude all")
        self._send("include %s" % wanted)
        self._send("sd 1")
        line = self._read_answer("its answer")
        self._sync()
        return line.split()[:2] == ["move", wanted]

    def _restart(self):
        self.close()
        self._start()

    def _search(self, position, limit, history=True):
        self._restart()             # a fresh process each time: CrazyWa crashes less so
        self._set_position(position, history)
        self._send("sd %d" % min(limit.depth or DEEPEST, DEEPEST))
        seconds = limit.planned_seconds(position.side)
        if limit.nodes is not None and seconds is None:
            # `nps N` makes the engine count N nodes as one second: `st 1` is then N nodes.
            self._send("nps %d" % max(1, limit.nodes))
            self._send("st 1")
            timeout = DEPTH_SEARCH_SECONDS
        else:
            if limit.depth is not None and seconds is None:
                timeout = seconds = DEPTH_SEARCH_SECONDS
            else:
                seconds = DEFAULT_MOVE_SECONDS if seconds is None else seconds
                timeout = seconds + GRACE_SECONDS
            centiseconds = max(1, int(seconds * 100))
            # One move to make in one minute, of which `centiseconds` are left: it uses
            # about that.
            self._send("level 1 1 0")
            self._send("time %d" % centiseconds)
            self._send("otim %d" % centiseconds)
        start = time.monotonic()
        thinking = []
        line = self._read_answer("its move", thinking, timeout)
        result = self._result(position, line, thinking)
        result.seconds = time.monotonic() - start
        self._sync()
        return result

    def _root_moves(self, position):
        self._set_position(position, history=False)
        self._send("option Multi-PV margin=%d" % LIST_MARGIN)
        self._send("sd %d" % LIST_DEPTH)
        thinking = []
        line = self._read_answer("its move list", thinking)
        self._sync()
        scores = {}
        for entry in thinking:      # shallow lines first: the deepest score stands
            scores[usi_from_xboard(self.variant, entry[3])] = entry[1]
        moves = set(usi for usi, score in scores.items() if abs(score) < MATE_CENTIPAWNS)
        choice = None
        if line.startswith("move "):
            choice = usi_from_xboard(self.variant, line.split()[1])
        return moves, choice, max(scores.values()) if scores else 0

    def _read_answer(self, waiting_for, thinking=None, timeout=DEPTH_SEARCH_SECONDS):
        """Send go; the line with the engine's move or its verdict. The engine is then put
        back in force mode, so it never plays on by itself."""
        thinking = [] if thinking is None else thinking
        self._send("go")
        line = self._read_until(lambda line: _answer(line, thinking), timeout, waiting_for)
        self._send("force")
        return line

    def new_game(self):
        """Nothing to do: every search sets up its game from the start."""

    # -- protocol ---------------------------------------------------------------------------
    def _handshake(self, timeout):
        self._send("xboard")
        self._send("protover 2")
        features = []

        def done(line):
            if line.startswith("feature "):
                features.append(line)
            return "done=1" in line

        self._read_until(done, timeout, "its features")
        wanted = XBOARD_VARIANT_NAMES[self.variant.name]
        for line in features:
            if "myname=" in line:
                self.name = line.split('myname="', 1)[1].split('"', 1)[0]
        offered = [line for line in features if "variants=" in line]
        if not any(wanted in line.split('variants="', 1)[1].split('"')[0].split(",")
                   for line in offered):
            raise XBoardError("engine %r does not offer variant %r" % (self.name, wanted))
        self._send("variant %s" % wanted)
        self._send("force")
        self._send("post")
        self._sync(timeout)

    def _set_position(self, position, history=True):
        """The game's start by setboard, then its moves: the engine sees the repetitions.
        Without `history`, only the position itself (no repetition can end the game)."""
        if position.variant.name != self.variant.name:
            raise XBoardError("engine was set up for %s, position is %s"
                              % (self.variant.name, position.variant.name))
        self._discard_stale_output()
        start = position.copy()
        moves = position.moves() if history else []
        for _ in moves:
            start.pop()
        self._new_game()
        if start.sfen() != self.variant.start_sfen:
            # CrazyWa 1.0.5 searches a set-up board only a few plies deep before it crashes;
            # a game from the usual start is therefore replayed from 'new'.
            self._send("setboard %s" % sfen_to_xboard_fen(start.sfen()))
        for m in moves:
            self._send("usermove %s" % usi_to_xboard(self.variant, to_usi(self.variant, m)))

    def _new_game(self):
        """'new' resets the variant to chess (XBoard protocol 2): name the variant again."""
        self._send("new")
        self._send("variant %s" % XBOARD_VARIANT_NAMES[self.variant.name])
        self._send("force")

    def _sync(self, timeout=STARTUP_SECONDS):
        self._pings += 1
        expected = "pong %d" % self._pings
        self._send("ping %d" % self._pings)
        self._read_until(lambda line: line.strip() == expected, timeout, expected)

    def _read_until(self, done, timeout, waiting_for):
        """`EngineProcess._read_until`, where a move the engine refuses is an error."""
        def answered(line):
            if line.startswith("Illegal move"):
                raise XBoardError("engine %r refused a move: %s" % (self.name, line.strip()))
            return done(line)

        return super()._read_until(answered, timeout, waiting_for)

    def _result(self, position, line, thinking):
        result = SearchResult(move=None, depth=thinking[-1][0] if thinking else 0,
                              nodes=thinking[-1][2] if thinking else 0)
        if thinking:
            result.score = max(-MATE_BOUND, min(MATE_BOUND, thinking[-1][1]))

        if not line.startswith("move "):
            result.resign = True        # 'resign' or a game result: it has no move to play
            return result
        text = line.split()[1]
        try:
            usi = usi_from_xboard(self.variant, text)
        except MoveError as e:
            raise XBoardError("engine %r sent %s" % (self.name, e))
        move = parse_usi(self.variant, usi)
        if not position.is_legal(move):
            raise XBoardError("engine %r played the illegal move %s (%s) in %s"
                              % (self.name, text, usi, position.sfen()))
        result.move = move
        pv = thinking[-1][3:] if thinking else []
        result.pv = legal_prefix(position, [_usi_or_none(self.variant, w) for w in pv])
        if not result.pv or result.pv[0] != move:
            result.pv = [move]
        return result


def _usi_or_none(variant, text):
    try:
        return usi_from_xboard(variant, text)
    except MoveError:
        return ""


def _answer(line, thinking):
    """Collect a thinking line 'depth score time nodes move ...' as (depth, score, nodes,
    move, ...); True at the answer."""
    words = line.split()
    if len(words) >= 5 and words[0].isdigit():
        try:
            thinking.append((int(words[0]), int(words[1]), int(words[3]), *words[4:]))
        except ValueError:
            pass
        return False
    return bool(words) and (words[0] in ("move", "resign") or words[0] in (
        "1-0", "0-1", "1/2-1/2"))
