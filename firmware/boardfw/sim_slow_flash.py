"""Slow flash for the simulated board (`--slow-save-ms`): every write of a save takes a
while, which widens the window the power-cut tests cut into. Loaded only when asked for."""
import time


class SlowFile:
    """A file whose writes each take `delay_ms`, half the bytes before the pause and half
    after it: a cut in the pause leaves a write half done, as a power cut can on flash."""

    def __init__(self, f, delay_ms):
        self._f = f
        self._delay_ms = delay_ms

    def write(self, data):
        half = len(data) // 2
        done = self._f.write(data[:half])
        time.sleep_ms(self._delay_ms)
        return done + self._f.write(data[half:])

    def read(self):
        return self._f.read()

    def close(self):
        self._f.close()


def slow_opener(delay_ms):
    def opener(path, mode):
        return SlowFile(open(path, mode), delay_ms)
    return opener
