"""The KiCad PCBs (hardware/NAME/pcb/) are sound by KiCad's own DRC and wired as the netlist.

`make pcb` builds them with Debian's KiCad 6, whose pcbnew module imports only into Debian's
/usr/bin/python3; so do these tests, as subprocesses, once per session into a scratch folder:
the build (hardware/tools/pcb.py) and KiCad's design rule check (hardware/tools/pcb_drc.py).
The netlist is read with tests/test_hardware.py's own reader, and the squares' places are
computed here from the board files. Without KiCad the tests are skipped on a developer's
machine and fail in CI (CI=true), which installs it (.ci/run).
"""
import glob
import json
import os
import re
import subprocess
import zipfile

import pytest

from tests.mpy import ROOT
from tests.hardware.test_hardware import read_netlist

pytestmark = [pytest.mark.external]

HARDWARE = os.path.join(ROOT, "hardware")
BUILDER = os.path.join(HARDWARE, "tools", "pcb.py")
CHECKER = os.path.join(HARDWARE, "tools", "pcb_drc.py")
KICAD_PYTHON = "/usr/bin/python3"
BOARD_IDS = sorted(os.path.splitext(os.path.basename(p))[0]
                   for p in glob.glob(os.path.join(HARDWARE, "boards", "*.json")))
TIMEOUT = 1200  # seconds; a shared machine is slow, never wrong


def kicad_missing():
    """Why KiCad cannot build a board here, or None."""
    if not os.path.exists(KICAD_PYTHON):
        return "no %s (Debian's Python, the one pcbnew imports into)" % KICAD_PYTHON
    probe = subprocess.run([KICAD_PYTHON, "-c", "import pcbnew"], capture_output=True)
    if probe.returncode != 0:
        return "KiCad's pcbnew module is missing: apt-get install kicad kicad-footprints"
    if not os.path.isdir("/usr/share/kicad/footprints/LED_SMD.pretty"):
        return "KiCad's footprint library is missing: apt-get install kicad-footprints"
    return None


@pytest.fixture(scope="module")
def kicad():
    reason = kicad_missing()
    if reason:
        if os.environ.get("CI") == "true":
            pytest.fail("KiCad must be installed in CI (.ci/run): %s" % reason)
        pytest.skip(reason)


def run_all(commands):
    """Run the commands side by side; return their stdouts; fail on any error."""
    jobs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for command in commands]
    outputs = []
    for command, job in zip(commands, jobs):
        stdout, stderr = job.communicate(timeout=TIMEOUT)
        assert job.returncode == 0, "%s failed:\n%s" % (" ".join(command), stderr)
        outputs.append(stdout)
    return outputs


@pytest.fixture(scope="module")
def built(kicad, tmp_path_factory):
    """Every board built once into a scratch folder; {board id: its pcb folder}."""
    out = tmp_path_factory.mktemp("pcb")
    run_all([[KICAD_PYTHON, BUILDER, "--out", str(out), board_id] for board_id in BOARD_IDS])
    return {board_id: out / board_id / "pcb" for board_id in BOARD_IDS}


def drc(paths):
    return [json.loads(out) for out in run_all([[KICAD_PYTHON, CHECKER, str(p)] for p in paths])]


@pytest.fixture(scope="module")
def checked(built):
    """KiCad's DRC of every freshly built board; {board id: pcb_drc.py's answer}."""
    reports = drc([built[b] / (b + ".kicad_pcb") for b in BOARD_IDS])
    return dict(zip(BOARD_IDS, reports))


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_kicad_drc_finds_no_violation_and_no_unconnected_pad(checked, board_id):
    report = checked[board_id]
    assert report["violations"] == []
    counts = (report["violation_count"], report["unconnected"], report["footprint_errors"])
    assert counts == (0, 0, 0)


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_every_pad_carries_its_netlist_net(checked, board_id):
    parts, nets = read_netlist(board_id)
    wanted = {node: name for name, nodes in nets.items() for node in nodes}
    pads = checked[board_id]["pads"]
    assert set(checked[board_id]["footprints"]) - set(parts) == {"H1", "H2", "H3", "H4"}
    assert set(pads) == set(parts), "only the mounting holes lack numbered pads"
    for ref in parts:
        for pin, net in pads[ref].items():
            assert net == wanted.get((ref, pin), ""), (ref, pin)
    on_pcb = {(ref, pin) for ref in parts for pin, net in pads[ref].items() if net}
    assert on_pcb == set(wanted), "every netlist connection is a pad on the board"


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_squares_sit_at_the_board_files_pitch_with_the_reed_off_centre(checked, board_id):
    with open(os.path.join(HARDWARE, "boards", board_id + ".json")) as stream:
        board = json.load(stream)
    width, height = board["square_mm"]
    parts, _ = read_netlist(board_id)
    places = checked[board_id]["footprints"]
    by_square = {}
    for ref, part in parts.items():
        if "Square" in part["fields"]:
            by_square.setdefault(part["fields"]["Square"], {})[part["value"]] = places[ref]
    assert len(by_square) == board["files"] * board["ranks"]
    corner = by_square["%d%s" % (board["col_files"][0], board["row_ranks"][0])]["WS2812B"]
    for square, found in by_square.items():
        col = board["col_files"].index(int(square[:-1]))
        row = board["row_ranks"].index(square[-1])
        led_x, led_y = found["WS2812B"][:2]
        assert (led_x, led_y) == pytest.approx((corner[0] + col * width, corner[1] + row * height))
        assert all(place[3] == "top" for place in found.values())
        reed_x, reed_y = found["Reed switch NO"][:2]
        # The CT10's glass spans 5.8 mm either side of its centre: its left end under the
        # square's centre, along the rank, clear of the LED.
        assert (reed_x - led_x, reed_y - led_y) == pytest.approx((5.8, 5.0))


def broken_copy(source, target, change):
    """Write `source` with `change` applied to its track lines to `target`."""
    with open(source) as stream:
        lines = stream.read().split("\n")
    with open(target, "w") as stream:
        stream.write("\n".join(change(lines)))
    return target


def net_code(lines, name):
    for line in lines:
        found = re.match(r'\s*\(net (\d+) "%s"\)$' % re.escape(name), line)
        if found:
            return found.group(1)
    raise AssertionError("no net %s" % name)


SEGMENT = re.compile(r"\(segment \(start ([\d.-]+) ([\d.-]+)\) \(end ([\d.-]+) ([\d.-]+)\)")


def segments_of(lines, name):
    """(line index, (x0, y0, x1, y1)) of every track segment on the net `name`."""
    code = net_code(lines, name)
    found = []
    for k, line in enumerate(lines):
        if line.strip().startswith("(segment") and "(net %s)" % code in line:
            found.append((k, tuple(float(v) for v in SEGMENT.search(line).groups())))
    return found


def test_the_same_drc_catches_a_missing_track_and_a_short(built, tmp_path):
    board = built["yari-9x7"] / "yari-9x7.kicad_pcb"

    def without_a_track(lines):  # the link from square 4e's reed to its diode's anode
        [(gone, _)] = segments_of(lines, "SQ_4e")
        return lines[:gone] + lines[gone + 1:]

    def with_a_short(lines):  # a track across square 4e's diode, anode to cathode
        [(at, (x, _, _, anode_y))] = segments_of(lines, "SQ_4e")
        [cathode_y] = [y0 for _, (x0, y0, x1, _) in segments_of(lines, "ROW_e_GP6")
                       if x0 == x1 == x]
        short = ('  (segment (start %g %g) (end %g %g) (width 0.3) (layer "F.Cu") (net %s) '
                 '(tstamp 00000000-0000-0000-0000-00000000fa11))'
                 % (x, anode_y, x, cathode_y, net_code(lines, "ROW_e_GP6")))
        return lines[:at] + [short] + lines[at:]

    missing, shorted = drc([broken_copy(board, tmp_path / "missing.kicad_pcb", without_a_track),
                            broken_copy(board, tmp_path / "shorted.kicad_pcb", with_a_short)])
    assert missing["unconnected"] == 1
    assert missing["violation_count"] == 0
    assert shorted["violation_count"] >= 1
    # KiCad names a track touching a pad of another net a clearance violation of 0 mm.
    assert any(v.startswith(("[shorting_items]", "[clearance]")) and "actual 0.0000 mm" in v
               for v in shorted["violations"])


def test_building_twice_writes_the_same_files(built, tmp_path):
    run_all([[KICAD_PYTHON, BUILDER, "--out", str(tmp_path), "yari-9x7"]])
    again = tmp_path / "yari-9x7" / "pcb"
    first = built["yari-9x7"]
    assert sorted(os.listdir(again)) == sorted(os.listdir(first))
    differing = [name for name in os.listdir(first)
                 if (first / name).read_bytes() != (again / name).read_bytes()]
    assert differing == []


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_committed_pcb_files_are_current(built, board_id):
    fresh = built[board_id]
    committed = os.path.join(HARDWARE, board_id, "pcb")
    assert sorted(os.listdir(committed)) == sorted(os.listdir(fresh))
    # The pictures depend on the fonts installed; their content is looked at, not diffed.
    stale = [name for name in os.listdir(fresh) if not name.endswith(".png")
             and (fresh / name).read_bytes() != open(os.path.join(committed, name), "rb").read()]
    assert stale == [], "run: make pcb"


@pytest.mark.parametrize("board_id", BOARD_IDS)
def test_fab_files_cover_every_layer_and_every_surface_mount_part(built, board_id):
    folder = built[board_id]
    with zipfile.ZipFile(folder / (board_id + "-gerbers.zip")) as bundle:
        names = set(bundle.namelist())
        assert {board_id + "-%s.gbr" % layer for layer in
                ("F_Cu", "B_Cu", "F_Mask", "B_Mask", "F_Paste", "F_Silkscreen", "B_Silkscreen",
                 "Edge_Cuts")} | {board_id + ".drl"} == names
        assert all(b"%TF.FileFunction" in bundle.read(n) for n in names if n.endswith(".gbr"))
        assert b"M48" in bundle.read(board_id + ".drl")
    parts, _ = read_netlist(board_id)
    smd_values = {"WS2812B", "100nF 0603", "Reed switch NO", "1N4148"}
    with open(folder / (board_id + "-pos.csv")) as stream:
        placed = [line.split(",")[0].strip('"') for line in stream.read().splitlines()[1:]]
    assert sorted(placed) == sorted(r for r, p in parts.items() if p["value"] in smd_values)
    with open(folder / (board_id + "-bom.csv")) as stream:
        rows = [line.split(",") for line in stream.read().splitlines()[1:]]
    listed = [ref for row in rows for ref in row[0].split()]
    assert sorted(listed) == sorted(parts)


def test_an_unknown_board_gets_a_one_line_error(kicad, tmp_path):
    done = subprocess.run([KICAD_PYTHON, BUILDER, "--out", str(tmp_path), "chess-8x8"],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode != 0
    assert done.stderr.splitlines() == [
        "pcb.py: no board file hardware/boards/chess-8x8.json (boards: %s)" % ", ".join(BOARD_IDS)]
    assert os.listdir(tmp_path) == []
