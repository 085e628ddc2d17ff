"""Champion of the Empire: the map of the Roman world, drawn from a view (plain data), and its alt text.

The static map (seas, coasts, provinces coloured by region, borders, land links, narrow crossings, ports,
names, icons, cities, shrines and the key) is drawn once into a cached layer, already mapped onto the
palette.  A snapshot draws the moving parts (highlighted provinces, the last move, hero tokens, the event
panel, the caption) on an RGB copy, then maps onto the palette only the rectangles it touched, pasting them
into a copy of the cached paletted layer: encoding then costs little more than the PNG compression itself.
"""

from __future__ import annotations

import io
import itertools
import math
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render.champion import glyphs
from render.champion.texts import deck_of, event_card, event_effect_line, hero_name
from render.champion.world import OUT, Cell, Geometry, geometry, project
from render.common import (
    RGB,
    Box,
    build_palette,
    cap_alt,
    draw_lines,
    ellipsize,
    fit_text,
    font,
    mix,
    png_bytes,
    shrink,
    supersampled,
    wrap,
)
from rules.champion import content
from rules.champion.content import MapFile, Province

View = Mapping[str, Any]

# --- layout and colours ------------------------------------------------------------------------------

TITLE_H = 48
CAPTION_H = 50

SEA: RGB = (58, 112, 168)
SEA_SHALLOW: RGB = (104, 156, 204)
SEA_OUTER: RGB = (96, 128, 156)
SEA_OUTER_SHALLOW: RGB = (134, 162, 186)
SEA_TEXT: RGB = (196, 220, 240)
COAST: RGB = (52, 44, 36)
OUTSIDE: RGB = (226, 214, 186)  # land beyond the Empire
PARCHMENT: RGB = (250, 243, 224)
INK: RGB = (34, 24, 14)
LABEL_RIM: RGB = (255, 250, 236)
REGION_LINE: RGB = (46, 34, 24)
LINK: RGB = (70, 52, 36)
CROSSING: RGB = (120, 40, 24)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
BAR: RGB = (44, 30, 22)
BAR_TEXT: RGB = (250, 240, 214)
BAR_DIM: RGB = (214, 196, 160)
PANEL: RGB = (250, 243, 224)
PANEL_RIM: RGB = (120, 30, 30)
TURN_RING: RGB = (255, 214, 0)
HIGHLIGHT: RGB = (255, 255, 255)  # a reachable province: white wash, white band between black lines

#: Token fill and letter colour for each player colour; the letter is a second cue beyond colour.
TOKENS: dict[str, tuple[RGB, RGB]] = {
    "red": ((229, 57, 53), WHITE),
    "blue": ((30, 118, 220), WHITE),
    "green": ((40, 150, 60), WHITE),
    "orange": ((251, 140, 0), BLACK),
    "white": ((250, 250, 250), BLACK),
}
OTHER_TOKEN: tuple[RGB, RGB] = ((150, 150, 150), BLACK)

NAME_SIZE = 17
SMALL_SIZE = 14
BADGE = 30
SYMBOL = 20
TOKEN_D = 32
ANCHOR = 18


def token_colours(colour: str) -> tuple[RGB, RGB]:
    return TOKENS.get(colour.lower(), OTHER_TOKEN)


def _hex(colour: str) -> RGB:
    c = colour.lstrip("#")
    if len(c) != 6:
        return (200, 200, 200)
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def world() -> MapFile:
    """The game's map (tests may monkeypatch this to a fixture)."""
    return content.map_file()


# --- the palette -------------------------------------------------------------------------------------

def _region_fill(colour: str) -> RGB:
    return mix(_hex(colour), PARCHMENT, 0.3)


@lru_cache(maxsize=4)
def _palette(world_map: MapFile) -> Image.Image:
    """The map's fixed palette: every flat colour exactly, then blends for anti-aliased edges."""
    fills = [_region_fill(r.colour) for r in world_map.region]
    lines = [mix(f, REGION_LINE, 0.45) for f in fills]
    tokens = [c for c, _ in TOKENS.values()] + [OTHER_TOKEN[0]]
    decks = list(glyphs.DECK_COLOURS.values())
    solids = [SEA, SEA_SHALLOW, SEA_OUTER, SEA_OUTER_SHALLOW, SEA_TEXT, COAST, OUTSIDE, PARCHMENT, INK,
              LABEL_RIM, REGION_LINE, LINK, CROSSING, WHITE, BLACK, BAR, BAR_TEXT, BAR_DIM, PANEL, PANEL_RIM,
              TURN_RING, HIGHLIGHT, *fills, *lines, *tokens, *decks, glyphs.GOLD, glyphs.STEEL, glyphs.WOOD,
              glyphs.TERRACOTTA, glyphs.STRAW, glyphs.PAPYRUS, glyphs.FLAME, glyphs.FLAME_CORE, glyphs.MARBLE,
              glyphs.SEA_INK, glyphs.RED_ROOF, glyphs.DARK_WOOD]
    grounds = [*fills, OUTSIDE, SEA, SEA_SHALLOW, SEA_OUTER, PANEL, BAR]
    ramps: list[tuple[RGB, RGB]] = [(SEA, SEA_SHALLOW), (SEA_OUTER, SEA_OUTER_SHALLOW), (INK, LABEL_RIM),
                                    (BAR_TEXT, BAR), (BAR_DIM, BAR), (SEA_TEXT, SEA), (COAST, SEA_SHALLOW),
                                    (WHITE, BLACK), (PANEL_RIM, PANEL)]
    ramps += [(g, edge) for g in grounds for edge in (LABEL_RIM, REGION_LINE, BLACK, COAST, HIGHLIGHT)]
    ramps += [(f, c) for f in tokens for c in (WHITE, BLACK)]
    ramps += [(f, h) for f in fills for h in (mix(f, WHITE, 0.5),)]
    return build_palette(solids, ramps, steps=3)


# --- labels: where each province's name, icon and tokens go --------------------------------------------

@dataclass(frozen=True)
class Label:
    pid: str
    point: tuple[int, int]  # the province point: the icon badge's centre
    name_lines: tuple[str, ...]
    name_box: Box  # the box of the name lines (and the small city/shrine line under them)
    extra: tuple[tuple[str, str], ...]  # ("city" | "shrine", name)
    token_at: tuple[int, int]  # where a lone hero token is centred


def _name_lines(name: str) -> list[str]:
    face = font("bold", NAME_SIZE)
    if face.getlength(name) <= 130 or " " not in name:
        return [name]
    longest = max(face.getlength(word) for word in name.split())
    return wrap(name, face, max(130.0, longest, face.getlength(name) / 2 + 12))


def _extras(p: Province) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if p.city:
        out.append(("city", p.city))
    if p.shrine:
        out.append(("shrine", p.shrine))
    return out


def _block_size(lines: Sequence[str], extras: Sequence[tuple[str, str]]) -> tuple[int, int]:
    face, small = font("bold", NAME_SIZE), font("bold", SMALL_SIZE)
    w = max(face.getlength(t) for t in lines) + 6
    h = len(lines) * (NAME_SIZE + 3) + 4
    if extras:
        ew = sum(SYMBOL + 3 + small.getlength(n) + 8 for _, n in extras) - 8
        w = max(w, ew + 6)
        h += SYMBOL + 2
    return math.ceil(w), math.ceil(h)


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return float(w * h) if w > 0 and h > 0 else 0.0


def _sea_share(box: Box, land: Image.Image) -> float:
    x0, y0, x1, y1 = (max(0, box[0]), max(0, box[1]), min(land.width, box[2]), min(land.height, box[3]))
    if x1 <= x0 or y1 <= y0:
        return 1.0
    crop = land.crop((x0, y0, x1, y1)).resize((8, 4), Image.Resampling.BOX)
    values = list(crop.tobytes())
    return 1.0 - sum(values) / (255.0 * len(values))


@lru_cache(maxsize=4)
def labels(world_map: MapFile) -> dict[str, Label]:
    """Place each province's name block beside its icon, avoiding the other icons, names and token spots.

    Provinces with the most neighbours close by are placed first; each tries below, right, above and left
    of its icon (and a few diagonal spots), scored by overlap, by how much of the block lies over the sea
    and by leaving the map.
    """
    geo_ = geometry(world_map)
    w, h = world_map.map.width, world_map.map.height
    provs = list(world_map.province)
    half = BADGE // 2 + 1
    fixed: list[Box] = [(p.x - half, p.y - half, p.x + half, p.y + half) for p in provs]
    fixed += [(round(x) - ANCHOR // 2, round(y) - ANCHOR // 2, round(x) + ANCHOR // 2, round(y) + ANCHOR // 2)
              for x, y in geo_.ports.values()]

    def crowd(p: Province) -> float:
        return sum(1.0 / max(20.0, math.dist((p.x, p.y), (q.x, q.y))) for q in provs if q.id != p.id)

    placed: list[Box] = []
    out: dict[str, Label] = {}
    for p in sorted(provs, key=crowd, reverse=True):
        lines = _name_lines(p.name)
        extras = _extras(p)
        bw, bh = _block_size(lines, extras)
        gap = 3
        cands: list[tuple[float, Box, tuple[int, int]]] = []
        t_off = half + TOKEN_D // 2 + 1
        options = [
            (0.0, (p.x - bw // 2, p.y + half + gap), (p.x, p.y - t_off)),  # below; tokens above
            (1.0, (p.x + half + gap, p.y - bh // 2), (p.x - t_off, p.y)),  # right; tokens left
            (1.5, (p.x - bw // 2, p.y - half - gap - bh), (p.x, p.y + t_off)),  # above; tokens below
            (2.0, (p.x - half - gap - bw, p.y - bh // 2), (p.x + t_off, p.y)),  # left; tokens right
            (3.0, (p.x + half - 4, p.y + half - 6), (p.x - t_off + 6, p.y - t_off + 6)),  # below right
            (3.0, (p.x - half + 4 - bw, p.y + half - 6), (p.x + t_off - 6, p.y - t_off + 6)),  # below left
            (3.5, (p.x + half - 4, p.y - half + 6 - bh), (p.x - t_off + 6, p.y + t_off - 6)),  # above right
            (3.5, (p.x - half + 4 - bw, p.y - half + 6 - bh), (p.x + t_off - 6, p.y + t_off - 6)),  # above left
        ]
        own = (p.x - half, p.y - half, p.x + half, p.y + half)
        for pref, (x0, y0), tok in options:
            box = (x0, y0, x0 + bw, y0 + bh)
            tbox = (tok[0] - TOKEN_D // 2, tok[1] - TOKEN_D // 2, tok[0] + TOKEN_D // 2, tok[1] + TOKEN_D // 2)
            score = pref * 40
            score += sum(_overlap(box, f) for f in fixed if f != own) * 4
            score += sum(_overlap(box, b) for b in placed) * 6
            score += sum(_overlap(tbox, b) for b in placed) * 5
            score += sum(_overlap(tbox, f) for f in fixed if f != own) * 8
            score += _sea_share(box, geo_.land) * bw * bh * 0.15
            off = max(0, -box[0]) + max(0, box[2] - w) + max(0, -box[1]) + max(0, box[3] - h)
            score += off * 200
            cands.append((score, box, tok))
        _, box, tok = min(cands, key=lambda c: c[0])
        placed.append(box)
        tx, ty = tok
        placed.append((tx - TOKEN_D // 2 + 4, ty - TOKEN_D // 2 + 4, tx + TOKEN_D // 2 - 4, ty + TOKEN_D // 2 - 4))
        out[p.id] = Label(p.id, (p.x, p.y), tuple(lines), box, tuple(extras), tok)
    return out


# --- the static layer --------------------------------------------------------------------------------

def _draw_cells(img: Image.Image, cells: Sequence[Cell], region_of: Mapping[str, str],
                fills: Mapping[str, RGB]) -> None:
    """Fill the cells in their region's colour; thin borders between provinces, heavy ones between
    regions and along the Empire's frontier."""
    draw = ImageDraw.Draw(img)
    for cell in cells:
        draw.polygon(cell.points, fill=fills[region_of[cell.pid]])
    for cell in cells:
        n = len(cell.points)
        line = mix(fills[region_of[cell.pid]], REGION_LINE, 0.45)
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
          fill: RGB | tuple[int, int, int, int], width: int,
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
    od = ImageDraw.Draw(overlay)
    for link in world_map.link:
        if link.a not in pos or link.b not in pos or link.crossing:
            continue
        _dash(od, pos[link.a], pos[link.b], (*LINK, 130), 2, 3, 5)
    img.paste(overlay, (0, 0), overlay)
    draw = ImageDraw.Draw(img)
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
    draw = ImageDraw.Draw(img)
    for name, lonlat, scale in _SEA_NAMES:
        x, y = project(g.fit, lonlat)
        face = font("serif", round(24 * scale))
        spaced = " ".join(name)
        draw.text((x, y), spaced, font=face, fill=SEA_TEXT, anchor="mm")


_SEA_NAMES: tuple[tuple[str, tuple[float, float], float], ...] = (
    ("MARE INTERNUM", (20.5, 34.2), 1.0),
    ("PONTUS EUXINUS", (34.5, 43.2), 0.62),
    ("OCEANUS", (-6.5, 46.5), 0.75),
)


@lru_cache(maxsize=4)
def _label_layer(world_map: MapFile) -> Image.Image:
    """Ports, icons, names, cities and shrines on a transparent layer (pasted again over a highlight)."""
    g = geometry(world_map)
    img = Image.new("RGBA", (g.width, g.height), (0, 0, 0, 0))
    _draw_labels(img, world_map, g)
    return img


def _draw_labels(img: Image.Image, world_map: MapFile, g: Geometry) -> None:
    draw = ImageDraw.Draw(img)
    provs = {p.id: p for p in world_map.province}
    face, small = font("bold", NAME_SIZE), font("bold", SMALL_SIZE)
    for pid, (x, y) in g.ports.items():
        if pid not in provs:
            continue
        p = provs[pid]
        if math.dist((x, y), (p.x, p.y)) > 34:
            _dash(draw, (p.x, p.y), (x, y), SEA_TEXT, 2, 4, 4)
        img.alpha_composite(glyphs.anchor(ANCHOR), (round(x) - ANCHOR // 2, round(y) - ANCHOR // 2))
    for lab in labels(world_map).values():
        p = provs[lab.pid]
        img.alpha_composite(glyphs.badge(p.icon, deck_of(p.icon), BADGE), (p.x - BADGE // 2, p.y - BADGE // 2))
        x0, y0, x1, _ = lab.name_box
        cx = (x0 + x1) / 2
        y = y0 + 2
        for line in lab.name_lines:
            draw.text((cx, y), line, font=face, fill=INK, anchor="ma", stroke_width=3, stroke_fill=LABEL_RIM)
            y += NAME_SIZE + 3
        if lab.extra:
            total = sum(SYMBOL + 3 + small.getlength(n) + 8 for _, n in lab.extra) - 8
            ex = cx - total / 2
            ey = y + 1
            for kind, name in lab.extra:
                spr = glyphs.city(SYMBOL) if kind == "city" else glyphs.shrine(SYMBOL)
                img.alpha_composite(spr, (round(ex), round(ey)))
                ex += SYMBOL + 3
                ink = (150, 20, 20) if kind == "city" else (92, 56, 0)
                draw.text((ex, ey + SYMBOL / 2 + 1), name, font=small, fill=ink, anchor="lm", stroke_width=3,
                          stroke_fill=LABEL_RIM)
                ex += small.getlength(name) + 8


# --- the key -----------------------------------------------------------------------------------------

def _key_box(world_map: MapFile) -> Box:
    w, h = 520, 250
    return 10, world_map.map.height - h - 10, 10 + w, world_map.map.height - 10


def _panel(draw: ImageDraw.ImageDraw, box: Box, rim: RGB = PANEL_RIM) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle((x0 + 3, y0 + 4, x1 + 3, y1 + 4), radius=10, fill=(40, 40, 40))
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=INK, width=2)
    draw.rounded_rectangle((x0 + 5, y0 + 5, x1 - 5, y1 - 5), radius=7, outline=rim, width=2)


def _draw_key(img: Image.Image, world_map: MapFile) -> None:
    draw = ImageDraw.Draw(img)
    box = _key_box(world_map)
    x0, y0, x1, _ = box
    _panel(draw, box, rim=(120, 90, 40))
    head = font("bold", 15)
    small = font("sans", 14)
    y = y0 + 14
    draw.text((x0 + 16, y), "Story decks by province icon", font=head, fill=INK)
    y += 24
    for deck in content.DECKS:
        icons = [i for i in content.ICONS if content.DECK_OF_ICON[i] == deck]
        colour = glyphs.DECK_COLOURS[deck]
        draw.rounded_rectangle((x0 + 16, y + 2, x0 + 86, y + 24), radius=5, fill=colour)
        draw.text((x0 + 51, y + 13), deck, font=head, fill=WHITE, anchor="mm")
        x = x0 + 96
        for name in icons:
            spr = glyphs.badge(name, deck, 26)
            img.paste(spr, (x, y), spr)
            label = glyphs.ICON_NAMES[name]
            draw.text((x + 29, y + 13), label, font=small, fill=INK, anchor="lm")
            x += 29 + int(small.getlength(label)) + 12
        y += 30
    y += 4
    draw.line((x0 + 16, y, x1 - 16, y), fill=mix(INK, PANEL, 0.6), width=1)
    y += 8
    x = x0 + 16
    for kind, label in (("city", "city (market)"), ("shrine", "secret shrine"), ("anchor", "port"),
                        ("crossing", "narrow crossing")):
        if kind == "city":
            spr = glyphs.city(22)
        elif kind == "shrine":
            spr = glyphs.shrine(22)
        elif kind == "anchor":
            spr = glyphs.anchor(22)
        else:
            spr = Image.new("RGBA", (34, 22), (0, 0, 0, 0))
            sd = ImageDraw.Draw(spr)
            _dash(sd, (4.0, 11.0), (30.0, 11.0), CROSSING, 4, 8, 5)
            sd.line((3, 4, 3, 18), fill=CROSSING, width=3)
            sd.line((31, 4, 31, 18), fill=CROSSING, width=3)
        img.paste(spr, (x, y), spr)
        x += spr.width + 5
        draw.text((x, y + 11), label, font=small, fill=INK, anchor="lm")
        x += int(small.getlength(label)) + 18
    y += 30
    x = x0 + 16
    face = font("cond", 14)
    col_w = (x1 - x0 - 32) // 2
    for i, r in enumerate(world_map.region):
        cx = x + (i % 2) * col_w
        cy = y + (i // 2) * 22
        draw.rectangle((cx, cy + 2, cx + 18, cy + 18), fill=_region_fill(r.colour), outline=REGION_LINE, width=2)
        draw.text((cx + 24, cy + 10), ellipsize(r.name, face, col_w - 30), font=face, fill=INK, anchor="lm")


@lru_cache(maxsize=4)
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


@lru_cache(maxsize=4)
def _base(world_map: MapFile) -> Image.Image:
    """The static picture mapped onto the palette (a snapshot copies it and pastes what changed)."""
    return _base_rgb(world_map).quantize(palette=_palette(world_map), dither=Image.Dither.NONE)


def warm() -> None:
    """Draw and cache the static map and its sprites (call once at start-up, off the event loop)."""
    _base(world())
    for colour in TOKENS:
        for ring in (False, True):
            _token_sprite(colour, colour[0].upper(), ring)


# --- sprites for a snapshot --------------------------------------------------------------------------

def _circle(diameter: int, fill: RGB, rims: Sequence[tuple[RGB, float]]) -> Image.Image:
    s = 4
    img, draw = supersampled((diameter, diameter), s)
    inset = 0.0
    r = diameter * s
    for colour, width in rims:
        draw.ellipse((inset, inset, r - inset - 1, r - inset - 1), fill=colour)
        inset += width * s
    draw.ellipse((inset, inset, r - inset - 1, r - inset - 1), fill=fill)
    return shrink(img, (diameter, diameter))


@lru_cache(maxsize=64)
def _token_sprite(colour: str, letter: str, to_act: bool) -> Image.Image:
    """A hero's token: coloured disc, white and black rims, the letter; a gold ring on the hero to act."""
    fill, ink = token_colours(colour)
    extra = 6 if to_act else 2
    size = TOKEN_D + 2 * extra
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    if to_act:
        img.alpha_composite(_circle(size, TURN_RING, [(BLACK, 2), (TURN_RING, 3.5), (BLACK, 1.5)]))
    img.alpha_composite(_circle(TOKEN_D, fill, [(BLACK, 1.5), (WHITE, 2.5), (BLACK, 1)]), (extra, extra))
    draw = ImageDraw.Draw(img)
    draw.text((size / 2, size / 2 + 1), letter[:1].upper(), font=font("bold", 19), fill=ink, anchor="mm")
    return img


@lru_cache(maxsize=128)
def _highlight_sprite(world_map: MapFile, pid: str) -> tuple[Image.Image, tuple[int, int]] | None:
    """A reachable province: its land washed light, with a bright rim inside its border."""
    g = geometry(world_map)
    region_of = {p.id: p.region for p in world_map.province}
    if pid not in region_of:
        return None
    mask = Image.new("L", (g.width, g.height), 0)
    draw = ImageDraw.Draw(mask)
    for cells, layer_mask in g.layers:
        for cell in cells:
            if cell.pid != pid:
                continue
            one = Image.new("L", (g.width, g.height), 0)
            ImageDraw.Draw(one).polygon(cell.points, fill=255)
            if layer_mask is not None:
                one = ImageChops.multiply(one, layer_mask)
                mask = ImageChops.subtract(mask, layer_mask)
            mask = ImageChops.lighter(mask, one)
    del draw
    mask = ImageChops.multiply(mask, g.land.point(lambda v: 255 if v >= 128 else 0))
    bbox = mask.getbbox()
    if bbox is None:
        return None
    x0, y0, x1, y1 = bbox[0] - 2, bbox[1] - 2, bbox[2] + 2, bbox[3] + 2
    m = mask.crop((x0, y0, x1, y1))
    inner = m.filter(ImageFilter.MinFilter(9))
    rim = ImageChops.subtract(m, inner)
    edge = ImageChops.subtract(m, m.filter(ImageFilter.MinFilter(3)))
    sprite = Image.new("RGBA", m.size, (*HIGHLIGHT, 0))
    alpha = ImageChops.lighter(inner.point(lambda v: v * 110 // 255), rim)
    sprite.putalpha(alpha)
    dark = Image.new("RGBA", m.size, (*BLACK, 255))
    sprite.paste(dark, (0, 0), edge)
    sprite.paste(dark, (0, 0), ImageChops.subtract(inner, inner.filter(ImageFilter.MinFilter(3))))
    return sprite, (x0, y0)


# --- a snapshot --------------------------------------------------------------------------------------

def _arrow_path(draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], colour: RGB, dashed: bool) -> Box:
    """The last move: a rimmed line through the provinces it passed, with an arrowhead at the end."""
    pts = list(points)
    # stop short of the final province so the arrowhead does not hide its token
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    length = math.dist((ax, ay), (bx, by))
    if length < 1:
        return (0, 0, 0, 0)
    ux, uy = (bx - ax) / length, (by - ay) / length
    stop = min(20.0, length / 3)
    tip = (bx - ux * stop, by - uy * stop)
    head = 20.0
    base = (tip[0] - ux * head, tip[1] - uy * head)
    start_cut = min(18.0, math.dist(pts[0], pts[1]) / 3)
    s0 = pts[0]
    s1 = pts[1]
    l0 = math.dist(s0, s1)
    pts[0] = (s0[0] + (s1[0] - s0[0]) / l0 * start_cut, s0[1] + (s1[1] - s0[1]) / l0 * start_cut) if l0 else s0
    line = [*pts[:-1], base]
    for width, fill in ((11, BLACK), (6, colour)):
        if dashed:
            for a, b in itertools.pairwise(line):
                _dash(draw, a, b, fill, width, 14, 8)
        else:
            draw.line(line, fill=fill, width=width, joint="curve")
    wing = (-uy * head * 0.62, ux * head * 0.62)
    draw.polygon([tip, (base[0] + wing[0], base[1] + wing[1]), (base[0] - wing[0], base[1] - wing[1])],
                 fill=colour, outline=BLACK, width=2)
    xs = [p[0] for p in line] + [tip[0]]
    ys = [p[1] for p in line] + [tip[1]]
    return (math.floor(min(xs)) - 16, math.floor(min(ys)) - 16, math.ceil(max(xs)) + 16, math.ceil(max(ys)) + 16)


def _event_panel(img: Image.Image, view: View, top: int) -> Box | None:
    event_id = view.get("event")
    round_no = view.get("round")
    if not event_id and round_no is None:
        return None
    draw = ImageDraw.Draw(img)
    w = 480
    x1 = img.width - 10
    x0 = x1 - w
    y0 = top + 10
    card = event_card(str(event_id)) if event_id else None
    title = card.name if card else "No event"
    effect = event_effect_line(card.effect) if card else "The round has no event card yet."
    head = font("bold", 15)
    name_face = font("serif", 25)
    eff_face, eff_lines = fit_text(effect, "bold", w - 36, 46, largest=18, smallest=14, spacing=1.15)
    h = 14 + 20 + 32 + len(eff_lines) * round(eff_face.size * 1.15 * 1.17) + 14
    box = (x0, y0, x1, y0 + h)
    _panel(draw, box)
    label = f"Round {round_no} · event" if round_no is not None else "Event"
    draw.text((x0 + 18, y0 + 14), label.upper(), font=head, fill=PANEL_RIM)
    draw.text((x0 + 18, y0 + 34), ellipsize(title, name_face, w - 36), font=name_face, fill=INK)
    draw_lines(draw, eff_lines, (x0 + 18, y0 + 68, x1 - 18, y0 + h), eff_face, INK, spacing=1.15)
    return (x0, y0, x1 + 4, y0 + h + 5)


def _draw_caption(img: Image.Image, caption: str) -> Box:
    draw = ImageDraw.Draw(img)
    top = img.height - CAPTION_H
    box = (14, top + 3, img.width - 14, img.height - 3)
    if caption:
        face, lines = fit_text(caption, "bold", box[2] - box[0], box[3] - box[1], largest=25, smallest=15,
                               spacing=1.0)
        draw_lines(draw, lines, box, face, BAR_TEXT, valign="middle", spacing=1.0)
    return (0, top, img.width, img.height)


def _draw_title(img: Image.Image, title: str) -> Box:
    draw = ImageDraw.Draw(img)
    face = font("serif", 26)
    draw.text((14, TITLE_H // 2), ellipsize(title, face, img.width - 28), font=face, fill=BAR_TEXT, anchor="lm")
    return (0, 0, img.width, TITLE_H)


def _token_spots(lab: Label, n: int) -> list[tuple[int, int]]:
    """Where ``n`` tokens sharing a province go: a row centred on the token spot, overlapping a little."""
    if n <= 1:
        return [lab.token_at]
    step = TOKEN_D - 8
    tx, ty = lab.token_at
    px, py = lab.point
    if abs(ty - py) >= abs(tx - px):  # the spot is above or below the icon: spread sideways
        first = tx - step * (n - 1) / 2
        return [(round(first + i * step), ty) for i in range(n)]
    first = ty - step * (n - 1) / 2
    return [(tx, round(first + i * step)) for i in range(n)]


def _grow(box: Box, by: int, limit: tuple[int, int]) -> Box:
    return (max(0, box[0] - by), max(0, box[1] - by), min(limit[0], box[2] + by), min(limit[1], box[3] + by))


def compose_map(view: View, *, title: str = "") -> tuple[Image.Image, list[Box]]:
    """The snapshot in RGB, and the rectangles that differ from the static layer."""
    world_map = world()
    img = _base_rgb(world_map).copy()
    dirty: list[Box] = []
    draw = ImageDraw.Draw(img)
    provs = {p.id: p for p in world_map.province}
    labs = labels(world_map)

    def at(pid: str) -> tuple[float, float]:
        p = provs[pid]
        return float(p.x), float(p.y + TITLE_H)

    for pid in dict.fromkeys(str(h) for h in view.get("highlight") or ()):
        found = _highlight_sprite(world_map, pid) if pid in provs else None
        if found is None:
            continue
        sprite, (x, y) = found
        img.paste(sprite, (x, y + TITLE_H), sprite)
        dirty.append((x, y + TITLE_H, x + sprite.width, y + TITLE_H + sprite.height))
        # names and icons stay crisp on top of the wash
        names = _label_layer(world_map).crop((x, y, x + sprite.width, y + sprite.height))
        img.paste(names, (x, y + TITLE_H), names)

    heroes = list(view.get("heroes") or ())
    last = view.get("last_move")
    if isinstance(last, Mapping):
        path = [str(p) for p in last.get("path") or () if str(p) in provs]
        if len(path) >= 2:
            mover: Mapping[str, Any] = next((h for h in heroes if h.get("seat") == last.get("seat")), {})
            colour = token_colours(str(mover.get("colour", "")))[0]
            dirty.append(_arrow_path(draw, [at(p) for p in path], colour, last.get("by") == "voyage"))

    by_place: dict[str, list[Mapping[str, Any]]] = {}
    for h in heroes:
        if str(h.get("province")) in provs:
            by_place.setdefault(str(h.get("province")), []).append(h)
    for pid, group in by_place.items():
        lab = labs[pid]
        spots = _token_spots(lab, len(group))
        ordered = sorted(zip(group, spots, strict=True), key=lambda gs: bool(gs[0].get("to_act")))
        for h, (x, y) in ordered:  # the hero to act is drawn last, on top
            name = str(h.get("colour", ""))
            letter = str(h.get("letter") or name[:1] or "?")
            spr = _token_sprite(name, letter, bool(h.get("to_act")))
            x0, y0 = x - spr.width // 2, y + TITLE_H - spr.height // 2
            img.paste(spr, (x0, y0), spr)
            dirty.append((x0, y0, x0 + spr.width, y0 + spr.height))

    panel = _event_panel(img, view, TITLE_H)
    if panel:
        dirty.append(panel)
    dirty.append(_draw_title(img, title or "Champion of the Empire"))
    dirty.append(_draw_caption(img, str(view.get("caption") or "")))
    return img, [_grow(b, 2, img.size) for b in dirty]


def render_map(view: View, *, title: str = "") -> bytes:
    """PNG of the map for a view: hero tokens, reachable provinces, the last move, the event, a caption."""
    world_map = world()
    rgb, dirty = compose_map(view, title=title)
    pal = _palette(world_map)
    out = _base(world_map).copy()
    for box in dirty:
        if box[2] > box[0] and box[3] > box[1]:
            out.paste(rgb.crop(box).quantize(palette=pal, dither=Image.Dither.NONE), box[:2])
    return png_bytes(out, compress_level=1)


# --- alt text ----------------------------------------------------------------------------------------

def _province_words(pid: str, provs: Mapping[str, Province]) -> str:
    p = provs.get(pid)
    if p is None:
        return pid
    extra = f" ({p.city})" if p.city else ""
    return p.name + extra


def map_alt_text(view: View) -> str:
    """Who is where, whose turn it is and where they can go, the last move and the round's event."""
    provs = {p.id: p for p in world().province}
    heroes = list(view.get("heroes") or ())
    parts: list[str] = []
    head = "Map of the Roman world"
    if view.get("round") is not None:
        head += f", round {view['round']}"
    event_id = view.get("event")
    if event_id:
        card = event_card(str(event_id))
        head += f". Event: {card.name} ({event_effect_line(card.effect).rstrip('.')})"
    parts.append(head)
    where = []
    for h in heroes:
        if not h.get("hero") or not h.get("province"):
            where.append(f"{h.get('player', 'Someone')} ({h.get('colour', '?')}) is still choosing a hero")
            continue
        who = f"{h.get('player', 'Someone')} ({h.get('colour', '?')}, {hero_name(str(h.get('hero', '')))})"
        where.append(f"{who} in {_province_words(str(h.get('province', '')), provs)}")
    if where:
        parts.append("; ".join(where))
    actor = next((h for h in heroes if h.get("to_act")), None)
    reach = [provs[p].name for p in (str(x) for x in view.get("highlight") or ()) if p in provs]
    if actor is not None:
        text = f"{actor.get('player', 'Someone')} to act"
        if reach:
            text += f", can reach {', '.join(reach)}"
        parts.append(text)
    elif reach:
        parts.append(f"Reachable: {', '.join(reach)}")
    last = view.get("last_move")
    if isinstance(last, Mapping) and last.get("path"):
        mover = next((h for h in heroes if h.get("seat") == last.get("seat")), None)
        who = str(mover.get("player", "Someone")) if mover else "Someone"
        path = [provs[p].name if p in provs else str(p) for p in (str(x) for x in last["path"])]
        how = {"explore": "explored", "caravan": "escorted a caravan", "voyage": "sailed"}.get(
            str(last.get("by")), "moved")
        parts.append(f"Last move: {who} {how} from {path[0]} to {path[-1]}")
    return cap_alt(". ".join(parts) + ".")


# --- sample view and benchmark -----------------------------------------------------------------------

def sample_view() -> dict[str, Any]:
    """A busy mid-game view: four heroes (two sharing a province), a highlight, a voyage, an event."""
    provs = [p.id for p in world().province]

    def pick(*wanted: str) -> str:
        return next((w for w in wanted if w in provs), provs[0])

    rome, camp, etr = pick("latium"), pick("campania"), pick("etruria")
    egypt, athens = pick("aegyptus"), pick("attica")
    try:
        event = content.events()[2].id
    except (FileNotFoundError, IndexError):
        event = None
    heroes = [
        {"seat": 0, "player": "Ann", "hero": "labienus", "colour": "red", "letter": "R", "province": camp,
         "life": 4, "max_life": 5, "combat": 7, "max_combat": 7, "initiative": 3, "xp": 2, "gold": 5, "info": 1,
         "items": ["pilum", "gladius"], "fate": 0, "to_act": True},
        {"seat": 1, "player": "Bálint", "hero": "jahmesz", "colour": "blue", "letter": "B", "province": egypt,
         "life": 5, "max_life": 5, "combat": 6, "max_combat": 6, "initiative": 4, "xp": 0, "gold": 3, "info": 0,
         "items": [], "fate": 0, "to_act": False},
        {"seat": 2, "player": "Cy", "hero": "hero-3", "colour": "green", "letter": "G", "province": athens,
         "life": 2, "max_life": 6, "combat": 5, "max_combat": 6, "initiative": 3, "xp": 5, "gold": 1, "info": 3,
         "items": [], "fate": 1, "to_act": False},
        {"seat": 3, "player": "Dóra", "hero": "hero-4", "colour": "orange", "letter": "O", "province": athens,
         "life": 5, "max_life": 5, "combat": 6, "max_combat": 6, "initiative": 2, "xp": 1, "gold": 4, "info": 2,
         "items": [], "fate": 0, "to_act": False},
    ]
    near = [link.b if link.a == camp else link.a for link in world().link if camp in (link.a, link.b)]
    return {"round": 3, "phase": "action", "event": event, "heroes": heroes, "highlight": near,
            "last_move": {"seat": 0, "path": [etr, rome, camp], "by": "explore"},
            "caption": "Ann (Labienus) to act · round 3 · explore, escort a caravan, sail, rest or learn lore",
            "variants": {"fate": False, "short": False, "heroic": False}}


def bench_map(n: int = 30) -> dict[str, float]:
    """Median milliseconds of ``render_map`` (warm caches), of the same picture's default PNG encoding,
    and the PNG's size."""
    view = sample_view()
    render_map(view, title="Champion of the Empire · benchmark")
    times: list[float] = []
    data = b""
    for _ in range(n):
        t = time.perf_counter()
        data = render_map(view, title="Champion of the Empire · benchmark")
        times.append((time.perf_counter() - t) * 1000)
    rgb, _ = compose_map(view, title="Champion of the Empire · benchmark")
    plain: list[float] = []
    buf = io.BytesIO()
    for _ in range(max(3, n // 5)):
        buf = io.BytesIO()
        t = time.perf_counter()
        rgb.save(buf, format="PNG")
        plain.append((time.perf_counter() - t) * 1000)
    return {"render_p50_ms": statistics.median(times), "default_encode_p50_ms": statistics.median(plain),
            "png_bytes": float(len(data)), "default_png_bytes": float(len(buf.getvalue()))}


if __name__ == "__main__":
    for key, value in bench_map().items():
        print(f"{key}: {value:.2f}")
