"""Champion of the Empire: the map's static layer — colours and palette, each province's label (placed by the
map kit), the political map over the kit's geometry (cells, coasts, seas), land links and crossings, ports,
names, icons and the key — drawn once per map and cached, also already mapped onto the palette."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import msgspec
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render import common
from render.cache import kept
from render.champion import glyphs
from render.champion.texts import deck_of
from render.champion.world import geometry, sites
from render.mapkit import OUT, Cell, Geometry, place_labels, project
from rules.champion import content
from rules.champion.content import MapFile, Province
from rules.champion.i18n import N_, N_p, _, _p, local_map

#: The three story decks as the map's key names them.
DECK_NAMES = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}

# --- layout and colours ------------------------------------------------------------------------------

TITLE_H = 48
CAPTION_H = 50

SEA: common.RGB = (58, 112, 168)
SEA_SHALLOW: common.RGB = (104, 156, 204)
SEA_OUTER: common.RGB = (96, 128, 156)
SEA_OUTER_SHALLOW: common.RGB = (134, 162, 186)
SEA_TEXT: common.RGB = (196, 220, 240)
COAST: common.RGB = (52, 44, 36)
OUTSIDE: common.RGB = (226, 214, 186)  # land beyond the Empire
PARCHMENT: common.RGB = (250, 243, 224)
INK: common.RGB = (34, 24, 14)
LABEL_RIM: common.RGB = (255, 250, 236)
REGION_LINE: common.RGB = (46, 34, 24)
LINK: common.RGB = (70, 52, 36)
CROSSING: common.RGB = (120, 40, 24)
WHITE: common.RGB = (255, 255, 255)
BLACK: common.RGB = (0, 0, 0)
BAR: common.RGB = (44, 30, 22)
BAR_TEXT: common.RGB = (250, 240, 214)
BAR_DIM: common.RGB = (214, 196, 160)
PANEL: common.RGB = (250, 243, 224)
PANEL_RIM: common.RGB = (120, 30, 30)
TURN_RING: common.RGB = (255, 214, 0)
HIGHLIGHT: common.RGB = (255, 255, 255)  # a reachable province: white wash, white band between black lines
#: The band under the map (render/champion/board.py): the whole board is mapped onto the map's palette.
ACT_BAND: common.RGB = (255, 236, 150)
DIM: common.RGB = (110, 96, 80)

#: Token fill and letter colour for each player colour; the letter is a second cue beyond colour.

NAME_SIZE = 17
SMALL_SIZE = 14
BADGE = 30
SYMBOL = 20
TOKEN_D = 40
ANCHOR = 18


def _hex(colour: str) -> common.RGB:
    c = colour.lstrip("#")
    if len(c) != 6:
        return (200, 200, 200)
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def world() -> MapFile:
    """The game's map, its names in the current language (tests may monkeypatch this to a fixture)."""
    return local_map(content.map_file())


# --- the palette -------------------------------------------------------------------------------------

def _region_fill(colour: str) -> common.RGB:
    return common.mix(_hex(colour), PARCHMENT, 0.3)


@lru_cache(maxsize=4)
def _palette(world_map: MapFile) -> Image.Image:
    """The map's fixed palette: every flat colour exactly, then blends for anti-aliased edges."""
    fills = [_region_fill(r.colour) for r in world_map.region]
    lines = [common.mix(f, REGION_LINE, 0.45) for f in fills]
    tokens = [c for c, _ in common.TOKENS.values()] + [common.OTHER_TOKEN[0]]
    decks = list(glyphs.DECK_COLOURS.values())
    solids = [SEA, SEA_SHALLOW, SEA_OUTER, SEA_OUTER_SHALLOW, SEA_TEXT, COAST, OUTSIDE, PARCHMENT, INK,
              LABEL_RIM, REGION_LINE, LINK, CROSSING, WHITE, BLACK, BAR, BAR_TEXT, BAR_DIM, PANEL, PANEL_RIM,
              TURN_RING, HIGHLIGHT, *fills, *lines, *tokens, *decks, glyphs.GOLD, glyphs.STEEL, glyphs.WOOD,
              glyphs.TERRACOTTA, glyphs.STRAW, glyphs.PAPYRUS, glyphs.FLAME, glyphs.FLAME_CORE, glyphs.MARBLE,
              glyphs.SEA_INK, glyphs.RED_ROOF, glyphs.DARK_WOOD, ACT_BAND, DIM]
    grounds = [*fills, OUTSIDE, SEA, SEA_SHALLOW, SEA_OUTER, PANEL, BAR]
    ramps: list[tuple[common.RGB, common.RGB]] = [(SEA, SEA_SHALLOW), (SEA_OUTER, SEA_OUTER_SHALLOW), (INK, LABEL_RIM),
                                    (BAR_TEXT, BAR), (BAR_DIM, BAR), (SEA_TEXT, SEA), (COAST, SEA_SHALLOW),
                                    (WHITE, BLACK), (PANEL_RIM, PANEL), (INK, ACT_BAND), (BLACK, ACT_BAND),
                                    (TURN_RING, BLACK), (DIM, PANEL), (BAR_TEXT, BLACK)]
    ramps += [(g, edge) for g in grounds for edge in (LABEL_RIM, REGION_LINE, BLACK, COAST, HIGHLIGHT)]
    ramps += [(f, c) for f in tokens for c in (WHITE, BLACK)]
    ramps += [(f, h) for f in fills for h in (common.mix(f, WHITE, 0.5),)]
    return common.build_palette(solids, ramps, steps=3)


# --- labels: where each province's name, icon and tokens go --------------------------------------------

@dataclass(frozen=True)
class Label:
    pid: str
    point: tuple[int, int]  # the province point: the icon badge's centre
    name_lines: tuple[str, ...]
    name_box: common.Box  # the box of the name lines (and the small city/shrine line under them)
    extra: tuple[tuple[str, str], ...]  # ("city" | "shrine", name)
    token_at: tuple[int, int]  # where a lone hero token is centred


def _name_lines(name: str) -> list[str]:
    face = common.font("bold", NAME_SIZE)
    if common.text_length(name, face) <= 130:
        return [name]
    if " " not in name and "・" in name:  # a Japanese compound name parts at its dots (マウレタニア・カエサリエンシス)
        parts = [f"{part}・" for part in name.split("・")]
        parts[-1] = parts[-1][:-1]
        width = max(130.0, max(common.text_length(part, face) for part in parts),
                    common.text_length(name, face) / 2 + 12)
        lines = [parts[0]]
        for part in parts[1:]:
            if common.text_length(lines[-1] + part, face) <= width:
                lines[-1] += part
            else:
                lines.append(part)
        return lines
    if " " not in name:
        return [name]
    longest = max(common.text_length(word, face) for word in name.split())
    return common.wrap(name, face, max(130.0, longest, common.text_length(name, face) / 2 + 12))


def _extras(p: Province) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if p.city:
        out.append(("city", p.city))
    if p.shrine:
        out.append(("shrine", p.shrine))
    return out


def _block_size(lines: Sequence[str], extras: Sequence[tuple[str, str]]) -> tuple[int, int]:
    face, small = common.font("bold", NAME_SIZE), common.font("bold", SMALL_SIZE)
    w = max(common.text_length(t, face) for t in lines) + 6
    h = len(lines) * (NAME_SIZE + 3) + 4
    if extras:
        ew = sum(SYMBOL + 3 + common.text_length(n, small) + 8 for _, n in extras) - 8
        w = max(w, ew + 6)
        h += SYMBOL + 2
    return math.ceil(w), math.ceil(h)


#: The labels and token places, worked out once and shipped (placing them takes seconds: a first `/game
#: status` must not wait for that, nor a test under load).  Keyed by what they depend on; a test checks the
#: shipped file against a fresh placement, and ``python -m render.champion.basemap`` writes it again.
LAYOUT_FILE = Path(__file__).parent / "layout.json"
LAYOUT_VERSION = 1
#: The languages whose map names differ from the English ones ship their own layout (``layout.<lang>.json``).
LAYOUT_LANGUAGES = ("hu", "el", "ja")


def layout_file(lang: str = "en") -> Path:
    """Where the layout of the map's names in ``lang`` is shipped."""
    return LAYOUT_FILE if lang == "en" else LAYOUT_FILE.with_name(f"layout.{lang}.json")


def _layout_key(world_map: MapFile) -> str:
    digest = hashlib.sha256(msgspec.json.encode(world_map))
    digest.update(f"{LAYOUT_VERSION}:{NAME_SIZE}:{TOKEN_D}:{BADGE}:{ANCHOR}:{SYMBOL}".encode())
    for name in ("bold", "sans", "cond"):
        digest.update(str(common.font(name, 12).path).rsplit("/", 1)[-1].encode())
    return digest.hexdigest()


class _Layout(msgspec.Struct, frozen=True):
    key: str
    labels: dict[str, Label]


@lru_cache(maxsize=4)
def labels(world_map: MapFile) -> dict[str, Label]:
    """Each province's name block and token place: the shipped layout when it matches this map, else placed
    now (see ``place_all``)."""
    key = _layout_key(world_map)
    for lang in ("en", *LAYOUT_LANGUAGES):
        try:
            shipped = msgspec.json.decode(layout_file(lang).read_bytes(), type=_Layout)
        except (OSError, msgspec.ValidationError, msgspec.DecodeError):
            continue
        if shipped.key == key:
            return shipped.labels
    return place_all(world_map)


def write_layout(world_map: MapFile, lang: str = "en") -> Path:
    """Place every label afresh and ship the result (run after changing the map, its names in a language, or
    the placement): ``world_map`` is the map with its names in ``lang``."""
    placed = place_all(world_map)
    layout = _Layout(key=_layout_key(world_map), labels=dict(sorted(placed.items())))
    path = layout_file(lang)
    path.write_bytes(msgspec.json.encode(layout) + b"\n")
    return path


def place_all(world_map: MapFile) -> dict[str, Label]:
    """Place each province's name block beside its icon (the map kit chooses the spots), avoiding the other
    icons, the port anchors, the names and the token spots."""
    g = geometry(world_map)
    blocks: dict[str, tuple[int, int]] = {}
    lines: dict[str, list[str]] = {}
    for p in world_map.province:
        lines[p.id] = _name_lines(p.name)
        blocks[p.id] = _block_size(lines[p.id], _extras(p))
    anchors = [(round(x) - ANCHOR // 2, round(y) - ANCHOR // 2, round(x) + ANCHOR // 2, round(y) + ANCHOR // 2)
               for x, y in g.ports.values()]
    spots = place_labels(sites(world_map), blocks, g.land, (world_map.map.width, world_map.map.height),
                         badge=BADGE, token=TOKEN_D, obstacles=anchors)
    provs = {p.id: p for p in world_map.province}
    boxes = _untangle({pid: spot.box for pid, spot in spots.items()}, world_map, anchors)
    tokens = _token_places(boxes, world_map, anchors)
    r = TOKEN_D // 2 + 2
    discs = [(x - r, y - r, x + r, y + r) for x, y in tokens.values()]
    if any(_hit(d, b) for d in discs for b in boxes.values()):  # a name under a token: move the name
        boxes = _untangle(boxes, world_map, [*anchors, *discs], strong=len(anchors))
    return {pid: Label(pid, (provs[pid].x, provs[pid].y), tuple(lines[pid]), boxes[pid],
                       tuple(_extras(provs[pid])), tokens[pid]) for pid in spots}


@lru_cache(maxsize=4)
def owners(world_map: MapFile) -> Image.Image:
    """Which province each pixel belongs to ("L": the province's index in the map file plus one, 0 = none)."""
    g = geometry(world_map)
    index = {p.id: i + 1 for i, p in enumerate(world_map.province)}
    out = Image.new("L", (g.width, g.height), 0)
    for cells, layer_mask in g.layers:
        layer = Image.new("L", (g.width, g.height), 0)
        draw = ImageDraw.Draw(layer)  # a plain fill of polygons: no text is drawn here
        for cell in cells:
            draw.polygon(cell.points, fill=index.get(cell.pid, 0))
        if layer_mask is None:
            out.paste(layer, (0, 0), layer.point(lambda v: 255 if v else 0))
        else:
            out.paste(layer, (0, 0), layer_mask.point(lambda v: 255 if v >= 128 else 0))
    on_land = Image.new("L", (g.width, g.height), 0)
    on_land.paste(out, (0, 0), g.land.point(lambda v: 255 if v >= 128 else 0))
    return on_land


def _hit(a: common.Box, b: common.Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return float(w * h) if w > 0 and h > 0 else 0.0


def _badges(world_map: MapFile) -> dict[str, common.Box]:
    half = BADGE // 2 + 1
    return {p.id: (p.x - half, p.y - half, p.x + half, p.y + half) for p in world_map.province}


def _untangle(boxes: dict[str, common.Box], world_map: MapFile, anchors: Sequence[common.Box], *,
              strong: int | None = None) -> dict[str, common.Box]:
    """Move the name blocks that still touch another block, another province's badge or a port anchor to the
    nearest free place (a few pixels usually do), keeping inside the picture and preferring land."""
    out = dict(boxes)
    badges = _badges(world_map)
    land = geometry(world_map).land
    w, h = world_map.map.width, world_map.map.height

    weighted = [(a, 10 if strong is None or k < strong else 30) for k, a in enumerate(anchors)]
    near: dict[str, tuple[list[common.Box], list[common.Box], list[tuple[common.Box, int]]]] = {}

    def around(pid: str) -> None:
        """What a block of ``pid`` can touch while it moves (its search reaches ~80 px): the rest is skipped."""
        b0 = out[pid]
        reach = (b0[0] - 180, b0[1] - 160, b0[2] + 180, b0[3] + 160)
        near[pid] = ([b for q, b in out.items() if q != pid and _hit(reach, b)],
                     [b for b in badges.values() if _hit(reach, b)],
                     [(a, k) for a, k in weighted if _hit(reach, a)])

    def cost(pid: str, box: common.Box) -> float:
        others, icons, marks = near[pid]
        c = sum(_hit(box, b) for b in others) * 20
        own = badges[pid]  # a name stays beside its own icon
        gap = max(own[0] - box[2], box[0] - own[2], 0) + max(own[1] - box[3], box[1] - own[3], 0)
        c += max(0, gap - 6) * 12
        c += sum(_hit(box, b) for b in icons) * 20
        c += sum(_hit(box, a) * k for a, k in marks)
        c += (max(0, -box[0]) + max(0, box[2] - w) + max(0, -box[1]) + max(0, box[3] - h)) * 400
        x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3])
        if x1 > x0 and y1 > y0:
            crop = land.crop((x0, y0, x1, y1)).resize((6, 3), Image.Resampling.BOX)
            c += (1.0 - sum(crop.tobytes()) / (255.0 * 18)) * 40
        return c

    for _i in range(4):
        moved = False
        for pid in sorted(out):
            box = out[pid]
            around(pid)
            now = cost(pid, box)
            if now < 40.5 and not any(_hit(box, b) for q, b in out.items() if q != pid) and not any(
                    _hit(box, a) for a in anchors[strong or 0:] if strong is not None):
                continue
            best, best_cost = box, now
            for dy in range(-60, 61, 4):
                for dx in range(-72, 73, 4):
                    shift = math.hypot(dx, dy) * 0.6
                    if shift >= best_cost - 0.5:
                        continue  # even a free spot this far would not beat the best so far
                    cand = (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)
                    c = cost(pid, cand) + shift
                    if c < best_cost - 0.5:
                        best, best_cost = cand, c
            if best != box:
                out[pid] = best
                moved = True
        if not moved:
            break
    return out


def _token_places(boxes: Mapping[str, common.Box], world_map: MapFile,
                  anchors: Sequence[common.Box]) -> dict[str, tuple[int, int]]:
    """Where a hero token stands in each province: inside the province itself, clear of every name block,
    badge, port anchor and the other provinces' tokens, as near the badge as that allows."""
    own = owners(world_map)
    index = {p.id: i + 1 for i, p in enumerate(world_map.province)}
    badges = _badges(world_map)
    r = TOKEN_D // 2 + 2
    w, h = world_map.map.width, world_map.map.height
    placed: dict[str, common.Box] = {}

    def inside(pid: str, x: int, y: int) -> float:
        """The share of the token's rim and centre that lies in the province."""
        points = [(x, y)] + [(round(x + (r - 3) * math.cos(a * math.pi / 4)),
                              round(y + (r - 3) * math.sin(a * math.pi / 4))) for a in range(8)]
        good = sum(1 for px, py in points if 0 <= px < w and 0 <= py < h and own.getpixel((px, py)) == index[pid])
        return good / len(points)

    crowded = sorted(world_map.province, key=lambda p: -sum(1 for q in world_map.province
                                                            if math.dist((p.x, p.y), (q.x, q.y)) < 120))
    for p in crowded:
        best: tuple[float, tuple[int, int]] | None = None
        reach = (p.x - 180, p.y - 180, p.x + 180, p.y + 180)  # what a token of ``p`` can touch
        names = [b for b in boxes.values() if _hit(reach, b)]
        icons = [(b, 3 if q == p.id else 30) for q, b in badges.items() if _hit(reach, b)]
        marks = [a2 for a2 in anchors if _hit(reach, a2)]
        tokens = [b for b in placed.values() if _hit(reach, b)]
        for radius in range(12, r + BADGE // 2 + 90, 5):
            for k in range(24):
                a = k * math.pi / 12 - math.pi / 2
                x, y = round(p.x + radius * math.cos(a)), round(p.y + radius * math.sin(a))
                tbox = (x - r, y - r, x + r, y + r)
                centre = 0 <= x < w and 0 <= y < h and own.getpixel((x, y)) == index[p.id]
                c = (1.0 - inside(p.id, x, y)) * 4000 + (0 if centre else 20000)
                c += sum(_hit(tbox, b) for b in names) * 30
                c += sum(_hit(tbox, b) * k for b, k in icons)
                c += sum(_hit(tbox, a2) for a2 in marks) * 10
                c += sum(_hit(tbox, b) for b in tokens) * 8
                c += (max(0, -tbox[0]) + max(0, tbox[2] - w) + max(0, -tbox[1]) + max(0, tbox[3] - h)) * 400
                c += radius * 2 + (0 if k in (0, 12) else 3)
                if best is None or c < best[0]:
                    best = (c, (x, y))
        assert best is not None
        x, y = best[1]
        placed[p.id] = (x - r, y - r, x + r, y + r)
    return {pid: ((b[0] + b[2]) // 2, (b[1] + b[3]) // 2) for pid, b in placed.items()}


# --- the static layer --------------------------------------------------------------------------------

def _draw_cells(img: Image.Image, cells: Sequence[Cell], region_of: Mapping[str, str],
                fills: Mapping[str, common.RGB]) -> None:
    """Fill the cells in their region's colour; thin borders between provinces, heavy ones between
    regions and along the Empire's frontier."""
    draw = common.canvas(img)
    for cell in cells:
        draw.polygon(cell.points, fill=fills[region_of[cell.pid]])
    for cell in cells:
        n = len(cell.points)
        line = common.mix(fills[region_of[cell.pid]], REGION_LINE, 0.45)
        for i in range(n):
            a, b = cell.points[i], cell.points[(i + 1) % n]
            other = cell.across[i]
            if other == OUT or region_of.get(other) != region_of[cell.pid]:
                continue
            draw.line((a, b), fill=line, width=2)
    for cell in cells:
        n = len(cell.points)
        for i in range(n):
            other = cell.across[i]
            if other != OUT and region_of.get(other) == region_of[cell.pid]:
                continue
            a, b = cell.points[i], cell.points[(i + 1) % n]
            draw.line((a, b), fill=REGION_LINE, width=3)
            draw.ellipse((a[0] - 1, a[1] - 1, a[0] + 1, a[1] + 1), fill=REGION_LINE)


def _political(world_map: MapFile, g: Geometry) -> Image.Image:
    size = (g.width, g.height)
    region_of = {p.id: p.region for p in world_map.province}
    fills = {r.id: _region_fill(r.colour) for r in world_map.region}
    img = Image.new("RGB", size, OUTSIDE)
    for cells, mask in g.layers:
        if mask is None:
            _draw_cells(img, cells, region_of, fills)
            continue
        layer = Image.new("RGB", size, OUTSIDE)
        _draw_cells(layer, cells, region_of, fills)
        img.paste(layer, (0, 0), mask)
    return img


def _sea(g: Geometry) -> Image.Image:
    """Two blues: the Mare Internum (where ships sail) brighter than the outer seas; shallows by the
    coasts lighter; a dark coastline."""
    size = (g.width, g.height)
    img = Image.new("RGB", size, SEA_OUTER)
    near = g.land.filter(ImageFilter.GaussianBlur(9)).point(lambda v: min(255, v * 3))
    img.paste(Image.new("RGB", size, SEA_OUTER_SHALLOW), (0, 0), near.point(lambda v: v * 5 // 10))
    inner = Image.new("RGB", size, SEA)
    inner.paste(Image.new("RGB", size, SEA_SHALLOW), (0, 0), near.point(lambda v: v * 6 // 10))
    img.paste(inner, (0, 0), g.internum)
    return img


def _dash(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float],
          fill: common.RGB | tuple[int, int, int, int], width: int,
          on: float, off: float) -> None:
    length = math.dist(a, b)
    if length < 1:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        e = min(length, t + on)
        draw.line((a[0] + ux * t, a[1] + uy * t, a[0] + ux * e, a[1] + uy * e), fill=fill, width=width)
        t += on + off


def _links(img: Image.Image, world_map: MapFile, g: Geometry) -> None:
    """Land links as faint dotted lines; narrow crossings as heavy dashes with a bar at each shore."""
    pos = {p.id: (float(p.x), float(p.y)) for p in world_map.province}
    overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
    od = common.canvas(overlay)
    for link in world_map.link:
        if link.a not in pos or link.b not in pos or link.crossing:
            continue
        _dash(od, pos[link.a], pos[link.b], (*LINK, 130), 2, 3, 5)
    img.paste(overlay, (0, 0), overlay)
    draw = common.canvas(img)
    for link in world_map.link:
        if not link.crossing or link.a not in pos or link.b not in pos:
            continue
        a, b = pos[link.a], pos[link.b]
        length = math.dist(a, b)
        if length < 40:
            continue
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        s, e = (a[0] + ux * 18, a[1] + uy * 18), (b[0] - ux * 18, b[1] - uy * 18)
        _dash(draw, s, e, WHITE, 7, 9, 6)
        _dash(draw, s, e, CROSSING, 4, 9, 6)
        for end in (s, e):
            nx, ny = -uy * 7, ux * 7
            draw.line((end[0] - nx, end[1] - ny, end[0] + nx, end[1] + ny), fill=CROSSING, width=3)


def _sea_names(img: Image.Image, g: Geometry) -> None:
    if g.fit is None:
        return
    draw = common.canvas(img, origin=(0, TITLE_H))  # the map sits under the title bar
    for name, lonlat, scale in _SEA_NAMES:
        x, y = project(g.fit, lonlat)
        words = _p("sea", name)
        # Latin capitals are spaced out as a sea's name on a map; Japanese is not, and a little smaller (its
        # letters are wide already: spaced, the Black Sea's name reaches Byzantium's)
        wide = bool(common.CJK.search(words))
        face = common.font("serif", round(24 * scale * (0.85 if wide else 1.0)))
        spaced = words if wide else " ".join(words)
        draw.text((x, y), spaced, font=face, fill=SEA_TEXT, anchor="mm")


_SEA_NAMES: tuple[tuple[str, tuple[float, float], float], ...] = (
    (N_p("sea", "MARE INTERNUM"), (20.5, 34.2), 1.0),
    (N_p("sea", "PONTUS EUXINUS"), (34.5, 43.2), 0.62),
    (N_p("sea", "OCEANUS"), (-6.5, 46.5), 0.75),
)


@kept(tile=64)  # compressed in tiles (a highlight crops its names from it), on disk between runs
def _label_layer(world_map: MapFile) -> Image.Image:
    """Ports, icons, names, cities and shrines on a transparent layer (pasted again over a highlight)."""
    g = geometry(world_map)
    img = Image.new("RGBA", (g.width, g.height), (0, 0, 0, 0))
    _draw_labels(img, world_map, g)
    return img


def _draw_labels(img: Image.Image, world_map: MapFile, g: Geometry) -> None:
    draw = common.canvas(img, origin=(0, TITLE_H))  # the map sits under the title bar
    provs = {p.id: p for p in world_map.province}
    face, small = common.font("bold", NAME_SIZE), common.font("bold", SMALL_SIZE)
    for pid, (x, y) in g.ports.items():
        if pid not in provs:
            continue
        p = provs[pid]
        if math.dist((x, y), (p.x, p.y)) > 34:
            _dash(draw, (p.x, p.y), (x, y), SEA_TEXT, 2, 4, 4)
        img.alpha_composite(glyphs.anchor(ANCHOR), (round(x) - ANCHOR // 2, round(y) - ANCHOR // 2))
    for lab in labels(world_map).values():  # a name moved away from its icon is tied to it by a leader line
        p = provs[lab.pid]
        x0, y0, x1, y1 = lab.name_box
        nx, ny = min(max(p.x, x0), x1), min(max(p.y, y0), y1)
        if math.dist((nx, ny), (p.x, p.y)) > BADGE // 2 + 14:
            draw.line([(p.x, p.y), (nx, ny)], fill=LABEL_RIM, width=5)
            draw.line([(p.x, p.y), (nx, ny)], fill=INK, width=2)
    for lab in labels(world_map).values():
        p = provs[lab.pid]
        img.alpha_composite(glyphs.badge(p.icon, deck_of(p.icon), BADGE), (p.x - BADGE // 2, p.y - BADGE // 2))
        x0, y0, x1, _y1 = lab.name_box
        cx = (x0 + x1) / 2
        y = y0 + 2
        for line in lab.name_lines:
            draw.text((cx, y), line, font=face, fill=INK, anchor="ma", stroke_width=3, stroke_fill=LABEL_RIM)
            y += NAME_SIZE + 3
        if lab.extra:
            total = sum(SYMBOL + 3 + common.text_length(n, small) + 8 for _, n in lab.extra) - 8
            ex = cx - total / 2
            ey = y + 1
            for kind, name in lab.extra:
                spr = glyphs.city(SYMBOL) if kind == "city" else glyphs.shrine(SYMBOL)
                img.alpha_composite(spr, (round(ex), round(ey)))
                ex += SYMBOL + 3
                ink = (150, 20, 20) if kind == "city" else (92, 56, 0)
                draw.text((ex, ey + SYMBOL / 2 + 1), name, font=small, fill=ink, anchor="lm", stroke_width=3,
                          stroke_fill=LABEL_RIM)
                ex += common.text_length(name, small) + 8


# --- the key -----------------------------------------------------------------------------------------

def _key_box(world_map: MapFile) -> common.Box:
    w, h = 520, 250
    return 10, world_map.map.height - h - 10, 10 + w, world_map.map.height - 10


def _panel(draw: ImageDraw.ImageDraw, box: common.Box, rim: common.RGB = PANEL_RIM) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 + 3, y0 + 4, x1 + 3, y1 + 4), radius=10, fill=(40, 40, 40))
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=INK, width=2)
    draw.rounded_rectangle((x0 + 5, y0 + 5, x1 - 5, y1 - 5), radius=7, outline=rim, width=2)


def _draw_key(img: Image.Image, world_map: MapFile) -> None:
    draw = common.canvas(img, origin=(0, TITLE_H))  # the map sits under the title bar
    box = _key_box(world_map)
    common.mark(draw, "key", box)
    draw.frame = box  # every word below belongs to the key (the picture check holds them to it)
    x0, y0, x1, _y1 = box
    _panel(draw, box, rim=(120, 90, 40))
    small = common.font("sans", 14)
    y = y0 + 14
    kface, key_head = common.fit_label(_("Story decks by province icon"), "bold", 15, x1 - x0 - 32, smallest=9)
    draw.text((x0 + 16, y), key_head, font=kface, fill=INK)
    y += 24
    for deck in content.DECKS:
        icons = [i for i in content.ICONS if content.DECK_OF_ICON[i] == deck]
        colour = glyphs.DECK_COLOURS[deck]
        draw.rounded_rectangle((x0 + 16, y + 2, x0 + 86, y + 24), radius=5, fill=colour)
        dface, deck_name = common.fit_label(_(DECK_NAMES[deck]), "bold", 15, 66, smallest=9)
        draw.text((x0 + 51, y + 13), deck_name, font=dface, fill=WHITE, anchor="mm")
        x = x0 + 96
        labels_w = sum(29 + common.text_length(_(glyphs.ICON_NAMES[n]), small) + 12 for n in icons) - 12
        iface = small
        if labels_w > x1 - 16 - x:  # a longer translation: the icon names get smaller
            iface = common.fit_label("".join(_(glyphs.ICON_NAMES[n]) for n in icons), "sans", 14,
                           x1 - 16 - x - len(icons) * 41, smallest=9)[0]
        for name in icons:
            spr = glyphs.badge(name, deck, 26)
            img.paste(spr, (x, y), spr)
            label = _(glyphs.ICON_NAMES[name])
            draw.text((x + 29, y + 13), label, font=iface, fill=INK, anchor="lm")
            x += 29 + int(common.text_length(label, iface)) + 12
        y += 30
    y += 4
    draw.line((x0 + 16, y, x1 - 16, y), fill=common.mix(INK, PANEL, 0.6), width=1)
    y += 8
    x = x0 + 16
    legend = [("city", _("city (market)")), ("shrine", _("secret shrine")), ("anchor", _("port")),
              ("crossing", _("narrow crossing"))]
    legend_w = sum(34 + 5 + common.text_length(label, small) + 18 for _kind, label in legend) - 18
    if legend_w > x1 - x0 - 32:  # a longer translation: the legend gets smaller
        small = common.fit_label("".join(label for _kind, label in legend), "sans", 14,
                       x1 - x0 - 32 - len(legend) * 57, smallest=9)[0]
    for kind, label in legend:
        if kind == "city":
            spr = glyphs.city(22)
        elif kind == "shrine":
            spr = glyphs.shrine(22)
        elif kind == "anchor":
            spr = glyphs.anchor(22)
        else:
            spr = Image.new("RGBA", (34, 22), (0, 0, 0, 0))
            sd = common.canvas(spr)
            _dash(sd, (4.0, 11.0), (30.0, 11.0), CROSSING, 4, 8, 5)
            sd.line((3, 4, 3, 18), fill=CROSSING, width=3)
            sd.line((31, 4, 31, 18), fill=CROSSING, width=3)
        img.paste(spr, (x, y), spr)
        x += spr.width + 5
        draw.text((x, y + 11), label, font=small, fill=INK, anchor="lm")
        x += int(common.text_length(label, small)) + 18
    y += 30
    x = x0 + 16
    col_w = (x1 - x0 - 32) // 2
    for i, r in enumerate(world_map.region):
        cx = x + (i % 2) * col_w
        cy = y + (i // 2) * 22
        draw.rectangle((cx, cy + 2, cx + 18, cy + 18), fill=_region_fill(r.colour), outline=REGION_LINE, width=2)
        rface, region = common.fit_label(r.name, "cond", 14, col_w - 30, smallest=9)
        draw.text((cx + 24, cy + 10), region, font=rface, fill=INK, anchor="lm")


@kept(palette=_palette)  # mapped onto the palette (160 KB kept), on disk between runs: drawing it needs the geometry
def _base_rgb(world_map: MapFile) -> Image.Image:
    """The whole static picture in RGB: bars, sea, land, borders, links, ports, names, icons and key."""
    g = geometry(world_map)
    size = (g.width, g.height)
    layer = _sea(g)
    layer.paste(_political(world_map, g), (0, 0), g.land)
    coast = ImageChops.subtract(g.land.filter(ImageFilter.MaxFilter(3)), g.land)
    layer.paste(Image.new("RGB", size, COAST), (0, 0), coast.point(lambda v: min(255, v * 2)))
    _sea_names(layer, g)
    _links(layer, world_map, g)
    labels_on_top = _label_layer(world_map)
    layer.paste(labels_on_top, (0, 0), labels_on_top)
    _draw_key(layer, world_map)
    img = Image.new("RGB", (g.width, TITLE_H + g.height + CAPTION_H), BAR)
    img.paste(layer, (0, TITLE_H))
    return img


def _base(world_map: MapFile) -> Image.Image:
    """The static picture mapped onto the palette (a snapshot draws on it where it changed)."""
    return _base_rgb.paletted(world_map)


if __name__ == "__main__":  # python -m render.champion.basemap: ship the layout again
    import render.champion.basemap as shipped_module  # the package's own copy, not this __main__ one
    from rules.i18n import using

    print(f"wrote {shipped_module.write_layout(content.map_file())}")
    for language in shipped_module.LAYOUT_LANGUAGES:
        with using(language):
            print(f"wrote {shipped_module.write_layout(shipped_module.world(), language)}")
