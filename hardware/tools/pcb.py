"""Build the printed circuit board of every board file with KiCad 6 (pcbnew).

    /usr/bin/python3 hardware/tools/pcb.py [--out DIR] [NAME ...]     (or: make pcb)

Debian's pcbnew module imports only into Debian's own Python 3, hence /usr/bin/python3 and
no project virtualenv. For each hardware/boards/NAME.json (with the netlist generate.py
wrote from it, hardware/NAME/NAME.net) it writes hardware/NAME/pcb/: the KiCad project
(NAME.kicad_pro, NAME.kicad_pcb, fp-lib-table), NAME-gerbers.zip (Gerbers and Excellon
drill), NAME-bom.csv, NAME-pos.csv (pick and place, surface-mount parts) and pictures of
both sides (NAME-front.png, NAME-back.png). With --out, under DIR/NAME/pcb/ instead, which
is how the tests find stale committed files.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HARDWARE = os.path.dirname(HERE)
ROOT = os.path.dirname(HARDWARE)
LIBRARY = os.path.join(HARDWARE, "kicad", "YariBoard.pretty")
sys.path.insert(0, HERE)

try:
    import pcbnew  # noqa: E402
except ImportError:
    sys.exit("pcb.py: KiCad's pcbnew module is missing: apt-get install kicad kicad-footprints, "
             "and run this with /usr/bin/python3")

from hwgen import parts as catalogue  # noqa: E402
from pcbgen import assemble, fab, netlist_reader, render  # noqa: E402

FP_LIB_TABLE = """(fp_lib_table
  (lib (name "YariBoard")(type "KiCad")(uri "${KIPRJMOD}/../../kicad/YariBoard.pretty")(options "")(descr "Parts KiCad 6 lacks"))
)
"""
CATALOGUE = [value for value in vars(catalogue).values() if isinstance(value, catalogue.PartKind)]


def project_version():
    with open(os.path.join(ROOT, "pyproject.toml")) as stream:
        return re.search(r'^version = "([^"]+)"', stream.read(), re.M).group(1)


def build(name, out_root):
    """Write the PCB files of hardware/boards/NAME.json under OUT_ROOT/NAME/pcb; return them."""
    with open(os.path.join(HARDWARE, "boards", name + ".json")) as stream:
        spec = json.load(stream)
    parts, nets = netlist_reader.read(os.path.join(HARDWARE, name, name + ".net"))
    folder = os.path.join(out_root, name, "pcb")
    os.makedirs(folder, exist_ok=True)
    pcb_path = os.path.join(folder, name + ".kicad_pcb")
    board, unrouted = assemble.build(spec, parts, nets, LIBRARY, project_version(), pcb_path)
    if unrouted:
        raise SystemExit("pcb.py: %s: could not route %s" % (name, ", ".join(unrouted)))
    written = [fab.gerbers(board, folder, name),
               fab.placement(board, os.path.join(folder, name + "-pos.csv")),
               fab.bom(board, parts, CATALOGUE, os.path.join(folder, name + "-bom.csv"))]
    for front, side in ((True, "front"), (False, "back")):
        written.append(os.path.join(folder, "%s-%s.png" % (name, side)))
        render.side(board, front, written[-1])
    # The ground fill is kept out of the saved board (megabytes of polygons per board):
    # Pcbnew refills it with B, and the Gerbers above were plotted filled.
    for zone in board.Zones():
        zone.UnFill()
    pcbnew.SaveBoard(pcb_path, board)
    os.remove(os.path.join(folder, name + ".kicad_prl"))  # per-user view settings
    with open(os.path.join(folder, "fp-lib-table"), "w") as stream:
        stream.write(FP_LIB_TABLE)
    return [pcb_path, os.path.join(folder, name + ".kicad_pro"),
            os.path.join(folder, "fp-lib-table")] + written


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=HARDWARE, help="where to write (default: hardware/)")
    parser.add_argument("boards", nargs="*", help="board names (default: every board file)")
    args = parser.parse_args(argv)
    known = sorted(os.path.splitext(os.path.basename(path))[0]
                   for path in glob.glob(os.path.join(HARDWARE, "boards", "*.json")))
    names = args.boards or known
    for name in names:
        if name not in known:
            sys.exit("pcb.py: no board file hardware/boards/%s.json (boards: %s)"
                     % (name, ", ".join(known)))
        if not os.path.exists(os.path.join(HARDWARE, name, name + ".net")):
            sys.exit("pcb.py: no netlist hardware/%s/%s.net: run hardware/tools/generate.py"
                     % (name, name))
    if len(names) == 1:
        for path in build(names[0], os.path.abspath(args.out)):
            print(path)
        return
    # One process per board: KiCad's identifiers come from a generator seeded per board, and
    # what a process did before (its footprint cache) would shift them.
    for name in names:
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "--out", args.out, name])
        if done.returncode != 0:
            sys.exit(done.returncode)


if __name__ == "__main__":
    main()
