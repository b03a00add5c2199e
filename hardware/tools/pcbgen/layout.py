"""Places and routes one board: the square matrix by rule, the controller strip by grid search.

Coordinates are millimetres, y downwards, the board seen from above (Black at the bottom).
Each square is a cell of the board file's `square_mm`; inside it (offsets from its centre):

- the WS2812B at the centre, its 100 nF 4.4 mm above it; +5 V runs along the rank 13 mm
  above the centre (front copper), ground is the filled back copper reached by vias;
- the LED data line runs along the rank at the LEDs' pad rows and jogs up or down at the
  boundary between two squares; the LED is turned 180 degrees in the ranks the chain runs
  to the right, so every LED takes its data from the side it comes from;
- the reed switch (Coto CT10, a moulded 12 mm reed) lies along the rank 5 mm below the
  centre with the left end of its glass under the centre (BUILD.md: the magnet over one end
  of the glass, not its middle); its diode stands at its right end, cathode down to the
  row line 13 mm below the centre (front copper);
- the column line runs down the square 5 mm left of the centre (back copper).

Row lines and +5 V leave the matrix on the left; the data line steps between ranks at the
matrix edges on back copper. Below the matrix a strip holds the Pico (its USB socket toward a gap
left for the plug), the level shifter, the fuse, the capacitors and the buttons.
"""
import math

import pcbnew

from . import maze

KICAD_FOOTPRINTS = "/usr/share/kicad/footprints"
SIGNAL_WIDTH = 0.3
LED_POWER_WIDTH = 0.4
POWER_WIDTH = 0.8
SPINE_WIDTH = 1.0
STRIP_WIDTH = 0.4  # tracks the grid router lays in the controller strip
VIA_DIAMETER, VIA_DRILL = 0.6, 0.3
CLEARANCE = 0.2
EDGE_CLEARANCE = 0.5

LED_PAD_X, LED_PAD_Y = 2.45, 1.65
CAP_AT = (-1.2, -4.4)
CAP_GND_VIA = (0.9, -4.4)
VDD_BEND_Y = -3.2
LED_GND_VIA_X = 3.9
POWER_Y = -13.0
ROW_Y = 13.0
COL_X = -5.0
REED_AT = (5.8, 5.0)  # the CT10's glass spans -5.8..5.8 about its centre
DIODE_AT_Y = 9.2
LABEL_AT = (-10.5, -7.0)

TOP_MARGIN = 5.0
RIGHT_MARGIN = 6.0
STRIP_HEIGHT = 48.0


def mm(value):
    return pcbnew.FromMM(value)


def point(x, y):
    return pcbnew.wxPoint(mm(x), mm(y))


def to_mm(vector):
    return pcbnew.ToMM(vector.x), pcbnew.ToMM(vector.y)


def snap(value):
    return round(value / maze.GRID) * maze.GRID


class Geometry:
    """Where the squares, margins and strip of one board lie."""

    def __init__(self, spec):
        self.files, self.ranks = spec["files"], spec["ranks"]
        self.square_w, self.square_h = spec["square_mm"]
        self.row_ranks, self.col_files = spec["row_ranks"], spec["col_files"]
        self.left_margin = 9.0 + 1.5 * (self.ranks - 1)
        self.left = 0.0
        self.top = 0.0
        self.squares_left = snap(self.left + self.left_margin)
        self.squares_top = self.top + TOP_MARGIN
        self.squares_right = self.squares_left + self.files * self.square_w
        self.squares_bottom = self.squares_top + self.ranks * self.square_h
        self.right = self.squares_right + RIGHT_MARGIN
        self.bottom = self.squares_bottom + STRIP_HEIGHT
        self.strip_top = snap(self.squares_bottom)

    def centre(self, square):
        file, rank = int(square[:-1]), square[-1]
        col, row = self.col_files.index(file), self.row_ranks.index(rank)
        return (self.squares_left + (col + 0.5) * self.square_w,
                self.squares_top + (row + 0.5) * self.square_h)

    def row_bus_x(self, row):
        return self.squares_left - 5.0 - 1.5 * row

    @property
    def power_spines(self):
        return self.squares_left - 2.5, self.squares_right + 2.5


class Builder:
    """A pcbnew BOARD being filled: nets by name, footprints by reference."""

    def __init__(self, board, parts, nets, library):
        self.board = board
        self.parts = parts
        self.library = library
        self.nets = {}
        self.pad_net = {}
        for name in sorted(nets):
            item = pcbnew.NETINFO_ITEM(board, name)
            board.Add(item)
            self.nets[name] = item
            for ref, pin in nets[name]:
                self.pad_net[(ref, pin)] = name
        self.footprints = {}

    def place(self, ref, x, y, angle=0.0, show_reference=False):
        part = self.parts[ref]
        library, name = part.footprint.split(":")
        folder = (self.library if library == "YariBoard"
                  else "%s/%s.pretty" % (KICAD_FOOTPRINTS, library))
        footprint = pcbnew.FootprintLoad(folder, name)
        if footprint is None:
            raise ValueError("%s: footprint %s not found in %s" % (ref, part.footprint, folder))
        footprint.SetFPID(pcbnew.LIB_ID(library, name))
        footprint.SetReference(ref)
        footprint.SetValue(part.value)
        footprint.Reference().SetVisible(show_reference)
        footprint.Value().SetVisible(False)
        self.board.Add(footprint)
        footprint.SetPosition(point(x, y))
        footprint.SetOrientationDegrees(angle)
        for pad in footprint.Pads():
            name_ = self.pad_net.get((ref, pad.GetNumber()))
            if name_ is not None:
                pad.SetNet(self.nets[name_])
        self.footprints[ref] = footprint
        return footprint

    def pad(self, ref, number):
        """Centre (mm) of the pad `number` of `ref` (the first, if a number repeats)."""
        for pad in self.footprints[ref].Pads():
            if pad.GetNumber() == number:
                return to_mm(pad.GetPosition())
        raise KeyError((ref, number))

    def net_of(self, ref, number):
        return self.pad_net[(ref, number)]

    def track(self, net, points, width, layer=pcbnew.F_Cu):
        """Tracks through `points`; returns them."""
        made = []
        for (ax, ay), (bx, by) in zip(points, points[1:]):
            if (ax, ay) == (bx, by):
                continue
            segment = pcbnew.PCB_TRACK(self.board)
            segment.SetStart(point(ax, ay))
            segment.SetEnd(point(bx, by))
            segment.SetWidth(mm(width))
            segment.SetLayer(layer)
            segment.SetNet(self.nets[net])
            self.board.Add(segment)
            made.append(segment)
        return made

    def via(self, net, x, y):
        via = pcbnew.PCB_VIA(self.board)
        via.SetPosition(point(x, y))
        via.SetWidth(mm(VIA_DIAMETER))
        via.SetDrill(mm(VIA_DRILL))
        via.SetNet(self.nets[net])
        self.board.Add(via)
        return via

    def text(self, words, x, y, size, layer=pcbnew.F_SilkS):
        text = pcbnew.PCB_TEXT(self.board)
        text.SetText(words)
        text.SetPosition(point(x, y))
        text.SetTextSize(pcbnew.wxSize(mm(size), mm(size)))
        text.SetTextThickness(mm(size * 0.15))
        text.SetLayer(layer)
        if layer == pcbnew.B_SilkS:
            text.SetMirrored(True)
        self.board.Add(text)

    def line(self, layer, ax, ay, bx, by, width=0.1):
        shape = pcbnew.PCB_SHAPE(self.board)
        shape.SetShape(pcbnew.SHAPE_T_SEGMENT)
        shape.SetStart(point(ax, ay))
        shape.SetEnd(point(bx, by))
        shape.SetLayer(layer)
        shape.SetWidth(mm(width))
        self.board.Add(shape)


def _refs_by_square(parts, value):
    return {part.fields["Square"]: ref for ref, part in parts.items()
            if part.value == value and "Square" in part.fields}


def _one(parts, value):
    [ref] = [ref for ref, part in parts.items() if part.value == value]
    return ref


def led_chain(parts):
    """LED references in chain order."""
    leds = [(int(part.fields["Chain"]), ref) for ref, part in parts.items()
            if part.value == "WS2812B"]
    return [ref for _, ref in sorted(leds)]


def place_matrix(builder, geometry):
    """Every square's LED, capacitor, reed switch and diode, with their local tracks."""
    parts = builder.parts
    chain = led_chain(parts)
    squares = [parts[ref].fields["Square"] for ref in chain]
    direction = {}
    for here, there in zip(squares, squares[1:]):
        if here[-1] == there[-1]:
            step = geometry.centre(there)[0] - geometry.centre(here)[0]
            direction[here[-1]] = 1 if step > 0 else -1
    caps = _refs_by_square(parts, "100nF 0603")
    reeds = _refs_by_square(parts, "Reed switch NO")
    diodes = _refs_by_square(parts, "1N4148")
    for ref, square in zip(chain, squares):
        cx, cy = geometry.centre(square)
        rightward = direction[square[-1]] == 1
        builder.place(ref, cx, cy, 180.0 if rightward else 0.0)
        cap = caps[square]
        builder.place(cap, cx + CAP_AT[0], cy + CAP_AT[1])
        five, gnd = builder.net_of(ref, "1"), builder.net_of(ref, "3")
        vdd_x, vdd_y = builder.pad(ref, "1")
        top = cy + POWER_Y
        if rightward:  # VDD is at the bottom right: pass between the pads to the left side
            route = [(vdd_x, vdd_y), (cx, vdd_y), (cx, cy + VDD_BEND_Y),
                     (cx - LED_PAD_X, cy + VDD_BEND_Y), (cx - LED_PAD_X, top)]
        else:
            route = [(vdd_x, vdd_y), (cx - LED_PAD_X, top)]
        builder.track(five, route, LED_POWER_WIDTH)
        cap_plus = builder.pad(cap, "1")
        builder.track(five, [(cx - LED_PAD_X, cap_plus[1]), cap_plus], LED_POWER_WIDTH)
        cap_minus = builder.pad(cap, "2")
        builder.via(gnd, cx + CAP_GND_VIA[0], cy + CAP_GND_VIA[1])
        builder.track(gnd, [cap_minus, (cx + CAP_GND_VIA[0], cy + CAP_GND_VIA[1])],
                      LED_POWER_WIDTH)
        vss_x, vss_y = builder.pad(ref, "3")
        via_x = cx + math.copysign(LED_GND_VIA_X, vss_x - cx)
        builder.via(gnd, via_x, vss_y)
        builder.track(gnd, [(vss_x, vss_y), (via_x, vss_y)], LED_POWER_WIDTH)

        reed, diode = reeds[square], diodes[square]
        builder.place(reed, cx + REED_AT[0], cy + REED_AT[1])
        builder.place(diode, cx + REED_AT[0] + 7.56, cy + DIODE_AT_Y, 90.0)
        column = builder.net_of(reed, "1")
        reed_col, reed_mid = builder.pad(reed, "1"), builder.pad(reed, "2")
        builder.track(column, [reed_col, (cx + COL_X, reed_col[1])], SIGNAL_WIDTH)
        builder.via(column, cx + COL_X, reed_col[1])
        anode, cathode = builder.pad(diode, "2"), builder.pad(diode, "1")
        builder.track(builder.net_of(reed, "2"), [reed_mid, anode], SIGNAL_WIDTH)
        builder.track(builder.net_of(diode, "1"), [cathode, (cathode[0], cy + ROW_Y)],
                      SIGNAL_WIDTH)
        builder.text(square, cx + LABEL_AT[0], cy + LABEL_AT[1], 2.0)
    return chain, squares


def route_matrix(builder, geometry, chain, squares):
    """The rank-long lines, the column lines and the LED data line; returns the strip's ports.

    A port is (net, x, y) on the back copper at the top of the controller strip.
    """
    parts = builder.parts
    ports = []
    left_spine, right_spine = geometry.power_spines
    strip = geometry.strip_top
    five = builder.net_of(chain[0], "1")
    for row, rank in enumerate(geometry.row_ranks):
        cy = geometry.squares_top + (row + 0.5) * geometry.square_h
        y = cy + POWER_Y
        builder.track(five, [(left_spine, y), (right_spine, y)], POWER_WIDTH)
        for spine in (left_spine, right_spine):
            builder.via(five, spine, y)
        diodes = [ref for ref, part in parts.items()
                  if part.value == "1N4148" and part.fields["Square"][-1] == rank]
        row_net = builder.net_of(diodes[0], "1")
        right_end = max(builder.pad(ref, "1")[0] for ref in diodes)
        bus_x = geometry.row_bus_x(row)
        builder.track(row_net, [(right_end, cy + ROW_Y), (bus_x, cy + ROW_Y)], SIGNAL_WIDTH)
        builder.via(row_net, bus_x, cy + ROW_Y)
        builder.track(row_net, [(bus_x, cy + ROW_Y), (bus_x, strip)], SIGNAL_WIDTH, pcbnew.B_Cu)
        ports.append((row_net, bus_x, strip))
    top_power = geometry.squares_top + 0.5 * geometry.square_h + POWER_Y
    for spine in (left_spine, right_spine):
        builder.track(five, [(spine, top_power), (spine, strip)], SPINE_WIDTH, pcbnew.B_Cu)
        ports.append((five, spine, strip))
    for col, file in enumerate(geometry.col_files):
        x = geometry.squares_left + (col + 0.5) * geometry.square_w + COL_X
        reeds = [ref for ref, part in parts.items()
                 if part.value == "Reed switch NO" and part.fields["Square"][:-1] == str(file)]
        column = builder.net_of(reeds[0], "1")
        top = min(builder.pad(ref, "1")[1] for ref in reeds)
        builder.track(column, [(x, top), (x, strip)], SIGNAL_WIDTH, pcbnew.B_Cu)
        ports.append((column, x, strip))

    for index, ref in enumerate(chain):
        cx, cy = geometry.centre(squares[index])
        din = builder.pad(ref, "4")
        net = builder.net_of(ref, "4")
        if index == 0:
            edge = cx + math.copysign(geometry.square_w / 2, din[0] - cx)
            builder.track(net, [din, (edge, din[1])], SIGNAL_WIDTH)
            builder.via(net, edge, din[1])
            builder.track(net, [(edge, din[1]), (edge, strip)], SIGNAL_WIDTH, pcbnew.B_Cu)
            ports.append((net, edge, strip))
            continue
        previous = chain[index - 1]
        dout = builder.pad(previous, "2")
        px, py = geometry.centre(squares[index - 1])
        if py == cy:
            middle = (px + cx) / 2
            builder.track(net, [dout, (middle, dout[1]), (middle, din[1]), din], SIGNAL_WIDTH)
        else:
            edge = px + math.copysign(geometry.square_w / 2, dout[0] - px)
            builder.track(net, [dout, (edge, dout[1])], SIGNAL_WIDTH)
            builder.via(net, edge, dout[1])
            builder.track(net, [(edge, dout[1]), (edge, din[1])], SIGNAL_WIDTH, pcbnew.B_Cu)
            builder.via(net, edge, din[1])
            builder.track(net, [(edge, din[1]), din], SIGNAL_WIDTH)
    return ports


def place_controller(builder, geometry):
    """The Pico, level shifter, fuse, capacitors, resistor, buttons and their header in the strip.

    Returns where the board's title goes: below the gap left for the USB plug.
    """
    parts = builder.parts
    y = geometry.strip_top + 24.0
    pico = _one(parts, "Raspberry Pi Pico")
    pico_x = geometry.squares_left + 8.0 + 25.5  # right of the row lines coming down
    builder.place(pico, pico_x, y, 270.0, show_reference=True)  # GP0-GP15 face the matrix
    title_x = pico_x + 25.5 + 15.0
    x = pico_x + 25.5 + 30.0  # room for the USB plug's body beyond the Pico's end
    builder.place(_one(parts, "74AHCT125"), x, y - 7.62, 0.0, show_reference=True)
    x += 16.0
    builder.place(_one(parts, "100nF"), x, y - 2.5, 90.0, show_reference=True)
    x += 8.0
    builder.place(_one(parts, "330R"), x, y - 5.0, 0.0, show_reference=True)
    x += 20.0
    builder.place(_one(parts, "PTC 500mA"), x, y - 2.5, 90.0, show_reference=True)
    x += 14.0
    builder.place(_one(parts, "1000uF 10V"), x, y, 0.0, show_reference=True)
    x += 20.0
    buttons = sorted((part.fields["Button"], ref) for ref, part in parts.items()
                     if part.value == "Push button")
    for _, ref in buttons:
        builder.place(ref, x, y + 6.0, 0.0, show_reference=True)
        x += 16.0
    builder.place(_one(parts, "Button header"), x, y + 3.0, 0.0, show_reference=True)
    return title_x


def _pad_shape_distance(pad):
    cx, cy = to_mm(pad.GetPosition())
    box = pad.GetBoundingBox()
    half_w, half_h = pcbnew.ToMM(box.GetWidth()) / 2, pcbnew.ToMM(box.GetHeight()) / 2
    if pad.GetShape() == pcbnew.PAD_SHAPE_CIRCLE:
        radius = half_w

        def distance(x, y):
            return max(math.hypot(x - cx, y - cy) - radius, 0.0)
    else:
        distance = maze.rect_distance(cx, cy, half_w, half_h)
    return (cx - half_w, cy - half_h, cx + half_w, cy + half_h), distance


def _layers_of(item):
    return [index for index, layer in enumerate(maze.LAYERS) if item.IsOnLayer(layer)]


def obstacle_grid(board, geometry):
    grid = maze.Grid(geometry.left, geometry.strip_top, geometry.right, geometry.bottom,
                     CLEARANCE, STRIP_WIDTH, VIA_DIAMETER)
    for footprint in board.GetFootprints():
        for pad in footprint.Pads():
            bbox, distance = _pad_shape_distance(pad)
            layers = _layers_of(pad) or [0, 1]  # a bare hole blocks both
            net = pad.GetNetCode() or maze.BLOCKED
            grid.mark(layers, bbox, distance, net)
    for item in board.GetTracks():
        add_to_grid(grid, item)
    edge = EDGE_CLEARANCE + max(STRIP_WIDTH, VIA_DIAMETER) / 2
    for iy in range(grid.ny):
        for ix in range(grid.nx):
            x, y = grid.point(ix, iy)
            if (x < geometry.left + edge or x > geometry.right - edge
                    or y > geometry.bottom - edge):
                for layer in (0, 1):
                    grid.cells[layer][iy * grid.nx + ix] = maze.BLOCKED
    return grid


def add_to_grid(grid, item):
    net = item.GetNetCode()
    if item.GetClass() == "PCB_VIA":
        x, y = to_mm(item.GetPosition())
        radius = pcbnew.ToMM(item.GetWidth()) / 2
        grid.mark([0, 1], (x - radius, y - radius, x + radius, y + radius),
                  lambda px, py: max(math.hypot(px - x, py - y) - radius, 0.0), net)
        return
    (ax, ay), (bx, by) = to_mm(item.GetStart()), to_mm(item.GetEnd())
    half = pcbnew.ToMM(item.GetWidth()) / 2
    along = maze.segment_distance(ax, ay, bx, by)
    grid.mark(_layers_of(item), (min(ax, bx) - half, min(ay, by) - half,
                                 max(ax, bx) + half, max(ay, by) + half),
              lambda px, py: max(along(px, py) - half, 0.0), net)


def _pad_cells(grid, pad):
    bbox, distance = _pad_shape_distance(pad)
    cells = []
    ix0, iy0 = grid.index_of(bbox[0], bbox[1])
    ix1, iy1 = grid.index_of(bbox[2], bbox[3])
    for iy in range(max(iy0, 0), min(iy1 + 1, grid.ny)):
        for ix in range(max(ix0, 0), min(ix1 + 1, grid.nx)):
            x, y = grid.point(ix, iy)
            if distance(x, y) == 0.0:
                cells.extend((layer, ix, iy) for layer in _layers_of(pad))
    return cells


def route_controller(builder, geometry, ports):
    """Connect every pad in the strip and every port, net by net; returns unrouted nets."""
    board = builder.board
    grid = obstacle_grid(board, geometry)
    terminals = {}
    for net, x, y in ports:
        ix, iy = grid.index_of(x, y)
        terminals.setdefault(net, []).append([(1, ix, iy)])
    for footprint in board.GetFootprints():
        if footprint.GetPosition().y < mm(geometry.strip_top):
            continue
        for pad in footprint.Pads():
            if pad.GetNetCode() > 0:
                terminals.setdefault(pad.GetNetname(), []).append(_pad_cells(grid, pad))

    def order(net):  # local nets first, ground last: the filled copper backs it up
        spread = [cells[0][1] for cells in terminals[net]]
        return (net == "GND", max(spread) - min(spread), net)

    failed = []
    for net in sorted(terminals, key=order):
        groups = [cells for cells in terminals[net] if cells]
        if len(groups) < 2:
            continue
        code = builder.nets[net].GetNetCode()
        tree = list(groups[0])
        remaining = groups[1:]
        while remaining:  # grow the net's tree towards its nearest unconnected terminal
            sample = tree[::max(len(tree) // 40, 1)]
            remaining.sort(key=lambda cells: min(abs(c[1] - t[1]) + abs(c[2] - t[2])
                                                 for c in cells[:4] for t in sample))
            target = remaining.pop(0)
            path = maze.route(grid, code, tree, target)
            if path is None:
                failed.append(net)
                continue
            _lay(builder, grid, net, path)
            tree.extend(path)
            tree.extend(target)
    return failed


def _lay(builder, grid, net, path):
    segments, vias = maze.straighten(path)
    made = []
    for layer, (ax, ay), (bx, by) in segments:
        made += builder.track(net, [grid.point(ax, ay), grid.point(bx, by)], STRIP_WIDTH,
                              maze.LAYERS[layer])
    made += [builder.via(net, *grid.point(ix, iy)) for ix, iy in vias]
    for item in made:
        add_to_grid(grid, item)
