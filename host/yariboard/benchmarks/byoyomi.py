"""`yariboard bench byoyomi`: how far past a 1 s byoyomi `yariboard usi` answers, driven as a
GUI drives it (each move timed from its `go` to its `bestmove`), while other processes keep
every core busy: a GUI or a CSA server scores any answer past the byoyomi as a loss on time.
Self-play from the start, a fresh engine process for each game (its first move included),
Yari and standard shogi in turn. Prints the worst overshoot, the first moves' worst, and how
many moves went over."""
import os
import subprocess
import sys

from shogicore.position import Position

from yariboard.engines.base import Limit
from yariboard.engines.match import open_builtin

BYOYOMI_SECONDS = 1.0
MOVES = 240
PLIES_PER_GAME = 40
VARIANTS = ("yari", "shogi")
# Busy processes, one a core: the engine competes for a core as on a loaded machine.
LOADERS = os.cpu_count() or 2


def play_timed_game(variant, plies):
    """The seconds from `go` to `bestmove` of each move of one self-play game."""
    position = Position(variant)
    times = []
    limit = Limit(black_clock=0, white_clock=0, byoyomi=BYOYOMI_SECONDS)
    with open_builtin(variant, None) as engine:
        while len(times) < plies and position.status() is None:
            result = engine.search(position, limit)
            times.append(result.seconds)
            if result.move is None:
                break
            position.push(result.move)
    return times


def run():
    loaders = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
               for _ in range(LOADERS)]
    try:
        times, firsts, game = [], [], 0
        while len(times) < MOVES:
            played = play_timed_game(VARIANTS[game % len(VARIANTS)],
                                     min(PLIES_PER_GAME, MOVES - len(times)))
            firsts.append(played[0])
            times.extend(played)
            game += 1
    finally:
        for loader in loaders:
            loader.kill()
            loader.wait()
    over = [seconds - BYOYOMI_SECONDS for seconds in times]
    print("byoyomi %g s, %d moves in %d games, %d busy processes beside the engine"
          % (BYOYOMI_SECONDS, len(times), game, LOADERS))
    print("worst overshoot: %+d ms (a move taking %.3f s)"
          % (max(over) * 1000, max(times)))
    print("worst overshoot of a game's first move: %+d ms" % ((max(firsts) - BYOYOMI_SECONDS)
                                                              * 1000))
    print("moves past the byoyomi: %d of %d" % (sum(1 for o in over if o > 0), len(over)))
    print("mean time per move: %.3f s" % (sum(times) / len(times)))
