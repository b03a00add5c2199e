"""Standard shogi (9x9) as tables: built on first use by variants.variant_by_name."""
from shogicore.tables import COMPASS, Kind, build_variant
from shogicore.variants import KING


def build():
    F, B, L, R, FL, FR, BL, BR = COMPASS
    gold_steps = (F, L, R, FL, FR, B)
    diagonals, orthogonals = (FL, FR, BL, BR), (F, B, L, R)
    pawn = Kind(1, "P", steps=(F,), forced=1)
    lance = Kind(2, "L", slides=(F,), forced=1)
    knight = Kind(3, "N", steps=((-1, -2), (1, -2)), forced=2)
    silver = Kind(4, "S", steps=(F, FL, FR, BL, BR))
    bishop = Kind(5, "B", slides=diagonals, points=5)
    rook = Kind(6, "R", slides=orthogonals, points=5)
    gold = Kind(7, "G", steps=gold_steps)
    kinds = (
        pawn, lance, knight, silver, bishop, rook, gold,
        Kind(KING, "K", steps=COMPASS, points=0),
        Kind(9, "+P", steps=gold_steps),
        Kind(10, "+L", steps=gold_steps),
        Kind(11, "+N", steps=gold_steps),
        Kind(12, "+S", steps=gold_steps),
        Kind(13, "+B", steps=orthogonals, slides=diagonals, points=5),
        Kind(14, "+R", steps=diagonals, slides=orthogonals, points=5),
    )
    return build_variant(
        "shogi", 9, 9, kinds,
        start_sfen="lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        totals={1: 18, 2: 4, 3: 4, 4: 4, 5: 2, 6: 2, 7: 4, KING: 2},
        repetitions=4, pawn_drop_mate_legal=False, impasse_threshold=24, promotion_ranks=3,
        hand_kinds=(rook, bishop, gold, silver, knight, lance, pawn),
        # The standard handicaps, every one KIF names (left and right as White, 上手, sees
        # them: its left is file 1): White, the stronger side, to move first, leaves out
        # pieces; only White's two back ranks differ from the even start.
        handicaps={name: ranks + "/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1" for name, ranks in (
            ("lance", "lnsgkgsn1/1r5b1"), ("right-lance", "1nsgkgsnl/1r5b1"),
            ("bishop", "lnsgkgsnl/1r7"), ("rook", "lnsgkgsnl/7b1"), ("rook-lance", "lnsgkgsn1/7b1"),
            ("two-pieces", "lnsgkgsnl/9"), ("three-pieces", "lnsgkgsn1/9"),
            ("four-pieces", "1nsgkgsn1/9"), ("five-pieces", "2sgkgsn1/9"),
            ("left-five-pieces", "1nsgkgs2/9"), ("six-pieces", "2sgkgs2/9"),
            ("left-seven-pieces", "2sgkg3/9"), ("right-seven-pieces", "3gkgs2/9"),
            ("eight-pieces", "3gkg3/9"), ("ten-pieces", "4k4/9"))},
    )
