"""The built-in engine: alpha-beta search on the shared rules core.

The rules are `shogicore`'s: the moves come from `movegen` and are played by `playmoves`,
host-only quick versions of the core's generator and make/unmake that tests hold to it (and
to independent oracles), so the engine never disagrees with the board about the rules; this
module only decides which legal move is best. The search is iterative deepening (in
aspiration windows) principal-variation search with a capture quiescence search, a
transposition table keyed by `Position.hash` (shared by both), TT-move / MVV-LVA / killer /
history move ordering over moves generated in stages (captures that lose the static
exchange last, and left out of quiescence; near the horizon, quiet moves and drops that
lose it are left out too, and so are the late ones off the principal variation), and an
evaluation of material (board and hand, promotion) plus a small piece-square term, updated
incrementally move by move, and a king-safety term counted afresh wherever a position is
judged. The judgement is `evaluation`'s, the static exchange and the check tests are
`exchange`'s, and both read the per-variant `tables`.

It follows the engine protocol of `yariboard.engines.base` (`search(position, limit)`,
`new_game()`, `close()`); see docs/engines.md.
"""
import random
import time
from dataclasses import dataclass

from shogicore.move import PROMOTION
from shogicore.position import Position
from shogicore.variants import BLACK, WHITE

from yariboard.engines.base import (MATE_BOUND, MATE_SCORE, MAX_PLY, EngineError, Limit,
                                   SearchResult, mate_plies)
from yariboard.engines.builtin.evaluation import evaluate, evaluate_black, king_danger, move_delta
from yariboard.engines.builtin.exchange import (gives_check, loses_exchange, made_check,
                                                quiet_move_loses)
from yariboard.engines.builtin.movegen import (captures_and_promotions, drop_moves, hash_move_legal,
                                               legal_moves, move_lines, own_squares, piece_moves,
                                               quiet_moves)
from yariboard.engines.builtin.playmoves import make_unmake
from yariboard.engines.builtin.tables import KING_DANGER_MAX_CP, tables_for

INFINITY = MATE_SCORE + 1
MAX_DEPTH = 64
TT_MAX_ENTRIES = 1 << 20
DANGER_MAX_ENTRIES = 1 << 18
# How often (in nodes) the clock is read: at 5-60k nodes per second (a busy machine, an idle
# one), every 1-13 ms, so a byoyomi is overshot by little more than that (`bench byoyomi`).
TIME_CHECK_NODES = 64
QUIESCENCE_MAX_PLIES = 8
FUTILITY_MARGIN = 150
# Reverse futility: this close to the horizon, a position whose own judgement stands this far
# above beta for each ply left is cut off without a search.
REVERSE_FUTILITY_DEPTH = 3
REVERSE_FUTILITY_MARGIN = 120
# Within this many plies of the horizon a quiet move or drop that loses more than this much
# material per ply left in the static exchange is not searched (unless it checks).
LOSING_QUIET_DEPTH = 3
LOSING_QUIET_MARGIN = 100
# Late-move pruning: outside the principal variation and this close to the horizon (the
# index is the plies left), a node's quiet moves and drops ordered after this many moves are
# not searched unless they check. Their order is the history's: one that never cut off
# anything this late is rarely the move that would.
LATE_MOVE_COUNTS = (0, 6, 10, 16)
# From depth 4 the root is searched in a window this wide around the last iteration's score
# (widened fourfold on each miss): most lines then end in a bound sooner.
ASPIRATION_WINDOW = 50
# The prunings of quiet moves (`_NearHorizon`) and reverse futility reach this many plies
# from the horizon.
NEAR_HORIZON = max(REVERSE_FUTILITY_DEPTH, LOSING_QUIET_DEPTH, len(LATE_MOVE_COUNTS) - 1)

EXACT, LOWER, UPPER = 0, 1, 2
KILLER_KEY = 1 << 22     # ordering keys from here up: captures, promotions, killers
PROMOTION_KEY = 1 << 23  # a promotion that takes nothing
CAPTURE_KEY = 1 << 24    # and from here up, captures


@dataclass(frozen=True)
class Level:
    """A playing strength: a depth cap, a time budget per move and root-score noise (cp)."""
    depth: int
    seconds: float
    noise: int


# Level 1 plays almost at random among sensible moves; the top level searches until time runs out.
LEVELS = {
    1: Level(depth=1, seconds=0.5, noise=400),
    2: Level(depth=1, seconds=0.5, noise=150),
    3: Level(depth=2, seconds=1.0, noise=60),
    4: Level(depth=2, seconds=1.0, noise=15),
    5: Level(depth=3, seconds=2.0, noise=0),
    6: Level(depth=4, seconds=3.0, noise=0),
    7: Level(depth=6, seconds=5.0, noise=0),
    8: Level(depth=MAX_DEPTH, seconds=10.0, noise=0),
}
DEFAULT_LEVEL = 5

class _OutOfTime(Exception):
    """Raised inside the search when the clock or the node budget runs out, or a stop was
    asked for; the last full iteration stands, or a move the unfinished one found better
    (see `Engine.search`)."""


class Engine:
    """The built-in engine. One instance keeps what it learnt between the searches of a game
    (the hash table, the history, the king dangers); each search's own state is a `_Search`."""

    name = "yariboard built-in"

    def __init__(self, level=DEFAULT_LEVEL, seed=None, nodes=None):
        """`nodes`: a node budget per move for a search given no limit, in place of the
        level's depth and time (a strength that plays the same on any machine)."""
        if level not in LEVELS:
            raise ValueError("engine level must be one of %s, not %r" % (sorted(LEVELS), level))
        if nodes is not None and nodes < 1:
            raise ValueError("a node budget must be at least 1, not %r" % nodes)
        self.level = LEVELS[level]
        self.nodes = nodes
        self.seed = seed
        self.rng = random.Random(seed)
        self.tt = {}
        self.history = {}
        self.dangers_of = None   # the variant whose king dangers are remembered
        self.dangers = self.known_around = None
        self.tt_max_entries = TT_MAX_ENTRIES
        # Hooks for a caller that shows or controls the search from outside (the USI server):
        # on_progress(side, result) after each completed iteration, score from side's view;
        # stop_event (a threading.Event) ends the search with its best move so far once set.
        self.on_progress = None
        self.stop_event = None
        self.progress = None   # the deepest finished iteration of the search in progress

    def new_game(self):
        """Forget what was learnt about the previous game's positions, and start the noise
        afresh from the seed: a seeded engine then plays each game as if it were its first,
        so a match's games repeat whichever process plays them and in whatever order."""
        self.rng.seed(self.seed)
        self.tt.clear()
        self.history.clear()
        self.dangers_of = None

    def prepare(self, variant):
        """Build now what the first search of `variant` would build before it can search
        (its tables: a few tenths of a second, far more on a busy machine), so that no move's
        clock pays for it. A GUI's `isready` is the time for it."""
        position = Position(variant)
        tables_for(position.variant)
        make_unmake(position.copy())
        legal_moves(position, False)

    def close(self):
        """Nothing to release but memory; present so every engine can be closed the same way."""
        self.tt.clear()
        self.dangers_of = None
        self.dangers = self.known_around = None

    def search(self, position, limit=None):
        """Best move for the side to move in `position` (left unchanged).

        With an empty `limit`, the engine's node budget applies, else its level's depth and
        time; with only a depth, no clock; with a time, iterative deepening until the time
        is used; a node budget caps the nodes searched, exactly (the clock is read every
        TIME_CHECK_NODES nodes).
        """
        refuse_kingless(position)
        if self.dangers_of is not position.variant:
            # the dangers are the position's alone, so they stand from move to move: the
            # next search meets most of the last one's positions and arrangements again
            self.dangers_of = position.variant
            self.dangers = {}
            self.known_around = [[{} for _ in range(position.variant.size)]
                                 for _ in (BLACK, WHITE)]
        if len(self.tt) > self.tt_max_entries:
            self.tt.clear()
        self.progress = None
        return _Search(self, position, limit or Limit()).run()


class _Search:
    """One search: the position it plays its moves on, its limits and clock, the nodes it
    has counted, its killers and the positions of the line it is in. What outlasts it (the
    hash table, the history, the king dangers) is the engine's, shared by reference."""

    def __init__(self, engine, position, limit):
        time_limit = limit.planned_seconds(position.side)
        depth, nodes = limit.depth, limit.nodes
        if limit.is_empty() and engine.nodes is not None:
            depth, nodes = MAX_DEPTH, engine.nodes
        elif limit.is_empty():
            time_limit, depth = engine.level.seconds, engine.level.depth
        elif depth is None:
            depth = MAX_DEPTH
        self.engine = engine
        self.tt, self.history = engine.tt, engine.history
        self._dangers, self._known_around = engine.dangers, engine.known_around
        self.noise, self.rng = engine.level.noise, engine.rng
        self.stop_event = engine.stop_event
        self.position = position
        self.depth = max(1, min(depth, MAX_DEPTH))
        self.time_limit = time_limit
        self.start = time.monotonic()
        self._deadline = self.start + time_limit if time_limit is not None else None
        self._node_limit = nodes
        self._set_position(position)
        self._tables = tables_for(position.variant)
        self._seen = _history_keys(self._pos)
        self._killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.nodes = 0
        self._schedule_check()
        self._overtaker = None   # a root move that beat the iteration's first: see run

    def run(self):
        """Iterative deepening to the depth, the time or the node budget: the search's
        SearchResult."""
        position, start, time_limit = self.position, self.start, self.time_limit
        root_moves = self._pos.legal_moves()
        if not root_moves:
            return SearchResult(move=None, score=-MATE_SCORE, mate=0, resign=True,
                                seconds=time.monotonic() - start)
        root_eval = evaluate_black(self._pos)
        root_key = node_key(self._pos, root_eval)
        self._seen[root_key] = 1
        entry = self.tt.get(root_key)
        root_moves = self._order(root_moves, entry[3] if entry else 0, 0)
        best = None
        for iteration in range(1, self.depth + 1):
            self._overtaker = None
            try:
                score, move = self._aspirated(root_moves, iteration, root_eval, best)
            except _OutOfTime:
                self._set_position(position)   # the interrupted line is left on the board
                if best is not None and self._overtaker is not None:
                    # A later root move beat the last iteration's choice, both searched at
                    # the new depth: the deeper search found that choice wanting. (The
                    # iteration a budget cuts short holds most of its nodes: each ply costs
                    # about three times the one before.)
                    score, move = self._overtaker
                    best = self._found(move, score, best.depth, start)
                break
            root_moves.remove(move)
            root_moves.insert(0, move)
            best = self._found(move, score, iteration, start)
            mate = best.mate
            if mate is not None and abs(mate) <= iteration:
                break  # a mate within the full-width horizon cannot get shorter
            if len(root_moves) == 1:
                break
            if self._deadline is not None and time.monotonic() - start > 0.5 * time_limit:
                break  # the next iteration would not finish in time
        if best is None:
            # Not even depth 1 finished: play the first ordered move rather than nothing.
            best = SearchResult(move=root_moves[0], score=evaluate(self._pos))
        best.nodes = self.nodes
        best.pv = self._principal_variation(best.move, best.depth)
        best.seconds = time.monotonic() - start
        return best

    def _found(self, move, score, depth, start):
        """The search's choice so far, shown to a host watching it while it runs."""
        best = SearchResult(move=move, score=score, mate=mate_plies(score), depth=depth,
                            nodes=self.nodes)
        self.engine.progress = best
        if self.engine.on_progress is not None:
            self._report(best, start)
        return best

    def _set_position(self, position):
        """Search a copy of `position`, played by the quick make and unmake (`playmoves`)."""
        self._pos = position.copy()
        self._make, self._unmake = make_unmake(self._pos)

    def _report(self, best, start):
        progress = SearchResult(move=best.move, score=best.score, mate=best.mate,
                                depth=best.depth, nodes=self.nodes,
                                pv=self._principal_variation(best.move, best.depth),
                                seconds=time.monotonic() - start)
        self.engine.on_progress(self._pos.side, progress)

    def _count_node(self):
        """A node is a position the search plays its way into, counted at the move as a USI
        engine counts them (a node budget then means the same for both engines of a match;
        a re-search of the same child is not a new node). The limits are checked every
        TIME_CHECK_NODES nodes, and at the node budget itself."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check_limits()

    def _check_limits(self):
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise _OutOfTime()
        if self._node_limit is not None and self.nodes >= self._node_limit:
            raise _OutOfTime()
        if self.stop_event is not None and self.stop_event.is_set():
            raise _OutOfTime()
        self._schedule_check()

    def _schedule_check(self):
        """The node count at which the limits are next checked: TIME_CHECK_NODES on, or the
        node budget if it comes first (it is spent to the node, as the other engine of a
        match spends it)."""
        self._next_check = self.nodes + TIME_CHECK_NODES
        if self._node_limit is not None:
            self._next_check = min(self._next_check, self._node_limit)

    # -- search ---------------------------------------------------------------------------

    def _aspirated(self, moves, depth, root_eval, previous):
        """The root searched in a window around the previous iteration's score, widened
        when the score falls outside it. Not with noise (every root move needs its exact
        score) nor once the game is decided (scores past 2000 cp, mates), where the score
        moves too far between iterations for a window to pay."""
        if previous is None or depth < 4 or self.noise or abs(previous.score) >= 2000:
            return self._search_root(moves, depth, root_eval, -INFINITY, INFINITY)
        width = ASPIRATION_WINDOW
        alpha, beta = previous.score - width, previous.score + width
        while True:
            score, move = self._search_root(moves, depth, root_eval, alpha, beta)
            if score <= alpha:
                alpha = -INFINITY if width > 1000 else score - 4 * width
            elif score >= beta:
                beta = INFINITY if width > 1000 else score + 4 * width
            else:
                return score, move
            width *= 4

    def _search_root(self, moves, depth, root_eval, alpha, beta):
        pos = self._pos
        tables = self._tables
        noise = self.noise
        alpha_start = alpha
        best_choice, best_score, best_move = -INFINITY, -INFINITY, moves[0]
        make, unmake = self._make, self._unmake
        for index, m in enumerate(moves):
            child_eval = root_eval + move_delta(tables, pos, m)
            captured = make(m)
            checks = made_check(tables, pos, m)
            self._count_node()
            if index == 0 or noise:
                # With noise every root move needs its exact score, not just a bound.
                score = -self._negamax(depth - 1, -beta, -alpha, 1, child_eval, True, checks)
            else:
                score = -self._negamax(depth - 1, -alpha - 1, -alpha, 1, child_eval, False,
                                       checks)
                if alpha < score < beta:
                    score = -self._negamax(depth - 1, -beta, -score, 1, child_eval, True,
                                           checks)
            unmake(m, captured)
            choice = score
            if noise and abs(score) < MATE_BOUND:
                choice += self.rng.randint(0, noise)
            if choice > best_choice:
                best_choice, best_score, best_move = choice, score, m
                if not noise and score > alpha:
                    if index:
                        self._overtaker = score, m   # beat the first move: see search
                    alpha = score
                    if alpha >= beta:
                        break
        if alpha_start < best_score < beta:
            self._store(node_key(pos, root_eval), depth, EXACT, best_score, best_move, 0)
        return best_score, best_move

    def _negamax(self, depth, alpha, beta, ply, eval_black, pv_node, in_check):
        """`in_check`: is the side to move in check? The move that led here knew it."""
        pos = self._pos
        key = pos.hash + (eval_black << 32)   # node_key, written out: it runs at every node
        seen = self._seen
        if key in seen:
            return 0  # a repeated position: the cycle leads nowhere, count it as a draw
        entry = self.tt.get(key)
        tt_move = 0
        if entry is not None:
            tt_depth, flag, tt_score, tt_move = entry
            if tt_depth >= depth and not pv_node:
                tt_score = _score_from_tt(tt_score, ply)
                if _settles(flag, tt_score, alpha, beta):
                    return tt_score
        if in_check and ply < MAX_PLY // 2:
            depth += 1
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, eval_black, 0, in_check)
        if ply >= MAX_PLY:
            return eval_black if pos.side == BLACK else -eval_black
        if tt_move and not hash_move_legal(pos, tt_move, in_check):
            tt_move = 0          # another position with the same key stored it
        near = None
        if depth <= NEAR_HORIZON and not in_check:
            if not pv_node:
                bound = self._reverse_futility(key, eval_black, depth, beta)
                if bound is not None:
                    return bound
            near = _NearHorizon(self, key, eval_black, depth, pv_node)
        seen[key] = 1
        best_score, best_move, moved = self._search_moves(depth, alpha, beta, ply, eval_black,
                                                          pv_node, in_check, tt_move, near)
        del seen[key]
        if not moved:
            return -MATE_SCORE + ply  # no legal move loses, in check or not
        self._store(key, depth, _bound_type(best_score, alpha, beta), best_score,
                    best_move, ply)
        return best_score

    def _search_moves(self, depth, alpha, beta, ply, eval_black, pv_node, in_check, tt_move,
                      near):
        """`_negamax`'s moves searched in turn (as `_staged` hands them, left out as `near`
        decides) until one cuts the node off: (best score, best move, whether any move was
        there to search)."""
        pos = self._pos
        best_score, best_move = -INFINITY, 0
        board = pos.board
        tables = self._tables
        make, unmake = self._make, self._unmake
        index = -1
        # set once every quiet move left is searched only if it checks
        checks_only = near.checks_only if near is not None else [False]
        for index, m in enumerate(self._staged(tt_move, in_check, ply, checks_only)):
            quiet = not m & 0xFF00 or not (board[m & 0xFF] or m & PROMOTION)
            checks = child_eval = None
            if quiet and index and near is not None:
                if near.leaves_out(m, index, best_score, alpha):
                    if near.lent > best_score:
                        best_score = near.lent
                    continue
                checks, child_eval = near.checks, near.child_eval
            if child_eval is None:   # (a move left out above needs it only for futility)
                child_eval = eval_black + move_delta(tables, pos, m)
            captured = make(m)
            if checks is None:
                checks = made_check(tables, pos, m)
            self._count_node()
            if index == 0:
                score = -self._negamax(depth - 1, -beta, -alpha, ply + 1, child_eval, pv_node,
                                       checks)
            else:
                score = self._late_score(index, depth, alpha, beta, ply, child_eval, pv_node,
                                         checks, quiet and not in_check)
            unmake(m, captured)
            if score > best_score:
                best_score, best_move = score, m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if quiet:
                            self._remember_cutoff(m, ply, depth)
                        break
        return best_score, best_move, index >= 0

    def _late_score(self, index, depth, alpha, beta, ply, child_eval, pv_node, checks,
                    reducible):
        """The score of a move after the node's first, just made: searched with a null
        window, a ply shallower if it is a late quiet move far enough from the horizon
        (`reducible`: quiet, and not an evasion), and searched again in full where it rises
        above alpha after a reduction or on the principal variation."""
        reduction = 1 if reducible and depth >= 3 and index >= 4 else 0
        score = -self._negamax(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1,
                               child_eval, False, checks)
        if score > alpha and (reduction or (pv_node and score < beta)):
            score = -self._negamax(depth - 1, -beta, -alpha, ply + 1, child_eval, pv_node,
                                   checks)
        return score

    def _reverse_futility(self, key, eval_black, depth, beta):
        """The bound a node off the principal variation, not in check, is cut off with
        unsearched, or None. A position judged this far above beta this close to the
        horizon almost always fails high (the side to move still has its move to play). What
        is missed is a threat of the opponent's that the judgement does not see and the few
        plies left would. The danger to the enemy's General comes first: without it added
        the bound mostly falls short, and then the own General's is not needed here. (The
        dangers judged are remembered, for frontier futility to read again.)"""
        if depth > REVERSE_FUTILITY_DEPTH or abs(beta) >= MATE_BOUND:
            return None
        side = self._pos.side
        sign = 1 if side == BLACK else -1
        bound = sign * eval_black + self._king_danger(key, 1 - side) \
            - REVERSE_FUTILITY_MARGIN * depth
        if bound < beta:
            return None
        bound -= self._king_danger(key, side)
        return bound if bound >= beta else None

    def _remember_cutoff(self, m, ply, depth):
        """The quiet move `m` cut its node off: a killer at this ply, and its history grows."""
        killers = self._killers[ply]
        if killers[0] != m:
            killers[1] = killers[0]
            killers[0] = m
        self.history[m] = self.history.get(m, 0) + depth * depth

    def _quiesce(self, alpha, beta, ply, eval_black, qply, in_check):
        """Resolve captures so a position is never judged in the middle of an exchange.
        `in_check`: is the side to move in check? (The move that led here knew it.)

        It shares the hash table with the main search: the same exchanges are reached
        again and again, through other move orders and at each depth, and a bound found
        once (or any deeper search's) answers them; where it does not, the stored move is
        tried first."""
        pos = self._pos
        tables = self._tables
        key = pos.hash + (eval_black << 32)     # node_key, written out
        entry = self.tt.get(key)
        tt_move = 0
        if entry is not None:
            _, flag, tt_score, tt_move = entry
            tt_score = _score_from_tt(tt_score, ply)
            if _settles(flag, tt_score, alpha, beta):
                return tt_score
        # In check the score comes from the evasions: no standing pat to judge.
        stand = eval_black if pos.side == BLACK else -eval_black
        if not in_check:
            stand = self._stand_pat(key, stand, beta)
        if ply >= MAX_PLY:
            return stand
        if in_check:
            moves = legal_moves(pos, True)   # every evasion, blocking drops included
            if not moves:
                return -MATE_SCORE + ply
            candidates = self._order(moves, tt_move, ply)
            best = -INFINITY
        else:
            if stand >= beta or qply >= QUIESCENCE_MAX_PLIES:
                return stand
            if stand > alpha:
                alpha = stand
            # (a promotion that takes nothing is not judged here)
            moves = captures_and_promotions(pos, False, quiet_promotions=False)
            if not moves and not has_legal_move(tables, pos):
                return -MATE_SCORE + ply  # no legal move at all loses, as in _negamax
            candidates = self._worth_taking(moves, stand, alpha, tt_move)
            if not candidates:
                return stand   # nothing worth taking: most nodes that get this far
            best = stand
        alpha_start = alpha
        best_move = 0
        make, unmake = self._make, self._unmake
        for m in candidates:
            child_eval = eval_black + move_delta(tables, pos, m)
            captured = make(m)
            checks = made_check(tables, pos, m)
            self._count_node()
            score = -self._quiesce(-beta, -alpha, ply + 1, child_eval, qply + 1, checks)
            unmake(m, captured)
            if score > best:
                best, best_move = score, m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if entry is None or entry[0] <= 0:   # a deeper search's entry is worth more
            self._store(key, 0, _bound_type(best, alpha_start, beta), best, best_move, ply)
        return best

    def _stand_pat(self, key, stand, beta):
        """The score of standing pat in quiescence (not in check), from `stand`, the side to
        move's material and placing: with both Generals' dangers, or less where that is
        already at least beta. The king-safety term is the costliest part of judging a
        position, and most positions here are far above beta: it is counted only as far as
        needed."""
        if stand - KING_DANGER_MAX_CP >= beta:
            return stand - KING_DANGER_MAX_CP   # no danger to the own General is that large
        side = self._pos.side
        stand -= self._king_danger(key, side)
        if stand >= beta:
            return stand                        # the enemy's danger would only add
        return stand + self._king_danger(key, 1 - side)

    def _worth_taking(self, moves, stand, alpha, tt_move):
        """The captures among `moves` quiescence tries, the hash move first, then by
        MVV-LVA: a capture that promotes, or one that may lift the score from `stand` to
        alpha without losing the exchange."""
        tables = self._tables
        pos = self._pos
        worth = tables.worth
        board = pos.board
        scored = []
        for m in moves:
            victim = board[m & 0xFF]
            if victim:
                gain = worth[victim]
                if not m & PROMOTION:
                    if stand + gain + 200 < alpha:
                        continue  # even winning the piece cannot lift the score to alpha
                    if loses_exchange(tables, pos, m):
                        continue  # the exchange on that square loses material
                scored.append((gain * 16 - worth[board[m >> 8 & 0xFF]] // 16, m))
        scored.sort(reverse=True)
        candidates = [m for _, m in scored]
        if tt_move in candidates:
            candidates.remove(tt_move)
            candidates.insert(0, tt_move)
        return candidates

    def _king_danger(self, key, colour):
        """`king_danger` of `colour` in the search's position, whose `node_key` is `key`.
        Remembered from search to search: iterative deepening judges the same positions
        again at each depth (about a quarter of the calls), the next move's search meets
        them again, and the term is the costliest part of the evaluation. (Where it is
        counted, it is often read from what `king_danger` knows: most moves leave the pieces
        around a General as they were.)"""
        key = key << 1 | colour
        danger = self._dangers.get(key)
        if danger is None:
            if len(self._dangers) >= DANGER_MAX_ENTRIES:
                self._forget_dangers()   # full: start again rather than grow
            danger = king_danger(self._tables, self._pos, colour, self._known_around[colour])
            self._dangers[key] = danger
        return danger

    def _forget_dangers(self):
        """Empty the dangers remembered by position, and `king_danger`'s `known` for each
        colour (in place: they are the engine's). Each danger counted adds at most one
        arrangement to `known`, so the two stores together hold at most DANGER_MAX_ENTRIES
        of each."""
        self._dangers.clear()
        for by_king in self._known_around:
            for known in by_king:
                known.clear()

    def _king_safety_black(self, key):
        """`king_safety_black` of the search's position, from the remembered dangers."""
        return self._king_danger(key, WHITE) - self._king_danger(key, BLACK)

    def _staged(self, tt_move, in_check, ply, checks_only):
        """The moves of the node in the order they are tried, each stage built only when
        the one before has not cut the node off: the hash move, before anything is
        generated; then the captures and promotions, and the killers that are legal here;
        then the other board moves and the drops together, by history, and the captures
        that lose the exchange. (The order of `_keyed`, with each capture's exchange counted
        only when its turn comes. Most nodes are cut off by the hash move or a capture:
        their quiet moves, most of the moves, are never built.)

        Once the search sets `checks_only[0]` (every quiet move left would be left out
        unless it checks: late-move pruning, or frontier futility by its bound), the quiet
        moves and drops still to come that do not check are not handed to it."""
        pos = self._pos
        if tt_move:
            yield tt_move
        if in_check:
            for _, m in self._keyed(legal_moves(pos, True), ply):
                if m != tt_move:
                    yield m
            return
        tables = self._tables
        first, killers = self._captures_and_killers(tt_move, ply)
        rest = []
        for key, m in first:
            if m == tt_move:
                continue
            if key >= CAPTURE_KEY:
                loss = loses_exchange(tables, pos, m)
                if loss:
                    rest.append((loss - 1, m))   # its key in `_keyed`
                    continue
            yield m
        yield from self._quiet_stage(rest, tt_move, killers, checks_only)

    def _captures_and_killers(self, tt_move, ply):
        """`_staged`'s second stage, keyed and best first: the captures and promotions, and
        the killers of `ply` that are legal here (the killers too, for the last stage to
        leave out)."""
        pos = self._pos
        board = pos.board
        worth = self._tables.worth
        first = [(_capture_key(worth, board, m) if board[m & 0xFF] else PROMOTION_KEY, m)
                 for m in captures_and_promotions(pos, False)]
        killer, second_killer = self._killers[ply]
        # a killer is a quiet board move (or a drop, ordered by history as the others) that
        # cut off a sibling: it must be checked legal here
        killers = [m for m in (killer, second_killer)
                   if m & 0xFF00 and m != tt_move and not board[m & 0xFF]
                   and hash_move_legal(pos, m, False)]
        first.extend([(KILLER_KEY + (m == killer), m) for m in killers])
        first.sort(reverse=True)
        return first, killers

    def _quiet_stage(self, rest, tt_move, killers, checks_only):
        """`_staged`'s last stage: the quiet moves and drops by history, with the captures
        that lose the exchange (`rest`, keyed) among them; those that do not check left out
        once `checks_only[0]` is set."""
        pos = self._pos
        board = pos.board
        tables = self._tables
        history = self.history.get
        rest.extend([(history(m, 0), m) for m in quiet_moves(pos)])
        rest.extend([(history(m, 0), m) for m in drop_moves(pos)])
        rest.sort(reverse=True)
        for _, m in rest:
            if m != tt_move and m not in killers:
                if checks_only[0] and not board[m & 0xFF] and not gives_check(tables, pos, m):
                    continue   # a quiet move the search would leave out
                yield m

    def _order(self, moves, tt_move, ply):
        """`moves` in the order they are tried: the TT move first, then as `_keyed`."""
        ordered = [m for _, m in self._keyed(moves, ply)]
        if tt_move in ordered:
            ordered.remove(tt_move)
            ordered.insert(0, tt_move)
        return ordered

    def _keyed(self, moves, ply):
        """(key, move) pairs, best first: captures by MVV-LVA, promotions, killers, then by
        history, and last the captures that lose material in the exchange. (The move's bits
        are read in place: this runs over every move of the root and of the nodes in check.)"""
        pos = self._pos
        board = pos.board
        tables = self._tables
        worth = tables.worth
        killer, second_killer = self._killers[ply]
        history = self.history.get
        keyed = []
        append = keyed.append
        for m in moves:
            if not m & 0xFF00:                            # a drop
                key = history(m, 0)
            else:
                victim = board[m & 0xFF]
                if victim:
                    loss = loses_exchange(tables, pos, m)
                    # a losing capture: after every quiet move
                    key = loss - 1 if loss else _capture_key(worth, board, m)
                elif m & PROMOTION:
                    key = PROMOTION_KEY
                elif m == killer:
                    key = KILLER_KEY + 1
                elif m == second_killer:
                    key = KILLER_KEY
                else:
                    key = history(m, 0)
            append((key, m))
        keyed.sort(reverse=True)
        return keyed

    def _store(self, key, depth, flag, score, move, ply):
        self.tt[key] = (depth, flag, _score_to_tt(score, ply), move)

    def _principal_variation(self, first, length):
        """Follow the hash table from the root, each move re-checked by the rules core."""
        pos = self._pos
        line = []
        seen = set()
        m = first
        while m and len(line) < max(length, 1) and pos.is_legal(m) and pos.hash not in seen:
            seen.add(pos.hash)
            line.append(m)
            pos.push(m)
            entry = self.tt.get(node_key(pos, evaluate_black(pos)))
            m = entry[3] if entry else 0
        for _ in line:
            pos.pop()
        return line


class _NearHorizon:
    """A node's three prunings of its quiet moves and drops near the horizon, each unless the
    move checks (the checks are the sacrifices that can mate), so the check is tested once,
    last: late-move pruning; frontier futility; and a move that gives the enemy material for
    nothing. The first and last keep a move while every move so far is mated (it may be the
    one defence). Made for a node not in check within NEAR_HORIZON plies of the horizon."""

    __slots__ = ("search", "key", "eval_black", "sign", "frontier", "late_from",
                 "losing_margin", "king_safety", "ceiling", "checks_only", "checks",
                 "child_eval", "lent")

    def __init__(self, search, key, eval_black, depth, pv_node):
        self.search, self.key, self.eval_black = search, key, eval_black
        self.sign = 1 if search._pos.side == BLACK else -1
        # Frontier futility: one ply from the horizon, a quiet move that leaves the score
        # far below alpha cannot raise it (the reply's quiescence would stand pat) unless
        # it checks; skipping it saves a make, an unmake and a node.
        self.frontier = depth == 1 and not pv_node
        # Late-move pruning starts after this many moves (never on the principal
        # variation); a quiet move losing more than this much material is left out (0: not
        # this far from the horizon).
        self.late_from = LATE_MOVE_COUNTS[depth] \
            if not pv_node and depth < len(LATE_MOVE_COUNTS) else INFINITY
        self.losing_margin = LOSING_QUIET_MARGIN * depth if depth <= LOSING_QUIET_DEPTH else 0
        # The king-safety term (Black's side), counted once frontier futility first needs it.
        self.king_safety = None
        # Set once every quiet move left is searched only if it checks: `_staged` then
        # leaves out those that do not.
        self.checks_only = [False]

    def leaves_out(self, m, index, best_score, alpha):
        """Is the quiet move `m`, the node's `index`-th, left out? If so, `lent` is the score
        it lends the node (a futile move's bound; -INFINITY for none); if not, `checks` and
        `child_eval` are what was learnt of it on the way (None where not learnt)."""
        search = self.search
        tables, pos = search._tables, search._pos
        self.checks = self.child_eval = None
        self.lent = -INFINITY
        late = index >= self.late_from and best_score > -MATE_BOUND
        futile = False
        if late:
            # so is every later quiet move. (A late move has no score of its own to lend
            # the node, futile or not.)
            self.checks_only[0] = True
        elif self.frontier:
            # a quiet move hardly changes the king safety: the parent's stands for the
            # child's.
            if self.king_safety is None:
                self.king_safety = search._king_safety_black(self.key)
                self.ceiling = self.sign * (self.eval_black + self.king_safety) \
                    + tables.quiet_gain
            if self.ceiling <= best_score and self.ceiling + FUTILITY_MARGIN <= alpha:
                # no quiet move can lift the score to alpha, nor above the best so far:
                # neither this move's own score is needed, nor any later one's
                futile = self.checks_only[0] = True
                after = self.ceiling
            else:
                self.child_eval = self.eval_black + move_delta(tables, pos, m)
                after = self.sign * (self.child_eval + self.king_safety)
                futile = after + FUTILITY_MARGIN <= alpha
        if not (late or futile or best_score > -MATE_BOUND and self.losing_margin
                and quiet_move_loses(tables, pos, m, self.losing_margin)):
            return False
        self.checks = gives_check(tables, pos, m)
        if self.checks:
            return False
        if futile:
            self.lent = after
        return True


def refuse_kingless(position):
    """The engine judges every position by both Generals: a set-up position where a side has
    none (a tsume problem's attacker, which the rules core accepts) is refused in one line."""
    if not all(position.kings):
        raise EngineError("the built-in engine needs both Generals on the board; "
                          "this position has a side without one")


def has_legal_move(tables, position):
    """Has the side to move, not in check, a legal move? Asked in quiescence wherever
    nothing can be taken: almost always yes, and a piece off every line to its own General
    (so not pinned) with a square to go to says so at once; else the core decides."""
    board = position.board
    side = position.side
    enemy = 1 - side
    king = position.kings[side]
    on_line = tables.on_ray[enemy][king]
    lines = move_lines(position.variant, side)
    moves = []
    for sq in own_squares(board, side):
        if sq != king and not on_line[sq]:
            piece_moves(lines, board, sq, enemy, moves)
            if moves:
                return True
    return bool(position.legal_moves(first_only=True))


def _capture_key(worth, board, m):
    """The ordering key of the capture `m`: most valuable victim first, and of those the
    least valuable attacker."""
    return CAPTURE_KEY + worth[board[m & 0xFF]] * 16 - worth[board[m >> 8 & 0xFF]] // 16


def _bound_type(score, alpha_start, beta):
    """What a node's score is, for the hash table: a lower bound (it failed high), exact,
    or an upper bound (nothing rose above the window's `alpha_start`)."""
    if score >= beta:
        return LOWER
    return EXACT if score > alpha_start else UPPER


def _settles(flag, score, alpha, beta):
    """Does a stored score of this bound type answer a node searched in (alpha, beta)?"""
    return (flag == EXACT or (flag == LOWER and score >= beta)
            or (flag == UPPER and score <= alpha))


def _score_to_tt(score, ply):
    """Mate scores are stored relative to the node, so they stay right from any path."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _score_from_tt(score, ply):
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score


def node_key(position, eval_black):
    """Transposition and repetition key: `Position.hash` (board, hands, side to move; about
    30 bits, sized for the Pico) widened by the evaluation, which is itself a function of the
    position, so that two positions sharing a hash are still told apart almost always."""
    return position.hash + (eval_black << 32)


def _history_keys(position):
    """Keys of the positions of the game so far: reaching one again in the search ends the
    line as a draw."""
    earlier = position.copy()
    seen = {}
    for _ in range(len(earlier.moves())):
        earlier.pop()
        seen[node_key(earlier, evaluate_black(earlier))] = 1
    return seen

