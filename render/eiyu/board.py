"""The map of the twelve cities, drawn from the typed view only.

A static layer (parchment, fame areas, coloured roads with a letter on each so that colour is never the only
cue, city names) is drawn once and kept as PNG; each picture decodes it afresh, pastes the chips, buildings,
fame chips, pawns and paths on it and adds the strip below: year, start player, ranking order, titans, the
next chips, the dummy and the players' public scores."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from PIL import Image, ImageFont

from render.cache import kept
from render.common import RGB, Canvas, build_palette, canvas, fit_label, font, mix, png_bytes, text_length, to_palette
from rules.eiyu.content import ACT, WAIT, library
from rules.eiyu.i18n import N_p, _, _n, _p, city_name, comma, place, track
from rules.eiyu.view import EiyuView
from rules.i18n import language

W, MAP_H, STRIP_H = 1000, 1000, 230
H = MAP_H + STRIP_H
R_CITY = 46
PAPER: RGB = (240, 230, 205)
INK: RGB = (40, 32, 24)
AREA_INK: RGB = (120, 96, 64)
ROAD: dict[str, RGB] = {"red": (206, 40, 40), "yellow": (226, 182, 20), "blue": (30, 70, 200),
                        "lightblue": (70, 180, 230), "purple": (140, 60, 170)}
ROAD_LETTER = {"red": N_p("road letter", "R"), "yellow": N_p("road letter", "Y"), "blue": N_p("road letter", "B"),
               "lightblue": N_p("road letter", "L"), "purple": N_p("road letter", "P")}
#: Each titan's name in the strip, where the whole name does not fit.
TITAN_SHORT = {"daidara": N_p("titan", "Daidarabotchi"), "gashin": N_p("titan", "Gashin"),
               "yamata": N_p("titan", "Yamata")}
SEAT: tuple[RGB, ...] = ((40, 150, 60), (235, 120, 20), (130, 80, 50), (220, 90, 170), (70, 70, 70))
SOLDIER: dict[int, RGB] = {1: (240, 140, 40), 2: (245, 210, 40), 3: (20, 20, 20), 4: (255, 255, 255)}
FIELD: RGB = (200, 190, 165)
DUMMY: RGB = (150, 150, 150)
_PALETTE = build_palette([PAPER, INK, AREA_INK, FIELD, DUMMY, (255, 255, 255), (0, 0, 0), *ROAD.values(), *SEAT,
                          *SOLDIER.values()],
                         [(PAPER, INK), (PAPER, AREA_INK), *((PAPER, c) for c in ROAD.values()),
                          *((PAPER, c) for c in SEAT), ((0, 0, 0), (255, 255, 255))])


def _fit(text: str, size: int, room: float, smallest: int = 11) -> ImageFont.FreeTypeFont:
    """The bold face for a label of the map at ``size``, or smaller (down to ``smallest``) until ``text`` fits
    ``room`` pixels: the map's labels shrink and are never cut (``render.common.fit_label``)."""
    return fit_label(text, "bold", size, room, smallest=smallest, cut=False)[0]


def _letter(colour: str) -> str:
    return _p("road letter", ROAD_LETTER[colour]) if colour in ROAD_LETTER else "?"


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


def _base() -> Image.Image:
    """The static layer in the current language."""
    return _base_in(language())


@kept(palette=lambda lang: _PALETTE)  # mapped onto the palette, decoded afresh at each call (3.7 MB decoded)
def _base_in(lang: str) -> Image.Image:
    lib = library()
    img = Image.new("RGB", (W, H), PAPER)
    d = canvas(img)
    small = font("bold", 19)
    for a in lib.areas:
        fill = mix(PAPER, AREA_INK, 0.25 if a.hidden else 0.12)
        half = 125 if a.hidden else 76
        if a.hidden:
            d.rounded_rectangle([a.x - 125, a.y - 50, a.x + 125, a.y + 50], radius=26, fill=fill)
        else:
            d.rounded_rectangle([a.x - 76, a.y - 40, a.x + 76, a.y + 40], radius=14, fill=fill)
        top = a.y - (30 if a.hidden else 26)
        name = place(a.name)
        # the name may reach the box's rounded edge (the English "Western Wood" does, by 2 pixels each side)
        d.text((a.x, top), name, font=_fit(name, 19, 2 * half + 6), fill=AREA_INK, anchor="mm")
        d.text((a.x, top + 22), f"{a.first} / {a.second}", font=small, fill=AREA_INK, anchor="mm")
    for r in lib.roads:
        _dotted(d, _xy(r.a), _xy(r.b), ROAD[r.colour], 9)
    for r in lib.roads:
        pa, pb = _xy(r.a), _xy(r.b)
        length = math.dist(pa, pb)
        along = max(R_CITY + 24, 0.3 * length) / length  # near one end, clear of the areas' labels
        mx, my = pa[0] + (pb[0] - pa[0]) * along, pa[1] + (pb[1] - pa[1]) * along
        d.ellipse([mx - 15, my - 15, mx + 15, my + 15], fill=ROAD[r.colour], outline=INK, width=2)
        letter = _letter(r.colour)
        d.text((mx, my), letter, font=_fit(letter, 17, 26),
               fill=(0, 0, 0) if r.colour in ("yellow", "lightblue") else (255, 255, 255), anchor="mm")
    for c in lib.cities:
        # a city's name may be as wide as the space between its neighbours' labels
        name = place(c.name)
        d.text((c.x, c.y + R_CITY + 14), name, font=_fit(name, 24, 190), fill=INK, anchor="mm", stroke_width=3,
               stroke_fill=PAPER)
    d.line([(0, MAP_H), (W, MAP_H)], fill=INK, width=3)
    return img


def _city(d: Canvas, view: EiyuView, city_id: int, clear_of: float = W) -> None:
    """One city; a monster's tag stays left of ``clear_of`` when it would reach the title's line (y < 40)."""
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
        word = _p("city kind", "recruit")
        dr.text((x, y + 20), word, font=_fit(word, 13, 2 * R_CITY - 16, smallest=9), fill=ink, anchor="mm")
    elif cv.kind == "monster" and cv.chip >= 0:
        chip = lib.chip(cv.chip)
        need = "·".join(str(t) for t in chip.needs)
        dr.text((x, y + 18), need, font=font("bold", 18), fill=(170, 20, 20), anchor="mm")
        tag = _("{monster} · B{building} G{gold} F{fame}", monster=_(chip.monster), building=chip.building,
                gold=chip.gold, fame=chip.fame)
        face = _fit(tag, 18, W - 32)
        tw = text_length(tag, face)
        x = min(max(x, tw / 2 + 10), W - tw / 2 - 10)  # a tag near the edge stays on the picture
        if y - R_CITY - 32 < 40:  # up by the title: keep to its left
            x = max(tw / 2 + 10, min(x, clear_of - tw / 2 - 14))
        top = y - R_CITY - 32 + _clear_of_names(city_id, x - tw / 2 - 6, x + tw / 2 + 6, y - R_CITY - 32)
        dr.rounded_rectangle([x - tw / 2 - 6, top, x + tw / 2 + 6, top + 26], radius=6,
                             fill=(255, 255, 255), outline=(170, 20, 20), width=2)
        dr.text((x, top + 13), tag, font=face, fill=(120, 10, 10), anchor="mm")
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


def _clear_of_names(city_id: int, left: float, right: float, top: float) -> float:
    """How far down (at most 16 pixels, onto the city's rim) a monster's tag from ``left`` to ``right`` at ``top``
    must move to clear another city's name below it (a long tag by the map's edge reaches its neighbour's)."""
    lib = library()
    down = 0.0
    for c in lib.cities:
        if c.id == city_id:
            continue
        name = place(c.name)
        face = font("bold", 24)
        while text_length(name, face) > 190 and face.size > 11:  # as the static layer fits it
            face = font("bold", int(face.size) - 1)
        half = text_length(name, face) / 2
        bottom = c.y + R_CITY + 14 + 13
        if left < c.x + half and right > c.x - half and 0 < bottom + 2 - top <= 16:
            down = max(down, bottom + 2 - top)
    return down


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
            hidden = _("? hidden until the end")
            dr.text((a.x, a.y + 26), hidden, font=_fit(hidden, 19, 238), fill=AREA_INK, anchor="mm")
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
    if view.short:
        head = _("Year {year}/{years} (short game)", year=view.year, years=view.years)
    else:
        head = _("Year {year}/{years}", year=view.year, years=view.years)
    if view.phase != "city":
        head = _("{year} · start player {player}", year=head, player=view.players[view.start].name)
    ranking = _("Ranking: {order}", order=" → ".join(track(t) for t in view.ranking))
    # the year on the left and the ranking order on the right share the line: both shrink if they would come
    # closer than a wide space
    room = W - 40 - 24
    size = 24
    while size > 14 and text_length(head, font("bold", size)) + text_length(ranking, font("bold", size)) > room:
        size -= 1
    share = text_length(head, font("bold", size)) / max(1.0, text_length(head, font("bold", size))
                                                          + text_length(ranking, font("bold", size)))
    dr.text((20, top), head, font=_fit(head, size, room * share), fill=INK)
    dr.text((W - 20, top), ranking, font=_fit(ranking, size, room * (1 - share)), fill=INK, anchor="ra")
    titans = []
    for i, t in enumerate(lib.titans):
        state = view.titans[i]
        wake = t.wakes_short if view.short else t.wakes
        if state == "asleep":
            mark = _("wakes in year {year}", year=wake)
        elif state == "awake":
            mark = _("AWAKE")
        else:
            mark = _("slain")
        name = _p("titan", TITAN_SHORT[t.id]) if t.id in TITAN_SHORT else t.name.split()[0].split("-")[0]
        titans.append(_n("{titan} ({n} soldier) {state}", "{titan} ({n} soldiers) {state}", t.cost, titan=name,
                         state=mark))
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
    # each player's scores (and the dummy's) in rows of chips, smaller only if they would take more than three
    entries: list[tuple[str, RGB, str, bool]] = []
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
        w = text_length(text, mid) + 44
        if x + w > W - 10:
            x, y = 20.0, y + step
        dr.ellipse([x, y, x + 26, y + 26], fill=colour, outline=INK, width=2)
        if letter:
            dr.text((x + 13, y + 13), letter, font=font("bold", 15), fill=(255, 255, 255), anchor="mm")
        dr.text((x + 34, y + 2 + (20 - size) / 2), text, font=mid, fill=mix(INK, PAPER, 0.55) if out else INK)
        if out:
            dr.line([(x + 34, y + 14), (x + w - 10, y + 14)], fill=INK, width=2)
        x += w + 12
    if view.out:
        names = [view.players[s].name if s < len(view.players) else _("Dummy") for s in view.out]
        out_line = _("Knocked out in the rankings: {players}", players=" → ".join(names))
        dr.text((20, H - 25 if compact else H - 34), out_line, font=_fit(out_line, 16 if compact else 18, W - 40),
                fill=INK)


def _rows(entries: Sequence[tuple[str, RGB, str, bool]], size: int) -> int:
    """How many rows the strip's score chips take at ``size``."""
    rows, x = 1, 20.0
    for text, *_rest in entries:
        w = min(text_length(text, font("bold", size)), W - 10 - 20 - 44) + 44
        if x + w > W - 10:
            rows, x = rows + 1, 20.0
        x += w + 12
    return rows


def render_board(view: EiyuView, *, paths: Sequence[Sequence[int]] | None = None, title: str = "") -> bytes:
    """The map as everyone may see it, with the paths taken this year (``paths``: one per seat)."""
    img = _base()
    d = canvas(img)
    for i, path in enumerate(paths or ()):
        _path(d, path, SEAT[i % 5], offset=(i - (len(paths or ()) - 1) / 2) * 7)
    title_face = _fit(title, 18, 300)
    title_left = W - 16 - text_length(title, title_face) if title else W
    for c in library().cities:
        _city(d, view, c.id, clear_of=title_left)
    _fame(d, view)
    _pawns(d, view)
    _strip(d, view)
    if title:
        # the title sits in the top right corner, clear of the coast's label (and of a monster's tag)
        d.text((W - 16, 14), title, font=title_face, fill=AREA_INK, anchor="ra")
    return png_bytes(to_palette(img, _PALETTE))


def render_panel(view: EiyuView, seat: int, row: Sequence[str], cities: Sequence[int],
                 effects: Sequence[str] = ()) -> bytes:
    """A player's private panel: the map with their programmed row drawn as the path it takes (as if nobody
    else moved), and the six orders in a row of dials below."""
    img = _base()
    d = canvas(img)
    for c in library().cities:
        _city(d, view, c.id)
    _fame(d, view)
    start = view.players[seat].city
    _path(d, [start, *cities], SEAT[seat % 5], offset=0, width=9)
    _pawns(d, view)
    d.rectangle([0, MAP_H + 2, W, H], fill=PAPER)
    head = _("{player}'s orders for year {year} (only you see this)", player=view.players[seat].name,
             year=view.year)
    d.text((20, MAP_H + 14), head, font=_fit(head, 24, W - 40), fill=INK)
    dial_w = (W - 40) / max(1, len(row))
    here = start
    for k, order in enumerate(row):
        x0 = 20 + k * dial_w
        box = [x0 + 6, MAP_H + 56, x0 + dial_w - 6, H - 20]
        fill = ROAD.get(order, (60, 160, 80) if order == ACT else (200, 200, 200))
        d.rounded_rectangle(box, radius=14, fill=fill, outline=INK, width=3)
        mark = {ACT: "■", WAIT: "×"}.get(order) or _letter(order)
        dark = order in ("yellow", "lightblue", WAIT)
        ink = (0, 0, 0) if dark else (255, 255, 255)
        cx = (box[0] + box[2]) / 2
        d.text((cx, MAP_H + 82), f"{k + 1}", font=font("bold", 20), fill=ink, anchor="mm")
        d.text((cx, MAP_H + 122), mark, font=_fit(mark, 40, dial_w - 20), fill=ink, anchor="mm")
        to = cities[k] if k < len(cities) else here
        note = effects[k] if k < len(effects) and effects[k] else (
            _("→ {city}", city=to) if to != here else _("at {city}", city=to))
        d.text((cx, MAP_H + 170), note, font=_fit(note, 22, dial_w - 20), fill=ink, anchor="mm")
        here = to
    return png_bytes(to_palette(img, _PALETTE))


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

