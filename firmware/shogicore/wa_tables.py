"""Wa Shogi (11x11) as tables: built on first use by variants.variant_by_name, once per rule
set: 'wa' (captured pieces are dropped back, as the reference engine plays) and
'wa-nodrops' (the historical game: captured pieces are gone). docs/rules-wa.md has the rules.

Letters are the reference engine's (CrazyWa). Kinds 1..14 promote, 15 is the Crane King,
16 and 17 never promote, 18..31 are the promoted kinds. The Heavenly Horse takes 31: its
bitmask in the attack tables is the only one past a small int on the Pico, and it holds
only the four knight-jump deltas.
"""
from shogicore.tables import COMPASS, Kind, build_variant
from shogicore.variants import KING


def build(name="wa"):
    F, B, L, R, FL, FR, BL, BR = COMPASS
    gold_steps = (F, L, R, FL, FR, B)
    # Move sets are locals, not module constants, and promoted symbols are made, not
    # written out: on the Pico every global name and every short str literal is a qstr for
    # good, and the qstr table sits just below the size where it takes another 7 KB pool.
    # (The letters stay literals: a one-letter qstr costs less RAM than a str object.)
    diagonals = (FL, FR, BL, BR)
    orthogonals = (F, B, L, R)
    silver = (F, FL, FR, BL, BR)
    fox_jumps = (F, B, FL, FR, BL, BR, (0, -2), (0, 2), (-2, -2), (2, -2), (-2, 2), (2, 2))
    sparrow = Kind(1, "P", steps=(F,), forced=1)                            # Sparrow Pawn
    oxcart = Kind(2, "O", slides=(F,), forced=1)                            # Oxcart
    horse = Kind(3, "H", slides=(F,), ranges=((B, 2),), points=3)           # Liberated Horse
    wings = Kind(4, "S", steps=(F, B), slides=(L, R), points=4)             # Swallow's Wings
    falcon = Kind(5, "F", steps=(F,), slides=diagonals, points=5)           # Flying Falcon
    rabbit = Kind(6, "R", steps=(FL, FR, BL, BR, B), slides=(F,), points=3)  # Running Rabbit
    stag = Kind(7, "V", steps=silver, points=2)                             # Violent Stag
    wolf = Kind(8, "W", steps=gold_steps, points=2)                         # Violent Wolf
    goose = Kind(9, "G", steps=(FL, F, FR, B))                              # Flying Goose
    cock = Kind(10, "C", steps=(FL, FR, L, R))                              # Flying Cock
    crow = Kind(11, "U", steps=(F, BL, BR))                                 # Strutting Crow
    owl = Kind(12, "L", steps=(F, BL, BR))                                  # Swooping Owl
    monkey = Kind(13, "M", steps=(FL, F, FR, B))                            # Climbing Monkey
    dog = Kind(14, "D", steps=(FL, FR, L, R, B))                            # Blind Dog
    eagle_moves = dict(steps=(L, R, BL, BR), slides=(F, B), ranges=((FL, 3), (FR, 3)))
    eagle = Kind(16, "E", points=5, **eagle_moves)                          # Cloud Eagle
    fox = Kind(17, "X", steps=fox_jumps, points=4)                          # Treacherous Fox
    kinds = (
        sparrow, oxcart, horse, wings, falcon, rabbit, stag, wolf, goose, cock, crow, owl,
        monkey, dog, Kind(KING, "K", steps=COMPASS, points=0), eagle, fox,
        Kind(18, "+" + sparrow.symbol, steps=gold_steps),                   # Golden Bird
        Kind(19, "+" + oxcart.symbol, steps=COMPASS),                       # Plodding Ox
        Kind(31, "+" + horse.symbol, steps=((-1, -2), (1, -2), (-1, 2), (1, 2))),  # Heavenly Horse
        Kind(20, "+" + wings.symbol, slides=orthogonals),                   # Gliding Swallow
        Kind(21, "+" + falcon.symbol, steps=(L, R), slides=diagonals + (F, B)),  # Tenacious Falcon
        Kind(22, "+" + rabbit.symbol, steps=fox_jumps),                     # Treacherous Fox
        Kind(23, "+" + stag.symbol, steps=(F, L, R, FL, FR, BL, BR)),       # Roaming Boar
        Kind(24, "+" + wolf.symbol, steps=COMPASS),                         # Bear's Eyes
        Kind(25, "+" + goose.symbol, steps=(F, B), slides=(L, R)),          # Swallow's Wings
        Kind(26, "+" + cock.symbol, steps=(FL, FR, L, R), slides=(F, B)),   # Raiding Falcon
        Kind(27, "+" + crow.symbol, steps=(F,), slides=diagonals),          # Flying Falcon
        Kind(28, "+" + owl.symbol, **eagle_moves),                          # Cloud Eagle
        Kind(29, "+" + monkey.symbol, steps=silver),                        # Violent Stag
        Kind(30, "+" + dog.symbol, steps=gold_steps),                       # Violent Wolf
    )
    drops = name == "wa"
    return build_variant(
        name, 11, 11, kinds,
        start_sfen="hmlcvkwgudo/1e3s3f1/ppprpppxppp/3p3p3/11/11/11/3P3P3/PPPXPPPRPPP/"
                   "1F3S3E1/ODUGWKVCLMH b - 1",
        totals=dict([(k.kind, 22 if k is sparrow else 2) for k in kinds if k.kind <= 17]),
        repetitions=4, pawn_drop_mate_legal=False, impasse_threshold=0, promotion_ranks=3,
        hand_kinds=(falcon, eagle, wings, fox, rabbit, horse, oxcart, wolf, stag, cock,
                    goose, monkey, dog, crow, owl, sparrow) if drops else (),
        pad_files=2,
    )
