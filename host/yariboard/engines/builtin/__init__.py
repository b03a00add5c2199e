"""The built-in engine: its search, judgement, move generator and make/unmake."""
