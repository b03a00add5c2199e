"""perft: the number of move sequences of a given length, the standard check of a move
generator against other programs' figures (docs/rules-core.md).

For tests, benchmarks and `yariboard perft`: the board never counts, so it never loads this.
"""


def perft(position, depth):
    """Number of move sequences of `depth` plies from `position` (leaves counted in bulk)."""
    moves = position.legal_moves()
    if depth <= 1:
        return len(moves) if depth == 1 else 1
    total = 0
    for m in moves:
        captured = position.make(m)
        total += perft(position, depth - 1)
        position.unmake(m, captured)
    return total
