"""Yari Shogi (9 ranks x 7 files) as tables: built on first use by variants.variant_by_name."""
from shogicore.tables import COMPASS, Kind, build_variant
from shogicore.variants import KING


def build():
    F, B, L, R, FL, FR, BL, BR = COMPASS
    pawn = Kind(1, "P", steps=(F,), forced=1)
    knight = Kind(2, "N", steps=((-1, -2), (1, -2)), slides=(F,), forced=1)
    bishop = Kind(3, "B", steps=(FL, FR), slides=(F,), forced=1, points=5)
    rook = Kind(4, "R", slides=(F, L, R), points=5)
    gold_steps, back = (F, L, R, FL, FR), (B,)
    kinds = (
        pawn, knight, bishop, rook,
        Kind(KING, "K", steps=COMPASS, points=0),
        # promoted symbols are made, not written: a short str literal is a qstr for good
        Kind(9, "+" + pawn.symbol, steps=(F, FL, FR), slides=back),
        Kind(10, "+" + knight.symbol, steps=gold_steps, slides=back),
        Kind(11, "+" + bishop.symbol, steps=gold_steps, slides=back, points=5),
        Kind(12, "+" + rook.symbol, slides=(F, B, L, R), points=5),
    )
    return build_variant(
        "yari", 7, 9, kinds,
        start_sfen="rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1",
        totals={1: 14, 2: 4, 3: 4, 4: 4, KING: 2},
        repetitions=3, pawn_drop_mate_legal=True, impasse_threshold=26, promotion_ranks=3,
        hand_kinds=(rook, bishop, knight, pawn),
        handicaps={
            # White (the handicapped side, to move first) loses pieces from its left: file 1.
            "bishop": "rnnkb1r/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1",
            "rook": "rnnkbb1/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1",
            "two-pieces": "rnnkb2/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1",
            "four-pieces": "1nnk3/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1",
            "six-pieces": "3k3/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1",
        },
    )
