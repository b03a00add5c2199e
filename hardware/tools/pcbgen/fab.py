"""What a fab takes: Gerbers and drill files zipped, a BOM, a pick-and-place file.

Everything written here is byte-for-byte reproducible, so the committed copies can be held to
a fresh run: the dates KiCad stamps into Gerber and drill headers are dropped, and the zip
entries carry a fixed date.
"""
import csv
import os
import re
import zipfile

import pcbnew

GERBER_LAYERS = [
    (pcbnew.F_Cu, "F_Cu", "Top copper"), (pcbnew.B_Cu, "B_Cu", "Bottom copper"),
    (pcbnew.F_Mask, "F_Mask", "Top solder mask"), (pcbnew.B_Mask, "B_Mask", "Bottom solder mask"),
    (pcbnew.F_Paste, "F_Paste", "Top paste"), (pcbnew.F_SilkS, "F_Silkscreen", "Top silkscreen"),
    (pcbnew.B_SilkS, "B_Silkscreen", "Bottom silkscreen"),
    (pcbnew.Edge_Cuts, "Edge_Cuts", "Outline"),
]
_ZIP_DATE = (2026, 1, 1, 0, 0, 0)


def _undated(path):
    with open(path) as stream:
        lines = stream.read().splitlines()
    kept = [re.sub(r"([)}]) date .*$", r"\1", line) for line in lines
            if "CreationDate" not in line]
    with open(path, "w") as stream:
        stream.write("\n".join(kept) + "\n")


def gerbers(board, folder, stem):
    """Plot every fab layer and the drill file into `folder`; zip them; return the zip's path."""
    scratch = os.path.join(folder, "gerbers")
    os.makedirs(scratch, exist_ok=True)
    plotter = pcbnew.PLOT_CONTROLLER(board)
    options = plotter.GetPlotOptions()
    options.SetOutputDirectory(scratch)
    options.SetPlotFrameRef(False)
    options.SetAutoScale(False)
    options.SetScale(1)
    options.SetMirror(False)
    options.SetUseGerberAttributes(True)
    options.SetUseGerberProtelExtensions(False)
    options.SetCreateGerberJobFile(False)
    options.SetSubtractMaskFromSilk(True)
    options.SetExcludeEdgeLayer(True)
    for layer, suffix, description in GERBER_LAYERS:
        plotter.SetLayer(layer)
        plotter.OpenPlotfile(suffix, pcbnew.PLOT_FORMAT_GERBER, description)
        plotter.PlotLayer()
    plotter.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), True)
    drill.SetFormat(True)
    drill.CreateDrillandMapFilesSet(scratch, True, False)
    names = sorted(os.listdir(scratch))
    archive = os.path.join(folder, stem + "-gerbers.zip")
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
        for name in names:
            path = os.path.join(scratch, name)
            _undated(path)
            with open(path, "rb") as stream:
                info = zipfile.ZipInfo(name, _ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                bundle.writestr(info, stream.read())
            os.remove(path)
    os.rmdir(scratch)
    return archive


def placement(board, path):
    """KiCad's own pick-and-place file (CSV, mm) of the surface-mount parts."""
    exporter = pcbnew.PLACE_FILE_EXPORTER(board, True, True, True, True, True, True, False)
    with open(path, "w") as stream:
        stream.write(exporter.GenPositionData())
    return path


def bom(board, parts, catalogue, path):
    """One line per part kind: references, quantity, footprint, manufacturer part, who fits it."""
    by_value = {}
    for footprint in board.GetFootprints():
        ref = footprint.GetReference()
        if ref not in parts:
            continue  # mounting holes
        by_value.setdefault(parts[ref].value, []).append(footprint)
    kinds = {kind.value: kind for kind in catalogue}
    with open(path, "w", newline="") as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(["refs", "qty", "value", "footprint", "manufacturer_part", "fitted_by"])
        for value in sorted(by_value, key=lambda v: (-len(by_value[v]), v)):
            footprints = by_value[value]
            refs = sorted((f.GetReference() for f in footprints),
                          key=lambda r: (re.sub(r"\d", "", r), int(re.sub(r"\D", "", r))))
            smd = all(f.GetAttributes() & pcbnew.FP_SMD for f in footprints)
            writer.writerow([" ".join(refs), len(refs), value, parts[refs[0]].footprint,
                             kinds[value].pcb_part, "fab (SMD)" if smd else "hand (through-hole)"])
    return path
