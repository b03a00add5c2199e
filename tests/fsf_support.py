"""Fairy-Stockfish (npm `fairy-stockfish-nnue.wasm` under Node.js) for the tests that need it.

Installed by `make fsf` (`yariboard engines install fsf`). Without it such tests are skipped,
except in CI (`CI=true`), where a missing engine is a failure: there it must have been
installed by .ci/run.
"""
import os

import pytest

from yariboard.engines import fsf
def require_fsf():
    """Fairy-Stockfish's command line, or skip (fail under CI) saying how to install it."""
    try:
        return fsf.command()
    except fsf.EngineMissing as error:
        if os.environ.get("CI") == "true":
            pytest.fail("Fairy-Stockfish must be installed in CI: %s" % error)
        pytest.skip(str(error))
