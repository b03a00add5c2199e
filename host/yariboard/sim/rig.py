"""A simulated board on the desk: the firmware in simboard.SimBoard, plus hands and a cable.

The hands turn a move into what a person does with the pieces (lift, lift the captured
piece, place), so scripted games reach the board only as sensor events. The cable can be
pulled: the pseudo-terminal the host has open disappears (reads fail, as when a USB port
vanishes) and the board loses power; plugging it back boots the firmware on the same flash
with a new port, which the host finds through `ports()` like a real board's.
"""
import os
import tempfile
import time

from boardfw.interpreter import SETTLE_MS
from shogicore.move import is_drop, move_from, move_to
from yariboard import resources
from yariboard.board.ledstyles import style_names
from yariboard.sim.board import SimBoard, occupied_squares

def hand_actions(position, move):
    """Control lines a player's hands produce for `move` in `position` (not yet played)."""
    variant = position.variant
    to = variant.square_name(move_to(move))
    if is_drop(move):
        return ["place " + to]
    frm = variant.square_name(move_from(move))
    if position.piece_at(move_to(move)):
        return ["lift " + frm, "lift " + to, "place " + to]
    return ["lift " + frm, "place " + to]


class SimRig:
    _scratch = None   # the temporary folder close() removes, if the rig made one

    def __init__(self, storage_dir=None, board="yari-9x7", clock="virtual", log_dir=None):
        """Without `storage_dir` the board's flash is a temporary folder, removed by close().
        An unknown `board` raises resources.UnknownBoard before anything is made."""
        resources.board_file(board)
        self._scratch = None if storage_dir else tempfile.TemporaryDirectory(prefix="yariboard-sim-")
        self.storage_dir = storage_dir or os.path.join(self._scratch.name, "flash")
        self._hold(board, clock, log_dir or (self._scratch.name if self._scratch else None))

    def _hold(self, board, clock, log_dir):
        """What every rig keeps: the board's name and clock, its log folder, and the cable
        (the board itself is made at start())."""
        self.board_name = board
        self.clock = clock
        self.log_dir = log_dir
        self.board = None
        self.plugged = False
        self.unplugs = 0

    def start(self):
        self.board = SimBoard(self.storage_dir, board=self.board_name, clock=self.clock,
                              log_dir=self.log_dir, report_styles=True).start()
        self.plugged = True
        return self

    def board_seconds(self):
        """The clock the host's waits for this board run on (board.link.Link's `clock`): the
        wall clock, which the unix port keeps up with."""
        return time.monotonic()

    def close(self):
        if self.board is not None:
            self.board.close()
        self.plugged = False
        if self._scratch is not None:
            self._scratch.cleanup()

    def __enter__(self):
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc):
        self.close()

    @property
    def port(self):
        return self.board.port

    def ports(self):
        """What a port scan would find now: the board's port while it is plugged in."""
        return [self.board.port] if self.plugged else []

    # -- the cable and the power -----------------------------------------------------------

    def unplug(self):
        """Pull the USB cable: the board stops and its port vanishes under the host."""
        occupied = set(self.board.occupied)
        self.board.close()
        self.board = SimBoard(self.storage_dir, board=self.board_name, clock=self.clock,
                              occupied=occupied, log_dir=self.log_dir, report_styles=True)
        self.plugged = False
        self.unplugs += 1

    def replug(self):
        self.board.start()
        self.plugged = True

    def reset(self):
        """Power-cycle the board (reset button, brown-out) with the cable left in."""
        self.board.restart()

    # -- the hands -------------------------------------------------------------------------

    def perform(self, position, move):
        """Carry out `move` on the sensors and let the board settle so it commits it.

        Each touch lasts a few debounce periods, as a hand does; the last one is followed by
        the settling time after which the board commits a move.
        """
        touch_ms = 3 * self.board.config.debounce_ms
        for index, line in enumerate(hand_actions(position, move)):
            self.act(line, touch_ms if index else 0)
        self.wait(touch_ms + SETTLE_MS + 100)

    def arrange(self, variant, sfen):
        """Set the pieces out for the position `sfen` (a new game or a set-up position)."""
        self.act("set " + " ".join(occupied_squares(variant, sfen)))
        self.wait(3 * self.board.config.debounce_ms + 100)

    def act(self, line, after_ms=0):
        """One control line (`lift 7g`, `place 7f`, `press A`...), after `after_ms` of time.

        With the cable out the board has no power: pieces still move (it sees them when it
        boots), buttons do nothing."""
        if after_ms:
            self.wait(after_ms)
        verb, _, square = line.partition(" ")
        if self.plugged:
            self.board.send_commands([line])
        elif verb == "place":
            self.board.occupied.add(square)
        elif verb == "lift":
            self.board.occupied.discard(square)

    def wait(self, ms):
        """Let board time pass: advanced on a virtual clock, slept through on a real one."""
        if self.clock == "real":
            time.sleep(ms / 1000.0)
        elif self.plugged:
            self.board.advance(ms)
            self.board.sync()

    def led_styles(self):
        """{square: LED style name} the interpreter lights now (blinking styles included)."""
        names = style_names()
        return {square: names[style] for square, style in self.board.styles.items()}

    def phase(self):
        """The interpreter's phase ('idle', 'choice', ...), '' while unplugged."""
        return self.board.phase if self.plugged else ""
