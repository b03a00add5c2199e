"""`yariboard bench engine`: built-in engine speed on three Yari middlegames (nodes per CPU
second of a fixed-depth search; depth and nodes per second reached in 1 s and 5 s), the depth
it completes at a match's node budget, then its match scores against the random mover (40 games)
and the one-ply greedy player (20 games). The matches take a few minutes; each game's result
is printed as it finishes."""
import time

from shogicore.position import Position
from shogicore.variants import BLACK, WHITE, YARI

from yariboard.engines.base import Limit
from yariboard.engines.builtin.search import Engine
from yariboard.engines.players import GreedyPlayer, RandomPlayer, play_game

# Reached by seeded self-play of the engine at level 2 (35 plies from the start): one side
# ahead, one with pieces in hand (many drops), one level.
MIDDLEGAMES = (
    ("middlegame-1", "4kb+R/r1n1b2/pppppp1/2n4/1P5/2P1P2/P1BPNP+r/B2K3/2R1N1+p b p 35"),
    ("middlegame-2", "r1k2+N1/2nr3/p2b1pp/1p2p2/2p2PP/PP1p3/1BPNPN1/3B3/2RK2R b Bp 35"),
    ("middlegame-3", "2nk3/3rb2/2pp1rp/pn2pp1/1pP1b2/P2B2P/1P1PPP1/R2BR2/3KNN1 b - 35"),
)
# A fixed-depth search walks the same tree on every run, so its rate compares two versions of
# the engine; a timed search stops wherever the clock falls. Timed in CPU seconds, best of
# FIXED_DEPTH_RUNS, so other work on a shared machine counts for as little as it can.
FIXED_DEPTH = 6
FIXED_DEPTH_RUNS = 2
SEARCH_SECONDS = (1, 5)
# The depth a node budget buys: the iterations completed at 10k nodes a move (the budget the
# goal against Fairy-Stockfish is set at), over a few moves of self-play from each middlegame.
# It tells how much a change to the search narrows it, before any match is played.
BUDGET_NODES = 10000
BUDGET_MOVES = 8
MATCH_DEPTH = 2
MATCHES = ((RandomPlayer, 40), (GreedyPlayer, 20))


def fixed_depth_search(position, depth=FIXED_DEPTH, runs=FIXED_DEPTH_RUNS):
    """(nodes, CPU seconds) of a search of `position` to `depth` from an empty hash table:
    the fastest of `runs` runs."""
    fastest = None
    for _ in range(runs):
        started = time.process_time()
        result = Engine().search(position, Limit(depth=depth))
        seconds = time.process_time() - started
        fastest = seconds if fastest is None else min(fastest, seconds)
    return result.nodes, fastest


def depths_at_budget(nodes=BUDGET_NODES, moves=BUDGET_MOVES):
    """The depth each search completed, one engine per middlegame playing `moves` moves
    against itself at `nodes` a move (a position with one legal move counts depth 1, as the
    engine reports it). At fixed nodes the same every run."""
    depths = []
    for _, sfen in MIDDLEGAMES:
        position = Position(YARI, sfen)
        engine = Engine()
        for _ in range(moves):
            result = engine.search(position, Limit(nodes=nodes))
            depths.append(result.depth)
            if result.move is None:
                break
            position.push(result.move)
    return depths


def run():
    for label, sfen in MIDDLEGAMES:
        position = Position(YARI, sfen)
        nodes, seconds = fixed_depth_search(position)
        print("%s depth %d: %d nodes in %.2f CPU s, %d nodes per CPU second"
              % (label, FIXED_DEPTH, nodes, seconds, nodes / max(seconds, 1e-9)), flush=True)
        for seconds in SEARCH_SECONDS:
            result = Engine().search(position, Limit(time=seconds))
            print("%s %ds depth: %d" % (label, seconds, result.depth), flush=True)
            print("%s %ds nodes per second: %d"
                  % (label, seconds, result.nodes / max(result.seconds, 1e-9)), flush=True)
    depths = depths_at_budget()
    print("depth completed at %d nodes a move (%d moves of self-play from each middlegame): "
          "mean %.2f, from %d to %d" % (BUDGET_NODES, BUDGET_MOVES, sum(depths) / len(depths),
                                        min(depths), max(depths)), flush=True)
    for opponent_class, games in MATCHES:
        wins = draws = 0
        start = time.monotonic()
        for game in range(games):
            engine_colour = BLACK if game % 2 == 0 else WHITE
            engine, opponent = Engine(seed=game), opponent_class(seed=game)
            black, white = (engine, opponent) if engine_colour == BLACK else (opponent, engine)
            outcome = play_game(black, white, limit=Limit(depth=MATCH_DEPTH))
            wins += outcome.winner == engine_colour
            draws += outcome.winner is None
            print("vs %s game %d: %s by %s in %d plies" % (
                opponent.name, game + 1,
                "win" if outcome.winner == engine_colour else
                "draw" if outcome.winner is None else "loss",
                outcome.reason, len(outcome.moves)), flush=True)
        print("vs %s (depth %d) score: %d wins, %d draws, %d losses of %d (%.0f%%)" % (
            opponent_class.name, MATCH_DEPTH, wins, draws, games - wins - draws, games,
            100.0 * wins / games), flush=True)
        print("vs %s seconds per game: %.1f" % (
            opponent_class.name, (time.monotonic() - start) / games), flush=True)
