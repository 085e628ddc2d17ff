"""Champion of the Empire: a hero's character sheet (tracks, items, shrine tablet, information) and its alt text.

Input: one hero of the typed view (``HeroView``: its tracks, items, the shrines visited, the region cards left
and the information needed).  Only public numbers are drawn; the lair is never shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
from PIL import Image

from render.cache import encoded
from render.champion import glyphs
from render.champion.cards import ITEM_COLOUR, LOSS, PARCHMENT_DARK, _blank, _item_marks, _stat_glyph
from render.champion.texts import hero, hero_name, item, item_name
from render.common import (
    RGB,
    canvas,
    cap_alt,
    ellipsize,
    fit_label,
    fit_text,
    font,
    mix,
    png_bytes,
    text_length,
    token_colours,
)
from rules.champion import content
from rules.champion.i18n import _, _p, comma, language, semicolon
from rules.champion.view import HeroView

SHEET_W, SHEET_H = 960, 700
INK: RGB = (36, 26, 16)
WHITE: RGB = (255, 255, 255)
MAX_MARK: RGB = (236, 180, 30)  # the yellow-based marker: the maximum
NOW_MARK: RGB = (250, 250, 250)  # the white-based marker: the current value
FRAME: RGB = (112, 30, 30)
SLOTS = 4
INFO_NEEDED = 6
TRACK_TOP = 15

Hero = Mapping[str, Any]  # a HeroView as a mapping (the drawing reads it field by field)


def _shrines() -> list[tuple[str, str]]:
    """(province id, shrine name) of the map's secret shrines, in map order."""
    try:
        return [(p.id, _p("shrine", p.shrine)) for p in content.map_file().province if p.shrine]
    except FileNotFoundError:
        return []


def _int(h: Hero, key: str, default: int = 0) -> int:
    try:
        return int(h.get(key, default))
    except (TypeError, ValueError):
        return default


def _track(img: Image.Image, x0: int, y: int, stat: str, label: str, now: int, top_value: int,
           best: int | None, label_w: int = 178, right: int = 0) -> None:
    """A track of sixteen numbered stones ending at ``top_value`` (at least 15): the current value's stone
    filled, the maximum (if any) marked with a gold ring; stones above the maximum are dimmed.  The label has
    a column ``label_w`` wide; the stones close up to end before ``right`` (when given)."""
    draw = canvas(img)
    img.alpha_composite(_stat_glyph(stat, 30), (x0, y - 15))
    lface, label = fit_label(label, "bold", 18, label_w - 38 - 12, smallest=9)
    draw.text((x0 + 38, y), label, font=lface, fill=INK, anchor="lm")
    sx = x0 + label_w
    step = min(44, (right - 20 - sx) // TRACK_TOP) if right else 44
    face = font("bold", 17)
    first = max(0, top_value - TRACK_TOP)  # sixteen stones: a developed hero's track slides up to show the top
    for i, n in enumerate(range(first, top_value + 1)):
        cx = sx + i * step
        beyond = best is not None and n > best
        fill = mix(PARCHMENT_DARK, (255, 255, 255), 0.5) if beyond else PARCHMENT_DARK
        r = 15
        if best is not None and n == best:
            draw.ellipse((cx - 20, y - 20, cx + 20, y + 20), fill=MAX_MARK, outline=INK, width=2)
        if n == now:
            draw.ellipse((cx - r - 1, y - r - 1, cx + r + 1, y + r + 1), fill=LOSS, outline=INK, width=3)
            draw.text((cx, y), str(n), font=face, fill=WHITE, anchor="mm")
        else:
            draw.ellipse((cx - r, y - r, cx + r, y + r), fill=fill, outline=mix(INK, fill, 0.5 if beyond else 0),
                         width=1)
            draw.text((cx, y), str(n), font=face, fill=mix(INK, fill, 0.55) if beyond else INK, anchor="mm")


def _slot(img: Image.Image, box: tuple[int, int, int, int], item_id: str | None, starting: bool) -> None:
    draw = canvas(img)
    x0, y0, x1, y1 = box
    if not item_id:
        draw.rounded_rectangle(box, radius=8, outline=mix(INK, PARCHMENT_DARK, 0.5), width=2)
        face, empty = fit_label(_("empty slot"), "sans", 15, x1 - x0 - 16, smallest=9)
        draw.text(((x0 + x1) / 2, (y0 + y1) / 2), empty, font=face, fill=mix(INK, PARCHMENT_DARK, 0.4), anchor="mm")
        return
    draw.rounded_rectangle(box, radius=8, fill=mix(ITEM_COLOUR, WHITE, 0.85), outline=ITEM_COLOUR, width=3)
    found = item(item_id)
    name = item_name(item_id)
    draw.text((x0 + 12, y0 + 10), ellipsize(name, font("bold", 19), x1 - x0 - 24), font=font("bold", 19), fill=INK)
    marks = _item_marks(found) if found else []
    if found and found.starting:
        marks.insert(0, _("starting weapon"))
    text = semicolon(marks)
    face, lines = fit_text(text, "sans", x1 - x0 - 24, y1 - y0 - 44, largest=15, smallest=12, spacing=1.1)
    yy = y0 + 38
    for line in lines:
        draw.text((x0 + 12, yy), line, font=face, fill=INK)
        yy += round(face.size * 1.25)
    del starting


def _tablet(img: Image.Image, box: tuple[int, int, int, int], visited: set[str]) -> None:
    """The stone tablet of the five secret shrines, each ticked once visited."""
    draw = canvas(img)
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=(206, 200, 186), outline=(90, 84, 74), width=3)
    tface, title = fit_label(_("Secret shrines"), "serif", 19, x1 - x0 - 16, smallest=9)
    draw.text(((x0 + x1) / 2, y0 + 10), title, font=tface, fill=INK, anchor="ma")
    shrines = _shrines()
    y = float(y0 + 40)
    step = (y1 - y - 8) / max(1, len(shrines))
    for pid, name in shrines:
        done = pid in visited
        img.alpha_composite(glyphs.shrine(22), (x0 + 12, round(y)))
        sface, shown = fit_label(name, "bold", 16, x1 - 34 - (x0 + 42) - 6, smallest=9)
        draw.text((x0 + 42, y + 11), shown, font=sface, fill=INK, anchor="lm")
        bx = x1 - 34
        draw.rectangle((bx, y + 1, bx + 20, y + 21), fill=WHITE, outline=INK, width=2)
        if done:
            draw.line((bx + 3, y + 11, bx + 9, y + 18, bx + 19, y - 2), fill=(30, 120, 40), width=4)
        y += step


@encoded
def _sheet_png(key: tuple[Any, ...]) -> bytes:
    h: dict[str, Any] = dict(key[0])
    side_name: str = key[1]
    img = _blank((SHEET_W, SHEET_H), FRAME, _("Character sheet")).copy()
    draw = canvas(img)
    left, right = 44, SHEET_W - 44
    hid = str(h.get("hero") or "")
    info = hero(hid)
    name = hero_name(hid)
    colour = str(h.get("colour", ""))
    fill, ink = token_colours(colour)
    draw.ellipse((left, 62, left + 50, 112), fill=fill, outline=INK, width=3)
    draw.text((left + 25, 88), str(h.get("letter") or colour[:1] or "?")[:1].upper(), font=font("bold", 28),
              fill=ink, anchor="mm")
    nface, name = fit_label(name, "serif", 36, 560, smallest=9)
    draw.text((left + 64, 58), name, font=nface, fill=INK)
    sub = " · ".join(x for x in (_(info.title) if info else "",
                                 _("{side} side", side=_p("hero", side_name)) if side_name else "",
                                 _("played by {player}", player=h['player']) if h.get("player") else "") if x)
    draw.text((left + 66, 102), ellipsize(sub, font("bold", 17), 560), font=font("bold", 17),
              fill=mix(INK, (255, 255, 255), 0.3))
    # information: n of 6 as eyes, and the region cards still in hand
    n_info = _int(h, "info")
    needed = _int(h, "info_needed") or INFO_NEEDED  # five in the shorter version
    ix = right - needed * 34
    iface, label = fit_label(_("Information"), "bold", 16, needed * 34, smallest=9)
    draw.text((right, 58), label, font=iface, fill=INK, anchor="ra")
    for k in range(needed):
        eye = glyphs.eye(30)
        if k >= n_info:
            eye = eye.copy()
            eye.putalpha(eye.getchannel("A").point(lambda v: v * 28 // 100))
        img.alpha_composite(eye, (ix + k * 34, 80))
    regions = h.get("regions_left")
    counted = (_("{info} of {needed} · {regions} region cards left", info=n_info, needed=needed, regions=regions)
               if regions is not None else _("{info} of {needed}", info=n_info, needed=needed))
    cface, counted = fit_label(counted, "bold", 15, 300, smallest=9)
    draw.text((right, 114), counted, font=cface, fill=INK, anchor="ra")
    # tracks
    y = 168
    xp = _int(h, "xp")
    tracks = [("xp", _("Experience"), xp, max(TRACK_TOP, xp), None),
              ("combat", _p("track", "Combat"), _int(h, "combat"), max(TRACK_TOP, _int(h, "max_combat")),
               _int(h, "max_combat")),
              ("initiative", _("Initiative"), _int(h, "initiative"), max(TRACK_TOP, _int(h, "initiative")), None),
              ("life", _("Life"), _int(h, "life"), max(TRACK_TOP, _int(h, "max_life")), _int(h, "max_life")),
              ("gold", _("Gold"), _int(h, "gold"), max(TRACK_TOP, _int(h, "gold")), None)]
    # the label column as wide as the longest label needs (the Hungarian "Kezdeményezés"), within reason
    label_w = max(178, min(230, 38 + 26 + max(round(text_length(t[1], font("bold", 18))) for t in tracks)))
    for stat, label, now, top_value, best in tracks:
        _track(img, left, y, stat, label, now, top_value, best, label_w=label_w, right=right)
        y += 50
    face = font("sans", 14)
    face, legend = fit_label(_("Red stone: current value.  Gold ring: the maximum."), "sans", 14, right - left,
                             smallest=9)
    draw.text((left, y - 12), legend, font=face, fill=mix(INK, (255, 255, 255), 0.35))
    # items (four slots) and the shrine tablet
    items = [str(i) for i in h.get("items") or ()]
    top = y + 14
    slot_w, slot_h = 300, 92
    starting = set(info.weapons) if info else set()
    for k in range(SLOTS):
        sx = left + (k % 2) * (slot_w + 14)
        sy = top + (k // 2) * (slot_h + 12)
        iid = items[k] if k < len(items) else None
        _slot(img, (sx, sy, sx + slot_w, sy + slot_h), iid, iid in starting)
    if len(items) > SLOTS:
        draw.text((left, top + 2 * (slot_h + 12)), _("+ {n} more", n=len(items) - SLOTS), font=font("bold", 15),
                  fill=LOSS)
    _tablet(img, (left + 2 * slot_w + 40, top, right, top + 2 * slot_h + 12), set(key[2]))
    if h.get("fate"):
        fate = "%+d" % int(h["fate"])  # noqa: UP031
        draw.text((right, SHEET_H - 36), _("Fate marker: {fate}", fate=fate), font=font("bold", 15), fill=INK,
                  anchor="rb")
    return png_bytes(img.quantize(256, method=Image.Quantize.FASTOCTREE), compress_level=6)


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple | set):
        return tuple(_freeze(v) for v in value)
    return value


def _fields(hero: HeroView) -> dict[str, Any]:
    return msgspec.structs.asdict(hero)


def render_sheet(hero_view: HeroView, *, side_name: str | None = None) -> bytes:
    """PNG (960×700) of a hero's character sheet: name, people and side, the five tracks with current and
    maximum markers, four item slots, the shrine tablet and the information gathered; cached per content."""
    fields = _fields(hero_view)
    public = {k: v for k, v in fields.items() if k not in ("shrines", "to_act", "side", "kept", "monster")}
    shrines = tuple(sorted(hero_view.shrines))
    side = hero_view.side or "" if side_name is None else side_name
    return _sheet_png((_freeze(public), side, shrines, language()))


def sheet_alt_text(hero_view: HeroView, *, side_name: str | None = None) -> str:
    h = _fields(hero_view)
    side_name = hero_view.side or "" if side_name is None else side_name
    hid = str(h.get("hero") or "")
    info = hero(hid)
    who = hero_name(hid) + (f", {_(info.title)}" if info else "") + (
        _(" ({side} side)", side=_p("hero", side_name)) if side_name else "")
    items = comma(item_name(str(i)) for i in h.get("items") or ()) or _("no items")
    visited = {str(s) for s in h.get("shrines") or ()}
    names = [name for pid, name in _shrines() if pid in visited]
    shrine_words = _("shrines visited: {shrines}", shrines=comma(names)) if names else _("no shrine visited yet")
    text = (_("Character sheet of {who}", who=who) +
            (_(", played by {player}", player=h['player']) if h.get("player") else "") +
            _(". Experience {xp}, combat {combat} of {max_combat}, initiative {initiative}, life {life} of {max_life}, "
              "gold {gold}. Items: {items}. Information {info} of {needed}; {shrines}.", xp=_int(h, 'xp'),
              combat=_int(h, 'combat'), max_combat=_int(h, 'max_combat'), initiative=_int(h, 'initiative'),
              life=_int(h, 'life'), max_life=_int(h, 'max_life'), gold=_int(h, 'gold'), items=items,
              info=_int(h, 'info'), needed=_int(h, 'info_needed') or INFO_NEEDED, shrines=shrine_words))
    return cap_alt(text)
