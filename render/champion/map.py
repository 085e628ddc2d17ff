"""Champion of the Empire: the map of the Roman world, drawn from the typed view, and its alt text.

The static map (seas, coasts, provinces coloured by region, borders, land links, narrow crossings, ports,
names, icons, cities, shrines and the key) is drawn once and kept as PNG, in RGB and mapped onto the palette
(``render.cache.kept``: decoded afresh for each snapshot, never held decoded).  A snapshot draws the moving
parts (highlighted provinces, the last move, hero tokens, the event panel, the caption) on the RGB layer, then
maps onto the palette only the rectangles it touched, pasting them into the paletted layer: encoding then
costs little more than the PNG compression itself.

The static layer is ``basemap``; its geometry (coastline fit, province cells, port anchors) and the label
placement come from the shared map kit (``render.mapkit``).  This module draws the moving parts.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render.cache import Compact, compact, layer
from render.champion.basemap import (
    BAR_TEXT,
    BLACK,
    CAPTION_H,
    HIGHLIGHT,
    INK,
    PANEL_RIM,
    TITLE_H,
    TOKEN_D,
    TURN_RING,
    Label,
    _base,
    _base_rgb,
    _dash,
    _key_box,
    _label_layer,
    _palette,
    _panel,
    labels,
    world,
)
from render.champion.texts import event_card, event_effect_line, hero_name
from render.champion.world import geometry
from render.common import (
    RGB,
    TOKENS,
    Box,
    canvas,
    cap_alt,
    capitals,
    draw_lines,
    ellipsize,
    fit_label,
    fit_text,
    font,
    mark,
    png_bytes,
    token,
    token_colours,
)
from render.mapkit import token_spots
from rules.champion.content import MapFile, Province
from rules.champion.i18n import N_, _, _p, comma, semicolon
from rules.champion.view import ChampionView, HeroView

__all__ = ["CAPTION_H", "TITLE_H", "TOKENS", "compose_map", "labels", "map_alt_text", "render_map", "warm", "world"]


def warm() -> None:
    """Draw and cache the static map and its sprites (call once at start-up, off the event loop)."""
    _base(world())
    for colour in TOKENS:
        for ring in (False, True):
            _token_sprite(colour, colour[0].upper(), ring)


# --- sprites for a snapshot --------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _token_sprite(colour: str, letter: str, to_act: bool) -> Image.Image:
    """A hero's token: coloured disc, white and black rims, the letter; a gold ring on the hero to act."""
    ring = (TURN_RING, [(BLACK, 2), (TURN_RING, 3.5), (BLACK, 1.5)]) if to_act else None
    return token(colour, letter, diameter=TOKEN_D, margin=6 if to_act else 2, letter_size=19, ring=ring)


def _highlight_sprite(world_map: MapFile, pid: str) -> tuple[Image.Image, tuple[int, int]] | None:
    """A reachable province's wash and where it goes (a fresh image: the caller may draw on it)."""
    found = _sprite_kept(world_map, pid)
    return None if found is None else (found[0].image(), found[1])


# A board highlights up to some 20 provinces, and a whole game most of the map's 48 in turn: 64 keep every one of
# a language's map (washes 148 KB and names 399 KB compressed, 128 KB each decoded); with 24 a whole game cut
# them again and again (the terminal's seeded two-player game: 16.7 → 13.9 s of CPU).
@lru_cache(maxsize=64)
def _sprite_kept(world_map: MapFile, pid: str) -> tuple[Compact, tuple[int, int]] | None:
    found = _drawn_sprite(world_map, pid)
    return None if found is None else (compact(found[0]), found[1])


@layer  # kept on disk between runs: drawing one needs the map's whole geometry
def _drawn_sprite(world_map: MapFile, pid: str) -> tuple[Image.Image, tuple[int, int]] | None:
    """A reachable province: its land washed light, with a bright rim inside its border."""
    g = geometry(world_map)
    region_of = {p.id: p.region for p in world_map.province}
    if pid not in region_of:
        return None
    mask = Image.new("L", (g.width, g.height), 0)
    draw = canvas(mask)
    for cells, layer_mask in g.layers:
        for cell in cells:
            if cell.pid != pid:
                continue
            one = Image.new("L", (g.width, g.height), 0)
            canvas(one).polygon(cell.points, fill=255)
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


def _highlight_names(world_map: MapFile, pid: str, box: Box) -> Image.Image:
    """The names and icons over a highlighted province (pasted again on top of its wash): cut from the label
    layer drawn once, inflating only the bands under ``box`` (0.8 ms), and kept compressed (0.2 ms to inflate
    again) for the next board of the game, which usually highlights the same provinces."""
    return _names_kept(world_map, pid, box).image()


@lru_cache(maxsize=64)
def _names_kept(world_map: MapFile, pid: str, box: Box) -> Compact:
    return compact(_label_layer.crop(box, world_map))


# --- a snapshot --------------------------------------------------------------------------------------

def _arrow_path(draw: ImageDraw.ImageDraw, points: Sequence[tuple[float, float]], colour: RGB, dashed: bool,
                avoid: Sequence[Box] = ()) -> tuple[Box, Box | None]:
    """The last move: a rimmed line through the provinces it passed, with an arrowhead at the end; the head
    stops short of the final token, and further back while it would cover a name (``avoid``: their boxes).
    Returns the box drawn on, and the head's box when it could not clear a name (the caller lays the names
    over it again)."""
    pts = list(points)
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    length = math.dist((ax, ay), (bx, by))
    if length < 1:
        return (0, 0, 0, 0), None
    ux, uy = (bx - ax) / length, (by - ay) / length
    head = 20.0
    first = stop = min(20.0, length / 3)
    while stop + 4 <= length * 0.6 and any(_hits(_head_box(bx, by, ux, uy, stop, head), box) for box in avoid):
        stop += 4
    if any(_hits(_head_box(bx, by, ux, uy, stop, head), box) for box in avoid):
        stop = first  # no place clear of the names: at the token, and the names are laid over it
    covered = _head_box(bx, by, ux, uy, stop, head)
    blocked = any(_hits(covered, box) for box in avoid)
    if not blocked:
        mark(draw, "arrow", covered)
    tip = (bx - ux * stop, by - uy * stop)
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
    drawn = (math.floor(min(xs)) - 16, math.floor(min(ys)) - 16, math.ceil(max(xs)) + 16, math.ceil(max(ys)) + 16)
    return drawn, (covered if blocked else None)


def _head_box(bx: float, by: float, ux: float, uy: float, stop: float, head: float) -> Box:
    """The box of an arrowhead whose tip stands ``stop`` short of (bx, by), pointing along (ux, uy)."""
    tip = (bx - ux * stop, by - uy * stop)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    wing = (-uy * head * 0.62, ux * head * 0.62)
    xs = (tip[0], base[0] + wing[0], base[0] - wing[0])
    ys = (tip[1], base[1] + wing[1], base[1] - wing[1])
    return (math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)), math.ceil(max(ys)))


def _hits(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _event_panel(img: Image.Image, view: ChampionView, top: int) -> Box | None:
    event_id = view.event
    round_no = view.round
    draw = canvas(img)
    w = 480
    x1 = img.width - 10
    x0 = x1 - w
    y0 = top + 10
    card = event_card(str(event_id)) if event_id else None
    title = card.name if card else _("No event")
    effect = event_effect_line(card.effect) if card else _("The round has no event card yet.")
    head = font("bold", 15)
    name_face = font("serif", 25)
    eff_face, eff_lines = fit_text(effect, "bold", w - 36, 46, largest=18, smallest=14, spacing=1.15)
    h = 14 + 20 + 32 + len(eff_lines) * round(eff_face.size * 1.15 * 1.17) + 14
    box = (x0, y0, x1, y0 + h)
    _panel(draw, box)
    label = _("Round {round} · event", round=round_no)
    head, label = fit_label(capitals(label), "bold", 15, w - 36, smallest=9)
    draw.text((x0 + 18, y0 + 14), label, font=head, fill=PANEL_RIM)
    draw.text((x0 + 18, y0 + 34), ellipsize(title, name_face, w - 36), font=name_face, fill=INK)
    draw_lines(draw, eff_lines, (x0 + 18, y0 + 68, x1 - 18, y0 + h), eff_face, INK, spacing=1.15)
    return (x0, y0, x1 + 4, y0 + h + 5)


def _draw_caption(img: Image.Image, caption: str) -> Box:
    draw = canvas(img)
    top = img.height - CAPTION_H
    box = (14, top + 3, img.width - 14, img.height - 3)
    if caption:
        face, lines = fit_text(caption, "bold", box[2] - box[0], box[3] - box[1], largest=25, smallest=15,
                               spacing=1.0)
        draw_lines(draw, lines, box, face, BAR_TEXT, valign="middle", spacing=1.0)
    return (0, top, img.width, img.height)


def _draw_title(img: Image.Image, title: str) -> Box:
    draw = canvas(img)
    face = font("serif", 26)
    draw.text((14, TITLE_H // 2), ellipsize(title, face, img.width - 28), font=face, fill=BAR_TEXT, anchor="lm")
    return (0, 0, img.width, TITLE_H)


def _token_spots(lab: Label, n: int) -> list[tuple[int, int]]:
    """Where ``n`` tokens sharing a province go: a row centred on the token spot, overlapping a little."""
    return token_spots(lab.token_at, lab.point, n, TOKEN_D)


def _grow(box: Box, by: int, limit: tuple[int, int]) -> Box:
    return (max(0, box[0] - by), max(0, box[1] - by), min(limit[0], box[2] + by), min(limit[1], box[3] + by))


def compose_map(view: ChampionView, *, title: str = "") -> tuple[Image.Image, list[Box]]:
    """The snapshot in RGB, and the rectangles that differ from the static layer."""
    world_map = world()
    img = _base_rgb(world_map)  # decoded afresh: ours to draw on
    dirty: list[Box] = []
    draw = canvas(img)
    provs = {p.id: p for p in world_map.province}
    labs = labels(world_map)

    def at(pid: str) -> tuple[float, float]:
        p = provs[pid]
        return float(p.x), float(p.y + TITLE_H)

    # the key stays as drawn: a reachable province's wash or the last move's arrow never covers it
    key = _key_box(world_map)
    key = (key[0], key[1] + TITLE_H, key[2] + 4, key[3] + TITLE_H + 5)  # its shadow included
    kept_key = img.crop(key)
    for pid in dict.fromkeys(view.highlight):
        found = _highlight_sprite(world_map, pid) if pid in provs else None
        if found is None:
            continue
        sprite, (x, y) = found
        img.paste(sprite, (x, y + TITLE_H), sprite)
        dirty.append((x, y + TITLE_H, x + sprite.width, y + TITLE_H + sprite.height))
        # names and icons stay crisp on top of the wash
        names = _highlight_names(world_map, pid, (x, y, x + sprite.width, y + sprite.height))
        img.paste(names, (x, y + TITLE_H), names)

    heroes = view.heroes
    last = view.last_move
    if last is not None:
        path = [p for p in last.path if p in provs]
        if len(path) >= 2:
            mover = next((h for h in heroes if h.seat == last.seat), None)
            colour = token_colours(mover.colour if mover else "")[0]
            # from token spot to token spot, so the arrowhead points at the token, not at a name
            points = [at(p) for p in path]
            for k in (0, -1):
                tx, ty = labs[path[k]].token_at
                points[k] = (float(tx), float(ty + TITLE_H))
            name_boxes = [(b[0], b[1] + TITLE_H, b[2], b[3] + TITLE_H) for b in (lab.name_box for lab in
                                                                                  labs.values())]
            drawn, blocked = _arrow_path(draw, points, colour, last.by == "voyage", name_boxes)
            dirty.append(drawn)
            if blocked is not None:  # the names stay readable over a head that could not stop short of them
                x0, y0, x1, y1 = _grow(blocked, 4, img.size)
                over = _label_layer.crop((x0, y0 - TITLE_H, x1, y1 - TITLE_H), world_map)  # a box of its own: not kept
                img.paste(over, (x0, y0), over)
    img.paste(kept_key, key[:2])

    by_place: dict[str, list[HeroView]] = {}
    for h in heroes:
        if h.province in provs:
            by_place.setdefault(h.province, []).append(h)
    for pid, group in by_place.items():
        lab = labs[pid]
        spots = _token_spots(lab, len(group))
        ordered = sorted(zip(group, spots, strict=True), key=lambda gs: gs[0].to_act)
        for h, (x, y) in ordered:  # the hero to act is drawn last, on top
            name = h.colour
            letter = h.letter or name[:1] or "?"
            spr = _token_sprite(name, letter, h.to_act)
            x0, y0 = x - spr.width // 2, y + TITLE_H - spr.height // 2
            img.paste(spr, (x0, y0), spr)
            dirty.append((x0, y0, x0 + spr.width, y0 + spr.height))
            half = TOKEN_D // 2
            mark(img, "token", (x - half, y + TITLE_H - half, x + half, y + TITLE_H + half), letter)

    panel = _event_panel(img, view, TITLE_H)
    if panel:
        dirty.append(panel)
    dirty.append(_draw_title(img, title or _("Champion of the Empire")))
    dirty.append(_draw_caption(img, view.caption))
    return img, [_grow(b, 2, img.size) for b in dirty]


def render_map(view: ChampionView, *, title: str = "") -> bytes:
    """PNG of the map for a view: hero tokens, reachable provinces, the last move, the event, a caption."""
    world_map = world()
    rgb, dirty = compose_map(view, title=title)
    pal = _palette(world_map)
    out = _base(world_map)
    for box in dirty:
        if box[2] > box[0] and box[3] > box[1]:
            out.paste(rgb.crop(box).quantize(palette=pal, dither=Image.Dither.NONE), box[:2])
    return png_bytes(out, compress_level=1)


# --- alt text ----------------------------------------------------------------------------------------

#: How the alt text says the last move.
MOVE_WORDS = {"explore": N_("explored"), "caravan": N_("escorted a caravan"), "voyage": N_("sailed")}


def _province_words(pid: str, provs: Mapping[str, Province]) -> str:
    p = provs.get(pid)
    if p is None:
        return pid
    extra = f" ({p.city})" if p.city else ""
    return p.name + extra


def map_alt_text(view: ChampionView) -> str:
    """Who is where, whose turn it is and where they can go, the last move and the round's event."""
    provs = {p.id: p for p in world().province}
    heroes = view.heroes
    parts: list[str] = []
    head = _("Map of the Roman world, round {round}", round=view.round)
    if view.event:
        card = event_card(view.event)
        head += _(". Event: {event} ({effect})", event=card.name, effect=event_effect_line(card.effect).rstrip('.。'))
    parts.append(head)
    where = []
    for h in heroes:
        colour = _p("colour", h.colour)
        if not h.hero or not h.province:
            where.append(_("{player} ({colour}) is still choosing a hero", player=h.player, colour=colour))
            continue
        where.append(_("{player} ({colour}, {hero}) in {province}", player=h.player, colour=colour,
                       hero=hero_name(h.hero), province=_province_words(h.province, provs)))
    if where:
        parts.append(semicolon(where))
    actor = next((h for h in heroes if h.to_act), None)
    reach = [provs[p].name for p in view.highlight if p in provs]
    if actor is not None:
        if reach:
            parts.append(_("{player} to act, can reach {places}", player=actor.player, places=comma(reach)))
        else:
            parts.append(_("{player} to act", player=actor.player))
    elif reach:
        parts.append(_("Reachable: {places}", places=comma(reach)))
    last = view.last_move
    if last is not None and last.path:
        mover = next((h for h in heroes if h.seat == last.seat), None)
        who = mover.player if mover else _("Someone")
        path = [provs[p].name if p in provs else p for p in last.path]
        how = _(MOVE_WORDS[last.by]) if last.by in MOVE_WORDS else _("moved")
        parts.append(_("Last move: {who} {how} from {start} to {end}", who=who, how=how, start=path[0], end=path[-1]))
    # sentences, as the language ends them (Japanese 。, no space)
    return cap_alt(_p("sentences", ". ").join(parts) + _p("sentences", "."))
