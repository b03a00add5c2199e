"""Game clocks: sudden death, byoyomi, Fischer increment; the engine's share of the time;
a flag fall recorded on the board (real firmware, virtual board clock) as a loss on time."""
import contextlib

import pytest
from rich.console import Console

from shogicore.variants import BLACK, WHITE
from yariboard.records.archive import Archive
from yariboard.play.clocks import GameClock, TimeControl, parse_time_control
from yariboard.ui.console import SimConsole
from yariboard.cli.main import main
from yariboard.engines.builtin.search import Engine
from yariboard.records.formats import export_games, import_games
from yariboard.sim.rig import SimRig

pytestmark = [pytest.mark.micropython]


class Hands:
    """A wall clock the test moves by hand."""

    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def test_sudden_death_runs_only_the_clock_of_the_side_to_move():
    now = Hands()
    clock = GameClock(TimeControl(main=60), now=now)
    clock.start(BLACK)
    now.t += 10
    assert clock.remaining(BLACK) == (50, 0) and clock.remaining(WHITE) == (60, 0)
    clock.moved(BLACK)
    now.t += 59
    assert clock.remaining(BLACK) == (50, 0) and clock.flag() is None
    now.t += 1.5
    assert clock.flag() == WHITE
    assert "Black 0:50" in clock.describe() and "White 0:00*" in clock.describe()


def test_a_stopped_clock_keeps_the_time_its_side_used():
    now = Hands()
    clock = GameClock(TimeControl(main=30), now=now)
    clock.start(WHITE)
    now.t += 31
    assert clock.flag() == WHITE
    clock.stop()                       # the loss on time is recorded: the line shows 0
    now.t += 5
    assert clock.describe() == "Black 0:30  White 0:00"
    byoyomi = GameClock(TimeControl(main=10, byoyomi=5), now=now)
    byoyomi.start(BLACK)
    now.t += 13
    byoyomi.stop()                     # (a game ended by the board, mid-period)
    assert byoyomi.remaining(BLACK) == (0, 2)
    assert byoyomi.describe() == "Black byoyomi 0:02  White 0:10"


def test_byoyomi_gives_each_move_its_period_once_the_main_time_is_gone():
    now = Hands()
    clock = GameClock(TimeControl(main=10, byoyomi=5), now=now)
    clock.start(BLACK)
    now.t += 12
    assert clock.remaining(BLACK) == (0, 3) and clock.flag() is None
    assert "byoyomi 0:03" in clock.describe()
    clock.moved(BLACK)
    clock.moved(WHITE)
    now.t += 4.9                       # a fresh period for the next move
    assert clock.flag() is None
    now.t += 0.2
    assert clock.flag() == BLACK


def test_fischer_adds_the_increment_after_each_move():
    now = Hands()
    clock = GameClock(TimeControl(main=10, increment=2), now=now)
    clock.start(BLACK)
    now.t += 3
    clock.moved(BLACK)
    assert clock.left[BLACK] == 9 and clock.running == WHITE
    now.t += 11                        # White thinks past its 10 s
    assert clock.flag() == WHITE


def test_the_engine_spends_a_share_of_its_time_never_more_than_it_has():
    now = Hands()
    for control in (TimeControl(main=300), TimeControl(main=300, increment=5),
                    TimeControl(main=0, byoyomi=10), TimeControl(main=2, byoyomi=0)):
        clock = GameClock(control, now=now)
        clock.start(WHITE)
        main, byoyomi = clock.remaining(WHITE)
        budget = clock.think_time(WHITE)
        assert 0 < budget <= main + byoyomi
        assert budget <= max(main / 10, byoyomi, control.increment)


@pytest.mark.parametrize("numbers, reason", [
    ((None, 10, 5), "not both"), ((-1, 0, 0), "--time must not be negative"),
    ((0, 0, 0), "needs --time"), ((5, -3, 0), "--byoyomi must not be negative"),
])
def test_bad_time_controls_are_named(numbers, reason):
    with pytest.raises(ValueError) as caught:
        parse_time_control(*numbers)
    assert reason in str(caught.value)


@pytest.mark.parametrize("numbers, reason", [
    ((float("inf"), 0, 0), "--time must be a number of minutes from 0 to 10080, not inf"),
    ((1e308, 0, 0), "--time must be a number of minutes"),
    ((float("nan"), 0, 0), "--time must be a number of minutes from 0 to 10080, not nan"),
    ((5, float("nan"), 0), "--byoyomi must be a number of seconds from 0 to 3600, not nan"),
    ((5, 0, float("nan")), "--increment must be a number of seconds"),
    ((5, 0, float("inf")), "--increment must be a number of seconds"),
])
def test_endless_and_not_a_number_times_are_refused(numbers, reason):
    with pytest.raises(ValueError) as caught:
        parse_time_control(*numbers)
    assert reason in str(caught.value)


@pytest.mark.parametrize("option, value", [("--time", "inf"), ("--time", "1e308"),
                                           ("--time", "nan"), ("--byoyomi", "nan"),
                                           ("--increment", "nan")])
def test_play_refuses_an_endless_clock_in_one_line(tmp_path, capsys, option, value):
    arguments = ["--db", str(tmp_path / "games.sqlite3"), "play", "--sim", option, value]
    if option != "--time":
        arguments += ["--time", "5"]
    assert main(arguments) == 1
    error = capsys.readouterr().err
    assert error.startswith("yariboard: error: %s must be a number of" % option)
    assert error.count("\n") == 1 and "Traceback" not in error


def test_no_clock_without_a_time_and_the_options_turn_into_seconds():
    assert parse_time_control(None, 0, 0) is None
    assert parse_time_control(5, 10, 0) == TimeControl(main=300, byoyomi=10)


def test_a_flag_fall_is_recorded_on_the_board_and_in_the_archive(tmp_path):
    now = Hands()
    clock = GameClock(TimeControl(main=30), now=now)
    with clocked_sim(tmp_path, clock) as sim:
        sim.execute("move 7g7f")
        now.t += 29
        sim.pump(0.1)
        assert sim.session.recorder.result == "-"
        sim.console.export_text()
        sim.show()
        assert "Black 0:30  White 0:01*" in sim.console.export_text()
        now.t += 2
        for _ in range(20):
            sim.pump(0.05)
            if sim.session.finished():
                break
        assert sim.session.recorder.result == "black:time"
        sim.show()
        assert "Black 0:30  White 0:00" in sim.console.export_text()
        record = sim.recorder.record()
        assert (record.winner, record.reason) == ("black", "time")
        assert record.usi_moves() == ["7g7f"]
        for fmt in ("pgn", "json"):   # a loss on time survives the exports
            again = import_games(export_games([record], fmt), fmt)[0]
            assert (again.winner, again.reason) == ("black", "time"), fmt


@contextlib.contextmanager
def clocked_sim(tmp_path, clock, **options):
    """A SimConsole on the real firmware (virtual board time) playing with `clock`."""
    archive = Archive(str(tmp_path / "games.sqlite3"))
    console = Console(width=80, record=True, color_system=None)
    try:
        with SimRig(str(tmp_path / "flash"), clock="virtual", log_dir=str(tmp_path)) as rig:
            sim = SimConsole(rig, archive, console, clock=clock, **options)
            sim.pump(0.2)
            yield sim
    finally:
        archive.close()


def test_the_engine_has_moved_once_its_move_is_lit_and_carrying_it_out_is_the_persons_time(
        tmp_path):
    now = Hands()
    clock = GameClock(TimeControl(main=60), now=now)
    with clocked_sim(tmp_path, clock, engines={WHITE: Engine(level=1)}, time_limit=0.05) as sim:
        now.t += 4
        sim.execute("move 7g7f")
        ordered = _lit_order(sim)      # (the hands' clock stands still while it thinks)
        assert clock.describe() == "Black 0:56*  White 1:00"
        now.t += 7                     # the person carries the engine's move out
        sim.execute("move " + ordered)
        assert sim.recorder.record().usi_moves() == ["7g7f", ordered]
        assert clock.describe() == "Black 0:49*  White 1:00"
        now.t += 3
        sim.execute("move 7f7e")       # the person's own move stops their clock
        assert clock.describe().replace("*", "") == "Black 0:46  White 1:00"


def _lit_order(sim):
    """USI of the engine's move once the board lights it (from-square, to-square)."""
    for _ in range(200):
        sim.pump(0.05)
        styles = sim.rig.led_styles()
        ends = {style: square for square, style in styles.items()}
        if "order-from" in ends and "order-to" in ends:
            return ends["order-from"] + ends["order-to"]
    raise AssertionError("no engine move was lit: %r" % sim.rig.led_styles())


def test_a_loss_on_time_is_written_and_read_in_kif():
    from shogicore.variants import variant_by_name
    from yariboard.records.game import GameRecord, MoveRecord, now_stamp

    record = GameRecord(variant="shogi", start_sfen=variant_by_name("shogi").start_sfen,
                        black="A", white="B", date=now_stamp(), mode="casual",
                        winner="black", reason="time",
                        moves=[MoveRecord("7g7f", now_stamp()), MoveRecord("3c3d", now_stamp()),
                               MoveRecord("2g2f", now_stamp())])
    text = export_games([record], "kif")
    assert "切れ負け" in text                     # the KIF word for a loss on time
    again = import_games(text, "kif")[0]
    assert (again.winner, again.reason) == ("black", "time")   # White, to move, flagged
