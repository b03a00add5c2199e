"""Bill of materials: the circuit's parts grouped by kind, plus what is not in the circuit."""
import csv
import re

from . import parts

COLUMNS = ["refs", "qty", "value", "description", "footprint", "example_part", "pcb_part",
           "notes"]
CIRCUIT_KINDS = [parts.PICO, parts.REED, parts.DIODE, parts.LED, parts.LED_DECOUPLING_C,
                 parts.BUTTON, parts.BUTTON_HEADER, parts.BUFFER, parts.SERIES_R, parts.BULK_C,
                 parts.DECOUPLING_C, parts.FUSE]


def _ref_key(ref):
    prefix, number = re.match(r"([A-Z]+)(\d+)$", ref).groups()
    return prefix, int(number)


def _ref_ranges(refs):
    """'SW1-SW63' for a run of consecutive references, listed one by one otherwise."""
    ordered = sorted(refs, key=_ref_key)
    spans, start, previous = [], ordered[0], ordered[0]
    for ref in ordered[1:] + [None]:
        if ref is not None and _ref_key(ref) == (_ref_key(previous)[0], _ref_key(previous)[1] + 1):
            previous = ref
            continue
        spans.append(start if start == previous else "%s-%s" % (start, previous))
        start = previous = ref
    return " ".join(spans)


def rows(circuit, facts):
    """BOM rows (dicts keyed by COLUMNS) for a SKiDL circuit from netlist.build."""
    by_kind = dict((kind.value, []) for kind in CIRCUIT_KINDS)
    for part in circuit.parts:
        by_kind[part.value].append(part.ref)
    table = []
    for kind in CIRCUIT_KINDS:
        refs = by_kind[kind.value]
        table.append({"refs": _ref_ranges(refs), "qty": len(refs), "value": kind.value,
                      "description": kind.description, "footprint": kind.footprint,
                      "example_part": kind.example, "pcb_part": kind.pcb_part,
                      "notes": kind.note})
    magnet = parts.MAGNET
    table.append({"refs": "", "qty": facts.pieces, "value": magnet.value,
                  "description": magnet.description, "footprint": "",
                  "example_part": magnet.example, "pcb_part": magnet.example,
                  "notes": magnet.note})
    return table


def write(circuit, facts, path):
    with open(path, "w", newline="") as stream:
        writer = csv.DictWriter(stream, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows(circuit, facts))
