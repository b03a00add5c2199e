"""Standard shogi (9x9) as tables: built on first use by variants.variant_by_name."""
from shogicore.variants import ALL_8, B, BL, BR, F, FL, FR, GOLD_STEPS, KING, KNIGHT_JUMPS, L, R, Kind, Variant


def build():
    diagonals, orthogonals = (FL, FR, BL, BR), (F, B, L, R)
    pawn = Kind(1, "P", "P", steps=(F,), forced_ranks=1)
    lance = Kind(2, "L", "L", slides=(F,), forced_ranks=1)
    knight = Kind(3, "N", "N", steps=KNIGHT_JUMPS, forced_ranks=2)
    silver = Kind(4, "S", "S", steps=(F, FL, FR, BL, BR))
    bishop = Kind(5, "B", "B", slides=diagonals, points=5)
    rook = Kind(6, "R", "R", slides=orthogonals, points=5)
    gold = Kind(7, "G", "G", steps=GOLD_STEPS)
    kinds = (
        pawn, lance, knight, silver, bishop, rook, gold,
        Kind(KING, "K", "K", steps=ALL_8, points=0),
        Kind(9, "+P", "+P", steps=GOLD_STEPS),
        Kind(10, "+L", "+L", steps=GOLD_STEPS),
        Kind(11, "+N", "+N", steps=GOLD_STEPS),
        Kind(12, "+S", "+S", steps=GOLD_STEPS),
        Kind(13, "+B", "+B", steps=orthogonals, slides=diagonals, points=5),
        Kind(14, "+R", "+R", steps=diagonals, slides=orthogonals, points=5),
    )
    return Variant(
        "shogi", 9, 9, kinds,
        start_sfen="lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        totals={1: 18, 2: 4, 3: 4, 4: 4, 5: 2, 6: 2, 7: 4, KING: 2},
        repetitions=4, pawn_drop_mate_legal=False, impasse_threshold=24,
        hand_order=(rook, bishop, gold, silver, knight, lance, pawn),
    )
