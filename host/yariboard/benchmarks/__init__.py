"""Benchmarks printed by `yariboard bench NAME` (and `make bench`, which runs them all).

Each module here defines `run()` that prints its figures, one per line, as `name: value`.
"""
ORDER = ("rules", "firmware", "engine", "link", "emulator")
