"""A game's stored analysis at the terminal, for `games show`: its sparkline and a table of
every move's evaluation, loss and mark."""
from rich.table import Table

from yariboard.records import analysis


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
