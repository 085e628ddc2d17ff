"""Legend of Heroes: Action cards, Hero cards (the starter Fighters and the Expanded Game's five kinds) and
Spell cards as PNG (cached once drawn), with their alt text."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache, reduce
from typing import Any

import msgspec
from PIL import Image, ImageDraw, ImageFont

from render import common
from render.cache import encoded, kept, recent
from render.legend import text as fit
from render.legend.board import BLACK, WHITE
from rules.i18n import language
from rules.legend.content import BOXES, CLASSES, ActionCard, Fighter, Hero, Spell
from rules.legend.i18n import (
    KIND_NAMES,
    N_p,
    _,
    _n,
    _p,
    card_title,
    class_name,
    comma,
    hero_name,
    kind_name,
    run_on,
    semicolon,
    spell_name,
)

# --- cards --------------------------------------------------------------------------------------------

CARD_W, CARD_H = 480, 680
KIND_COLOURS: dict[str, common.RGB] = {
    "room": (122, 84, 50),
    "feature": (30, 112, 118),
    "monster": (150, 26, 34),
    "hazard": (172, 88, 14),
    "treasure": (176, 134, 20),
}
FIGHTER_COLOUR: common.RGB = (44, 78, 128)
WOUNDED_COLOUR: common.RGB = (84, 16, 16)
PARCHMENT: common.RGB = (251, 244, 226)
WOUNDED_PARCHMENT: common.RGB = (226, 196, 188)
INK: common.RGB = (36, 28, 22)
GOLD: common.RGB = (242, 190, 40)
NEXT_RED: common.RGB = (200, 30, 30)
#: The next pile as the red arrow names it (context ``kind``).
NEXT_NAMES = {"feature": N_p("kind", "Feature"), "monster": N_p("kind", "Monster"), "hazard": N_p("kind", "Hazard"),
              "treasure": N_p("kind", "Treasure")}
#: The word in a card's top band (context ``band``: it is drawn in capitals).
BAND_NAMES = {"room": N_p("band", "room"), "feature": N_p("band", "feature"), "monster": N_p("band", "monster"),
              "hazard": N_p("band", "hazard"), "treasure": N_p("band", "treasure"), "spell": N_p("band", "Spell")}
WOUND_RED: common.RGB = (196, 14, 14)

#: Each kind of Hero has its colour band and emblem; the initial labels its row on Monster and Hazard cards
#: (colour plus a letter and a picture, for colour-blind players).
CLASS_COLOURS: dict[str, common.RGB] = {
    "fighter": FIGHTER_COLOUR,
    "dwarf": (128, 74, 30),
    "cleric": (170, 128, 10),
    "rogue": (36, 104, 60),
    "magic": (96, 46, 150),
}
#: The band of a Hero card's wounded side (context ``band``).
WOUNDED_BANDS = {"fighter": N_p("band", "Wounded fighter"), "dwarf": N_p("band", "Wounded dwarf"),
                 "cleric": N_p("band", "Wounded cleric"), "rogue": N_p("band", "Wounded rogue"),
                 "magic": N_p("band", "Wounded magic user")}
#: The letter on each row's chip of the Expanded Game's table (context ``initial``).
CLASS_INITIALS: dict[str, str] = {"fighter": N_p("initial", "F"), "dwarf": N_p("initial", "D"),
                                  "cleric": N_p("initial", "C"), "rogue": N_p("initial", "R"),
                                  "magic": N_p("initial", "M")}
SPELL_COLOUR: common.RGB = (58, 40, 120)
SUCCESS_GREEN: common.RGB = (24, 128, 48)


def _as_card(card: ActionCard | Mapping[str, Any]) -> ActionCard:
    return card if isinstance(card, ActionCard) else msgspec.convert(dict(card), ActionCard)


def _as_fighter(fighter: Fighter | Mapping[str, Any]) -> Fighter:
    return fighter if isinstance(fighter, Fighter) else msgspec.convert(dict(fighter), Fighter)


def _as_hero(hero: Hero | Fighter | Mapping[str, Any]) -> Hero:
    if isinstance(hero, Hero):
        return hero
    if isinstance(hero, Fighter):
        return Hero(id=hero.id, name=hero.name, kind="fighter", dot=hero.dot, defence=hero.defence,
                    text=hero.text, wounded_text=hero.wounded_text)
    raw = dict(hero)
    if "class" not in raw:
        raw["class"] = raw.pop("kind", "fighter")
    return msgspec.convert(raw, Hero)


def _as_spell(spell: Spell | Mapping[str, Any]) -> Spell:
    return spell if isinstance(spell, Spell) else msgspec.convert(dict(spell), Spell)


@kept  # 1.3 MB decoded: kept as PNG, decoded for each new card (drawn cards are kept as PNG too)
def _blank_card(colour: common.RGB, label: str, parchment: common.RGB) -> Image.Image:
    """A card: rounded frame in ``colour`` with ``label`` in its top band, parchment inside; the corners
    outside the rounding are transparent.  One per kind, drawn at twice the size and shrunk (smooth)."""
    s = 2
    big = Image.new("RGBA", (CARD_W * s, CARD_H * s), (0, 0, 0, 0))
    d = common.canvas(big)
    d.rounded_rectangle((0, 0, CARD_W * s - 1, CARD_H * s - 1), radius=26 * s, fill=BLACK)
    d.rounded_rectangle((3 * s, 3 * s, (CARD_W - 3) * s - 1, (CARD_H - 3) * s - 1), radius=23 * s,
                        fill=colour)
    d.rounded_rectangle((16 * s, 48 * s, (CARD_W - 16) * s - 1, (CARD_H - 16) * s - 1), radius=12 * s,
                        fill=parchment, outline=common.mix(colour, BLACK, 0.4), width=2 * s)
    img = big.resize((CARD_W, CARD_H), Image.Resampling.LANCZOS)
    band = common.capitals(label)
    common.outlined(common.canvas(img), (CARD_W / 2, 27), band, common.fit_label(band, "bold", 22, CARD_W - 48,
                                                                                 smallest=10, cut=False)[0], fill=WHITE,
                    outline=common.mix(colour, BLACK, 0.6))
    return img


def _frame(colour: common.RGB, label: str, parchment: common.RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = _blank_card(colour, label, parchment)  # decoded afresh: ours to draw on
    return img, common.canvas(img)


def _boxes(draw: ImageDraw.ImageDraw, top: int, numbers: Sequence[int], dot: int | None, colour: common.RGB) -> int:
    """The five boxes A–E with their numbers, and a red dot under box ``dot``; returns the bottom y."""
    w, h, gap = 72, 58, 10
    left = (CARD_W - (5 * w + 4 * gap)) // 2
    letter = common.font("bold", 15)
    num = common.font("bold", 32)
    for i, name in enumerate(BOXES):
        x = left + i * (w + gap)
        draw.text((x + w / 2, top), name, font=letter, fill=INK, anchor="ma")
        box = (x, top + 20, x + w, top + 20 + h)
        draw.rounded_rectangle(box, radius=8, fill=WHITE, outline=colour, width=4)
        value = str(numbers[i]) if i < len(numbers) else "–"
        draw.text((x + w / 2, top + 20 + h / 2 + 1), value, font=num, fill=INK, anchor="mm")
        if dot == i:
            cx, cy = x + w / 2, top + 20 + h + 15
            draw.ellipse((cx - 10, cy - 10, cx + 10, cy + 10), fill=(220, 20, 20), outline=BLACK, width=2)
    return top + 20 + h + 30


def _next_box(draw: ImageDraw.ImageDraw, nxt: str) -> None:
    """Bottom of an Action card: a red arrow naming the next pile, or the End of Room box."""
    top, bottom = CARD_H - 78, CARD_H - 28
    if nxt == "end":
        draw.rounded_rectangle((90, top, CARD_W - 90, bottom), radius=6, fill=INK, outline=BLACK, width=2)
        draw.rectangle((96, top + 6, CARD_W - 96, bottom - 6), outline=PARCHMENT, width=2)
        end = _("End of Room")
        draw.text((CARD_W / 2, (top + bottom) / 2), end, font=common.fit_label(end, "bold", 23, CARD_W - 180 - 24,
                                                                               smallest=10, cut=False)[0],
                  fill=PARCHMENT, anchor="mm")
        return
    mid = (top + bottom) / 2
    x0, x1 = 80, CARD_W - 80
    points = [(x0, top), (x1 - 28, top), (x1, mid), (x1 - 28, bottom), (x0, bottom)]
    draw.polygon(points, fill=NEXT_RED, outline=BLACK, width=2)
    label = _("Next: {kind}", kind=_p("kind", NEXT_NAMES[nxt]) if nxt in NEXT_NAMES else nxt.title())
    draw.text(((x0 + x1 - 28) / 2, mid), label, font=common.fit_label(label, "bold", 23, x1 - 28 - x0 - 16,
                                                                      smallest=10, cut=False)[0], fill=WHITE,
              anchor="mm")


def _text(draw: ImageDraw.ImageDraw, text: str, box: common.Box, *, largest: int = 22) -> None:
    """Card text, centred in ``box`` at the largest size that fits."""
    face, lines = fit.fit_lines(text, "sans", box[2] - box[0], box[3] - box[1], largest=largest, smallest=13,
                                spacing=1.25)
    common.draw_lines(draw, lines, box, face, INK, align="center", valign="middle", spacing=1.25)


# --- emblems: simple vector pictures, one per kind ------------------------------------------------------

#: A point, and a box, in tenths of the shorter side from the picture's centre (see ``_emblem``).
Point = Callable[[float, float], tuple[float, float]]
Frame = Callable[[float, float, float, float], tuple[float, float, float, float]]
#: The family pictures' materials.
BONE, WOOD, STEEL = (238, 230, 206), (120, 72, 34), (206, 210, 218)



@recent(keep=64)  # up to 0.3 MB decoded each (a card's picture), mostly transparent: kept compressed
def _emblem(kind: str, size: tuple[int, int], colour: common.RGB) -> Image.Image:
    """A simple drawn picture for a card kind, on a transparent ground.

    Coordinates are in tenths of the shorter side from the centre: ``pt(x, y)`` a point, ``bx(...)`` a box.
    """
    s = 4
    img, d = common.supersampled(size, s)
    cx, cy = size[0] * s / 2, size[1] * s / 2
    u = min(size) * s / 10

    def pt(x: float, y: float) -> tuple[float, float]:
        return cx + x * u, cy + y * u

    def bx(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return cx + x0 * u, cy + y0 * u, cx + x1 * u, cy + y1 * u

    line = max(2, round(u * 0.25))
    draw = EMBLEM_DRAWERS.get(kind)
    if draw is not None:
        draw(d, pt, bx, u, colour, line)
    elif kind in FAMILY_EMBLEMS:
        FAMILY_DRAWERS[kind](d, pt, bx, u, colour, line)
    else:  # a fighter
        _draw_fighter(d, pt, bx, u, colour, line)

    return common.shrink(img, size)


def _draw_room(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """An arched doorway with a plank door."""
    dark = common.mix(colour, BLACK, 0.55)
    stone = common.mix(colour, WHITE, 0.35)
    d.rectangle(bx(-3.5, -1, 3.5, 4.5), fill=stone)
    d.pieslice(bx(-3.5, -4.5, 3.5, 2.5), 180, 360, fill=stone)
    d.rectangle(bx(-2.3, -0.5, 2.3, 4.5), fill=dark)
    d.pieslice(bx(-2.3, -2.8, 2.3, 1.8), 180, 360, fill=dark)
    for i in (-1, 0, 1):
        d.line((*pt(i * 0.8, -2.3), *pt(i * 0.8, 4.5)), fill=colour, width=line)
    d.ellipse(bx(1.2, 1.2, 1.8, 1.8), fill=GOLD)
    d.rectangle(bx(-4.5, 4.5, 4.5, 5), fill=dark)


def _draw_feature(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A stone pillar with a burning brazier."""
    dark = common.mix(colour, BLACK, 0.55)
    stone = common.mix(colour, WHITE, 0.45)
    d.rectangle(bx(-1.4, -1.5, 1.4, 4), fill=stone, outline=dark, width=line)
    for off in (-0.5, 0.5):
        d.line((*pt(off, -1.2), *pt(off, 3.7)), fill=dark, width=line)
    d.rectangle(bx(-2.2, 4, 2.2, 5), fill=stone, outline=dark, width=line)
    d.rectangle(bx(-2.2, -2.3, 2.2, -1.5), fill=stone, outline=dark, width=line)
    d.chord(bx(-2.4, -3.8, 2.4, -0.8), 0, 180, fill=dark)
    flame = [pt(-1.7, -2.3), pt(-0.9, -4.4), pt(0, -3.3), pt(0.8, -4.7), pt(1.7, -2.3)]
    d.polygon(flame, fill=(250, 140, 20))
    d.polygon([pt(-0.9, -2.3), pt(0, -3.9), pt(0.9, -2.3)], fill=GOLD)


def _draw_monster(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A horned head with glaring eyes and fangs."""
    dark = common.mix(colour, BLACK, 0.55)
    for sx in (-1, 1):
        d.polygon([pt(sx * 2.6, -1.5), pt(sx * 4.4, -4.8), pt(sx * 1.2, -2.6)], fill=dark)
    d.ellipse(bx(-3.2, -3.2, 3.2, 3.6), fill=common.mix(colour, BLACK, 0.25), outline=BLACK, width=line)
    for sx in (-1, 1):
        eye = [pt(sx * 0.4, -0.9), pt(sx * 2.3, -1.6), pt(sx * 1.9, -0.1)]
        d.polygon(eye, fill=(255, 220, 40), outline=BLACK)
    d.chord(bx(-2, 0.6, 2, 3.2), 0, 180, fill=BLACK)
    for sx in (-1, 1):
        d.polygon([pt(sx * 1.3, 1.85), pt(sx * 0.7, 1.85), pt(sx * 1.0, 2.9)], fill=WHITE)


def _draw_hazard(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A warning triangle over a row of spikes."""
    d.polygon([pt(0, -4.8), pt(4.2, 2.4), pt(-4.2, 2.4)], fill=BLACK)
    d.polygon([pt(0, -3.8), pt(3.3, 1.9), pt(-3.3, 1.9)], fill=GOLD)
    d.rectangle(bx(-0.4, -2, 0.4, 0.2), fill=BLACK)
    d.ellipse(bx(-0.45, 0.6, 0.45, 1.5), fill=BLACK)
    for i in range(-4, 5):
        d.polygon([pt(i - 0.45, 5), pt(i, 3), pt(i + 0.45, 5)], fill=common.mix(colour, BLACK, 0.3))


def _draw_treasure(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """An open chest heaped with coins."""
    wood, band = common.mix(colour, (110, 60, 20), 0.6), common.mix(colour, BLACK, 0.5)
    for ox, oy in ((-1.8, -1.2), (0, -1.9), (1.8, -1.2), (-0.9, -0.5), (0.9, -0.5)):
        d.ellipse(bx(ox - 1, oy - 1, ox + 1, oy + 1), fill=GOLD, outline=band, width=line)
    d.rectangle(bx(-4, 0, 4, 4), fill=wood, outline=BLACK, width=line)
    d.rectangle(bx(-4, 0.9, 4, 1.5), fill=band)
    d.rectangle(bx(-0.6, 0.6, 0.6, 2.2), fill=GOLD, outline=BLACK, width=line)


def _draw_dwarf(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A double-bladed war axe."""
    steel, wood = (206, 210, 218), (112, 70, 34)
    d.line((*pt(0, -4.4), *pt(0, 4.9)), fill=BLACK, width=round(1.0 * u))
    d.line((*pt(0, -4.3), *pt(0, 4.8)), fill=wood, width=round(0.65 * u))
    for sx in (-1, 1):
        blade = [pt(sx * 0.4, -2.9), pt(sx * 2.0, -3.3), pt(sx * 3.9, -4.6), pt(sx * 4.7, -1.6),
                 pt(sx * 4.3, 1.6), pt(sx * 2.0, 0.5), pt(sx * 0.4, 0.3)]
        d.polygon(blade, fill=steel, outline=BLACK, width=line)
        d.line((*pt(sx * 3.7, -3.8), *pt(sx * 4.1, 1.0)), fill=WHITE, width=line)
    d.rectangle(bx(-0.7, -3.3, 0.7, 0.7), fill=colour, outline=BLACK, width=line)
    d.polygon([pt(-0.45, -4.2), pt(0, -5), pt(0.45, -4.2)], fill=steel, outline=BLACK)
    for y in (2.2, 3.0, 3.8):
        d.line((*pt(-0.4, y), *pt(0.4, y - 0.3)), fill=GOLD, width=line)


def _draw_cleric(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A radiant sun with a holy cross."""
    rays = []
    for i in range(24):
        a = math.pi * i / 12
        r = (4.9 if i % 4 == 0 else 4.2) if i % 2 == 0 else 2.9
        rays.append(pt(r * math.cos(a), r * math.sin(a)))
    d.polygon(rays, fill=GOLD, outline=common.mix(colour, BLACK, 0.4), width=line)
    d.ellipse(bx(-2.9, -2.9, 2.9, 2.9), fill=(255, 226, 110), outline=BLACK, width=line)
    d.ellipse(bx(-2.2, -2.2, 2.2, 2.2), outline=common.mix(colour, BLACK, 0.3), width=line)
    d.rectangle(bx(-0.45, -1.9, 0.45, 1.9), fill=WHITE, outline=BLACK, width=line)
    d.rectangle(bx(-1.4, -1.0, 1.4, -0.1), fill=WHITE, outline=BLACK, width=line)
    d.rectangle(bx(-0.45 + 0.05, -1.0 + 0.08, 0.45 - 0.05, -0.1 - 0.08), fill=WHITE)


def _draw_rogue(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A padlock, and the dagger that will open it."""
    plate = (198, 160, 60)
    d.arc(bx(-3.9, -4.6, -0.3, -0.6), 180, 360, fill=BLACK, width=round(0.95 * u))
    d.arc(bx(-3.7, -4.4, -0.5, -0.8), 180, 360, fill=(170, 174, 184), width=round(0.5 * u))
    d.rounded_rectangle(bx(-4.5, -2.0, 0.3, 3.4), radius=round(0.6 * u), fill=plate, outline=BLACK,
                        width=line)
    d.ellipse(bx(-2.7, -0.8, -1.5, 0.4), fill=BLACK)
    d.polygon([pt(-2.45, 0), pt(-2.75, 2.2), pt(-1.45, 2.2), pt(-1.75, 0)], fill=BLACK)
    tip, base = (4.4, -4.6), (1.3, 1.5)  # the dagger, point up and to the right
    vx, vy = base[0] - tip[0], base[1] - tip[1]
    n = math.hypot(vx, vy)
    ux, uy = vx / n, vy / n  # along the blade, toward the hilt
    px, py = -uy, ux  # across it

    def along(t: float, c: float) -> tuple[float, float]:
        return pt(tip[0] + ux * t + px * c, tip[1] + uy * t + py * c)

    d.polygon([along(0, 0), along(n, 0.75), along(n, -0.75)], fill=(222, 226, 234), outline=BLACK,
              width=line)
    d.line((*along(0.8, 0), *along(n - 0.2, 0)), fill=(150, 156, 168), width=line)
    d.line((*along(n, 1.6), *along(n, -1.6)), fill=BLACK, width=round(0.8 * u))
    d.line((*along(n, 1.45), *along(n, -1.45)), fill=GOLD, width=round(0.45 * u))
    d.line((*along(n + 0.3, 0), *along(n + 2.4, 0)), fill=BLACK, width=round(0.85 * u))
    d.line((*along(n + 0.3, 0), *along(n + 2.4, 0)), fill=(70, 44, 24), width=round(0.5 * u))
    ex, ey = along(n + 2.7, 0)
    r = 0.55 * u
    d.ellipse((ex - r, ey - r, ex + r, ey + r), fill=GOLD, outline=BLACK, width=line)


def _draw_magic(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int, *,
                spell: bool = False) -> None:
    """A staff crowned with a star; a spell: the star alone, blazing."""
    if not spell:
        d.line((*pt(-3.4, 4.9), *pt(0.9, -1.0)), fill=BLACK, width=round(0.95 * u))
        d.line((*pt(-3.35, 4.8), *pt(0.9, -1.0)), fill=(120, 76, 36), width=round(0.6 * u))
        mx, my, big = 1.9, -2.5, 2.5
    else:
        d.ellipse(bx(-4.6, -4.6, 4.6, 4.6), fill=common.mix(colour, WHITE, 0.75))
        d.ellipse(bx(-3.6, -3.6, 3.6, 3.6), fill=common.mix(colour, WHITE, 0.5))
        mx, my, big = 0.0, 0.0, 3.6
    star = []
    for i in range(10):
        a = -math.pi / 2 + math.pi * i / 5
        r = big if i % 2 == 0 else big * 0.42
        star.append(pt(mx + r * math.cos(a), my + r * math.sin(a)))
    d.polygon(star, fill=GOLD, outline=BLACK, width=line)
    for ox, oy, r in ((-2.6, -3.4, 0.9), (3.9, 0.6, 0.7), (-0.6, 1.2, 0.55), (3.4, -4.4, 0.5)):
        if spell:
            ox, oy = ox * 1.1, oy * 1.1
        spark = [pt(ox, oy - r), pt(ox + r * 0.25, oy - r * 0.25), pt(ox + r, oy),
                 pt(ox + r * 0.25, oy + r * 0.25), pt(ox, oy + r), pt(ox - r * 0.25, oy + r * 0.25),
                 pt(ox - r, oy), pt(ox - r * 0.25, oy - r * 0.25)]
        d.polygon(spark, fill=common.mix(colour, WHITE, 0.3), outline=common.mix(colour, BLACK, 0.5))


def _draw_fighter(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A fighter: a shield before two crossed swords."""
    steel, grip = (214, 218, 226), (96, 62, 30)
    for sx in (-1, 1):
        tip, hilt = pt(sx * 3.6, -4.4), pt(-sx * 2.9, 3.3)
        d.line((*tip, *hilt), fill=BLACK, width=round(0.9 * u))
        d.line((*tip, *hilt), fill=steel, width=round(0.55 * u))
        gx, gy = -sx * 2.3, 2.5  # the cross-guard, square to the blade
        guard = (*pt(gx - 0.9, gy - sx * 0.8), *pt(gx + 0.9, gy + sx * 0.8))
        d.line(guard, fill=GOLD, width=round(0.45 * u))
        d.line((*hilt, *pt(-sx * 3.5, 4.1)), fill=grip, width=round(0.5 * u))
    shield = [pt(-2.6, -3), pt(2.6, -3), pt(2.6, 0.2), pt(0, 3.4), pt(-2.6, 0.2)]
    d.polygon(shield, fill=colour, outline=BLACK, width=line)
    inner = [pt(-1.9, -2.3), pt(1.9, -2.3), pt(1.9, -0.1), pt(0, 2.4), pt(-1.9, -0.1)]
    d.polygon(inner, outline=GOLD, width=line)


#: The picture of each card kind, hero class and spell: one small drawing each.
EMBLEM_DRAWERS: dict[str, Drawer] = {
    "room": _draw_room,
    "feature": _draw_feature,
    "monster": _draw_monster,
    "hazard": _draw_hazard,
    "treasure": _draw_treasure,
    "dwarf": _draw_dwarf,
    "cleric": _draw_cleric,
    "rogue": _draw_rogue,
    "magic": _draw_magic,
    "spell": lambda d, pt, bx, u, colour, line: _draw_magic(d, pt, bx, u, colour, line, spell=True),
}



#: Pictures beyond one per kind: Monsters by family, Rooms by use, Features by what they are, Hazards by
#: what they do.
FAMILY_EMBLEMS = ("skull", "paw", "spider", "serpent", "wings", "mimic", "book", "coffin", "weapons", "throne",
                  "barrel", "frame", "chest", "lever", "rubble", "flame", "cloud", "waves", "blade")

#: Which picture each card carries (a card not listed has its kind's own: a horned head for a Monster, an
#: arched door for a Room, a brazier for a Feature).
CARD_ART: dict[str, str] = {
    # Monsters: brutes keep the horned head; the undead, beasts, crawlers, the winged and the mimic differ
    "skeleton": "skull", "ghoul": "skull", "wraith": "skull",
    "giant-rats": "paw", "cave-bear": "paw",
    "giant-spider": "spider", "giant-snake": "serpent",
    "gargoyle": "wings", "mimic": "mimic",
    # Rooms by their use: learning, the dead, arms, state, stores (the rest keep the arched door)
    "map-room": "book", "library": "book",
    "crypt": "coffin",
    "guardroom": "weapons", "armoury": "weapons", "forge": "weapons",
    "throne-room": "throne", "bedchamber": "throne",
    "wine-cellar": "barrel", "storeroom": "barrel", "kitchen": "barrel",
    "gallery": "frame",
    # Features: fire keeps the brazier; things hung or set up, things shut, things to pull, ruins
    "tapestry": "frame", "tall-mirror": "frame", "mosaic-floor": "frame", "knights-statue": "frame",
    "iron-bound-chest": "chest", "sarcophagus": "coffin", "weapon-rack": "weapons",
    "iron-lever": "lever", "trapdoor": "lever",
    "heap-of-rubble": "rubble", "fallen-adventurer": "rubble", "dry-fountain": "rubble",
    # Hazards: what strikes keeps the warning sign; fire, foul air, water and blades differ
    "jet-of-flame": "flame", "poison-gas": "cloud", "choking-spores": "cloud", "ancient-curse": "cloud",
    "rushing-water": "waves", "scything-blade": "blade", "dart-trap": "blade",
}


def art_of(card: ActionCard) -> str:
    """The picture a card carries: its own family's, else its kind's."""
    return CARD_ART.get(card.id, card.kind)


Drawer = Callable[[ImageDraw.ImageDraw, Point, Frame, float, common.RGB, int], None]


def _draw_skull(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A skull over crossed bones."""
    bone = BONE
    for a, b in (((-4.4, -0.2), (4.4, 4.6)), ((4.4, -0.2), (-4.4, 4.6))):
        d.line((*pt(*a), *pt(*b)), fill=BLACK, width=round(1.1 * u))
        d.line((*pt(*a), *pt(*b)), fill=bone, width=round(0.7 * u))
        for x, y in (a, b):
            d.ellipse(bx(x - 0.7, y - 0.7, x + 0.7, y + 0.7), fill=bone, outline=BLACK, width=line)
    d.rounded_rectangle(bx(-2, 0.6, 2, 3.5), radius=round(0.6 * u), fill=bone, outline=BLACK, width=line)
    d.ellipse(bx(-3.2, -4.6, 3.2, 1.6), fill=bone, outline=BLACK, width=line)
    for sx in (-1, 1):
        d.ellipse(bx(min(sx * 0.4, sx * 2.1), -2.4, max(sx * 0.4, sx * 2.1), -0.5), fill=BLACK)
        d.ellipse(bx(sx * 1.25 - 0.3, -1.75, sx * 1.25 + 0.3, -1.15), fill=common.mix(colour, WHITE, 0.3))
    d.polygon([pt(0, 0), pt(-0.5, 1.0), pt(0.5, 1.0)], fill=BLACK)
    for x in (-1.2, -0.4, 0.4, 1.2):
        d.line((*pt(x, 1.9), *pt(x, 3.3)), fill=BLACK, width=line)


def _draw_paw(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A clawed paw print."""
    dark = common.mix(colour, BLACK, 0.55)
    bone = BONE
    d.ellipse(bx(-2.5, 0.4, 2.5, 4.8), fill=dark, outline=BLACK, width=line)
    for x, y in ((-3.5, -0.9), (-1.3, -2.6), (1.3, -2.6), (3.5, -0.9)):
        d.polygon([pt(x - 0.45, y - 0.8), pt(x + 0.08 * x, y - 2.2), pt(x + 0.45, y - 0.8)], fill=bone,
                  outline=BLACK)
        d.ellipse(bx(x - 1.1, y - 1.2, x + 1.1, y + 1.2), fill=dark, outline=BLACK, width=line)


def _draw_spider(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """Eight legs, a body and red eyes."""
    dark = common.mix(colour, BLACK, 0.55)
    for sx in (-1, 1):
        for y0, y1 in ((-1.0, -4.6), (-0.2, -2.0), (0.6, 1.2), (1.4, 4.6)):
            knee = pt(sx * 3.2, (y0 + y1) / 2 - 1.2)
            d.line((*pt(sx * 0.8, y0), *knee, *pt(sx * 4.7, y1)), fill=BLACK, width=round(0.55 * u),
                   joint="curve")
    d.ellipse(bx(-2.0, -0.2, 2.0, 4.6), fill=dark, outline=BLACK, width=line)
    d.ellipse(bx(-1.3, -2.6, 1.3, 0.2), fill=common.mix(dark, BLACK, 0.3), outline=BLACK, width=line)
    for x in (-0.55, 0.55):
        d.ellipse(bx(x - 0.3, -1.9, x + 0.3, -1.3), fill=(230, 30, 30))
    d.line((*pt(-0.8, 1.6), *pt(0.8, 1.6)), fill=(230, 30, 30), width=line)
    d.line((*pt(0, 0.8), *pt(0, 2.4)), fill=(230, 30, 30), width=line)


def _draw_serpent(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A snake coiled in an S, tongue out."""
    body = common.mix(colour, (40, 120, 50), 0.6)
    w = round(1.3 * u)
    for box, a0, a1 in ((bx(-2.6, -4.6, 2.6, 0.2), 90, 360), (bx(-2.6, -0.2, 2.6, 4.6), -90, 180)):
        d.arc(box, a0, a1, fill=BLACK, width=w + 2 * line)
        d.arc(box, a0, a1, fill=body, width=w)
    d.polygon([pt(-2.6, 2.2), pt(-3.6, 4.4), pt(-1.4, 2.4)], fill=body, outline=BLACK)
    d.ellipse(bx(1.8, -3.4, 4.4, -1.4), fill=body, outline=BLACK, width=line)
    d.ellipse(bx(3.2, -2.9, 3.7, -2.4), fill=(255, 220, 40))
    d.line((*pt(4.3, -2.0), *pt(5.0, -1.2), *pt(4.7, -0.8)), fill=(220, 30, 30), width=line)
    d.line((*pt(5.0, -1.2), *pt(5.2, -1.7)), fill=(220, 30, 30), width=line)


def _draw_wings(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A stone head between bat wings."""
    dark = common.mix(colour, BLACK, 0.55)
    for sx in (-1, 1):
        wing = [pt(sx * 1.0, -1.4), pt(sx * 4.9, -4.0), pt(sx * 4.4, -1.2), pt(sx * 4.9, 1.6),
                pt(sx * 3.3, 0.6), pt(sx * 2.7, 2.4), pt(sx * 1.4, 1.0)]
        d.polygon(wing, fill=dark, outline=BLACK, width=line)
        for tip in ((4.9, -4.0), (4.4, -1.2)):
            d.line((*pt(sx * 1.2, -0.8), *pt(sx * tip[0], tip[1])), fill=common.mix(dark, WHITE, 0.3), width=line)
    stone = (150, 150, 158)
    for sx in (-1, 1):
        d.polygon([pt(sx * 0.8, -2.0), pt(sx * 1.8, -4.2), pt(sx * 1.6, -1.4)], fill=stone, outline=BLACK)
    d.ellipse(bx(-1.7, -2.6, 1.7, 1.8), fill=stone, outline=BLACK, width=line)
    for sx in (-1, 1):
        d.polygon([pt(sx * 0.3, -1.0), pt(sx * 1.3, -1.4), pt(sx * 1.1, -0.4)], fill=(255, 220, 40),
                  outline=BLACK)
    d.chord(bx(-1.0, -0.1, 1.0, 1.3), 0, 180, fill=BLACK)


def _draw_mimic(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A chest that is all teeth."""
    wood = WOOD
    d.rectangle(bx(-4.2, 0.2, 4.2, 4.4), fill=wood, outline=BLACK, width=line)
    d.polygon([pt(-4.2, -1.0), pt(4.2, -2.6), pt(4.2, -4.6), pt(-4.2, -3.0)], fill=wood, outline=BLACK,
              width=line)
    d.polygon([pt(-4.0, -0.9), pt(4.0, -2.4), pt(4.0, 0.4), pt(-4.0, 0.4)], fill=(60, 0, 0))
    for i in range(8):
        x = -3.6 + i
        y_top = -1.0 - (x + 4.0) * 0.19
        d.polygon([pt(x - 0.4, y_top), pt(x + 0.4, y_top - 0.15), pt(x, y_top + 1.1)], fill=WHITE,
                  outline=BLACK)
        d.polygon([pt(x - 0.4, 0.3), pt(x + 0.4, 0.3), pt(x, -0.7)], fill=WHITE, outline=BLACK)
    d.ellipse(bx(-1.0, -0.2, 1.8, 0.5), fill=(210, 60, 80))
    for x in (-2.2, 1.2):
        d.ellipse(bx(x - 0.5, -3.4 + (x + 4) * -0.19, x + 0.5, -2.6 + (x + 4) * -0.19), fill=(255, 220, 40),
                  outline=BLACK)
    d.rectangle(bx(-4.2, 1.4, 4.2, 2.0), fill=common.mix(wood, BLACK, 0.4))


def _draw_book(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """An open book with a ribbon."""
    cover = common.mix(colour, BLACK, 0.2)
    d.polygon([pt(0, -2.6), pt(-4.9, -3.6), pt(-4.9, 3.2), pt(0, 4.2), pt(4.9, 3.2), pt(4.9, -3.6)], fill=cover,
              outline=BLACK, width=line)
    page = (250, 242, 216)
    for sx in (-1, 1):
        d.polygon([pt(0, -2.2), pt(sx * 4.4, -3.1), pt(sx * 4.4, 2.6), pt(0, 3.6)], fill=page, outline=BLACK,
                  width=line)
        for i in range(5):
            y = -1.9 + i * 1.0
            d.line((*pt(sx * 0.7, y + 0.1), *pt(sx * 3.7, y - 0.5)), fill=common.mix(page, BLACK, 0.5), width=line)
    d.polygon([pt(1.2, -2.4), pt(1.9, -2.5), pt(1.9, 4.6), pt(1.55, 4.1), pt(1.2, 4.6)], fill=(200, 30, 40))


def _draw_coffin(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A coffin with a cross on its lid."""
    wood = WOOD
    shape = [pt(-1.6, -4.8), pt(1.6, -4.8), pt(2.9, -2.2), pt(1.9, 4.8), pt(-1.9, 4.8), pt(-2.9, -2.2)]
    d.polygon(shape, fill=common.mix(wood, BLACK, 0.3), outline=BLACK, width=line)
    inner = [pt(-1.2, -4.1), pt(1.2, -4.1), pt(2.2, -2.1), pt(1.4, 4.1), pt(-1.4, 4.1), pt(-2.2, -2.1)]
    d.polygon(inner, outline=common.mix(wood, WHITE, 0.3), width=line)
    d.rectangle(bx(-0.35, -3.2, 0.35, 2.0), fill=GOLD, outline=BLACK)
    d.rectangle(bx(-1.4, -2.2, 1.4, -1.5), fill=GOLD, outline=BLACK)


def _draw_weapons(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """Two crossed spears behind a round shield."""
    wood = WOOD
    steel = STEEL
    for a, b in (((-4.2, 4.6), (3.8, -3.8)), ((4.2, 4.6), (-3.8, -3.8))):
        d.line((*pt(*a), *pt(*b)), fill=BLACK, width=round(0.75 * u))
        d.line((*pt(*a), *pt(*b)), fill=wood, width=round(0.4 * u))
        tx, ty = b
        sx = 1 if tx > 0 else -1
        d.polygon([pt(tx + sx * 1.0, ty - 1.0), pt(tx - sx * 0.6, ty - 0.2), pt(tx + sx * 0.2, ty + 0.6)],
                  fill=steel, outline=BLACK)
    d.ellipse(bx(-2.7, -2.2, 2.7, 3.2), fill=common.mix(colour, WHITE, 0.15), outline=BLACK, width=line)
    d.ellipse(bx(-2.0, -1.5, 2.0, 2.5), outline=GOLD, width=line)
    d.ellipse(bx(-0.7, -0.2, 0.7, 1.2), fill=GOLD, outline=BLACK, width=line)


def _draw_throne(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A high-backed throne, crowned."""
    gilt = common.mix(GOLD, colour, 0.2)
    d.rectangle(bx(-2.4, -3.6, 2.4, 1.2), fill=common.mix(colour, BLACK, 0.15), outline=BLACK, width=line)
    d.rectangle(bx(-1.7, -2.9, 1.7, 0.8), fill=(170, 30, 40), outline=BLACK, width=line)
    d.polygon([pt(-2.4, -3.6), pt(-2.0, -5.0), pt(-1.0, -4.0), pt(0, -5.2), pt(1.0, -4.0), pt(2.0, -5.0),
               pt(2.4, -3.6)], fill=gilt, outline=BLACK, width=line)
    d.rectangle(bx(-3.4, 0.9, 3.4, 2.3), fill=gilt, outline=BLACK, width=line)
    for x in (-3.0, 2.4):
        d.rectangle(bx(x, 2.3, x + 0.6, 4.8), fill=gilt, outline=BLACK, width=line)
    for x in (-3.4, 2.8):
        d.rectangle(bx(x, -0.6, x + 0.6, 0.9), fill=gilt, outline=BLACK, width=line)


def _draw_barrel(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A barrel bound with iron hoops."""
    wood = WOOD
    d.rounded_rectangle(bx(-3.2, -4.2, 3.2, 4.6), radius=round(1.6 * u), fill=wood, outline=BLACK, width=line)
    for x in (-1.6, 0, 1.6):
        d.line((*pt(x, -4.0), *pt(x, 4.4)), fill=common.mix(wood, BLACK, 0.35), width=line)
    for y in (-2.6, 3.0):
        d.rectangle(bx(-3.2, y - 0.35, 3.2, y + 0.35), fill=(90, 92, 100), outline=BLACK)
    d.ellipse(bx(-0.5, 0.0, 0.5, 1.0), fill=common.mix(wood, BLACK, 0.5))


def _draw_frame(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A gilt frame round a dim mirror."""
    d.rectangle(bx(-3.7, -4.7, 3.7, 4.7), fill=GOLD, outline=BLACK, width=line)
    d.rectangle(bx(-3.1, -4.1, 3.1, 4.1), outline=common.mix(GOLD, BLACK, 0.35), width=line)
    d.ellipse(bx(-2.5, -3.5, 2.5, 3.5), fill=common.mix(colour, WHITE, 0.55), outline=BLACK, width=line)
    d.line((*pt(-1.3, -2.0), *pt(0.2, -2.9)), fill=WHITE, width=round(0.35 * u))
    d.line((*pt(-1.7, -0.9), *pt(-1.1, -1.3)), fill=WHITE, width=round(0.3 * u))


def _draw_chest(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A closed chest, banded and locked."""
    wood = WOOD
    d.rectangle(bx(-4.2, -0.6, 4.2, 4.0), fill=wood, outline=BLACK, width=line)
    d.chord(bx(-4.2, -4.0, 4.2, 2.6), 180, 360, fill=common.mix(wood, WHITE, 0.1), outline=BLACK, width=line)
    for x in (-2.8, 2.8):
        d.rectangle(bx(x - 0.4, -2.6, x + 0.4, 4.0), fill=(90, 92, 100), outline=BLACK)
    d.rounded_rectangle(bx(-0.8, -1.2, 0.8, 1.0), radius=round(0.3 * u), fill=GOLD, outline=BLACK, width=line)
    d.ellipse(bx(-0.25, -0.5, 0.25, 0.0), fill=BLACK)


def _draw_lever(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A lever in an iron slot, knob up."""
    steel = STEEL
    d.rounded_rectangle(bx(-3.8, 2.4, 3.8, 4.4), radius=round(0.4 * u), fill=(110, 112, 120), outline=BLACK,
                        width=line)
    d.arc(bx(-3.0, -1.2, 3.0, 4.8), 200, 340, fill=BLACK, width=round(0.5 * u))
    d.line((*pt(0, 3.2), *pt(2.6, -3.4)), fill=BLACK, width=round(0.8 * u))
    d.line((*pt(0, 3.2), *pt(2.6, -3.4)), fill=steel, width=round(0.45 * u))
    d.ellipse(bx(1.7, -4.6, 3.5, -2.8), fill=(200, 30, 30), outline=BLACK, width=line)
    d.ellipse(bx(-0.7, 2.5, 0.7, 3.9), fill=GOLD, outline=BLACK, width=line)


def _draw_rubble(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """Fallen stones in a heap."""
    stones = [((-4.6, 4.6), (-4.0, 1.6), (-1.8, 1.0), (-0.6, 3.0), (-1.2, 4.6)),
              ((-1.2, 4.6), (-0.4, 1.8), (1.8, 1.4), (3.0, 3.2), (2.4, 4.6)),
              ((2.4, 4.6), (3.2, 2.0), (4.8, 2.6), (4.8, 4.6)),
              ((-2.8, 1.4), (-2.4, -1.2), (0.2, -1.8), (0.8, 1.2)),
              ((0.6, 1.4), (1.0, -0.8), (3.2, -0.4), (3.4, 1.8)),
              ((-1.0, -1.6), (-0.2, -3.8), (1.8, -3.2), (1.6, -0.8))]
    for i, rock in enumerate(stones):
        grey = common.mix((150, 144, 136), colour, 0.15 + 0.05 * (i % 3))
        d.polygon([pt(x, y) for x, y in rock], fill=grey, outline=BLACK, width=line)


def _draw_flame(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A tongue of fire from a carved mouth."""
    outer = [pt(-3.2, 4.0), pt(-3.8, 0.6), pt(-2.2, -1.6), pt(-2.0, 0.4), pt(-0.6, -4.8), pt(0.8, -1.8),
             pt(1.8, -3.6), pt(2.4, -0.6), pt(3.6, -2.2), pt(3.4, 1.8), pt(2.6, 4.0)]
    d.polygon(outer, fill=(230, 80, 20), outline=BLACK, width=line)
    inner = [pt(-1.8, 4.0), pt(-2.2, 1.6), pt(-1.0, 0.2), pt(-0.4, -2.4), pt(0.6, 0.0), pt(1.6, -1.0),
             pt(1.9, 1.6), pt(1.4, 4.0)]
    d.polygon(inner, fill=GOLD)
    d.rectangle(bx(-4.4, 4.0, 4.4, 5.0), fill=(120, 116, 110), outline=BLACK, width=line)


def _draw_cloud(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A drifting cloud of foul green air."""
    fog = (130, 170, 70)
    for x, y, r in ((-2.6, 1.0, 1.9), (0.0, -0.4, 2.5), (2.6, 1.0, 1.9), (-1.2, 2.2, 1.8), (1.4, 2.2, 1.8)):
        d.ellipse(bx(x - r - 0.15, y - r - 0.15, x + r + 0.15, y + r + 0.15), fill=BLACK)
    for x, y, r in ((-2.6, 1.0, 1.9), (0.0, -0.4, 2.5), (2.6, 1.0, 1.9), (-1.2, 2.2, 1.8), (1.4, 2.2, 1.8)):
        d.ellipse(bx(x - r, y - r, x + r, y + r), fill=fog)
    for x in (-1.2, 1.2):  # two hollow eyes in the fog
        d.ellipse(bx(x - 0.5, -0.4, x + 0.5, 0.6), fill=common.mix(fog, BLACK, 0.6))
    for x, y in ((-3.8, -3.2), (3.6, -3.8), (-0.6, -4.4)):
        d.ellipse(bx(x - 0.4, y - 0.4, x + 0.4, y + 0.4), fill=fog, outline=BLACK)


def _draw_waves(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """Water rushing in, wave on wave."""
    water = (40, 110, 200)
    for i, y in enumerate((-2.6, 0.0, 2.6)):
        crest = [pt(-4.8, y + 1.6)]
        for k in range(5):
            x = -4.8 + k * 2.4
            crest += [pt(x + 0.6, y - 0.2), pt(x + 1.4, y - 0.6), pt(x + 2.0, y + 0.4), pt(x + 2.4, y + 1.0)]
        crest += [pt(4.8, y + 2.2), pt(-4.8, y + 2.2)]
        d.polygon(crest, fill=common.mix(water, WHITE, 0.25 * i), outline=BLACK, width=line)


def _draw_blade(d: ImageDraw.ImageDraw, pt: Point, bx: Frame, u: float, colour: common.RGB, line: int) -> None:
    """A scything blade on its arm, and a flying dart."""
    steel = STEEL
    d.line((*pt(-3.6, -4.6), *pt(0.6, 2.0)), fill=BLACK, width=round(0.8 * u))
    d.line((*pt(-3.6, -4.6), *pt(0.6, 2.0)), fill=(120, 116, 110), width=round(0.45 * u))
    d.ellipse(bx(-4.2, -5.0, -3.0, -3.8), fill=(90, 92, 100), outline=BLACK, width=line)
    d.chord(bx(-3.4, -0.6, 4.6, 6.6), 200, 340, fill=steel, outline=BLACK, width=line)
    d.line((*pt(2.4, -3.2), *pt(4.6, -4.4)), fill=BLACK, width=round(0.35 * u))
    d.polygon([pt(1.6, -2.8), pt(2.6, -3.6), pt(2.4, -2.9)], fill=steel, outline=BLACK)
    d.polygon([pt(4.2, -4.6), pt(4.9, -4.9), pt(4.7, -4.0)], fill=(200, 30, 30), outline=BLACK)


#: The family pictures (``FAMILY_EMBLEMS``), in the same coordinates.
FAMILY_DRAWERS: dict[str, Drawer] = {
    "skull": _draw_skull,
    "paw": _draw_paw,
    "spider": _draw_spider,
    "serpent": _draw_serpent,
    "wings": _draw_wings,
    "mimic": _draw_mimic,
    "book": _draw_book,
    "coffin": _draw_coffin,
    "weapons": _draw_weapons,
    "throne": _draw_throne,
    "barrel": _draw_barrel,
    "frame": _draw_frame,
    "chest": _draw_chest,
    "lever": _draw_lever,
    "rubble": _draw_rubble,
    "flame": _draw_flame,
    "cloud": _draw_cloud,
    "waves": _draw_waves,
    "blade": _draw_blade,
}



def _paste_emblem(img: Image.Image, kind: str, box: common.Box, colour: common.RGB) -> None:
    x0, y0, x1, y1 = box
    side = max(1, min(x1 - x0, y1 - y0))
    img.alpha_composite(_emblem(kind, (side, side), colour), ((x0 + x1 - side) // 2, (y0 + y1 - side) // 2))


def _card_bytes(img: Image.Image) -> bytes:
    """Cards are drawn once and cached: an adaptive 256-colour palette makes them a third of the size."""
    return common.png_bytes(img.quantize(256, method=Image.Quantize.FASTOCTREE), compress_level=6)


def title_lines(text: str) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """A card's title: as large as fits in two lines, never broken inside a word."""
    return fit.fit_words(text, "serif", CARD_W - 60, 84, largest=34, smallest=22, spacing=1.1)


def _title(draw: ImageDraw.ImageDraw, text: str, top: int) -> int:
    face, lines = title_lines(text)
    bottom = common.draw_lines(draw, lines, (30, top, CARD_W - 30, top + 90), face, INK, align="center", spacing=1.1)
    draw.line((70, bottom + 6, CARD_W - 70, bottom + 6), fill=common.mix(INK, PARCHMENT, 0.6), width=2)
    return bottom + 14


def _danger_body(img: Image.Image, draw: ImageDraw.ImageDraw, card: ActionCard, colour: common.RGB, top: int,
                 bottom: int) -> None:
    """A Monster or Hazard: ``text`` above the picture, ``after`` below it, both in one font size, the
    picture taking what room is left (between 80 and 140 pixels)."""
    width = CARD_W - 68
    spacing = 1.22
    for size in range(21, 12, -1):
        face = common.font("sans", size)
        step = common.line_height(face, spacing)
        above = fit.wrap_lines(_(card.text), face, width)
        below = fit.wrap_lines(_(card.after), face, width) if card.after else []
        need = (len(above) + len(below)) * step + 12
        if need + 80 <= bottom - top:
            break
    pic = max(60, min(140, bottom - top - need))
    slack = (bottom - top - need - pic) // 3
    y = top + slack
    y = common.draw_lines(draw, above, (34, y, CARD_W - 34, y), face, INK, align="center", spacing=spacing) + 6
    _paste_emblem(img, art_of(card), (34, y + slack // 2, CARD_W - 34, y + slack // 2 + pic), colour)
    y += pic + slack + 6
    common.draw_lines(draw, below, (34, y, CARD_W - 34, y), face, INK, align="center", spacing=spacing)


ROW_H, ROW_GAP = 31, 4
PARTY_TABLE_H = 18 + 5 * (ROW_H + ROW_GAP) + 22


def _party_rows(img: Image.Image, draw: ImageDraw.ImageDraw, top: int, card: ActionCard, colour: common.RGB) -> None:
    """The Expanded Game's table: one row of boxes A–E per kind of Hero (Fighter = ``needs``), each row
    labelled by a chip in its colour with its emblem and initial; the Monster's red dot under its column."""
    label_x0, label_x1, right, gap = 20, 96, CARD_W - 20, 7
    w = (right - (label_x1 + 6) - 4 * gap) / 5
    left = label_x1 + 6
    letter, num, initial = common.font("bold", 15), common.font("bold", 23), common.font("bold", 21)
    for i, name in enumerate(BOXES):
        draw.text((left + i * (w + gap) + w / 2, top), name, font=letter, fill=INK, anchor="ma")
    y = top + 18
    for kind in CLASSES:
        row = card.needs if kind == "fighter" else card.party.get(kind, ())
        tint = CLASS_COLOURS[kind]
        draw.rounded_rectangle((label_x0, y, label_x1, y + ROW_H), radius=7, fill=tint, outline=BLACK, width=1)
        icon = ROW_H - 4
        img.alpha_composite(_emblem_on_chip(kind, icon), (label_x0 + 3, y + 2))
        letter_of = _p("initial", CLASS_INITIALS[kind])
        common.outlined(draw, (label_x1 - 19, y + ROW_H / 2 + 1), letter_of,
                        common.fit_label(letter_of, "bold", int(initial.size), 34, smallest=13, cut=False)[0],
                        fill=WHITE, outline=common.mix(tint, BLACK, 0.6), width=2)
        for i in range(5):
            x = left + i * (w + gap)
            draw.rounded_rectangle((x, y, x + w, y + ROW_H), radius=6, fill=WHITE, outline=tint, width=3)
            value = str(row[i]) if i < len(row) else "–"
            draw.text((x + w / 2, y + ROW_H / 2 + 1), value, font=num, fill=INK, anchor="mm")
        y += ROW_H + ROW_GAP
    if card.kind == "monster" and card.dot is not None and 0 <= card.dot < 5:
        cx, cy = left + card.dot * (w + gap) + w / 2, y + 8
        draw.ellipse((cx - 10, cy - 10, cx + 10, cy + 10), fill=(220, 20, 20), outline=BLACK, width=2)


@lru_cache(maxsize=16)
def _emblem_on_chip(kind: str, side: int) -> Image.Image:
    """A kind's emblem on a pale disc, small enough for a row label."""
    s = 4
    disc, d = common.supersampled((side, side), s)
    d.ellipse((0, 0, side * s - 1, side * s - 1), fill=(*PARCHMENT, 255), outline=(0, 0, 0, 255), width=s)
    small = common.shrink(disc, (side, side))
    inner = side - 6
    small.alpha_composite(_emblem(kind, (inner, inner), CLASS_COLOURS[kind]), (3, 3))
    return small


def _card_key(card: ActionCard) -> tuple[Any, ...]:
    """A hashable stand-in for a card (its ``party`` is a dict), equal for equal cards."""
    return tuple(tuple(sorted((k, tuple(v)) for k, v in f.items())) if isinstance(f, dict) else f
                 for f in msgspec.structs.astuple(card))


@encoded
def _card_png(card: ActionCard) -> bytes:
    return _card_bytes(_card_image(card))


def _card_image(card: ActionCard) -> Image.Image:
    """The card as an RGBA image (not cached: ``render_card`` caches the PNG)."""
    colour = KIND_COLOURS.get(card.kind, KIND_COLOURS["room"])
    img, draw = _frame(colour, _p("band", BAND_NAMES.get(card.kind, card.kind)), PARCHMENT)
    top = _title(draw, card_title(card.title), 58)
    bottom = CARD_H - 88  # above the Next / End of Room box
    if card.kind in ("monster", "hazard") and card.party:
        table_top = bottom - PARTY_TABLE_H
        _party_rows(img, draw, table_top, card, colour)
        _danger_body(img, draw, card, colour, top + 2, table_top - 8)
    elif card.kind in ("monster", "hazard"):
        boxes_top = bottom - 106
        _boxes(draw, boxes_top, card.needs, card.dot if card.kind == "monster" else None, colour)
        _danger_body(img, draw, card, colour, top + 2, boxes_top - 10)
    elif card.kind == "treasure":
        coin_h = 150
        _text(draw, _(card.text), (34, top, CARD_W - 34, bottom - coin_h - 10), largest=22)
        cy = bottom - coin_h // 2 - 4
        cx = CARD_W // 2 - 70
        _paste_emblem(img, "treasure", (cx - 75, cy - 75, cx + 75, cy + 75), colour)
        value = common.font("serif", 60 if card.gold < 1000 else 46)
        common.outlined(draw, (CARD_W // 2 + 70, cy - 12), str(card.gold), value, fill=GOLD, outline=INK, width=3)
        pieces = _("gold pieces")
        draw.text((CARD_W // 2 + 70, cy + 34), pieces, font=common.fit_label(pieces, "bold", 20, 190,
                                                                             smallest=10, cut=False)[0], fill=INK,
                  anchor="mm")
    else:
        pic = 150
        _paste_emblem(img, art_of(card), (34, top, CARD_W - 34, top + pic), colour)
        _text(draw, _(card.text), (34, top + pic + 8, CARD_W - 34, bottom - 6), largest=23)
    _next_box(draw, card.next)
    return img


def fighter_row_only(card: ActionCard) -> ActionCard:
    """The card as the starter game prints it: the Fighter row alone (the other kinds of Hero are only in the
    Expanded Game)."""
    return msgspec.structs.replace(card, party={}) if card.party else card


def render_card(card: ActionCard | Mapping[str, Any], *, fighter_only: bool = False) -> bytes:
    """PNG (480×680) of one Action card; drawn once per card and cached.  ``fighter_only``: the starter
    game's card, with the Fighter row alone."""
    c = _as_card(card)
    return _card_png(fighter_row_only(c) if fighter_only else c)


# --- a card with what happened on it --------------------------------------------------------------------

#: A box a roll was read from: the row (a kind of Hero: "fighter" on a starter card) and the box (0–4).
MarkedBox = tuple[str, int]
#: One line of the result strip: the words, and whether it went the players' way (None: neither).
ResultLine = tuple[str, bool | None]
RESULT_LINE_H = 36
RESULT_MAX = 6  # lines shown under a card; a longer fight shows its last ones
MARK: common.RGB = (0, 150, 255)  # the ring round the box that applied: a bright blue no card uses
WIN_GREEN: common.RGB = (28, 140, 52)


def box_rect(card: ActionCard, row: str, box: int) -> common.Box:
    """Where box ``box`` of ``row`` lies on the card as drawn (the Fighter row alone, or every kind's)."""
    bottom = CARD_H - 88
    if card.party:
        table_top = bottom - PARTY_TABLE_H
        label_x1, right, gap = 96, CARD_W - 20, 7
        w = (right - (label_x1 + 6) - 4 * gap) / 5
        left = label_x1 + 6
        kinds = list(CLASSES)
        y = table_top + 18 + (kinds.index(row) if row in kinds else 0) * (ROW_H + ROW_GAP)
        x = left + box * (w + gap)
        return round(x), y, round(x + w), y + ROW_H
    w, h, gap = 72, 58, 10
    left = (CARD_W - (5 * w + 4 * gap)) // 2
    top = bottom - 106 + 20
    x = left + box * (w + gap)
    return x, top, x + w, top + h


def compose_card_result(card: ActionCard, boxes: Sequence[MarkedBox], lines: Sequence[ResultLine]) -> Image.Image:
    """The card with each box a roll was read from ringed, and a strip under it telling the rolls."""
    base = _card_image(card)
    draw = common.canvas(base)
    for row, box in boxes:
        if not 0 <= box < 5:
            continue
        x0, y0, x1, y1 = box_rect(card, row, box)
        draw.rounded_rectangle((x0 - 4, y0 - 4, x1 + 4, y1 + 4), radius=10, outline=BLACK, width=8)
        draw.rounded_rectangle((x0 - 3, y0 - 3, x1 + 3, y1 + 3), radius=10, outline=MARK, width=5)
    shown = list(lines)[-RESULT_MAX:]
    cut = len(lines) - len(shown)
    rows = shown if not cut else [(_n("… {n} earlier roll", "… {n} earlier rolls", cut), None), *shown]
    strip_h = 16 + RESULT_LINE_H * len(rows)
    img = Image.new("RGBA", (CARD_W, CARD_H + strip_h), (0, 0, 0, 0))
    img.alpha_composite(base)
    d = common.canvas(img)
    d.rounded_rectangle((0, CARD_H + 4, CARD_W - 1, CARD_H + strip_h - 1), radius=14, fill=INK, outline=BLACK,
                        width=2)
    y = CARD_H + 12
    for text, good in rows:
        ink = PARCHMENT if good is None else ((120, 230, 130) if good else (255, 120, 110))
        line = ("" if good is None else ("✓ " if good else "✗ ")) + text
        face = common.fit_label(line, "bold", 25, CARD_W - 36, smallest=18, cut=False)[0]  # shrink before cutting
        d.text((18, y + RESULT_LINE_H / 2), common.ellipsize(line, face, CARD_W - 36), font=face, fill=ink, anchor="lm")
        y += RESULT_LINE_H
    return img


_RESULT_PNGS: dict[tuple[Any, ...], bytes] = {}


def _result_png(card: ActionCard, boxes: tuple[MarkedBox, ...], lines: tuple[ResultLine, ...]) -> bytes:
    key = (language(), _card_key(card), boxes, lines)
    data = _RESULT_PNGS.get(key)
    if data is None:
        if len(_RESULT_PNGS) >= 64:  # a fight's picture is seen once or twice: keep only the latest few
            _RESULT_PNGS.pop(next(iter(_RESULT_PNGS)))
        data = _RESULT_PNGS[key] = _card_bytes(compose_card_result(card, boxes, lines))
    return data


def render_card_result(card: ActionCard | Mapping[str, Any], *, boxes: Sequence[MarkedBox] = (),
                       lines: Sequence[ResultLine] = (), fighter_only: bool = False) -> bytes:
    """PNG of a Monster or Hazard card as it was fought: the boxes the rolls were read from ringed in blue,
    and under the card (480 wide, taller by the strip) one line per roll, ✓ or ✗."""
    c = _as_card(card)
    c = fighter_row_only(c) if fighter_only else c
    if not boxes and not lines:
        return _card_png(c)
    return _result_png(c, tuple(boxes), tuple(lines))


def card_alt_text(card: ActionCard | Mapping[str, Any]) -> str:
    """The card in words: kind, title, texts, the numbers to roll and what comes next."""
    c = _as_card(card)
    parts = [_("{kind} card: {card}. {text}", kind=kind_name(c.kind) if c.kind in KIND_NAMES else c.kind.title(),
               card=card_title(c.title), text=_(c.text))]
    if c.after:
        parts.append(_("Once overcome: {text}", text=_(c.after)))
    if c.needs:
        boxes = comma(f"{b} {n}" for b, n in zip(BOXES, c.needs, strict=False))
        parts.append(_("Roll needed by a fighter whose red dot is under box {boxes}.", boxes=boxes))
    if c.party:
        rows = [("fighter", c.needs)] + [(k, c.party.get(k, ())) for k in CLASSES[1:]]
        words = semicolon(
            _("{kind} {rolls}", kind=class_name(k), rolls="/".join(str(n) for n in row) or _("none"))
            for k, row in rows)
        parts.append(_("Rolls needed by each kind of hero, boxes A to E: {rolls}.", rolls=words))
    if c.kind == "monster" and c.dot is not None and 0 <= c.dot < len(BOXES):
        parts.append(_("Its red dot is under box {box}.", box=BOXES[c.dot]))
    if c.kind == "treasure":
        parts.append(_("Worth {gold} gold pieces.", gold=c.gold))
    if c.next == "end":
        parts.append(_("End of room."))
    else:
        parts.append(_("Next: {kind}.", kind=_p("kind", NEXT_NAMES[c.next]) if c.next in NEXT_NAMES else c.next))
    return common.cap_alt(reduce(run_on, (p.strip() for p in parts)))


# --- Hero cards ---------------------------------------------------------------------------------------

def _wounded_colour(colour: common.RGB) -> common.RGB:
    """A wounded side's band: the kind's colour, darkened and drawn toward blood red."""
    return common.mix(common.mix(colour, WOUNDED_COLOUR, 0.45), BLACK, 0.25)


@lru_cache(maxsize=8)
def _blood(size: int) -> Image.Image:
    """A blood splash with a few drops, on a transparent ground (the wounded side's mark)."""
    s = 4
    img, d = common.supersampled((size, size), s)
    u = size * s / 10
    dark, red = (90, 0, 0, 255), (*WOUND_RED, 255)
    blobs = ((5, 5, 2.6), (3.4, 4.2, 1.5), (6.6, 3.6, 1.4), (6.2, 6.6, 1.6), (3.8, 6.4, 1.3), (5.2, 2.6, 1.1))
    for fill, grow in ((dark, 0.35), (red, 0.0)):
        for x, y, r in blobs:
            r += grow
            d.ellipse(((x - r) * u, (y - r) * u, (x + r) * u, (y + r) * u), fill=fill)
        for x, y, r in ((1.3, 2.0, 0.55), (8.7, 1.6, 0.45), (8.9, 8.3, 0.6), (1.6, 8.6, 0.4), (5.0, 9.1, 0.35)):
            r += grow * 0.6
            d.ellipse(((x - r) * u, (y - r) * u, (x + r) * u, (y + r) * u), fill=fill)
    return common.shrink(img, (size, size))


def _slashes(draw: ImageDraw.ImageDraw, box: common.Box) -> None:
    """Three claw marks across the emblem."""
    x0, y0, x1, y1 = box
    for i in range(3):
        off = (i - 1) * 34
        a, b = (x0 + 120 + off, y0 + 14 + abs(off) // 3), (x1 - 150 + off, y1 - 14 - abs(off) // 3)
        draw.line((*a, *b), fill=(90, 0, 0), width=12)
        draw.line((*a, *b), fill=WOUND_RED, width=7)


def hero_image(hero: Hero, wounded: bool) -> Image.Image:
    """The Hero card (480×680, RGBA with clear corners) in the current language, drawn afresh (its PNG is
    what is kept)."""
    kind = hero.kind if hero.kind in CLASS_COLOURS else "fighter"
    colour = CLASS_COLOURS[kind]
    name = class_name(kind)
    band = _wounded_colour(colour) if wounded else colour
    label = _p("band", WOUNDED_BANDS[kind]) if wounded else name
    img, draw = _frame(band, label, WOUNDED_PARCHMENT if wounded else PARCHMENT)
    top = _title(draw, hero_name(hero.name), 58)
    pic = 170
    emblem_box = (34, top, CARD_W - 34, top + pic)
    _paste_emblem(img, kind, emblem_box, colour)
    if wounded:
        _slashes(draw, emblem_box)
        img.alpha_composite(_blood(96), (CARD_W - 34 - 104, top - 6))
        img.alpha_composite(_blood(64), (40, top + pic - 70))
        stamp = _("WOUNDED")
        common.outlined(draw, (CARD_W / 2, top + pic / 2), stamp, common.fit_label(stamp, "bold", 44, CARD_W - 90,
                                                                                   smallest=10, cut=False)[0],
                        fill=WOUND_RED, outline=WHITE, width=4)
    boxes_top = CARD_H - 190
    _text(draw, _(hero.wounded_text if wounded else hero.text), (34, top + pic + 8, CARD_W - 34, boxes_top - 30),
          largest=22)
    defence = _("Defence: what a Monster must roll to wound")
    draw.text((CARD_W / 2, boxes_top - 24), defence, font=common.fit_label(defence, "bold", 15, CARD_W - 40,
                                                                           smallest=10, cut=False)[0],
              fill=INK, anchor="ma")
    _boxes(draw, boxes_top, hero.defence, hero.dot, band)
    if 0 <= hero.dot < len(BOXES):
        box = BOXES[hero.dot]
        hint = _("Red dot under {box}: to beat a Monster or Hazard, roll its box {box} number ({kind} row) or more",
                 box=box, kind=name)
        face, lines = fit.fit_lines(hint, "bold", CARD_W - 80, 50, largest=17, smallest=11, spacing=1.1)
        common.draw_lines(draw, lines, (40, CARD_H - 76, CARD_W - 40, CARD_H - 24), face, INK, align="center",
                          valign="middle", spacing=1.1)
    return img


@encoded
def _hero_png(hero: Hero, wounded: bool, lang: str) -> bytes:
    return _card_bytes(hero_image(hero, wounded))


def render_hero(hero: Hero | Fighter | Mapping[str, Any], *, wounded: bool) -> bytes:
    """PNG (480×680) of a Hero card of any kind, unwounded or wounded side; drawn once per hero, side and
    language."""
    return _hero_png(_as_hero(hero), wounded, language())


def hero_alt_text(hero: Hero | Fighter | Mapping[str, Any], *, wounded: bool) -> str:
    """The Hero card in words: kind, name, side, text, defences and where its red dot points."""
    h = _as_hero(hero)
    name = class_name(h.kind) if h.kind in CLASS_COLOURS else _("Hero")
    defence = comma(f"{b} {n}" for b, n in zip(BOXES, h.defence, strict=False))
    dot = BOXES[h.dot] if 0 <= h.dot < len(BOXES) else "?"
    values = {"kind": name, "hero": hero_name(h.name), "text": _(h.wounded_text if wounded else h.text),
              "defence": defence, "box": dot}
    if wounded:
        return common.cap_alt(_("{kind} card, wounded side: {hero}. {text} Defence {defence}; red dot under box "
                                "{box} of the {kind} row.", **values))
    return common.cap_alt(_("{kind} card, unwounded side: {hero}. {text} Defence {defence}; red dot under box {box} of "
                            "the {kind} row.", **values))


def render_fighter(fighter: Fighter | Mapping[str, Any], *, wounded: bool) -> bytes:
    """PNG (480×680) of a Fighter card, coloured side or wounded side; cached (the Fighter kind of Hero card)."""
    return render_hero(_as_fighter(fighter), wounded=wounded)


# --- Spell cards --------------------------------------------------------------------------------------

SPELL_BOX_W, SPELL_BOX_H = 72, 68


def spell_image(spell: Spell) -> Image.Image:
    """The Spell card (480×680, RGBA with clear corners) in the current language, drawn afresh (its PNG is
    what is kept).

    Its boxes A–E sit where a Monster card's boxes do, so the box beside a Monster's red dot says whether
    the spell can work on it: a green tick "Success" or a red cross "No Effect"."""
    return _spell_image(spell, language())


def _spell_image(spell: Spell, lang: str) -> Image.Image:
    img, draw = _frame(SPELL_COLOUR, _p("band", BAND_NAMES["spell"]), PARCHMENT)
    top = _title(draw, spell_name(spell.name), 58)
    pic = 96
    _paste_emblem(img, "spell", (34, top, CARD_W - 34, top + pic), SPELL_COLOUR)
    y = top + pic + 8
    draw.rounded_rectangle((110, y, CARD_W - 110, y + 44), radius=10, fill=GOLD, outline=INK, width=3)
    roll = _("Roll {n} or more", n=spell.roll)
    draw.text((CARD_W / 2, y + 23), roll, font=common.fit_label(roll, "bold", 27, CARD_W - 220 - 16,
                                                                smallest=10, cut=False)[0], fill=INK,
              anchor="mm")
    boxes_top = CARD_H - 142
    y += 54
    split = y + (boxes_top - 30 - y) * 3 // 5
    _text(draw, _(spell.text), (34, y, CARD_W - 34, split), largest=21)
    face, lines = fit.fit_lines(_("No Effect: {text}", text=_(spell.fizzle)), "cond", CARD_W - 76,
                                boxes_top - 34 - split - 6, largest=18, smallest=12, spacing=1.2)
    common.draw_lines(draw, lines, (38, split + 6, CARD_W - 38, boxes_top - 34), face, common.mix(INK, PARCHMENT, 0.2),
                      align="center", valign="middle", spacing=1.2)
    beside = _("Box beside the Monster's red dot:")
    draw.text((CARD_W / 2, boxes_top - 24), beside, font=common.fit_label(beside, "bold", 15, CARD_W - 40,
                                                                          smallest=10, cut=False)[0], fill=INK,
              anchor="ma")
    gap = 10
    left = (CARD_W - (5 * SPELL_BOX_W + 4 * gap)) // 2
    mark = common.font("bold", 30)
    success, no_effect = _("Success"), _("No Effect")
    for i, letter in enumerate(BOXES):
        x = left + i * (SPELL_BOX_W + gap)
        works = i < len(spell.works) and spell.works[i]
        tint = SUCCESS_GREEN if works else WOUND_RED
        draw.text((x + SPELL_BOX_W / 2, boxes_top), letter, font=common.font("bold", 15), fill=INK, anchor="ma")
        b = (x, boxes_top + 20, x + SPELL_BOX_W, boxes_top + 20 + SPELL_BOX_H)
        draw.rounded_rectangle(b, radius=8, fill=WHITE if works else (250, 228, 226), outline=tint, width=4)
        draw.text((x + SPELL_BOX_W / 2, b[1] + 24), "✓" if works else "✗", font=mark, fill=tint, anchor="mm")
        said = success if works else no_effect
        draw.text((x + SPELL_BOX_W / 2, b[3] - 14), said,
                  font=common.fit_label(said, "bold", 12, SPELL_BOX_W - 8, smallest=9, cut=False)[0], fill=INK,
                  anchor="mm")
    return img


@encoded
def _spell_png(spell: Spell, lang: str) -> bytes:
    return _card_bytes(spell_image(spell))


def render_spell(spell: Spell | Mapping[str, Any]) -> bytes:
    """PNG (480×680) of a Spell card; drawn once per spell and language, and cached."""
    return _spell_png(_as_spell(spell), language())


def spell_alt_text(spell: Spell | Mapping[str, Any]) -> str:
    """The Spell card in words: name, the roll it needs, what it does, and the boxes it has no effect on."""
    sp = _as_spell(spell)
    works = [b for b, ok in zip(BOXES, sp.works, strict=False) if ok]
    immune = [b for b, ok in zip(BOXES, sp.works, strict=False) if not ok]
    boxes = _("Success against a Monster whose red dot is under box {boxes}",
              boxes=comma(works) or _("none"))
    if immune:
        boxes = _("{success}; No Effect under box {boxes}", success=boxes, boxes=comma(immune))
    return common.cap_alt(_("Spell card: {spell}, roll {n} or more. {text} {boxes}. If it has no effect: {fizzle}",
                            spell=spell_name(sp.name), n=sp.roll, text=_(sp.text), boxes=boxes, fizzle=_(sp.fizzle)))


def fighter_alt_text(fighter: Fighter | Mapping[str, Any], *, wounded: bool) -> str:
    f = _as_fighter(fighter)
    defence = comma(f"{b} {n}" for b, n in zip(BOXES, f.defence, strict=False))
    dot = BOXES[f.dot] if 0 <= f.dot < len(BOXES) else "?"
    values = {"hero": hero_name(f.name), "text": _(f.wounded_text if wounded else f.text), "defence": defence,
              "box": dot}
    if wounded:
        return common.cap_alt(
            _("Fighter card, wounded side: {hero}. {text} Defence {defence}; red dot under box {box}.", **values))
    return common.cap_alt(_("Fighter card, unwounded side: {hero}. {text} Defence {defence}; red dot under box {box}.",
                            **values))
