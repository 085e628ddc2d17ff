"""Champion of the Empire: small vector pictures drawn with Pillow (province icons, map symbols, card marks).

Each glyph is drawn four times larger on a transparent canvas and shrunk, so its curves are smooth, and is
cached per name and size.  Coordinates inside a drawing are in units of a tenth of the glyph's side,
measured from its centre (``pt(x, y)`` a point, ``bx(...)`` a box), as in ``render/legend/cards.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Concatenate, ParamSpec, cast

from PIL import Image, ImageDraw

from render.common import RGB, mix, shrink, supersampled
from rules.champion.i18n import N_

INK: RGB = (40, 28, 18)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
GOLD: RGB = (236, 180, 30)
STEEL: RGB = (206, 212, 222)
WOOD: RGB = (150, 92, 44)
DARK_WOOD: RGB = (96, 56, 24)
TERRACOTTA: RGB = (204, 102, 52)
STRAW: RGB = (226, 184, 96)
PAPYRUS: RGB = (244, 228, 178)
FLAME: RGB = (248, 128, 16)
FLAME_CORE: RGB = (255, 214, 64)
FOAM: RGB = (255, 250, 236)
PEWTER: RGB = (170, 150, 110)
LAUREL: RGB = (64, 140, 52)
BONE: RGB = (238, 232, 214)
BLOOD: RGB = (196, 24, 32)
SEA_INK: RGB = (24, 64, 120)
MARBLE: RGB = (250, 248, 240)
RED_ROOF: RGB = (188, 52, 40)

#: The story deck colours: easy green, medium amber, hard red (each deck also has its own icons).
DECK_COLOURS: dict[str, RGB] = {"easy": (52, 132, 60), "medium": (214, 138, 0), "hard": (186, 30, 36)}

Point = tuple[float, float]
Pen = Callable[[float, float], Point]
BoxFn = Callable[[float, float, float, float], tuple[float, float, float, float]]
P = ParamSpec("P")


def _canvas(size: int) -> tuple[Image.Image, ImageDraw.ImageDraw, Pen, BoxFn, float]:
    s = 4
    img, d = supersampled((size, size), s)
    c = size * s / 2
    u = size * s / 10

    def pt(x: float, y: float) -> Point:
        return c + x * u, c + y * u

    def bx(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return c + x0 * u, c + y0 * u, c + x1 * u, c + y1 * u

    return img, d, pt, bx, u


def _w(u: float, k: float) -> int:
    return max(1, round(u * k))


def _symbol(draw: Callable[Concatenate[ImageDraw.ImageDraw, Pen, BoxFn, float, P], None]
            ) -> Callable[Concatenate[int, P], Image.Image]:
    """A map symbol from its drawing (on the canvas of ``_canvas``): drawn at a size, shrunk, and kept per size
    and colour."""

    def symbol(size: int, *args: P.args, **kwargs: P.kwargs) -> Image.Image:
        img, d, pt, bx, u = _canvas(size)
        draw(d, pt, bx, u, *args, **kwargs)
        return shrink(img, (size, size))

    # lru_cache's wrapper takes any hashable arguments: the symbol's own signature is the one to check calls by
    return cast("Callable[Concatenate[int, P], Image.Image]", wraps(draw)(lru_cache(maxsize=16)(symbol)))


# --- the eight province icons ----------------------------------------------------------------------

def _jug(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A beer tankard with a handle and a head of foam."""
    line = _w(u, 0.45)
    d.rounded_rectangle(bx(1.2, -1.6, 4.4, 2.8), radius=1.4 * u, outline=INK, width=_w(u, 1.3))
    d.rounded_rectangle(bx(1.2, -1.6, 4.4, 2.8), radius=1.4 * u, outline=PEWTER, width=_w(u, 0.6))
    d.rounded_rectangle(bx(-3.4, -2.6, 2.2, 4.4), radius=0.6 * u, fill=WOOD, outline=INK, width=line)
    for y in (-1.0, 2.8):
        d.rectangle(bx(-3.4, y - 0.35, 2.2, y + 0.35), fill=PEWTER, outline=INK, width=_w(u, 0.2))
    for x0, y0, r in ((-2.6, -3.0, 1.3), (-0.6, -3.6, 1.5), (1.4, -3.0, 1.3)):
        d.ellipse(bx(x0 - r, y0 - r, x0 + r, y0 + r), fill=FOAM, outline=INK, width=_w(u, 0.3))
    d.rectangle(bx(-3.0, -3.0, 1.8, -2.2), fill=FOAM)


def _amphora(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A two-handled amphora with a pointed foot."""
    line = _w(u, 0.45)
    for sx in (-1, 1):
        d.arc(bx(sx * 0.6 - 1.6 if sx < 0 else 0.0, -3.9, sx * 0.6 + 1.6 if sx > 0 else 0.0, -0.6),
              90 if sx < 0 else 270, 270 if sx < 0 else 90, fill=INK, width=_w(u, 0.75))
    body = [pt(-0.8, -4.6), pt(0.8, -4.6), pt(0.7, -2.8), pt(2.6, -1.4), pt(2.8, 0.2), pt(2.2, 2.2),
            pt(0.9, 3.8), pt(0.35, 4.8), pt(-0.35, 4.8), pt(-0.9, 3.8), pt(-2.2, 2.2), pt(-2.8, 0.2),
            pt(-2.6, -1.4), pt(-0.7, -2.8)]
    d.polygon(body, fill=TERRACOTTA, outline=INK, width=line)
    d.line((*pt(-2.55, -0.5), *pt(2.55, -0.5)), fill=INK, width=_w(u, 0.35))
    d.line((*pt(-2.4, 0.9), *pt(2.4, 0.9)), fill=INK, width=_w(u, 0.35))
    d.rectangle(bx(-1.0, -4.9, 1.0, -4.3), fill=TERRACOTTA, outline=INK, width=_w(u, 0.3))


def _basket(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A woven basket with a handle, fruit showing at the rim."""
    d.arc(bx(-3.2, -4.6, 3.2, 2.4), 180, 360, fill=INK, width=_w(u, 1.1))
    d.arc(bx(-3.2, -4.6, 3.2, 2.4), 180, 360, fill=DARK_WOOD, width=_w(u, 0.55))
    for ox, colour in ((-1.6, (200, 40, 40)), (0.2, (120, 170, 40)), (1.8, (150, 60, 150))):
        d.ellipse(bx(ox - 1.2, -2.0, ox + 1.2, 0.4), fill=colour, outline=INK, width=_w(u, 0.3))
    body = [pt(-4.4, -0.6), pt(4.4, -0.6), pt(3.3, 4.4), pt(-3.3, 4.4)]
    d.polygon(body, fill=STRAW, outline=INK, width=_w(u, 0.45))
    weave = mix(STRAW, DARK_WOOD, 0.6)
    for y in (0.9, 2.3, 3.5):
        d.line((*pt(-4.1 + (y + 0.6) * 0.2, y), *pt(4.1 - (y + 0.6) * 0.2, y)), fill=weave, width=_w(u, 0.3))
    for x in (-2.0, 0.0, 2.0):
        d.line((*pt(x * 1.15, -0.4), *pt(x * 0.85, 4.2)), fill=weave, width=_w(u, 0.3))
    d.rectangle(bx(-4.6, -1.0, 4.6, -0.2), fill=DARK_WOOD, outline=INK, width=_w(u, 0.25))


def _campfire(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """Crossed logs under a tall flame."""
    for sx in (-1, 1):
        d.line((*pt(sx * -4.0, 4.2), *pt(sx * 3.6, 1.8)), fill=INK, width=_w(u, 1.6))
        d.line((*pt(sx * -3.8, 4.1), *pt(sx * 3.4, 1.9)), fill=WOOD, width=_w(u, 1.0))
    flame = [pt(0, -4.8), pt(1.6, -2.2), pt(2.9, 0.0), pt(2.6, 2.0), pt(1.2, 3.1), pt(-1.2, 3.1),
             pt(-2.6, 2.0), pt(-2.9, 0.0), pt(-1.9, -1.6), pt(-1.2, -0.6)]
    d.polygon(flame, fill=FLAME, outline=INK, width=_w(u, 0.4))
    core = [pt(0.2, -1.6), pt(1.4, 0.6), pt(1.2, 2.2), pt(-1.2, 2.2), pt(-1.4, 0.8), pt(-0.6, 0.9)]
    d.polygon(core, fill=FLAME_CORE)


def _scroll(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """An open papyrus scroll with its two rolled ends and lines of writing."""
    line = _w(u, 0.4)
    d.rectangle(bx(-3.2, -3.0, 3.2, 3.0), fill=PAPYRUS, outline=INK, width=line)
    for x in (-3.6, 3.6):
        d.rounded_rectangle(bx(x - 1.0, -4.2, x + 1.0, 4.2), radius=0.9 * u, fill=mix(PAPYRUS, WOOD, 0.35),
                            outline=INK, width=line)
        d.ellipse(bx(x - 0.55, -4.0, x + 0.55, -3.1), fill=DARK_WOOD)
    for y, w in ((-1.8, 2.2), (-0.6, 2.0), (0.6, 2.3), (1.8, 1.4)):
        d.line((*pt(-w, y), *pt(w, y)), fill=mix(INK, PAPYRUS, 0.25), width=_w(u, 0.35))


def _bow(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A drawn bow with an arrow nocked across it."""
    d.line((*pt(-1.0, -4.6), *pt(-1.0, 4.6)), fill=INK, width=_w(u, 0.3))
    d.arc(bx(-5.6, -4.8, 3.0, 4.8), 285, 75, fill=INK, width=_w(u, 1.3))
    d.arc(bx(-5.6, -4.8, 3.0, 4.8), 287, 73, fill=WOOD, width=_w(u, 0.7))
    d.line((*pt(-4.6, 0), *pt(3.6, 0)), fill=INK, width=_w(u, 0.55))
    d.polygon([pt(4.9, 0), pt(3.1, -1.1), pt(3.1, 1.1)], fill=STEEL, outline=INK, width=_w(u, 0.3))
    for dy in (-1, 1):
        d.polygon([pt(-4.8, 0), pt(-3.6, 0), pt(-2.8, dy * 1.3), pt(-4.0, dy * 1.3)], fill=BLOOD,
                  outline=INK, width=_w(u, 0.2))


def _sword(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A gladius, point up: blade, guard, grip and pommel."""
    blade = [pt(0, -4.9), pt(1.1, -3.6), pt(1.0, 1.4), pt(-1.0, 1.4), pt(-1.1, -3.6)]
    d.polygon(blade, fill=STEEL, outline=INK, width=_w(u, 0.4))
    d.line((*pt(0, -3.6), *pt(0, 1.0)), fill=mix(STEEL, INK, 0.4), width=_w(u, 0.25))
    d.rounded_rectangle(bx(-2.6, 1.3, 2.6, 2.3), radius=0.4 * u, fill=GOLD, outline=INK, width=_w(u, 0.3))
    d.rectangle(bx(-0.6, 2.3, 0.6, 4.0), fill=DARK_WOOD, outline=INK, width=_w(u, 0.3))
    d.ellipse(bx(-1.1, 3.6, 1.1, 5.0), fill=GOLD, outline=INK, width=_w(u, 0.3))


def _chest(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A treasure chest with a domed lid, iron bands and a gold lock."""
    line = _w(u, 0.45)
    d.chord(bx(-4.4, -4.2, 4.4, 0.8), 180, 360, fill=WOOD, outline=INK, width=line)
    d.rectangle(bx(-4.4, -1.7, 4.4, 4.2), fill=WOOD, outline=INK, width=line)
    d.line((*pt(-4.4, -0.6), *pt(4.4, -0.6)), fill=INK, width=_w(u, 0.45))
    for x in (-2.9, 2.9):
        d.rectangle(bx(x - 0.45, -3.3, x + 0.45, 4.2), fill=mix(GOLD, INK, 0.35))
    d.rectangle(bx(-0.9, -1.2, 0.9, 1.1), fill=GOLD, outline=INK, width=_w(u, 0.3))
    d.ellipse(bx(-0.25, -0.4, 0.25, 0.3), fill=INK)


ICON_DRAWERS: dict[str, Callable[[ImageDraw.ImageDraw, Pen, BoxFn, float], None]] = {
    "jug": _jug, "amphora": _amphora, "basket": _basket, "campfire": _campfire,
    "scroll": _scroll, "bow": _bow, "sword": _sword, "chest": _chest,
}

#: How each icon is called in the key and the alt texts.
ICON_NAMES: dict[str, str] = {
    "jug": N_("beer jug"), "amphora": N_("amphora"), "basket": N_("basket"), "campfire": N_("campfire"),
    "scroll": N_("papyrus scroll"), "bow": N_("bow and arrow"), "sword": N_("sword"), "chest": N_("treasure chest"),
}


@lru_cache(maxsize=64)
def icon(name: str, size: int) -> Image.Image:
    """A province icon on a transparent ground (an unknown name draws a question mark in a circle)."""
    img, d, pt, bx, u = _canvas(size)
    drawer = ICON_DRAWERS.get(name)
    if drawer is None:
        d.ellipse(bx(-4.5, -4.5, 4.5, 4.5), fill=WHITE, outline=INK, width=_w(u, 0.6))
        d.text(pt(0, 0.3), "?", fill=INK, anchor="mm", font_size=6 * u)
    else:
        drawer(d, pt, bx, u)
    return shrink(img, (size, size))


@lru_cache(maxsize=64)
def badge(name: str, deck: str, size: int) -> Image.Image:
    """A province icon on a round parchment badge rimmed in its story deck's colour."""
    img, d, _pt, bx, _u = _canvas(size)
    rim = DECK_COLOURS.get(deck, INK)
    d.ellipse(bx(-5, -5, 5, 5), fill=BLACK)
    d.ellipse(bx(-4.6, -4.6, 4.6, 4.6), fill=rim)
    d.ellipse(bx(-3.7, -3.7, 3.7, 3.7), fill=(252, 246, 228))
    out = shrink(img, (size, size))
    inner = round(size * 0.66)
    glyph = icon(name, inner)
    out.alpha_composite(glyph, ((size - inner) // 2, (size - inner) // 2))
    return out


# --- map symbols -----------------------------------------------------------------------------------

@_symbol
def city(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A walled city: a crenellated tower between two lower walls, red roofs."""
    line = _w(u, 0.5)
    d.rectangle(bx(-4.6, -0.4, 4.6, 4.4), fill=MARBLE, outline=INK, width=line)
    for x in (-4.6, -2.4, 2.4):
        d.rectangle(bx(x, -1.4, x + 1.2 + (0.9 if x > 0 else 0), -0.4), fill=MARBLE, outline=INK, width=line)
    d.rectangle(bx(-1.6, -4.2, 1.6, 4.4), fill=MARBLE, outline=INK, width=line)
    for x in (-1.6, 0.4):
        d.rectangle(bx(x, -5.0, x + 1.2, -4.2), fill=MARBLE, outline=INK, width=line)
    d.chord(bx(-0.8, 1.6, 0.8, 4.6), 180, 360, fill=INK)
    d.rectangle(bx(-0.8, 3.1, 0.8, 4.4), fill=INK)
    d.rectangle(bx(-0.5, -2.8, 0.5, -1.4), fill=RED_ROOF)


@_symbol
def shrine(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A small temple front: pediment, four columns and steps, gold-rimmed."""
    line = _w(u, 0.45)
    d.polygon([pt(0, -4.8), pt(4.8, -1.8), pt(-4.8, -1.8)], fill=GOLD, outline=INK, width=line)
    d.rectangle(bx(-4.2, -1.8, 4.2, -1.0), fill=MARBLE, outline=INK, width=line)
    for x in (-3.4, -1.15, 1.15, 3.4):
        d.rectangle(bx(x - 0.6, -1.0, x + 0.6, 3.2), fill=MARBLE, outline=INK, width=_w(u, 0.35))
    d.rectangle(bx(-4.6, 3.2, 4.6, 4.0), fill=MARBLE, outline=INK, width=line)
    d.rectangle(bx(-5.0, 4.0, 5.0, 4.9), fill=MARBLE, outline=INK, width=line)


@_symbol
def anchor(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float, colour: RGB = SEA_INK) -> None:
    """A ship's anchor on a white disc: a voyage port."""
    d.ellipse(bx(-5, -5, 5, 5), fill=WHITE, outline=colour, width=_w(u, 0.5))
    w = _w(u, 0.8)
    d.line((*pt(0, -2.6), *pt(0, 3.6)), fill=colour, width=w)
    d.line((*pt(-1.6, -1.6), *pt(1.6, -1.6)), fill=colour, width=w)
    d.ellipse(bx(-0.9, -4.0, 0.9, -2.2), outline=colour, width=_w(u, 0.6))
    d.arc(bx(-3.0, -0.4, 3.0, 3.8), 20, 160, fill=colour, width=w)
    for sx in (-1, 1):
        d.polygon([pt(sx * 3.3, 1.0), pt(sx * 2.0, 1.3), pt(sx * 3.1, 2.4)], fill=colour)


# --- card and sheet marks --------------------------------------------------------------------------

@_symbol
def laurel(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float, colour: RGB = LAUREL) -> None:
    """A laurel wreath, open at the top: a good fate."""
    r = 3.3
    d.arc(bx(-r, -r, r, r), 125, 55 + 360, fill=INK, width=_w(u, 0.35))
    for sx in (-1, 1):
        for k in range(6):
            a = math.radians(100 + k * 24) if sx < 0 else math.radians(80 - k * 24)
            cx, cy = r * math.cos(a), r * math.sin(a)
            tx, ty = (-math.sin(a), math.cos(a)) if sx < 0 else (math.sin(a), -math.cos(a))
            for side in (-1, 1):  # a pair of leaves, one each side of the stem
                nx, ny = -ty * side, tx * side
                base = (cx, cy)
                tip = (cx + tx * 1.0 + nx * 1.5, cy + ty * 1.0 + ny * 1.5)
                mid = ((base[0] + tip[0]) / 2, (base[1] + tip[1]) / 2)
                wx, wy = (tip[1] - base[1]) * 0.3, -(tip[0] - base[0]) * 0.3
                leaf = [pt(*base), pt(mid[0] + wx, mid[1] + wy), pt(*tip), pt(mid[0] - wx, mid[1] - wy)]
                d.polygon(leaf, fill=colour, outline=INK, width=_w(u, 0.2))
    d.ellipse(bx(-0.7, 3.3, 0.7, 4.7), fill=BLOOD, outline=INK, width=_w(u, 0.2))


@_symbol
def skull(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A skull: an ill fate."""
    line = _w(u, 0.45)
    d.ellipse(bx(-4.0, -4.6, 4.0, 2.6), fill=BONE, outline=INK, width=line)
    d.rounded_rectangle(bx(-2.4, 0.8, 2.4, 4.4), radius=0.8 * u, fill=BONE, outline=INK, width=line)
    d.rectangle(bx(-2.0, 0.4, 2.0, 1.4), fill=BONE)
    for sx in (-1, 1):
        d.ellipse(bx(sx * 1.7 - 1.2, -1.6, sx * 1.7 + 1.2, 0.8), fill=INK)
    d.polygon([pt(0, 0.9), pt(-0.6, 2.0), pt(0.6, 2.0)], fill=INK)
    for x in (-1.2, 0, 1.2):
        d.line((*pt(x, 2.9), *pt(x, 4.3)), fill=INK, width=_w(u, 0.3))


@_symbol
def heart(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float, colour: RGB = BLOOD) -> None:
    """A heart: life."""
    d.ellipse(bx(-4.6, -4.0, 0.4, 1.0), fill=INK)
    d.ellipse(bx(-0.4, -4.0, 4.6, 1.0), fill=INK)
    d.polygon([pt(-4.4, -0.6), pt(4.4, -0.6), pt(0, 4.8)], fill=INK)
    d.ellipse(bx(-3.9, -3.3, -0.2, 0.4), fill=colour)
    d.ellipse(bx(0.2, -3.3, 3.9, 0.4), fill=colour)
    d.polygon([pt(-3.7, -0.8), pt(3.7, -0.8), pt(0, 3.7)], fill=colour)


@_symbol
def swords(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """Two crossed swords: combat value."""
    for sx in (-1, 1):
        tip, hilt = pt(sx * 4.2, -4.2), pt(-sx * 2.6, 2.6)
        d.line((*tip, *hilt), fill=INK, width=_w(u, 1.3))
        d.line((*tip, *hilt), fill=STEEL, width=_w(u, 0.7))
        g = (-sx * 2.4, 2.4)
        d.line((*pt(g[0] - 1.2, g[1] - sx * 1.2), *pt(g[0] + 1.2, g[1] + sx * 1.2)), fill=INK, width=_w(u, 0.9))
        d.line((*pt(g[0] - 1.1, g[1] - sx * 1.1), *pt(g[0] + 1.1, g[1] + sx * 1.1)), fill=GOLD, width=_w(u, 0.5))
        d.line((*hilt, *pt(-sx * 4.2, 4.2)), fill=DARK_WOOD, width=_w(u, 0.8))


@_symbol
def bolt(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A lightning bolt: initiative (who strikes first)."""
    shape = [pt(1.4, -5.0), pt(-3.2, 0.6), pt(-0.2, 0.6), pt(-1.6, 5.0), pt(3.4, -1.2), pt(0.4, -1.2),
             pt(2.4, -5.0)]
    d.polygon(shape, fill=GOLD, outline=INK, width=_w(u, 0.45))


@_symbol
def coin(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A gold coin: gold."""
    d.ellipse(bx(-4.8, -4.8, 4.8, 4.8), fill=INK)
    d.ellipse(bx(-4.2, -4.2, 4.2, 4.2), fill=GOLD)
    d.ellipse(bx(-3.1, -3.1, 3.1, 3.1), outline=mix(GOLD, INK, 0.45), width=_w(u, 0.4))
    d.polygon([pt(-1.2, 1.8), pt(-1.2, -1.0), pt(0, -2.0), pt(1.2, -1.0), pt(1.2, 1.8)],
              fill=mix(GOLD, INK, 0.45))


@_symbol
def star(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float, colour: RGB = GOLD) -> None:
    """A five-pointed star: experience."""
    points = []
    for k in range(10):
        r = 4.8 if k % 2 == 0 else 2.0
        a = math.radians(-90 + k * 36)
        points.append(pt(r * math.cos(a), r * math.sin(a) + 0.3))
    d.polygon(points, fill=colour, outline=INK, width=_w(u, 0.45))


@_symbol
def eye(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """An open eye: a piece of information."""
    d.chord(bx(-4.8, -4.4, 4.8, 4.0), 200, 340, fill=WHITE, outline=INK, width=_w(u, 0.5))
    d.chord(bx(-4.8, -4.0, 4.8, 4.4), 20, 160, fill=WHITE, outline=INK, width=_w(u, 0.5))
    d.rectangle(bx(-4.0, -0.5, 4.0, 0.5), fill=WHITE)
    d.ellipse(bx(-2.0, -2.0, 2.0, 2.0), fill=SEA_INK)
    d.ellipse(bx(-0.9, -0.9, 0.9, 0.9), fill=INK)


@_symbol
def shield(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A round shield with a boss and a rim."""
    d.ellipse(bx(-4.8, -4.8, 4.8, 4.8), fill=INK)
    d.ellipse(bx(-4.3, -4.3, 4.3, 4.3), fill=RED_ROOF)
    d.ellipse(bx(-3.4, -3.4, 3.4, 3.4), outline=GOLD, width=_w(u, 0.5))
    for a in range(0, 360, 45):
        r = math.radians(a)
        d.line((*pt(1.4 * math.cos(r), 1.4 * math.sin(r)), *pt(3.0 * math.cos(r), 3.0 * math.sin(r))), fill=GOLD,
               width=_w(u, 0.4))
    d.ellipse(bx(-1.3, -1.3, 1.3, 1.3), fill=STEEL, outline=INK, width=_w(u, 0.35))


@_symbol
def helmet(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A legionary's helmet with cheek guards and a crest: armour."""
    line = _w(u, 0.45)
    d.rounded_rectangle(bx(-0.9, -5.0, 0.9, -2.6), radius=0.5 * u, fill=RED_ROOF, outline=INK, width=line)
    d.chord(bx(-4.0, -3.4, 4.0, 4.4), 180, 360, fill=STEEL, outline=INK, width=line)
    d.rectangle(bx(-4.6, 0.2, 4.6, 1.2), fill=STEEL, outline=INK, width=line)
    for sx in (-1, 1):
        d.polygon([pt(sx * 3.6, 1.2), pt(sx * 1.6, 1.2), pt(sx * 1.9, 4.4), pt(sx * 3.3, 4.0)], fill=STEEL,
                  outline=INK, width=line)
    d.rectangle(bx(-4.6, 1.2, 4.6, 1.6), fill=GOLD)


@_symbol
def horse(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A horse's head and neck with its mane: a mount."""
    head = [pt(-0.6, -4.6), pt(0.6, -3.6), pt(3.6, -0.4), pt(4.2, 1.0), pt(3.2, 1.8), pt(1.6, 0.8), pt(0.6, 0.6),
            pt(0.4, 4.8), pt(-3.6, 4.8), pt(-2.8, 0.0), pt(-1.8, -3.2), pt(-1.2, -4.8)]
    d.polygon(head, fill=WOOD, outline=INK, width=_w(u, 0.45))
    mane = [pt(-1.2, -4.8), pt(-2.8, -2.6), pt(-3.6, 0.4), pt(-4.4, 4.8), pt(-3.6, 4.8), pt(-2.8, 0.0),
            pt(-1.8, -3.2)]
    d.polygon(mane, fill=DARK_WOOD, outline=INK, width=_w(u, 0.3))
    d.ellipse(bx(0.6, -2.0, 1.4, -1.2), fill=INK)
    d.line((*pt(1.2, 0.6), *pt(3.8, 0.9)), fill=INK, width=_w(u, 0.3))


@_symbol
def spear(d: ImageDraw.ImageDraw, pt: Pen, bx: BoxFn, u: float) -> None:
    """A javelin, point up and to the right: a thrown weapon."""
    d.line((*pt(-4.4, 4.4), *pt(2.2, -2.2)), fill=INK, width=_w(u, 1.0))
    d.line((*pt(-4.3, 4.3), *pt(2.1, -2.1)), fill=WOOD, width=_w(u, 0.55))
    d.line((*pt(1.0, -1.0), *pt(3.0, -3.0)), fill=INK, width=_w(u, 0.6))
    d.polygon([pt(4.9, -4.9), pt(2.2, -3.4), pt(3.4, -2.2)], fill=STEEL, outline=INK, width=_w(u, 0.3))


ALL_ICONS: tuple[str, ...] = tuple(ICON_DRAWERS)
