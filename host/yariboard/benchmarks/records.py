"""Record files: export and import of each format, CPU milliseconds a game.

The archive benchmark prints the same figures after building a 100 000-game archive; this one
measures only the formats, on the same kind of games (seeded random standard shogi and Yari
games of 20 to 120 moves, as the archive is made of), so a change to a reader or a writer is
measured in seconds. Budget (issue 51): export and import at least ten times faster than
before the records work (commit 507eaa1: PGN 8.3, KIF 7.2, CSA 7.8 ms a game exported).
Times are CPU seconds of this process, the median of a few runs (archive.timed).
"""
import random
import time

from shogicore.variants import variant_by_name
from yariboard.benchmarks.archive import random_moves, timed
from yariboard.records import formats
from yariboard.records.game import GameRecord, MoveRecord

GAMES = 200
# Formats a whole file of games is read from; the others hold one game a file.
MANY_A_FILE = ("pgn", "json", "csa")
# Formats that write Yari games; the others are read and written for standard shogi only.
BOTH_VARIANTS = ("pgn", "json", "kif")
ORDER = ("pgn", "json", "kif", "ki2", "csa", "jkf")


def random_game(rng, variant, number):
    """A seeded random legal game with its ending (a resignation when the board shows none)."""
    moves, status = random_moves(rng, variant)
    when = 1_600_000_000 + number * 1_500
    stamps = [time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when + 7 * ply))
              for ply in range(len(moves) + 1)]
    record = GameRecord(variant=variant, start_sfen=variant_by_name(variant).start_sfen,
                        black="player%03d" % rng.randrange(400), white="名人", date=stamps[0],
                        moves=[MoveRecord(usi, at) for usi, at in zip(moves, stamps[1:])])
    if status:
        record.winner = "draw" if status[0] is None else ("black", "white")[status[0]]
        record.reason = status[1]
    else:
        record.winner = ("white", "black")[len(moves) % 2]   # the side to move resigns
        record.reason = "resignation"
    return record


def games(count=GAMES, seed=1):
    rng = random.Random(seed)
    return [random_game(rng, "shogi" if number % 2 else "yari", number) for number in range(count)]


def run():
    records = games()
    shogi = [record for record in records if record.variant == "shogi"]
    for fmt in ORDER:
        chosen = records if fmt in BOTH_VARIANTS else shogi
        if fmt in MANY_A_FILE:
            took, text = timed(lambda: formats.export_games(chosen, fmt))
            print("records export %s: %.2f ms a game" % (fmt, took / len(chosen) * 1000))
            took, _ = timed(lambda: formats.import_games(text, fmt))
        else:
            took, texts = timed(lambda: [formats.export_games([record], fmt) for record in chosen])
            print("records export %s: %.2f ms a game" % (fmt, took / len(chosen) * 1000))
            took, _ = timed(lambda: [formats.import_games(one, fmt) for one in texts])
        print("records import %s: %.2f ms a game" % (fmt, took / len(chosen) * 1000))
