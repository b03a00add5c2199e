"""Wa Shogi with drops against CrazyWa, an independent engine (Debian package `crazywa`).

At every ply of seeded random games, and in set-up positions, the rules core's legal moves
are compared with CrazyWa's (XBoard `setboard`, then its list of root moves):
- every move CrazyWa lists as a board move, and the move it would play, is legal here;
- every legal board move here that CrazyWa leaves out of its list is one it accepts when it
  is the only move it may play (`exclude all` / `include`);
- every legal drop here that CrazyWa leaves out is one it cannot be asked about singly: its
  list leaves out moves scoring far below its best (when it has a mate) and drops its search
  prunes (onto attacked squares). The first kind is checked by scoring the drop; the second
  is counted, and most drops must be confirmed.
CrazyWa 1.0.5 has quirks of its own, counted and shown, never taken as the rules: it
crashes on some positions (always when Black holds a Treacherous Fox: those plies are not
asked; often with many kinds in hand); its list can hold pawn drops onto a file that already
has its pawn, drops onto an occupied square and drops of pieces its side does not hold; and
it never generates a move that declines a promotion it counts always better, where the rules
(as in shogi) leave the choice to the player: such a move passes when its promoting twin is
accepted. Its list can also hold a board move, seen so far only of the King, onto a square an
enemy attacks; it refuses such a move itself when it is the only one it may play, and only
then does the move pass. With a Treacherous Fox of the side to move on some squares it may
list nothing and count that side mated, where the side is not in check and has moves: that
position is counted, not asked. Any other disagreement fails.

The slow sweep (`make test-slow`) plays 40 such games with bounds of its own: at most 12
left-out drops asked about per ply (a fixed sample; the rest counted), and 90 s per game, after
which the game stops and is counted as cut short. It prints a line per game as it goes.
"""
import os
import random
import time

import pytest

from shogicore import Position
from shogicore.move import to_usi
from yariboard.engines.base import Limit
from yariboard.engines.xboard import (LIST_DEPTH, LIST_MARGIN, MATE_CENTIPAWNS, EngineDied, XBoardEngine,
                              XBoardError, find_crazywa)

from tests.oracles import pick

FOX = 17   # the Treacherous Fox's kind in wa_tables
SPARROW = 1

# Skipped (and reported so) on a machine without the engine; never in CI, which installs it.
needs_crazywa = pytest.mark.skipif(not find_crazywa() and not os.environ.get("CI"),
                                   reason="crazywa is not installed (apt-get install crazywa)")
pytestmark = [needs_crazywa, pytest.mark.engine]


@pytest.fixture(scope="module")
def crazywa():
    with XBoardEngine(variant="wa") as engine:
        yield engine


class Tally:
    """What the comparisons saw, so a run that asked the oracle too little fails."""

    def __init__(self):
        self.plies = self.compared = self.listed = self.accepted = self.mated = 0
        self.fox_in_hand = self.engine_crashes = self.engine_drop_defects = 0
        self.deferrals = self.unconfirmed_drops = self.listed_but_refused = 0
        self.false_mates = self.drops_not_asked = self.games_cut = 0
        self.problems = []

    def __repr__(self):
        return ("plies %d, compared %d (moves listed by both %d, board moves accepted on "
                "request %d, drops far below the engine's best %d, declined promotions the "
                "engine never generates %d); drops the engine pruned %d; not asked (fox in hand) "
                "%d, engine crashes %d, engine drop defects %d, moves the engine lists but "
                "refuses %d, mates the engine sees beside its own fox %d; drops not asked "
                "(over the cap per ply) %d, games cut short at their time budget %d"
                % (self.plies, self.compared, self.listed, self.accepted, self.mated,
                   self.deferrals, self.unconfirmed_drops, self.fox_in_hand,
                   self.engine_crashes, self.engine_drop_defects, self.listed_but_refused,
                   self.false_mates, self.drops_not_asked, self.games_cut))


def _own_pawn_on_file(position, usi):
    """Is `usi` a pawn drop onto a file where the mover already has an unpromoted pawn?"""
    v = position.variant
    if not usi.startswith("P*"):
        return False
    file = v.file_of(v.parse_square(usi[2:]))
    own = SPARROW | (position.side << 5)
    return any(position.piece_at(v.square(file, r)) == own for r in range(1, v.ranks + 1))


def _onto_a_piece(position, usi):
    v = position.variant
    return "*" in usi and position.piece_at(v.parse_square(usi[2:])) != 0


def _not_in_hand(position, usi):
    v = position.variant
    return "*" in usi and not position.hands[position.side][v.kind_of(usi[:1])]


def _engine_drop_defect(position, usi):
    return (_own_pawn_on_file(position, usi) or _onto_a_piece(position, usi)
            or _not_in_hand(position, usi))


def _refuses(engine, position, usi, tally):
    """Does the engine refuse the board move `usi` when it may play nothing else? A crash
    counts as no answer: the move is then not passed."""
    try:
        return not engine.accepts(position, usi)
    except EngineDied:
        tally.engine_crashes += 1
        return False


def _false_mate(position, theirs, best, ours):
    """Does the engine count the side to move mated where that side is not in check, has
    moves, and has a Treacherous Fox on the board (the case seen, see the module docstring)?"""
    own_fox = FOX | (position.side << 5)
    return (not theirs and best <= -MATE_CENTIPAWNS and ours and not position.in_check()
            and any(position.piece_at(sq) == own_fox for sq in position.variant.squares))


def _drops_to_ask(position, drops, cap, tally):
    """The drops to ask about singly: all of them, or a sample of `cap` (the same for the
    same position) when there are more. Each question is a search by a fresh engine
    process, seconds each with large hands: one ply of a long game once asked 68."""
    drops = sorted(drops)
    if cap is None or len(drops) <= cap:
        return drops
    tally.drops_not_asked += len(drops) - cap
    return sorted(random.Random(position.sfen()).sample(drops, cap))


def compare(engine, position, tally, drop_questions=None):
    """Compare the legal moves of `position` with CrazyWa's; problems go to the tally.
    `drop_questions` caps the drops the engine leaves out that are asked about singly."""
    v = position.variant
    tally.plies += 1
    if position.hands[0][FOX] or position.hands[1][FOX]:
        tally.fox_in_hand += 1
        return
    ours = set(to_usi(v, m) for m in position.legal_moves())
    try:
        theirs, choice, best = engine.root_moves(position)
    except EngineDied:
        tally.engine_crashes += 1
        return
    if _false_mate(position, theirs, best, ours):
        tally.false_mates += 1
        return
    tally.compared += 1
    where = position.sfen()
    if choice is not None and choice not in ours:
        if _not_in_hand(position, choice):
            tally.engine_drop_defects += 1
        else:
            tally.problems.append("%s: CrazyWa would play %s, illegal here" % (where, choice))
    for usi in sorted(theirs - ours):
        if _engine_drop_defect(position, usi):
            tally.engine_drop_defects += 1
        elif "*" not in usi and _refuses(engine, position, usi, tally):
            tally.listed_but_refused += 1
        else:
            tally.problems.append("%s: CrazyWa lists %s, illegal here" % (where, usi))
    tally.listed += len(theirs & ours)
    missing = ours - theirs
    drops = _drops_to_ask(position, [usi for usi in missing if "*" in usi], drop_questions,
                          tally)
    for usi in sorted(usi for usi in missing if "*" not in usi) + drops:
        try:
            if "*" not in usi:
                if engine.accepts(position, usi):
                    tally.accepted += 1
                elif (not usi.endswith("+") and usi + "+" in ours
                      and engine.accepts(position, usi + "+")):
                    tally.deferrals += 1
                else:
                    tally.problems.append("%s: CrazyWa refuses %s, legal here" % (where, usi))
                continue
            after = position.copy()
            after.push_usi(usi)
            # the position alone, set up afresh: replaying a long game is where the engine
            # loses track of whose move it is
            reply = engine.search(Position("wa", after.sfen()), Limit(depth=LIST_DEPTH))
        except EngineDied:
            tally.engine_crashes += 1
            continue
        except XBoardError:
            # it answered with a drop from an empty hand or a piece of the wrong side: the
            # drop stays unconfirmed
            tally.unconfirmed_drops += 1
            continue
        if best >= MATE_CENTIPAWNS or reply.resign or best + reply.score >= LIST_MARGIN // 2:
            tally.mated += 1
        else:
            tally.unconfirmed_drops += 1


def play_and_compare(engine, seed, plies, tally, drop_questions=None, seconds=None):
    """A seeded random game (biased to drops, promotions, captures), compared at each ply.
    With `seconds`, the game stops at the first ply that starts after that much time (and
    is counted as cut short); `drop_questions` is passed to `compare`."""
    rng = random.Random(seed)
    position = Position("wa")
    deadline = None if seconds is None else time.monotonic() + seconds
    for _ in range(plies):
        if deadline is not None and time.monotonic() > deadline:
            tally.games_cut += 1
            break
        compare(engine, position, tally, drop_questions)
        moves = position.legal_moves()
        if not moves or position.status():
            break
        position.push(pick(rng, position, moves))


def _assert_clean(tally, least_compared):
    print(tally)
    assert not tally.problems, "\n".join(tally.problems[:20])
    assert tally.compared >= least_compared, tally
    assert tally.unconfirmed_drops <= tally.listed // 10, tally


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_agree_with_crazywa_at_every_ply(crazywa, seed):
    tally = Tally()
    play_and_compare(crazywa, seed, 60, tally)
    _assert_clean(tally, 30)


def test_the_sweep_asks_a_fixed_sample_of_drops_and_stops_a_game_at_its_budget(crazywa):
    position = Position("wa", "5k5/11/11/11/11/11/11/11/11/11/5K5 b PHOS 1")
    moves = [to_usi(position.variant, m) for m in position.legal_moves()]
    drops = [usi for usi in moves if "*" in usi]
    tally = Tally()
    sample = _drops_to_ask(position, drops, 12, tally)
    assert len(sample) == 12 and set(sample) < set(drops)
    assert tally.drops_not_asked == len(drops) - 12
    assert _drops_to_ask(position, drops, 12, Tally()) == sample       # the same each run
    assert _drops_to_ask(position, drops[:5], 12, tally) == sorted(drops[:5])
    play_and_compare(crazywa, 1, 60, tally, seconds=0)
    assert tally.games_cut == 1 and tally.plies == 0


# The slow sweep's bounds: without them a few games took most of its time (one 49 minutes,
# one of its plies over 4 minutes), and a run stopped early showed nothing of what it covered.
SWEEP_SEEDS = range(100, 140)
SWEEP_PLIES = 160
SWEEP_GAME_SECONDS = 90
SWEEP_DROP_QUESTIONS = 12


@pytest.mark.slow
def test_many_random_games_agree_with_crazywa(capsys):
    tally = Tally()
    with XBoardEngine(variant="wa") as engine:
        for seed in SWEEP_SEEDS:
            started, plies, problems = time.monotonic(), tally.plies, len(tally.problems)
            play_and_compare(engine, seed, SWEEP_PLIES, tally, SWEEP_DROP_QUESTIONS,
                             SWEEP_GAME_SECONDS)
            with capsys.disabled():   # shown as it goes, so a stopped run says what it covered
                print("\nWa sweep, seed %d: %d plies in %.0f s, %d problems; so far %d positions "
                      "compared, %d games cut short"
                      % (seed, tally.plies - plies, time.monotonic() - started,
                         len(tally.problems) - problems, tally.compared, tally.games_cut),
                      flush=True)
    with capsys.disabled():
        print("Wa sweep:", tally, flush=True)
    _assert_clean(tally, 2000)


# Set-up positions for the rules where the variants of shogi differ: drops on the last ranks,
# two sparrows on a file, a sparrow dropped to mate, promotion on entering, inside and leaving
# the zone, pins by the Cloud Eagle's three-square reach, the Treacherous Fox's jumps.
SETUPS = [
    # the droppable kinds but the fox, a few at a time (CrazyWa crashes on larger hands)
    "5k5/11/11/11/11/11/11/11/11/11/5K5 b PHOS 1",
    "5k5/11/11/11/11/11/11/11/11/11/5K5 w phos 1",
    "5k5/11/11/11/11/11/11/11/11/11/5K5 b GCUL 1",
    "5k5/11/11/11/11/11/11/11/11/11/5K5 w gcul 1",
    "5k5/11/11/11/11/11/11/11/11/11/5K5 b DM 1",
    "5k5/11/11/11/11/11/11/11/11/11/5K5 w e 1",
    # a sparrow on every file but one: sparrow drops only there
    "5k5/11/11/11/11/11/11/PPPPP1PPPPP/11/11/5K5 b P 1",
    # a sparrow dropped in front of the King would mate: not allowed (a Flying Goose may)
    "4lkl4/11/5V5/11/11/11/11/11/11/11/5K5 b P 1",
    "4lkl4/11/5V5/11/11/11/11/11/11/11/5K5 b G 1",
    "5k5/11/11/11/11/11/11/11/5v5/11/4lKl4 w p 1",
    # pieces about to enter, inside and leaving the promotion zone
    "5k5/11/11/PORHSFVWGCU/11/11/11/11/11/11/5K5 b - 1",
    "5k5/11/PORHSFVWGCU/11/11/11/11/11/11/11/5K5 b - 1",
    "5k5/PORH3WGCU/11/11/11/11/11/11/11/11/5K5 b - 1",
    "5k5/11/11/11/11/11/11/11/porhsfvwgcu/11/5K5 w - 1",
    # the Cloud Eagle pins at reach three; the Liberated Horse's two-square retreat
    "11/11/11/11/11/6k4/11/11/11/11/2E2K5 w - 1",
    "5k5/11/11/11/11/11/11/2e8/11/3G7/4K6 b - 1",
    "5k5/11/11/11/4h6/11/4P6/4H6/11/11/5K5 b - 1",
    # the Treacherous Fox jumps over anything, two files across the board's edge
    "5k5/11/11/11/11/11/GXG8/11/11/11/5K5 b - 1",
    "5k5/11/11/11/11/11/8gxg/11/11/11/5K5 w - 1",
    # check: only evasions
    "5k5/11/11/11/11/5r5/11/11/11/11/5K5 b GS 1",
]


@pytest.mark.parametrize("sfen", SETUPS)
def test_set_up_positions_agree_with_crazywa(crazywa, sfen):
    tally = Tally()
    compare(crazywa, Position("wa", sfen), tally)
    _assert_clean(tally, 1)


def test_crazywa_lists_the_51_first_moves(crazywa):
    position = Position("wa")
    moves, choice, _ = crazywa.root_moves(position)
    assert moves == set(to_usi(position.variant, m) for m in position.legal_moves())
    assert len(moves) == 51 and choice in moves


def test_crazywa_mates_by_a_goose_drop_but_not_by_a_sparrow_drop(crazywa):
    # The rule book's drop-mate rule, seen from the engine: with a Flying Goose in hand it
    # mates at once on 6b; with a Sparrow Pawn it plays something else.
    goose = Position("wa", "4lkl4/11/5V5/11/11/11/11/11/11/11/5K5 b G 1")
    _, choice, best = crazywa.root_moves(goose)
    assert choice == "G*6b" and best >= MATE_CENTIPAWNS
    sparrow = Position("wa", "4lkl4/11/5V5/11/11/11/11/11/11/11/5K5 b P 1")
    moves, choice, best = crazywa.root_moves(sparrow)
    assert choice != "P*6b" and "P*6b" not in moves and best < MATE_CENTIPAWNS
    assert "P*6b" not in set(to_usi(sparrow.variant, m) for m in sparrow.legal_moves())


def test_crazywa_takes_the_promotion_where_declining_is_never_better(crazywa):
    # A Sparrow Pawn entering the zone: both moves are legal here; CrazyWa offers only the
    # promotion (see the module docstring), an Oxcart entering rank c it offers both ways.
    position = Position("wa", "5k5/11/11/P1O8/11/11/11/11/11/11/5K5 b - 1")
    assert crazywa.accepts(position, "11d11c+") and not crazywa.accepts(position, "11d11c")
    assert crazywa.accepts(position, "9d9c") and crazywa.accepts(position, "9d9c+")
    assert {"11d11c", "11d11c+", "9d9c", "9d9c+"} <= set(
        to_usi(position.variant, m) for m in position.legal_moves())


def test_crazywa_lists_a_king_move_into_check_but_refuses_to_play_it(crazywa):
    # From seed 115 of the long sweep: Black's promoted Running Rabbit (a Treacherous Fox)
    # on 5c steps forward to 5b, so White's King may not go there. CrazyWa's list offers
    # 6a5b; asked to play it and nothing else, it counts itself mated (see the module
    # docstring). It is not refusing every move here: another piece's move it plays.
    position = Position("wa", "hmlcvkw1ud1/1e1rs3gfo/ppp1pp+Rxppp/3p3p3/11/11/5X5/3P3P3/"
                              "PPP1PPP1PPP/OF3SV1CEM/1DUGWK2L1H w P 14")
    ours = set(to_usi(position.variant, m) for m in position.legal_moves())
    moves, _, _ = crazywa.root_moves(position)
    assert "6a5b" in moves and "6a5b" not in ours
    assert not crazywa.accepts(position, "6a5b")
    assert crazywa.accepts(position, "5a4a") and "5a4a" in ours


def test_crazywa_counts_a_side_mated_beside_its_own_fox(crazywa):
    # From seed 139 of the long sweep: White, not in check, has 121 moves (a Sparrow Pawn's
    # step 3c3d among them). With White's Treacherous Fox on 4a, CrazyWa lists none and scores
    # itself mated; with that Fox taken off (the one on 5a stays), it lists moves as usual.
    rest = "/hel1s4po/p1mr2cpp2/2p6+Op/1p1pGp2w2/4p1P2E1/P2PP5P/2P3pP3/2UKCPVR2H/D1U8/" \
           "1P1G1SWLPM1 w fp 132"
    position = Position("wa", "f3vkxxD2" + rest)
    ours = set(to_usi(position.variant, m) for m in position.legal_moves())
    assert not position.in_check() and len(ours) == 121 and "3c3d" in ours
    moves, choice, best = crazywa.root_moves(position)
    assert not moves and choice is None and best <= -MATE_CENTIPAWNS
    moves, choice, best = crazywa.root_moves(Position("wa", "f3vkx1D2" + rest))
    assert choice in moves and best > -MATE_CENTIPAWNS
