"""`yariboard games analyse | plot`: an engine's evaluation of every position of a game.

The analysis is stored in the archive; `games show` prints it beside the moves and
`games export` writes it as comments. See analysis.py for the marks and their thresholds.
"""
import os
import sys

from rich.table import Table

from yariboard.records import analysis

from yariboard.engines import fsf
from yariboard.cli.common import add_db_option, fail, open_archive
from yariboard.engines.analysis import analyse
from yariboard.engines.base import EngineError
from yariboard.engines.builtin.search import Engine
from yariboard.records.game import RecordError
from yariboard.engines.usi import UsiError

DEFAULT_NODES = {"builtin": 10000, "fsf": 100000}
PLURALS = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}
PLOT_HELP = "the plot needs matplotlib: pip install 'yariboard[plot]' (or pip install matplotlib)"


def register(actions):
    parser = actions.add_parser("analyse", help="evaluate every position of a game with an engine",
                                description=__doc__.split("\n\n")[0])
    add_db_option(parser)
    parser.add_argument("id", type=int, help="game number (from `games list`)")
    parser.add_argument("--engine", default="builtin",
                        help="builtin (default), fsf (Fairy-Stockfish, `yariboard engines install "
                             "fsf`) or the path of a USI engine")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--nodes", type=positive_number(int), metavar="N",
                        help="nodes per position (default: %s)" % ", ".join(
                            "%d for %s" % (n, name) for name, n in DEFAULT_NODES.items()))
    budget.add_argument("--seconds", type=positive_number(float), metavar="S",
                        help="seconds per position instead of a node budget")
    parser.add_argument("--node", metavar="PATH", help="with --engine fsf: the Node.js to run it with")
    parser.add_argument("--plot", metavar="FILE", help="also draw the evaluation to FILE (.png or .svg)")
    parser.set_defaults(func=analyse_game)

    plot = actions.add_parser("plot", help="draw a game's stored evaluation to a PNG or SVG file")
    add_db_option(plot)
    plot.add_argument("id", type=int, help="game number")
    plot.add_argument("file", help="the picture to write (.png or .svg)")
    plot.set_defaults(func=plot_game)


def positive_number(kind):
    def parse(text):
        import argparse
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not value > 0:
            raise argparse.ArgumentTypeError("must be a number above 0, not %r" % text)
        return value
    return parse


def open_engine(args, variant):
    """(engine, its name) for --engine; UsiError when it cannot be started."""
    if args.engine == "builtin":
        if args.node:
            raise UsiError("--node is for --engine fsf")
        return Engine(level=8), "built-in engine"
    if fsf.is_fsf_name(args.engine):
        return fsf.open_engine(variant, node=args.node), "Fairy-Stockfish " + fsf.FSF_VERSION
    if args.node:
        raise UsiError("--node is for --engine fsf")
    from yariboard.engines.usi import UsiEngine
    return UsiEngine(args.engine, variant=variant), os.path.basename(args.engine)


class Progress:
    """`analysing game 3: 12/81 positions, 4 s, about 23 s left` on stderr: rewritten in
    place on a terminal, else a line at every tenth of the work."""

    def __init__(self, game_id, stream=sys.stderr):
        self.game_id, self.stream = game_id, stream
        self.tty = stream.isatty()
        self.shown = 0

    def __call__(self, done, total, elapsed):
        left = elapsed / done * (total - done)
        text = "analysing game %d: %d/%d positions, %.0f s, about %.0f s left" % (
            self.game_id, done, total, elapsed, left)
        if self.tty:
            self.stream.write("\r" + text + " " * 4 + ("\n" if done == total else ""))
        elif done == total or done * 10 // total > self.shown:
            self.shown = done * 10 // total
            self.stream.write(text + "\n")
        self.stream.flush()


def read_game(args, plot_path):
    """(the archived game `args.id`, its stored analysis or None, None), or (None, None, why
    not): the game is not there, or the plot asked for cannot be drawn to `plot_path`
    (checked first, so no engine runs for a plot that would fail)."""
    problem = plot_path and plot_problem(plot_path)
    if problem:
        return None, None, problem
    with open_archive(args) as archive:
        try:
            record = archive.game(args.id)
        except KeyError as error:
            return None, None, error.args[0]
        return record, analysis.load(archive, args.id), None


def analyse_game(args):
    record, _, problem = read_game(args, args.plot)
    if problem:
        return fail(problem)
    name = "fsf" if fsf.is_fsf_name(args.engine) else "builtin"
    nodes = None if args.seconds else (args.nodes or DEFAULT_NODES[name])
    try:
        engine, engine_name = open_engine(args, record.variant)
    except EngineError as error:
        return fail(str(error))
    try:
        result = analyse(record, engine, engine_name, nodes=nodes, seconds=args.seconds,
                         on_progress=Progress(record.id))
    except (EngineError, RecordError) as error:
        return fail(str(error))
    except KeyboardInterrupt:
        return fail("interrupted; nothing was stored")
    finally:
        engine.close()
    with open_archive(args) as archive:
        analysis.save(archive, record.id, result)
    notes = analysis.move_notes(record, result)
    counts = {mark: sum(note.mark == mark for note in notes) for mark, _, _ in analysis.MARKS}
    print("game %d analysed by %s at %s per position: %s" % (
        record.id, engine_name, result.budget,
        ", ".join("%d %s" % (n, PLURALS[mark] if n != 1 else mark) for mark, n in counts.items())))
    print(analysis.sparkline(result))
    if args.plot:
        draw(record, result, args.plot)
        print("wrote %s" % args.plot)
    return 0


def plot_game(args):
    record, stored, problem = read_game(args, args.file)
    if problem:
        return fail(problem)
    if stored is None or not analysis.move_notes(record, stored) and record.moves:
        return fail("game %d has no analysis of its current moves: run `yariboard games analyse %d`"
                    % (args.id, args.id))
    draw(record, stored, args.file)
    print("wrote %s" % args.file)
    return 0


def plot_problem(path):
    """Why `path` cannot be drawn to, or None."""
    if not path.lower().endswith((".png", ".svg")):
        return "the plot is written as .png or .svg, not %s" % path
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        return "no folder %s for the plot" % directory
    try:
        import matplotlib  # noqa: F401  (only checking that it is there)
    except ImportError:
        return PLOT_HELP
    return None


def draw(record, result, path):
    """The evaluation (pawns, Black's view, capped) over the plies, marks on the bad moves."""
    import warnings

    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot

    cap = analysis.EVAL_CAP / 100.0
    plies = [e.ply for e in result.evaluations]
    pawns = [analysis.capped(e.score) / 100.0 for e in result.evaluations]
    figure, axes = pyplot.subplots(figsize=(10, 4), dpi=100)
    axes.fill_between(plies, pawns, 0, where=[p >= 0 for p in pawns], color="#dddddd",
                      interpolate=True, label="Black ahead")
    axes.fill_between(plies, pawns, 0, where=[p < 0 for p in pawns], color="#444444",
                      interpolate=True, label="White ahead")
    axes.plot(plies, pawns, color="black", linewidth=1)
    colours = {"inaccuracy": "#e0b000", "mistake": "#e07000", "blunder": "#d00000"}
    for mark, colour in colours.items():
        marked = [note for note in analysis.move_notes(record, result) if note.mark == mark]
        axes.scatter([n.ply for n in marked], [pawns[n.ply] for n in marked], color=colour,
                     zorder=3, s=30, label="%s (%d)" % (mark, len(marked)))
    axes.axhline(0, color="grey", linewidth=0.5)
    axes.set_ylim(-cap * 1.05, cap * 1.05)
    axes.set_xlim(0, max(1, plies[-1]))
    axes.set_xlabel("ply")
    axes.set_ylabel("evaluation (pawns, + Black)")
    axes.set_title("game %d (%s): %s vs %s, %s at %s per position" % (
        record.id, record.variant, record.black or "Black", record.white or "White",
        result.engine, result.budget), fontsize=10)
    axes.legend(loc="upper left", fontsize=8)
    with warnings.catch_warnings():
        # DejaVu Sans has no kanji: a Japanese player name is drawn as boxes, not as an error
        warnings.simplefilter("ignore", UserWarning)
        figure.tight_layout()
        figure.savefig(path)
    pyplot.close(figure)


def show_analysis(console, record, stored):
    """For `games show`: the sparkline and a table of every move's evaluation and mark."""
    notes = analysis.move_notes(record, stored) if stored else []
    if not notes:
        if stored and record.moves:
            console.print("(the stored analysis is of other moves: run `yariboard games analyse %d`)"
                          % record.id)
        return
    console.print("analysis: %s at %s per position (%s)" % (stored.engine, stored.budget, stored.at))
    console.print("evaluation: " + analysis.sparkline(stored))
    table = Table("#", "USI", "eval", "", "loss", "mark", "best", box=None)
    for note in notes:
        table.add_row(str(note.ply), note.usi, analysis.describe_score(note.after),
                      analysis.bar(note.after), str(note.loss) if note.loss else "",
                      (analysis.SYMBOL_OF_MARK[note.mark] + " " + note.mark) if note.mark else "",
                      note.best)
    console.print(table)
