"""A map's geometry from plain data — sites (an id, a point, a coast flag, perhaps a longitude/latitude) on a
canvas — computed once per map (pure, knows no game, draws no pieces):

- a linear fit from longitude/latitude to the map's coordinates (from the sites whose place is known), which
  puts a coarse coastline (``coast``) under the sites; without a usable fit (a made-up map) the land is the
  smoothed union of discs round the site points;
- each site's area (a province): a Voronoi cell round its point, limited to a radius (beyond it lies land
  outside the realm), its edges labelled with the neighbour across them (so region borders can be drawn
  heavier), wobbled by a smooth displacement field so that borders look drawn rather than ruled; islands
  with sites on them are shared only among those sites;
- where each coastal site's port anchor sits (the nearest water of the navigable sea).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render.idle import forget_when_idle
from render.mapkit.coast import MEDITERRANEAN, Coastline, LonLat

Point = tuple[float, float]
Affine = tuple[float, float, float, float, float, float]  # x = a·lon + b·lat + c, y = d·lon + e·lat + f
OUT = ""  # the label of a cell edge that is not shared with another province (frontier or map edge)

CELL_RADIUS = 150.0  # how far a province reaches from its point, at most (map units)
ISLAND_REACH = 60.0  # an island without a province belongs to the nearest one only within this distance
WOBBLE = 4.0  # amplitude of the border displacement (map units)
SS = 2  # supersampling of the land masks


@dataclass(frozen=True)
class Site:
    """A place on the map: its id, its point in map units, whether it has a port, where it lies on Earth."""

    id: str
    x: int
    y: int
    coast: bool = False
    lonlat: LonLat | None = None


@dataclass(frozen=True)
class MapData:
    """Everything the kit needs about one map (hashable: the geometry is cached per map)."""

    width: int
    height: int
    sites: tuple[Site, ...]
    coastline: Coastline = MEDITERRANEAN


@dataclass(frozen=True)
class Cell:
    """A province's area: a closed outline, and for each edge (from point i to i+1) who lies across it."""

    pid: str
    points: tuple[Point, ...]
    across: tuple[str, ...]


@dataclass(frozen=True)
class Geometry:
    width: int
    height: int
    fit: Affine | None
    land: Image.Image  # "L", 255 = land, anti-aliased edge
    internum: Image.Image  # "L", 255 = the navigable sea (where ships sail and ports anchor)
    layers: tuple[tuple[tuple[Cell, ...], Image.Image | None], ...]  # cells, and the mask they are drawn in
    ports: dict[str, Point]  # where each coastal site's anchor sits


# --- fitting the coastline onto the map --------------------------------------------------------------

def _solve3(m: list[list[float]], v: list[float]) -> tuple[float, float, float] | None:
    """Solve a 3×3 linear system by Gaussian elimination with pivoting (None if singular)."""
    a = [[*row[:], v[i]] for i, row in enumerate(m)]
    for col in range(3):
        pivot = max(range(col, 3), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-9:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(3):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return a[0][3] / a[0][0], a[1][3] / a[1][1], a[2][3] / a[2][2]


def _least_squares(pairs: Sequence[tuple[Point, Point]]) -> Affine | None:
    ata = [[0.0] * 3 for _ in range(3)]
    atx = [0.0] * 3
    aty = [0.0] * 3
    for (lon, lat), (x, y) in pairs:
        row = (lon, lat, 1.0)
        for i in range(3):
            for j in range(3):
                ata[i][j] += row[i] * row[j]
            atx[i] += row[i] * x
            aty[i] += row[i] * y
    fx = _solve3(ata, atx)
    fy = _solve3(ata, aty)
    if fx is None or fy is None:
        return None
    return (*fx, *fy)


def project(fit: Affine, lonlat: Point) -> Point:
    a, b, c, d, e, f = fit
    lon, lat = lonlat
    return a * lon + b * lat + c, d * lon + e * lat + f


def fit_coastline(world: MapData) -> Affine | None:
    """The linear map from degrees to map units that best puts the known sites where the map has them;
    None when fewer than eight are known or they disagree too much (a made-up map)."""
    pairs = [(p.lonlat, (float(p.x), float(p.y))) for p in world.sites if p.lonlat is not None]
    if len(pairs) < 8:
        return None
    fit = _least_squares(pairs)
    for _ in range(2):  # drop the worst-placed provinces once or twice (a hand-nudged label point)
        if fit is None:
            return None
        errs = [math.dist(project(fit, ll), xy) for ll, xy in pairs]
        limit = max(30.0, 3 * sorted(errs)[len(errs) // 2])
        kept = [pr for pr, err in zip(pairs, errs, strict=True) if err <= limit]
        if len(kept) < 8:
            return None
        pairs = kept
        fit = _least_squares(pairs)
    if fit is None:
        return None
    errs = sorted(math.dist(project(fit, ll), xy) for ll, xy in pairs)
    scale = math.hypot(fit[0], fit[3])
    return fit if errs[len(errs) // 2] <= max(25.0, scale * 1.2) else None


# --- land and sea ------------------------------------------------------------------------------------

def _mask(size: tuple[int, int], fill: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("L", (size[0] * SS, size[1] * SS), fill)
    return img, ImageDraw.Draw(img)


def _shrink_mask(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    return img.resize(size, Image.Resampling.BOX)


def _poly(fit: Affine, outline: Sequence[Point]) -> list[Point]:
    return [(x * SS, y * SS) for x, y in (project(fit, ll) for ll in outline)]


def _fitted_land(world: MapData, fit: Affine) -> tuple[Image.Image, Image.Image, list[Image.Image],
                                                       list[Image.Image]]:
    size = (world.width, world.height)
    coast = world.coastline
    land, draw = _mask(size, 255)
    for water in coast.waters:
        draw.polygon(_poly(fit, water), fill=0)
    islands: list[Image.Image] = []
    outside: list[Image.Image] = []
    for outline in coast.lands:
        draw.polygon(_poly(fit, outline), fill=255)
        one, d1 = _mask(size, 0)
        d1.polygon(_poly(fit, outline), fill=255)
        islands.append(_shrink_mask(one, size))
    for outline, one in zip(coast.lands, islands, strict=True):
        # an island no province stands on, and far from every province point, lies outside the Empire
        pts = [project(fit, ll) for ll in outline]
        centre = (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))
        if all(math.dist(centre, (p.x, p.y)) > ISLAND_REACH for p in world.sites):
            outside.append(one)
    for p in world.sites:  # a label point must stand on land, whatever the coarse coastline says
        r = 9 * SS
        draw.ellipse((p.x * SS - r, p.y * SS - r, p.x * SS + r, p.y * SS + r), fill=255)
    internum, di = _mask(size, 0)
    di.polygon(_poly(fit, coast.navigable), fill=255)
    for outline in coast.islands:
        di.polygon(_poly(fit, outline), fill=0)
    land_img = _shrink_mask(land, size)
    internum_img = ImageChops.multiply(_shrink_mask(internum, size), ImageChops.invert(land_img))
    return land_img, internum_img, islands, outside


def _blob_land(world: MapData) -> tuple[Image.Image, Image.Image, list[Image.Image], list[Image.Image]]:
    """Land for a map with no known places: smoothed discs round the sites; the rest is the sea."""
    size = (world.width, world.height)
    img = Image.new("L", size, 0)
    draw = ImageDraw.Draw(img)
    r = 70
    for p in world.sites:
        draw.ellipse((p.x - r, p.y - r, p.x + r, p.y + r), fill=255)
    land = img.filter(ImageFilter.GaussianBlur(18)).point(lambda v: 255 if v > 140 else 0)
    land = land.filter(ImageFilter.SMOOTH)
    return land, ImageChops.invert(land), [], []


# --- province cells ----------------------------------------------------------------------------------

Edge = tuple[Point, str]  # a vertex, and the label of the edge that starts at it


def _clip(poly: list[Edge], a: float, b: float, c: float, label: str) -> list[Edge]:
    """Keep the part of a convex polygon where a·x + b·y <= c; the new edge along the line gets ``label``."""
    out: list[Edge] = []
    n = len(poly)
    for i in range(n):
        (p, lab) = poly[i]
        q = poly[(i + 1) % n][0]
        fp = a * p[0] + b * p[1] - c
        fq = a * q[0] + b * q[1] - c
        if fp <= 0:
            if fq <= 0:
                out.append((p, lab))
            else:
                t = fp / (fp - fq)
                out.append((p, lab))
                out.append(((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t), label))
        elif fq <= 0:
            t = fp / (fp - fq)
            out.append(((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t), lab))
    return out


def _displace(p: Point) -> Point:
    """A smooth, fixed displacement field: shared borders move alike from both sides."""
    x, y = p
    dx = math.sin(0.045 * x + 1.3 * math.sin(0.031 * y)) + 0.5 * math.sin(0.11 * y + 0.07 * x + 1.0)
    dy = math.sin(0.04 * y + 1.1 * math.sin(0.027 * x) + 2.0) + 0.5 * math.sin(0.09 * x - 0.05 * y)
    return x + WOBBLE * dx, y + WOBBLE * dy


def _wobble(poly: list[Edge], step: float = 7.0) -> tuple[tuple[Point, ...], tuple[str, ...]]:
    points: list[Point] = []
    labels: list[str] = []
    n = len(poly)
    for i in range(n):
        (p, lab) = poly[i]
        q = poly[(i + 1) % n][0]
        k = max(1, math.ceil(math.dist(p, q) / step))
        for j in range(k):
            t = j / k
            points.append(_displace((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)))
            labels.append(lab)
    return tuple(points), tuple(labels)


def voronoi(provinces: Sequence[Site], size: tuple[int, int], radius: float = CELL_RADIUS) -> tuple[Cell, ...]:
    """Each site's Voronoi cell among ``provinces``, cut to ``radius`` round its point."""
    w, h = size
    cells: list[Cell] = []
    for p in provinces:
        poly: list[Edge] = [((0.0, 0.0), OUT), ((float(w), 0.0), OUT), ((float(w), float(h)), OUT),
                            ((0.0, float(h)), OUT)]
        for q in provinces:
            if q.id == p.id or (q.x, q.y) == (p.x, p.y):
                continue
            a, b = 2.0 * (q.x - p.x), 2.0 * (q.y - p.y)
            c = float(q.x * q.x + q.y * q.y - p.x * p.x - p.y * p.y)
            poly = _clip(poly, a, b, c, q.id)
        sides = 40
        r = radius / math.cos(math.pi / sides)  # the polygon's edges touch the circle from outside
        for k in range(sides):
            t = 2 * math.pi * k / sides
            a, b = math.cos(t), math.sin(t)
            poly = _clip(poly, a, b, a * p.x + b * p.y + r * math.cos(math.pi / sides), OUT)
        if len(poly) >= 3:
            pts, labels = _wobble(poly)
            cells.append(Cell(p.id, pts, labels))
    return tuple(cells)


def _inside(point: Point, mask: Image.Image) -> bool:
    x, y = round(point[0]), round(point[1])
    if not (0 <= x < mask.width and 0 <= y < mask.height):
        return False
    value = mask.getpixel((x, y))
    return isinstance(value, int) and value >= 128


def _ports(world: MapData, internum: Image.Image) -> dict[str, Point]:
    """For each coastal site, a spot in the navigable sea just off its nearest shore."""
    out: dict[str, Point] = {}
    for p in world.sites:
        if not p.coast:
            continue
        best: tuple[float, Point] | None = None
        for k in range(48):
            t = 2 * math.pi * k / 48
            ux, uy = math.cos(t), math.sin(t)
            for step in range(4, 220, 3):
                q = (p.x + ux * step, p.y + uy * step)
                if _inside(q, internum):
                    # two thirds of an anchor's width out to sea, so the anchor sits on water
                    spot = (p.x + ux * (step + 12), p.y + uy * (step + 12))
                    if best is None or step < best[0]:
                        best = (step, spot)
                    break
        if best is not None:
            out[p.id] = best[1]
        else:  # no Mare Internum in reach (a fixture): beside the label point
            out[p.id] = (p.x + 26.0, p.y + 20.0)
    return out


@forget_when_idle(120)  # 15–18 MB a map: once its layers are kept as PNG, only a missing one needs it
@lru_cache(maxsize=4)
def geometry(world: MapData) -> Geometry:
    """Everything about the map that never changes during a game (computed once per map)."""
    size = (world.width, world.height)
    fit = fit_coastline(world)
    if fit is not None:
        land, internum, islands, outside = _fitted_land(world, fit)
    else:
        land, internum, islands, outside = _blob_land(world)
    layers: list[tuple[tuple[Cell, ...], Image.Image | None]] = [(voronoi(world.sites, size), None)]
    on_island: set[str] = set()
    island_layers: list[tuple[tuple[Cell, ...], Image.Image | None]] = []
    for mask in islands:
        members = [p for p in world.sites if _inside((p.x, p.y), mask)]
        if members:
            on_island.update(p.id for p in members)
            island_layers.append((voronoi(members, size), mask))
    if on_island:
        mainland = [p for p in world.sites if p.id not in on_island]
        rest = Image.new("L", size, 255)
        for mask in islands:
            rest = ImageChops.subtract(rest, mask)
        layers.append((voronoi(mainland, size), rest))
    layers += island_layers
    layers += [((), mask) for mask in outside]
    return Geometry(size[0], size[1], fit, land, internum, tuple(layers), _ports(world, internum))
