"""The board drivers on the MicroPython unix port, with the simulated pins of sim_hw (the
same interfaces as the Pico's): debounce, buttons, LED current cap, atomic saves."""
import pytest
import binascii
import json
import os
import random
import subprocess
import time

from shogicore.game import Game
from shogicore.move import to_usi
from tests.mpy import FIRMWARE, ROOT, micropython_binary, run_micropython
from yariboard import resources
from yariboard.sim.board import SerialClient, SimBoard, move_gestures, occupied_squares

pytestmark = [pytest.mark.micropython]

BOARD = resources.board_file("yari-9x7")


def micropython_json(code):
    """Run `code` (which prints one JSON document last) on the unix port; return it decoded."""
    _, stdout, _ = run_micropython("import json\n" + code)
    return json.loads(stdout.strip().splitlines()[-1])


# The matrix on simulated pins, and what it rings (matrix.Watch.append) as [row, col, closed]
# of 7 columns.
MATRIX_CHANGES = """
from boardfw.matrix import Matrix
from boardfw.sim_hw import SimMatrixPins
class Changes:
    # what the matrix rings (matrix.Watch.append), as [row, col, closed] of 7 columns
    def __init__(self):
        self.items = []
    def append(self, code, t):
        self.items.append([(code & 255) // 7, (code & 255) % 7, bool(code & 256)])
        return True
"""


def test_matrix_reports_a_change_only_after_it_held_for_the_debounce_time():
    result = micropython_json(MATRIX_CHANGES + """
pins = SimMatrixPins(9)
m = Matrix(pins, 9, 7, 30)
m.prime(0)
log = []
def scan(t):
    changes = Changes()
    m.scan(t, changes)
    log.append([t, changes.items])
pins.set(2, 3, True); scan(5)            # flicker: on for 20 ms only
scan(15); pins.set(2, 3, False); scan(25); scan(60); scan(100)
pins.set(4, 1, True); scan(110); scan(139); scan(140); scan(200)
pins.set(4, 1, False); scan(210); pins.set(4, 1, True); scan(220); scan(245); scan(260)
print(json.dumps([log, m.closed(4, 1), m.closed(2, 3)]))
""")
    log, closed_41, closed_23 = result
    reported = [(t, c) for t, changes in log for c in changes]
    # the 20 ms flicker on (2,3) never counts; (4,1) counts 30 ms after it was first seen
    # closed; the later 10 ms opening of (4,1) is a bounce and does not count either
    assert reported == [(140, [4, 1, True])]
    assert closed_41 is True and closed_23 is False


def test_a_chattering_switch_does_not_hold_up_its_neighbours_in_the_row():
    reported = micropython_json(MATRIX_CHANGES + """
pins = SimMatrixPins(9)
m = Matrix(pins, 9, 7, 30)
m.prime(0)
out = []
pins.set(0, 0, True)
for t in range(0, 200, 5):
    pins.set(0, 6, (t // 5) % 2 == 0)      # column 6 chatters every scan
    changes = Changes()
    m.scan(t, changes)
    out += [[t] + c for c in changes.items]
print(json.dumps(out))
""")
    assert reported == [[30, 0, 0, True]]


def test_the_debounce_time_holds_across_the_16_bit_wrap_of_its_timers():
    # The matrix keeps the low 16 bits of ticks_ms per switch: a change seen at 65530 ms
    # settles at 65560 ms, past 65536, exactly as one seen at 10 ms settles at 40 ms.
    reported = micropython_json(MATRIX_CHANGES + """
pins = SimMatrixPins(9)
m = Matrix(pins, 9, 7, 30)
out = []
for start in (10, 65530, 3 * 65536 + 65530):
    m.prime(start - 10)
    pins.set(1, 1, not m.closed(1, 1))
    for t in range(start, start + 40):
        changes = Changes()
        m.scan(t, changes)
        out += [[t - start] + c for c in changes.items]
print(json.dumps(out))
""")
    assert reported == [[30, 1, 1, True], [30, 1, 1, False], [30, 1, 1, True]]


def test_buttons_short_and_long_presses_and_bounce():
    events = micropython_json("""
from boardfw.buttons import Buttons
from boardfw.sim_hw import SimPin
a, b = SimPin(), SimPin()
buttons = Buttons({'A': a, 'B': b}, 20)
out = []
class Edges:
    # the watch's ring, handed straight back to the buttons as the main loop does
    def append(self, code, t):
        buttons.update(code & 255, bool(code & 256), t, ev)
        return True
def at(t):
    global ev
    ev = []
    buttons.scan(t, Edges())
    buttons.poll(t, ev)
    out.extend([t, name, long] for name, long in ev)
a.level = 0; at(0); a.level = 1; at(5); at(40)          # 5 ms bounce: nothing
a.level = 0; at(100); at(125); at(300); a.level = 1; at(310); at(335)   # short press
b.level = 0; at(400); at(425); at(1100); at(1224); at(1226); at(1500)
b.level = 1; at(1600); at(1650)                           # long press, reported once
print(json.dumps(out))
""")
    assert events == [[335, "A", False], [1226, "B", True]]


def test_led_frames_are_scaled_into_the_current_budget():
    with open(os.path.join(ROOT, "hardware", "boards", "yari-9x7.json")) as f:
        board = json.load(f)
    per_channel, idle, budget = (board["led_ma_per_channel"], board["led_idle_ma"],
                                 board["led_budget_ma"])
    result = micropython_json("""
from boardfw.leds import Leds
from boardfw.sim_hw import SimStrip
from boardfw import config
c = config.load('%s')
strip = SimStrip(c.led_count)
leds = Leds(strip, c)
leds.fill(0xFFFFFF)
white_ma = leds.show()
all_white = [strip[i] for i in range(len(strip))]
leds.clear()
leds.set(0, 0xC86400)
leds.set(10, 0x005A00)
few_ma = leds.show()
few = [strip[i] for i in range(len(strip))]
print(json.dumps([all_white, white_ma, few, few_ma, list(strip.buf[:3]), strip.writes]))
""" % BOARD)
    all_white, white_ma, few, few_ma, first_bytes, writes = result
    count = len(all_white)

    def current(pixels):
        return count * idle + sum(sum(p) for p in pixels) * per_channel / 255

    assert current([[255] * 3] * count) > budget          # the unscaled frame would be too much
    assert current(all_white) <= budget
    assert current(all_white) > 0.9 * budget              # ... but it is not dimmed needlessly
    assert abs(white_ma - current(all_white)) < 1         # the estimate is of what was sent
    assert len({tuple(p) for p in all_white}) == 1        # every LED scaled alike
    assert few[0] == [200, 100, 0] and few[10] == [0, 90, 0]   # within budget: untouched
    assert sum(map(sum, few)) == 390 and abs(few_ma - current(few)) < 1
    assert first_bytes == [100, 200, 0]                   # on the wire: green, red, blue
    assert writes == 2


def test_led_frames_fit_any_chain_length_and_an_unchanged_frame_is_not_resent():
    result = micropython_json("""
from boardfw.leds import Leds
from boardfw.sim_hw import SimStrip
from boardfw import config
c = config.load('%s')
out = []
for count in (63, 81, 121):
    strip = SimStrip(count)
    leds = Leds(strip, c)
    leds.clear()
    leds.set(count - 1, 0x010203)
    leds.show()
    leds.clear()
    leds.set(count - 1, 0x010203)          # the same frame again
    leds.show()
    out.append([count, strip[count - 1], sum(strip.buf), strip.writes])
print(json.dumps(out))
""" % BOARD)
    assert result == [[n, [1, 2, 3], 6, 1] for n in (63, 81, 121)]


def test_a_frame_that_differs_in_one_led_or_colour_is_sent():
    # Frames are told apart without a copy of the last one: any one LED lit elsewhere or
    # in another colour is a new frame, the same frame built again is not.
    writes = micropython_json("""
from boardfw.leds import Leds
from boardfw.sim_hw import SimStrip
from boardfw import config
strip = SimStrip(121)
leds = Leds(strip, config.load('%s'))
frames = ([(3, 0x010203), (90, 0x00FF00)], [(3, 0x010204), (90, 0x00FF00)],
          [(4, 0x010203), (90, 0x00FF00)], [(4, 0x010203), (90, 0x00FF00)],
          [(4, 0x010203)], [], [])
out = []
for frame in frames:
    leds.clear()
    for index, rgb in frame:
        leds.set(index, rgb)
    leds.show()
    out.append([strip.writes, sum(strip.buf)])
print(json.dumps(out))
""" % BOARD)
    assert [w for w, _ in writes] == [1, 2, 3, 3, 4, 5, 5]
    assert [total for _, total in writes] == [261, 262, 261, 261, 6, 0, 0]


def test_save_is_atomic_and_damage_is_detected(tmp_path):
    result = micropython_json("""
from boardfw.storage import GameStore, SavedGame, CorruptSave
d = '%s'
store = GameStore(d)
moves = ['7g7f', '3c3d'] * 10
moves.pop()
store.save(SavedGame('0badcafe', 'yari', 'casual', '-', '-', '-', 'S T A R', moves))
first = store.load()
# a power cut during the next compaction leaves a partial temp file behind
f = open(d + '/game.tmp', 'wb'); f.write(b'yariboard-game 2\\nid dead'); f.close()
after_cut = store.load()
import os
leftover = 'game.tmp' in os.listdir(d)
data = open(d + '/game.txt', 'rb').read()
outcomes = []
for damaged in (data[:-5], data.replace(b'7g7f', b'7g7e'), b'', data + b'moves 1a1b\\n'):
    open(d + '/game.txt', 'wb').write(damaged)
    try:
        store.load()
        outcomes.append('loaded')
    except CorruptSave as e:
        outcomes.append('corrupt')
store.set_aside_corrupt()
print(json.dumps([list(first.moves), first.game_id, list(after_cut.moves), leftover, outcomes,
                  sorted(os.listdir(d)), store.load() is None]))
""" % tmp_path)
    first_moves, game_id, after_cut, leftover, outcomes, files, empty = result
    assert first_moves == ["7g7f", "3c3d"] * 9 + ["7g7f"] and game_id == "0badcafe"
    assert after_cut == first_moves and leftover is False
    assert outcomes == ["corrupt"] * 4
    assert files == ["game.bad"] and empty is True


# Appended after a compaction of three moves: a move, a take-back, two moves, a resignation.
APPENDS = [("+", "2g2f"), ("-",), ("+", "1g1f"), ("+", "1c1d"), ("=", "white:resignation", "-")]


def test_appended_entries_replay_and_a_torn_last_entry_is_dropped(tmp_path):
    result = micropython_json("""
import os
from boardfw.storage import GameStore, SavedGame, CorruptSave
d = '%s'
store = GameStore(d)
store.save(SavedGame('1', 'yari', 'casual', '-', '-', '-', 'S', ['7g7f', '3c3d', '6g6f']))
record = open(d + '/game.txt', 'rb').read()
sizes = [0]
for words in %r:
    store.append(*words)
    sizes.append(os.stat(d + '/game.log')[6])
untouched = open(d + '/game.txt', 'rb').read() == record
state = [store.plies, store.result, store.illegal, store.appended]
fresh = GameStore(d)
saved = fresh.load()
loaded = [list(saved.moves), saved.result, fresh.plies, fresh.appended]
# a power cut in the middle of the next append: a prefix of its line, no line end
open(d + '/game.log', 'ab').write(b'+ 5g5f 12')
torn = GameStore(d)
saved = torn.load()
after_torn = [list(saved.moves), saved.result, torn.plies]
torn.save(torn.load())  # the compaction at boot: a clean end to append to again
torn.append('+', '5g5f')
again = GameStore(d).load()
print(json.dumps([sizes, untouched, state, loaded, after_torn, list(again.moves),
                  again.result]))
""" % (tmp_path, APPENDS))
    sizes, untouched, state, loaded, after_torn, again, again_result = result
    moves = ["7g7f", "3c3d", "6g6f", "1g1f", "1c1d"]
    assert untouched   # the record is written by compactions only
    assert state == [5, "white:resignation", "-", sizes[-1]]
    assert loaded == [moves, "white:resignation", 5, sizes[-1]]
    assert after_torn == [moves, "white:resignation", 5]
    assert again == moves + ["5g5f"] and again_result == "white:resignation"
    per_entry = [b - a for a, b in zip(sizes, sizes[1:])]
    # a move: a few bytes, not the game (the first one after the CRC of the record it follows)
    assert per_entry[0] - 9 <= 16 and all(0 < n <= 16 for n in per_entry[1:4]), per_entry


def test_a_journal_following_another_record_is_left_out_and_old_entries_still_load(tmp_path):
    result = micropython_json("""
import os
from boardfw.storage import GameStore, SavedGame
d = '%s'
store = GameStore(d)
store.save(SavedGame('1', 'yari', 'casual', '-', '-', '-', 'S', ['7g7f']))
store.append('+', '3c3d')
journal = open(d + '/game.log', 'rb').read()
# a power cut between a compaction's rename and the journal's removal
store.save(SavedGame('1', 'yari', 'casual', '-', '-', '-', 'S', ['7g7f', '3c3d']))
open(d + '/game.log', 'wb').write(journal)
stale = list(GameStore(d).load().moves)
# a record of firmware before the journal: its entries after the crc line
store.save(SavedGame('1', 'yari', 'casual', '-', '-', '-', 'S', ['7g7f']))
store.append('+', '3c3d')
entry = open(d + '/game.log', 'rb').read()[9:]
os.remove(d + '/game.log')
open(d + '/game.txt', 'ab').write(entry)
before = list(GameStore(d).load().moves)
print(json.dumps([stale, before]))
""" % tmp_path)
    assert result == [["7g7f", "3c3d"], ["7g7f", "3c3d"]]


def test_a_damaged_missing_or_misplaced_entry_is_reported_not_resumed(tmp_path):
    result = micropython_json("""
from boardfw.storage import GameStore, SavedGame, CorruptSave
d = '%s'
store = GameStore(d)
store.save(SavedGame('1', 'yari', 'casual', '-', '-', '-', 'S', ['7g7f']))
for words in %r:
    store.append(*words)
data = open(d + '/game.log', 'rb').read()
crc_line, _, entries = data.partition(b'\\n')
lines = entries.split(b'\\n')[:-1]
def rebuilt(entry_lines):
    return crc_line + b'\\n' + b''.join(l + b'\\n' for l in entry_lines)
cases = {
    'flipped': rebuilt([lines[0].replace(b'2g2f', b'2g2e')] + lines[1:]),
    'missing': rebuilt(lines[:1] + lines[2:]),
    'swapped': rebuilt([lines[1], lines[0]] + lines[2:]),
    'twice': rebuilt(lines[:3] + lines[2:]),
    'last damaged': rebuilt(lines[:-1] + [lines[-1][:-1] + b'0']),
    'intact': rebuilt(lines),
}
out = {}
for name, damaged in cases.items():
    open(d + '/game.log', 'wb').write(damaged)
    try:
        out[name] = list(GameStore(d).load().moves)
    except CorruptSave as e:
        out[name] = 'corrupt: ' + str(e)
print(json.dumps(out))
""" % (tmp_path, APPENDS))
    assert result.pop("intact") == ["7g7f", "1g1f", "1c1d"]
    assert result == {name: "corrupt: entry damaged" for name in
                      ("flipped", "missing", "swapped", "twice", "last damaged")}


def test_a_save_of_the_earlier_whole_file_format_still_loads(tmp_path):
    body = ("yariboard-game 1\nid 0badcafe\nvariant yari\nmode casual\nhandicap -\n"
            "result -\nillegal -\nstart S T A R\nmoves 7g7f 3c3d\n").encode()
    (tmp_path / "game.txt").write_bytes(body + b"crc %08x\n" % binascii.crc32(body))
    result = micropython_json("""
from boardfw.storage import GameStore
store = GameStore('%s')
saved = store.load()
print(json.dumps([saved.game_id, list(saved.moves), store.plies]))
""" % tmp_path)
    assert result == ["0badcafe", ["7g7f", "3c3d"], 2]


def test_a_take_back_clears_a_recorded_illegal_move_before_it_takes_a_move(tmp_path):
    result = micropython_json("""
from boardfw.storage import GameStore, SavedGame
d = '%s'
store = GameStore(d)
store.save(SavedGame('1', 'yari', 'tournament', '-', '-', '-', 'S', ['7g7f']))
store.append('=', 'white:illegal-move', '7a7b')
first = [store.plies, store.result, store.illegal]
store.append('-')
second = [store.plies, store.result, store.illegal]
saved = GameStore(d).load()
print(json.dumps([first, second, list(saved.moves), saved.result, saved.illegal]))
""" % tmp_path)
    assert result == [[1, "white:illegal-move", "7a7b"], [1, "-", "-"], ["7g7f"], "-", "-"]


def test_saved_moves_come_back_in_order_at_most_sixteen_to_a_line(tmp_path):
    rng = random.Random(9)
    games = [[rng.choice(["7g7f", "P*5e", "2c2b+", "1a1b"]) for _ in range(n)]
             for n in (0, 1, 15, 16, 17, 32, 300)]
    result = micropython_json("""
from boardfw.storage import GameStore, SavedGame
store = GameStore('%s')
out = []
for moves in %r:
    store.save(SavedGame('1', 'yari', 'casual', '-', '-', '-', 'S', iter(moves)))
    lines = [l.split()[1:] for l in open('%s/game.txt') if l.startswith('moves ')]
    out.append([list(store.load().moves), [len(l) for l in lines]])
print(json.dumps(out))
""" % (tmp_path, games, tmp_path))
    for moves, (loaded, per_line) in zip(games, result):
        assert loaded == moves
        assert sum(per_line) == len(moves) and all(1 <= n <= 16 for n in per_line)
        assert per_line[:-1] == [16] * (len(per_line) - 1)


IDLE_LINK = """
import gc
from boardfw.serial_link import SerialLink


def allocated_by(link, calls):
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(calls):
        link.read_line()
    after = gc.mem_alloc()
    gc.enable()
    return after - before


link = SerialLink()
link.read_line()   # the first poll sets up the tuple ipoll hands back from then on
print(allocated_by(link, 1000), link.read_line())
"""


def run_with_silent_stdin(code):
    """Run `code` on the unix port with stdin a pipe that stays open and silent, as a USB
    port with no host talking; its output once it exits (0, or the test fails)."""
    proc = subprocess.Popen([micropython_binary(), "-c", code], cwd=FIRMWARE,
                            env=dict(os.environ, MICROPYPATH=FIRMWARE), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out = proc.stdout.read()
        assert proc.wait(timeout=120) == 0, proc.stderr.read()
    finally:
        proc.stdin.close()
    return out


def test_the_serial_link_allocates_nothing_while_no_line_arrives():
    # The loop asks the port on every pass: garbage left each time would keep the GC busy.
    assert run_with_silent_stdin(IDLE_LINK).split() == ["0", "None"]


FAKE_PICO = """
import sys
from array import array

class Circuit:
    # reed switches with one diode each, closed as (row pin, column pin); buttons held down
    closed = set()
    pressed = set()
    active = 0
    log = []        # what was set up, in order: ('pin', n, mode, pull) and ('sm', ...)

class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, n, mode=0, pull=None, value=None):
        self.n = n
        self.mode = mode
        self.pull = pull
        Circuit.log.append(('pin', n, mode, pull))


class Pio:
    # The state machine and the DMA as the hardware runs them: each sample, one word a row
    # of GPIO 0-28's levels while that row alone is driven, into the ring, wrapping round.
    rows = []
    words = 0
    ring = None

    @staticmethod
    def run(samples):
        for _ in range(samples):
            for row_pin in Pio.rows:
                levels = 0
                for n in range(29):
                    level = 1
                    if n in Circuit.cols:
                        level = 1 - Circuit.active
                        if (row_pin, n) in Circuit.closed:
                            level = Circuit.active
                    elif n in Circuit.pressed:
                        level = 0
                    levels |= level << n
                Pio.ring[Pio.words % len(Pio.ring)] = levels
                Pio.words += 1


class PIO:
    def __init__(self, id):
        pass

    def remove_program(self):
        pass

    IN_LOW = 0
    IN_HIGH = 1
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_RX = 2


def asm_pio(**settings):
    return lambda program: ('program', settings)


class StateMachine:
    def __init__(self, id, program, freq, in_base, out_base):
        Circuit.log.append(('sm', id, freq, in_base.n, out_base.n, program[1]))

    def active(self, on):
        Pio.run(1)


class DMA:
    channels = 0

    def __init__(self):
        self.channel = DMA.channels
        DMA.channels += 1

    def pack_ctrl(self, **fields):
        return fields

    def config(self, read, write, count, ctrl, trigger=False):
        if isinstance(write, array):
            Pio.ring = write
            Circuit.log.append(('copy', count, ctrl['treq_sel'], trigger))

    @property
    def write(self):
        return 0x20000000 + 4 * (Pio.words % len(Pio.ring))


class Rp2:
    PIO = PIO
    StateMachine = StateMachine
    DMA = DMA
    asm_pio = asm_pio

class Uctypes:
    @staticmethod
    def addressof(buffer):
        return 0x20000000

class Mem32:
    # the DMA's registers: no channel at work before this run
    def __getitem__(self, address):
        return 0

    def __setitem__(self, address, value):
        raise AssertionError('no channel to abort')

class Machine:
    Pin = Pin
    mem32 = Mem32()

    class Timer:
        PERIODIC = 1

        def __init__(self, id, mode, period, callback, hard):
            self.callback = callback

class NeoPixelModule:
    class NeoPixel:
        def __init__(self, pin, count):
            self.pin = pin
            self.count = count

sys.modules['machine'] = Machine
sys.modules['neopixel'] = NeoPixelModule
sys.modules['rp2'] = Rp2
sys.modules['uctypes'] = Uctypes
"""

# The samples the interrupt hands out, each as [ms, rows read, button levels by name].
TAKE_SAMPLES = """
taken = []
def sample(ms):
    taken.append([ms, [hw.matrix_pins.read_row(r) for r in range(c.ranks)],
                  dict((name, hw.button_pins[name].value()) for name in hw.button_pins)])
"""


def test_the_pio_ring_hands_out_every_sample_in_order_four_ms_apart_across_its_wrap():
    result = micropython_json(FAKE_PICO + """
from boardfw import config
from boardfw.pico_hw import PicoHardware
c = config.load('%s')
out = []
for active in (0, 1):
    Circuit.active = active
    Circuit.cols = c.col_pins
    Circuit.closed = {(c.row_pins[1], c.col_pins[2]), (c.row_pins[1], c.col_pins[5]),
                      (c.row_pins[6], c.col_pins[2]), (c.row_pins[8], c.col_pins[0])}
    Circuit.pressed = {c.button_pins['B']}
    Pio.rows = c.row_pins
    Pio.words = 0
    c.row_active_level = active
    hw = PicoHardware(c)
""" % BOARD + TAKE_SAMPLES.replace("\n", "\n    ") + """
    hw.start(sample)
    hw._tick(None)                       # nothing new since the start
    Pio.run(20)
    hw._tick(None)
    Circuit.closed = set()
    Circuit.pressed = set()
    Pio.run(25)                           # the ring (32 samples) wraps round meanwhile
    hw._tick(None)
    out.append(taken)
print(json.dumps(out))
""")
    expected_rows = [0, (1 << 2) | (1 << 5), 0, 0, 0, 0, 1 << 2, 0, 1 << 0]
    for taken in result:                 # rows driven low, then high
        assert len(taken) == 45
        times = [ms for ms, _, _ in taken]
        assert [b - a for a, b in zip(times, times[1:])] == [4] * 44
        assert all(rows == expected_rows and buttons == {"A": 1, "B": 0}
                   for _, rows, buttons in taken[:20])
        assert all(rows == [0] * 9 and buttons == {"A": 1, "B": 1}
                   for _, rows, buttons in taken[20:])


def test_pico_hardware_takes_every_pin_from_the_board_file():
    result = micropython_json(FAKE_PICO + """
from boardfw import config
from boardfw.pico_hw import PicoHardware
c = config.load('%s')
Circuit.cols = c.col_pins
Pio.rows = c.row_pins
hw = PicoHardware(c)
print(json.dumps([Circuit.log, hw.strip.pin.n, hw.strip.pin.mode, hw.strip.count,
                  [c.row_pins, c.col_pins, c.led_pin, c.button_pins]]))
""" % BOARD)
    log, led_pin, led_mode, led_count, board = result
    row_pins, col_pins, board_led_pin, button_pins = board
    sm = next(entry for entry in log if entry[0] == "sm")
    _, sm_id, freq, in_base, out_base, settings = sm
    # the PIO reads GPIO 0-28 (every column and button) and drives the rows as pin directions
    assert (in_base, out_base) == (0, row_pins[0]) and settings["push_thresh"] == 29
    assert len(settings["out_init"]) == row_pins[-1] - row_pins[0] + 1
    assert freq * 4 // 1000 == 125              # 125 PIO cycles a sample, a sample every 4 ms
    copy = next(entry for entry in log if entry[0] == "copy")
    assert copy == ["copy", len(row_pins) * 32, 4, True]    # paced by SM 0's RX FIFO
    after = log[log.index(sm):]
    assert [entry[1:] for entry in after if entry[0] == "pin" and entry[1] in col_pins] == \
        [[n, 0, 1] for n in col_pins]           # inputs, pulled up, once the PIO is set up
    assert [entry[1:] for entry in after if entry[0] == "pin" and entry[1] in button_pins.values()] \
        == [[n, 0, 1] for n in button_pins.values()]
    assert led_pin == board_led_pin and led_mode == 1 and led_count == 63


def test_simulator_control_lines_it_cannot_read_are_reported_not_fatal(tmp_path):
    with SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)) as sim:
        sim.send_commands(["place 9z", "press C", "advance soon", "frobnicate"])
        sim.sync()
        assert sim.alive()
        for _ in range(50):                 # the report pipe is read by a thread
            if len(sim.errors) == 4:
                break
            time.sleep(0.02)
        assert sim.errors == ["error bad command place 9z", "error bad command press C",
                              "error bad command advance soon", "error unknown command frobnicate"]


def test_simulator_restarts_with_the_pieces_of_its_last_set_line(tmp_path):
    """A `set` line (pieces put back for a new game) is what the next power-up boots with."""
    game = Game("yari")
    first = game.position.legal_moves()[0]
    start = occupied_squares("yari")
    with SimBoard(str(tmp_path / "flash"), log_dir=str(tmp_path)) as sim:
        client = SerialClient(sim.port)
        try:
            sim.send_commands(move_gestures(game.position, first))
            client.wait_for(lambda f: f[1] == "move")
            assert client.request("new", "yari", "-", "casual")[0] == "ok"
            sim.send_commands(["set " + " ".join(start), "advance 100"])
            sim.sync()
            assert sim.occupied == set(start)
            client.close()
            sim.restart()
            client = SerialClient(sim.port)
            sim.send_commands(move_gestures(game.position, first))
            frame = client.wait_for(lambda f: f[1] == "move")
            assert frame[2][:2] == ["1", to_usi(game.variant, first)]
        finally:
            client.close()


def test_the_watch_keeps_every_change_and_tap_while_the_loop_is_busy_in_order_and_on_time():
    # The interrupt samples every 4 ms (debounce 30 ms, so 22 ms of readings) while the main
    # loop takes nothing for 400 ms: a 30 ms tap of B and a piece lifted for 30 ms, each in
    # the least favourable phase of the sampling, and 20 more changes than the ring holds.
    # All come out in the order they settled, with their times; the ones the full ring could
    # not take come later, none is lost. A 21 ms flicker never counts.
    events = micropython_json("""
from boardfw.buttons import Buttons
from boardfw.matrix import Matrix, Watch
from boardfw.sim_hw import SimMatrixPins, SimPin
pins = SimMatrixPins(9)
a, b = SimPin(), SimPin()
m = Matrix(pins, 9, 7, 22)
buttons = Buttons({'A': a, 'B': b}, 22)
watch = Watch(m, buttons)
m.prime(0)
script = [(101, lambda: setattr(b, 'level', 0)), (131, lambda: setattr(b, 'level', 1)),
          (141, lambda: pins.set(3, 3, False)), (171, lambda: pins.set(3, 3, True)),
          (181, lambda: pins.set(4, 4, True)), (202, lambda: pins.set(4, 4, False))]
pins.set(3, 3, True)
m.prime(0)
for row in (5, 6, 7):
    script.append((220 + 4 * row, (lambda r: lambda: [pins.set(r, c, True) for c in range(7)])(row)))
out = []
t = 0
while t < 400:
    while script and script[0][0] <= t:
        script.pop(0)[1]()
    script.sort(key=lambda item: item[0])
    watch.scan(t)
    t += 1 if t % 4 else 4      # readings at 0, 4, 8 ...; hands act at any millisecond
    t -= t % 4
presses = []
def take(now):
    while True:
        event = watch.pop(now)
        if event is None:
            return
        code, at = event
        if code & 0x200:
            buttons.update(code & 255, code & 256, at, presses)
            out.append(['button', code & 255, bool(code & 256), at])
        else:
            out.append(['switch', code & 255, bool(code & 256), at])
take(400)
for t in range(400, 480, 4):
    watch.scan(t)
take(480)
buttons.poll(480, presses)
print(json.dumps([out, presses, watch.blind_end]))
""")
    changes, presses, blind_end = events
    # pressed at 101: read at 104 ... 128, settled at 126 -> the reading at 128
    assert changes[:4] == [["button", 1, True, 128], ["button", 1, False, 156],
                           ["switch", 3 * 7 + 3, False, 168], ["switch", 3 * 7 + 3, True, 196]]
    switches = changes[4:]
    assert sorted(c[1] for c in switches) == [row * 7 + col for row in (5, 6, 7) for col in range(7)]
    assert all(c[0] == "switch" and c[2] for c in switches)
    assert [c[3] for c in switches] == sorted(c[3] for c in switches)
    assert max(c[3] for c in switches) >= 400             # the ring was full: rung once taken
    assert presses == [["B", False]]                        # the tap, once, short
    assert blind_end is None                                # read every 4 ms throughout


def test_the_watch_notes_a_stretch_without_readings_longer_than_the_debounce():
    blind = micropython_json("""
from boardfw.buttons import Buttons
from boardfw.matrix import Matrix, Watch
from boardfw.sim_hw import SimMatrixPins
m = Matrix(SimMatrixPins(9), 9, 7, 22)
watch = Watch(m, Buttons({}, 22))
out = []
for t in (0, 4, 8, 19, 23, 35, 39):
    watch.scan(t)
    out.append(watch.blind_end)
print(json.dumps(out))
""")
    assert blind == [None, None, None, None, None, 35, 35]  # 11 ms of 22 is not over half; 12 is


IDLE_PASS = """
import gc
from boardfw import config
from boardfw.controller import Controller
from boardfw.serial_link import SerialLink
from boardfw.sim_hw import SimHardware
from shogicore.game import Game

c = config.load('%s')
hw = SimHardware(c, '%s')
variant = Game('yari').variant
position = Game('yari').position
for sq in variant.squares:
    if position.piece_at(sq):
        hw.matrix_pins.set(*c.matrix_position(variant.square_name(sq)), True)
ctl = Controller(hw, c, SerialLink())
hw.controller = ctl
ctl.boot()


def passes(n):
    # n passes of the main loop, 5 ms apart: what they allocate
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(n):
        hw.advance(5)
        ctl.step()
    allocated = gc.mem_alloc() - before
    gc.enable()
    return allocated


def hand(verb, name):
    hw.matrix_pins.set(*c.matrix_position(name), verb == 'place')
    for _ in range(100):      # 500 ms: the change settles, and the move after it
        hw.advance(5)
        ctl.step()


passes(10)       # (the serial link's first poll sets up what it reuses from then on)
out = [passes(400)]                          # the set-up position, nothing lit
hand('lift', '7g')
out.append(passes(400))                      # a piece held: it and its destinations lit
hand('place', '7f')
out.append(passes(400))                      # the move is in: its squares lit
out.append([ctl.game.position.plies, ctl.interpreter.frame(hw.ticks_ms())])
print(out)
"""


def test_an_idle_pass_of_the_main_loop_allocates_nothing(tmp_path):
    # Reading the watch's ring, polling the buttons, the interpreter's timers and the LED
    # frame every 20 ms: nothing left for the collector while nobody touches the board and
    # the lights stay steady.
    out = run_with_silent_stdin(IDLE_PASS % (BOARD, tmp_path))
    assert out.strip().splitlines()[-1] == "[0, 0, 0, [1, 2]]"
