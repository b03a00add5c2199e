"""The HTML of each page: a small frame the page's script fills in (board.js and one script
per page under static/). Everything taken from the archive or a board is escaped here."""
import json
from html import escape

from yariboard.records.game import WINNERS
from yariboard.ui.web.snapshot import VARIANTS

SCRIPTS = ("/static/shogiground/shogiground.min.js", "/static/board.js")


def frame(title, body, script):
    scripts = "".join('<script src="%s"></script>' % src for src in SCRIPTS + (script,))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<title>%s</title><link rel=\"stylesheet\" href=\"/static/board.css\">"
            "<link rel=\"stylesheet\" href=\"/pieces.css\"></head><body>"
            "<nav><a href=\"/\">Boards</a> <a href=\"/archive\">Archive</a></nav>%s%s</body></html>\n"
            % (escape(title), body, scripts if script else ""))


def board_panel(extra=""):
    """A board with both hands, players and clocks; the scripts fill it in."""
    return ('<div class="panel">'
            '<div class="side white"><span class="name"></span><span class="clock"></span></div>'
            '<div class="sg-host"></div>'
            '<div class="side black"><span class="name"></span><span class="clock"></span></div>'
            '<div class="result"></div>%s</div>' % extra)


def moves_panel():
    return ('<div class="info"><div class="evaluation"><span class="score"></span> '
            '<span class="pv"></span></div><svg class="graph" viewBox="0 0 300 80" '
            'preserveAspectRatio="none"></svg>'
            '<div class="moves-scroll"><table class="moves"><thead><tr><th>#</th><th>Hodges</th>'
            '<th>日本語</th></tr></thead><tbody></tbody></table></div></div>')


def live(board):
    body = ('<main class="live" data-board="%s"><h1>Board %s <span class="status"></span></h1>'
            '<div class="columns">%s%s</div><p class="leds"></p></main>'
            % (escape(board, quote=True), escape(board),
               board_panel('<div class="message"></div>'), moves_panel()))
    return frame("Board %s" % board, body, "/static/live.js")


def tournament(boards):
    cells = "".join(
        '<a class="mini" data-board="%s" href="/board/%s">%s<div class="title">Board %s</div></a>'
        % (escape(name, quote=True), escape(name, quote=True), board_panel(), escape(name))
        for name in boards)
    if not cells:
        cells = ("<p>No board is recorded by this server. Start one with <code>yariboard serve"
                 " --sim 3</code>, or browse the <a href=\"/archive\">archive</a>.</p>")
    body = '<main class="tournament"><h1>Boards</h1><div class="grid">%s</div></main>' % cells
    return frame("Boards", body, "/static/tournament.js")


def _select(name, options, chosen):
    items = ['<option value="">any %s</option>' % name] + [
        '<option%s>%s</option>' % (" selected" if option == chosen else "", escape(option))
        for option in options]
    return '<select name="%s">%s</select>' % (name, "".join(items))


def archive(rows, query):
    form = ('<form class="search" method="get" action="/archive">'
            '<input name="player" placeholder="player" value="%s">'
            '<input name="date" placeholder="date: 2026-11 or 2026-11-28" value="%s">%s%s'
            '<button>Search</button></form>'
            % (escape(query["player"], quote=True), escape(query["date"], quote=True),
               _select("variant", VARIANTS, query["variant"]),
               _select("result", WINNERS + ("unfinished",), query["result"])))
    lines = []
    for record, count in rows:
        result = record.winner and "%s (%s)" % (record.winner, record.reason) or "unfinished"
        lines.append('<tr><td><a href="/game/%d">%d</a></td><td>%s</td><td>%s</td><td>%s</td>'
                     '<td>%s</td><td>%d</td><td>%s</td></tr>'
                     % (record.id, record.id, escape(record.date), escape(record.variant),
                        escape(record.black), escape(record.white), count, escape(result)))
    table = ('<table class="games"><thead><tr><th>#</th><th>date</th><th>variant</th><th>Black</th>'
             '<th>White</th><th>moves</th><th>result</th></tr></thead><tbody>%s</tbody></table>'
             % "".join(lines)) if lines else "<p>No game fits.</p>"
    body = '<main class="archive"><h1>Archive</h1>%s<p>%d games</p>%s</main>' % (form, len(rows), table)
    return frame("Archive", body, "")


def game(data, formats):
    """An archived game; its positions ride in the page, so stepping asks the server nothing."""
    downloads = " ".join('<a download href="/game/%d/download.%s">%s</a>'
                         % (data["game_id"], fmt, fmt.upper()) for fmt in formats)
    steps = ('<div class="steps"><button data-step="first">|&lt;</button>'
             '<button data-step="back">&lt;</button><span class="ply"></span>'
             '<button data-step="next">&gt;</button><button data-step="last">&gt;|</button></div>')
    names = ('<form class="players"><input name="black" placeholder="Black" value="%s">'
             '<input name="white" placeholder="White" value="%s">'
             '<input name="token" placeholder="token printed by yariboard serve" size="28">'
             '<button>Rename the players</button> <span class="answer"></span></form>'
             % (escape(data["black"], quote=True), escape(data["white"], quote=True)))
    body = ('<main class="game"><h1>Game %d <small>%s, %s</small></h1>'
            '<div class="columns">%s%s</div><p class="downloads">Download: %s</p>%s'
            '<script type="application/json" id="game-data">%s</script></main>'
            % (data["game_id"], escape(data["variant"]), escape(data["date"]),
               board_panel(steps), moves_panel(), downloads, names, _script_json(data)))
    return frame("Game %d" % data["game_id"], body, "/static/game.js")


def _script_json(data):
    """JSON that cannot end its <script> element early."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
