"""The hardware package agrees with itself and with the firmware.

The board files (hardware/boards/*.json) are the single source of the wiring. These tests
check that the firmware reads them the same way on CPython and on the real MicroPython
interpreter, that the committed netlist, BOM, power budget and drawings are what the
generator makes from them today, and that the netlist is wired as the pin map says. The
netlist is read with the small s-expression reader below and the Pico's header with the
table below (from the Pico datasheet), not with the generator's own code.
"""
import csv
import glob
import json
import os
import re
import subprocess
import sys

import pytest

from tests.mpy import ROOT, run_micropython

sys.path.insert(0, os.path.join(ROOT, "firmware"))
from boardfw import config  # noqa: E402

pytestmark = [pytest.mark.micropython]

HARDWARE = os.path.join(ROOT, "hardware")
GENERATOR = os.path.join(HARDWARE, "tools", "generate.py")
BOARD_FILES = sorted(glob.glob(os.path.join(HARDWARE, "boards", "*.json")))
BOARD_IDS = [os.path.splitext(os.path.basename(p))[0] for p in BOARD_FILES]

# Pico header pins carrying a GPIO (datasheet pinout); GND sits on 3, 8, 13, ... 38.
PICO_GPIO_AT_PIN = {1: 0, 2: 1, 4: 2, 5: 3, 6: 4, 7: 5, 9: 6, 10: 7, 11: 8, 12: 9, 14: 10,
                    15: 11, 16: 12, 17: 13, 19: 14, 20: 15, 21: 16, 22: 17, 24: 18, 25: 19,
                    26: 20, 27: 21, 29: 22, 31: 26, 32: 27, 34: 28}
HEADER_GPIOS = set(range(0, 23)) | {26, 27, 28}
PICO_INTERNAL_GPIOS = {23, 24, 25, 29}


def raw(path):
    with open(path) as stream:
        return json.load(stream)


def test_every_board_size_is_described():
    sizes = sorted((raw(p)["files"], raw(p)["ranks"], raw(p)["variant"]) for p in BOARD_FILES)
    assert sizes == [(7, 9, "yari"), (9, 9, "shogi"), (11, 11, "wa")]


def split_square(name):
    """('11', 'k') from '11k': a file of one or two digits, then the rank letter."""
    return name[:-1], name[-1]


# --- pin map: fits the Pico, each GPIO once ---

@pytest.mark.parametrize("path", BOARD_FILES, ids=BOARD_IDS)
def test_pin_map_fits_the_pico_header_with_each_gpio_once(path):
    data = raw(path)
    used = data["row_pins"] + data["col_pins"] + [data["led_pin"]] + list(data["buttons"].values())
    assert len(used) == data["ranks"] + data["files"] + 1 + len(data["buttons"])
    assert len(set(used)) == len(used), "a GPIO is wired twice"
    assert set(used) <= HEADER_GPIOS
    assert not set(used) & PICO_INTERNAL_GPIOS
    assert len(data["row_pins"]) == data["ranks"] and len(data["col_pins"]) == data["files"]


@pytest.mark.parametrize("path", BOARD_FILES, ids=BOARD_IDS)
def test_led_chain_is_a_serpentine_over_every_square(path):
    data = raw(path)
    chain = data["led_chain"]
    squares = {"%d%s" % (f, r) for f in range(1, data["files"] + 1)
               for r in "abcdefghijk"[:data["ranks"]]}
    assert sorted(chain) == sorted(squares)
    for here, there in zip(chain, chain[1:]):  # each hop is one square: short wires
        (file_a, rank_a), (file_b, rank_b) = split_square(here), split_square(there)
        step = abs(int(file_a) - int(file_b)) + abs(ord(rank_a) - ord(rank_b))
        assert step == 1, (here, there)
    # The chain starts at Black's bottom-left corner, next to where the cable comes in.
    assert chain[0] == "%d%s" % (data["files"], "abcdefghijk"[data["ranks"] - 1])


def test_yari_orientation_as_seen_from_black():
    board = config.load(os.path.join(HARDWARE, "boards", "yari-9x7.json"))
    assert board.square_name_at(0, 0) == "7a"   # first row line, first column: top-left
    assert board.square_name_at(8, 6) == "1i"   # last row, last column: bottom-right
    assert board.matrix_position("4e") == (4, 3)
    assert [board.led_square(i) for i in (0, 6, 7, 13, 62)] == ["7i", "1i", "1h", "7h", "1a"]


def test_standard_shogi_orientation_as_seen_from_black():
    board = config.load(os.path.join(HARDWARE, "boards", "shogi-9x9.json"))
    assert board.square_name_at(0, 0) == "9a"
    assert board.square_name_at(8, 8) == "1i"
    assert [board.led_square(i) for i in (0, 8, 9, 80)] == ["9i", "1i", "1h", "1a"]


def test_wa_orientation_as_seen_from_black():
    board = config.load(os.path.join(HARDWARE, "boards", "wa-11x11.json"))
    assert board.square_name_at(0, 0) == "11a"
    assert board.square_name_at(10, 10) == "1k"
    assert board.square_name_at(9, 1) == "10j"
    assert board.matrix_position("10b") == (1, 1)
    assert board.matrix_position("1a") == (0, 10)
    assert [board.led_square(i) for i in (0, 10, 11, 21, 22, 120)] == [
        "11k", "1k", "1j", "11j", "11i", "1a"]
    for not_a_square in ("12a", "1l", "01a", "10", "k11", "1", "111a", "0a", ""):
        with pytest.raises(ValueError):
            board.matrix_position(not_a_square)


def test_wa_board_uses_25_of_the_26_header_gpios_and_keeps_the_others_wiring():
    """11 rows + 11 columns + LED + 2 buttons; ranks a-i, buttons and LED sit where they
    sit on the smaller boards, so their controllers are wired the same way there."""
    wa = raw(os.path.join(HARDWARE, "boards", "wa-11x11.json"))
    used = wa["row_pins"] + wa["col_pins"] + [wa["led_pin"]] + list(wa["buttons"].values())
    assert len(set(used)) == 25 and len(HEADER_GPIOS - set(used)) == 1
    for other in ("yari-9x7.json", "shogi-9x9.json"):
        small = raw(os.path.join(HARDWARE, "boards", other))
        assert wa["row_pins"][:9] == small["row_pins"]
        assert wa["led_pin"] == small["led_pin"] and wa["buttons"] == small["buttons"]
        assert wa["col_pins"][0] == small["col_pins"][0]   # leftmost column on GP11


# --- the firmware's configuration agrees with the pin map, on both interpreters ---

def expected_view(path):
    """What the firmware must see, worked out from the JSON alone."""
    data = raw(path)
    squares = [[str(data["col_files"][c]) + data["row_ranks"][r] for c in range(data["files"])]
               for r in range(data["ranks"])]
    return {
        "name": data["name"], "files": data["files"], "ranks": data["ranks"],
        "row_pins": data["row_pins"], "col_pins": data["col_pins"], "led_pin": data["led_pin"],
        "buttons": data["buttons"], "led_count": data["files"] * data["ranks"],
        "squares": squares,
        "positions": {squares[r][c]: [r, c] for r in range(data["ranks"]) for c in range(data["files"])},
        "leds": {name: i for i, name in enumerate(data["led_chain"])},
        "chain": data["led_chain"],
        "power": [data["led_ma_per_channel"], data["led_idle_ma"], data["led_budget_ma"],
                  data["pico_ma"], data["usb_limit_ma"], data["debounce_ms"]],
    }


VIEW_SCRIPT = """
import json
from boardfw import config
b = config.load(%r)
squares = [[b.square_name_at(r, c) for c in range(b.files)] for r in range(b.ranks)]
positions = {}
leds = {}
for row in squares:
    for name in row:
        positions[name] = list(b.matrix_position(name))
        leds[name] = b.led_index(name)
print(json.dumps({
    "name": b.name, "files": b.files, "ranks": b.ranks, "row_pins": b.row_pins,
    "col_pins": b.col_pins, "led_pin": b.led_pin, "buttons": b.button_pins,
    "led_count": b.led_count, "squares": squares, "positions": positions, "leds": leds,
    "chain": [b.led_square(i) for i in range(b.led_count)],
    "power": [b.led_ma_per_channel, b.led_idle_ma, b.led_budget_ma, b.pico_ma,
              b.usb_limit_ma, b.debounce_ms]}))
"""


@pytest.mark.parametrize("path", BOARD_FILES, ids=BOARD_IDS)
def test_firmware_config_agrees_with_pin_map_on_cpython(path):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware"))
    stdout = subprocess.run([sys.executable, "-c", VIEW_SCRIPT % path], env=env, check=True,
                            capture_output=True, text=True).stdout
    assert json.loads(stdout) == expected_view(path)


@pytest.mark.parametrize("path", BOARD_FILES, ids=BOARD_IDS)
def test_firmware_config_agrees_with_pin_map_on_micropython(path):
    _, stdout, _ = run_micropython(VIEW_SCRIPT % path)
    assert json.loads(stdout) == expected_view(path)


def test_firmware_reads_pins_only_from_the_board_file():
    """A GPIO number written into firmware code would be a second pin map."""
    offenders = []
    for path in glob.glob(os.path.join(ROOT, "firmware", "**", "*.py"), recursive=True):
        with open(path) as stream:
            for number, line in enumerate(stream, 1):
                if re.search(r"\bPin\(\s*\d", line) or re.search(r"\bNeoPixel\(\s*Pin\(\s*\d", line):
                    offenders.append("%s:%d: %s" % (os.path.relpath(path, ROOT), number, line.strip()))
    assert offenders == []


# --- bad board files are refused with a message that names the problem ---

def broken(change):
    data = raw(os.path.join(HARDWARE, "boards", "yari-9x7.json"))
    change(data)
    return data


BAD_BOARDS = [
    ("missing key", lambda d: d.pop("led_pin"), "missing key 'led_pin'"),
    ("duplicate gpio", lambda d: d.update(led_pin=d["row_pins"][3]), "GPIO 5 used twice"),
    ("internal gpio", lambda d: d["col_pins"].__setitem__(0, 23), "23 is not a usable Pico GPIO"),
    ("vsys gpio", lambda d: d["buttons"].update(A=29), "29 is not a usable Pico GPIO"),
    ("short rows", lambda d: d["row_pins"].pop(), "row_pins must list 9 GPIOs"),
    ("rank twice", lambda d: d["row_ranks"].__setitem__(1, "a"), "row_ranks must name each rank"),
    ("file twice", lambda d: d["col_files"].__setitem__(1, 7), "col_files must name each file"),
    ("chain short", lambda d: d["led_chain"].pop(), "led_chain must list all 63 squares"),
    ("chain repeats", lambda d: d["led_chain"].__setitem__(5, "7i"), "square 7i appears at 0 and 5"),
    ("chain off board", lambda d: d["led_chain"].__setitem__(5, "9a"), "'9a' is not a square"),
    ("over usb", lambda d: d.update(led_budget_ma=480), "exceeds usb_limit_ma"),
    ("negative idle", lambda d: d.update(led_idle_ma=-1), "led_idle_ma must be zero or more"),
]


@pytest.mark.parametrize("change,message", [(c, m) for _, c, m in BAD_BOARDS],
                         ids=[name for name, _, _ in BAD_BOARDS])
def test_bad_board_file_is_refused_on_cpython(tmp_path, change, message):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(broken(change)))
    with pytest.raises(ValueError) as error:
        config.load(str(path))
    assert message in str(error.value)
    assert str(path) in str(error.value)


def test_twelve_files_are_refused(tmp_path):
    data = raw(os.path.join(HARDWARE, "boards", "wa-11x11.json"))
    data["files"] = 12
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError) as error:
        config.load(str(path))
    assert "files must be a whole number from 1 to 11" in str(error.value)


def test_bad_board_files_are_refused_on_micropython(tmp_path):
    cases = []
    for name, change, message in BAD_BOARDS:
        path = tmp_path / (name.replace(" ", "_") + ".json")
        path.write_text(json.dumps(broken(change)))
        cases.append((str(path), message))
    (tmp_path / "garbage.json").write_text('{"name": "Yari Board 9x7", "files": ')
    cases.append((str(tmp_path / "garbage.json"), "not valid JSON"))
    script = "\n".join([
        "from boardfw import config",
        "for path, message in %r:" % (cases,),
        "    try:",
        "        config.load(path)",
        "        print('ACCEPTED', path)",
        "    except ValueError as error:",
        "        print('OK' if message in str(error) else 'WRONG %s: %s' % (path, error))",
    ])
    _, stdout, _ = run_micropython(script)
    assert stdout.split() == ["OK"] * len(cases)


# --- the committed generated files are current ---

@pytest.fixture(scope="module")
def regenerated(tmp_path_factory):
    """Run the generator on both boards at once (one process each) into a scratch folder."""
    out = tmp_path_factory.mktemp("hardware")
    # Separate working folders: SKiDL briefly opens a log file in the current one.
    jobs = [subprocess.Popen([sys.executable, GENERATOR, "--out", str(out), path],
                             cwd=str(tmp_path_factory.mktemp("cwd")),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for path in BOARD_FILES]
    for job in jobs:
        stdout, stderr = job.communicate(timeout=300)
        assert job.returncode == 0, stderr
        assert stderr == "", "the generator should be quiet unless something is wrong"
    return out


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_committed_hardware_files_are_current(regenerated, board_id):
    fresh_dir = regenerated / board_id
    fresh = sorted(os.listdir(fresh_dir))
    committed = sorted(name for name in os.listdir(os.path.join(HARDWARE, board_id))
                       if name != "pcb")  # the PCB has its own test: tests/hardware/test_pcb.py
    assert committed == fresh
    assert {"%s.net" % board_id, "bom.csv", "power-budget.csv", "matrix.svg", "matrix.png",
            "controller.svg", "controller.png", "layout.svg", "layout.png"} <= set(fresh)
    stale = [name for name in fresh
             if (fresh_dir / name).read_bytes() != open(os.path.join(HARDWARE, board_id, name), "rb").read()]
    assert stale == [], "run: .venv/bin/python hardware/tools/generate.py"


def test_readme_pin_table_is_current():
    sys.path.insert(0, os.path.dirname(GENERATOR))
    import generate
    with open(os.path.join(HARDWARE, "README.md")) as stream:
        text = stream.read()
    assert generate.readme_with_pin_table(text, generate.pin_table(BOARD_FILES)) == text
    for path in BOARD_FILES:  # every wired GPIO shows up with its header pin
        data = raw(path)
        for gpio in data["row_pins"] + data["col_pins"] + [data["led_pin"]]:
            pin = [p for p, g in PICO_GPIO_AT_PIN.items() if g == gpio][0]
            assert "GP%d (pin %d)" % (gpio, pin) in text


# --- the netlist is wired as the pin map says ---

def parse_sexp(text):
    """Nested lists from a KiCad s-expression (strings unquoted)."""
    tokens = re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+', text)
    stack = [[]]
    for token in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token[1:-1] if token.startswith('"') else token)
    return stack[0][0]


def children(node, key):
    return [child for child in node if isinstance(child, list) and child and child[0] == key]


def read_netlist(board_id):
    with open(os.path.join(HARDWARE, board_id, board_id + ".net")) as stream:
        tree = parse_sexp(stream.read())
    parts = {}
    for comp in children(children(tree, "components")[0], "comp"):
        ref = children(comp, "ref")[0][1]
        fields = {}
        for field in children(children(comp, "fields")[0], "field"):
            name = children(field, "name")[0]
            fields[name[1]] = field[2] if len(field) > 2 else ""
        parts[ref] = {"value": children(comp, "value")[0][1], "fields": fields}
    nets = {}
    for net in children(children(tree, "nets")[0], "net"):
        name = children(net, "name")[0][1]
        nets[name] = {(children(n, "ref")[0][1], children(n, "pin")[0][1]) for n in children(net, "node")}
    return parts, nets


@pytest.fixture(scope="module", params=BOARD_IDS)
def wired(request):
    parts, nets = read_netlist(request.param)
    net_of = {}
    for name, nodes in nets.items():
        for node in nodes:
            assert node not in net_of, "pin %s on two nets" % (node,)
            net_of[node] = name
    return request.param, raw(os.path.join(HARDWARE, "boards", request.param + ".json")), parts, nets, net_of


def pico_ref(parts):
    [ref] = [ref for ref, part in parts.items() if part["value"] == "Raspberry Pi Pico"]
    return ref


def gpio_on(net, nets, pico):
    """The Pico GPIO on `net` (exactly one), from the header table above."""
    gpios = [PICO_GPIO_AT_PIN[int(pin)] for ref, pin in nets[net] if ref == pico]
    assert len(gpios) == 1, (net, gpios)
    return gpios[0]


def test_netlist_has_one_switch_and_one_diode_per_square_on_unique_lines(wired):
    board_id, data, parts, nets, net_of = wired
    pico = pico_ref(parts)
    row_of_gpio = {gpio: data["row_ranks"][k] for k, gpio in enumerate(data["row_pins"])}
    file_of_gpio = {gpio: data["col_files"][k] for k, gpio in enumerate(data["col_pins"])}
    reeds = [ref for ref, part in parts.items() if part["value"] == "Reed switch NO"]
    diodes = [ref for ref, part in parts.items() if part["value"] == "1N4148"]
    squares_seen = []
    for reed in reeds:
        ends = [net_of[(reed, "1")], net_of[(reed, "2")]]
        column = [n for n in ends if any(ref == pico for ref, _ in nets[n])]
        assert len(column) == 1, "one end of %s goes to a Pico column input" % reed
        middle = [n for n in ends if n != column[0]][0]
        [diode_pin] = [(ref, pin) for ref, pin in nets[middle] if ref != reed]
        diode = diode_pin[0]
        assert diode in diodes
        # Rows are driven low: the anode (pin 2) meets the switch, the cathode (pin 1) the row.
        assert diode_pin[1] == ("2" if data.get("row_active_level", 0) == 0 else "1")
        row_net = net_of[(diode, "1" if diode_pin[1] == "2" else "2")]
        square = "%d%s" % (file_of_gpio[gpio_on(column[0], nets, pico)],
                           row_of_gpio[gpio_on(row_net, nets, pico)])
        assert parts[reed]["fields"]["Square"] == square == parts[diode]["fields"]["Square"]
        squares_seen.append(square)
    assert len(reeds) == len(diodes) == data["files"] * data["ranks"]
    assert sorted(squares_seen) == sorted(data["led_chain"])  # each square exactly once


def test_netlist_uses_each_gpio_of_the_pin_map_once(wired):
    board_id, data, parts, nets, net_of = wired
    pico = pico_ref(parts)
    gpio_nets = {}
    for (ref, pin), net in net_of.items():
        if ref == pico and int(pin) in PICO_GPIO_AT_PIN:
            gpio_nets.setdefault(PICO_GPIO_AT_PIN[int(pin)], set()).add(net)
    wanted = data["row_pins"] + data["col_pins"] + [data["led_pin"]] + list(data["buttons"].values())
    connected = {gpio for gpio, names in gpio_nets.items()
                 if any(len(nets[n]) > 1 for n in names)}
    assert connected == set(wanted)
    assert all(len(names) == 1 for names in gpio_nets.values())


def test_netlist_led_chain_follows_the_pin_map(wired):
    board_id, data, parts, nets, net_of = wired
    leds = {ref: part for ref, part in parts.items() if part["value"] == "WS2812B"}
    assert len(leds) == len(data["led_chain"]) == data["files"] * data["ranks"]
    pico = pico_ref(parts)
    # GPIO -> 74AHCT125 1A, 1Y -> resistor -> first LED's DIN (pin 4).
    led_net = net_of[(pico, str([p for p, g in PICO_GPIO_AT_PIN.items() if g == data["led_pin"]][0]))]
    [(shifter, shifter_in)] = [node for node in nets[led_net] if node[0] != pico]
    assert parts[shifter]["value"] == "74AHCT125" and shifter_in == "2"
    [(resistor, _)] = [node for node in nets[net_of[(shifter, "3")]] if node[0] != shifter]
    assert parts[resistor]["value"] == "330R"
    current = [ref for ref, pin in nets[net_of[(resistor, "2")]] if ref != resistor and pin == "4"]
    order = []
    while current:
        [led] = current
        order.append(parts[led]["fields"]["Square"])
        out = (led, "2")
        current = [ref for ref, pin in nets.get(net_of.get(out), ()) if pin == "4" and ref != led] \
            if out in net_of else []
    assert order == data["led_chain"]


# --- BOM and power budget ---

@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_bom_counts_match_the_netlist(board_id):
    data = raw(os.path.join(HARDWARE, "boards", board_id + ".json"))
    parts, _ = read_netlist(board_id)
    with open(os.path.join(HARDWARE, board_id, "bom.csv")) as stream:
        bom = {row["value"]: row for row in csv.DictReader(stream)}
    for value in {part["value"] for part in parts.values()}:
        assert int(bom[value]["qty"]) == sum(1 for p in parts.values() if p["value"] == value)
        assert bom[value]["example_part"], "every part has an example part number"
    squares = data["files"] * data["ranks"]
    assert [int(bom[v]["qty"]) for v in ("Reed switch NO", "1N4148", "WS2812B")] == [squares] * 3
    magnets = [row for row in bom.values() if "magnet" in row["description"].lower()]
    assert [int(row["qty"]) for row in magnets] == [data["pieces"]]


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_power_budget_uses_the_firmware_numbers(board_id):
    data = raw(os.path.join(HARDWARE, "boards", board_id + ".json"))
    with open(os.path.join(HARDWARE, board_id, "power-budget.csv")) as stream:
        budget = {row["item"]: float(row["ma"]) for row in csv.DictReader(stream)}
    leds = data["files"] * data["ranks"]
    assert budget["LEDs dark"] == leds * data["led_idle_ma"]
    assert budget["LEDs full white without a cap"] == leds * (data["led_idle_ma"] + 3 * data["led_ma_per_channel"])
    assert budget["LED cap kept by the firmware"] == data["led_budget_ma"]
    assert budget["Pico and logic"] == data["pico_ma"]
    total = data["pico_ma"] + data["led_budget_ma"]
    assert budget["Total from USB, worst case"] == total <= data["usb_limit_ma"] == budget["USB limit"]
    # The cap matters: without it the LEDs alone would overload USB many times over.
    assert budget["LEDs full white without a cap"] > 5 * data["usb_limit_ma"]
    # ... and it leaves light to show with: the dark LEDs take only part of it.
    assert budget["LEDs dark"] < data["led_budget_ma"] / 2
    assert budget["Full-white squares within the cap"] >= 4


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_drawings_name_every_square_and_line(board_id):
    data = raw(os.path.join(HARDWARE, "boards", board_id + ".json"))
    texts = {}
    for sheet in ("matrix", "controller", "layout"):
        with open(os.path.join(HARDWARE, board_id, sheet + ".svg")) as stream:
            texts[sheet] = stream.read()
    for square in data["led_chain"]:
        assert ">%s<" % square in texts["matrix"] and ">%s<" % square in texts["layout"]
    for gpio in data["row_pins"] + data["col_pins"] + [data["led_pin"]] + list(data["buttons"].values()):
        assert ">GP%d<" % gpio in texts["controller"]
    for label in ("74AHCT125", "330Ω", "1000 µF", "Button A", "Button B", "VBUS"):
        assert label in texts["controller"]


def test_build_notes_quote_the_board_files_square_size():
    with open(os.path.join(HARDWARE, "BUILD.md")) as stream:
        notes = stream.read()
    for path in BOARD_FILES:
        width, height = raw(path)["square_mm"]
        assert "%g mm wide" % width in notes and "%g mm high" % height in notes
