"""The game archive at club size: 100 000 games, listed, found, opened, exported, imported.

Budget (issue: records): listing a page, finding games by player, date, variant, result or
opening position, and opening a game each take well under a second at 100 000 games; export
and import run at least ten times faster than the 20 ms a game export took before (and the
import that replayed every move through the full list of legal moves).

The archive is built from a few hundred seeded random games (standard shogi and Yari) under
many names and dates: what is measured depends on the number of games and moves, not on
their being all different. Times are CPU seconds of this process (SQLite runs in it), the
median of a few runs, so a busy machine changes them little.
"""
import random
import statistics
import tempfile
import time

from shogicore.move import to_usi
from shogicore.position import Position
from shogicore.variants import variant_by_name
from yariboard.records import formats
from yariboard.records.archive import Archive, Query
from yariboard.records.game import GameRecord, MoveRecord, replay

GAMES = 100_000
POOL = 300            # distinct random games the archive is made of
SAMPLE = 1_000        # games exported and imported for the per-game figures
RUNS = 5
NAMES = ["player%03d" % n for n in range(400)] + ["名人", "竜王", "engine level 4"]


def random_moves(rng, variant):
    """A seeded random legal game: its USI moves and its ending, if it reached one."""
    position = Position(variant_by_name(variant))
    moves = []
    for _ in range(rng.randint(20, 120)):
        legal = position.legal_moves()
        if not legal or position.status():
            break
        move = rng.choice(legal)
        moves.append(to_usi(position.variant, move))
        position.push(move)
    return moves, position.status()


def build(path, games=GAMES, seed=1):
    """An archive of `games` games at `path`; returns the CPU seconds storing them took."""
    rng = random.Random(seed)
    pool = []
    for index in range(POOL):
        variant = "shogi" if index % 2 else "yari"
        pool.append((variant,) + random_moves(rng, variant))
    start = time.process_time()
    with Archive(path) as archive:
        for first in range(0, games, 5_000):
            batch = []
            for number in range(first, min(first + 5_000, games)):
                variant, moves, status = pool[number % POOL]
                when = 1_600_000_000 + number * 1_500           # five years of games
                stamps = [time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when + 7 * ply))
                          for ply in range(len(moves) + 1)]
                record = GameRecord(variant=variant, start_sfen=variant_by_name(variant).start_sfen,
                                    black=rng.choice(NAMES), white=rng.choice(NAMES), date=stamps[0],
                                    moves=[MoveRecord(usi, at) for usi, at in zip(moves, stamps[1:])])
                if status:
                    record.winner = "draw" if status[0] is None else ("black", "white")[status[0]]
                    record.reason = status[1]
                elif rng.random() < 0.8:
                    record.winner = ("white", "black")[len(moves) % 2]   # the side to move resigns
                    record.reason = "resignation"
                batch.append(record)
            archive.store_all(batch)
    return time.process_time() - start


def timed(action):
    """Median CPU seconds of `action()` over RUNS runs, and its last result."""
    times = []
    for _ in range(RUNS):
        start = time.process_time()
        result = action()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def run():
    with tempfile.TemporaryDirectory(prefix="yariboard-bench-archive-") as work:
        path = work + "/games.sqlite3"
        seconds = build(path)
        print("archive games: %d" % GAMES)
        print("archive build: %.1f s CPU (%.2f ms a game stored)" % (seconds, seconds / GAMES * 1000))
        with Archive(path, readonly=True) as archive:
            some = archive.game(GAMES // 2)
            opening = " ".join(some.usi_moves()[:4])
            queries = {
                "list first page": Query(),
                "list page 1000": None,
                "find player": Query(player=some.black),
                "find date (one day)": Query(since=some.date[:10], until=some.date[:10]),
                "find variant+result": Query(variant="shogi", result="black"),
                "find opening (4 moves)": Query(opening=opening),
                "find start position": Query(start=some.start_sfen, result="black"),
            }
            for name, query in queries.items():
                if query is None:
                    took, (rows, total) = timed(lambda: archive.find(Query(), 50, 50 * 999))
                else:
                    took, (rows, total) = timed(lambda: archive.find(query, 50, 0))
                print("archive %s: %.1f ms (%d of %d)" % (name, took * 1000, len(rows), total))
            took, _ = timed(lambda: replay(archive.game(GAMES // 3)))
            print("archive open a game: %.2f ms" % (took * 1000))
            ids = range(1, SAMPLE + 1)
            took, records = timed(lambda: [archive.game(i) for i in ids])
            print("archive read %d games: %.2f ms a game" % (SAMPLE, took / SAMPLE * 1000))
        shogi = [record for record in records if record.variant == "shogi"]
        for fmt in ("pgn", "json", "kif", "csa"):
            chosen = records if fmt in ("pgn", "json", "kif") else shogi
            took, text = timed(lambda: formats.export_games(chosen, fmt))
            print("archive export %s: %.2f ms a game" % (fmt, took / len(chosen) * 1000))
            if fmt == "kif":      # one game a KIF file
                texts = [formats.export_games([record], fmt) for record in chosen[:200]]
                took, _ = timed(lambda: [formats.import_games(one, fmt) for one in texts])
                print("archive import %s: %.2f ms a game" % (fmt, took / len(texts) * 1000))
            else:
                took, _ = timed(lambda: formats.import_games(text, fmt))
                print("archive import %s: %.2f ms a game" % (fmt, took / len(chosen) * 1000))
