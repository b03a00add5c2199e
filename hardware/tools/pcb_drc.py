"""KiCad's design rule check on a saved board, as JSON: the one judge of a PCB's soundness.

    /usr/bin/python3 hardware/tools/pcb_drc.py BOARD.kicad_pcb

Fills the ground zones (the saved boards keep them unfilled), runs pcbnew's DRC with every
track error reported, and prints {"violations": [...], "unconnected": N, "footprint_errors": N,
"pads": {ref: {pad: net}}, "footprints": {ref: [x_mm, y_mm, degrees, side]}}; each violation
is its report line, e.g. "[clearance]: ...".
"""
import json
import os
import re
import sys
import tempfile

try:
    import pcbnew
except ImportError:
    sys.exit("pcb_drc.py: KiCad's pcbnew module is missing: apt-get install kicad, "
             "and run this with /usr/bin/python3")


def check(path):
    board = pcbnew.LoadBoard(path)
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "drc.rpt")
        if not pcbnew.WriteDRCReport(board, report, pcbnew.EDA_UNITS_MILLIMETRES, True):
            sys.exit("pcb_drc.py: KiCad could not run its DRC on %s" % path)
        with open(report) as stream:
            text = stream.read()

    def count(what):
        return int(re.search(r"\*\* Found (\d+) %s \*\*" % what, text).group(1))

    pads, footprints = {}, {}
    for footprint in board.GetFootprints():
        position = footprint.GetPosition()
        footprints[footprint.GetReference()] = [
            pcbnew.ToMM(position.x), pcbnew.ToMM(position.y), footprint.GetOrientationDegrees(),
            "bottom" if footprint.IsFlipped() else "top"]
        for pad in footprint.Pads():
            if pad.GetNumber():
                pads.setdefault(footprint.GetReference(), {})[pad.GetNumber()] = pad.GetNetname()
    return {"violations": re.findall(r"^\[\w+\]: .*$", text, re.M),
            "violation_count": count("DRC violations"),
            "unconnected": count("unconnected pads"),
            "footprint_errors": count("Footprint errors"),
            "pads": pads, "footprints": footprints}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: " + __doc__.strip().splitlines()[2].strip())
    if not os.path.exists(sys.argv[1]):
        sys.exit("pcb_drc.py: %s: no such file" % sys.argv[1])
    json.dump(check(sys.argv[1]), sys.stdout)
    print()
