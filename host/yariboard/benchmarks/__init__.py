"""Benchmarks printed by `yariboard bench NAME` (and `make bench`, which runs them all).

Each module here defines `run()` that prints its figures, one per line, as `name: value`.
"""
ORDER = ("rules", "firmware", "engine", "byoyomi", "link", "archive", "records", "fsf", "emulator",
         "hands", "match", "ladder", "web")
# These take the MicroPython unix ports to measure with: run(binaries), [] for the default.
HEAP_BENCHES = ("rules", "firmware")
