"""The serial link to the board: find it, frame requests, retry, survive unplugs.

A real board is a Raspberry Pi Pico running MicroPython, which shows up as a USB CDC port
with VID 0x2E8A / PID 0x0005; `--port` names one explicitly (the simulator's pseudo-terminal
is opened the very same way). Requests follow docs/protocol.md: one frame, one reply, the
same frame resent with the same SEQ when no reply comes (the board never executes it twice).
Events the board sends on its own are queued for `poll()`. Any I/O error, or a board that
stops answering, closes the port; `connect()` then reopens it when it comes back, and
`needs_resync` tells the caller to catch up from the board's history.
"""
import collections
import time

import serial
from serial.tools import list_ports

from boardfw import protocol
from yariboard.board import replies
from yariboard.board.replies import BadReply

PICO_VID = 0x2E8A
PICO_PID = 0x0005
BAUD = 115200  # CDC ignores it; pyserial wants one


def board_ports():
    """Device paths of attached Raspberry Pi Pico MicroPython boards."""
    return list(attached_boards().values())


def attached_boards():
    """{identity: device path} of the attached Raspberry Pi Pico MicroPython boards.

    A board's identity is its USB serial number, which MicroPython's rp2 port makes of the
    flash chip's unique id: the same on whichever port or hub the board is plugged into, at
    no cost to the firmware. A port that reports no serial number is known by its path."""
    return {port.serial_number or port.device: port.device for port in list_ports.comports()
            if port.vid == PICO_VID and port.pid == PICO_PID}


def describe_ports():
    """Every serial port with its USB ids, for the 'no board found' message."""
    lines = []
    for port in list_ports.comports():
        ids = "%04X:%04X" % (port.vid, port.pid) if port.vid is not None else "no USB ids"
        lines.append("  %s (%s) %s" % (port.device, ids, port.description or ""))
    return "\n".join(lines) or "  (no serial ports at all)"


class LinkError(RuntimeError):
    pass


class Disconnected(LinkError):
    """The port went away or the board stopped answering; call connect() again."""


class BoardRefused(LinkError):
    """The board answered `err CODE message`: the request was refused, nothing changed."""

    def __init__(self, verb, code, message):
        super().__init__("board refused %s: %s (%s)" % (verb, message, code))
        self.code = code


class Link:
    def __init__(self, port=None, finder=board_ports, reply_timeout=1.0, retries=3,
                 on_status=None, clock=time.monotonic):
        """`clock()` (seconds) is what `reply_timeout` is measured on: the wall clock for a
        real board, the board's own time for an emulated one (EmulatedPico.board_seconds),
        which a busy machine slows down as much as it slows the board."""
        self.port_override = port
        self.finder = finder
        self.reply_timeout = reply_timeout
        self.clock = clock
        self.retries = retries
        self.on_status = on_status
        self.serial = None
        self.port = None
        self.seq = 0
        self.board_seq = None        # last sequence number received from the board
        self.needs_resync = True
        self.events = collections.deque()
        self.version = None          # words of the `version` reply
        self.bad_lines = 0
        self.connections = 0         # successful connects, the first one included
        self.status = "not connected"
        self._buffer = b""

    # -- connection ---------------------------------------------------------------------

    def connected(self):
        return self.serial is not None

    def set_status(self, text):
        """Say what the link is doing on its status line (the follower says it too: a
        locked archive, a fault being resynchronised)."""
        self.status = text
        if self.on_status:
            self.on_status(text)

    def want_resync(self):
        """Ask the follower to catch up from the board's history at its next step."""
        self.needs_resync = True

    def resync_begins(self):
        """The follower starts catching up; anything that goes wrong meanwhile asks again."""
        self.needs_resync = False

    def candidates(self):
        return [self.port_override] if self.port_override else list(self.finder())

    def connect(self, timeout=None):
        """Open the first port where a board answers `version`; wait for one up to `timeout`
        seconds of `clock()` (None: for ever). Raises LinkError naming the ports seen on
        timeout."""
        deadline = None if timeout is None else self.clock() + timeout
        self.set_status("looking for the board")
        while True:
            for path in self.candidates():
                try:
                    self._open(path)
                    self._hello_board()
                except (Disconnected, BoardRefused, BadReply, OSError, serial.SerialException):
                    self._close()
                    continue
                self.connections += 1
                self.needs_resync = True
                self.set_status("connected on %s (firmware %s)" % (path, self.version[1]))
                return
            if deadline is not None and self.clock() > deadline:
                tried = ", ".join(self.candidates()) or "none with the Pico's USB ids %04X:%04X" % (
                    PICO_VID, PICO_PID)
                raise LinkError("no board answered (ports tried: %s); serial ports:\n%s"
                                % (tried, describe_ports()))
            self.set_status("waiting for the board (unplugged?)")
            time.sleep(0.2)

    def _hello_board(self):
        """Ask `version`; continue numbering after the last changing request the board
        carried out (docs/protocol.md: older numbers are refused as stale)."""
        self.version = replies.version(self.request("version"))
        last = self.version[4] if len(self.version) > 4 else "-"
        if last.isdigit() and int(last) < 65536:
            self.seq = protocol.next_seq(int(last))

    def _open(self, path):
        self._close()
        self.serial = serial.Serial(path, BAUD, timeout=0, write_timeout=2)
        self.port = path
        self.serial.reset_input_buffer()
        self._buffer = b""
        self.board_seq = None
        self.events.clear()          # whatever was pending, resynchronising covers it

    def _close(self):
        if self.serial is not None:
            try:
                self.serial.close()
            except (OSError, serial.SerialException):
                pass
        self.serial = None

    def close(self):
        self._close()
        self.set_status("closed")

    def _lost(self, why):
        self._close()
        self.needs_resync = True
        self.set_status("disconnected: %s" % why)
        return Disconnected(why)

    # -- frames -------------------------------------------------------------------------

    def _write(self, frame):
        if self.serial is None:
            raise Disconnected("not connected")
        try:
            self.serial.write(frame)
            self.serial.flush()
        except (OSError, serial.SerialException) as error:
            raise self._lost("write failed: %s" % error)

    def _read_frames(self, timeout):
        """Frames that arrive within `timeout` seconds (returns early once any arrived)."""
        if self.serial is None:
            raise Disconnected("not connected")
        deadline = time.monotonic() + timeout
        frames = []
        while True:
            try:
                waiting = self.serial.in_waiting
                data = self.serial.read(waiting or 1)
            except (OSError, serial.SerialException, TypeError) as error:
                raise self._lost("read failed: %s" % error)
            if data:
                self._buffer += data
                while b"\n" in self._buffer:
                    line, self._buffer = self._buffer.split(b"\n", 1)
                    frame = self._decode(line)
                    if frame:
                        frames.append(frame)
                if len(self._buffer) > protocol.MAX_LINE:
                    self._buffer = b""       # garbage without a newline: drop it
                    self.bad_lines += 1
                    self.needs_resync = True
            if frames or time.monotonic() >= deadline:
                return frames
            if not data:
                time.sleep(0.002)

    def _decode(self, line):
        try:
            seq, verb, args = protocol.decode(line)
        except protocol.ProtocolError:
            # A frame was garbled: it may have been an event, so catch up from history.
            self.bad_lines += 1
            self.needs_resync = True
            return None
        # a frame went missing when this is not the one after the last
        if verb == "hello" or (self.board_seq is not None
                               and seq != protocol.next_seq(self.board_seq)):
            self.needs_resync = True
        self.board_seq = seq
        return seq, verb, args

    def request(self, verb, *args):
        """Send one request; return the words after `ok RSEQ VERB`.

        Raises BoardRefused for an `err` reply, Disconnected when the board does not answer
        after `retries` resends or the port fails. Events arriving meanwhile are queued.
        A request refused as stale (another host numbered past ours) is sent once more,
        numbered after the board's last: it was not carried out, so that is safe.
        """
        try:
            return self._request(verb, args)
        except BoardRefused as refusal:
            if refusal.code != "stale" or verb == "version":
                raise
        self._hello_board()
        return self._request(verb, args)

    def _request(self, verb, args):
        seq = self.seq
        self.seq = protocol.next_seq(seq)
        frame = protocol.encode(seq, [verb] + [str(a) for a in args])
        for _ in range(self.retries + 1):
            self._write(frame)
            sent = self.clock()
            resend = False
            while not resend:
                left = self.reply_timeout - (self.clock() - sent)
                if left <= 0:
                    break
                reply = None
                # Every event of the batch is queued, also those read after the reply.
                for _, kind, words in self._read_frames(left):
                    if kind not in ("ok", "err"):
                        self.events.append((kind, words))
                    elif words and words[0] == str(seq):
                        reply = reply or (kind, words)
                    elif kind == "err" and words and words[0] == "-":
                        resend = True    # our frame arrived garbled: send it again now
                if reply is not None:
                    kind, words = reply
                    if kind == "ok":
                        return words[2:]
                    raise BoardRefused(verb, words[1] if len(words) > 1 else "?",
                                       " ".join(words[2:]))
        raise self._lost("no reply to %s after %d tries" % (verb, self.retries + 1))

    def poll(self, timeout=0.0):
        """Events received so far or within `timeout` seconds: a list of (verb, words)."""
        if not self.events:
            for _, kind, words in self._read_frames(timeout):
                if kind not in ("ok", "err"):
                    self.events.append((kind, words))
        events = list(self.events)
        self.events.clear()
        return events
