"""`yariboard games list | show | export | import | delete`: the game archive from the command line.

list, show and export only read: they take no lock, so they work while a game is being
recorded."""
import dataclasses
import os
import sys

from rich.console import Console
from rich.table import Table

from yariboard.records.notation import to_hodges
from yariboard.records import analysis, formats as exports
from yariboard.records.formats import kif
from yariboard.cli.common import add_db_option, fail, open_archive
from yariboard.records.archive import MOST_ON_A_PAGE, Query
from yariboard.records.game import RecordError, replay
from yariboard.ui.analysis import show_analysis
from yariboard.ui.view import ViewState, render


def register(subparsers):
    parser = subparsers.add_parser("games", help="list, show, export and import archived games",
                                   description="The game archive (SQLite).")
    add_db_option(parser)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    listing = actions.add_parser("list", help="one line per game, newest first, a page at a time; "
                                              "find games by player, date, variant, result or opening")
    add_db_option(listing)
    listing.add_argument("--player", help="part of either side's name (any case)")
    listing.add_argument("--since", metavar="DATE", help="games from this date (2025, 2025-03, 2025-03-01)")
    listing.add_argument("--until", metavar="DATE", help="games up to this date, included")
    listing.add_argument("--variant", choices=("yari", "shogi", "wa"))
    listing.add_argument("--result", choices=("black", "white", "draw", "unfinished"))
    listing.add_argument("--opening", metavar="MOVES", help="the first moves in USI, as '7g7f 3c3d'")
    listing.add_argument("--start", metavar="SFEN", help="games from this start position")
    listing.add_argument("--page", type=int, default=1, help="which page (default 1)")
    listing.add_argument("--per-page", type=int, default=50, help="games a page (default 50, at most %d)"
                         % MOST_ON_A_PAGE)
    listing.set_defaults(func=list_games)

    show = actions.add_parser("show", help="headers, final position and every move of a game")
    add_db_option(show)
    show.add_argument("id", type=int, help="game number (from `games list`)")
    show.add_argument("--ply", type=int, default=None, help="show the position after this many moves")
    show.set_defaults(func=show_game)

    export = actions.add_parser("export", help="write games as PGN-like text, KIF, KI2, CSA, JSON, "
                                               "JKF or USI lines")
    add_db_option(export)
    export.add_argument("ids", type=int, nargs="*", help="game numbers (default: every game)")
    export.add_argument("-o", "--output", help="file to write (default: standard output)")
    export.add_argument("--format", choices=exports.FORMATS,
                        help="pgn, kif (.kif Shift_JIS, .kifu UTF-8), ki2 (.ki2, .ki2u), csa and jkf "
                             "(standard shogi), json, usi (.usi, .sfen) or xboard (Wa Shogi as XBoard and "
                             "CrazyWa write PGN); default from the file "
                             "name, else pgn (docs/host.md: what each format keeps)")
    export.set_defaults(func=export_games)

    deleting = actions.add_parser("delete", help="remove games from the archive")
    add_db_option(deleting)
    deleting.add_argument("ids", type=int, nargs="+", help="game numbers (from `games list`)")
    deleting.set_defaults(func=delete_games)

    importing = actions.add_parser("import", help="read games from a PGN-like, KIF, KI2, CSA, JSON, "
                                                  "JKF or USI file; games the archive already has "
                                                  "are skipped")
    add_db_option(importing)
    importing.add_argument("file", help="file to read")
    importing.add_argument("--format", choices=exports.FORMATS, help="default: from the file name")
    importing.set_defaults(func=import_games)

    return actions


RESULT_SHORT = {"black": "1-0", "white": "0-1", "draw": "½-½", "": "*"}


def list_games(args):
    if args.page < 1 or not 1 <= args.per_page <= MOST_ON_A_PAGE:
        return fail("--page counts from 1 and --per-page from 1 to %d" % MOST_ON_A_PAGE)
    query = Query(player=args.player, since=args.since, until=args.until, variant=args.variant,
                  result=args.result, opening=args.opening, start=args.start)
    with open_archive(args, readonly=True) as archive:
        games, total = archive.find(query, args.per_page, (args.page - 1) * args.per_page)
    if not games:
        print("no games%s in %s" % (" found" if total or _asked(args) else "",
                                     getattr(args, "db", None) or "the archive"))
        return 0
    first = (args.page - 1) * args.per_page + 1
    print("games %d-%d of %d%s" % (first, first + len(games) - 1, total,
                                   ", next: --page %d" % (args.page + 1) if first + len(games) <= total else ""))
    table = Table("id", "date", "variant", "black", "white", "moves", "result", "ending", box=None)
    for record, count in games:
        table.add_row(str(record.id), record.date.replace("T", " ").rstrip("Z"),
                      record.variant + (" (%s)" % record.handicap if record.handicap else ""),
                      record.black, record.white, str(count), RESULT_SHORT[record.winner],
                      record.reason or "in progress")
    Console().print(table)
    return 0


def _asked(args):
    return any(getattr(args, name) for name in ("player", "since", "until", "variant", "result",
                                                 "opening", "start"))


def show_game(args):
    with open_archive(args, readonly=True) as archive:
        try:
            record = archive.game(args.id)
        except KeyError as error:
            return fail(error.args[0])
        stored = analysis.load(archive, args.id)
    plies = len(record.moves) if args.ply is None else max(0, min(args.ply, len(record.moves)))
    hodges, first_side = [], []

    def note(index, position, move):
        if not first_side:
            first_side.append(position.side)
        hodges.append(to_hodges(position, move))

    shown = dataclasses.replace(record, moves=record.moves[:plies])
    full = []
    try:
        replay(record, lambda index, pos, move: full.append(to_hodges(pos, move)))
        position = replay(shown, note)
    except RecordError as error:
        return fail("game %d in %s cannot be replayed (%s): the archive is damaged; export "
                    "the other games and import them into a new archive" % (record.id, archive.path, error))
    state = ViewState(variant=record.variant, sfen=position.sfen(), moves=hodges,
                      first_side=first_side[0] if first_side else position.side,
                      black=record.black, white=record.white,
                      result="%s:%s" % (record.winner, record.reason) if record.winner and plies == len(record.moves) else "",
                      message="game %d, %s, %s mode%s, after %d of %d moves" % (
                          record.id, record.date, record.mode,
                          ", handicap " + record.handicap if record.handicap else "", plies, len(record.moves)))
    console = Console()
    console.print(render(state))
    table = Table("#", "move", "USI", "at", box=None)
    for index, (text, entry) in enumerate(zip(full, record.moves), 1):
        table.add_row(str(index), text, entry.usi, entry.at)
    console.print(table)
    show_analysis(console, record, stored)
    return 0


def export_games(args):
    try:
        fmt = args.format or (exports.format_for_path(args.output) if args.output else "pgn")
    except RecordError as error:
        return fail(str(error))
    if args.output and os.path.isdir(args.output):
        return fail("%s is a folder; name the file to write, as %s" % (
            args.output, os.path.join(args.output, "games." + fmt)))
    if args.output and not os.path.isdir(os.path.dirname(os.path.abspath(args.output))):
        return fail("no folder %s for %s: create it first" % (
            os.path.dirname(os.path.abspath(args.output)), args.output))
    with open_archive(args, readonly=True) as archive:
        ids = args.ids or archive.ids()
        try:
            records = [archive.game(game_id) for game_id in ids]
        except KeyError as error:
            return fail(error.args[0])
        analyses = {record.id: analysis.load(archive, record.id) for record in records}
    try:
        text = exports.export_games(records, fmt, {k: v for k, v in analyses.items() if v})
    except RecordError as error:
        return fail("%s: %s" % (archive.path, error))
    if args.output:
        encoding = kif.encoding_for(args.output) if fmt in ("kif", "ki2") else "utf-8"
        try:
            data = text.encode(encoding)
        except UnicodeEncodeError as error:
            return fail("%r cannot be written in Shift_JIS, which .kif files use; "
                        "name the file .kifu to write UTF-8" % error.object[error.start:error.end])
        try:
            with open(args.output, "wb") as out:
                out.write(data)
        except OSError as error:
            return fail("cannot write %s: %s" % (args.output, error.strerror or error))
        print("wrote %d game(s) to %s" % (len(records), args.output), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def import_games(args):
    """All games of the file are stored in one transaction, or none when any is refused."""
    try:
        fmt = exports.format_for_path(args.file, args.format)
        text = read_text(args.file)
        records = exports.import_games(text, fmt)
    except (OSError, RecordError) as error:
        return fail("%s: %s" % (args.file, error))
    with open_archive(args) as archive:
        added, present = archive.import_all(records)
    print("imported %d game(s): %s" % (len(added), " ".join(map(str, added))))
    if present:
        print("already in the archive, skipped: %s" % " ".join(map(str, present)))
    return 0


def delete_games(args):
    """All the named games go, or none when one of them is not in the archive."""
    with open_archive(args) as archive:
        try:
            archive.delete(args.ids)
        except KeyError as error:
            return fail(error.args[0])
    print("deleted %d game(s): %s" % (len(args.ids), " ".join(map(str, args.ids))))
    return 0


def read_text(path):
    """UTF-8 (with or without BOM), else Shift_JIS or EUC-JP, as older records are written."""
    with open(path, "rb") as source:
        data = source.read()
    return decode_record(data)


def decode_record(data):
    """The text of a record file's bytes; RecordError when no encoding of records fits.

    EUC-JP bytes often decode as Shift_JIS too, as half-width katakana that no record holds:
    when both fit, the one with fewer of those is taken."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    texts = []
    for encoding in ("cp932", "euc_jp"):
        try:
            texts.append(data.decode(encoding))
        except UnicodeDecodeError:
            continue
    if not texts:
        raise RecordError("line 1: neither UTF-8, Shift_JIS nor EUC-JP text")
    return min(texts, key=lambda text: sum(1 for c in text if "\uff61" <= c <= "\uff9f"))
