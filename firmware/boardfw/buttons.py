"""The two push buttons: debounced, each press reported once as short or long.

A press is short when released before LONG_MS; it is long as soon as it has been held
LONG_MS (reported at that moment, so the player sees the answer while still holding).
"""
import time
from micropython import const

_LONG_MS = const(800)


class Button:
    def __init__(self, name, pin):
        self.name = name
        self.pin = pin
        self.raw = False        # last reading (True = pressed)
        self.since = 0          # ticks of the last raw change
        self.pressed = False    # debounced state
        self.pressed_at = 0
        self.long_sent = False


class Buttons:
    """Polls pins (anything with `value()`, 0 when pressed) and reports presses."""

    def __init__(self, pins, debounce_ms):
        self.buttons = [Button(name, pins[name]) for name in sorted(pins)]
        self.debounce_ms = debounce_ms

    def poll(self, now_ms, events):
        """Append (name, long_press) to `events` for each press completed by now."""
        for b in self.buttons:
            raw = not b.pin.value()
            if raw != b.raw:
                b.raw = raw
                b.since = now_ms
            elif raw != b.pressed and time.ticks_diff(now_ms, b.since) >= self.debounce_ms:
                b.pressed = raw
                if raw:
                    b.pressed_at = now_ms
                    b.long_sent = False
                elif not b.long_sent:
                    events.append((b.name, False))
            if b.pressed and not b.long_sent and time.ticks_diff(now_ms, b.pressed_at) >= _LONG_MS:
                b.long_sent = True
                events.append((b.name, True))
