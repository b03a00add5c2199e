"""PNG pictures of both sides of a board, drawn from pcbnew's own shapes with Pillow.

KiCad 6 has no command-line renderer; Pillow comes with Debian's KiCad (python3-wxgtk4.0
depends on it). Each side shows its copper (the ground fill a lighter green), the pads, the
drill holes, the silkscreen and the outline; the back is drawn mirrored, as seen when the
board is turned over.
"""
import pcbnew
from PIL import Image, ImageDraw, ImageFont

SCALE = 4  # pixels per millimetre
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
COLOURS = {
    "board": (18, 64, 32), "fill": (38, 110, 52), "track": (196, 160, 60),
    "pad": (230, 200, 120), "hole": (10, 10, 10), "silk": (240, 240, 240),
    "edge": (230, 230, 60),
}


def _polygons(shape_poly_set):
    outlines = []
    for index in range(shape_poly_set.OutlineCount()):
        chain = shape_poly_set.Outline(index)
        outlines.append([(pcbnew.ToMM(chain.CPoint(k).x), pcbnew.ToMM(chain.CPoint(k).y))
                         for k in range(chain.PointCount())])
    return outlines


def _mm(vector):
    return pcbnew.ToMM(vector.x), pcbnew.ToMM(vector.y)


def _font(size_mm):
    try:
        return ImageFont.truetype(FONT, int(size_mm * SCALE * 1.3))
    except OSError:
        return ImageFont.load_default()


def side(board, front, path):
    """Write the picture of one side of `board` to `path`."""
    box = board.GetBoardEdgesBoundingBox()
    x0, y0 = pcbnew.ToMM(box.GetX()), pcbnew.ToMM(box.GetY())
    width, height = pcbnew.ToMM(box.GetWidth()), pcbnew.ToMM(box.GetHeight())
    image = Image.new("RGB", (int(width * SCALE) + 1, int(height * SCALE) + 1), (255, 255, 255))
    draw = ImageDraw.Draw(image)

    def pixels(points):
        flat = []
        for x, y in points:
            px = (x - x0) * SCALE
            flat.append((image.width - 1 - px if not front else px, (y - y0) * SCALE))
        return flat

    def fill(outlines, colour):
        for outline in outlines:
            if len(outline) >= 3:
                draw.polygon(pixels(outline), fill=colour)

    def line(a, b, width, colour):
        (ax, ay), (bx, by) = pixels([a, b])
        radius = max(width * SCALE / 2, 0.5)
        draw.line([(ax, ay), (bx, by)], fill=colour, width=max(int(width * SCALE), 1))
        for px, py in ((ax, ay), (bx, by)):
            draw.ellipse([px - radius, py - radius, px + radius, py + radius], fill=colour)

    def disc(centre, radius, colour):
        [(px, py)] = pixels([centre])
        draw.ellipse([px - radius * SCALE, py - radius * SCALE,
                      px + radius * SCALE, py + radius * SCALE], fill=colour)

    def graphic(item, colour):
        width = pcbnew.ToMM(item.GetWidth())
        kind = item.GetShape()
        if kind == pcbnew.SHAPE_T_CIRCLE:
            centre, radius = _mm(item.GetCenter()), pcbnew.ToMM(item.GetRadius())
            [(px, py)] = pixels([centre])
            draw.ellipse([px - radius * SCALE, py - radius * SCALE, px + radius * SCALE,
                          py + radius * SCALE], outline=colour, width=max(int(width * SCALE), 1))
        elif kind == pcbnew.SHAPE_T_RECT:
            (ax, ay), (bx, by) = _mm(item.GetStart()), _mm(item.GetEnd())
            for a, b in (((ax, ay), (bx, ay)), ((bx, ay), (bx, by)), ((bx, by), (ax, by)),
                         ((ax, by), (ax, ay))):
                line(a, b, width, colour)
        elif kind == pcbnew.SHAPE_T_POLY:
            fill(_polygons(item.GetPolyShape()), colour)
        else:  # segments, and arcs drawn as their chord
            line(_mm(item.GetStart()), _mm(item.GetEnd()), width, colour)

    def words(text, colour):
        size = pcbnew.ToMM(text.GetTextHeight())
        [(px, py)] = pixels([_mm(text.GetPosition())])
        draw.text((px, py), text.GetShownText(), fill=colour, font=_font(size), anchor="mm")

    copper = pcbnew.F_Cu if front else pcbnew.B_Cu
    silk = pcbnew.F_SilkS if front else pcbnew.B_SilkS
    draw.rectangle([0, 0, image.width, image.height], fill=COLOURS["board"])
    for zone in board.Zones():
        if zone.IsOnLayer(copper):
            fill(_polygons(zone.GetFilledPolysList(copper)), COLOURS["fill"])
    for item in board.GetTracks():
        if not item.IsOnLayer(copper):
            continue
        if item.GetClass() == "PCB_VIA":
            disc(_mm(item.GetPosition()), pcbnew.ToMM(item.GetWidth()) / 2, COLOURS["track"])
        else:
            line(_mm(item.GetStart()), _mm(item.GetEnd()), pcbnew.ToMM(item.GetWidth()),
                 COLOURS["track"])
    for footprint in board.GetFootprints():
        for pad in footprint.Pads():
            if not pad.IsOnLayer(copper):
                continue
            box = pad.GetBoundingBox()
            if pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE:
                disc(_mm(pad.GetPosition()), pcbnew.ToMM(box.GetWidth()) / 2, COLOURS["pad"])
            else:
                corners = pixels([_mm(box.GetOrigin()), _mm(box.GetEnd())])
                xs, ys = sorted(p[0] for p in corners), sorted(p[1] for p in corners)
                draw.rectangle([xs[0], ys[0], xs[1], ys[1]], fill=COLOURS["pad"])
        for item in footprint.GraphicalItems():
            if item.GetLayer() != silk:
                continue
            if item.GetClass() == "MTEXT":
                if item.IsVisible():
                    words(item, COLOURS["silk"])
            else:
                graphic(item, COLOURS["silk"])
        reference = footprint.Reference()
        if reference.GetLayer() == silk and reference.IsVisible():
            words(reference, COLOURS["silk"])
    for item in board.GetDrawings():
        if item.GetLayer() == silk and item.GetClass() == "PTEXT":
            words(item, COLOURS["silk"])
        elif item.GetLayer() == silk:
            graphic(item, COLOURS["silk"])
        elif item.GetLayer() == pcbnew.Edge_Cuts:
            line(_mm(item.GetStart()), _mm(item.GetEnd()), 0.5, COLOURS["edge"])
    for footprint in board.GetFootprints():
        for pad in footprint.Pads():
            if pad.HasHole():
                disc(_mm(pad.GetPosition()), pcbnew.ToMM(pad.GetDrillSize().x) / 2,
                     COLOURS["hole"])
    for item in board.GetTracks():
        if item.GetClass() == "PCB_VIA":
            disc(_mm(item.GetPosition()), pcbnew.ToMM(item.GetDrillValue()) / 2, COLOURS["hole"])
    image.save(path, optimize=True)
