"""The game archive: one SQLite file holding every game's headers and timed moves.

Every write is one transaction committed with `synchronous=FULL` in WAL mode, so killing
the host (or pulling the power) at any moment keeps everything already committed and
never leaves half a move. Moves are keyed by (game, ply): storing a move the archive
already has is a no-op, which is what lets the link replay the board's history after a
reconnect without ever duplicating a move.

Commands that only read open the archive with `readonly=True`: they take no write lock
(WAL readers never wait for a writer), so a game being recorded elsewhere does not stop
them. A file that is not a sound archive (damaged, truncated, not SQLite) raises
ArchiveUnreadable naming the file and what to do; a write that finds the archive locked by
another program past `busy_timeout` raises ArchiveBusy and changes nothing.
"""
import json
import os
import sqlite3
import urllib.parse

import platformdirs

from yariboard.records.game import GameRecord, MoveRecord, check_headers, now_stamp

DB_ENV = "YARIBOARD_DB"
# How long a write waits for another program's lock before ArchiveBusy (the recorder waits
# less and queues its moves instead).
WRITE_WAIT_S = 10.0
# 1: games and moves. 2: adds the analyses tables; an archive of version 1 gains them the
# first time it is opened (CREATE TABLE IF NOT EXISTS below), its games untouched.
# 3: games gain `zone`, `notes` (extra headers and comments, JSON), `opening` and the indexes that
# list and find games without reading every row; older archives gain them when first opened
# for writing (read-only, they read as games without notes).
SCHEMA_VERSION = 3

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    variant     TEXT NOT NULL,
    start_sfen  TEXT NOT NULL,
    black       TEXT NOT NULL DEFAULT '',
    white       TEXT NOT NULL DEFAULT '',
    date        TEXT NOT NULL,
    handicap    TEXT NOT NULL DEFAULT '',
    mode        TEXT NOT NULL DEFAULT 'casual',
    winner      TEXT NOT NULL DEFAULT '',
    reason      TEXT NOT NULL DEFAULT '',
    board_game  TEXT UNIQUE,
    zone        TEXT NOT NULL DEFAULT '',
    notes       TEXT NOT NULL DEFAULT '',
    opening     TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS moves (
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL,
    usi         TEXT NOT NULL,
    at          TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS analyses (
    game_id     INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    engine      TEXT NOT NULL,
    budget      TEXT NOT NULL,
    at          TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS analysis_plies (
    game_id     INTEGER NOT NULL REFERENCES analyses(game_id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL,
    score       INTEGER NOT NULL,
    mate        INTEGER,
    best        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_by_date ON games (date, id);
CREATE INDEX IF NOT EXISTS games_by_black ON games (black);
CREATE INDEX IF NOT EXISTS games_by_white ON games (white);
CREATE INDEX IF NOT EXISTS games_by_start ON games (start_sfen, date);
CREATE INDEX IF NOT EXISTS games_by_opening ON games (opening);
"""
# Columns added after schema 1, with their definitions (ALTER TABLE for older archives).
ADDED_COLUMNS = (("zone", "TEXT NOT NULL DEFAULT ''"), ("notes", "TEXT NOT NULL DEFAULT ''"),
                 ("opening", "TEXT NOT NULL DEFAULT ''"))
# `opening`: a game's first moves in USI, space separated, so that finding the games that
# began with some moves is an index range, not a replay of every game.
OPENING_PLIES = 16
# The most games one page of a listing holds (the command line asks for fewer).
MOST_ON_A_PAGE = 1000
GAME_COLUMNS = ("id, variant, start_sfen, black, white, date, handicap, mode, winner, reason,"
                " board_game, zone, notes")


class ArchiveError(RuntimeError):
    """A write the archive refuses (it would break a stored game); nothing was changed."""


class ArchiveBusy(ArchiveError):
    """Another program holds the archive's write lock; try again later."""


class ArchiveReadOnly(ArchiveError):
    """A write to an archive this user may only read; nothing was changed."""


class ArchiveFull(ArchiveError):
    """The disk (or the archive's size limit) is full: the write was undone, nothing lost."""


class ArchiveUnreadable(ArchiveError):
    """The file is not a sound game archive (damaged, truncated or not SQLite at all)."""


def unreadable(path, error):
    """The error for a file SQLite cannot read as an archive: which file, and what to do."""
    return ArchiveUnreadable(
        "%s is not a readable game archive (%s): move it aside and restore a backup, or "
        "choose another --db" % (path, error))


def _read_only(path, timeout):
    """A connection that never writes, even a lock: a read-only file or folder reads too.

    SQLite reads a WAL archive through its `-shm` file, which a read-only folder cannot
    hold; the archive is then read as it is on disk (`immutable`), as the last writer left
    it when it closed."""
    uri = "file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(path))
    db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=timeout)
    try:
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return db
    except sqlite3.OperationalError as error:
        if _is_busy(error):
            raise
        db.close()
    return sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None, timeout=timeout)


def _size(path):
    return os.path.getsize(path) if os.path.exists(path) else 0


def _is_busy(error):
    return isinstance(error, sqlite3.OperationalError) and (
        "locked" in str(error) or "busy" in str(error))


def default_path():
    """$YARIBOARD_DB if set, else games.sqlite3 in the user's data directory."""
    override = os.environ.get(DB_ENV)
    if override:
        return override
    return os.path.join(platformdirs.user_data_dir("yariboard", appauthor=False), "games.sqlite3")


class Archive:
    def __init__(self, path=None, readonly=False, busy_timeout=None):
        """`path` None: $YARIBOARD_DB, else the default archive, made with its folder when
        missing. A path the user gave (`path`, $YARIBOARD_DB) must be in a folder that
        exists: a typo must not grow a tree of folders.
        `readonly`: read without ever locking; a missing file reads as an empty archive."""
        self.path = path or default_path()
        directory = os.path.dirname(os.path.abspath(self.path))
        if path is None and not os.environ.get(DB_ENV):
            os.makedirs(directory, exist_ok=True)
        elif not os.path.isdir(directory):
            raise ArchiveError("no folder %s for the archive %s: create it first or choose "
                               "another --db" % (directory, self.path))
        empty = readonly and not os.path.exists(self.path)
        timeout = WRITE_WAIT_S if busy_timeout is None else busy_timeout
        if empty:
            self.db = sqlite3.connect(":memory:", isolation_level=None)
        elif readonly:
            self.db = _read_only(self.path, timeout)
        else:
            # isolation_level=None: we open and commit every transaction ourselves.
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=timeout)
        try:
            self._open(readonly and not empty)
        except sqlite3.DatabaseError as error:
            self.db.close()
            if _is_busy(error):
                raise ArchiveBusy("%s is locked by another program (%s)" % (self.path, error))
            if "readonly" in str(error):
                raise ArchiveReadOnly(
                    "%s is read-only (%s): games list, show and export read it; to change it, "
                    "make the file and its folder writable, or copy it" % (self.path, error))
            raise self.unreadable(error)
        except BaseException:
            self.db.close()
            raise

    def unreadable(self, error):
        return unreadable(self.path, error)

    def _open(self, readonly):
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise ArchiveError("%s was written by a newer yariboard (schema %d, this one reads %d): "
                               "update yariboard, or move the file aside if it is damaged"
                               % (self.path, version, SCHEMA_VERSION))
        tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
        self.indexed_openings = "opening" in columns or not tables
        # an older archive read without migrating: the columns it lacks read as empty
        self.game_columns = ", ".join(name if name in columns or not tables else "'' AS " + name
                                      for name in GAME_COLUMNS.split(", "))
        # a read-only look at an archive of schema 1 finds no analyses (it never migrates)
        self.analysed = "analyses" in tables or not tables
        check = self.db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise sqlite3.DatabaseError(check.splitlines()[0])
        if not {"games", "moves"} <= tables and (tables or _size(self.path)):
            # SQLite reads a few stray bytes as an empty database: not an archive either
            raise sqlite3.DatabaseError("no game tables")
        if readonly:
            if not tables:                   # an empty file reads as an empty archive
                self.db.close()
                self.db = sqlite3.connect(":memory:", isolation_level=None)
                self._create()
            self.db.execute("PRAGMA query_only=ON")
            return
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        if version < SCHEMA_VERSION:
            with self.transaction():
                self._create()
        self.analysed = True

    def _create(self):
        present = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
        for name, definition in ADDED_COLUMNS:
            if present and name not in present:
                self.db.execute("ALTER TABLE games ADD COLUMN %s %s" % (name, definition))
        if present and "opening" not in present:
            self.db.execute(
                "UPDATE games SET opening = coalesce((SELECT group_concat(usi, ' ') FROM (SELECT usi"
                " FROM moves WHERE game_id=games.id AND ply<=? ORDER BY ply)), '')", (OPENING_PLIES,))
        self.game_columns = GAME_COLUMNS
        self.indexed_openings = True
        for statement in SCHEMA.split(";"):
            if statement.strip():
                self.db.execute(statement)
        self.db.execute("PRAGMA user_version=%d" % SCHEMA_VERSION)

    def wait_when_busy(self, seconds):
        """How long a write waits for another program's lock before ArchiveBusy."""
        self.db.execute("PRAGMA busy_timeout=%d" % int(seconds * 1000))

    def close(self):
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def transaction(self):
        return _Transaction(self)

    # -- writing ----------------------------------------------------------------------

    def new_game(self, record):
        """Store a game's headers (and any moves it already has); returns its id."""
        return self.store_all([record])[0]

    def store_all(self, records):
        """Store several whole games in one transaction (all or none); returns their ids."""
        for record in records:
            check_headers(record)
        with self.transaction():
            return [self._insert(record) for record in records]

    def import_all(self, records):
        """Store the games the archive does not have yet, in one transaction (all or none).

        A game is already there when one stored has the same headers, start position and
        moves: importing a file twice adds nothing. Returns (new ids, ids already there).
        """
        for record in records:
            check_headers(record)
        added, present = [], []
        with self.transaction():
            for record in records:
                same = self._same_game(record)
                if same is None:
                    added.append(self._insert(record))
                else:
                    present.append(same)
        return added, present

    def _same_game(self, record):
        """The id of a stored game equal to `record` in headers and moves, or None."""
        moves = record.usi_moves()
        for (game_id,) in self.db.execute(
                "SELECT id FROM games WHERE variant=? AND start_sfen=? AND black=? AND white=?"
                " AND date=? AND handicap=? AND mode=? AND winner=? AND reason=? AND zone=?"
                " AND notes=?", record.headers() + (record.zone, _notes_text(record))).fetchall():
            stored = [row[0] for row in self.db.execute(
                "SELECT usi FROM moves WHERE game_id=? ORDER BY ply", (game_id,))]
            if stored == moves:
                return game_id
        return None

    def _insert(self, record):
        cursor = self.db.execute(
            "INSERT INTO games (variant, start_sfen, black, white, date, handicap, mode,"
            " winner, reason, board_game, zone, notes, opening) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (record.variant, record.start_sfen, record.black, record.white, record.date,
             record.handicap, record.mode, record.winner, record.reason,
             record.board_game or None, record.zone, _notes_text(record),
             " ".join(record.usi_moves()[:OPENING_PLIES])))
        game_id = cursor.lastrowid
        self.db.executemany(
            "INSERT INTO moves (game_id, ply, usi, at) VALUES (?,?,?,?)",
            [(game_id, ply, move.usi, move.at) for ply, move in enumerate(record.moves, 1)])
        return game_id

    def add_move(self, game_id, ply, usi, at=None):
        """Store move number `ply` (1-based) of a game; True if stored, False if already there.

        The same move again is ignored; a different move at a stored ply, or a gap in the
        plies, raises ArchiveError and changes nothing. Timestamps never go backwards:
        a clock step back is clamped to the previous move's time.
        """
        with self.transaction():
            row = self.db.execute("SELECT usi FROM moves WHERE game_id=? AND ply=?",
                                  (game_id, ply)).fetchone()
            if row is not None:
                if row[0] != usi:
                    raise ArchiveError("game %d already has %s at move %d, not %s"
                                       % (game_id, row[0], ply, usi))
                return False
            last_ply, last_at = self._last_move(game_id)
            if ply != last_ply + 1:
                raise ArchiveError("game %d has %d moves; cannot store move %d"
                                   % (game_id, last_ply, ply))
            at = max(at or now_stamp(), last_at)
            self.db.execute("INSERT INTO moves (game_id, ply, usi, at) VALUES (?,?,?,?)",
                            (game_id, ply, usi, at))
            if ply <= OPENING_PLIES:
                self.db.execute("UPDATE games SET opening = ltrim(opening || ' ' || ?) WHERE id=?",
                                (usi, game_id))
        return True

    def truncate(self, game_id, plies):
        """Keep only the first `plies` moves (the board took moves back)."""
        with self.transaction():
            self.db.execute("DELETE FROM moves WHERE game_id=? AND ply>?", (game_id, plies))
            if plies < OPENING_PLIES:
                opening = [row[0] for row in self.db.execute(
                    "SELECT usi FROM moves WHERE game_id=? ORDER BY ply", (game_id,))]
                self.db.execute("UPDATE games SET opening=? WHERE id=?", (" ".join(opening), game_id))
            self.db.execute("DELETE FROM analyses WHERE game_id=?", (game_id,))  # now stale

    def finish(self, game_id, winner, reason):
        record = self.game(game_id)
        record.winner, record.reason = winner, reason
        check_headers(record)
        with self.transaction():
            self.db.execute("UPDATE games SET winner=?, reason=? WHERE id=?", (winner, reason, game_id))

    def set_players(self, game_id, black, white):
        with self.transaction():
            self.db.execute("UPDATE games SET black=?, white=? WHERE id=?", (black, white, game_id))

    def delete(self, game_ids):
        """Remove games and their moves, all or none; KeyError names an id not stored."""
        with self.transaction():
            for game_id in game_ids:
                if self.db.execute("DELETE FROM games WHERE id=?", (game_id,)).rowcount == 0:
                    raise KeyError("no game %s in the archive" % game_id)

    # -- reading ----------------------------------------------------------------------

    def _last_move(self, game_id):
        row = self.db.execute("SELECT ply, at FROM moves WHERE game_id=? ORDER BY ply DESC LIMIT 1",
                              (game_id,)).fetchone()
        if row:
            return row
        date = self.db.execute("SELECT date FROM games WHERE id=?", (game_id,)).fetchone()
        if date is None:
            raise ArchiveError("no game %d in the archive" % game_id)
        return 0, date[0]

    def move_count(self, game_id):
        return self._last_move(game_id)[0]

    def game(self, game_id):
        """The full record of one game; KeyError if there is none with that id."""
        row = self.db.execute("SELECT %s FROM games WHERE id=?" % self.game_columns,
                              (game_id,)).fetchone()
        if row is None:
            raise KeyError("no game %s in the archive" % game_id)
        record = _record_from_row(row)
        record.moves = [MoveRecord(usi, at) for usi, at in self.db.execute(
            "SELECT usi, at FROM moves WHERE game_id=? ORDER BY ply", (game_id,))]
        return record

    def find_board_game(self, board_game):
        """The id of the game the board calls `board_game`, or None."""
        row = self.db.execute("SELECT id FROM games WHERE board_game=?", (board_game,)).fetchone()
        return row[0] if row else None

    def summaries(self):
        """(record without its moves, number of moves) for every game, newest first; `find`
        gives one page of the games a query matches."""
        rows = self.db.execute(
            "SELECT %s, (SELECT COUNT(*) FROM moves m WHERE m.game_id=games.id)"
            " FROM games ORDER BY date DESC, id DESC" % self.game_columns).fetchall()
        return [(_record_from_row(row[:13]), row[13]) for row in rows]

    def find(self, query=None, limit=50, offset=0):
        """(records without their moves, number of moves) of one page of the games `query`
        matches, newest first, and how many it matches in all. Indexed: well under a second
        at 100 000 games (`yariboard bench archive`)."""
        query = query or Query()
        if query.opening and len(query.opening.split()) > OPENING_PLIES:
            raise ArchiveError("an opening to find is at most %d moves" % OPENING_PLIES)
        if query.opening and not self.indexed_openings:
            raise ArchiveError("%s was written by an older yariboard: import or record a game "
                               "into it once, and its openings are indexed" % self.path)
        where, values = query.sql()
        limit = max(0, min(limit, MOST_ON_A_PAGE))
        total = self.db.execute("SELECT COUNT(*) FROM games WHERE " + where, values).fetchone()[0]
        rows = self.db.execute(
            "SELECT %s, (SELECT COUNT(*) FROM moves m WHERE m.game_id=games.id) FROM games"
            " WHERE %s ORDER BY date DESC, id DESC LIMIT ? OFFSET ?" % (self.game_columns, where),
            values + [limit, max(0, offset)]).fetchall()
        return [(_record_from_row(row[:13]), row[13]) for row in rows], total

    def ids(self):
        return [row[0] for row in self.db.execute("SELECT id FROM games ORDER BY id")]

    # -- analyses (see analysis.py) ------------------------------------------------------

    def store_analysis(self, game_id, engine, budget, at, plies):
        """Store a game's analysis, replacing any earlier one; `plies` are (ply, score,
        mate, best) rows, score and mate from Black's point of view."""
        with self.transaction():
            if self.db.execute("SELECT 1 FROM games WHERE id=?", (game_id,)).fetchone() is None:
                raise ArchiveError("no game %d in the archive" % game_id)
            self.db.execute("DELETE FROM analyses WHERE game_id=?", (game_id,))
            self.db.execute("INSERT INTO analyses (game_id, engine, budget, at) VALUES (?,?,?,?)",
                            (game_id, engine, budget, at))
            self.db.executemany(
                "INSERT INTO analysis_plies (game_id, ply, score, mate, best) VALUES (?,?,?,?,?)",
                [(game_id,) + tuple(row) for row in plies])

    def analysis_rows(self, game_id):
        """(engine, budget, at, [(ply, score, mate, best), ...]) or None when not analysed."""
        if not self.analysed:
            return None
        head = self.db.execute("SELECT engine, budget, at FROM analyses WHERE game_id=?",
                               (game_id,)).fetchone()
        if head is None:
            return None
        rows = self.db.execute("SELECT ply, score, mate, best FROM analysis_plies WHERE game_id=?"
                               " ORDER BY ply", (game_id,)).fetchall()
        return head + (rows,)


class Query:
    """What `Archive.find` looks for; every field left None matches every game.

    player: part of either side's name (any case); since, until: stamps or their leading part
    (`2025`, `2025-03-01`), until included; variant; result: black, white, draw or unfinished;
    opening: the first moves in USI, space separated; start: the start position's SFEN."""

    def __init__(self, player=None, since=None, until=None, variant=None, result=None,
                 opening=None, start=None):
        self.player, self.since, self.until = player, since, until
        self.variant, self.result, self.opening, self.start = variant, result, opening, start

    def sql(self):
        where, values = ["1"], []
        if self.player:
            where.append("(instr(lower(black), lower(?)) OR instr(lower(white), lower(?)))")
            values += [self.player, self.player]
        if self.since:
            where.append("date >= ?")
            values.append(self.since)
        if self.until:
            where.append("date < ?")     # every stamp that begins with `until` is before this
            values.append(self.until + "\uffff")
        if self.variant:
            where.append("variant = ?")
            values.append(self.variant)
        if self.result:
            where.append("winner = ?")
            values.append("" if self.result == "unfinished" else self.result)
        if self.opening:
            moves = " ".join(self.opening.split())
            where.append("(opening = ? OR (opening >= ? AND opening < ?))")
            values += [moves, moves + " ", moves + "!"]    # '!' sorts right after ' '
        if self.start:
            where.append("start_sfen = ?")
            values.append(self.start)
        return " AND ".join(where), values


def _notes_text(record):
    """A record's extra headers and comments as stored: JSON, '' when it has none."""
    _, tags, comments = record.notes()
    if not tags and not comments:
        return ""
    return json.dumps({"tags": tags, "comments": comments}, ensure_ascii=False, sort_keys=True)


def _record_from_row(row):
    (game_id, variant, start_sfen, black, white, date, handicap, mode, winner, reason,
     board_game, zone, notes) = row
    kept = json.loads(notes) if notes else {}
    return GameRecord(variant=variant, start_sfen=start_sfen, black=black, white=white, date=date,
                      handicap=handicap, mode=mode, winner=winner, reason=reason, id=game_id,
                      board_game=board_game or "", zone=zone,
                      tags=[tuple(tag) for tag in kept.get("tags", [])],
                      comments={int(ply): text for ply, text in kept.get("comments", {}).items()})


class _Transaction:
    """`with` block holding one IMMEDIATE transaction: all of it is committed, or none."""

    def __init__(self, archive):
        self.archive = archive
        self.db = archive.db

    def __enter__(self):
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if _is_busy(error):
                raise ArchiveBusy("%s is locked by another program" % self.archive.path)
            raise

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            try:
                self.db.execute("COMMIT")
                return False
            except sqlite3.OperationalError as error:
                exc = error
        if self.db.in_transaction:
            self.db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.OperationalError) and "full" in str(exc):
            raise ArchiveFull("%s: the disk is full (%s); nothing of this change was written and "
                              "the archive is as it was: free some space and try again"
                              % (self.archive.path, exc)) from exc
        if exc_type is None:
            raise exc
        return False
