"""Slow flash for the simulated board (`--slow-save-ms`): every write of a save takes a
while, which widens the window the power-cut tests cut into. Loaded only when asked for."""
import time


class SlowFile:
    """A file whose writes each take `delay_ms`: widens the save window for power-cut tests."""

    def __init__(self, f, delay_ms):
        self._f = f
        self._delay_ms = delay_ms

    def write(self, data):
        time.sleep_ms(self._delay_ms)
        return self._f.write(data)

    def read(self):
        return self._f.read()

    def close(self):
        self._f.close()


def slow_opener(delay_ms):
    def opener(path, mode):
        return SlowFile(open(path, mode), delay_ms)
    return opener
