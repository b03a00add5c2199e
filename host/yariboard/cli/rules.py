"""`yariboard legal` and `yariboard perft`: the rules core from the shell, in USI form."""
import sys

from shogicore import MoveError, Position, SfenError, variant_by_name
from shogicore.move import to_usi
from shogicore.perft import perft
from shogicore.variants import VARIANT_NAMES

# Deeper than this would run for ages (the counts grow about 30-fold a ply) and recurse
# past Python's stack: refused with a message instead.
MAX_PERFT_DEPTH = 20


def _add_position_arguments(parser):
    parser.add_argument("--variant", default="yari",
                        choices=VARIANT_NAMES,
                        help="game to play (default: yari; wa: Wa Shogi with drops, "
                             "wa-nodrops: without)")
    parser.add_argument("--sfen", help="start from this SFEN instead of the initial position")
    parser.add_argument("--moves", nargs="*", default=[], metavar="USI",
                        help="USI moves to play first, e.g. 7g7f 3c3d")


def register(subparsers):
    legal = subparsers.add_parser("legal", help="print the legal moves of a position (USI, sorted)")
    _add_position_arguments(legal)
    legal.set_defaults(func=run_legal)

    perft = subparsers.add_parser("perft", help="count move sequences to a depth (last line: nodes N)")
    perft.add_argument("depth", type=int, help="plies to look ahead")
    _add_position_arguments(perft)
    perft.add_argument("--divide", action="store_true", help="also print the count under each move")
    perft.set_defaults(func=run_perft)


def position_from_args(args):
    """The position named by --variant/--sfen/--moves; exits with a message when bad."""
    try:
        position = Position(variant_by_name(args.variant), args.sfen)
        for text in args.moves:
            position.push_usi(text)
    except (SfenError, MoveError) as e:
        sys.exit("yariboard: %s" % e)
    return position


def run_legal(args):
    position = position_from_args(args)
    for text in sorted(to_usi(position.variant, m) for m in position.legal_moves()):
        print(text)


def run_perft(args):
    position = position_from_args(args)
    if not 0 <= args.depth <= MAX_PERFT_DEPTH:
        sys.exit("yariboard: depth must be from 0 to %d, got %d" % (MAX_PERFT_DEPTH, args.depth))
    if args.divide and args.depth > 0:
        total = 0
        for m in sorted(position.legal_moves(), key=lambda m: to_usi(position.variant, m)):
            position.push(m)
            n = perft(position, args.depth - 1)
            position.pop()
            print("%s %d" % (to_usi(position.variant, m), n))
            total += n
    else:
        total = perft(position, args.depth)
    print("nodes %d" % total)
