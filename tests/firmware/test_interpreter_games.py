"""Whole random games played with hands: lifts, places, slides, nudges, choices, take-backs.

A seeded player picks legal moves (rules core) and turns each into what a person does with
the pieces: captures in both orders, slides over empty squares, re-seats, knocked pieces,
drops, promotion and drop-kind choices made with B or by re-seating and confirmed with A, by
waiting, or by the next action; in casual games it sometimes takes the move back again.
The result is a script of sensor/button/tick steps plus the exact events a correct
interpreter emits. The same scripts are replayed on CPython and on the MicroPython unix port.
"""
import json
import random

import pytest

from shogicore.game import CASUAL, TOURNAMENT, Game
from shogicore.move import drop_kind, is_drop, is_promotion, make_drop, move_from, move_to, to_usi
from shogicore.variants import SHOGI, YARI

from boardfw.interpreter import CHOICE_MS, SETTLE_MS
from tests.mpy import run_micropython

pytestmark = [pytest.mark.micropython]

# Drop choices are offered cheapest first (docs/firmware-interpreter.md), written out here
# independently of the interpreter's own table.
DROP_ORDER = {"yari": ("P", "N", "B", "R"), "shogi": ("P", "L", "N", "S", "G", "B", "R"),
              "wa": tuple("PLUDMGCVWOHRXSEF")}

# The replay loop, run verbatim by both interpreters.
REPLAY = '''
def replay(script):
    from shogicore.game import Game
    from shogicore.move import to_usi
    from boardfw.interpreter import Interpreter
    game = Game(script["variant"], script["sfen"], script["mode"])
    v = game.variant
    it = Interpreter(game, 0)
    log = []
    for step in script["steps"]:
        op = step[0]
        if op == "s":
            events = it.on_sensor(v.parse_square(step[1]), step[2], step[3])
        elif op == "b":
            events = it.on_button(step[1], step[2], step[3])
        else:
            events = it.tick(step[1])
        for e in events:
            if e[0] in ("move", "undo", "choice"):
                log.append([e[0], to_usi(v, e[1])])
            else:
                log.append([str(x) for x in e])
    return {"log": log, "moves": [to_usi(v, m) for m in game.position.moves()],
            "result": None if game.result is None else [str(x) for x in game.result]}
'''


class Player:
    """Plays one random game with hands and writes down what the board must report."""

    def __init__(self, seed, variant=YARI, mode=CASUAL, handicap=None, plies=60):
        self.rng = random.Random(seed)
        self.game = Game(variant, mode=mode, handicap=handicap)
        self.pos = self.game.position
        self.v = self.game.variant
        self.script = {"variant": self.v.name, "sfen": self.pos.sfen(), "mode": mode,
                       "steps": []}
        self.expected = []
        self.board = set(sq for sq in self.v.squares if self.pos.piece_at(sq))
        self.t = 0
        self.plies = plies
        self.confirm_pending = False  # a choice the next action will confirm
        self.seen = {}                # what this game exercised, for coverage checks

    # -- hands -----------------------------------------------------------------------------
    def sense(self, sq, occupied, dt):
        assert (sq in self.board) != occupied, "the script must change the board"
        self.t += dt
        (self.board.add if occupied else self.board.discard)(sq)
        self.script["steps"].append(["s", self.v.square_name(sq), occupied, self.t])

    def lift(self, sq, dt=None):
        self.sense(sq, False, self.rng.randint(80, 900) if dt is None else dt)

    def place(self, sq, dt=None):
        self.sense(sq, True, self.rng.randint(80, 900) if dt is None else dt)

    def press(self, name, dt=150, long_press=False):
        self.t += dt
        self.script["steps"].append(["b", name, long_press, self.t])

    def tick(self, dt):
        self.t += dt
        self.script["steps"].append(["t", self.t])

    def note(self, what):
        self.seen[what] = self.seen.get(what, 0) + 1

    def usi(self, m):
        return to_usi(self.v, m)

    # -- noise -----------------------------------------------------------------------------
    def nudge(self, avoid):
        """A knocked piece rocks off its switch and settles again (shorter than settle)."""
        choices = sorted(self.board - set(avoid))
        if choices:
            sq = self.rng.choice(choices)
            self.lift(sq, self.rng.randint(30, 400))
            self.place(sq, self.rng.randint(40, SETTLE_MS - 60))
            self.note("nudge")

    def pass_over(self, squares):
        """The moving piece touches down on empty squares on its way (briefly)."""
        for sq in squares:
            if sq not in self.board:
                self.place(sq, self.rng.randint(30, 150))
                self.lift(sq, self.rng.randint(30, SETTLE_MS - 80))
                self.note("slide")

    def path(self, frm, to):
        """Empty squares a sliding hand passes over between `frm` and `to` (or beside `to`)."""
        v = self.v
        df = v.file_of(to) - v.file_of(frm)
        dr = v.rank_of(to) - v.rank_of(frm)
        steps = max(abs(df), abs(dr))
        if frm and (df == 0 or dr == 0 or abs(df) == abs(dr)):
            sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
            line = [v.square(v.file_of(frm) + i * sf, v.rank_of(frm) + i * sr)
                    for i in range(1, steps)]
        else:
            line = [v.square(v.file_of(to) + f, v.rank_of(to) + r)
                    for f, r in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    if 1 <= v.file_of(to) + f <= v.files and 1 <= v.rank_of(to) + r <= v.ranks]
            line = line[:self.rng.randint(1, 2)]
        return [sq for sq in line if sq not in self.board and sq != to]

    # -- one move --------------------------------------------------------------------------
    def options(self, m):
        """The choices the board must offer for `m`, in the documented order."""
        pos = self.pos
        to = move_to(m)
        if is_drop(m):
            kinds = [self.v.kind_of(s) for s in DROP_ORDER[self.v.name]]
            return [make_drop(k, to) for k in kinds if pos.is_legal(make_drop(k, to))]
        same = [x for x in pos.destinations(move_from(m)) if move_to(x) == to]
        return sorted(same, key=lambda x: not is_promotion(x))

    def first_action(self, sq):
        """Before the next action: a choice left pending is confirmed by it, unless the
        action lifts the offered piece itself (that is a re-seat), so press A first."""
        if self.confirm_pending and sq == self.pending_square:
            self.press("A")
            self.note("confirm-A-before-touching")
        self.confirm_pending = False

    def play(self, m):
        rng = self.rng
        frm, to = move_from(m), move_to(m)
        capture = not is_drop(m) and self.pos.piece_at(to)
        last = self.pos.last_move()
        keep_still = set([move_to(last)]) if last is not None else set()
        if rng.random() < 0.2:
            self.first_action(-1)
            self.nudge(keep_still)
        if is_drop(m):
            self.first_action(to)
            self.pass_over(self.path(0, to)[:1] if rng.random() < 0.3 else [])
            self.place(to)
            self.note("drop-" + self.v.symbol(drop_kind(m)))
        elif capture and rng.random() < 0.5:
            self.first_action(to)
            self.lift(to)
            self.lift(frm)
            self.pass_over(self.path(frm, to) if rng.random() < 0.4 else [])
            self.place(to)
            self.note("capture-victim-first")
        else:
            self.first_action(frm)
            self.lift(frm)
            if rng.random() < 0.2:
                # Knock a piece the held one could not capture: an own piece, or one out of reach.
                reach = set(move_to(x) for x in self.pos.destinations(frm))
                self.nudge(keep_still | reach | set([to]))
            if capture:
                self.lift(to)
            self.pass_over(self.path(frm, to) if rng.random() < 0.4 else [])
            self.place(to)
            self.note("capture-own-first" if capture else "move")
        if rng.random() < 0.15:
            self.lift(to, rng.randint(60, 200))
            self.place(to, rng.randint(60, SETTLE_MS - 60))
            self.note("reseat-before-settle")
        options = self.options(m)
        if len(options) > 1:
            self.choose(m, options)
        else:
            if rng.random() < 0.5:
                self.tick(SETTLE_MS + rng.randint(1, 300))
            else:
                self.t += SETTLE_MS + rng.randint(1, 300)  # the next event settles it
            self.expected.append(["move", self.usi(m)])
        if is_promotion(m):
            self.note("promotion-chosen" if len(options) > 1 else "promotion-forced")
        elif len(options) > 1:
            self.note("promotion-declined" if not is_drop(m) else "drop-choice")
        self.game.play(m)

    def choose(self, m, options):
        rng = self.rng
        to = move_to(m)
        self.tick(SETTLE_MS + rng.randint(1, 200))
        self.expected.append(["choice", self.usi(options[0])])
        turns = options.index(m) + (len(options) if rng.random() < 0.1 else 0)
        for i in range(turns):
            if rng.random() < 0.5:
                self.press("B", rng.randint(100, 600))
                self.note("cycle-B")
            else:
                self.lift(to, rng.randint(100, 600))
                self.place(to, rng.randint(100, 900))
                self.note("cycle-reseat")
            self.expected.append(["choice", self.usi(options[(i + 1) % len(options)])])
        how = rng.choice(("A", "wait", "next"))
        if how == "A":
            self.press("A", rng.randint(100, 900))
        elif how == "wait":
            self.tick(CHOICE_MS + rng.randint(0, 300))
        else:
            self.confirm_pending = True
            self.pending_square = to
        self.note("confirm-" + how)
        self.expected.append(["move", self.usi(m)])

    def take_back(self):
        """Reverse the last move with the pieces (casual mode)."""
        m = self.pos.last_move()
        frm, to = move_from(m), move_to(m)
        if self.confirm_pending:
            self.press("A")
            self.confirm_pending = False
        self.pos.pop()
        captured = not is_drop(m) and self.pos.piece_at(to)
        self.pos.push(m)
        self.lift(to)
        if is_drop(m):
            self.press("A", self.rng.randint(100, 900))
            self.note("takeback-drop")
        elif captured and self.rng.random() < 0.5:
            self.place(to)   # the captured piece first, then the capturer home
            self.place(frm)
            self.note("takeback-capture")
        else:
            self.place(frm)
            if captured:
                self.place(to)
                self.note("takeback-capture")
            else:
                self.note("takeback-move")
        if not is_drop(m):
            self.tick(SETTLE_MS + self.rng.randint(1, 300))
        self.expected.append(["undo", self.usi(m)])
        self.game.undo()

    def pick(self, moves):
        rng = self.rng
        roll = rng.random()
        drops = [m for m in moves if is_drop(m)]
        captures = [m for m in moves if not is_drop(m) and self.pos.piece_at(move_to(m))]
        if drops and roll < 0.35:
            return rng.choice(drops)
        if captures and roll < 0.7:
            return rng.choice(captures)
        return rng.choice(moves)

    def run(self):
        for _ in range(self.plies):
            if self.game.result is not None:
                break
            self.play(self.pick(self.pos.legal_moves()))
            if self.game.result is not None:
                self.expected.append(["game-over"] + [str(x) for x in self.game.result])
            elif (self.game.mode == CASUAL and self.rng.random() < 0.08):
                self.take_back()
        if self.confirm_pending:
            self.press("A")
        self.tick(CHOICE_MS + SETTLE_MS)
        self.script["expected_log"] = self.expected
        self.script["expected_moves"] = [self.usi(m) for m in self.pos.moves()]
        return self.script


def make_scripts(count, first_seed=0):
    """A mix of even Yari games, handicap games, tournament games and standard shogi."""
    handicaps = sorted(YARI.handicaps)
    scripts = []
    for i in range(count):
        seed = first_seed + i
        if i % 5 == 4:
            player = Player(seed, SHOGI, plies=70)
        elif i % 5 == 3:
            player = Player(seed, handicap=handicaps[i % len(handicaps)])
        elif i % 4 == 2:
            player = Player(seed, mode=TOURNAMENT)
        else:
            player = Player(seed)
        script = player.run()
        script["seen"] = player.seen
        scripts.append(script)
    return scripts


def replay_here(script):
    namespace = {}
    exec(REPLAY, namespace)
    return namespace["replay"](script)


def replay_on_micropython(scripts, tmp_path):
    """What `replay` gives for each script on the MicroPython unix port, in one run."""
    path = tmp_path / "scripts.jsonl"
    path.write_text("".join(json.dumps(s) + "\n" for s in scripts))
    code = REPLAY + (
        "\nimport json\n"
        "with open(%r) as f:\n"
        "    for line in f:\n"
        "        print(json.dumps(replay(json.loads(line))))\n" % str(path))
    _, out, _ = run_micropython(code)
    return [json.loads(line) for line in out.strip().splitlines()]


@pytest.fixture(scope="module")
def scripts():
    return make_scripts(100)


def test_every_random_game_records_exactly_the_moves_played(scripts):
    for script in scripts:
        got = replay_here(script)
        assert got["log"] == script["expected_log"], script["sfen"]
        assert got["moves"] == script["expected_moves"]


def test_the_random_games_exercise_every_gesture(scripts):
    seen = {}
    for script in scripts:
        for what, n in script["seen"].items():
            seen[what] = seen.get(what, 0) + n
    wanted = ["move", "capture-own-first", "capture-victim-first", "slide", "nudge",
              "reseat-before-settle", "promotion-chosen", "promotion-declined",
              "promotion-forced", "drop-choice", "cycle-B", "cycle-reseat", "confirm-A",
              "confirm-wait", "confirm-next", "takeback-move", "takeback-capture",
              "takeback-drop"]
    wanted += ["drop-" + s for s in DROP_ORDER["yari"] + DROP_ORDER["shogi"]]
    missing = [w for w in wanted if not seen.get(w)]
    assert not missing, seen
    variants_modes = set((s["variant"], s["mode"], s["sfen"].split()[1]) for s in scripts)
    assert ("yari", TOURNAMENT, "b") in variants_modes
    assert ("yari", CASUAL, "w") in variants_modes   # handicap: White starts
    assert ("shogi", CASUAL, "b") in variants_modes


def test_the_same_games_replay_identically_on_micropython(scripts, tmp_path):
    sample = [s for i, s in enumerate(scripts) if i % 10 in (0, 2, 3, 4)][:10]
    results = replay_on_micropython(sample, tmp_path)
    assert len(results) == len(sample)
    for script, got in zip(sample, results):
        assert got["log"] == script["expected_log"], script["sfen"]
        assert got["moves"] == script["expected_moves"]
