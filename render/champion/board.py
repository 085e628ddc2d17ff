"""Champion of the Empire: the picture posted in the thread — the map, and under it, drawn large enough to
read at chat size (~500 px wide), each hero's panel and an inset zoomed on the acting hero's surroundings.

The panel gives each player's name, colour and token letter, hero, life, XP, gold, information and weapon;
the player to act stands out by a gold band, a ▶ arrow and the words TO ACT (never colour alone).  At the end
of a game the panel is the standings: the champion first, then by information.  The inset crops the composed
map (the provinces in reach are already washed light there) around the acting hero, scales it up and rings
the icon of every province in reach in gold; its frame names whose surroundings it shows."""

from __future__ import annotations

from PIL import Image
from PIL.ImageFont import FreeTypeFont

from render.champion.basemap import (
    ACT_BAND,
    BADGE,
    BAR,
    BAR_TEXT,
    BLACK,
    DIM,
    INK,
    PANEL,
    PANEL_RIM,
    TITLE_H,
    TURN_RING,
    WHITE,
    _palette,
    labels,
    world,
)
from render.champion.map import compose_map
from render.champion.texts import hero_name, item_name
from render.common import (
    canvas,
    capitals,
    ellipsize,
    fit_label,
    font,
    mark,
    png_bytes,
    text_length,
    to_palette,
    token_colours,
)
from rules.champion.i18n import _, _p, semicolon
from rules.champion.view import ChampionView, HeroView

STRIP_H = 440  # the band under the map
INSET_W, INSET_H = 600, STRIP_H - 28
ZOOM = 1.9
ROW_GAP = 8


def standings(view: ChampionView) -> list[HeroView]:
    """The heroes as the panel lists them: seating order in play, the champion then information at the end."""
    if view.phase != "over":
        return list(view.heroes)
    winner = view.winner if view.winner is not None else -1
    return sorted(view.heroes, key=lambda h: (h.seat != winner, -h.info, -h.xp, h.seat))


def _stats(h: HeroView, needed: int) -> str:
    if not h.hero:
        return _("still choosing a hero")
    if h.side is None:  # another player's pick while heroes are chosen
        return _("hero chosen; the rest when all are ready")
    weapon = f" · {item_name(h.weapon)}" if h.weapon else ""
    return _("Life {life}/{max_life} · XP {xp} · Gold {gold} · Info {info}/{needed}{weapon}", life=h.life,
             max_life=h.max_life, xp=h.xp, gold=h.gold, info=h.info, needed=needed, weapon=weapon)


def _token(img: Image.Image, centre: tuple[int, int], h: HeroView, diameter: int) -> None:
    fill, ink = token_colours(h.colour)
    draw = canvas(img)
    x, y = centre
    r = diameter // 2
    draw.ellipse((x - r - 3, y - r - 3, x + r + 3, y + r + 3), fill=BLACK)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=WHITE)
    draw.ellipse((x - r + 4, y - r + 4, x + r - 4, y + r - 4), fill=fill)
    draw.text((x, y + 1), (h.letter or h.colour[:1] or "?")[:1].upper(), font=font("bold", diameter // 2 + 4),
              fill=ink, anchor="mm")


def _panel(img: Image.Image, view: ChampionView, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    draw = canvas(img)
    draw.rectangle(box, fill=PANEL, outline=PANEL_RIM, width=4)
    rows = standings(view)
    over = view.phase == "over"
    head = _("Standings") if over else _("Heroes")
    hface, head = fit_label(capitals(head), "bold", 26, x1 - x0 - 36, smallest=9)
    draw.text((x0 + 18, y0 + 10), head, font=hface, fill=PANEL_RIM)
    top = y0 + 46
    height = (y1 - 10 - top) // max(4, len(rows))
    big = font("bold", min(40, height // 2 - 2))
    small = font("bold", min(32, height // 2 - 8))
    for rank, h in enumerate(rows, start=1):
        ry = top + (rank - 1) * height
        row = (x0 + 10, ry, x1 - 10, ry + height - ROW_GAP)
        acting = h.to_act and not over
        champion = over and view.winner == h.seat
        if champion:
            mark(draw, "winner", row, h.player)
        if acting or champion:
            draw.rectangle(row, fill=ACT_BAND, outline=BLACK, width=3)
            draw.rectangle((row[0], row[1], row[0] + 12, row[3]), fill=TURN_RING, outline=BLACK, width=2)
        mid = (row[1] + row[3]) // 2
        marker = "▶" if acting else (f"{rank}." if over else "")
        draw.text((row[0] + 22, mid), marker, font=font("bold", 38), fill=INK, anchor="lm")
        _token(img, (row[0] + 96, mid), h, min(64, height - 16))
        tx = row[0] + 140
        tag = _("TO ACT") if acting else (_("CHAMPION") if champion else "")
        tf, tag = fit_label(tag, "bold", 28, (row[2] - tx) / 3, smallest=9) if tag else (font("bold", 28), "")
        tag_w = int(text_length(tag, tf)) + 24 if tag else 0
        colour = _p("colour", h.colour)
        name = (_("{player} · {hero} ({colour})", player=h.player, hero=hero_name(h.hero), colour=colour) if h.hero
                else _("{player} ({colour})", player=h.player, colour=colour))
        nface, name = _shrunk(name, big, row[2] - tx - tag_w - 16)
        draw.text((tx, mid - 4), name, font=nface, fill=INK, anchor="ls")
        sface, stats = _shrunk(_stats(h, view.info_needed), small, row[2] - tx - 12)
        draw.text((tx, mid + 6), stats, font=sface, fill=INK if h.hero else DIM, anchor="lt")
        if tag:
            bx1 = row[2] - 10
            bx0 = bx1 - tag_w
            draw.rectangle((bx0, row[1] + 8, bx1, row[1] + 44), fill=BAR, outline=BLACK, width=2)
            draw.text(((bx0 + bx1) // 2, row[1] + 27), tag, font=tf, fill=BAR_TEXT, anchor="mm")


def _focus(view: ChampionView) -> HeroView | None:
    """Whose surroundings the inset shows: the hero to act (the current hero otherwise)."""
    if view.phase in ("setup", "over"):
        return None
    seat = view.current
    hero = view.heroes[seat] if seat is not None and 0 <= seat < len(view.heroes) else None
    return hero if hero is not None and hero.province else None


def _inset(img: Image.Image, rgb: Image.Image, view: ChampionView, hero: HeroView,
           box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    draw = canvas(img)
    labs = labels(world())
    lab = labs.get(hero.province or "")
    if lab is None:
        return
    cx, cy = lab.point[0], lab.point[1] + TITLE_H
    w, h = round((x1 - x0 - 8) / ZOOM), round((y1 - y0 - 44) / ZOOM)
    left = min(max(0, round(cx - w / 2)), rgb.width - w)
    top = min(max(TITLE_H, round(cy - h / 2)), rgb.height - h)
    crop = rgb.crop((left, top, left + w, top + h)).resize((x1 - x0 - 8, y1 - y0 - 44), Image.Resampling.LANCZOS)
    draw.rectangle(box, fill=BAR, outline=PANEL_RIM, width=4)
    img.paste(crop, (x0 + 4, y0 + 40))
    sx, sy = (x1 - x0 - 8) / w, (y1 - y0 - 44) / h
    ring = round(BADGE / 2 * sx) + 7
    for pid in view.highlight:  # every legal destination in view: a gold ring around its icon
        target = labs.get(pid)
        if target is None:
            continue
        px = x0 + 4 + (target.point[0] - left) * sx
        py = y0 + 40 + (target.point[1] + TITLE_H - top) * sy
        if x0 + 4 + ring <= px <= x1 - 4 - ring and y0 + 40 + ring <= py <= y1 - 4 - ring:
            draw.ellipse((px - ring - 2, py - ring - 2, px + ring + 2, py + ring + 2), outline=BLACK, width=9)
            draw.ellipse((px - ring, py - ring, px + ring, py + ring), outline=TURN_RING, width=5)
    reach = _(" · ringed: in reach") if view.highlight else ""
    title = _("Around {hero} ({player}){reach}", hero=hero_name(hero.hero or ''), player=hero.player, reach=reach)
    face = font("bold", 21)
    draw.text((x0 + 14, y0 + 20), ellipsize(title, face, x1 - x0 - 28), font=face, fill=BAR_TEXT, anchor="lm")


def compose_board(view: ChampionView, *, title: str = "") -> Image.Image:
    """The map with the heroes' panel and the inset under it, in RGB."""
    rgb, _dirty = compose_map(view, title=title)
    out = Image.new("RGB", (rgb.width, rgb.height + STRIP_H), BAR)
    out.paste(rgb, (0, 0))
    top = rgb.height + 8
    hero = _focus(view)
    right = rgb.width - 10
    if hero is not None:
        _inset(out, rgb, view, hero, (right - INSET_W, top, right, top + INSET_H + 16))
        right -= INSET_W + 12
    _panel(out, view, (10, top, right, top + INSET_H + 16))
    return out


def _shrunk(text: str, face: FreeTypeFont, width: float) -> tuple[FreeTypeFont, str]:
    """``text`` in ``face`` or a size down to three quarters of it, so that it fits ``width`` (longer names and
    words in Greek or Hungarian); shortened with an ellipsis only if it is still too wide."""
    size = round(face.size)
    for s in range(size, round(size * 0.75) - 1, -1):
        f = font("bold", s)
        if text_length(text, f) <= width:
            return f, text
    return f, ellipsize(text, f, width)


def render_board(view: ChampionView, *, title: str = "") -> bytes:
    """PNG of the thread's picture: the map, each hero's numbers (the one to act marked), the inset."""
    img = compose_board(view, title=title)
    return png_bytes(to_palette(img, _palette(world())))  # the map's own palette: its colours exactly


def board_alt_text(view: ChampionView) -> str:
    """The panel's numbers in words (the map's own alt text says who is where)."""
    rows = []
    for rank, h in enumerate(standings(view), start=1):
        lead = f"{rank}. " if view.phase == "over" else (_("to act: ") if h.to_act else "")
        colour = _p("colour", h.colour)
        who = (_("{player} ({colour}, {hero})", player=h.player, colour=colour, hero=hero_name(h.hero)) if h.hero
               else _("{player} ({colour})", player=h.player, colour=colour))
        rows.append(lead + _("{who}: {stats}", who=who, stats=_stats(h, view.info_needed)))
    head = _("Standings") if view.phase == "over" else _("Heroes")
    return _("{head} — {rows}.", head=head, rows=semicolon(rows))
