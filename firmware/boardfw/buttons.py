"""The two push buttons: debounced, each press reported once as short or long.

A press is short when released before LONG_MS; it is long as soon as it has been held
LONG_MS (reported at that moment, so the player sees the answer while still holding).
`scan` (in the interrupt, matrix.Watch) rings each settled press and release with its time;
`update` and `poll` (in the main loop) turn them into presses, so a tap the interrupt saw
is reported however busy the loop was while the button went down and up.
"""
import time
from micropython import const

_LONG_MS = const(800)
_CLOSED = const(0x100)   # the event codes of matrix.Watch's ring
_BUTTON = const(0x200)


class Button:
    def __init__(self, name, pin):
        self.name = name
        self.pin = pin
        self.raw = False        # last reading (True = pressed)   } sampled in the interrupt
        self.since = 0          # ticks of the last raw change     }
        self.pressed = False    # debounced state                  }
        self.pressed_at = None  # when a press the main loop took went down; None: released
        self.long_sent = False


class Buttons:
    """Pins (anything with `value()`, 0 when pressed) sampled, and their presses reported."""

    def __init__(self, pins, debounce_ms):
        self.buttons = [Button(name, pins[name]) for name in sorted(pins)]
        self.debounce_ms = debounce_ms   # as read across samples (matrix.Matrix)

    def scan(self, now_ms, out):
        """Read every pin; `out.append` (matrix.Watch) each press or release that settled."""
        buttons = self.buttons
        for index in range(len(buttons)):
            b = buttons[index]
            raw = not b.pin.value()
            if raw != b.raw:
                b.raw = raw
                b.since = now_ms
            elif (raw != b.pressed and time.ticks_diff(now_ms, b.since) >= self.debounce_ms
                  and out.append(_BUTTON + index + (_CLOSED if raw else 0), now_ms)):
                b.pressed = raw

    def update(self, index, pressed, now_ms, events):
        """A settled press or release of button `index` at `now_ms`: a release before the
        long press was reported appends (name, False) to `events`."""
        b = self.buttons[index]
        if pressed:
            b.pressed_at = now_ms
            b.long_sent = False
        elif b.pressed_at is not None:
            b.pressed_at = None
            if not b.long_sent:
                events.append((b.name, False))

    def poll(self, now_ms, events):
        """Append (name, True) for each button held down LONG_MS by now; True while a
        button is down (its press taken, its release still to come)."""
        down = False
        for b in self.buttons:
            if b.pressed_at is not None:
                down = True
                if not b.long_sent and time.ticks_diff(now_ms, b.pressed_at) >= _LONG_MS:
                    b.long_sent = True
                    events.append((b.name, True))
        return down
