"""The web server's process stays out of the recording's way on Linux: the idle scheduling
class, and a session of its own, hence (with the kernel's autogroups) a scheduling group of
its own, so that the CPU it spends is not charged to the recording's group."""
import os

from yariboard.ui.web.feed import LiveFeed
from yariboard.ui.web.server import WebServer


def autogroup(pid):
    """The autogroup a process is in ('/autogroup-12'), None without autogroups (no file, or
    an empty one, as some container kernels give)."""
    try:
        with open("/proc/%s/autogroup" % pid) as group:
            words = group.read().split()
    except OSError:
        return None
    return words[0] if words else None


def test_the_server_runs_in_the_idle_class_in_a_session_and_group_of_its_own():
    with WebServer(LiveFeed(), port=0) as server:
        pid = server.process.pid
        assert os.getsid(pid) == pid
        assert os.getsid(pid) != os.getsid(0)
        assert os.sched_getscheduler(pid) == os.SCHED_IDLE
        assert os.sched_getscheduler(0) != os.SCHED_IDLE       # the recording's own is untouched
        if autogroup("self") is not None:
            assert autogroup(pid) != autogroup("self")
