"""Moves in quick succession: the opponent starts a move before the mover's move has settled.

A hypothesis-driven player plays noisy random games (tests/firmware/test_interpreter_games.Player)
in which, now and then, the reply begins 0..1000 ms after the mover put the piece down:
a drop on the square just vacated (the pattern that once made the board record a drop
nobody made), a capture of the piece just moved, or any other legal reply. What the board
must report is written down from the moves played, independently of the interpreter: both
moves, in order, whatever the tempo. The same scripts run on CPython and on the MicroPython
unix port. Boards showing two moves that cannot both be read are refused, never read as one.
"""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shogicore.game import CASUAL, TOURNAMENT, Game
from shogicore.move import is_drop, move_from, move_to
from shogicore.variants import SHOGI, YARI

from boardfw.interpreter import SETTLE_MS, Interpreter
from tests.mpy import run_micropython
from tests.firmware.test_interpreter_games import REPLAY, Player, replay_here

pytestmark = [pytest.mark.micropython]

TEMPO_MS = 1000   # replies start anywhere from 0 to this long after the mover's last change


class OverlapPlayer(Player):
    """Player whose opponent sometimes replies before the board has settled."""

    def __init__(self, seed, tempos, overlap_share=0.5, **kwargs):
        super().__init__(seed, **kwargs)
        self.tempos = list(tempos) or [0]
        self.overlap_share = overlap_share

    def gesture(self, m, first_dt):
        """What a quick hand does for `m`; the first change comes `first_dt` ms in."""
        rng = self.rng
        frm, to = move_from(m), move_to(m)
        dts = [first_dt] + [rng.randint(30, 600) for _ in range(3)]
        if is_drop(m):
            self.place(to, dts[0])
        elif self.pos.piece_at(to):
            if rng.random() < 0.5:
                self.lift(frm, dts[0])
                self.lift(to, dts[1])
            else:
                self.lift(to, dts[0])
                self.lift(frm, dts[1])
            self.place(to, dts[2])
            self.note("overlap-capture")
        else:
            self.lift(frm, dts[0])
            self.place(to, dts[1])

    def pick_reply(self, first):
        """The opponent's reply: often onto the square just vacated, or the piece just moved."""
        self.pos.push(first)
        replies = self.pos.legal_moves()
        self.pos.pop()
        if not replies:
            return None
        onto_vacated = [m for m in replies
                        if not is_drop(first) and move_to(m) == move_from(first)]
        on_moved = [m for m in replies if move_to(m) == move_to(first) and not is_drop(m)]
        roll = self.rng.random()
        if onto_vacated and roll < 0.35:
            self.note("reply-onto-vacated")
            return self.rng.choice(onto_vacated)
        if on_moved and roll < 0.55:
            self.note("reply-captures-mover")
            return self.rng.choice(on_moved)
        return self.rng.choice(replies)

    def overlapped_pair(self, first):
        """`first`, then a reply starting after a tempo from the list; both must be recorded."""
        if self.confirm_pending:
            self.press("A")
            self.confirm_pending = False
        self.pos.push(first)
        over = self.pos.status() is not None
        self.pos.pop()
        reply = None if over else self.pick_reply(first)
        if reply is None or len(self.options(first)) != 1:
            self.play(first)
            return
        tempo = self.tempos[len(self.seen.get("tempo", ())) % len(self.tempos)]
        self.seen.setdefault("tempo", []).append(tempo)
        self.note("overlap" if tempo < SETTLE_MS else "tempo-after-settle")
        self.gesture(first, self.rng.randint(80, 900))
        self.expected.append(["move", self.usi(first)])
        self.game.play(first)
        self.gesture(reply, tempo)
        options = self.options(reply)
        if len(options) > 1:
            self.choose(reply, options)
        else:
            self.tick(SETTLE_MS + self.rng.randint(1, 300))
            self.expected.append(["move", self.usi(reply)])
        self.game.play(reply)

    def run(self):
        for _ in range(self.plies):
            if self.game.result is not None:
                break
            first = self.pick(self.pos.legal_moves())
            if self.rng.random() < self.overlap_share:
                self.overlapped_pair(first)
            else:
                self.play(first)
            if self.game.result is not None:
                self.expected.append(["game-over"] + [str(x) for x in self.game.result])
        if self.confirm_pending:
            self.press("A")
        self.tick(4000 + SETTLE_MS)
        self.script["expected_log"] = self.expected
        self.script["expected_moves"] = [self.usi(m) for m in self.pos.moves()]
        return self.script


def overlap_script(seed, tempos, variant=YARI, mode=CASUAL, plies=40):
    player = OverlapPlayer(seed, tempos, variant=variant, mode=mode, plies=plies)
    script = player.run()
    script["seen"] = {k: v for k, v in player.seen.items() if k != "tempo"}
    return script


def moves_only(log):
    return [e for e in log if e[0] in ("move", "choice", "undo", "game-over", "illegal")]


def check(script, got):
    assert not [e for e in got["log"] if e[0] == "illegal"], got["log"]
    assert moves_only(got["log"]) == moves_only(script["expected_log"]), script["sfen"]
    assert got["moves"] == script["expected_moves"]


games = st.tuples(st.integers(0, 2 ** 32 - 1),
                  st.lists(st.integers(0, TEMPO_MS), min_size=1, max_size=8),
                  st.sampled_from([(YARI, CASUAL), (YARI, TOURNAMENT), (SHOGI, CASUAL)]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_overlapping_moves_are_both_recorded_at_any_tempo(game):
    seed, tempos, (variant, mode) = game
    script = overlap_script(seed, tempos, variant, mode)
    check(script, replay_here(script))


def test_every_tempo_from_0_to_1000_ms_records_both_moves():
    """A sweep, not a sample: each tempo in 25 ms steps, in seeded games."""
    for tempo in range(0, TEMPO_MS + 1, 25):
        script = overlap_script(tempo, [tempo], plies=16)
        check(script, replay_here(script))


def test_the_overlap_games_exercise_the_dangerous_replies():
    seen = {}
    for seed in range(12):
        for what, n in overlap_script(seed, [0, 150, 299, 300, 700])["seen"].items():
            seen[what] = seen.get(what, 0) + n
    for what in ("overlap", "tempo-after-settle", "reply-onto-vacated", "reply-captures-mover",
                 "overlap-capture", "nudge"):
        assert seen.get(what), (what, seen)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_overlapping_moves_replay_identically_on_micropython(tmp_path_factory, game):
    seed, tempos, (variant, mode) = game
    script = overlap_script(seed, tempos, variant, mode, plies=24)
    path = tmp_path_factory.mktemp("overlap") / "script.json"
    path.write_text(json.dumps(script))
    code = REPLAY + ("\nimport json\nwith open(%r) as f:\n"
                     "    print(json.dumps(replay(json.loads(f.read()))))\n" % str(path))
    _, out, _ = run_micropython(code)
    check(script, json.loads(out))


# -- the example, and two moves that cannot both be read ---------------------------

def _board(sfen, mode=CASUAL, variant="yari"):
    game = Game(variant, sfen, mode)
    it = Interpreter(game, 0)
    it.sync([sq for sq in game.variant.squares if game.position.piece_at(sq)], 0)
    return game, it, game.variant.parse_square


@pytest.mark.parametrize("mode", [CASUAL, TOURNAMENT])
def test_a_drop_on_the_vacated_square_within_300_ms_is_the_opponents_move(mode):
    # Black General 4i-4h; White drops a Rook on 4i 200 ms later. Black holds a Knight,
    # which could go to 4h: read as one move, that would be a Black drop nobody made.
    game, it, sq = _board("1nnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBK1NR b Nr 1", mode)
    events = []
    events += it.on_sensor(sq("4i"), False, 1000)
    events += it.on_sensor(sq("4h"), True, 1100)
    events += it.on_sensor(sq("4i"), True, 1300)
    events += it.tick(1700)
    usi = [str(e[1]) for e in events]
    assert [e[0] for e in events] == ["move", "move"], events
    from shogicore.move import to_usi
    assert [to_usi(game.variant, m) for m in game.position.moves()] == ["4i4h", "R*4i"]
    assert game.result is None and len(usi) == 2


def test_two_moves_that_cannot_both_be_read_are_refused_and_nothing_is_recorded():
    # Black's Pawn reaches the promotion zone (promote or not: the board cannot see it),
    # and White drops on the square it left before that settled: refused, then the board
    # waits; once the drop is taken off again, Black's choice is offered as usual.
    game, it, sq = _board("3k3/7/7/P6/7/7/7/7/3K3 b r 1")
    events = []
    events += it.on_sensor(sq("7d"), False, 1000)
    events += it.on_sensor(sq("7c"), True, 1100)
    events += it.on_sensor(sq("7d"), True, 1200)
    events += it.tick(1600)
    assert [e[0] for e in events] == ["refused"] and game.position.plies == 0
    events = list(it.on_sensor(sq("7d"), False, 2000)) + list(it.tick(2400))
    assert [e[0] for e in events] == ["choice"] and game.position.plies == 0


def test_a_reply_that_looks_like_taking_back_the_move_before_is_read_as_a_reply():
    # Standard shogi. White's Rook goes 6b-6c; Black drops a Pawn on 6b (the square it
    # left) and White at once takes it with the Rook. The board ends as if 6b-6c were taken
    # back, but the switches saw a piece put on 6b before the Rook was lifted: two moves.
    from shogicore.move import to_usi
    game, it, sq = _board("4k4/3r5/9/9/9/9/9/9/4K4 w P 1", variant="shogi")
    events = list(it.on_sensor(sq("6b"), False, 100)) + list(it.on_sensor(sq("6c"), True, 200))
    events += it.tick(600)
    assert [e[0] for e in events] == ["move"]
    events = list(it.on_sensor(sq("6b"), True, 2000))     # Black: P*6b
    events += it.on_sensor(sq("6c"), False, 2130)         # White lifts the Rook
    events += it.on_sensor(sq("6b"), False, 2200)         # takes the Pawn off
    events += it.on_sensor(sq("6b"), True, 2260)          # and puts the Rook there
    events += it.tick(2700)
    assert [to_usi(game.variant, m) for m in game.position.moves()] == ["6b6c", "P*6b", "6c6b"]
    assert [e[0] for e in events] == ["move", "move"], events


def test_the_board_announces_both_moves_each_with_its_own_ply_and_position(tmp_path):
    """The real firmware on the simulated board: the issue's example, end to end."""
    from shogicore.move import parse_usi
    from yariboard.sim.board import SerialClient, SimBoard, occupied_squares
    sfen = "1nnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBK1NR b Nr 1"
    with SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)) as sim:
        client = SerialClient(sim.port)
        assert client.request("setpos", "yari", "casual", *sfen.split())[0] == "ok"
        sim.send_commands(["set " + " ".join(occupied_squares("yari", sfen)), "advance 100"])
        sim.sync()
        mark = len(client.frames)
        sim.send_commands(["lift 4i", "advance 100", "place 4h", "advance 200", "place 4i",
                           "advance 700"])
        sim.sync()
        client.request("version")
        moves = [f[2] for f in client.frames[mark:] if f[1] in ("move", "refused", "illegal")]
        expected = Game("yari", sfen)
        wanted = []
        for n, usi in enumerate(["4i4h", "R*4i"], 1):
            expected.play(parse_usi(expected.variant, usi))
            wanted.append([str(n), usi] + expected.position.sfen().split())
        assert moves == wanted
        client.close()
    assert "Traceback" not in sim.stderr_text()


def test_the_overlap_reader_numbers_the_shapes_as_the_interpreter_does():
    from boardfw import interpreter, overlap
    for name in ("_LIFT", "_VICTIM", "_MOVE", "_DROP"):
        assert getattr(overlap, name) == getattr(interpreter, name), name
