"""The map of the twelve cities, drawn from the typed view only.

A static layer (parchment, fame areas, coloured roads with a letter on each so that colour is never the only
cue, city names) is drawn once and cached; each picture pastes the chips, buildings, fame chips, pawns and
paths on a copy and adds the strip below: year, start player, ranking order, titans, the next chips, the dummy
and the players' public scores."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import cache

from PIL import Image

from render.common import RGB, Canvas, build_palette, canvas, font, mix, png_bytes, text_length, to_palette
from rules.eiyu.content import ACT, WAIT, library
from rules.eiyu.view import EiyuView

W, MAP_H, STRIP_H = 1000, 1000, 230
H = MAP_H + STRIP_H
R_CITY = 46
PAPER: RGB = (240, 230, 205)
INK: RGB = (40, 32, 24)
AREA_INK: RGB = (120, 96, 64)
ROAD: dict[str, RGB] = {"red": (206, 40, 40), "yellow": (226, 182, 20), "blue": (30, 70, 200),
                        "lightblue": (70, 180, 230), "purple": (140, 60, 170)}
ROAD_LETTER = {"red": "R", "yellow": "Y", "blue": "B", "lightblue": "L", "purple": "P"}
SEAT: tuple[RGB, ...] = ((40, 150, 60), (235, 120, 20), (130, 80, 50), (220, 90, 170), (70, 70, 70))
SOLDIER: dict[int, RGB] = {1: (240, 140, 40), 2: (245, 210, 40), 3: (20, 20, 20), 4: (255, 255, 255)}
FIELD: RGB = (200, 190, 165)
DUMMY: RGB = (150, 150, 150)
_PALETTE = build_palette([PAPER, INK, AREA_INK, FIELD, DUMMY, (255, 255, 255), (0, 0, 0), *ROAD.values(), *SEAT,
                          *SOLDIER.values()],
                         [(PAPER, INK), (PAPER, AREA_INK), *((PAPER, c) for c in ROAD.values()),
                          *((PAPER, c) for c in SEAT), ((0, 0, 0), (255, 255, 255))])


def seat_letter(view: EiyuView, seat: int) -> str:
    """The player's initial on their pawn, or their seat number when two players share an initial."""
    initials = [(p.name.strip()[:1] or "?").upper() for p in view.players]
    return initials[seat] if initials.count(initials[seat]) == 1 else str(seat + 1)


def _xy(city: int) -> tuple[float, float]:
    c = library().city(city)
    return float(c.x), float(c.y)


def _dotted(d: Canvas, a: tuple[float, float], b: tuple[float, float], fill: RGB, width: int, dash: float = 18,
            gap: float = 9) -> None:
    draw = d
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        e = min(t + dash, length)
        draw.line([(a[0] + ux * t, a[1] + uy * t), (a[0] + ux * e, a[1] + uy * e)], fill=fill, width=width)
        t = e + gap


@cache
def _base() -> Image.Image:
    lib = library()
    img = Image.new("RGB", (W, H), PAPER)
    d = canvas(img)
    small, label = font("bold", 19), font("bold", 24)
    for a in lib.areas:
        fill = mix(PAPER, AREA_INK, 0.25 if a.hidden else 0.12)
        if a.hidden:
            d.rounded_rectangle([a.x - 125, a.y - 50, a.x + 125, a.y + 50], radius=26, fill=fill)
        else:
            d.rounded_rectangle([a.x - 76, a.y - 40, a.x + 76, a.y + 40], radius=14, fill=fill)
        top = a.y - (30 if a.hidden else 26)
        d.text((a.x, top), a.name, font=small, fill=AREA_INK, anchor="mm")
        d.text((a.x, top + 22), f"{a.first} / {a.second}", font=small, fill=AREA_INK, anchor="mm")
    for r in lib.roads:
        _dotted(d, _xy(r.a), _xy(r.b), ROAD[r.colour], 9)
    for r in lib.roads:
        pa, pb = _xy(r.a), _xy(r.b)
        length = math.dist(pa, pb)
        along = max(R_CITY + 24, 0.3 * length) / length  # near one end, clear of the areas' labels
        mx, my = pa[0] + (pb[0] - pa[0]) * along, pa[1] + (pb[1] - pa[1]) * along
        d.ellipse([mx - 15, my - 15, mx + 15, my + 15], fill=ROAD[r.colour], outline=INK, width=2)
        d.text((mx, my), ROAD_LETTER[r.colour], font=font("bold", 17),
               fill=(0, 0, 0) if r.colour in ("yellow", "lightblue") else (255, 255, 255), anchor="mm")
    for c in lib.cities:
        d.text((c.x, c.y + R_CITY + 14), c.name, font=label, fill=INK, anchor="mm", stroke_width=3,
               stroke_fill=PAPER)
    d.line([(0, MAP_H), (W, MAP_H)], fill=INK, width=3)
    return img


def _city(d: Canvas, view: EiyuView, city_id: int) -> None:
    lib = library()
    dr = d
    x, y = _xy(city_id)
    cv = view.cities[city_id - 1]
    if cv.kind == "recruit" and cv.chip >= 0:
        body, ink = (25, 25, 25), (255, 255, 255)
    elif cv.kind == "monster" and cv.chip >= 0:
        body, ink = (255, 255, 255), INK
    else:
        body, ink = FIELD, INK
    dr.ellipse([x - R_CITY, y - R_CITY, x + R_CITY, y + R_CITY], fill=body, outline=INK, width=4)
    dr.text((x, y - (8 if cv.chip >= 0 else 0)), str(city_id), font=font("bold", 34), fill=ink, anchor="mm")
    if cv.kind == "recruit" and cv.chip >= 0:
        # the soldiers still on the chip, from 8 o'clock clockwise, weakest first
        for i, soldier in enumerate(cv.left):
            ang = math.radians(210 - i * 40)  # 8 o'clock, then clockwise
            sx, sy = x + (R_CITY + 2) * math.cos(ang), y - (R_CITY + 2) * math.sin(ang)
            dr.ellipse([sx - 13, sy - 13, sx + 13, sy + 13], fill=SOLDIER[soldier], outline=INK, width=2)
            dr.text((sx, sy), str(soldier), font=font("bold", 16),
                    fill=(255, 255, 255) if soldier == 3 else (0, 0, 0), anchor="mm")
        dr.text((x, y + 20), "recruit", font=font("bold", 13), fill=ink, anchor="mm")
    elif cv.kind == "monster" and cv.chip >= 0:
        chip = lib.chip(cv.chip)
        need = "·".join(str(t) for t in chip.needs)
        dr.text((x, y + 18), need, font=font("bold", 18), fill=(170, 20, 20), anchor="mm")
        tag = f"{chip.monster} · B{chip.building} G{chip.gold} F{chip.fame}"
        face = font("bold", 18)
        tw = text_length(tag, face)
        x = min(max(x, tw / 2 + 10), W - tw / 2 - 10)  # a tag near the edge stays on the picture
        dr.rounded_rectangle([x - tw / 2 - 6, y - R_CITY - 32, x + tw / 2 + 6, y - R_CITY - 6], radius=6,
                             fill=(255, 255, 255), outline=(170, 20, 20), width=2)
        dr.text((x, y - R_CITY - 19), tag, font=face, fill=(120, 10, 10), anchor="mm")
    if cv.owner >= 0:
        # a tower at the city's lower left (buildings stand in monster cities, whose left side is free), as tall
        # as its levels, in the owner's colour, with the owner's letter and the levels
        bx, by = x - R_CITY - 34, y + R_CITY - 4
        top = by - 14 * cv.levels - 14
        dr.rectangle([bx, top, bx + 30, by], fill=SEAT[cv.owner % 5], outline=INK, width=3)
        for k in range(1, cv.levels):
            dr.line([(bx, by - 14 * k), (bx + 30, by - 14 * k)], fill=INK, width=1)
        dr.text((bx + 15, top + 12), f"{seat_letter(view, cv.owner)}{cv.levels}", font=font("bold", 15),
                fill=(255, 255, 255), anchor="mm", stroke_width=2, stroke_fill=INK)


def _path(d: Canvas, cities: Sequence[int], colour: RGB, offset: float, width: int = 7) -> None:
    points = [c for i, c in enumerate(cities) if i == 0 or c != cities[i - 1]]
    if len(points) < 2:
        return
    dr = d
    for a, b in itertools.pairwise(points):
        (ax, ay), (bx, by) = _xy(a), _xy(b)
        length = math.dist((ax, ay), (bx, by)) or 1
        nx, ny = -(by - ay) / length * offset, (bx - ax) / length * offset
        sx, sy = ax + (bx - ax) / length * R_CITY + nx, ay + (by - ay) / length * R_CITY + ny
        ex, ey = bx - (bx - ax) / length * (R_CITY + 8) + nx, by - (by - ay) / length * (R_CITY + 8) + ny
        dr.line([(sx, sy), (ex, ey)], fill=colour, width=width)
        ang = math.atan2(ey - sy, ex - sx)
        head = [(ex + math.cos(ang) * 14, ey + math.sin(ang) * 14),
                (ex + math.cos(ang + 2.5) * 16, ey + math.sin(ang + 2.5) * 16),
                (ex + math.cos(ang - 2.5) * 16, ey + math.sin(ang - 2.5) * 16)]
        dr.polygon(head, fill=colour, outline=INK)


def _pawns(d: Canvas, view: EiyuView) -> None:
    dr = d
    by_city: dict[int, list[int]] = {}
    for i, p in enumerate(view.players):
        if p.city:
            by_city.setdefault(p.city, []).append(i)
    for city, seats in by_city.items():
        x, y = _xy(city)
        for k, seat in enumerate(seats):
            px, py = x + R_CITY + 16, y - 30 + k * 30
            dr.ellipse([px - 15, py - 15, px + 15, py + 15], fill=SEAT[seat % 5], outline=INK, width=3)
            dr.text((px, py), seat_letter(view, seat), font=font("bold", 18), fill=(255, 255, 255), anchor="mm",
                    stroke_width=2, stroke_fill=INK)


def _fame(d: Canvas, view: EiyuView) -> None:
    lib = library()
    dr = d
    for a in lib.areas:
        chips = view.centre if a.hidden else view.fame.get(a.id)
        if a.hidden and chips is None:
            dr.text((a.x, a.y + 26), "? hidden until the end", font=font("bold", 19), fill=AREA_INK, anchor="mm")
            continue
        marks = [(i, c) for i, c in enumerate(chips or ()) if c > 0]
        x = a.x - 15.0 * len(marks) + 15
        y = a.y + (26 if a.hidden else 24)
        for i, count in marks:
            dr.rounded_rectangle([x - 13, y - 11, x + 13, y + 11], radius=4, fill=SEAT[i % 5], outline=INK, width=2)
            dr.text((x, y), str(count), font=font("bold", 16), fill=(255, 255, 255), anchor="mm",
                    stroke_width=2, stroke_fill=INK)
            x += 30


def _strip(d: Canvas, view: EiyuView) -> None:
    lib = library()
    dr = d
    top = MAP_H + 14
    big, mid = font("bold", 24), font("bold", 20)
    head = f"Year {view.year}/{view.years}" + (" (short game)" if view.short else "")
    if view.phase != "city":
        head += f" · start player {view.players[view.start].name}"
    dr.text((20, top), head, font=big, fill=INK)
    order = " → ".join(view.ranking)
    dr.text((W - 20, top), f"Ranking: {order}", font=big, fill=INK, anchor="ra")
    titans = []
    for i, t in enumerate(lib.titans):
        state = view.titans[i]
        wake = t.wakes_short if view.short else t.wakes
        mark = {"asleep": f"wakes in year {wake}", "awake": "AWAKE", "slain": "slain"}[state]
        titans.append(f"{t.name.split()[0].split('-')[0]} ({t.cost} soldiers) {mark}")
    line = "Titans: " + " · ".join(titans)
    face = font("bold", 18)
    while text_length(line, face) > W - 40 and face.size > 12:
        face = font("bold", int(face.size) - 1)
    dr.text((20, top + 36), line, font=face, fill=INK)
    nr = lib.chip(view.next_recruit) if view.next_recruit >= 0 else None
    nm = lib.chip(view.next_monster) if view.next_monster >= 0 else None
    nxt = "Next chips: recruit " + ("".join(str(s) for s in nr.soldiers) if nr else "none")
    nxt += " · monster " + (f"{nm.monster} ({'·'.join(str(s) for s in nm.needs)})" if nm else "none")
    shows = lib.year_track.shows_short if view.short else lib.year_track.shows
    nxt += " · shows after years " + ", ".join(map(str, shows))
    dr.text((20, top + 62), nxt, font=font("bold", 18), fill=INK)
    y = top + 96
    x: float = 20
    for i, p in enumerate(view.players):
        out = i in view.out
        text = f"{p.name}: F{p.fame} G{p.gold} B{p.building} · {p.soldiers} soldiers"
        if view.winner == i:
            text = "★ " + text
        colour = SEAT[i % 5]
        w = text_length(text, mid) + 44
        if x + w > W - 10:
            x, y = 20.0, y + 34
        dr.ellipse([x, y, x + 26, y + 26], fill=colour, outline=INK, width=2)
        dr.text((x + 13, y + 13), seat_letter(view, i), font=font("bold", 15), fill=(255, 255, 255), anchor="mm")
        dr.text((x + 34, y + 2), text, font=mid, fill=mix(INK, PAPER, 0.55) if out else INK)
        if out:
            dr.line([(x + 34, y + 14), (x + w - 10, y + 14)], fill=INK, width=2)
        x += w + 12
    if view.dummy is not None:
        n = len(view.players)
        text = f"Dummy ({lib.dummy.name}): F{view.dummy[0]} G{view.dummy[1]} B{view.dummy[2]}"
        if view.winner == n:
            text = "★ " + text
        w = text_length(text, mid) + 44
        if x + w > W - 10:
            x, y = 20.0, y + 34
        dr.ellipse([x, y, x + 26, y + 26], fill=DUMMY, outline=INK, width=2)
        dr.text((x + 34, y + 2), text, font=mid, fill=INK)
    if view.out:
        names = [view.players[s].name if s < len(view.players) else "Dummy" for s in view.out]
        dr.text((20, H - 34), "Knocked out in the rankings: " + " → ".join(names), font=font("bold", 18),
                fill=INK)


def render_map(view: EiyuView, *, paths: Sequence[Sequence[int]] | None = None, title: str = "") -> bytes:
    """The map as everyone may see it, with the paths taken this year (``paths``: one per seat)."""
    img = _base().copy()
    d = canvas(img)
    for i, path in enumerate(paths or ()):
        _path(d, path, SEAT[i % 5], offset=(i - (len(paths or ()) - 1) / 2) * 7)
    for c in library().cities:
        _city(d, view, c.id)
    _fame(d, view)
    _pawns(d, view)
    _strip(d, view)
    if title:
        d.text((W - 16, 14), title, font=font("bold", 18), fill=AREA_INK, anchor="ra")
    return png_bytes(to_palette(img, _PALETTE))


def render_panel(view: EiyuView, seat: int, row: Sequence[str], cities: Sequence[int],
                 effects: Sequence[str] = ()) -> bytes:
    """A player's private panel: the map with their programmed row drawn as the path it takes (as if nobody
    else moved), and the six orders in a row of dials below."""
    img = _base().copy()
    d = canvas(img)
    for c in library().cities:
        _city(d, view, c.id)
    _fame(d, view)
    start = view.players[seat].city
    _path(d, [start, *cities], SEAT[seat % 5], offset=0, width=9)
    _pawns(d, view)
    d.rectangle([0, MAP_H + 2, W, H], fill=PAPER)
    d.text((20, MAP_H + 14), f"{view.players[seat].name}'s orders for year {view.year} (only you see this)",
           font=font("bold", 24), fill=INK)
    dial_w = (W - 40) / max(1, len(row))
    here = start
    for k, order in enumerate(row):
        x0 = 20 + k * dial_w
        box = [x0 + 6, MAP_H + 56, x0 + dial_w - 6, H - 20]
        fill = ROAD.get(order, (60, 160, 80) if order == ACT else (200, 200, 200))
        d.rounded_rectangle(box, radius=14, fill=fill, outline=INK, width=3)
        mark = {ACT: "■", WAIT: "×"}.get(order, ROAD_LETTER.get(order, "?"))
        dark = order in ("yellow", "lightblue", WAIT)
        ink = (0, 0, 0) if dark else (255, 255, 255)
        cx = (box[0] + box[2]) / 2
        d.text((cx, MAP_H + 82), f"{k + 1}", font=font("bold", 20), fill=ink, anchor="mm")
        d.text((cx, MAP_H + 122), mark, font=font("bold", 40), fill=ink, anchor="mm")
        to = cities[k] if k < len(cities) else here
        note = effects[k] if k < len(effects) and effects[k] else (f"→ {to}" if to != here else f"at {to}")
        d.text((cx, MAP_H + 170), note, font=font("bold", 22), fill=ink, anchor="mm")
        here = to
    return png_bytes(to_palette(img, _PALETTE))


def map_alt_text(view: EiyuView, paths: Sequence[Sequence[int]] | None = None) -> str:
    lib = library()
    parts = [f"Map of the twelve cities, year {view.year} of {view.years}."]
    for i, p in enumerate(view.players):
        trail = " → ".join(map(str, paths[i])) if paths and i < len(paths) and len(paths[i]) > 1 else ""
        where = f"in city {p.city}" if p.city else "not placed yet"
        parts.append(f"{p.name} {where}" + (f" (path {trail})" if trail else "") + ".")
    monsters = [f"{lib.chip(c.chip).monster} in {c.id}" for c in view.cities if c.kind == "monster" and c.chip >= 0]
    parts.append("Monsters: " + (", ".join(monsters) or "none") + ".")
    built = [f"{view.players[c.owner].name} {c.levels} in {c.id}" for c in view.cities if c.owner >= 0]
    if built:
        parts.append("Buildings: " + ", ".join(built) + ".")
    parts.append("Ranking order: " + ", ".join(view.ranking) + ".")
    return " ".join(parts)


def panel_alt_text(view: EiyuView, seat: int, row: Sequence[str], cities: Sequence[int]) -> str:
    steps = ", ".join(f"{k + 1} {o}" for k, o in enumerate(row))
    return (f"Your programmed orders for year {view.year}: {steps}; starting in city {view.players[seat].city}, "
            f"the row leads through {' → '.join(map(str, cities))}.")


def warm() -> int:
    _base()
    return 1
