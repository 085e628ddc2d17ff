"""Autokrator's map: regions coloured by their holder (a letter too, for colour-blind players), printed coats of
arms as shields, Garrison pieces as octagons, ports with red or yellow anchors, every unit's pawn, and a side
panel with the epoch, each realm's points, gold, Garrisons and its units' lives and modifiers.

The static layer (sea, land, region cells, borders, names, anchors) is drawn once and cached; a snapshot tints the
regions by holder and pastes the pieces on a copy."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.autokrator.world import HEIGHT, WIDTH, geometry, sites
from render.cache import data, kept, layer, recent
from render.common import (
    RGB,
    build_palette,
    canvas,
    ellipsize,
    fit_label,
    font,
    label,
    mark,
    mix,
    outlined,
    png_bytes,
    text_length,
    to_palette,
)
from render.mapkit import Placement, place_labels, token_spots
from render.mapkit.labels import overlap
from rules.autokrator.content import Region, library
from rules.autokrator.i18n import N_p, _, _p, comma, epochs, place, realm_name, sentences, unit_word
from rules.autokrator.telling import who, why_won
from rules.autokrator.view import AutokratorView
from rules.i18n import language

PANEL_H = 220
TITLE_H = 48
CAPTION_H = 44
SEA: RGB = (70, 120, 170)
OUTSIDE: RGB = (214, 204, 178)
NEUTRAL: RGB = (238, 230, 204)
NEVER: RGB = (150, 146, 140)
INK: RGB = (30, 22, 14)
WHITE: RGB = (255, 255, 255)
PANEL: RGB = (248, 241, 222)
BAR: RGB = (44, 30, 22)
ANCHORS: dict[str, RGB] = {"red": (210, 30, 30), "yellow": (250, 200, 20)}
# TRANSLATORS: a unit's mark on its pawn: one or two letters, never one of the realms' shield letters
LETTERS = {"king": N_p("letter", "K"), "general": N_p("letter", "G"), "admiral": N_p("letter", "A")}
NAME_SIZE = 19
NAME_SMALLEST = 16
#: A pawn's spot as the names are placed round it; a pawn is drawn a little larger, to be 12 px on a phone.
PAWN = 30
PAWN_DRAWN = 34


def colour(realm: str) -> RGB:
    info = library().realms.get(realm)
    return tuple(info.colour) if info else NEUTRAL  # type: ignore[return-value]


def tint(realm: str) -> RGB:
    if realm == "x":
        return NEVER
    if realm == "":
        return NEUTRAL
    return mix(colour(realm), WHITE, 0.45)


def letter(unit: str) -> str:
    """The letter on a unit's pawn (K, G, A in English)."""
    return _p("letter", LETTERS[unit])


def realm_letter(realm: str) -> str:
    """The letter on a realm's shields and Garrison pieces."""
    return _p("realm-letter", library().realms[realm].letter)


def _placements() -> dict[str, Placement]:
    return _placed(language())


@lru_cache(maxsize=2)
@data  # kept on disk between runs (placing the labels takes a second)
def _placed(lang: str) -> dict[str, Placement]:
    """Where each region's name sits in one language (names differ in length, so the places do too)."""
    g = geometry()
    blocks = {}
    for r in library().regions.values():
        face = _name_face(r.id)
        blocks[r.id] = (int(text_length(place(r.id), face)) + 6, NAME_SIZE + 4)
    placed = place_labels(sites(), blocks, g.land, (WIDTH, HEIGHT), badge=18, token=PAWN)
    return _untangled(placed)


Box = tuple[int, int, int, int]
GAP = 7


def _inked(box: Box) -> Box:
    """The part of a name block the letters cover (the block has 3 px of air at each end)."""
    return (box[0] + 3, box[1] + 2, box[2] - 3, box[3] - 2)


def _untangled(placed: dict[str, Placement]) -> dict[str, Placement]:
    """The names the label placer left crossing another name, a region's printed shields or a pawn's spot,
    each moved the least it takes (at most ``NAME_SIZE`` + 8 px, inside the map) to stand clear of all of them;
    a name that cannot move clear stays where it was.  A name keeps ``GAP`` px from the next one on its line, so
    that two do not read as one (as Japanese names, written without spaces, would)."""
    lib = library()
    half = PAWN // 2
    fixed: list[Box] = []
    for s in sites():
        coats = lib.regions[s.id].coats if lib.regions[s.id].owner in lib.realms else 1
        wide = 10 * max(1, coats) + 2
        fixed.append((round(s.x) - wide, round(s.y) - 13, round(s.x) + wide, round(s.y) + 13))
    for p in placed.values():
        tx, ty = p.token_at
        fixed.append((tx - half + 4, ty - half + 4, tx + half - 4, ty + half - 4))
    out = dict(placed)
    reach = NAME_SIZE + 8
    moves = sorted(((abs(dx) * 1.5 + abs(dy), dx, dy) for dy in range(-reach, reach + 1, 2)
                    for dx in range(-reach, reach + 1, 2)), key=lambda m: m[0])

    def near(box: Box, boxes: list[Box]) -> list[Box]:
        x0, y0, x1, y1 = box
        room = reach + GAP
        return [b for b in boxes if b[0] < x1 + room and b[2] > x0 - room and b[1] < y1 + room and b[3] > y0 - room]

    def clear(box: Box, names: list[Box], things: list[Box]) -> bool:
        ink = _inked(box)
        apart = (ink[0] - GAP, ink[1], ink[2] + GAP, ink[3])  # two names in a row must not read as one
        return not any(overlap(apart, n) for n in names) and not any(overlap(ink, f) for f in things)

    for rid in sorted(out, key=lambda k: (out[k].box[1], out[k].box[0])):
        p = out[rid]
        names = near(p.box, [_inked(o.box) for k, o in out.items() if k != rid])
        things = near(p.box, fixed)
        if clear(p.box, names, things):
            continue
        x0, y0, x1, y1 = p.box
        for _cost, dx, dy in moves:
            box = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
            if box[0] >= 0 and box[1] >= 0 and box[2] <= WIDTH and box[3] <= HEIGHT and clear(box, names, things):
                out[rid] = Placement(box, p.token_at)
                break
    return out


def _name_face(region: str) -> ImageFont.FreeTypeFont:
    """The face of a region's name: the map's size, a little smaller (down to ``NAME_SMALLEST``) where the name in
    this language is wider than the English one, so that the map keeps the room the English labels were placed
    in (English names are always drawn at ``NAME_SIZE``)."""
    room = text_length(library().regions[region].name, font("bold", NAME_SIZE))
    name = place(region)
    for size in range(NAME_SIZE, NAME_SMALLEST - 1, -1):
        face = font("bold", size)
        if text_length(name, face) <= room:
            return face
    return font("bold", NAME_SMALLEST)


@lru_cache(maxsize=1)
@layer
def _region_index() -> tuple[Image.Image, tuple[str, ...]]:
    """Each pixel's region as a palette index (1…n), 0 for land outside the regions, 255 for the sea: drawn
    once, so that colouring the regions by holder is only a change of palette."""
    g = geometry()
    ids = tuple(library().regions)
    index = {rid: i + 1 for i, rid in enumerate(ids)}
    size = (WIDTH, HEIGHT)
    img = Image.new("L", size, 0)
    for cells, mask in g.layers:
        layer = Image.new("L", size, 0)
        draw = ImageDraw.Draw(layer)
        for cell in cells:
            draw.polygon(cell.points, fill=index[cell.pid])
        img.paste(layer, (0, 0), mask) if mask is not None else img.paste(layer, (0, 0))
    sea = Image.new("L", size, 255)
    sea.paste(img, (0, 0), g.land.point(lambda v: 255 if v >= 128 else 0))
    return sea, ids


def _cells(owner: dict[str, str]) -> Image.Image:
    """The regions filled with their holders' tints, over the land only."""
    index, ids = _region_index()
    palette = [*OUTSIDE]
    for rid in ids:
        palette += tint(owner.get(rid, ""))
    palette += [0, 0, 0] * (255 - len(ids) - 1)
    palette += [*SEA]
    img = index.copy()
    img.putpalette(palette)
    return img.convert("RGB")


def _overlay() -> Image.Image:
    return _drawn_overlay(language())


@kept  # 5 MB decoded, 190 KB kept, decoded for each map (some 12 ms)
def _drawn_overlay(lang: str) -> Image.Image:
    """What never changes, on a transparent layer: anchors and names (in one language)."""
    lib = library()
    g = geometry()
    img = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
    draw = canvas(img, origin=(0, TITLE_H))  # pasted under the title bar
    lines = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
    for cells, mask in g.layers:
        layer = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
        d = ImageDraw.Draw(layer)
        for cell in cells:
            d.line([*cell.points, cell.points[0]], fill=(90, 70, 50, 255), width=1)
        lines.alpha_composite(layer) if mask is None else lines.paste(layer, (0, 0), mask)
    land = Image.new("RGBA", (WIDTH, HEIGHT), (0, 0, 0, 0))
    land.paste(lines, (0, 0), g.land)
    img.alpha_composite(land)
    for rid, (x, y) in g.ports.items():
        anchor = lib.regions[rid].anchor
        _anchor(draw, x, y, ANCHORS[anchor])
    for rid, placed in _placements().items():
        x0, y0, x1, y1 = placed.box
        outlined(draw, ((x0 + x1) / 2, (y0 + y1) / 2), place(rid), _name_face(rid), fill=INK, outline=WHITE,
                 width=3)
    return img


def _anchor(draw: ImageDraw.ImageDraw, x: float, y: float, fill: RGB) -> None:
    r = 11
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=2)
    draw.line((x, y - 6, x, y + 6), fill=INK, width=2)
    draw.line((x - 4, y - 3, x + 4, y - 3), fill=INK, width=2)
    draw.arc((x - 6, y - 2, x + 6, y + 7), 20, 160, fill=INK, width=2)


def _shield(draw: ImageDraw.ImageDraw, x: float, y: float, fill: RGB, letter: str) -> None:
    w, h = 9, 11
    draw.polygon([(x - w, y - h), (x + w, y - h), (x + w, y + 2), (x, y + h + 2), (x - w, y + 2)], fill=fill,
                 outline=INK)
    draw.text((x, y - 1), letter, font=font("bold", 12), fill=WHITE, anchor="mm")


def _octagon(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: RGB) -> None:
    pts = [(x + r * math.cos(math.pi / 8 + k * math.pi / 4), y + r * math.sin(math.pi / 8 + k * math.pi / 4))
           for k in range(8)]
    draw.polygon(pts, fill=fill, outline=INK, width=2)


def _crown(draw: ImageDraw.ImageDraw, x: float, y: float, fill: RGB) -> None:
    draw.polygon([(x - 12, y + 7), (x - 12, y - 6), (x - 6, y), (x, y - 10), (x + 6, y), (x + 12, y - 6),
                  (x + 12, y + 7)], fill=fill, outline=INK, width=2)


def _garrison_spot(rid: str, x: float, y: float, names: list[Box]) -> tuple[float, float]:
    """Where a Garrison piece stands by its region's site: up and to the right, or the nearest other corner
    where it covers no region's name and no pawn (``names``: their boxes)."""
    spots = [(x + 14, y - 12), (x - 14, y - 12), (x + 14, y + 14), (x - 14, y + 14), (x + 26, y), (x - 26, y),
             (x, y - 24), (x, y + 26), (x + 30, y - 20), (x - 30, y - 20), (x + 30, y + 22), (x - 30, y + 22)]
    # only the boxes that reach the spots' square can cover one (the map has some 150; a few are near)
    left, top, right, bottom = round(x) - 44, round(y) - 38, round(x) + 44, round(y) + 40
    near = [n for n in names if n[0] < right and n[2] > left and n[1] < bottom and n[3] > top]

    def covered(spot: tuple[float, float]) -> int:
        box = (round(spot[0]) - 12, round(spot[1]) - 12, round(spot[0]) + 12, round(spot[1]) + 12)
        return sum(max(0, min(box[2], n[2]) - max(box[0], n[0])) * max(0, min(box[3], n[3]) - max(box[1], n[1]))
                   for n in near)

    return min(spots, key=covered)  # the first clear one, or the least covering


def _printed(info: Region, x: float, y: float) -> Box:
    """The box a region's printed arms cover at its site: a capital's crown, its shields, or the dot."""
    if info.capital:
        return (round(x) - 12, round(y) - 10, round(x) + 12, round(y) + 7)
    if info.owner in library().realms:
        wide = 10 * (max(1, info.coats) - 1) + 9
        return (round(x) - wide, round(y) - 11, round(x) + wide, round(y) + 11)
    return (round(x) - 8, round(y) - 8, round(x) + 8, round(y) + 8)


def _pawn_spots(rid: str, point: tuple[float, float], n: int) -> list[tuple[int, int]]:
    """Where a region's ``n`` pawns stand: the label placer's row, moved away from the region's site (a few
    pixels at a time) while a pawn would cover the printed shields there."""
    info = library().regions[rid]
    wide = 10 * max(1, info.coats) + 2 if info.owner in library().realms else 6
    x, y = round(point[0]), round(point[1])
    shields = (x - wide, y - 13, x + wide, y + 13)
    tx, ty = _placements()[rid].token_at
    length = math.dist((tx, ty), (x, y)) or 1.0
    ux, uy = (tx - x) / length, (ty - y) / length
    half = PAWN_DRAWN // 2 - 2
    spots = token_spots((tx, ty), (x, y), n, PAWN_DRAWN + 4)  # side by side, each mark readable
    for push in range(0, 25, 4):
        moved = [(round(sx + ux * push), round(sy + uy * push)) for sx, sy in spots]
        if not any(overlap((sx - half, sy - half, sx + half, sy + half), shields) for sx, sy in moved):
            return moved
    return spots


def _pieces(img: Image.Image, view: AutokratorView) -> None:
    lib = library()
    draw = canvas(img, origin=(0, TITLE_H))  # pasted under the title bar
    points = {s.id: (s.x, s.y) for s in sites()}
    here: dict[str, list[tuple[str, str]]] = {}
    for r in view.realms:
        for u in r.units:
            here.setdefault(u.region, []).append((r.key, u.unit))
    spots = {rid: _pawn_spots(rid, points[rid], len(pawns)) for rid, pawns in here.items()}
    half = PAWN_DRAWN // 2
    # a Garrison piece keeps clear of the names and of the pawns
    taken = [_inked(p.box) for p in _placements().values()] if view.pieces else []
    taken += [(px - half, py - half, px + half, py + half) for row in spots.values() for px, py in row]
    if view.pieces:  # and of every region's printed arms, and of the pieces placed before it
        taken += [_printed(lib.regions[rid], x, y) for rid, (x, y) in points.items()]
    for rid, (x, y) in points.items():
        info = lib.regions[rid]
        printed = info.owner
        if info.capital:
            _crown(draw, x, y, colour(printed))
        elif printed in lib.realms:
            for k in range(info.coats):
                _shield(draw, x - 10 * (info.coats - 1) + 20 * k, y, colour(printed), realm_letter(printed))
        elif printed == "x":
            draw.line((x - 8, y - 8, x + 8, y + 8), fill=INK, width=3)
            draw.line((x - 8, y + 8, x + 8, y - 8), fill=INK, width=3)
        else:
            draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=INK)
        holder = view.pieces.get(rid)
        if holder:
            gx, gy = _garrison_spot(rid, x, y, taken)
            taken.append((round(gx) - 12, round(gy) - 12, round(gx) + 12, round(gy) + 12))
            _octagon(draw, gx, gy, 12, colour(holder))
            mark(draw, "badge", (gx - 12, gy - 12, gx + 12, gy + 12), realm_letter(holder))
            draw.text((gx, gy), realm_letter(holder), font=font("bold", 13), fill=WHITE, anchor="mm")
    face, narrow = font("bold", 17), font("bold", 13)
    for rid, pawns in here.items():
        for (px, py), (realm, unit) in zip(spots[rid], pawns, strict=True):
            rad = PAWN_DRAWN // 2
            shape = (px - rad, py - rad, px + rad, py + rad)
            if unit == "admiral":
                draw.rounded_rectangle(shape, radius=5, fill=colour(realm), outline=WHITE, width=2)
            else:
                draw.ellipse(shape, fill=colour(realm), outline=WHITE, width=2)
            mark(draw, "token", shape, letter(unit))
            mark_face = face if len(letter(unit)) == 1 else narrow  # two letters (Greek Βα, Στ, Να) fit the pawn
            draw.text((px, py), letter(unit), font=mark_face, fill=WHITE, anchor="mm")


def _panel(view: AutokratorView) -> Image.Image:
    """The strip under the map: the epoch, then one box per realm in play (points, gold, regions, Garrisons in
    hand, and each unit's lives and battle modifier)."""
    lib = library()
    img = Image.new("RGB", (WIDTH, PANEL_H), PANEL)
    draw = canvas(img, origin=(0, TITLE_H + HEIGHT))  # pasted under the map
    epoch = lib.epochs[view.epoch - 1]
    if view.winner:
        # the end: who won and why (the tie-break too), where the epoch stood
        head = _("♛ Victory to {realm}: {why}", realm=who(view, view.winner, "gen"), why=why_won(view))
        label(draw, (16, 10), head, "bold", 26, WIDTH - 32, smallest=15, fill=INK)
        mark(draw, "winner", (12, 6, WIDTH - 12, 44), head)
    else:
        label(draw, (16, 8), _("Epoch {n} of 5 · {years} · {title}", **epochs(view.epoch), years=epoch.years,
                               title=_(epoch.title)), "bold", 30, WIDTH - 32, fill=INK)
    box_w = (WIDTH - 16) // max(1, len(view.realms))
    for i, r in enumerate(view.realms):
        x, y = 8 + i * box_w, 50
        c = colour(r.key)
        acting = view.acting == r.key
        won = view.winner == r.key
        draw.rectangle((x, y, x + box_w - 8, PANEL_H - 8), fill=mix(c, WHITE, 0.82),
                       outline=(255, 190, 0) if acting or won else c, width=6 if acting or won else 3)
        if won:
            mark(draw, "winner", (x, y, x + box_w - 8, PANEL_H - 8), realm_name(r.key))
        seat = view.seats.index(r.key) if r.key in view.seats else -1
        player = view.names[seat] if 0 <= seat < len(view.names) else ""
        name = ("♛ " if won else "▶ " if acting else "") + realm_name(r.key)
        label(draw, (x + 12, y + 8), name, "bold", 30, box_w - 30, smallest=20, fill=c)
        draw.text((x + 12, y + 46), ellipsize(player, font("sans", 26), box_w - 30), font=font("sans", 26), fill=INK)
        label(draw, (x + 12, y + 80), f"★{r.score}  ⛁{r.treasury}  ⌂{r.regions}  ♜{r.supply}", "bold", 30,
              box_w - 30, smallest=20, fill=INK)
        alive = {u.unit: u for u in r.units}
        parts = [f"{letter(u)}{alive[u].lives}♥{alive[u].modifier:+d}" if u in alive else f"{letter(u)}✝"
                 for u in ("king", "general", "admiral")]
        label(draw, (x + 12, y + 122), " ".join(parts), "bold", 24, box_w - 30, smallest=16, fill=INK)
    return img


def _palette_of(*_drawn: object) -> Image.Image:
    return _palette()


@recent(4, palette=_palette_of)  # the next picture of a game is usually of the same holdings
def _base(owner: tuple[tuple[str, str], ...], lang: str) -> Image.Image:
    """The regions tinted by holder under the static layer (a palette change, a decode and a paste: some 20 ms),
    kept compressed for the next pictures of the same holdings."""
    body = _cells(dict(owner))
    overlay = _overlay()
    body.paste(overlay, (0, 0), overlay)
    return body


def render_board(view: AutokratorView, *, title: str = "Autokrator", changed: Sequence[str] = ()) -> bytes:
    """The map: regions by holder, pieces and pawns, the realms' panel; ``changed``: the regions this move
    changed (a march's end, a battle, a conquest), ringed in gold and named in a caption under the panel."""
    body = _base(tuple(sorted(view.owner.items())), language())
    _rings(body, changed)
    _pieces(body, view)
    caption_h = CAPTION_H if changed else 0
    out = Image.new("RGB", (WIDTH, TITLE_H + HEIGHT + PANEL_H + caption_h), BAR)
    draw = canvas(out)
    title_face, title = fit_label(title, "bold", 28, WIDTH // 3, clip=True)
    draw.text((16, TITLE_H // 2), title, font=title_face, fill=(250, 240, 214), anchor="lm")
    legend = _("★ points · ⛁ gold · ⌂ regions · ♜ Garrisons in hand · {king} King · {general} General · {admiral} "
               "Admiral (square) · ♥ lives, modifier", king=letter("king"), general=letter("general"),
               admiral=letter("admiral"))
    room = WIDTH - 48 - text_length(title, title_face)
    label(draw, (WIDTH - 16, TITLE_H // 2), legend, "sans", 19, room, smallest=13, fill=(250, 240, 214), anchor="rm")
    out.paste(body, (0, TITLE_H))
    out.paste(_panel(view), (0, TITLE_H + HEIGHT))
    if changed:
        text = _("Changed this move (ringed in gold): {places}", places=comma(place(r) for r in changed))
        label(draw, (16, TITLE_H + HEIGHT + PANEL_H + CAPTION_H // 2), text, "bold", 26, WIDTH - 32, smallest=16,
              fill=(250, 240, 214), anchor="lm")
    return png_bytes(to_palette(out, _palette()), compress_level=1)


def _rings(img: Image.Image, changed: Sequence[str]) -> None:
    """A gold ring round each changed region's site, under the pieces."""
    points = {s.id: (s.x, s.y) for s in sites()}
    draw = canvas(img)
    for rid in changed:
        if rid in points:
            x, y = points[rid]
            draw.ellipse((x - 30, y - 30, x + 30, y + 30), outline=INK, width=9)
            draw.ellipse((x - 29, y - 29, x + 29, y + 29), outline=(255, 190, 0), width=6)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    realms = [colour(k) for k in library().realms]
    solids = [SEA, OUTSIDE, NEUTRAL, NEVER, INK, WHITE, PANEL, BAR, (250, 240, 214), (120, 30, 30), (255, 190, 0),
              *ANCHORS.values(), *realms, *(tint(k) for k in library().realms),
              *(mix(c, WHITE, 0.82) for c in realms)]
    ramps = [(INK, WHITE), (INK, NEUTRAL), (INK, PANEL), (WHITE, SEA), (INK, SEA), (INK, OUTSIDE),
             *((c, WHITE) for c in realms), *((INK, tint(k)) for k in library().realms),
             *((c, mix(c, WHITE, 0.82)) for c in realms), (BAR, (250, 240, 214))]
    return build_palette(solids, ramps, steps=4)


def board_alt_text(view: AutokratorView) -> str:
    parts = [_("Map of the Mediterranean, epoch {n}.", **epochs(view.epoch))]
    for r in view.realms:
        units = comma(_("{unit} in {region}", unit=unit_word(u.unit), region=place(u.region, "in"))
                          for u in r.units) or _("no units")
        parts.append(_("{realm}: {regions} regions, {points} points, {gold} gold; {units}.", realm=realm_name(r.key),
                       regions=r.regions, points=r.score, gold=r.treasury, units=units))
    return sentences(parts)


def warm() -> int:
    geometry()
    _overlay()
    return 1
