"""Independent rules oracles and seeded random games shared by the rules tests.

pyffish (Fairy-Stockfish) judges Yari Shogi; python-shogi judges standard shogi.
"""
import random

import pyffish
import shogi

from shogicore import Position, variant_by_name
from shogicore.move import is_drop, is_promotion, to_usi
from yariboard.engines.fsf_notation import sfen_to_fsf, uci_to_usi, usi_to_uci


def fsf_legal_usi(variant, start_sfen, usi_moves):
    """Fairy-Stockfish's legal moves, translated to USI."""
    fen = sfen_to_fsf(start_sfen)
    uci = [usi_to_uci(variant, m) for m in usi_moves]
    return set(uci_to_usi(variant, m) for m in pyffish.legal_moves("yarishogi", fen, uci))


def python_shogi_legal(board):
    return set(m.usi() for m in board.legal_moves)


def pick(rng, position, moves):
    """A random move, biased towards drops, promotions and captures so games get varied."""
    roll = rng.random()
    drops = [m for m in moves if is_drop(m)]
    if drops and roll < 0.3:
        return rng.choice(drops)
    promos = [m for m in moves if is_promotion(m)]
    if promos and roll < 0.5:
        return rng.choice(promos)
    captures = [m for m in moves if not is_drop(m) and position.board[m & 0xFF]]
    if captures and roll < 0.7:
        return rng.choice(captures)
    return rng.choice(moves)


def random_game(seed, variant="yari", sfen=None, max_plies=200):
    """(start sfen, list of USI moves) of a seeded random legal game."""
    rng = random.Random(seed)
    position = Position(variant_by_name(variant), sfen)
    start = position.sfen()
    played = []
    for _ in range(max_plies):
        moves = position.legal_moves()
        if not moves or position.status():
            break
        m = pick(rng, position, moves)
        played.append(to_usi(position.variant, m))
        position.push(m)
    return start, played


def python_shogi_board(sfen):
    return shogi.Board(sfen)
