"""The archive's first tables (schemas 1 and 2 hold the same two), frozen as older copies
of yariboard wrote them: the tests of its upgrades start from these."""

GAMES_AND_MOVES_V1 = """
CREATE TABLE games (id INTEGER PRIMARY KEY, variant TEXT NOT NULL, start_sfen TEXT NOT NULL,
    black TEXT NOT NULL DEFAULT '', white TEXT NOT NULL DEFAULT '', date TEXT NOT NULL,
    handicap TEXT NOT NULL DEFAULT '', mode TEXT NOT NULL DEFAULT 'casual',
    winner TEXT NOT NULL DEFAULT '', reason TEXT NOT NULL DEFAULT '', board_game TEXT UNIQUE);
CREATE TABLE moves (game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL, usi TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (game_id, ply))
    WITHOUT ROWID;
"""
