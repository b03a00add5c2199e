"""Game clocks kept by the host: sudden death, byoyomi or Fischer increment.

The board has no clock of its own; the host runs the clock of the side to move from the
moment the previous move was committed. A side whose main time is used up plays each move
within the byoyomi period (if any); with an increment, every move made adds it to the
mover's time. When a side's time is gone, `flag()` names it and the host records the loss
on the board (`resign SIDE time`, docs/protocol.md). Times are in seconds.
"""
import math
import time
from dataclasses import dataclass

from shogicore.variants import BLACK, WHITE

from yariboard.engines.base import Limit

# The longest a clock may be set to: a week of main time, an hour a move.
MAX_MINUTES = 7 * 24 * 60
MAX_SECONDS = 3600


@dataclass(frozen=True)
class TimeControl:
    main: float             # seconds of main time per side
    byoyomi: float = 0.0    # seconds per move once the main time is gone
    increment: float = 0.0  # seconds added after each move (Fischer)

    def describe(self):
        text = format_seconds(self.main)
        if self.byoyomi:
            text += " + %gs byoyomi" % self.byoyomi
        if self.increment:
            text += " + %gs per move" % self.increment
        return text


def format_seconds(seconds):
    """'m:ss', whole seconds rounded up as a clock shows them (0:00 only once flagged)."""
    whole = int(math.ceil(max(0.0, seconds)))
    return "%d:%02d" % (whole // 60, whole % 60)


class GameClock:
    """Both sides' time for one game; `now` is injectable so tests run without waiting."""

    def __init__(self, control, now=time.monotonic):
        self.control = control
        self.now = now
        self.reset()

    def reset(self):
        """Full time for both sides, no clock running (a new game)."""
        self.left = {BLACK: self.control.main, WHITE: self.control.main}
        self.running = None       # the side whose clock runs
        self.since = 0.0          # when it started running
        self.stopped = None       # (side, byoyomi left) of the clock stopped mid-period

    def start(self, side):
        """The clock of `side` starts (a new game, or after a take-back)."""
        self.running = side
        self.since = self.now()
        self.stopped = None

    def stop(self):
        """Stop the running clock with the time it used charged: after a flag fall it
        shows 0, not the time the side had before its move."""
        side = self.running
        if side is not None:
            main, byoyomi = self.remaining(side)
            self.left[side] = main
            self.stopped = (side, max(0.0, byoyomi))
        self.running = None

    def used(self):
        return self.now() - self.since if self.running is not None else 0.0

    def moved(self, side):
        """`side` made a move: charge its time, add the increment, start the other clock."""
        if self.running == side:
            spent = self.used()
            if self.left[side] > 0:
                self.left[side] = max(0.0, self.left[side] - spent)
            self.left[side] += self.control.increment
        self.start(1 - side)

    def remaining(self, side):
        """(main time left, byoyomi left) of `side` right now."""
        main = self.left[side]
        if self.running != side:
            if self.stopped is not None and self.stopped[0] == side:
                return main, self.stopped[1]
            return main, self.control.byoyomi
        spent = self.used()
        if spent <= main:
            return main - spent, self.control.byoyomi
        return 0.0, self.control.byoyomi - (spent - main)

    def flag(self):
        """The side whose time has run out, or None."""
        side = self.running
        if side is None:
            return None
        main, byoyomi = self.remaining(side)
        return side if main <= 0 and byoyomi <= 0 else None

    def think_time(self, side):
        """Seconds the engine playing `side` may spend on this move, planned as every engine
        plans its clock (`Limit.planned_seconds`)."""
        main, byoyomi = self.remaining(side)
        increment = self.control.increment
        return Limit(black_clock=main, white_clock=main, black_increment=increment,
                     white_increment=increment, byoyomi=byoyomi).planned_seconds(side)

    def describe(self):
        parts = []
        for side, name in ((BLACK, "Black"), (WHITE, "White")):
            main, byoyomi = self.remaining(side)
            text = format_seconds(main)
            if main <= 0 and self.control.byoyomi:
                text = "byoyomi %s" % format_seconds(byoyomi)
            parts.append("%s %s%s" % (name, text, "*" if self.running == side else ""))
        return "  ".join(parts)


def parse_time_control(minutes, byoyomi, increment):
    """A TimeControl from the command line's numbers, or None without a main time.

    ValueError names what is wrong (a one-line message for the user)."""
    if minutes is None and not byoyomi and not increment:
        return None
    if byoyomi and increment:
        raise ValueError("choose byoyomi or an increment, not both")
    for name, value, most, unit in (("--time", minutes or 0, MAX_MINUTES, "minutes"),
                                     ("--byoyomi", byoyomi, MAX_SECONDS, "seconds"),
                                     ("--increment", increment, MAX_SECONDS, "seconds")):
        if value < 0:
            raise ValueError("%s must not be negative" % name)
        if not value <= most:      # also false for nan
            raise ValueError("%s must be a number of %s from 0 to %d, not %s"
                             % (name, unit, most, value))
    main = 60.0 * (minutes or 0)
    if main <= 0 and not byoyomi:
        raise ValueError("a clock needs --time MINUTES above 0 (or --byoyomi)")
    return TimeControl(main=main, byoyomi=byoyomi, increment=increment)
