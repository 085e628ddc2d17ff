"""The map of the twelve cities, drawn from the typed view only.

A static layer (parchment, fame areas, coloured roads with a letter on each so that colour is never the only
cue, city names) is drawn once and kept as PNG; each picture decodes it afresh, pastes the chips, buildings,
fame chips, pawns and paths on it and adds the strip below: year, start player, ranking order, titans, the
next chips, the dummy and the players' public scores."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageFont

from render import common
from render.cache import kept
from rules.eiyu.content import ACT, WAIT, Area, library
from rules.eiyu.i18n import N_p, _, _n, _p, city_name, comma, place, soldier_name, track
from rules.eiyu.view import EiyuView
from rules.i18n import language

W, MAP_H, KEY_H, STRIP_H = 1000, 1000, 92, 230
H = MAP_H + KEY_H + STRIP_H
#: Where the strip below the key begins.
STRIP_TOP = MAP_H + KEY_H
R_CITY = 46
PAPER: common.RGB = (240, 230, 205)
INK: common.RGB = (40, 32, 24)
AREA_INK: common.RGB = (120, 96, 64)
ROAD: dict[str, common.RGB] = {"red": (206, 40, 40), "yellow": (226, 182, 20), "blue": (30, 70, 200),
                               "lightblue": (70, 180, 230), "purple": (140, 60, 170)}
ROAD_LETTER = {"red": N_p("road letter", "R"), "yellow": N_p("road letter", "Y"), "blue": N_p("road letter", "B"),
               "lightblue": N_p("road letter", "L"), "purple": N_p("road letter", "P")}
#: Each titan's name in the strip, where the whole name does not fit.
TITAN_SHORT = {"daidara": N_p("titan", "Daidarabotchi"), "gashin": N_p("titan", "Gashin"),
               "yamata": N_p("titan", "Yamata")}
SEAT: tuple[common.RGB, ...] = ((40, 150, 60), (235, 120, 20), (130, 80, 50), (220, 90, 170), (70, 70, 70))
SOLDIER: dict[int, common.RGB] = {1: (240, 140, 40), 2: (245, 210, 40), 3: (20, 20, 20), 4: (255, 255, 255)}
FIELD: common.RGB = (200, 190, 165)
DUMMY: common.RGB = (150, 150, 150)
_PALETTE = common.build_palette([PAPER, INK, AREA_INK, FIELD, DUMMY, (255, 255, 255), (0, 0, 0), *ROAD.values(), *SEAT,
                                 *SOLDIER.values()],
                         [(PAPER, INK), (PAPER, AREA_INK), *((PAPER, c) for c in ROAD.values()),
                          *((PAPER, c) for c in SEAT), ((0, 0, 0), (255, 255, 255))])


def _fit(text: str, size: int, room: float, smallest: int = 11) -> ImageFont.FreeTypeFont:
    """The bold face for a label of the map at ``size``, or smaller (down to ``smallest``) until ``text`` fits
    ``room`` pixels: the map's labels shrink and are never cut (``render.common.fit_label``)."""
    return common.fit_label(text, "bold", size, room, smallest=smallest, cut=False)[0]


def _letter(colour: str) -> str:
    return _p("road letter", ROAD_LETTER[colour]) if colour in ROAD_LETTER else "?"


def seat_letter(view: EiyuView, seat: int) -> str:
    """The player's initial on their pawn, or their seat number when two players share an initial."""
    initials = [(p.name.strip()[:1] or "?").upper() for p in view.players]
    return initials[seat] if initials.count(initials[seat]) == 1 else str(seat + 1)


def _xy(city: int) -> tuple[float, float]:
    c = library().city(city)
    return float(c.x), float(c.y)


def _dotted(d: common.Canvas, a: tuple[float, float], b: tuple[float, float], fill: common.RGB, width: int,
            dash: float = 18, gap: float = 9) -> None:
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


Rect = tuple[float, float, float, float]


def _hits(a: Rect, b: Rect) -> float:
    """How much two boxes overlap (their shared area, 0 when apart)."""
    w, h = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _name_face(name: str) -> ImageFont.FreeTypeFont:
    # a city's name may be as wide as the space between its neighbours' labels
    return _fit(name, 24, 190)


def _name_box(city_id: int) -> Rect:
    """Where a city's name is drawn, halo included."""
    x, y = _xy(city_id)
    name = place(library().city(city_id).name)
    half = common.text_length(name, _name_face(name)) / 2 + 4
    return (x - half, y + R_CITY + 13 - 16, x + half, y + R_CITY + 13 + 16)


def _zone(city_id: int) -> Rect:
    """A city's disc with the soldier chips around it and the hero's pins at its right."""
    x, y = _xy(city_id)
    return (x - R_CITY - 16, y - R_CITY - 16, x + R_CITY + 16, y + R_CITY + 8)


def _area_box(a: Area) -> Rect:
    half_w, half_h = (125, 50) if a.hidden else (76, 40)
    return (a.x - half_w, a.y - half_h, a.x + half_w, a.y + half_h)


Word = tuple[str, ImageFont.FreeTypeFont, tuple[float, float]]


def _area_words(a: Area) -> tuple[Word, Word]:
    """An area's name and its values ("3 / 1"): the text, the face and the centre of each."""
    half = 125 if a.hidden else 76
    name = place(a.name)
    value = f"{a.first} / {a.second}"
    top = a.y - (30 if a.hidden else 20)
    return (name, _fit(name, 19, 2 * half - 10), (a.x, top)), (value, common.font("bold", 19), (a.x, top + 22))


def _area_rows(a: Area) -> list[Rect]:
    """What an area shows, as boxes: its name, its values and its row of fame chips."""
    out = []
    for text, face, (x, y) in _area_words(a):
        half = common.text_length(text, face) / 2 + 3
        out.append((x - half, y - 12, x + half, y + 12))
    chips_y = a.y + (26 if a.hidden else 24)
    out.append((a.x - (120 if a.hidden else 46), chips_y - 12, a.x + (120 if a.hidden else 46), chips_y + 12))
    return out


@lru_cache(maxsize=8)
def _placed(lang: str) -> tuple[tuple[tuple[float, float], ...], tuple[Rect, ...]]:
    """Where each road's letter sits (in ``lib.roads`` order) and the boxes nothing drawn later may cover (the
    cities' names, the areas, the road letters): a letter goes where it touches no name, no city and no area, as
    near its road's middle as it can (Japanese names are wide, and a letter beside one reads as part of it)."""
    lib = library()
    names = [_name_box(c.id) for c in lib.cities]
    zones = [_zone(c.id) for c in lib.cities]
    areas = [_area_box(a) for a in lib.areas]
    rows = [box for a in lib.areas for box in _area_rows(a)]
    spots: list[tuple[float, float]] = []
    taken: list[Rect] = []
    for r in lib.roads:
        pa, pb = _xy(r.a), _xy(r.b)
        best: tuple[float, float, float] | None = None
        for k in range(0, 21):
            t = 0.5 + (k + 1) // 2 * 0.02 * (1 if k % 2 else -1)
            mx, my = pa[0] + (pb[0] - pa[0]) * t, pa[1] + (pb[1] - pa[1]) * t
            box = (mx - 19, my - 19, mx + 19, my + 19)
            cost = (sum(_hits(box, n) for n in names) * 4 + sum(_hits(box, z) for z in zones) * 2
                    + sum(_hits(box, a) for a in areas) * 0.25 + sum(_hits(box, w) for w in rows) * 4
                    + sum(_hits(box, o) for o in taken) * 4)
            if best is None or cost < best[0]:
                best = (cost, mx, my)
            if cost == 0:
                break
        assert best is not None
        spots.append((best[1], best[2]))
        taken.append((best[1] - 19, best[2] - 19, best[1] + 19, best[2] + 19))
    return tuple(spots), tuple(names + rows + taken)


def _base() -> Image.Image:
    """The static layer in the current language."""
    return _base_in(language())


@kept(palette=lambda lang: _PALETTE)  # mapped onto the palette, decoded afresh at each call (3.7 MB decoded)
def _base_in(lang: str) -> Image.Image:
    lib = library()
    img = Image.new("RGB", (W, H), PAPER)
    d = common.canvas(img)
    for a in lib.areas:
        fill = common.mix(PAPER, AREA_INK, 0.25 if a.hidden else 0.12)
        d.rounded_rectangle(_area_box(a), radius=26 if a.hidden else 14, fill=fill)
    for r in lib.roads:
        _dotted(d, _xy(r.a), _xy(r.b), ROAD[r.colour], 9)
    for a in lib.areas:
        # the area's words over its roads, haloed in the area's own colour
        fill = common.mix(PAPER, AREA_INK, 0.25 if a.hidden else 0.12)
        (name, face, (nx, ny)), (value, vface, (vx, vy)) = _area_words(a)
        with d.inside(_area_box(a)):
            d.text((nx, ny), name, font=face, fill=AREA_INK, anchor="mm", stroke_width=2, stroke_fill=fill)
            d.text((vx, vy), value, font=vface, fill=AREA_INK, anchor="mm", stroke_width=2, stroke_fill=fill)
    spots, _boxes = _placed(lang)
    for r, (mx, my) in zip(lib.roads, spots, strict=True):
        _road_badge(d, mx, my, r.colour)
    for c in lib.cities:
        name = place(c.name)
        d.text((c.x, c.y + R_CITY + 13), name, font=_name_face(name), fill=INK, anchor="mm", stroke_width=3,
               stroke_fill=PAPER)
    d.line([(0, MAP_H), (W, MAP_H)], fill=INK, width=3)
    _key(d)
    return img


def _road_badge(d: common.Canvas, mx: float, my: float, colour: str, r: float = 15) -> None:
    d.ellipse([mx - r, my - r, mx + r, my + r], fill=ROAD[colour], outline=INK, width=2)
    common.mark(d, "badge", (mx - r, my - r, mx + r, my + r), colour)
    letter = _letter(colour)
    d.text((mx, my), letter, font=_fit(letter, round(r + 2), 2 * r - 4),
           fill=(0, 0, 0) if colour in ("yellow", "lightblue") else (255, 255, 255), anchor="mm")


def _soldier_chip(d: common.Canvas, sx: float, sy: float, soldier: int) -> None:
    d.ellipse([sx - 13, sy - 13, sx + 13, sy + 13], fill=SOLDIER[soldier], outline=INK, width=2)
    common.mark(d, "badge", (sx - 13, sy - 13, sx + 13, sy + 13), str(soldier))
    d.text((sx, sy), str(soldier), font=common.font("bold", 16), fill=(255, 255, 255) if soldier == 3 else (0, 0, 0),
           anchor="mm")


def _tower(d: common.Canvas, bx: float, by: float, levels: int, colour: common.RGB, letter: str) -> None:
    """A building: as tall as its levels, in the owner's colour, with the owner's letter and the levels."""
    top = by - 14 * levels - 14
    d.rectangle([bx, top, bx + 30, by], fill=colour, outline=INK, width=3)
    common.mark(d, "badge", (bx, top, bx + 30, by), letter)
    for k in range(1, levels):
        d.line([(bx, by - 14 * k), (bx + 30, by - 14 * k)], fill=INK, width=1)
    d.text((bx + 15, top + 12), f"{letter}{levels}", font=common.font("bold", 15), fill=(255, 255, 255), anchor="mm",
           stroke_width=2, stroke_fill=INK)


def _city(d: common.Canvas, view: EiyuView, city_id: int) -> None:
    """One city: its disc and number, the soldiers left on its chip, its building."""
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
    dr.text((x, y - (8 if cv.chip >= 0 else 0)), str(city_id), font=common.font("bold", 34), fill=ink, anchor="mm")
    if cv.kind == "recruit" and cv.chip >= 0:
        # the soldiers still on the chip, from 8 o'clock clockwise, weakest first
        for i, soldier in enumerate(cv.left):
            ang = math.radians(210 - i * 40)  # 8 o'clock, then clockwise
            _soldier_chip(dr, x + (R_CITY + 2) * math.cos(ang), y - (R_CITY + 2) * math.sin(ang), soldier)
        word = _p("city kind", "recruit")
        dr.text((x, y + 20), word, font=_fit(word, 13, 2 * R_CITY - 28, smallest=9), fill=ink, anchor="mm")
    elif cv.kind == "monster" and cv.chip >= 0:
        need = "·".join(str(t) for t in library().chip(cv.chip).needs)
        dr.text((x, y + 18), need, font=common.font("bold", 18), fill=(170, 20, 20), anchor="mm")
    if cv.owner >= 0:
        # a tower at the city's lower left (buildings stand in monster cities, whose left side is free)
        _tower(dr, x - R_CITY - 34, y + R_CITY - 4, cv.levels, SEAT[cv.owner % 5], seat_letter(view, cv.owner))


def _tags(d: common.Canvas, view: EiyuView, taken: list[Rect]) -> None:
    """Each monster's name and reward in a tag by its city: above it where that covers nothing already drawn
    (names, areas' labels, road letters, pins, other tags, the title), else beside or below it."""
    lib = library()
    for city_id in range(1, len(view.cities) + 1):
        cv = view.cities[city_id - 1]
        if cv.kind != "monster" or cv.chip < 0:
            continue
        chip = lib.chip(cv.chip)
        x, y = _xy(city_id)
        tag = _("{monster} · B{building} G{gold} F{fame}", monster=_(chip.monster), building=chip.building,
                gold=chip.gold, fame=chip.fame)
        face = _fit(tag, 18, W - 32)
        tw = common.text_length(tag, face) + 12
        spots = [(x + dx, y - R_CITY - 19) for dx in (0, -40, 40, -80, 80, -120, 120)]
        spots += [(x + dx, y + R_CITY + 45) for dx in (0, -60, 60)]
        spots += [(x - R_CITY - tw / 2 - 6, y + dy) for dy in (0, -30, 30)]
        spots += [(x + R_CITY + tw / 2 + 30, y + dy) for dy in (0, -30, 30)]
        boxes: list[tuple[int, Rect]] = []
        for k, (cx, cy) in enumerate(spots):
            cx = min(max(cx, tw / 2 + 6), W - tw / 2 - 6)  # a tag near the edge stays on the picture
            box = (cx - tw / 2, cy - 13, cx + tw / 2, cy + 13)
            if not (box[1] < 4 or box[3] > MAP_H - 4):
                boxes.append((k, box))
        # only what reaches the spots' bounds can be covered by one (most of the map's labels are far away)
        bounds = (min(b[0] for _k, b in boxes), min(b[1] for _k, b in boxes), max(b[2] for _k, b in boxes),
                  max(b[3] for _k, b in boxes))
        near = [o for o in taken if o[0] < bounds[2] and o[2] > bounds[0] and o[1] < bounds[3] and o[3] > bounds[1]]
        best: tuple[float, Rect] | None = None
        for k, box in boxes:
            cost = sum(_hits(box, o) for o in near) + k  # the nearer spots first, when all are clear
            if best is None or cost < best[0]:
                best = (cost, box)
        assert best is not None
        box = best[1]
        taken.append(box)
        d.rounded_rectangle(box, radius=6, fill=(255, 255, 255), outline=(170, 20, 20), width=2)
        with d.inside(box):
            d.text(((box[0] + box[2]) / 2, box[1] + 13), tag, font=face, fill=(120, 10, 10), anchor="mm")


def _path(d: common.Canvas, cities: Sequence[int], colour: common.RGB, offset: float, width: int = 7) -> None:
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


#: A hero's pin: the disc's radius, and where pins stand round a city (degrees, counter-clockwise from 3 o'clock).
PIN_R = 21
PIN_ANGLES = (22, -22, 62, -62, 100)


def _pin(d: common.Canvas, px: float, py: float, towards: tuple[float, float], colour: common.RGB, letter: str) -> Rect:
    """A hero's pin: a big disc in the player's colour, white-rimmed (a road's letter sits on a small plain
    disc), pointing at its city; returns its box."""
    ang = math.atan2(towards[1] - py, towards[0] - px)
    tip = (px + math.cos(ang) * (PIN_R + 12), py + math.sin(ang) * (PIN_R + 12))
    side = [(px + math.cos(ang + s) * (PIN_R - 2), py + math.sin(ang + s) * (PIN_R - 2)) for s in (1.1, -1.1)]
    d.polygon([tip, *side], fill=INK)
    r = PIN_R + 3
    d.ellipse([px - r, py - r, px + r, py + r], fill=INK)
    d.ellipse([px - r + 2, py - r + 2, px + r - 2, py + r - 2], fill=(255, 255, 255))
    d.ellipse([px - PIN_R + 2, py - PIN_R + 2, px + PIN_R - 2, py + PIN_R - 2], fill=colour)
    d.text((px, py), letter, font=_fit(letter, 24, 2 * PIN_R - 8), fill=(255, 255, 255), anchor="mm",
           stroke_width=2, stroke_fill=INK)
    box = (px - r, py - r, px + r, py + r)
    common.mark(d, "token", box, letter)
    return box


def _pawns(d: common.Canvas, view: EiyuView) -> list[Rect]:
    """Every hero's pin beside their city (at its right, where no soldier chip or building stands)."""
    by_city: dict[int, list[int]] = {}
    for i, p in enumerate(view.players):
        if p.city:
            by_city.setdefault(p.city, []).append(i)
    boxes = []
    for city, seats in by_city.items():
        x, y = _xy(city)
        for k, seat in enumerate(seats):
            ang = math.radians(PIN_ANGLES[k % len(PIN_ANGLES)])
            reach = R_CITY + PIN_R + 10
            px, py = x + reach * math.cos(ang), y - reach * math.sin(ang)
            px = min(px, W - PIN_R - 5)
            boxes.append(_pin(d, px, py, (x, y), SEAT[seat % 5], seat_letter(view, seat)))
    return boxes


def _fame(d: common.Canvas, view: EiyuView) -> None:
    lib = library()
    dr = d
    for a in lib.areas:
        chips = view.centre if a.hidden else view.fame.get(a.id)
        if a.hidden and chips is None:
            hidden = _("? hidden until the end")
            with dr.inside(_area_box(a)):
                dr.text((a.x, a.y + 26), hidden, font=_fit(hidden, 19, 206), fill=AREA_INK, anchor="mm")
            continue
        marks = [(i, c) for i, c in enumerate(chips or ()) if c > 0]
        x = a.x - 15.0 * len(marks) + 15
        y = a.y + (26 if a.hidden else 24)
        for i, count in marks:
            dr.rounded_rectangle([x - 13, y - 11, x + 13, y + 11], radius=4, fill=SEAT[i % 5], outline=INK, width=2)
            common.mark(dr, "badge", (x - 13, y - 11, x + 13, y + 11), str(count))
            dr.text((x, y), str(count), font=common.font("bold", 16), fill=(255, 255, 255), anchor="mm",
                    stroke_width=2, stroke_fill=INK)
            x += 30


def _strip(d: common.Canvas, view: EiyuView) -> None:
    lib = library()
    dr = d
    top = STRIP_TOP + 14
    if view.short:
        head = _("Year {year}/{years} (short game)", year=view.year, years=view.years)
    else:
        head = _("Year {year}/{years}", year=view.year, years=view.years)
    if view.phase != "city":
        head = _("{year} · start player {player}", year=head, player=view.players[view.start].name)
    ranking = _("Ranking: {order}", order=" → ".join(track(t) for t in view.ranking))

    def widths(size: int) -> tuple[float, float]:
        face = common.font("bold", size)
        return common.text_length(head, face), common.text_length(ranking, face)

    # the year on the left and the ranking order on the right share the line: both shrink if they would come
    # closer than a wide space
    room = W - 40 - 24
    size = 24
    while size > 14 and sum(widths(size)) > room:
        size -= 1
    head_w, ranking_w = widths(size)
    share = head_w / max(1.0, head_w + ranking_w)
    dr.text((20, top), head, font=_fit(head, size, room * share), fill=INK)
    dr.text((W - 20, top), ranking, font=_fit(ranking, size, room * (1 - share)), fill=INK, anchor="ra")
    titans = []
    for i, t in enumerate(lib.titans):
        state = view.titans[i]
        wake = t.wakes_short if view.short else t.wakes
        if state == "asleep":
            said = _("wakes in year {year}", year=wake)
        elif state == "awake":
            said = _("AWAKE")
        else:
            said = _("slain")
        name = _p("titan", TITAN_SHORT[t.id]) if t.id in TITAN_SHORT else t.name.split()[0].split("-")[0]
        titans.append(_n("{titan} ({n} soldier) {state}", "{titan} ({n} soldiers) {state}", t.cost, titan=name,
                         state=said))
    line = _("Titans: {titans}", titans=" · ".join(titans))
    dr.text((20, top + 36), line, font=_fit(line, 18, W - 40, smallest=12), fill=INK)
    nr = lib.chip(view.next_recruit) if view.next_recruit >= 0 else None
    nm = lib.chip(view.next_monster) if view.next_monster >= 0 else None
    recruit = "".join(str(s) for s in nr.soldiers) if nr else _p("chip", "none")
    monster = _("{monster} ({needs})", monster=_(nm.monster), needs="·".join(str(s) for s in nm.needs)) if nm \
        else _p("chip", "none")
    shows = lib.year_track.shows_short if view.short else lib.year_track.shows
    nxt = _("Next chips: recruit {recruit} · monster {monster} · shows after years {years}", recruit=recruit,
            monster=monster, years=comma(map(str, shows)))
    dr.text((20, top + 62), nxt, font=_fit(nxt, 18, W - 40), fill=INK)
    _scores(dr, view, top)


def _scores(dr: common.Canvas, view: EiyuView, top: float) -> None:
    """Each player's scores (and the dummy's) in rows of chips, the winner's framed, and who was knocked out."""
    lib = library()
    # each player's scores (and the dummy's) in rows of chips, smaller only if they would take more than three
    entries: list[tuple[str, common.RGB, str, bool]] = []
    for i, p in enumerate(view.players):
        text = _n("{player}: F{fame} G{gold} B{building} · {n} soldier",
                  "{player}: F{fame} G{gold} B{building} · {n} soldiers", p.soldiers, player=p.name, fame=p.fame,
                  gold=p.gold, building=p.building)
        entries.append(("★ " + text if view.winner == i else text, SEAT[i % 5], seat_letter(view, i), i in view.out))
    if view.dummy is not None:
        text = _("Dummy ({name}): F{fame} G{gold} B{building}", name=_(lib.dummy.name), fame=view.dummy[0],
                 gold=view.dummy[1], building=view.dummy[2])
        entries.append(("★ " + text if view.winner == len(view.players) else text, DUMMY, "", False))
    size = 20
    while size > 15 and _rows(entries, size) > 3:
        size -= 1
    # three rows and the knocked-out line below them: the rows close up and the line drops to the bottom edge
    compact = bool(view.out) and _rows(entries, size) > 2
    step = 30 if compact else 34
    y = top + 96
    x: float = 20
    for text, colour, letter, out in entries:
        mid = _fit(text, size, W - 10 - 20 - 44)
        w = common.text_length(text, mid) + 44
        if x + w > W - 10:
            x, y = 20.0, y + step
        if text.startswith("★ "):
            # the winner's scores in a gold frame: who won shows on the final map, not only in the story
            dr.rounded_rectangle([x - 5, y - 4, x + w - 4, y + 30], radius=8, outline=(190, 140, 20), width=3)
            common.mark(dr, "winner", (x - 5, y - 4, x + w - 4, y + 30), text)
        dr.ellipse([x, y, x + 26, y + 26], fill=colour, outline=INK, width=2)
        common.mark(dr, "badge", (x, y, x + 26, y + 26), letter)
        if letter:
            dr.text((x + 13, y + 13), letter, font=common.font("bold", 15), fill=(255, 255, 255), anchor="mm")
        dr.text((x + 34, y + 2 + (20 - size) / 2), text, font=mid, fill=common.mix(INK, PAPER, 0.55) if out else INK)
        if out:
            dr.line([(x + 34, y + 14), (x + w - 10, y + 14)], fill=INK, width=2)
        x += w + 12
    if view.out:
        names = [view.players[s].name if s < len(view.players) else _("Dummy") for s in view.out]
        out_line = _("Knocked out in the rankings: {players}", players=" → ".join(names))
        if view.winner is not None and view.winner >= len(view.players):
            out_line = _("{knocked_out} · no hero: the dummy outlasted everyone", knocked_out=out_line)
        elif view.winner is not None:
            out_line = _("{knocked_out} · the hero of the road: {player}", knocked_out=out_line,
                         player=view.players[view.winner].name)
        dr.text((20, H - 25 if compact else H - 34), out_line, font=_fit(out_line, 16 if compact else 18, W - 40),
                fill=INK)


def _rows(entries: Sequence[tuple[str, common.RGB, str, bool]], size: int) -> int:
    """How many rows the strip's score chips take at ``size``."""
    rows, x = 1, 20.0
    for text, *_rest in entries:
        w = min(common.text_length(text, common.font("bold", size)), W - 10 - 20 - 44) + 44
        if x + w > W - 10:
            rows, x = rows + 1, 20.0
        x += w + 12
    return rows


def _map_marks(d: common.Canvas, view: EiyuView, title: str = "") -> None:
    """What changes on the map: cities, fame chips, the heroes' pins, the monsters' tags and the title."""
    lib = library()
    for c in lib.cities:
        _city(d, view, c.id)
    _fame(d, view)
    taken = [*_placed(language())[1], *_pawns(d, view)]
    taken += [_zone(c.id) for c in lib.cities]
    taken += [(c.x - R_CITY - 36, c.y - 40, c.x - R_CITY - 2, c.y + R_CITY) for c in lib.cities
              if view.cities[c.id - 1].owner >= 0]  # the buildings
    if title:
        # the title sits in the top right corner, clear of the coast's label; the tags keep clear of it
        title_face = _fit(title, 18, 300)
        d.text((W - 16, 14), title, font=title_face, fill=AREA_INK, anchor="ra")
        taken.append((W - 20 - common.text_length(title, title_face), 8, W, 36))
    _tags(d, view, taken)


def _key(d: common.Canvas) -> None:
    """The key under the map: what each mark means, drawn beside a small copy of it, so that someone who has
    not read the rules can read the map."""
    box = (8, MAP_H + 8, W - 8, MAP_H + KEY_H - 4)
    d.rounded_rectangle(box, radius=10, fill=common.mix(PAPER, (255, 255, 255), 0.5), outline=AREA_INK, width=2)
    common.mark(d, "key", box)
    lib = library()
    items: list[tuple[str, str]] = [("pin", _("hero"))]
    items += [(f"soldier{k}", soldier_name(k, lib.soldier(k).name)) for k in (1, 2, 3, 4)]
    items += [("tower", _("building and its levels")), ("needs", _("soldiers the monster needs")),
              ("reward", _("reward: B building, G gold, F fame")),
              ("area", _("area: fame for the most / second most fame chips")), ("road", _("road"))]
    size = 17
    while size > 12 and len(_key_rows(items, size)) > 3:
        size -= 1
    rows = _key_rows(items, size)
    step = (box[3] - box[1] - 8) / max(3, len(rows))
    face = common.font("bold", size)
    with d.inside(box):
        for r, row in enumerate(rows):
            cy = box[1] + 4 + step * (r + 0.5)
            x: float = box[0] + 12
            for kind, words in row:
                x = _key_sample(d, kind, x, cy) + 6
                d.text((x, cy), words, font=face, fill=INK, anchor="lm")
                x += common.text_length(words, face) + 18


def _key_width(kind: str) -> float:
    return {"pin": 22, "tower": 22, "needs": 34, "reward": 0, "area": 34, "road": 22}.get(kind, 22)


def _key_rows(items: Sequence[tuple[str, str]], size: int) -> list[list[tuple[str, str]]]:
    face = common.font("bold", size)
    rows: list[list[tuple[str, str]]] = [[]]
    x = 0.0
    for kind, words in items:
        w = _key_width(kind) + 6 + common.text_length(words, face) + 18
        if rows[-1] and x + w > W - 40:
            rows.append([])
            x = 0.0
        rows[-1].append((kind, words))
        x += w
    return rows


def _key_sample(d: common.Canvas, kind: str, x: float, cy: float) -> float:
    """A small copy of a mark of the map at ``x`` (its left edge), centred on ``cy``; returns its right edge."""
    if kind == "pin":
        r = 10
        d.ellipse([x, cy - r - 1, x + 2 * r + 2, cy + r + 1], fill=INK)
        d.ellipse([x + 2, cy - r + 1, x + 2 * r, cy + r - 1], fill=SEAT[0])
        return x + 2 * r + 2
    if kind.startswith("soldier"):
        k = int(kind[-1])
        d.ellipse([x, cy - 11, x + 22, cy + 11], fill=SOLDIER[k], outline=INK, width=2)
        d.text((x + 11, cy), str(k), font=common.font("bold", 14), fill=(255, 255, 255) if k == 3 else (0, 0, 0),
               anchor="mm")
        return x + 22
    if kind == "tower":
        d.rectangle([x + 2, cy - 12, x + 20, cy + 12], fill=SEAT[1], outline=INK, width=2)
        d.line([(x + 2, cy), (x + 20, cy)], fill=INK, width=1)
        return x + 22
    if kind == "needs":
        d.text((x + 17, cy), "2·3", font=common.font("bold", 16), fill=(170, 20, 20), anchor="mm")
        return x + 34
    if kind == "area":
        d.rounded_rectangle([x, cy - 11, x + 34, cy + 11], radius=5, fill=common.mix(PAPER, AREA_INK, 0.12))
        d.text((x + 17, cy), "3/1", font=common.font("bold", 13), fill=AREA_INK, anchor="mm")
        return x + 34
    if kind == "road":
        d.ellipse([x, cy - 11, x + 22, cy + 11], fill=ROAD["red"], outline=INK, width=2)
        return x + 22
    return x - 6


def render_board(view: EiyuView, *, paths: Sequence[Sequence[int]] | None = None, title: str = "") -> bytes:
    """The map as everyone may see it, with the paths taken this year (``paths``: one per seat)."""
    img = _base()
    d = common.canvas(img)
    for i, path in enumerate(paths or ()):
        _path(d, path, SEAT[i % 5], offset=(i - (len(paths or ()) - 1) / 2) * 7)
    _map_marks(d, view, title)
    _strip(d, view)
    return common.png_bytes(common.to_palette(img, _PALETTE))


def render_panel(view: EiyuView, seat: int, row: Sequence[str], cities: Sequence[int],
                 effects: Sequence[str] = ()) -> bytes:
    """A player's private panel: the map with their programmed row drawn as the path it takes (as if nobody
    else moved), and the six orders in a row of dials below."""
    img = _base()
    d = common.canvas(img)
    start = view.players[seat].city
    _path(d, [start, *cities], SEAT[seat % 5], offset=0, width=9)
    _map_marks(d, view)
    d.rectangle([0, STRIP_TOP + 2, W, H], fill=PAPER)
    head = _("{player}'s orders for year {year} (only you see this)", player=view.players[seat].name,
             year=view.year)
    d.text((20, STRIP_TOP + 14), head, font=_fit(head, 24, W - 40), fill=INK)
    dial_w = (W - 40) / max(1, len(row))
    here = start
    for k, order in enumerate(row):
        x0 = 20 + k * dial_w
        box = [x0 + 6, STRIP_TOP + 56, x0 + dial_w - 6, H - 20]
        fill = ROAD.get(order, (60, 160, 80) if order == ACT else (200, 200, 200))
        d.rounded_rectangle(box, radius=14, fill=fill, outline=INK, width=3)
        sign = {ACT: "■", WAIT: "×"}.get(order) or _letter(order)
        dark = order in ("yellow", "lightblue", WAIT)
        ink = (0, 0, 0) if dark else (255, 255, 255)
        cx = (box[0] + box[2]) / 2
        d.text((cx, STRIP_TOP + 82), f"{k + 1}", font=common.font("bold", 20), fill=ink, anchor="mm")
        d.text((cx, STRIP_TOP + 122), sign, font=_fit(sign, 40, dial_w - 20), fill=ink, anchor="mm")
        to = cities[k] if k < len(cities) else here
        note = effects[k] if k < len(effects) and effects[k] else (
            _("→ {city}", city=to) if to != here else _("at {city}", city=to))
        d.text((cx, STRIP_TOP + 170), note, font=_fit(note, 22, dial_w - 20), fill=ink, anchor="mm")
        here = to
    return common.png_bytes(common.to_palette(img, _PALETTE))


def board_alt_text(view: EiyuView, paths: Sequence[Sequence[int]] | None = None) -> str:
    lib = library()
    parts = [_("Map of the twelve cities, year {year} of {years}.", year=view.year, years=view.years)]
    for i, p in enumerate(view.players):
        trail = " → ".join(map(str, paths[i])) if paths and i < len(paths) and len(paths[i]) > 1 else ""
        if not p.city:
            parts.append(_("{player} not placed yet.", player=p.name))
        elif trail:
            parts.append(_("{player} in city {city} (path {path}).", player=p.name, city=city_name(p.city),
                           path=trail))
        else:
            parts.append(_("{player} in city {city}.", player=p.name, city=city_name(p.city)))
    monsters = [_("{monster} in {city}", monster=_(lib.chip(c.chip).monster), city=city_name(c.id)) for c in view.cities
                if c.kind == "monster" and c.chip >= 0]
    parts.append(_("Monsters: {monsters}.", monsters=comma(monsters) or _p("chip", "none")))
    built = [_n("{player}'s {n}-level building in {city}", "{player}'s {n}-level building in {city}", c.levels,
                player=view.players[c.owner].name, city=city_name(c.id)) for c in view.cities if c.owner >= 0]
    if built:
        parts.append(_("Buildings: {buildings}.", buildings=comma(built)))
    parts.append(_("Ranking order: {order}.", order=comma(track(t) for t in view.ranking)))
    # TRANSLATORS: the sentences of a picture's description, one after another
    return _p("sentences", " ").join(parts)


def panel_alt_text(view: EiyuView, seat: int, row: Sequence[str], cities: Sequence[int]) -> str:
    steps = comma(_("{slot} {order}", slot=k + 1, order=alt_order(o)) for k, o in enumerate(row))
    return _("Your programmed orders for year {year}: {orders}; starting in city {city}, the row leads through "
             "{path}.", year=view.year, orders=steps, city=city_name(view.players[seat].city),
             path=" → ".join(map(str, cities)))


#: An order as the panel's description names it (in English, the word one types).
ALT_ORDER = {ACT: N_p("order", "act"), WAIT: N_p("order", "wait"), "red": N_p("order", "red"),
             "yellow": N_p("order", "yellow"), "blue": N_p("order", "blue"), "lightblue": N_p("order", "lightblue"),
             "purple": N_p("order", "purple")}


def alt_order(order: str) -> str:
    return _p("order", ALT_ORDER[order]) if order in ALT_ORDER else order


def warm() -> int:
    _base()
    return 1

