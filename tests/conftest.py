"""Test-run set-up shared by every test module."""
import signal


def pytest_configure(config):
    """Some tests press Ctrl-C on a `yariboard` child (send it SIGINT) and expect it to stop
    cleanly. A test run started in the background by a shell without job control inherits
    SIGINT as ignored, and every child would inherit that too and never stop: give the run
    Python's usual Ctrl-C handler back, which its children see as the default."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
