"""One board from a board file and its netlist: outline, parts, tracks, ground fill, silkscreen."""
import zlib

import pcbnew

from . import layout

MOUNTING_HOLE = ("MountingHole", "MountingHole_3.2mm_M3")
HOLE_INSET = 3.5


def _design_rules(board):
    settings = board.GetDesignSettings()
    settings.SetCopperLayerCount(2)
    rules = board.GetNetClasses().GetDefault()
    rules.SetClearance(layout.mm(layout.CLEARANCE))
    rules.SetTrackWidth(layout.mm(layout.SIGNAL_WIDTH))
    rules.SetViaDiameter(layout.mm(layout.VIA_DIAMETER))
    rules.SetViaDrill(layout.mm(layout.VIA_DRILL))
    settings.m_CopperEdgeClearance = layout.mm(layout.EDGE_CLEARANCE)


def _outline(builder, geometry):
    g = geometry
    corners = [(g.left, g.top), (g.right, g.top), (g.right, g.bottom), (g.left, g.bottom)]
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1]):
        builder.line(pcbnew.Edge_Cuts, ax, ay, bx, by, 0.1)


def _mounting_holes(builder, geometry):
    g = geometry
    folder = "%s/%s.pretty" % (layout.KICAD_FOOTPRINTS, MOUNTING_HOLE[0])
    spots = [(g.left + HOLE_INSET, g.top + HOLE_INSET), (g.right - HOLE_INSET, g.top + HOLE_INSET),
             (g.left + HOLE_INSET, g.bottom - HOLE_INSET),
             (g.right - HOLE_INSET, g.bottom - HOLE_INSET)]
    for number, (x, y) in enumerate(spots, 1):
        hole = pcbnew.FootprintLoad(folder, MOUNTING_HOLE[1])
        hole.SetFPID(pcbnew.LIB_ID(*MOUNTING_HOLE))
        hole.SetReference("H%d" % number)
        hole.Reference().SetVisible(False)
        hole.Value().SetVisible(False)
        builder.board.Add(hole)
        hole.SetPosition(layout.point(x, y))


def _ground_fill(builder, geometry):
    g = geometry
    for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
        zone = pcbnew.ZONE(builder.board)
        zone.SetLayer(layer)
        zone.SetNet(builder.nets["GND"])
        zone.SetPadConnection(pcbnew.ZONE_CONNECTION_FULL)
        zone.SetLocalClearance(layout.mm(0.3))
        zone.SetMinThickness(layout.mm(0.25))
        zone.SetIslandRemovalMode(pcbnew.ISLAND_REMOVAL_MODE_ALWAYS)
        outline = zone.Outline()
        outline.NewOutline()
        for x, y in [(g.left, g.top), (g.right, g.top), (g.right, g.bottom), (g.left, g.bottom)]:
            outline.Append(layout.mm(x), layout.mm(y))
        builder.board.Add(zone)
    builder.board.BuildConnectivity()
    filler = pcbnew.ZONE_FILLER(builder.board)
    filler.Fill(builder.board.Zones())


def build(spec, parts, nets, library, version, path):
    """A routed, filled pcbnew BOARD for the board file `spec` (a dict) and its netlist.

    `path` is the .kicad_pcb the board will be saved as (its project sits beside it).
    """
    # KiCad saves items in the order of their random identifiers: seeded, every run writes
    # the same file.
    pcbnew.KIID.SeedGenerator(zlib.crc32(spec["name"].encode()))
    board = pcbnew.NewBoard(path)
    board.SetFileName(path)  # the plotter names the Gerbers after it
    _design_rules(board)
    geometry = layout.Geometry(spec)
    builder = layout.Builder(board, parts, nets, library)
    _outline(builder, geometry)
    _mounting_holes(builder, geometry)
    chain, squares = layout.place_matrix(builder, geometry)
    ports = layout.route_matrix(builder, geometry, chain, squares)
    title_x = layout.place_controller(builder, geometry)
    failed = layout.route_controller(builder, geometry, ports)
    title = "%s  v%s" % (spec["name"], version)
    for layer in (pcbnew.F_SilkS, pcbnew.B_SilkS):
        builder.text(title, title_x, geometry.bottom - 6.0, 2.5, layer)
    _ground_fill(builder, geometry)
    return board, sorted(set(failed))
