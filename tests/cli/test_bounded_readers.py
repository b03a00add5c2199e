"""Every reader's work is bounded by the length of its input, never by a number written in it
(ARCHITECTURE.md, decision 7): hostile inputs (huge numbers, long runs, deep nesting, every
byte value), spliced into good texts of each kind, are read or refused with the reader's own
error, each call within a generous bound of CPU time.

CPU time, not the clock on the wall: a busy machine makes a call slow to finish but does
not add to the time the call itself computes. A call that hangs is stopped by a wall-clock
alarm long after. `make test` tries a few examples of each reader; `make soak` many
(YARIBOARD_SOAK=1).
"""
import json
import os
import signal
import time
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardfw import config as board_config
from boardfw import protocol
from shogicore import Position, SfenError
from shogicore.errors import MoveError
from shogicore.move import parse_usi
from yariboard.records.notation import parse_hodges
from shogicore.variants import SHOGI, YARI, variant_by_name
from tests.records.test_records import random_record
from yariboard.board import replies
from yariboard.engines.usi_server import UsiServer, parse_go
from yariboard.engines.xboard import usi_from_xboard
from yariboard.play.clocks import parse_time_control
from yariboard.records import formats
from yariboard.records.game import RecordError
from yariboard.resources import board_file

SOAK = bool(os.environ.get("YARIBOARD_SOAK"))
EXAMPLES = settings(max_examples=3000 if SOAK else 40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
CPU_BOUND_S = 5.0        # for inputs of some 40 000 characters at most
HANG_S = 120             # wall clock: only a call that never ends meets it


class Hung(Exception):
    pass


@contextmanager
def bounded():
    """The call inside takes at most CPU_BOUND_S of this thread's CPU time; a hang ends in
    Hung after HANG_S of wall-clock time."""
    def alarm(signum, frame):
        raise Hung("no answer within %d s" % HANG_S)

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(HANG_S)
    start = time.thread_time()
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    spent = time.thread_time() - start
    assert spent < CPU_BOUND_S, "%.1f s of CPU" % spent


def read(reader, text, *refusals):
    """reader(text) within the bound; its result, or None when it refused with one of
    `refusals` (a one-line message)."""
    with bounded():
        try:
            return reader(text)
        except refusals as error:
            assert str(error) and "\n" not in str(error), repr(str(error))
            return None


# -- hostile pieces ------------------------------------------------------------------------

every_byte = st.binary(max_size=200).map(lambda b: b.decode("latin-1"))
huge_numbers = st.one_of(
    st.integers(10 ** 9, 10 ** 60).map(str),
    st.integers(1, 40000).map(lambda n: "9" * n),
    st.sampled_from(["1e308", "1e400", "-1e400", "inf", "-inf", "nan", "NaN", "Infinity",
                     "-0", "0x7fffffff", "18446744073709551617"]))
long_runs = st.tuples(st.sampled_from(list("9 1/+-*:#\t\"\\[{(ktP") + ["\u3000", "７"]),
                      st.integers(100, 40000)).map(lambda t: t[0] * t[1])
deep_nesting = st.tuples(st.sampled_from([("[", "]"), ("{\"a\":", "}"), ("(", ")")]),
                         st.integers(100, 20000)).map(lambda t: t[0][0] * t[1] + t[0][1] * t[1])
hostile = st.one_of(every_byte, huge_numbers, long_runs, deep_nesting, st.text(max_size=80))


def spliced(samples):
    """A good text of a kind with one stretch of it replaced by a hostile piece."""
    @st.composite
    def build(draw):
        text = draw(st.sampled_from(samples))
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 12)))
        return text[:start] + draw(hostile) + text[end:]
    return st.one_of(hostile, build())


# -- SFEN, moves, notation -----------------------------------------------------------------

WA = variant_by_name("wa")
SFENS = [YARI.start_sfen, SHOGI.start_sfen, WA.start_sfen, "3k3/7/7/7/7/7/7/7/3K3 b 2P 1"]


@EXAMPLES
@given(spliced(SFENS), st.sampled_from([YARI, SHOGI, WA]))
def test_sfen(text, variant):
    read(lambda t: Position(variant, t), text, SfenError)


def test_the_sfen_of_the_issue_is_refused_at_once():
    with bounded():
        with pytest.raises(SfenError):
            Position(YARI, "k99999999999/7/7/7/7/7/7/7/3K3 b - 1")


@EXAMPLES
@given(spliced(["7g7f", "2c2b+", "P*5e", "11c11d", "1a1b+"]), st.sampled_from([YARI, SHOGI, WA]))
def test_usi_move(text, variant):
    read(lambda t: parse_usi(variant, t), text, MoveError)


@EXAMPLES
@given(spliced(["P-7f", "Sx4d+", "P*5e", "R-2h="]))
def test_hodges_move(text):
    read(lambda t: parse_hodges(Position(YARI), t), text, MoveError)


@EXAMPLES
@given(spliced(["d3d5", "P@e5", "i9i10+", "a10a11="]))
def test_xboard_move(text):
    read(lambda t: usi_from_xboard(WA, t), text, MoveError)


# -- USI commands --------------------------------------------------------------------------

USI_LINES = ["position startpos moves 7g7f 3c3d", "position sfen " + SHOGI.start_sfen + " moves 7g7f",
             "setoption name USI_Hash value 16", "setoption name Level value 3", "isready",
             "usinewgame", "usi"]


@EXAMPLES
@given(spliced(["btime 1200 wtime 1200 byoyomi 100", "movetime 50", "nodes 1000 depth 3",
                "binc 10 winc 10 movestogo 5", "infinite"]))
def test_usi_go_arguments(text):
    read(lambda t: parse_go(t.split()), text, ValueError)


@EXAMPLES
@given(st.lists(spliced(USI_LINES), min_size=1, max_size=4))
def test_usi_commands_other_than_go(lines):
    """What a GUI may send before it asks for a move; `go` starts a search and has its own
    reader (test_usi_go_arguments)."""
    out = []
    server = UsiServer(out.append)
    for line in lines:
        if line.split()[:1] in (["go"], ["quit"], ["ponderhit"]):
            continue
        with bounded():
            server.handle(line)
    assert all("\n" not in line for line in out)


# -- protocol frames and replies -----------------------------------------------------------

FRAMES = [protocol.encode(7, ["state"]).decode(),
          protocol.encode(65535, ["setpos", "yari", "casual"] + YARI.start_sfen.split()).decode(),
          protocol.encode(3, ["undo"]).decode()]


@EXAMPLES
@given(spliced(FRAMES))
def test_protocol_frame(text):
    def decode_and_check(t):
        seq, verb, args = protocol.decode(t.encode("utf-8", "surrogatepass"))
        return protocol.check_request(verb, args)
    read(decode_and_check, text, protocol.ProtocolError)


STATE_WORDS = ["0badcafe", "yari", "casual", "12", "-"] + YARI.start_sfen.split()


@EXAMPLES
@given(spliced([" ".join(STATE_WORDS), "1 0.1.0 yari Yari-Board-9x7 41"]))
def test_board_replies(text):
    read(lambda t: (replies.state(t.split()), replies.version(t.split())), text,
         replies.BadReply)


# -- records -------------------------------------------------------------------------------

def sample_files(fmt):
    """Two short games written in `fmt`, in the first variant it can hold."""
    for variant in ("yari", "shogi", "wa"):
        try:
            return [formats.export_games([random_record(seed, variant, max_plies=12)], fmt)
                    for seed in (1, 2)]
        except RecordError:      # the format has no words for this variant
            continue
    raise AssertionError("%s writes none of the variants" % fmt)


GAMES = {fmt: sample_files(fmt) for fmt in formats.FORMATS}


@EXAMPLES
@given(st.data(), st.sampled_from(formats.FORMATS))
def test_game_files(data, fmt):
    text = data.draw(spliced(GAMES[fmt]))
    read(lambda t: formats.import_games(t, fmt), text, RecordError)


# -- clock specifications ------------------------------------------------------------------

@EXAMPLES
@given(spliced(["10", "0.5", "30"]), spliced(["0", "10"]), spliced(["0", "5"]))
def test_clock_specification(minutes, byoyomi, increment):
    """`play --time M --byoyomi S --increment S`: argparse's float, then the clock's reader."""
    def parse(texts):
        return parse_time_control(*[float(t) for t in texts])
    read(parse, (minutes, byoyomi, increment), ValueError)


# -- board files ---------------------------------------------------------------------------

with open(board_file("yari-9x7")) as _f:
    BOARD_TEXT = _f.read()


@EXAMPLES
@given(spliced([BOARD_TEXT, json.dumps(json.loads(BOARD_TEXT), separators=(",", ":"))]))
def test_board_file(tmp_path_factory, text):
    path = str(tmp_path_factory.mktemp("board") / "board.json")
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
        f.write(text)
    read(board_config.load, path, ValueError)


def test_the_cases_these_tests_found(tmp_path):
    """Each ended in a traceback: a lone comma in CSA (IndexError), a CSA move of 10^13
    seconds (OverflowError), a JSON number of 4301 digits (ValueError), a board file nested
    2000 deep (RecursionError)."""
    huge_time = "V2.2\nPI\n+\n+7776FU\nT10000000003600\n"
    for text, fmt in ((",", "csa"), (huge_time, "csa"), ("9" * 4301, "json")):
        with pytest.raises(RecordError):
            formats.import_games(text, fmt)
    path = tmp_path / "deep.json"
    path.write_text("[" * 2000 + "]" * 2000)
    with pytest.raises(ValueError, match="not valid JSON"):
        board_config.load(str(path))
