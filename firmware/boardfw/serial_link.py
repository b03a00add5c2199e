"""USB serial (CDC) through stdin/stdout, never blocking the main loop.

Input is read a byte at a time while `select.poll` says one is waiting, and assembled
into lines; a line longer than protocol.MAX_LINE is dropped whole and reported once.
The ports are asked with `ipoll`, which allocates nothing: the loop asks on every pass,
and `poll` would leave a list behind each time.
Output is written only when the port can take it; otherwise the frame is dropped and the
host notices the gap in sequence numbers and resynchronises.

Ctrl-C (0x03) still raises KeyboardInterrupt on the Pico (micropython.kbd_intr is left
at its default), which is how mpremote stops the firmware to redeploy it; frames are
printable ASCII, so the host never sends it.
"""
import select
import sys
from micropython import const

from boardfw.protocol import MAX_LINE, write_frame

_TOO_LONG = const(b"")  # returned in place of an over-long line
_MAX_BYTES_PER_POLL = const(64)


class SerialLink:
    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll_in = select.poll()
        self._poll_in.register(self._in, select.POLLIN)
        self._poll_out = select.poll()
        self._poll_out.register(self._out, select.POLLOUT)
        self._line = bytearray(MAX_LINE)
        self._length = 0
        self._overflow = False
        self.dropped_frames = 0

    def read_line(self):
        """One complete line (bytes, without newline), b"" for an over-long one, or None if
        none is ready."""
        for _ in range(_MAX_BYTES_PER_POLL):
            if not _ready(self._poll_in):
                return None
            byte = self._in.read(1)
            if not byte:
                return None
            if byte == b"\n":
                if self._overflow:
                    self._overflow = False
                    self._length = 0
                    return _TOO_LONG
                line = bytes(self._line[:self._length])
                self._length = 0
                return line
            if self._length < MAX_LINE:
                self._line[self._length] = byte[0]
                self._length += 1
            else:
                self._overflow = True
        return None

    def send(self, seq, words):
        """Send the frame of `words` if the port is ready; count it as dropped otherwise."""
        if _ready(self._poll_out):
            write_frame(self._out.write, seq, words)
            flush = getattr(self._out, "flush", None)
            if flush:
                flush()
        else:
            self.dropped_frames += 1


def _ready(poll):
    """Has the one stream registered with `poll` an event now?"""
    for _ in poll.ipoll(0):
        return True
    return False
