"""The built-in engine: mates it must find (checked by brute force with the rules core, not
by trusting the engine), evaluation bookkeeping, limits and levels, and match results against
the weak reference players."""
import random
import time

import pytest

from shogicore.move import is_drop, is_promotion, move_to, parse_usi
from shogicore.position import Position, piece_colour
from shogicore.variants import BLACK, KING, PAWN, SHOGI, WHITE, YARI

from yariboard.engines.base import Limit
from yariboard.engines.base import MATE_BOUND
from yariboard.engines.builtin.evaluation import (evaluate, evaluate_black, king_danger,
                                                  material_black, move_delta)
from yariboard.engines.builtin.exchange import exchange_gain, gives_check, least_attacker, made_check
from yariboard.engines.builtin.search import (EXACT, LEVELS, LOWER, Engine, _Search, has_legal_move,
                                              node_key)
from yariboard.engines.builtin.tables import tables_for
from yariboard.benchmarks import engine as engine_benchmark
from yariboard.engines.builtin.movegen import attackers
from yariboard.engines.players import GreedyPlayer, RandomPlayer, play_game


# -- independent oracles: brute force over the rules core's legal moves --------------------

def is_mated(position):
    status = position.status()
    return status is not None and status[1] == "mate"


def mates_after(position, m):
    position.push(m)
    mated = is_mated(position)
    position.pop()
    return mated


def mating_moves(position):
    return [m for m in position.legal_moves() if mates_after(position, m)]


def random_game_positions(variant, seed, games, plies):
    """The position after each move of `games` random games of at most `plies` moves (the
    same one, played on, each time: look at it before the next is asked for)."""
    rng = random.Random(seed)
    for _ in range(games):
        position = Position(variant)
        for _ in range(plies):
            moves = position.legal_moves()
            if not moves:
                break
            position.push(rng.choice(moves))
            yield position


def forces_mate_in_3(position, m):
    """After `m`, does every reply allow a mating move? (and is there a reply at all)"""
    position.push(m)
    try:
        replies = position.legal_moves()
        if not replies:
            return False
        for reply in replies:
            position.push(reply)
            found = any(mates_after(position, m2) for m2 in position.legal_moves())
            position.pop()
            if not found:
                return False
        return True
    finally:
        position.pop()


def rotate_sfen(sfen):
    """The same position seen from the other side: board turned 180 degrees, colours and the
    side to move swapped. Lets every test position be solved by White too."""
    board, side, hands, number = sfen.split()
    swapped = board.swapcase()
    rows = []
    for row in swapped.split("/")[::-1]:
        tokens = []
        i = 0
        while i < len(row):
            token = row[i]
            if token == "+":
                token, i = row[i:i + 2], i + 1
            tokens.append(token)
            i += 1
        rows.append("".join(tokens[::-1]))
    return "%s %s %s %s" % ("/".join(rows), "w" if side == "b" else "b",
                            hands.swapcase(), number)


MATE_IN_1 = [
    # Yari allows a pawn drop that mates (standard shogi does not): P*1b here.
    (YARI, "5rk/5p1/7/5N1/7/7/7/7/K6 b P 1"),
    (YARI, "1b1k3/7/2B2B1/7/7/7/7/7/2K4 b RP 3"),
    # No check at all: the General simply has no legal move left, which loses too.
    (SHOGI, "k8/3R5/3B5/9/7P1/9/9/9/2K6 b NP 3"),
]

MATE_IN_3 = [
    (YARI, "1bk4/7/5B1/3B3/7/7/7/7/2K4 b PR 1"),
    (YARI, "6k/2r4/7/1R1N3/7/7/7/7/K6 b BP 1"),
    (SHOGI, "2n4k1/5n3/4R4/9/3R5/9/9/9/7K1 b G 1"),
]


@pytest.mark.parametrize("variant,sfen", MATE_IN_1 + [(v, rotate_sfen(s)) for v, s in MATE_IN_1])
def test_finds_mate_in_one(variant, sfen):
    position = Position(variant, sfen)
    result = Engine().search(position, Limit(depth=2))
    assert mates_after(position, result.move)
    assert result.mate == 1
    assert result.score >= MATE_BOUND


@pytest.mark.parametrize("variant,sfen", MATE_IN_3 + [(YARI, rotate_sfen(MATE_IN_3[0][1]))])
def test_finds_mate_in_three(variant, sfen):
    position = Position(variant, sfen)
    assert not mating_moves(position), "test position must not allow a quicker mate"
    result = Engine().search(position, Limit(depth=3))
    assert forces_mate_in_3(position, result.move)
    assert result.mate == 3
    # The principal variation is a legal line ending in mate.
    line = position.copy()
    for m in result.pv:
        assert line.is_legal(m)
        line.push(m)
    assert len(result.pv) == 3 and is_mated(line)


def test_sees_the_recapture_beyond_its_depth():
    """Taking the Pawn on 4c with the Yari Rook loses the Rook to the General: the one-ply
    greedy player falls for it, the engine at depth 1 must not (quiescence / check search)."""
    position = Position(YARI, "7/3k3/3p3/7/3R3/7/7/7/3K3 b - 1")
    grab = position.variant.parse_square("4c")
    assert move_to(GreedyPlayer(seed=0).search(position).move) == grab
    result = Engine().search(position, Limit(depth=1))
    assert move_to(result.move) != grab


def test_mated_side_resigns():
    position = Position(SHOGI, MATE_IN_1[2][1])
    position.push(mating_moves(position)[0])
    result = Engine().search(position, Limit(depth=3))
    assert result.resign and result.move is None and result.mate == 0


def test_rotated_positions_evaluate_opposite():
    """The evaluation treats both colours alike: turning the board negates it."""
    rng = random.Random(11)
    for variant in (YARI, SHOGI):
        position = Position(variant)
        for _ in range(50):
            position.push(rng.choice(position.legal_moves()))
            turned = Position(variant, rotate_sfen(position.sfen()))
            assert evaluate_black(turned) == -evaluate_black(position)
            assert evaluate(turned) == evaluate(position)


def test_incremental_evaluation_matches_full_count():
    """The search updates the evaluation move by move; it must equal a full recount."""
    rng = random.Random(5)
    for variant in (YARI, SHOGI):
        tables = tables_for(variant)
        position = Position(variant)
        running = evaluate_black(position)
        for _ in range(120):
            moves = position.legal_moves()
            if not moves:
                break
            captures = [m for m in moves if position.piece_at(move_to(m))]
            m = rng.choice(captures or moves)
            running += move_delta(tables, position, m)
            position.push(m)
            assert running == evaluate_black(position), position.sfen()


def test_king_danger_grows_with_the_attack():
    """Pieces in the enemy hand, then enemy pieces next to the General, make it less safe;
    the other General, untouched and with no enemy hand against it, is judged as before."""
    tables = tables_for(YARI)
    alone = Position(YARI, "3k3/7/7/7/7/7/7/7/3K3 b - 1")
    hand = Position(YARI, "3k3/7/7/7/7/7/7/7/3K3 b rb 1")
    close = Position(YARI, "3k3/7/7/7/7/7/7/2p1p2/3K3 b rb 1")
    dangers = [king_danger(tables, position, BLACK) for position in (alone, hand, close)]
    assert dangers[0] < dangers[1] < dangers[2]
    assert king_danger(tables, close, WHITE) == king_danger(tables, alone, WHITE)
    assert evaluate(hand) == evaluate(alone) + tables.hand_value[WHITE][YARI.kind_of("R")] \
        + tables.hand_value[WHITE][YARI.kind_of("B")] - (dangers[1] - dangers[0])


@pytest.mark.parametrize("variant", ["yari", "shogi", "wa"])
def test_king_danger_counts_the_squares_the_core_finds_attacked(monkeypatch, variant):
    """The term's own attack test agrees with the rules core's `_attacked`: with every other
    unit weighed at nothing, the danger is the square of the attacked squares next to the
    General, over positions of random games."""
    import yariboard.engines.builtin.evaluation as evaluation
    import yariboard.engines.builtin.tables as tables_module
    for name in ("ATTACKER_NEXT_TO_KING", "ATTACKER_NEAR_KING", "OPEN_SQUARE_NEXT_TO_KING",
                 "GUARD_NEXT_TO_KING"):
        monkeypatch.setattr(tables_module, name, 0)
    monkeypatch.setattr(evaluation, "ATTACKED_SQUARE_NEXT_TO_KING", 1)
    monkeypatch.setattr(evaluation, "KING_DANGER_CP_PER_UNIT2", 1)
    monkeypatch.setattr(evaluation, "KING_DANGER_MAX_CP", 10 ** 6)
    monkeypatch.setattr(tables_module, "_TABLES", {})   # the units are read into the tables
    variant = Position(variant).variant
    tables = tables_for(variant)
    seen_attacked = 0
    for position in random_game_positions(variant, 11, games=20, plies=80):
        for colour in (BLACK, WHITE):
            # the enemy hand adds units of its own, counted here from its pieces
            hand_units = sum(position.hands[1 - colour][kind] * tables.hand_danger[kind]
                             for kind in variant.hand_kinds)
            attacked = sum(1 for sq in tables.next_to[position.kings[colour]]
                           if position._attacked(sq, 1 - colour))
            seen_attacked += attacked
            assert king_danger(tables, position, colour) == (attacked + hand_units) ** 2
    assert seen_attacked > 100


@pytest.mark.parametrize("variant", ["yari", "shogi", "wa"])
def test_king_danger_adds_up_every_unit_square_by_square(variant):
    """Every unit of the term, counted afresh square by square from the rules core (what
    stands next to the General and two squares away, the neighbours the core finds
    attacked, the enemy hand), gives the danger the packed tables give, over positions of
    random games."""
    import yariboard.engines.builtin.tables as engine
    variant = Position(variant).variant
    tables = tables_for(variant)
    seen = set()
    for position in random_game_positions(variant, 3, games=10, plies=80):
        for colour in (BLACK, WHITE):
            king = position.kings[colour]
            units = sum(position.hands[1 - colour][kind] * tables.hand_danger[kind]
                        for kind in variant.hand_kinds)
            for sq in variant.squares:
                distance = max(abs(variant.rank_of(sq) - variant.rank_of(king)),
                               abs(variant.file_of(sq) - variant.file_of(king)))
                piece = position.piece_at(sq)
                enemy = piece and piece_colour(piece) != colour
                if distance == 1:
                    units += (engine.ATTACKER_NEXT_TO_KING if enemy
                              else -engine.GUARD_NEXT_TO_KING if piece
                              else engine.OPEN_SQUARE_NEXT_TO_KING)
                    if position._attacked(sq, 1 - colour):
                        units += engine.ATTACKED_SQUARE_NEXT_TO_KING
                elif distance == 2 and enemy:
                    units += engine.ATTACKER_NEAR_KING
            expected = 0 if units <= 0 else min(engine.KING_DANGER_MAX_CP,
                                                engine.KING_DANGER_CP_PER_UNIT2 * units ** 2)
            assert king_danger(tables, position, colour) == expected, position.sfen()
            seen.add(expected)
    assert len(seen) > 10 and 0 in seen


@pytest.mark.parametrize("variant", ["yari", "shogi", "wa"])
def test_king_danger_remembered_by_what_stands_around_the_general_is_the_one_counted(
        variant):
    """A search hands `king_danger` a store of the units it has counted, by what stands on
    the squares around the General the danger reads. Whatever is put on any one square of
    a remembered position (nothing, a Pawn of the General's side, or an enemy piece that
    attacks along a line), the danger read from the store must be the one counted afresh."""
    variant = Position(variant).variant
    tables = tables_for(variant)
    remembered = changed = 0
    for index, position in enumerate(random_game_positions(variant, 4, games=2, plies=60)):
        if index % 6:
            continue
        board = position.board
        for colour in (BLACK, WHITE):
            king = position.kings[colour]
            known = [{} for _ in range(variant.size)]
            danger = king_danger(tables, position, colour, known)
            pieces = [0, PAWN | colour << 5] + [
                piece for piece in range(64) if piece >> 5 == 1 - colour
                and tables.line_attacker[1 - colour][piece]]
            for sq in variant.squares:
                if board[sq] & 31 == KING:
                    continue
                standing = board[sq]
                for piece in pieces:
                    board[sq] = piece
                    before = len(known[king])
                    expected = king_danger(tables, position, colour)
                    assert king_danger(tables, position, colour, known) == expected, \
                        (position.sfen(), sq, piece)
                    remembered += len(known[king]) == before
                    changed += expected != danger
                board[sq] = standing
    assert remembered > 1000 and changed > 100


@pytest.mark.parametrize("variant, sfen, expected", [
    # the General in a corner, every square next to it covered by a Rook, nothing in hand
    (SHOGI, "8k/1r7/9/9/9/9/9/8r/K8 b - 1", False),
    # the same with a Pawn on the General's file (on a line to it: the core decides)
    (SHOGI, "8k/1r7/9/9/9/9/P8/8r/K8 b - 1", True),
    # the same with a Gold in hand to drop
    (SHOGI, "8k/1r7/9/9/9/9/9/8r/K8 b G 1", True),
])
def test_has_legal_move_when_nothing_can_be_taken(variant, sfen, expected):
    position = Position(variant, sfen)
    assert not position.in_check() and bool(position.legal_moves()) == expected
    assert has_legal_move(tables_for(position.variant), position) == expected


@pytest.mark.parametrize("variant", [YARI, SHOGI])
def test_has_legal_move_agrees_with_the_core_through_random_games(variant):
    rng = random.Random(11)
    asked = 0
    for _ in range(10):
        position = Position(variant)
        tables = tables_for(position.variant)
        for _ in range(120):
            moves = position.legal_moves()
            if not moves:
                break
            if not position.in_check():
                assert has_legal_move(tables, position), position.sfen()
                asked += 1
            position.push(rng.choice(moves))
    assert asked > 500


@pytest.mark.parametrize("variant, games, sfen", [
    ("yari", 6, None),
    ("shogi", 6, None),
    # random Wa games rarely uncover a check: this one starts where 9i8j does
    ("wa", 3, "h1l1v1wgu1o/mer1cs4d/ppp2p2f1p/4p1pkpp1/3p3p3/11/3P4P2/PPP2P1P1P1/"
              "X1U1P1Px2P/DF2KS1RME1/O2G1WVCL1H b - 51"),
])
def test_gives_check_agrees_with_the_core_on_every_move_of_random_games(variant, games, sfen):
    """`gives_check` answers most moves from its lookup tables alone and plays the rest on
    the bare board; the rules core, which plays each move in full and asks its own attack
    test, must agree on every legal move, discovered checks and promotions included. So
    must `made_check`, asked once the move is made."""
    rng = random.Random(5)
    checks = discovered = 0
    for _ in range(games):
        position = Position(variant, sfen)
        tables = tables_for(position.variant)
        for _ in range(90):
            moves = position.legal_moves()
            if not moves:
                break
            for m in moves:
                position.push(m)
                checks_in_core = position.in_check()
                assert made_check(tables, position, m) == checks_in_core, (position.sfen(), m)
                position.pop()
                assert gives_check(tables, position, m) == checks_in_core, \
                    (position.sfen(), m)
                if checks_in_core:
                    checks += 1
                    position.push(m)
                    discovered += move_to(m) not in _checking_squares(position)
                    position.pop()
            position.push(rng.choice(moves))
    assert checks > 50 and discovered > 0


def _checking_squares(position):
    """The squares of the pieces giving check to the side to move (to tell a discovered
    check from a direct one)."""
    tables = tables_for(position.variant)
    return attackers(position.board, position.kings[position.side],
                     tables.attackers[1 - position.side])


def best_exchange_on(position, to, worth):
    """What the side to move nets at best by taking on `to` (or not taking): the full tree of
    the rules core's legal captures there, no promotion."""
    best = 0
    for m in position.legal_moves():
        if move_to(m) == to and not is_drop(m) and not is_promotion(m):
            gain = worth[position.piece_at(to)]
            position.push(m)
            gain -= best_exchange_on(position, to, worth)
            position.pop()
            best = max(best, gain)
    return best


@pytest.mark.parametrize("sfen, usi, sign", [
    # captures: what they net
    ("2nk3/7/3p3/7/3R3/7/7/7/3K3 b - 1", "4e4c", -1),     # the Knight defends the Pawn
    ("3k3/7/3p3/7/3R3/7/7/7/3K3 b - 1", "4e4c", 1),       # nothing defends it
    ("2nk3/7/3p3/7/3R3/3R3/7/7/3K3 b - 1", "4e4c", -1),   # a second Rook joins from behind
    ("3k3/7/7/3p3/3P3/3R3/7/7/3K3 b - 1", "4e4d", 1),     # the Rook backs the Pawn up
    ("7/3k3/3p3/7/3R3/7/7/7/3K3 b - 1", "4e4c", -1),      # only the General defends
    ("7/3k3/3p3/7/3R3/3R3/7/7/3K3 b - 1", "4e4c", 1),     # ... and may not take back
    # quiet moves and drops: nothing at best, or what the enemy wins
    ("2n3k/7/7/7/3R3/7/7/7/3K3 b - 1", "4e4c", -1),       # onto the Knight's jump
    ("2n3k/7/7/7/3R3/7/7/7/3K3 b - 1", "4e4d", 0),        # out of its reach
    ("3k3/7/7/7/4R1r/7/7/7/3K3 b - 1", "3e5e", -1),       # off the Rook's line, into it
    ("3k3/7/7/7/7/7/7/7/3K3 b P 1", "P*4b", -1),          # the General takes the Pawn
    ("3k3/7/7/7/7/7/7/7/3K3 b R 1", "R*3b", -1),          # ... or the Rook
    ("3k3/7/7/7/7/7/7/7/3K3 b R 1", "R*3c", 0),           # out of its reach
    ("2n3k/7/7/7/7/3R3/7/7/3K3 b P 1", "P*4c", 0),        # the Rook behind takes back
])
def test_exchange_gain_matches_the_whole_exchange_tree(sfen, usi, sign):
    """The static exchange of a capture, a quiet move or a drop, held to the whole tree of
    legal captures on its square (the least valuable piece first is the best order in these
    positions); `sign` is the sign of what the move nets."""
    position = Position(YARI, sfen)
    tables = tables_for(YARI)
    m = parse_usi(YARI, usi)
    assert position.is_legal(m)
    victim = tables.worth[position.piece_at(move_to(m))]
    position.push(m)
    expected = victim - best_exchange_on(position, move_to(m), tables.worth)
    position.pop()
    assert exchange_gain(tables, position, m) == expected
    assert (expected > 0) - (expected < 0) == sign
    assert position.sfen() == sfen          # the pieces lifted on the way are back


@pytest.mark.parametrize("variant", ["yari", "shogi", "wa"])
def test_least_attacker_is_the_least_valuable_of_all_the_attackers(variant):
    """`least_attacker` keeps the least so far as it reads the lines: it names the square
    that picking the least valuable from `movegen.attackers`' list names (the first found of
    equal worth), for both colours on every square of positions of a random game."""
    variant = Position(variant).variant
    tables = tables_for(variant)
    worth = tables.exchange_worth
    attacked_squares = 0
    for position in random_game_positions(variant, 7, games=1, plies=60):
        board = position.board
        for sq in variant.squares:
            for colour in (BLACK, WHITE):
                listed = attackers(board, sq, tables.attackers[colour])
                expected = min(listed, key=lambda s: worth[board[s]], default=-1)
                assert least_attacker(tables, board, sq, colour) == expected, position.sfen()
                attacked_squares += expected >= 0
    assert attacked_squares > 1000


def _moves_played(monkeypatch, by, where=None):
    """A list that fills with the moves the search functions named in `by` play (not those
    the check and legality tests make and take back), in the position whose hash is `where`
    (any, if None), in every search set up from now on."""
    import sys

    import yariboard.engines.builtin.search as engine
    played = []
    quick = engine.make_unmake

    def recording(position):
        make, unmake = quick(position)

        def recording_make(m):
            if sys._getframe(1).f_code.co_name in by and where in (None, position.hash):
                played.append(m)
            return make(m)
        return recording_make, unmake
    monkeypatch.setattr(engine, "make_unmake", recording)
    return played


def _root_moves_searched(monkeypatch, position, depth, alpha=-100000, beta=100000,
                         pv_node=True):
    """The moves `_negamax` plays (in `_search_moves`) at the root of a depth-`depth`
    search of `position` (by default on the principal variation with the full window, so
    nothing is cut off before its turn)."""
    played = _moves_played(monkeypatch, {"_search_moves"}, where=position.hash)
    searcher = _searcher_on(position)
    del played[:]
    searcher._negamax(depth, alpha, beta, 1, evaluate_black(position), pv_node,
                      position.in_check())
    return played


def test_quiet_moves_that_lose_material_near_the_horizon_are_not_searched(monkeypatch):
    """Within LOSING_QUIET_DEPTH plies of the horizon a drop the enemy General takes for
    nothing is not played, unless it checks; one ply further out it is. (The General's
    capture on 3h is tried first: the first move is always searched.)"""
    import yariboard.engines.builtin.search as engine
    position = Position(YARI, "3k3/7/7/7/7/7/7/4p2/3K3 b R 1")
    hangs, checks_and_hangs, safe = (parse_usi(YARI, usi) for usi in ("R*3b", "R*4b", "R*3c"))
    for depth in range(1, engine.LOSING_QUIET_DEPTH + 1):
        played = _root_moves_searched(monkeypatch, position, depth)
        assert played[0] == parse_usi(YARI, "4i3h")
        assert hangs not in played
        assert checks_and_hangs in played and safe in played
        monkeypatch.undo()
    assert hangs in _root_moves_searched(monkeypatch, position, engine.LOSING_QUIET_DEPTH + 1)


def test_late_quiet_moves_near_the_horizon_are_searched_only_when_they_check(monkeypatch):
    """Outside the principal variation, within len(LATE_MOVE_COUNTS) - 1 plies of the
    horizon, at most LATE_MOVE_COUNTS[depth] quiet moves and drops are searched unless they
    check; the checking drop is searched wherever it is ordered. On the principal variation,
    or with the counts switched off, the late quiet moves are searched."""
    import yariboard.engines.builtin.search as engine
    counts = engine.LATE_MOVE_COUNTS
    position = Position(YARI, BENCH_LIKE_SFEN)
    tables = tables_for(YARI)
    checks = {m for m in position.legal_moves() if gives_check(tables, position, m)}
    assert checks

    def quiet_moves_searched(depth, pv_node, late_move_counts=counts):
        """The quiet moves and drops, checks aside, searched at the root of a null-window
        search that no move lifts to beta (so nothing is cut off before its turn)."""
        monkeypatch.setattr(engine, "LATE_MOVE_COUNTS", late_move_counts)
        alpha = evaluate(position) + 100
        played = _root_moves_searched(monkeypatch, position, depth, alpha, alpha + 1, pv_node)
        monkeypatch.undo()
        board = position.board
        assert checks <= set(played)
        return [m for m in played
                if (is_drop(m) or not (board[move_to(m)] or is_promotion(m))) and m not in checks]

    for depth in range(1, len(counts)):
        assert 0 < len(quiet_moves_searched(depth, pv_node=False)) <= counts[depth]
        assert len(quiet_moves_searched(depth, pv_node=True)) > counts[depth]
        assert len(quiet_moves_searched(depth, pv_node=False, late_move_counts=(0,))) \
            > counts[depth]


def test_captures_that_lose_the_exchange_are_tried_last():
    """Move ordering: a capture that wins comes first, one that loses the exchange after every
    quiet move (a capture that promotes is ordered as a capture: promotion is not weighed)."""
    position = Position(YARI, "2nk3/7/3p3/7/p2R3/7/7/7/3K3 b - 1")
    searcher = _Search(Engine(), position, Limit(depth=1))
    order = [m for _, m in searcher._keyed(position.legal_moves(), 0)]
    # the Pawn on 7e is undefended; 4e4c+ takes a Pawn too, and promotes
    assert set(order[:2]) == {parse_usi(YARI, "4e7e"), parse_usi(YARI, "4e4c+")}
    assert order[-1] == parse_usi(YARI, "4e4c")   # the Knight on 5a would take the Rook
    assert len(order) > 10


def test_material_counts_hand_and_promotion():
    start = Position(YARI)
    assert material_black(start) == 0
    # Black has taken a White Yari Rook (now in Black's hand) and promoted a Pawn.
    ahead = Position(YARI, "rnnkbb1/7/pppppp+P/7/7/7/PPPPPP1/7/RBBKNNR b R 1")
    # Pawn -> Yari Silver gains value, and a rook in hand is worth more than on the board.
    assert material_black(ahead) > 2 * 700


@pytest.mark.parametrize("sfen", ["3k3/7/7/7/7/7/2p4/7/3K3 b 2R2Bp 1",
                                  "3k3/7/2P4/7/7/7/7/7/3K3 w P2r2b 1",
                                  "3k3/7/7/7/7/7/+N+N+N4/7/3K3 b 2r2b 1"])
def test_quiescence_counts_king_safety_as_far_as_the_window_needs(sfen):
    """The stand-pat skips the king-safety term where it cannot matter: above the window
    the score returned is a true bound (at least beta, at most the full evaluation); below
    it, it is the full evaluation. The side to move has no capture or promotion here, so the
    stand-pat is the answer; in the last position its own General is the one in danger."""
    position = Position(YARI, sfen)
    engine = _searcher_on(position)
    full = evaluate(position)
    assert full != evaluate_black(position) * (1 if position.side == BLACK else -1)
    for beta in range(full - 2500, full + 300, 50):
        score = engine._quiesce(beta - 1, beta, 0, evaluate_black(position), 0,
                                position.in_check())
        if full >= beta:
            assert beta <= score <= full
        else:
            assert score == full


@pytest.mark.parametrize("sfen", ["3k3/7/7/7/7/7/7/7/3K3 b 2R2Bp 1",
                                  "3k3/7/7/7/7/7/7/7/3K3 w P2r2b 1"])
def test_reverse_futility_cuts_off_only_far_above_beta_near_the_horizon(sfen):
    """A null-window node within REVERSE_FUTILITY_DEPTH plies of the horizon whose judgement
    stands REVERSE_FUTILITY_MARGIN per ply above beta returns that bound without playing a
    move; one ply deeper, a little less far above beta, or on the principal variation, it is
    searched. In check it is always searched (`test_..._in_check_...` below)."""
    import yariboard.engines.builtin.search as engine
    position = Position(YARI, sfen)
    static = evaluate(position)
    depth = engine.REVERSE_FUTILITY_DEPTH
    margin = engine.REVERSE_FUTILITY_MARGIN * depth

    def search(depth, beta, pv_node=False):
        searcher = _searcher_on(position)
        score = searcher._negamax(depth, beta - 1, beta, 1, evaluate_black(position), pv_node,
                                  position.in_check())
        return score, searcher.nodes

    assert search(depth, static - margin) == (static - margin, 0)
    assert search(depth, static - margin + 1)[1] > 0
    assert search(depth + 1, static - 10 * margin)[1] > 0
    assert search(depth, static - 10 * margin, pv_node=True)[1] > 0


def test_reverse_futility_leaves_a_side_in_check_searched():
    position = Position(YARI, "3k3/7/7/7/7/7/7/3p3/3K3 b 2R2B 1")   # the Pawn gives check
    assert position.in_check()
    searcher = _searcher_on(position)
    beta = evaluate(position) - 10000
    score = searcher._negamax(1, beta - 1, beta, 1, evaluate_black(position), False,
                              position.in_check())
    assert searcher.nodes > 0 and score >= beta


WINNING_CAPTURES_SFEN = "3k3/7/7/2pr3/2P4/3R3/7/7/K6 b - 1"   # Rook takes Rook, Pawn takes Pawn


def test_quiescence_stores_its_result_and_answers_from_it():
    """Quiescence shares the hash table: its result goes in as a depth-0 entry whose bound
    is true for the window searched (here exact, with the move that won it), and the same
    position asked again is answered from it without playing a move."""
    position = Position(YARI, WINNING_CAPTURES_SFEN)
    searcher = _searcher_on(position)
    eval_black = evaluate_black(position)
    score = searcher._quiesce(-100000, 100000, 0, eval_black, 0, position.in_check())
    assert score > evaluate(position) + 500 and searcher.nodes > 0
    depth, flag, stored, move = searcher.tt[node_key(position, eval_black)]
    assert (depth, flag, stored) == (0, EXACT, score)
    assert move == parse_usi(YARI, "4f4d")          # the Rook won, not the Pawn
    searcher.nodes = 0
    assert searcher._quiesce(-100000, 100000, 0, eval_black, 0, position.in_check()) == score
    assert searcher.nodes == 0


def test_quiescence_tries_the_stored_move_first_and_keeps_a_deeper_entry(monkeypatch):
    """A move the table holds for the position is tried before the captures' own order
    (which would take the Rook first), and an entry of a deeper search, whose bound does
    not answer this window, stays as it was."""
    position = Position(YARI, WINNING_CAPTURES_SFEN)
    played = _moves_played(monkeypatch, {"_quiesce"})
    searcher = _searcher_on(position)
    del played[:]
    eval_black = evaluate_black(position)
    pawn_takes = parse_usi(YARI, "5e5d")
    deeper = (3, LOWER, -90000, pawn_takes)           # a lower bound far below the window
    key = node_key(position, eval_black)
    searcher.tt[key] = deeper
    searcher._quiesce(-100000, 100000, 0, eval_black, 0, position.in_check())
    assert played[0] == pawn_takes
    assert searcher.tt[key] == deeper


def _searcher_on(position):
    """An engine set up to search `position` from inside: nothing seen, stored or counted."""
    engine = Engine()
    engine.search(position, Limit(depth=1))   # (its king dangers set up for the variant)
    engine.tt.clear()
    searcher = _Search(engine, position, Limit(depth=1))
    searcher._seen = {}
    return searcher


def test_search_leaves_position_untouched_and_returns_legal_move():
    position = Position(YARI, BENCH_LIKE_SFEN)
    before = (position.sfen(), position.moves())
    result = Engine().search(position, Limit(depth=2))
    assert (position.sfen(), position.moves()) == before
    assert position.is_legal(result.move)
    assert result.depth == 2 and result.nodes > 0
    assert result.pv[0] == result.move


BENCH_LIKE_SFEN = "r1k2+N1/2nr3/p2b1pp/1p2p2/2p2PP/PP1p3/1BPNPN1/3B3/2RK2R b Bp 35"
# a position of a game of the engine against itself, a Knight and a Pawn in hand
HANDS_SFEN = "2r1k1r/4b2/ppp1pp1/1nnb2p/3P3/2P1P2/PP2NPP/1B1B3/2RKR2 b Np 31"


@pytest.mark.parametrize("sfen", [BENCH_LIKE_SFEN, None])
def test_aspiration_window_misses_are_searched_again(monkeypatch, sfen):
    """A window of 1 cp misses at nearly every iteration; widened again and again, the search
    still ends on the same move and score as with the full window."""
    import yariboard.engines.builtin.search as engine
    position = Position(YARI, sfen) if sfen else Position(YARI)
    monkeypatch.setattr(engine, "ASPIRATION_WINDOW", 10 ** 6)
    full = Engine().search(position, Limit(depth=5))
    monkeypatch.setattr(engine, "ASPIRATION_WINDOW", 1)
    roots = []
    search_root = _Search._search_root
    monkeypatch.setattr(_Search, "_search_root",
                        lambda self, *args: roots.append(args) or search_root(self, *args))
    narrow = Engine().search(position, Limit(depth=5))
    assert len(roots) > 5              # at least one iteration was searched again
    assert (narrow.move, narrow.score) == (full.move, full.score)


def test_time_limit_is_honoured():
    position = Position(YARI, BENCH_LIKE_SFEN)
    start = time.monotonic()
    result = Engine().search(position, Limit(time=0.3))
    elapsed = time.monotonic() - start
    assert elapsed < 0.3 + 0.5
    assert position.is_legal(result.move)
    assert result.depth >= 1
    # The principal variation is legal from the root even though a search was cut short.
    line = position.copy()
    for m in result.pv:
        assert line.is_legal(m)
        line.push(m)
    assert result.pv[0] == result.move and len(result.pv) >= 1


@pytest.mark.parametrize("variant, sfen", [(YARI, BENCH_LIKE_SFEN), (SHOGI, None)])
def test_nodes_count_each_position_searched_once(monkeypatch, variant, sfen):
    """A node is a position the search plays its way into, as a USI engine counts them (a
    node budget then means the same for both engines of a match): the count equals the moves
    the search functions make themselves, not those the legality and check tests make and
    take back, nor a second count for a position handed from the main search to quiescence."""
    plays = _moves_played(monkeypatch, {"_search_root", "_search_moves", "_quiesce"})
    result = Engine().search(Position(variant, sfen), Limit(depth=4))
    assert result.nodes > 1000
    assert result.nodes == len(plays)


@pytest.mark.parametrize("variant, sfen", [
    (YARI, BENCH_LIKE_SFEN),
    (YARI, "4kb+R/r1n1b2/pppppp1/2n4/1P5/2P1P2/P1BPNP+r/B2K3/2R1N1+p b p 35"),
    (YARI, "2nk3/3rb2/2pp1rp/pn2pp1/1pP1b2/P2B2P/1P1PPP1/R2BR2/3KNN1 b - 35"),
    (SHOGI, "ln1g3nl/1r1s1kg2/p1ppppsp1/6p1p/1p7/2P3P2/PPSPPP1PP/2G1K2R1/LN3GSNL b Bb 21"),
    ("wa", "h1l1v1wgu1o/mer1cs4d/ppp2p2f1p/4p1pkpp1/3p3p3/11/3P4P2/PPP2P1P1P1/"
           "X1U1P1Px2P/DF2KS1RME1/O2G1WVCL1H b - 51"),
])
def test_remembered_king_danger_leaves_the_search_unchanged(monkeypatch, variant, sfen):
    """The search remembers each position's king danger (`Engine._king_danger`), and
    `king_danger` the units of each arrangement around a General, in stores it empties
    together when the first is full. Counted afresh at every call instead, or remembered in
    stores of 16, the search must play the same move with the same score after the same
    nodes."""
    import yariboard.engines.builtin.search as engine
    position = Position(variant, sfen)
    remembered = Engine().search(position, Limit(depth=4))
    monkeypatch.setattr(engine, "DANGER_MAX_ENTRIES", 16)
    small = Engine()
    assert _same_search(small.search(position, Limit(depth=4)), remembered)
    assert len(small.dangers) <= 16
    assert sum(len(known) for by_king in small.known_around for known in by_king) <= 16
    monkeypatch.setattr(_Search, "_king_danger",
                        lambda self, key, colour: king_danger(self._tables, self._pos, colour))
    assert _same_search(Engine().search(position, Limit(depth=4)), remembered)


def test_king_dangers_remembered_from_move_to_move_leave_the_game_unchanged(monkeypatch):
    """The king dangers an engine remembers are the position's alone, so they stand from
    one search to the next. Over the moves of a game, an engine made to forget them before
    each search must play the same moves with the same scores after the same nodes, and
    count more of them afresh. A new game starts the stores again, and so does another
    variant (whose board they are not sized for)."""
    import yariboard.engines.builtin.search as engine
    counted = []
    count_afresh = engine.king_danger
    monkeypatch.setattr(engine, "king_danger",
                        lambda *args: counted.append(1) or count_afresh(*args))

    def game(forget):
        position = Position(YARI, BENCH_LIKE_SFEN)
        player = Engine()
        results = []
        for _ in range(4):
            if forget:
                player.dangers_of = None
            results.append(player.search(position, Limit(nodes=3000)))
            position.push(results[-1].move)
        return results, len(counted)

    kept, kept_counted = game(forget=False)
    forgotten, forgotten_counted = game(forget=True)
    assert all(_same_search(one, other) for one, other in zip(kept, forgotten))
    assert kept_counted < forgotten_counted - kept_counted

    position = Position(YARI, BENCH_LIKE_SFEN)
    start = len(counted)
    Engine().search(position, Limit(depth=3))
    fresh = len(counted) - start
    player = Engine()
    player.search(position, Limit(depth=3))
    player.new_game()
    start = len(counted)
    player.search(position, Limit(depth=3))
    assert len(counted) - start == fresh
    wa = Position("wa")
    assert _same_search(player.search(wa, Limit(depth=2)), Engine().search(wa, Limit(depth=2)))


def test_frontier_futility_judged_by_the_bound_leaves_the_search_unchanged(monkeypatch):
    """One ply from the horizon, once no quiet move can lift the score to alpha or above the
    best so far (by `_Tables.quiet_gain`), a quiet move is left out without its own score
    counted. Judged move by move instead (a bound too large ever to hold), the search must be
    the same, with more moves weighed."""
    import yariboard.engines.builtin.search as engine
    weighed = []
    weigh = engine.move_delta
    monkeypatch.setattr(engine, "move_delta", lambda *args: weighed.append(1) or weigh(*args))
    position = Position(YARI, HANDS_SFEN)
    bounded = Engine().search(position, Limit(depth=5))
    bounded_weighed = len(weighed)
    monkeypatch.setattr(tables_for(YARI), "quiet_gain", 10 ** 6)
    assert _same_search(Engine().search(position, Limit(depth=5)), bounded)
    assert len(weighed) - bounded_weighed > bounded_weighed * 1.05


def test_quiet_moves_the_generator_leaves_out_are_those_the_search_would(monkeypatch):
    """Once every quiet move left at a node is searched only if it checks (late-move pruning
    or frontier futility by the bound), `_staged` leaves out those that do not check. Handed
    every move instead, the search must be the same, with more moves handed to it; and of
    one node's moves, those left out are exactly the quiet ones that do not check."""
    import yariboard.engines.builtin.search as engine
    staged = engine._Search._staged
    handed = []

    def handing(checks_only_kept):
        def counted(self, tt_move, in_check, ply, checks_only):
            for m in staged(self, tt_move, in_check, ply,
                            checks_only if checks_only_kept else [False]):
                handed.append(m)
                yield m
        return counted
    for sfen in (BENCH_LIKE_SFEN, HANDS_SFEN):
        position = Position(YARI, sfen)
        del handed[:]
        monkeypatch.setattr(engine._Search, "_staged", handing(True))
        filtered = Engine().search(position, Limit(depth=5))
        filtered_handed = len(handed)
        monkeypatch.setattr(engine._Search, "_staged", handing(False))
        assert _same_search(Engine().search(position, Limit(depth=5)), filtered), sfen
        assert len(handed) - filtered_handed > filtered_handed * 1.1
    monkeypatch.undo()

    position = Position(YARI, BENCH_LIKE_SFEN)
    searcher = _searcher_on(position)
    searcher._killers[1] = [0, 0]        # (a killer comes with the captures, never left out)
    tables = tables_for(YARI)
    every = list(searcher._staged(0, False, 1, [False]))
    checks_only = [False]
    left = []
    for index, m in enumerate(searcher._staged(0, False, 1, checks_only)):
        left.append(m)
        checks_only[0] = index >= 3        # from the fourth move on
    board = position.board
    kept = every[:4] + [m for m in every[4:]
                        if board[m & 0xFF] or is_promotion(m) or gives_check(tables, position, m)]
    assert left == kept
    assert len(kept) < len(every) and any(not board[m & 0xFF] for m in kept[4:])


@pytest.mark.parametrize("variant", ["yari", "shogi", "wa"])
def test_no_quiet_move_or_drop_gains_more_than_the_futility_bound(variant):
    """`_Tables.quiet_gain` bounds what any move or drop that neither takes nor promotes adds
    to the evaluation, for the side that plays it: every such legal move of random games."""
    variant = Position(variant).variant
    tables = tables_for(variant)
    gains = set()
    for position in random_game_positions(variant, 7, games=3, plies=80):
        sign = 1 if position.side == BLACK else -1
        for m in position.legal_moves():
            if is_promotion(m) or not is_drop(m) and position.piece_at(move_to(m)):
                continue
            gain = sign * move_delta(tables, position, m)
            assert gain <= tables.quiet_gain, (position.sfen(), m)
            gains.add(gain)
    assert max(gains) > 0 and len(gains) > 10


def _same_search(one, other):
    return (one.move, one.score, one.nodes, one.pv) == (other.move, other.score, other.nodes,
                                                         other.pv)


def test_fixed_depth_benchmark_searches_the_same_tree_every_run():
    """`bench engine` compares versions by the nodes per CPU second of a fixed-depth
    search, which holds only if every run walks the same tree: a fresh engine each time."""
    position = Position(YARI, BENCH_LIKE_SFEN)
    nodes, seconds = engine_benchmark.fixed_depth_search(position, depth=3, runs=2)
    assert nodes == Engine().search(position, Limit(depth=3)).nodes
    assert seconds > 0


def test_the_budget_depth_benchmark_follows_one_self_play_game_per_middlegame():
    """`bench engine`'s depth at a node budget: one engine per middlegame keeps its table
    from move to move, as in a match (a fresh engine reaches other depths), and the figure
    repeats exactly."""
    depths = engine_benchmark.depths_at_budget(nodes=1000, moves=2)
    kept, fresh = [], []
    for _, sfen in engine_benchmark.MIDDLEGAMES:
        position = Position(YARI, sfen)
        engine = Engine()
        first = engine.search(position, Limit(nodes=1000))
        position.push(first.move)
        kept += [first.depth, engine.search(position, Limit(nodes=1000)).depth]
        fresh += [first.depth, Engine().search(position, Limit(nodes=1000)).depth]
    assert depths == kept
    assert kept != fresh
    assert depths == engine_benchmark.depths_at_budget(nodes=1000, moves=2)


def test_transposition_table_saves_work_on_a_second_search():
    position = Position(YARI, BENCH_LIKE_SFEN)
    engine = Engine()
    first = engine.search(position, Limit(depth=3))
    second = engine.search(position, Limit(depth=3))
    assert second.nodes < first.nodes
    assert position.is_legal(second.move)


def test_the_table_serves_a_position_sent_again_as_a_fresh_sfen():
    """A GUI may send the position to search as its SFEN alone, not as the game's moves:
    the table the engine kept from the last search must still find it. White has taken a
    Pawn: a hand's count that moved off 0 is where a position's two ways to its hash used
    to part."""
    position = Position(YARI)
    for usi in "4g4f 4c4d 4f4e 4d4e 5g5f 4e4f".split():
        position.push_usi(usi)
    engine = Engine()
    first = engine.search(position, Limit(depth=4))
    again = engine.search(Position(YARI, position.sfen()), Limit(depth=4))
    fresh = Engine().search(Position(YARI, position.sfen()), Limit(depth=4))
    assert fresh.nodes == first.nodes
    assert again.nodes * 5 < first.nodes
    assert again.move == first.move


def test_levels_map_to_depth_and_noise():
    with pytest.raises(ValueError, match="level"):
        Engine(level=0)
    position = Position(YARI)
    # Level 1 searches one ply with noise: different seeds pick different moves.
    choices = {Engine(level=1, seed=seed).search(position).move for seed in range(12)}
    assert len(choices) >= 3
    assert Engine(level=1).search(position).depth == LEVELS[1].depth
    # Without noise the choice is the same every time.
    top = LEVELS[max(LEVELS)]
    assert top.noise == 0 and top.depth > LEVELS[1].depth
    steady = {Engine(level=5, seed=seed).search(position, Limit(depth=2)).move for seed in range(3)}
    assert len(steady) == 1


def test_losing_side_steers_into_a_repetition():
    """A position seen before in the game scores as a draw, so the side far behind takes it."""
    position = Position(YARI, "rb1k1br/7/7/7/7/7/7/7/3K3 b 4p 1")
    earlier = set()
    for usi in ("4i4h", "4a4b", "4h4i", "4b4a"):  # both Generals step out and back
        earlier.add(position.hash)
        position.push_usi(usi)
    assert evaluate(position) < -1500
    result = Engine().search(position, Limit(depth=2))
    position.push(result.move)
    assert position.hash in earlier
    assert result.score == 0


# -- match results (bounded sample by default; the full count runs with -m slow) -----------

def engine_wins(opponent_class, games, depth, variant=YARI):
    wins = 0
    for game in range(games):
        engine = Engine(seed=game)
        opponent = opponent_class(seed=game)
        engine_colour = BLACK if game % 2 == 0 else WHITE
        black, white = (engine, opponent) if engine_colour == BLACK else (opponent, engine)
        outcome = play_game(black, white, variant, limit=Limit(depth=depth))
        assert outcome.reason != "illegal-move"
        wins += outcome.winner == engine_colour
    return wins


def test_beats_random_mover_sample():
    assert engine_wins(RandomPlayer, 10, depth=1) >= 10 * 95 / 100


def test_beats_greedy_player_sample():
    assert engine_wins(GreedyPlayer, 5, depth=1) >= 5 * 80 / 100


def test_beats_greedy_player_at_standard_shogi_too():
    assert engine_wins(GreedyPlayer, 2, depth=1, variant=SHOGI) == 2


@pytest.mark.slow
def test_beats_random_mover_full():
    assert engine_wins(RandomPlayer, 40, depth=2) >= 38


@pytest.mark.slow
def test_beats_greedy_player_full():
    assert engine_wins(GreedyPlayer, 20, depth=2) >= 16


@pytest.mark.parametrize("sfen, depth", [
    ("rnnk1br/4b2/pp2pp1/2pp2p/7/P6/1PPPPPP/4NNR/RBBK3 b - 9", 4),
    ("2n1bb1/rrk4/2p1+N+P1/pp1p2p/n6/P6/1PPPP1P/B6/R1B1KNR b 2P 25", 3),
])
def test_a_search_cut_short_plays_the_move_that_beat_the_last_iterations_best(sfen, depth):
    """In these positions the search to `depth` and the search one ply deeper choose
    different moves. Cut short by a node budget just before the deeper iteration ends, the
    search has already seen another move beat the last iteration's choice and plays it,
    reported as the last progress (what a GUI shows). Cut short before the deeper
    iteration has found anything better, it plays the last iteration's choice."""
    position = Position(YARI, sfen)
    shallow = Engine().search(position, Limit(depth=depth))
    deeper = Engine().search(position, Limit(depth=depth + 1))
    assert shallow.move != deeper.move
    late = deeper.nodes - 1
    early = shallow.nodes + 1
    cut = Engine()
    shown = []
    cut.on_progress = lambda side, result: shown.append(result.move)
    played = cut.search(position, Limit(nodes=late))
    assert (played.move, played.depth, played.nodes) == (deeper.move, depth, late)
    assert shown[-1] == deeper.move and shown[-2] == shallow.move
    played = Engine().search(position, Limit(nodes=early))
    assert (played.move, played.depth) == (shallow.move, depth)


def test_an_engines_own_node_budget_stands_for_a_search_given_no_limit():
    """`Engine(nodes=N)` searches as `search(position, Limit(nodes=N))` does when asked with
    no limit (the strength levels' budget), and any limit given still replaces it."""
    position = Position(YARI, BENCH_LIKE_SFEN)
    budgeted = Engine(level=8, nodes=1500).search(position)
    asked = Engine(level=8).search(position, Limit(nodes=1500))
    assert _same_search(budgeted, asked)
    assert budgeted.nodes == 1500
    own_depth = Engine(level=1, nodes=1500).search(position, Limit(depth=1))
    assert own_depth.depth == 1 and own_depth.nodes < 1500
    with pytest.raises(ValueError, match="a node budget must be at least 1, not 0"):
        Engine(nodes=0)
