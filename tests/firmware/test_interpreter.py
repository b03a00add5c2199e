"""The interpreter, scenario by scenario: casual refusals, take-backs, tournament losses,
host orders, choices, noise, buttons and what the LEDs show.

Plain asserts and no pytest imports: tests/firmware/test_interpreter_micropython.py runs these very
functions on the MicroPython unix port too. Expected squares come from the rule book
(docs/rules.md), worked out by hand, not from the interpreter.
"""
from shogicore.game import Game
from shogicore.move import parse_usi, to_usi

from boardfw import ledlang
from boardfw.interpreter import CHOICE_MS, IMPASSE_ARM_MS, SETTLE_MS, Interpreter

CAPTURE_SFEN = "3k3/7/7/7/3p3/3P3/7/7/3K3 b - 1"     # Black pawn 4f faces White pawn 4e
PROMOTE_SFEN = "3k3/7/7/P6/7/7/7/7/3K3 b - 1"        # Black pawn 7d, next step enters the zone
FORCED_SFEN = "3k3/P6/7/7/7/7/7/7/3K3 b - 1"         # Black pawn 7b must promote on 7a
HAND_SFEN = "3k3/7/7/7/7/7/7/7/3K3 b RBNP 1"          # Black holds one of each hand kind
MATE_SFEN = "k6/7/1P5/7/7/7/7/7/3K3 b R 1"            # R*6b mates (pawn 6c guards 6b)
CHECK_SFEN = "3k3/7/7/7/3R3/7/7/7/3K3 w - 1"          # the Yari Rook on 4e checks 4a
IMPASSE_SFEN = "3K3/7/7/7/7/7/7/7/3k3 b - 1"          # both Generals in their zones
SLIDE_SFEN = "3k3/7/7/7/7/7/7/5R1/2K4 b - 1"          # Black Yari Rook 2h, open file
BLIND_SFEN = "3k3/7/1p5/7/5p1/7/7/5R1/2K4 b - 1"      # Yari Rook 2h reaches pawn 2e, not 6c


class Board:
    """A person's hands on a board wired to one interpreter, with a clock."""

    def __init__(self, sfen=None, mode="casual", variant="yari", handicap=None):
        self.game = Game(variant, sfen, mode, handicap)
        self.v = self.game.variant
        self.t = 1000
        self.it = Interpreter(self.game, self.t)
        self.events = []

    def sq(self, name):
        return self.v.parse_square(name)

    def _log(self, events):
        events = list(events)
        self.events.extend(events)
        return events

    def lift(self, name, dt=120):
        self.t += dt
        return self._log(self.it.on_sensor(self.sq(name), False, self.t))

    def place(self, name, dt=120):
        self.t += dt
        return self._log(self.it.on_sensor(self.sq(name), True, self.t))

    def move(self, frm, to):
        self.lift(frm)
        self.place(to)
        return self.wait()

    def capture(self, frm, to):
        self.lift(frm)
        self.lift(to)
        self.place(to)
        return self.wait()

    def wait(self, ms=SETTLE_MS + 50):
        self.t += ms
        return self._log(self.it.tick(self.t))

    def press(self, name, long_press=False, dt=150):
        self.t += dt
        return self._log(self.it.on_button(name, long_press, self.t))

    def moves(self):
        return [to_usi(self.v, m) for m in self.game.position.moves()]

    def styles(self):
        lit = self.it.lit
        return dict((self.v.square_name(lit[i]), lit[i + 1])
                    for i in range(0, 2 * self.it.frame(self.t), 2))

    def usi(self, text):
        return parse_usi(self.v, text)

    def kinds(self, events):
        return [e[0] for e in events]

    def names(self, squares):
        return sorted(self.v.square_name(sq) for sq in squares)


def raises(exception, fn, *args):
    try:
        fn(*args)
    except exception:
        return True
    return False


# -- moves the board reads -------------------------------------------------------------------
def test_a_plain_move_is_recorded_after_the_board_settles():
    b = Board()
    b.lift("7g")
    assert b.place("7f") == []            # not yet: the hand may still be moving
    assert b.it.phase() == "moving"
    assert b.wait() == [("move", b.usi("7g7f"))]
    assert b.moves() == ["7g7f"]
    assert b.styles() == {"7g": ledlang.LAST_MOVE, "7f": ledlang.LAST_MOVE}
    assert b.it.phase() == "idle"


def test_a_move_is_read_across_the_millisecond_clock_wrapping():
    # The Pico's ticks_ms wraps at 2**30 ms (about 12.4 days of play).
    wrap = 1 << 30
    game = Game()
    v = game.variant
    start = wrap - 200
    it = Interpreter(game, start)
    it.on_sensor(v.parse_square("7g"), False, start + 50)
    it.on_sensor(v.parse_square("7f"), True, (start + 150) % wrap)
    assert list(it.tick((start + 200) % wrap)) == []           # not settled yet: 50 ms
    assert list(it.tick((start + 150 + SETTLE_MS + 10) % wrap)) == [("move", parse_usi(v, "7g7f"))]


def test_a_settled_move_is_committed_by_the_next_change_even_without_ticks():
    b = Board()
    b.lift("7g")
    b.place("7f")
    events = b.lift("7c", dt=SETTLE_MS + 10)    # White starts its move, no tick in between
    assert events == [("move", b.usi("7g7f"))]


def test_capture_lifting_own_piece_first():
    b = Board(CAPTURE_SFEN)
    b.lift("4f")
    b.lift("4e")
    b.place("4e")
    assert b.wait() == [("move", b.usi("4f4e"))]
    assert b.game.position.hand_count(0, b.v.kind_of("P")) == 1


def test_capture_lifting_the_captured_piece_first():
    b = Board(CAPTURE_SFEN)
    b.lift("4e")
    b.wait(1000)                          # thinking with the captured piece in hand
    b.lift("4f")
    b.place("4e")
    assert b.wait() == [("move", b.usi("4f4e"))]
    assert [e for e in b.events if e[0] == "refused"] == []


def test_lifting_and_putting_back_is_no_move():
    b = Board()
    b.lift("5i")
    b.wait(2000)
    b.place("5i")
    b.wait(2000)
    assert b.events == [] and b.moves() == []


def test_a_capture_is_read_after_more_sensor_changes_than_16_bits_count():
    # Sensor changes are numbered, and times kept, in 16 bits: 66000 changes over two hours
    # run both past their range; the order of the last changes still tells the capture.
    b = Board(CAPTURE_SFEN)
    for _ in range(33000):
        b.lift("4i", dt=100)
        b.place("4i", dt=100)
    b.wait(2000)
    assert b.events == [] and b.moves() == []
    b.lift("4e")
    b.wait(1000)
    b.lift("4f")
    b.place("4e")
    assert b.wait() == [("move", b.usi("4f4e"))]
    b.lift("4a")
    b.place("4b")
    assert b.wait() == [("move", b.usi("4a4b"))]
    b.lift("4e")
    b.lift("4b", dt=300)                  # the General rocks and settles: no capture
    b.place("4b", dt=90)
    b.place("4d")
    assert b.wait() == [("move", b.usi("4e4d"))]


def test_a_slide_over_squares_is_one_move_to_where_it_stops():
    b = Board(SLIDE_SFEN)
    b.lift("2h")
    for name in ("2g", "2f"):             # touches down briefly on the way
        b.place(name, dt=60)
        b.lift(name, dt=SETTLE_MS - 100)
    b.place("2e", dt=80)
    assert b.wait() == [("move", b.usi("2h2e"))]


def test_a_drop_is_a_piece_appearing_with_nothing_lifted():
    b = Board("3k3/7/7/7/7/7/7/7/3K3 b P 1")
    b.place("5e")
    assert b.wait() == [("move", b.usi("P*5e"))]


def test_a_forced_promotion_asks_nothing():
    b = Board(FORCED_SFEN)
    assert b.move("7b", "7a") == [("move", b.usi("7b7a+"))]


# -- noise -----------------------------------------------------------------------------------
def test_nudged_pieces_never_make_a_move():
    b = Board()
    for name in ("5i", "7c", "3g", "4a"):   # own and opposing pieces rock and settle
        b.lift(name, dt=200)
        b.place(name, dt=80)
    b.wait(2000)
    assert b.events == [] and b.moves() == []


def test_a_knock_while_holding_a_piece_is_not_a_capture():
    b = Board()
    b.lift("7g")
    b.lift("1c", dt=300)                  # an opposing piece out of reach rocks and settles
    b.place("1c", dt=90)
    b.wait(1000)
    b.place("7f")
    assert b.wait() == [("move", b.usi("7g7f"))]
    assert [e for e in b.events if e[0] != "move"] == []


def test_a_reseat_before_the_board_settles_keeps_the_move():
    b = Board()
    b.lift("7g")
    b.place("7f")
    b.lift("7f", dt=80)
    b.place("7f", dt=80)
    assert b.wait() == [("move", b.usi("7g7f"))]


def test_a_repeated_reading_changes_nothing():
    b = Board()
    assert b.place("7g") == []            # 7g is already occupied: not a change
    assert b.it.mismatch() == []


# -- LEDs while a piece is held --------------------------------------------------------------
def test_the_lifted_piece_shows_its_legal_destinations():
    # Start position, rule book moves: the pawn steps to 7f; the Yari Bishop 6i slides
    # forward to 6h or steps diagonally forward to 7h and 5h; the Yari Knight 3i cannot
    # jump onto its own pawns and slides forward to 3h only.
    for frm, dests in (("7g", ["7f"]), ("6i", ["5h", "6h", "7h"]), ("3i", ["3h"])):
        b = Board()
        b.lift(frm)
        styles = b.styles()
        assert sorted(n for n, s in styles.items() if s == ledlang.DESTINATION) == dests
        assert styles[frm] == ledlang.LIFTED


def test_a_general_in_check_is_shown():
    b = Board(CHECK_SFEN)
    assert b.styles().get("4a") == ledlang.CHECK


# -- casual mode: refusals and take-backs ----------------------------------------------------
def test_casual_illegal_move_is_refused_and_the_fix_is_shown():
    b = Board()
    b.lift("7g")
    b.place("7e")                         # a pawn cannot step two squares
    assert b.wait() == [("refused", "illegal-move")]
    assert b.moves() == []
    assert b.names(b.it.mismatch()) == ["7e", "7g"]
    styles = b.styles()
    assert styles["7g"] == ledlang.FIX_PLACE and styles["7e"] == ledlang.FIX_LIFT
    assert b.it.phase() == "refused"
    b.lift("7e")
    b.place("7g")                         # put back: play resumes
    b.wait()
    assert b.it.phase() == "idle" and b.it.mismatch() == [] and b.moves() == []
    assert b.move("7g", "7f") == [("move", b.usi("7g7f"))]


def test_casual_illegal_move_corrected_by_moving_on_to_a_legal_square():
    b = Board()
    b.move("7g", "7e")
    b.lift("7e")
    b.place("7f")
    assert b.wait() == [("move", b.usi("7g7f"))]


def test_a_knocked_opposing_piece_is_refused_not_recorded():
    b = Board()
    b.lift("7c")                          # Black to move: White's pawn slid to 7d
    b.place("7d", dt=40)
    assert b.wait() == [("refused", "board-mismatch")]
    assert b.names(b.it.mismatch()) == ["7c", "7d"]


def test_take_back_an_ordinary_move_by_reversing_it():
    b = Board()
    b.move("7g", "7f")
    b.lift("7f")
    b.place("7g")
    assert b.wait() == [("undo", b.usi("7g7f"))]
    assert b.moves() == [] and b.styles() == {}


def test_take_back_a_capture_returns_the_captured_piece_to_its_square():
    pawn = Board().v.kind_of("P")
    for captured_first in (False, True):
        b = Board(CAPTURE_SFEN)
        b.capture("4f", "4e")
        assert b.game.position.hand_count(0, pawn) == 1
        b.lift("4e")
        if captured_first:
            b.place("4e")                 # White's pawn back from Black's hand
            b.place("4f")
        else:
            b.place("4f")
            assert b.styles().get("4e") == ledlang.FIX_PLACE   # the captured piece goes here
            b.place("4e")
        assert b.wait() == [("undo", b.usi("4f4e"))]
        assert b.game.position.hand_count(0, pawn) == 0
        assert b.game.position.sfen() == Game("yari", CAPTURE_SFEN).position.sfen()


def test_take_back_a_drop_needs_button_a():
    b = Board("3k3/7/7/7/7/7/7/7/3K3 b P 1")
    b.place("5e")
    b.wait()
    b.lift("5e")
    b.wait(2000)
    assert b.it.phase() == "takeback" and b.styles()["5e"] == ledlang.TAKEBACK
    assert b.moves() == ["P*5e"]
    assert b.press("A") == [("undo", b.usi("P*5e"))]
    assert b.game.position.hand_count(0, b.v.kind_of("P")) == 1


def test_two_take_backs_in_a_row():
    b = Board()
    b.move("7g", "7f")
    b.move("7c", "7d")
    b.move("7d", "7c")
    b.move("7f", "7g")
    assert [e[0] for e in b.events] == ["move", "move", "undo", "undo"]
    assert b.moves() == []


def test_a_mate_can_be_taken_back_in_casual_mode():
    b = Board(MATE_SFEN)
    b.place("6b")
    assert b.wait() == [("move", b.usi("R*6b")), ("game-over", 0, "mate")]
    assert b.game.result == (0, "mate")
    styles = b.styles()
    assert styles["4i"] == ledlang.WINNER and styles["7a"] == ledlang.LOSER
    b.lift("6b")
    assert b.press("A") == [("undo", b.usi("R*6b"))]
    assert b.game.result is None


# -- tournament mode -------------------------------------------------------------------------
def test_tournament_illegal_move_loses():
    b = Board(mode="tournament")
    events = b.move("7g", "7e")
    assert events == [("illegal", b.usi("7g7e")), ("game-over", 1, "illegal-move")]
    assert b.game.result == (1, "illegal-move")
    assert b.styles()["4i"] == ledlang.LOSER
    b.lift("7e")
    b.place("7f")
    b.wait()
    assert b.moves() == []                # nothing more is read once the game is over


def test_tournament_illegal_drop_loses():
    b = Board("3k3/7/7/7/7/7/7/7/3K3 b P 1", mode="tournament")
    b.place("5a")                         # a Pawn may not be dropped on the last rank
    assert b.wait() == [("illegal", b.usi("P*5a")), ("game-over", 1, "illegal-move")]


def test_tournament_piece_put_down_from_an_empty_hand_is_refused_not_lost():
    b = Board("3k3/7/7/7/7/7/7/7/3K3 b - 1", mode="tournament")
    b.place("5e")                         # Black holds nothing: no move of Black's at all
    assert b.wait() == [("refused", "illegal-move")]
    assert b.game.result is None and b.it.phase() == "refused"


def test_an_illegal_capture_attempt_is_refused_or_loses():
    # The Black pawn 4f cannot reach White's General 4a; the General is lifted off for a
    # second and the pawn put in its place.
    for mode, expected in (("casual", [("refused", "illegal-move")]),
                           ("tournament", [("illegal", "4f4a"), ("game-over", 1,
                                                                  "illegal-move")])):
        b = Board(CAPTURE_SFEN, mode=mode)
        b.lift("4f")
        b.lift("4a")
        b.place("4a", dt=1000)
        events = b.wait()
        if mode == "tournament":
            events = [("illegal", to_usi(b.v, events[0][1]))] + events[1:]
        assert events == expected
        assert b.moves() == []


def test_refused_is_reported_once_while_the_board_stays_wrong():
    b = Board()
    b.move("7c", "7d")                    # White's pawn moved on Black's turn
    b.move("1c", "1d")                    # and another
    assert [e for e in b.events if e[0] == "refused"] == [("refused", "board-mismatch")]
    assert b.names(b.it.mismatch()) == ["1c", "1d", "7c", "7d"]


def test_tournament_disturbance_and_slides_do_not_lose():
    b = Board(SLIDE_SFEN, mode="tournament")
    b.lift("4a")                          # White's General knocked to 3a: not Black's move
    b.place("3a", dt=40)
    assert b.wait() == [("refused", "board-mismatch")]
    b.lift("3a")
    b.place("4a")
    b.wait()
    b.lift("2h")
    b.place("2g", dt=60)
    b.lift("2g", dt=SETTLE_MS - 100)
    b.place("2f", dt=60)
    assert b.wait() == [("move", b.usi("2h2f"))]
    assert b.game.result is None


def test_tournament_has_no_take_back():
    b = Board(mode="tournament")
    b.move("7g", "7f")
    assert b.move("7f", "7g") == [("refused", "board-mismatch")]
    assert b.moves() == ["7g7f"]


# -- choices ---------------------------------------------------------------------------------
def test_optional_promotion_offers_promote_first_and_b_or_a_reseat_toggles():
    b = Board(PROMOTE_SFEN)
    b.lift("7d")
    b.place("7c")
    assert b.wait() == [("choice", b.usi("7d7c+"))]
    assert b.styles()["7c"] == ledlang.CHOICE_PROMOTE
    b.lift("7c")
    assert b.place("7c") == [("choice", b.usi("7d7c"))]
    assert b.styles()["7c"] == ledlang.CHOICE_KEEP
    assert b.press("B") == [("choice", b.usi("7d7c+"))]
    assert b.press("B") == [("choice", b.usi("7d7c"))]
    assert b.press("A") == [("move", b.usi("7d7c"))]


def test_a_choice_is_confirmed_by_waiting_or_by_the_next_action():
    b = Board(PROMOTE_SFEN)
    b.move("7d", "7c")
    assert b.wait(CHOICE_MS - 500) == []
    assert b.wait(600) == [("move", b.usi("7d7c+"))]
    b = Board(PROMOTE_SFEN)
    b.move("7d", "7c")
    assert b.lift("4a") == [("move", b.usi("7d7c+"))]


def test_a_choice_is_abandoned_when_the_piece_goes_elsewhere():
    b = Board(PROMOTE_SFEN)
    b.move("7d", "7c")
    b.lift("7c")
    b.place("7d")                         # changed their mind: back where it came from
    b.wait(CHOICE_MS * 2)
    assert b.moves() == [] and b.it.phase() == "idle"    # no choice left pending


def test_button_a_does_not_confirm_while_the_offered_piece_is_lifted():
    b = Board(PROMOTE_SFEN)
    b.move("7d", "7c")
    b.lift("7c")
    assert b.press("A") == []
    b.wait(CHOICE_MS * 2)
    assert b.moves() == []


def test_a_choice_waits_while_a_button_is_down_and_counts_again_from_its_release():
    # B went down just before the wait ran out: its press is still to come, so the offer on
    # show is not confirmed under the person's finger.
    b = Board(PROMOTE_SFEN)
    b.move("7d", "7c")
    b.t += CHOICE_MS - 100
    assert list(b.it.tick(b.t, True)) == []
    b.t += 500
    assert list(b.it.tick(b.t, True)) == []          # held past the wait: still offered
    assert b.press("B", dt=10) == [("choice", b.usi("7d7c"))]
    assert b.wait(CHOICE_MS - 100) == []              # a full wait from the press again
    assert b.wait(200) == [("move", b.usi("7d7c"))]   # what the person chose: no promotion


def test_a_capture_the_board_was_blind_to_asks_for_its_pieces_to_be_re_seated():
    # Black's Yari Rook on 2h could take the pawn on 2e (not the one on 6c). The board saw
    # the Rook leave, then was blind (a flash erase) while the pawn was taken and the Rook
    # put in its place: it reads one piece up and nothing else.
    b = Board(BLIND_SFEN)
    b.lift("2h")
    blind_end = b.t + 40
    b.t += SETTLE_MS + 50
    assert list(b.it.tick(b.t, False, blind_end)) == [("refused", "unseen-capture")]
    styles = b.styles()
    assert styles["2e"] == ledlang.FIX_LIFT                 # the Rook's possible captures
    assert styles.get("6c") != ledlang.FIX_LIFT
    assert styles["2h"] == ledlang.LIFTED
    b.t += 500
    assert list(b.it.tick(b.t, False, blind_end)) == []   # said once
    b.lift("2e")                                          # the Rook lifted off the pawn's square
    assert ledlang.FIX_LIFT not in b.styles().values()
    b.place("2e")
    assert b.wait() == [("move", b.usi("2h2e"))]


def test_a_piece_held_up_with_the_board_never_blind_is_left_alone():
    b = Board(BLIND_SFEN)
    blind_end = b.t - 1000                               # blind long before the lift
    b.lift("2h")
    b.t += 3000
    assert list(b.it.tick(b.t, False, blind_end)) == []
    assert list(b.it.tick(b.t + 10)) == []
    assert ledlang.FIX_LIFT not in b.styles().values()


def test_drop_choice_offers_the_kinds_held_cheapest_first():
    b = Board(HAND_SFEN)
    b.place("5e")
    offered = [b.wait()[0][1]]
    for _ in range(4):
        b.lift("5e")
        offered.append(b.place("5e")[0][1])
    assert [to_usi(b.v, m) for m in offered] == ["P*5e", "N*5e", "B*5e", "R*5e", "P*5e"]
    b.press("B")
    assert b.styles()["5e"] == ledlang.drop_choice("N")
    assert b.press("A") == [("move", b.usi("N*5e"))]
    assert b.game.position.hand_count(0, b.v.kind_of("N")) == 0


def test_drop_choice_leaves_out_kinds_that_may_not_go_there():
    b = Board(HAND_SFEN)
    b.place("5a")                         # last rank: only the Yari Rook may be dropped
    assert b.wait() == [("move", b.usi("R*5a"))]


# -- orders from the host --------------------------------------------------------------------
def test_an_ordered_move_is_lit_and_counts_only_when_made():
    for mode in ("casual", "tournament"):
        b = Board(mode=mode)
        b.it.order(b.usi("7g7f"))
        styles = b.styles()
        assert styles["7g"] == ledlang.ORDER_FROM and styles["7f"] == ledlang.ORDER_TO
        assert b.move("6g", "6f") == [("refused", "not-the-ordered-move")]
        assert b.moves() == [] and b.game.result is None
        b.lift("6f")
        b.place("6g")
        assert b.move("7g", "7f") == [("move", b.usi("7g7f"))]
        assert ledlang.ORDER_TO not in b.styles().values()


def test_an_ordered_promotion_or_drop_needs_no_choice():
    b = Board(PROMOTE_SFEN)
    b.it.order(b.usi("7d7c"))
    assert b.move("7d", "7c") == [("move", b.usi("7d7c"))]
    b = Board(HAND_SFEN)
    b.it.order(b.usi("B*5e"))
    b.place("5e")
    assert b.wait() == [("move", b.usi("B*5e"))]


def test_an_illegal_order_is_rejected():
    b = Board()
    assert raises(ValueError, b.it.order, b.usi("7g7e"))
    assert raises(ValueError, b.it.hint, b.usi("7g7e"))


def test_a_hint_is_shown_until_the_next_move():
    b = Board()
    assert b.press("A") == [("hint-request",)]
    b.it.hint(b.usi("2g2f"))
    styles = b.styles()
    assert styles["2g"] == ledlang.HINT_FROM and styles["2f"] == ledlang.HINT_TO
    b.move("7g", "7f")
    assert ledlang.HINT_TO not in b.styles().values()


# -- buttons and the end of the game ---------------------------------------------------------
def test_long_a_resigns_and_long_b_asks_for_a_new_game():
    b = Board()
    assert b.press("B", long_press=True) == [("new-game",)]
    assert b.press("A", long_press=True) == [("resign", 0), ("game-over", 1, "resignation")]
    assert b.game.result == (1, "resignation")
    assert b.it.phase() == "game-over"
    assert b.press("A") == []             # no hint once the game is over


def test_impasse_needs_two_presses_of_b():
    b = Board(IMPASSE_SFEN)
    assert b.press("B") == []
    assert b.styles()["4a"] == ledlang.IMPASSE
    b.wait(IMPASSE_ARM_MS + 10)           # too slow: disarmed
    assert b.press("B") == []
    events = b.press("B")
    assert events[0] == ("impasse", 0) and events[1][0] == "game-over"
    assert b.game.result[1] == "impasse"
    assert Board().press("B") == []       # Generals not in the zones: nothing happens


def test_unknown_buttons_and_squares_are_errors_that_change_nothing():
    b = Board()
    assert raises(ValueError, b.it.on_button, "C", False, 5000)
    assert raises(ValueError, b.it.on_sensor, 0, True, 5000)
    assert raises(ValueError, b.it.sync, [b.sq("5i"), 0], 5000)
    assert b.it.mismatch() == [] and b.it.phase() == "idle"
    assert b.move("7g", "7f") == [("move", b.usi("7g7f"))]   # the sensor picture survived


# -- setting up --------------------------------------------------------------------------------
def test_sync_with_a_different_board_waits_for_set_up_and_reads_no_move():
    b = Board()
    occupied = [sq for sq in b.v.squares if b.game.position.piece_at(sq)]
    occupied.remove(b.sq("7g"))
    occupied.append(b.sq("7f"))           # looks like 7g7f, but it was not seen happening
    assert b.it.sync(occupied, b.t) == ()
    b.wait(5000)
    assert b.moves() == [] and b.it.phase() == "setup"
    assert b.styles() == {"7g": ledlang.FIX_PLACE, "7f": ledlang.FIX_LIFT}
    b.lift("7f")
    assert b.place("7g") == [("ready",)]
    assert b.it.phase() == "idle"


def test_during_set_up_a_takes_no_drop_back():
    # Power came back with the last dropped piece off the board: the board is set up again
    # (the piece put back), not read as a take-back, which is asked for only in play.
    b = Board("3k3/7/7/7/7/7/7/7/3K3 b P 1")
    b.place("5e")
    assert b.wait() == [("move", b.usi("P*5e"))]
    occupied = [sq for sq in b.v.squares if b.game.position.piece_at(sq)]
    occupied.remove(b.sq("5e"))
    assert b.it.sync(occupied, b.t) == ()
    assert b.press("A") == [("hint-request",)]
    assert b.moves() == ["P*5e"] and b.it.phase() == "setup"
    assert b.place("5e") == [("ready",)]


def test_set_game_for_a_host_undo_does_not_replay_the_move():
    b = Board()
    b.move("7g", "7f")
    earlier = Game("yari")
    assert b.it.set_game(earlier) == ()
    b.wait(5000)
    assert earlier.position.moves() == [] and b.it.phase() == "setup"
    b.lift("7f")
    assert b.place("7g") == [("ready",)]


def test_long_a_resigns_for_the_person_while_the_host_side_is_to_move():
    # The host plays White: once it has ordered a move, a long A while White is to move
    # (its move lit, or being searched) is Black's resignation, never the engine's.
    b = Board()
    b.move("7g", "7f")
    b.it.order(b.usi("3c3d"))
    assert b.press("A", long_press=True) == [("resign", 0), ("game-over", 1, "resignation")]
    assert ledlang.ORDER_TO not in b.styles().values()     # nothing left to carry out
    b = Board()
    b.move("7g", "7f")
    b.it.order(b.usi("3c3d"))
    b.move("3c", "3d")                       # the host's move carried out: Black to move
    assert b.press("A", long_press=True)[0] == ("resign", 0)
    b = Board()
    b.move("7g", "7f")
    b.it.order(b.usi("3c3d"))
    b.move("3c", "3d")
    b.move("6g", "6f")                       # White (the host) to move, nothing lit yet
    assert b.press("A", long_press=True)[0] == ("resign", 0)
    b = Board()                              # no host side: the side to move resigns
    b.move("7g", "7f")
    assert b.press("A", long_press=True)[0] == ("resign", 1)


def test_a_host_resignation_or_flag_fall_ends_the_game_with_its_reason():
    b = Board(PROMOTE_SFEN)
    b.lift("7d")
    b.place("7c")
    b.wait()                                 # a promotion choice is on offer
    assert b.it.phase() == "choice"
    assert b.it.resign(0, "time") == [("resign", 0), ("game-over", 1, "time")]
    assert b.it.phase() == "game-over" and b.game.result == (1, "time")
    assert ledlang.CHOICE_PROMOTE not in b.styles().values()
    assert ledlang.CHECK not in b.styles().values()
