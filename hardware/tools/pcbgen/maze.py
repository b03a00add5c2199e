"""A two-layer grid router (A* with a via cost) for the controller strip of the board.

The matrix is routed by rule (pcbgen.layout); the controller strip's parts sit where no rule
fits, so its nets are found on a 0.5 mm grid. Every copper item already on the board is an
obstacle inflated by the clearance plus the larger of a track's half width and a via's
radius, so any free cell can take a track or a via and stay clear of foreign copper; cells
near a net's own copper stay open to that net. Moves are horizontal and vertical only, so a
path's distance to a blocked cell's neighbour is never shorter than the grid says.
"""
import heapq
import math

import pcbnew

GRID = 0.5
LAYERS = (pcbnew.F_Cu, pcbnew.B_Cu)
FREE, BLOCKED = 0, -1
VIA_COST = 12


class Grid:
    """Owner of each cell per layer: FREE, BLOCKED, or the net code whose copper is near."""

    def __init__(self, x0, y0, x1, y1, clearance, track_width, via_diameter):
        self.x0, self.y0 = x0, y0
        self.nx = int(round((x1 - x0) / GRID)) + 1
        self.ny = int(round((y1 - y0) / GRID)) + 1
        self.cells = [[FREE] * (self.nx * self.ny) for _ in LAYERS]
        self.reach = clearance + max(track_width / 2, via_diameter / 2)

    def point(self, ix, iy):
        return self.x0 + ix * GRID, self.y0 + iy * GRID

    def index_of(self, x, y):
        return int(round((x - self.x0) / GRID)), int(round((y - self.y0) / GRID))

    def _claim(self, layer, ix, iy, net):
        cells = self.cells[layer]
        at = iy * self.nx + ix
        if cells[at] == FREE:
            cells[at] = net
        elif cells[at] != net:
            cells[at] = BLOCKED

    def mark(self, layers, bbox, distance, net):
        """Claim for `net` every cell whose centre lies within reach of a copper shape.

        `distance(x, y)` is the distance from a point to the shape (0 inside it), `bbox` the
        shape's bounding box (x0, y0, x1, y1).
        """
        reach = self.reach
        x0, y0, x1, y1 = bbox
        ix0, iy0 = self.index_of(x0 - reach, y0 - reach)
        ix1, iy1 = self.index_of(x1 + reach, y1 + reach)
        for iy in range(max(iy0 - 1, 0), min(iy1 + 2, self.ny)):
            for ix in range(max(ix0 - 1, 0), min(ix1 + 2, self.nx)):
                x, y = self.point(ix, iy)
                if distance(x, y) < reach:
                    for layer in layers:
                        self._claim(layer, ix, iy, net)

    def open_to(self, layer, ix, iy, net):
        owner = self.cells[layer][iy * self.nx + ix]
        return owner == FREE or owner == net


def segment_distance(ax, ay, bx, by):
    def distance(x, y):
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length))
        return math.hypot(x - (ax + t * dx), y - (ay + t * dy))
    return distance


def rect_distance(cx, cy, half_w, half_h):
    def distance(x, y):
        dx = max(abs(x - cx) - half_w, 0.0)
        dy = max(abs(y - cy) - half_h, 0.0)
        return math.hypot(dx, dy)
    return distance


def route(grid, net, sources, targets):
    """Cheapest path from any (layer, ix, iy) in `sources` to one in `targets`, or None.

    Returns the path as a list of (layer, ix, iy) from a source to a target.
    """
    targets = set(targets)
    if not targets:
        return None
    tx = sum(t[1] for t in targets) / len(targets)
    ty = sum(t[2] for t in targets) / len(targets)

    def guess(ix, iy):
        return abs(ix - tx) + abs(iy - ty)

    best, came, queue = {}, {}, []
    for node in sources:
        best[node] = 0
        came[node] = None
        heapq.heappush(queue, (guess(node[1], node[2]), 0, node))
    nx, ny = grid.nx, grid.ny
    while queue:
        _, cost, node = heapq.heappop(queue)
        if cost > best.get(node, math.inf):
            continue
        if node in targets:
            path = []
            while node is not None:
                path.append(node)
                node = came[node]
            return path[::-1]
        layer, ix, iy = node
        steps = []
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            jx, jy = ix + dx, iy + dy
            if 0 <= jx < nx and 0 <= jy < ny and grid.open_to(layer, jx, jy, net):
                steps.append(((layer, jx, jy), 1))
        other = 1 - layer
        if grid.open_to(other, ix, iy, net):
            steps.append(((other, ix, iy), VIA_COST))
        for step, price in steps:
            total = cost + price
            if total < best.get(step, math.inf):
                best[step] = total
                came[step] = node
                heapq.heappush(queue, (total + guess(step[1], step[2]), total, step))
    return None


def straighten(path):
    """[(layer, start, end)] segments and [(ix, iy)] via points of a cell path."""
    segments, vias = [], []
    start = path[0]
    previous = path[0]
    direction = None
    for node in path[1:]:
        if node[0] != previous[0]:
            if previous[1:] != start[1:]:
                segments.append((start[0], start[1:], previous[1:]))
            vias.append(node[1:])
            start, direction = node, None
        else:
            step = (node[1] - previous[1], node[2] - previous[2])
            if direction is not None and step != direction:
                segments.append((start[0], start[1:], previous[1:]))
                start = previous
            direction = step
        previous = node
    if previous[1:] != start[1:]:
        segments.append((start[0], start[1:], previous[1:]))
    return segments, vias
