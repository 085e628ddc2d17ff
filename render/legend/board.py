"""Legend of Heroes: the Dungeons of Legend board, drawn from the game's typed view, and its alt text.

Under the plan a player panel keys each token to its player — name, colour and letter, gold, and what matters
in the mode (the fighter and his wound; solo: wounds of eight; Expanded Game: who leads, who is hurt, the
spell) — with the one to act framed in gold and tagged in words; once the game is over it shows the standings,
richest first, the winner marked.

The dungeon plan is drawn once and kept as PNG (``render.cache.kept``); a snapshot decodes it afresh, pastes
cached room, token and ring sprites onto it, maps it onto a fixed palette and encodes at a low compression
level (encoding is the big cost).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from render.cache import kept
from render.common import (
    OTHER_TOKEN,
    RGB,
    TOKENS,
    Box,
    build_palette,
    canvas,
    cap_alt,
    disc,
    draw_lines,
    ellipsize,
    fit_label,
    font,
    mark,
    outlined,
    png_bytes,
    shrink,
    supersampled,
    text_length,
    to_palette,
    token,
    token_colours,
)
from render.legend import text as fit
from rules.i18n import language
from rules.legend.content import Dungeon, Room, dungeon, spell_index
from rules.legend.i18n import N_, _, _p, card_title, colour_name, comma, hero_name, semicolon, spell_name
from rules.legend.state import SOLO_WOUND_LIMIT as SOLO_WOUNDS
from rules.legend.view import FighterView, LegendView, RoomView

# --- board geometry and colours -----------------------------------------------------------------------

CELL = 44  # pixels per square of the plan
MARGIN = 8
TITLE_H = 50
CAPTION_H = 52
PANEL_H = 200  # the player panel, between the plan and the caption

ROCK: RGB = (46, 41, 38)
ROOM: RGB = (236, 217, 174)
ROOM_LINE: RGB = (222, 200, 152)
ROOM_EXPLORED: RGB = (205, 203, 196)
ROOM_EXPLORED_LINE: RGB = (190, 188, 180)
WALL: RGB = (92, 58, 30)
ROOM_TEXT: RGB = (58, 36, 18)
CORRIDOR: RGB = (245, 197, 44)
CORRIDOR_LINE: RGB = (204, 156, 22)
EDGE: RGB = (28, 22, 14)
DOORWAY: RGB = (208, 40, 40)
DOORWAY_EDGE: RGB = (105, 12, 12)
ENTRANCE: RGB = (118, 42, 186)
WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
BAR: RGB = (26, 28, 33)
BAR_TEXT: RGB = (244, 244, 244)
BAR_DIM: RGB = (176, 180, 188)
CARD_BACK: RGB = (30, 56, 104)
CARD_RIM: RGB = (232, 192, 84)
DANGER: RGB = (255, 122, 26)
TURN_RING: RGB = (255, 214, 0)
PANEL_BG: RGB = (40, 43, 51)
PANEL_ACTIVE: RGB = (66, 58, 22)  # the cell of the one to act: dark gold, under a gold frame
GOLD_TEXT: RGB = (255, 206, 64)
HURT_TEXT: RGB = (255, 104, 104)
PIP_EMPTY: RGB = (96, 100, 110)

#: Token fill and letter colour for each player colour; the letter is a second cue beyond colour.


@cache
def _palette() -> Image.Image:
    """The board's fixed palette: every flat colour exactly, plus blends for anti-aliased edges."""
    fills = [c for c, _ in TOKENS.values()] + [OTHER_TOKEN[0]]
    solids = [ROCK, ROOM, ROOM_LINE, ROOM_EXPLORED, ROOM_EXPLORED_LINE, WALL, ROOM_TEXT, CORRIDOR,
              CORRIDOR_LINE, EDGE, DOORWAY, DOORWAY_EDGE, ENTRANCE, WHITE, BLACK, BAR, BAR_TEXT, BAR_DIM,
              CARD_BACK, CARD_RIM, DANGER, TURN_RING, PANEL_BG, PANEL_ACTIVE, GOLD_TEXT, HURT_TEXT, PIP_EMPTY,
              WOUND_RED, *fills]
    grounds = [ROCK, ROOM, ROOM_EXPLORED, CORRIDOR, DOORWAY, BAR]
    ramps: list[tuple[RGB, RGB]] = [(WHITE, BLACK), (WHITE, DOORWAY), (BLACK, DOORWAY), (WHITE, ENTRANCE),
                                    (BLACK, ENTRANCE), (ROOM_TEXT, ROOM), (ROOM_TEXT, ROOM_EXPLORED),
                                    (BAR_TEXT, BAR), (BAR_DIM, BAR), (WHITE, CARD_BACK), (DANGER, CARD_BACK),
                                    (CARD_RIM, CARD_BACK), (WHITE, EDGE), (TURN_RING, BLACK)]
    ramps += [(g, edge) for g in grounds for edge in (BLACK, WHITE, ENTRANCE, CARD_RIM, TURN_RING)]
    ramps += [(f, c) for f in fills for c in (WHITE, BLACK)]
    for ground in (PANEL_BG, PANEL_ACTIVE):  # the player panel's text and pips
        ramps += [(ink, ground) for ink in (BAR_TEXT, BAR_DIM, GOLD_TEXT, HURT_TEXT, TURN_RING, PIP_EMPTY, BLACK)]
        ramps += [(f, ground) for f in fills]
    return build_palette(solids, ramps, steps=3)


# --- the plan, in pixels ------------------------------------------------------------------------------

def _size(plan: Dungeon) -> tuple[int, int]:
    return plan.grid.cols * CELL + 2 * MARGIN, _panel_top(plan) + PANEL_H + CAPTION_H


def _panel_top(plan: Dungeon) -> int:
    return TITLE_H + MARGIN + plan.grid.rows * CELL + MARGIN


def _cell(x: int, y: int) -> Box:
    """Pixel box of a square (right and bottom exclusive)."""
    x0, y0 = MARGIN + x * CELL, TITLE_H + MARGIN + y * CELL
    return x0, y0, x0 + CELL, y0 + CELL


def _centre(x: int, y: int) -> tuple[int, int]:
    x0, y0, _, _ = _cell(x, y)
    return x0 + CELL // 2, y0 + CELL // 2


def _room_box(room: Room) -> Box:
    x0, y0, _, _ = _cell(room.x, room.y)
    return x0, y0, x0 + room.w * CELL, y0 + room.h * CELL


def _rect(draw: ImageDraw.ImageDraw, box: Box, fill: RGB | None = None, outline: RGB | None = None,
          width: int = 1) -> None:
    """``box`` with exclusive right/bottom edges, as Pillow wants them inclusive."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill, outline=outline, width=width)


# --- sprites (drawn large and shrunk, so circles are smooth) -----------------------------------------

def _ring_sprite(diameter: int, bands: Sequence[tuple[RGB, float]]) -> Image.Image:
    """A hollow ring of coloured bands (outside in), transparent in the middle."""
    s = 4
    img, draw = supersampled((diameter, diameter), s)
    inset = 0.0
    for colour, width in bands:
        d = diameter * s
        draw.ellipse((inset, inset, d - inset - 1, d - inset - 1), outline=colour, width=round(width * s))
        inset += width * s
    return shrink(img, (diameter, diameter))


@cache
def _entrance_sprite(label: str) -> Image.Image:
    img = disc(CELL + 4, ENTRANCE, [(BLACK, 2), (WHITE, 2.5)])
    outlined(canvas(img), (img.width / 2, img.height / 2), label, font("bold", 17), width=2)
    return img


TOKEN_D = 42
WOUND_RED: RGB = (200, 0, 0)


@cache
def _token_sprite(colour: str, letter: str, wounded: bool, to_move: bool) -> Image.Image:
    """A player's token: coloured disc, white and black rims, the letter; a gold ring on the player to move;
    a blood-drop badge, half outside the disc, when wounded."""
    ring = (TURN_RING, [(BLACK, 2), (TURN_RING, 4), (BLACK, 1.5)]) if to_move else None
    img = token(colour, letter, diameter=TOKEN_D, margin=7 if to_move else 4, letter_size=25, ring=ring)
    size = img.width
    if wounded:
        s = 4  # drawn large, then shrunk, so the drop's curve is smooth
        big, bd = supersampled((22, 24), s)
        bd.ellipse((3 * s, 9 * s, 19 * s, 23 * s), fill=BLACK)
        bd.polygon([(11 * s, 0), (3.6 * s, 14 * s), (18.4 * s, 14 * s)], fill=BLACK)
        bd.ellipse((5 * s, 11 * s, 17 * s, 21 * s), fill=WOUND_RED)
        bd.polygon([(11 * s, 3.5 * s), (5.4 * s, 15 * s), (16.6 * s, 15 * s)], fill=WOUND_RED)
        badge = shrink(big, (22, 24))
        img.alpha_composite(badge, (size - 22, 0))
    return img


@cache
def _highlight_sprite() -> Image.Image:
    """The ring around a doorway the player to move may go to: white between black, clear on any ground."""
    d = int(CELL * 1.5)
    return _ring_sprite(d, [(BLACK, 2), (WHITE, 5), (BLACK, 2)])


@cache
def _card_mark(symbol: str) -> Image.Image:
    """A small face-down card: "?" for an unexplored room, "!" for a danger waiting in a part-explored one."""
    w, h, s = 38, 52, 4
    img, draw = supersampled((w, h), s)
    draw.rounded_rectangle((0, 0, w * s - 1, h * s - 1), radius=6 * s, fill=BLACK)
    draw.rounded_rectangle((2 * s, 2 * s, (w - 2) * s - 1, (h - 2) * s - 1), radius=5 * s, fill=CARD_RIM)
    draw.rounded_rectangle((5 * s, 5 * s, (w - 5) * s - 1, (h - 5) * s - 1), radius=3 * s, fill=CARD_BACK)
    img = shrink(img, (w, h))
    ink = DANGER if symbol == "!" else WHITE
    outlined(canvas(img), (w / 2, h / 2 + 1), symbol, font("bold", 30), fill=ink, width=2)
    return img


# --- the static layer ---------------------------------------------------------------------------------

Point = tuple[int, int]
Fighters = list[FighterView]


def _draw_room(img: Image.Image, room: Room, status: str, name: str | None, tokens: int) -> list[Point]:
    """Draw one room onto ``img`` (board coordinates); returns the centres for ``tokens`` fighter tokens."""
    plan = dungeon()
    draw = canvas(img)
    x0, y0, x1, y1 = _room_box(room)
    explored = status == "explored"
    floor, line = (ROOM_EXPLORED, ROOM_EXPLORED_LINE) if explored else (ROOM, ROOM_LINE)
    _rect(draw, (x0, y0, x1, y1), fill=floor)
    for i in range(1, room.w):
        draw.line((x0 + i * CELL, y0, x0 + i * CELL, y1 - 1), fill=line)
    for j in range(1, room.h):
        draw.line((x0, y0 + j * CELL, x1 - 1, y0 + j * CELL), fill=line)
    _rect(draw, (x0, y0, x1, y1), outline=WALL, width=5)
    for d in plan.doorway:  # the opening in the wall where each doorway meets the room
        if d.room != room.id:
            continue
        cx0, cy0, cx1, cy1 = _cell(d.x, d.y)
        gap = {"n": (cx0 + 8, y0, cx1 - 8, y0 + 5), "s": (cx0 + 8, y1 - 5, cx1 - 8, y1),
               "w": (x0, cy0 + 8, x0 + 5, cy1 - 8), "e": (x1 - 5, cy0 + 8, x1, cy1 - 8)}[d.side or "n"]
        _rect(draw, gap, fill=DOORWAY)
    draw.text((x0 + 9, y0 + 7), room.id, font=font("bold", 19), fill=ROOM_TEXT)

    slots, mark, text, box = room_layout(room, status, name, tokens)
    if mark is not None:
        symbol, at = mark
        sprite = _card_mark(symbol)
        img.paste(sprite, at, sprite)
    if text:
        face, lines = room_name_lines(text, box)
        draw_lines(draw, lines, box, face, ROOM_TEXT, align="center", valign="middle", spacing=1.1)
    return slots


def room_name_lines(text: str, box: Box) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """A room's name in its box: as large as fits, never broken inside a word."""
    return fit.fit_words(text, "bold", box[2] - box[0], box[3] - box[1], largest=21, smallest=13, spacing=1.1)


def room_layout(room: Room, status: str, name: str | None,
                tokens: int) -> tuple[list[Point], tuple[str, Point] | None, str | None, Box]:
    """Inside the walls, under the id: where the ``tokens`` fighters stand, the card mark ("?" or "!") and
    its corner, the words shown (the name, "explored", or none) and the box they go in."""
    x0, y0, x1, y1 = _room_box(room)
    explored = status == "explored"
    top, bottom = y0 + 32, y1 - 8
    left, right = x0 + 11, x1 - 11
    slots: list[Point] = []
    if tokens:
        row_y = bottom - TOKEN_D // 2 - 2
        step = min(TOKEN_D + 16, (right - left) // tokens)
        first = (left + right) // 2 - step * (tokens - 1) // 2
        slots = [(first + i * step, row_y) for i in range(tokens)]
        bottom = row_y - TOKEN_D // 2 - 8
    symbol = {"unexplored": "?", "partly": "!"}.get(status)
    text = name if name else (_("explored") if explored else None)
    mark: tuple[str, Point] | None = None
    if symbol:
        sw, sh = _card_mark(symbol).size
        space = bottom - top
        wide = room.w >= 4 and text is not None
        if text is None or (not wide and space < sh + 24):
            mark = symbol, ((left + right - sw) // 2, top + max(0, (space - sh) // 2))
            text = None
        elif wide:
            mark = symbol, (left + 2, top + max(0, (space - sh) // 2))
            left += sw + 10
        else:
            mark = symbol, ((left + right - sw) // 2, top)
            top += sh + 4
    return slots, mark, text, (left, top, right, bottom)


_drawing = threading.local()  # the plan as drawn, while one board is composed in this thread


def _pristine(lang: str) -> Image.Image:
    """The unexplored plan, decoded at most once per board composed (only a room patch not kept needs it)."""
    have: tuple[str, Image.Image] | None = getattr(_drawing, "base", None)
    if have is None or have[0] != lang:
        have = _drawing.base = (lang, _base_in(lang))
    return have[1]


@lru_cache(maxsize=16)  # most of one board (a patch is some 100 KB decoded)
def _room_patch(room: Room, status: str, name: str | None, tokens: int,
                lang: str = "en") -> tuple[Image.Image, tuple[Point, ...]]:
    """One room drawn for a status (cut from the base layer), and where its fighters' tokens go."""
    x0, y0, x1, y1 = _room_box(room)
    area = (x0 - 2, y0 - 2, x1 + 2, y1 + 2)
    canvas = _pristine(lang).copy()
    slots = _draw_room(canvas, room, status, name, tokens)
    return canvas.crop(area), tuple(slots)


KEY_ITEMS = (("entrance", N_("entrance")), ("doorway", N_("doorway")), ("corridor", N_("corridor")),
             ("room", N_("room")), ("?", N_("unexplored")), ("!", N_("danger waits")), ("ring", N_("can move to")))
#: The title bar keeps at least this much room for the game's title beside the key.
KEY_TITLE_ROOM = 330


@cache
def _key_layout(lang: str) -> tuple[ImageFont.FreeTypeFont, list[int]]:
    """The key's font and the width of each of its items: 15 px, smaller when a language's words are long."""
    room = _size(dungeon())[0] - 2 * MARGIN - KEY_TITLE_ROOM
    for size in range(15, 10, -1):
        face = font("sans", size)
        widths = [24 + 6 + int(text_length(_(label), face)) + 16 for _kind, label in KEY_ITEMS]
        if sum(widths) <= room:
            break
    return face, widths


def _key_widths() -> list[int]:
    return _key_layout(language())[1]


def _draw_key(img: Image.Image, right: int) -> None:
    """The key to the board, right-aligned in the title bar."""
    draw = canvas(img)
    face, widths = _key_layout(language())
    x = right - sum(widths)
    cy = TITLE_H // 2
    for (kind, label), w in zip(KEY_ITEMS, widths, strict=True):
        sw = (x, cy - 11, x + 22, cy + 11)
        if kind == "entrance":
            spr = disc(24, ENTRANCE, [(WHITE, 2)])
            img.paste(spr, (x - 1, cy - 12), spr)
        elif kind == "doorway":
            _rect(draw, sw, fill=DOORWAY, outline=DOORWAY_EDGE, width=2)
        elif kind == "corridor":
            _rect(draw, sw, fill=CORRIDOR, outline=EDGE, width=2)
        elif kind == "room":
            _rect(draw, sw, fill=ROOM, outline=WALL, width=3)
        elif kind == "ring":
            spr = _ring_sprite(26, [(BLACK, 1.5), (WHITE, 3.5), (BLACK, 1.5)])
            img.paste(spr, (x - 2, cy - 13), spr)
        else:
            mark = shrink(_card_mark(kind), (18, 25))
            img.paste(mark, (x + 2, cy - 12), mark)
        draw.text((x + 30, cy), _(label), font=face, fill=BAR_DIM, anchor="lm")
        x += w


def _base() -> Image.Image:
    """The dungeon plan with every room unexplored, an empty caption bar and the key (in the current
    language): drawn once per language."""
    return _base_in(language())


@kept(palette=lambda lang: _palette())  # mapped onto the palette, decoded afresh at each call (5 MB decoded)
def _base_in(lang: str) -> Image.Image:
    plan = dungeon()
    img = Image.new("RGB", _size(plan), ROCK)
    draw = canvas(img)
    _rect(draw, (0, 0, img.width, TITLE_H), fill=BAR)
    _rect(draw, (0, _panel_top(plan), img.width, img.height), fill=BAR)
    doorways = {(d.x, d.y): d for d in plan.doorway}
    for corridor in plan.corridor:
        cells = set(corridor.cells)
        for x, y in corridor.cells:
            box = _cell(x, y)
            _rect(draw, box, fill=CORRIDOR)
        for x, y in corridor.cells:
            x0, y0, x1, y1 = _cell(x, y)
            sides = {(x, y - 1): (x0, y0, x1 - 1, y0), (x, y + 1): (x0, y1 - 1, x1 - 1, y1 - 1),
                     (x - 1, y): (x0, y0, x0, y1 - 1), (x + 1, y): (x1 - 1, y0, x1 - 1, y1 - 1)}
            for other, line in sides.items():
                if other in cells:
                    draw.line(line, fill=CORRIDOR_LINE, width=1)
                elif other not in doorways:
                    draw.line(line, fill=EDGE, width=3)
    for room in plan.room:
        _draw_room(img, room, "unexplored", None, 0)
    num = font("bold", 25 if len(plan.doorway) < 100 else 18)
    for d in plan.doorway:
        box = _cell(d.x, d.y)
        _rect(draw, box, fill=DOORWAY, outline=DOORWAY_EDGE, width=2)
        outlined(draw, _centre(d.x, d.y), d.id.lstrip("D"), num, width=2)
    for e in plan.entrance:
        sprite = _entrance_sprite(e.id)
        cx, cy = _centre(e.x, e.y)
        img.paste(sprite, (cx - sprite.width // 2, cy - sprite.height // 2), sprite)
    _draw_key(img, img.width - MARGIN)
    return img


# --- a snapshot ---------------------------------------------------------------------------------------

def _paste_centred(img: Image.Image, sprite: Image.Image, centre: tuple[int, int]) -> None:
    img.paste(sprite, (centre[0] - sprite.width // 2, centre[1] - sprite.height // 2), sprite)


def _arrow(draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int], colour: RGB) -> None:
    """A dashed arrow from ``a`` to just short of ``b`` (the last move), rimmed in black."""
    ax, ay = a
    bx, by = b
    length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
    if length < 2 * CELL * 0.6:
        return
    ux, uy = (bx - ax) / length, (by - ay) / length
    start, end = CELL * 0.55, length - CELL * 0.62
    tip = (ax + ux * end, ay + uy * end)
    head = 16.0
    segments: list[tuple[float, float]] = []
    t = start
    while t < end - head:
        segments.append((t, min(t + 14, end - head)))
        t += 22
    for width, fill in ((9, BLACK), (5, colour)):
        for s0, s1 in segments:
            draw.line((ax + ux * s0, ay + uy * s0, ax + ux * s1, ay + uy * s1), fill=fill, width=width)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    wing = (-uy * head * 0.6, ux * head * 0.6)
    points = [tip, (base[0] + wing[0], base[1] + wing[1]), (base[0] - wing[0], base[1] - wing[1])]
    draw.polygon(points, fill=colour, outline=BLACK, width=2)


def _fighters_by_place(view: LegendView) -> tuple[dict[str, Fighters], dict[str, Fighters]]:
    """Fighters grouped by the doorway they stand on, and by the room they are inside."""
    at_door: dict[str, Fighters] = {}
    in_room: dict[str, Fighters] = {}
    for f in view.fighters:
        if f.doorway:
            at_door.setdefault(f.doorway, []).append(f)
        elif f.in_room:
            in_room.setdefault(f.in_room, []).append(f)
    return at_door, in_room


def _token(f: FighterView, to_move: int | None) -> Image.Image:
    letter = f.letter or f.colour[:1] or "?"
    their_turn = to_move is not None and f.seat == to_move
    return _token_sprite(f.colour, letter, f.wounded, their_turn)


def _place_token(img: Image.Image, f: FighterView, to_move: int | None, centre: tuple[int, int]) -> None:
    """A fighter's token pasted at ``centre`` (and noted for the picture check)."""
    _paste_centred(img, _token(f, to_move), centre)
    half = TOKEN_D // 2
    mark(img, "token", (centre[0] - half, centre[1] - half, centre[0] + half, centre[1] + half), f.letter)


def compose_board(view: LegendView, *, title: str = "") -> Image.Image:
    """The board snapshot as an RGB image (``render_board`` encodes it)."""
    try:
        return _compose_board(view, title=title)
    finally:
        _drawing.base = None  # the plan decoded for the room patches is not kept between boards


def _compose_board(view: LegendView, *, title: str = "") -> Image.Image:
    plan = dungeon()
    img = _base()
    draw = canvas(img)
    lang = language()
    doors = {d.id: d for d in plan.doorway}
    rooms = view.rooms
    at_door, in_room = _fighters_by_place(view)
    to_move = view.to_move

    slots: dict[str, tuple[tuple[int, int], ...]] = {}
    for room in plan.room:
        info = rooms.get(room.id, RoomView())
        status, name = info.status, info.name
        n = len(in_room.get(room.id, ()))
        if status == "unexplored" and not n:
            continue  # already so on the base layer
        patch, slots[room.id] = _room_patch(room, status, card_title(str(name)) if name else None, n, lang)
        x0, y0, _x1, _y1 = _room_box(room)
        img.paste(patch, (x0 - 2, y0 - 2))

    last = view.last_move
    if last and last.frm in doors and last.to in doors and last.frm != last.to:
        colour = next((f.colour for f in view.fighters if f.seat == last.seat), "")
        a, b = doors[last.frm], doors[last.to]
        _arrow(draw, _centre(a.x, a.y), _centre(b.x, b.y), token_colours(colour)[0])

    ring = _highlight_sprite()
    highlight = [d for d in view.highlight if d in doors]
    for d in highlight:
        _paste_centred(img, ring, _centre(doors[d].x, doors[d].y))
    for e in plan.entrance:  # keep each entrance circle whole above the rings
        if e.doorway in highlight:
            _paste_centred(img, _entrance_sprite(e.id), _centre(e.x, e.y))

    tag = font("bold", 14)
    for door_id, group in at_door.items():
        if door_id not in doors:
            continue
        cx, cy = _centre(doors[door_id].x, doors[door_id].y)
        for i, f in enumerate(group):  # the rules keep one fighter per doorway; never hide a second one
            _place_token(img, f, to_move, (cx - 4 + 10 * i, cy - 4 - 10 * i))
        # the doorway's number stays readable in a tag at the square's corner
        x1, y1 = cx + CELL // 2 + 2, cy + CELL // 2 + 2
        label = door_id.lstrip("D")
        w = int(tag.getlength(label)) + 6
        draw.rectangle((x1 - w, y1 - 16, x1 - 1, y1 - 1), fill=BLACK, outline=WHITE)
        draw.text((x1 - w / 2 - 0.5, y1 - 8), label, font=tag, fill=WHITE, anchor="mm")
    for room_id, group in in_room.items():
        for f, centre in zip(group, slots.get(room_id, ()), strict=False):  # slots: one per fighter
            _place_token(img, f, to_move, centre)

    _draw_title(img, title or _("Legend of Heroes"))
    _draw_panel(img, view)
    _draw_caption(img, view.caption)
    return img


# --- the player panel ---------------------------------------------------------------------------------

PANEL_TOKEN = 46


@cache
def _panel_token(colour: str, letter: str) -> Image.Image:
    """A player's token for the panel: as on the board, a little larger."""
    fill, ink = token_colours(colour)
    img = disc(PANEL_TOKEN, fill, [(BLACK, 1.5), (WHITE, 2.5), (BLACK, 1)])
    canvas(img).text((PANEL_TOKEN / 2, PANEL_TOKEN / 2 + 1), letter[:1].upper(), font=font("bold", 28), fill=ink,
                     anchor="mm")
    return img


def _ordinal(n: int) -> str:
    if n == 1:
        return _("1st")
    if n == 2:
        return _("2nd")
    if n == 3:
        return _("3rd")
    return _("{n}th", n=n)


def _roles(view: LegendView) -> dict[int, str]:
    """The tag on each player's cell: who acts now and how (or, once over, the winner and the places)."""
    if view.phase == "over":
        ranked = sorted(view.fighters, key=lambda f: -f.gold)
        best = ranked[0].gold if ranked else 0
        places: dict[int, str] = {}
        for f in ranked:
            place = 1 + sum(1 for g in ranked if g.gold > f.gold)
            places[f.seat] = _("WINNER") if f.gold == best else _ordinal(place)
        if len(ranked) == 1:  # solo: nobody to beat, only the gold carried out
            places = {ranked[0].seat: _("FINAL SCORE")}
        return places
    roles: dict[int, str] = {}
    if view.to_move is not None:
        deciding = view.exploring is not None and view.exploring.decision is not None
        if view.phase == "explore":
            roles[view.to_move] = _("CHOOSING") if deciding else _("EXPLORING")
        else:
            roles[view.to_move] = _("TO ENTER") if view.phase == "place" else _("TO MOVE")
    if view.narrator is not None and view.phase == "explore":
        roles.setdefault(view.narrator, _("NARRATING") if view.narrator in view.to_act else _("NARRATOR"))
    return roles


def _pips(draw: ImageDraw.ImageDraw, x: float, cy: float, filled: int, total: int, size: int) -> float:
    """A row of ``total`` small squares, the first ``filled`` in wound red; returns the x after the row."""
    for i in range(total):
        box = (x, cy - size / 2, x + size, cy + size / 2)
        draw.rectangle(box, fill=WOUND_RED if i < filled else PIP_EMPTY, outline=BLACK)
        x += size + 4
    return x


class _Row(NamedTuple):
    """One line of a player's cell: words in a colour, after a row of pips (``wounds`` of ``limit``) if any."""

    text: str
    ink: RGB
    wounds: int | None = None
    limit: int = SOLO_WOUNDS


def _player_rows(view: LegendView, f: FighterView) -> list[_Row]:
    """What a player's cell says under the name and gold (the first row goes beside the gold if it fits)."""
    solo = len(view.fighters) == 1
    rows: list[_Row] = []
    if view.expanded:
        rows.append(_Row(_("{hero} leads", hero=hero_name(f.fighter)), BAR_TEXT) if f.leader else
                    _Row(_("nobody standing"), HURT_TEXT))
        down = sum(1 for h in f.party if h.wounded)
        hurt = _("{n} of 5 hurt", n=down) if down else _("all 5 fit")
        spell = spell_index().get(f.spell or "")
        spelled = _("spell: {spell}", spell=spell_name(spell.name)) if spell else _("no spell")
        wounds = _("wounds {n} of {limit}", n=f.wounds, limit=SOLO_WOUNDS)
        if solo:  # one wide cell: the party's wounds of eight, then the rest on one line
            rows.append(_Row(wounds, HURT_TEXT if f.wounds else BAR_DIM, f.wounds))
            rows.append(_Row(f"{hurt} · {spelled}", HURT_TEXT if down else BAR_DIM))
            return rows
        rows.append(_Row(hurt, HURT_TEXT if down else BAR_DIM))
        rows.append(_Row(spelled, BAR_DIM))
        return rows
    rows.append(_Row(hero_name(f.fighter) or "—", BAR_TEXT))
    if solo:
        rows.append(_Row(_("wounds {n} of {limit}", n=f.wounds, limit=SOLO_WOUNDS), HURT_TEXT if f.wounds else BAR_DIM,
                         f.wounds))
    if f.wounded:
        rows.append(_Row(_("WOUNDED (fit again next turn)"), HURT_TEXT))
    if f.doorway:
        rows.append(_Row(_("at doorway {n}", n=f.doorway.lstrip("D")), BAR_DIM))
    elif f.in_room:
        rows.append(_Row(_("inside room {room}", room=f.in_room), BAR_DIM))
    return rows


def panel_cells(view: LegendView) -> list[tuple[FighterView, tuple[float, float, float, float]]]:
    """Each player's cell of the panel in board pixels, left to right: in seat order, or richest first once
    the game is over."""
    fighters = list(view.fighters)
    if view.phase == "over":
        fighters.sort(key=lambda f: -f.gold)
    n = len(fighters)
    gap = 10
    width, _height = _size(dungeon())
    top = _panel_top(dungeon())
    left, right = MARGIN + 2, width - MARGIN - 2
    cw = min((right - left - gap * (n - 1)) / max(n, 1), 520)
    y0, y1 = top + 8, top + PANEL_H - 6
    return [(f, (left + i * (cw + gap), y0, left + i * (cw + gap) + cw, y1)) for i, f in enumerate(fighters)]


def panel_lit(view: LegendView, f: FighterView) -> bool:
    """Whether the player's cell is framed in gold: they act now, or (once over) they won."""
    if view.phase == "over":
        best = max((g.gold for g in view.fighters), default=0)
        return f.gold == best
    return f.seat in view.to_act


def _draw_panel(img: Image.Image, view: LegendView) -> None:
    """One cell per player: token, name, gold and the mode's numbers; the one to act framed and tagged."""
    draw = canvas(img)
    roles = _roles(view)
    name_face, gold_face = font("bold", 30), font("bold", 32)
    line_face, tag_face = font("bold", 23), font("bold", 22)
    for f, (x0, y0, x1, y1) in panel_cells(view):
        role = roles.get(f.seat)
        lit = panel_lit(view, f)  # the one to act; once over, the winner (or the solo player's score)
        if lit and view.phase == "over":
            mark(draw, "winner", (x0, y0, x1, y1), f.player)
        draw.rounded_rectangle((x0, y0, x1, y1), radius=10, fill=PANEL_ACTIVE if lit else PANEL_BG,
                               outline=TURN_RING if lit else BAR_DIM, width=5 if lit else 1)
        bottom = foot = y1
        fill = token_colours(f.colour)[0]
        draw.rectangle((x0 + 6, y0 + 10, x0 + 13, y1 - 10), fill=fill, outline=BLACK)  # the colour, as a bar
        token = _panel_token(f.colour, f.letter or f.colour[:1] or "?")
        tx, ty = round(x0 + 20), round(y0 + 8)
        img.paste(token, (tx, ty), token)
        text_x = tx + PANEL_TOKEN + 10
        draw.text((text_x, ty + PANEL_TOKEN / 2), ellipsize(f.player or _("Someone"), name_face, x1 - 12 - text_x),
                  font=name_face, fill=WHITE, anchor="lm")
        y = ty + PANEL_TOKEN + 6
        if role is not None:  # the second cue beside the colour: the role in words, on a strip along the foot
            strip = (x0 + 18, bottom - 34, x1 - 8, bottom - 6)
            draw.rectangle(strip, fill=TURN_RING if lit else PIP_EMPTY, outline=BLACK)
            face = fit_label(role, "bold", int(tag_face.size), strip[2] - strip[0] - 8, smallest=12, cut=False)[0]
            draw.text(((strip[0] + strip[2]) / 2, (strip[1] + strip[3]) / 2 + 1), role, font=face, fill=BLACK,
                      anchor="mm")
            foot = strip[1] - 2
        tag_left = x1 - 10
        gold = _("{n} gold", n=f.gold)
        gold = ellipsize(gold, fit_label(gold, "bold", int(gold_face.size), tag_left - 8 - (x0 + 22),
                                         smallest=22, cut=False)[0],
                         tag_left - 8 - (x0 + 22))
        draw.text((x0 + 22, y), gold, font=gold_face, fill=GOLD_TEXT, anchor="la")
        gold_w = text_length(gold, gold_face)
        rows = _player_rows(view, f)
        side = x0 + 22 + gold_w + 16
        if rows and side + text_length(rows[0].text, line_face) <= tag_left - 8:  # beside the gold if it fits
            draw.text((side, y + 8), rows[0].text, font=line_face, fill=rows[0].ink, anchor="la")
            rows = rows[1:]
        y += 38
        for row in rows:
            if y + 22 > foot:
                break
            x = x0 + 22
            if row.wounds is not None:
                x = _pips(draw, x, y + 13, row.wounds, row.limit, 18) + 4
            face = fit_label(row.text, "bold", int(line_face.size), x1 - 12 - x, smallest=14, cut=False)[0]
            draw.text((x, y), ellipsize(row.text, face, x1 - 12 - x), font=face, fill=row.ink, anchor="la")
            y += 28


def _draw_title(img: Image.Image, title: str) -> None:
    draw = canvas(img)
    key_left = img.width - MARGIN - sum(_key_widths())
    face = font("serif", 27)
    text = ellipsize(title, face, key_left - 2 * MARGIN - 12)
    draw.text((MARGIN + 4, TITLE_H // 2), text, font=face, fill=BAR_TEXT, anchor="lm")


def _draw_caption(img: Image.Image, caption: str) -> None:
    if not caption:
        return
    draw = canvas(img)
    top = img.height - CAPTION_H
    box = (MARGIN + 4, top + 3, img.width - MARGIN - 4, img.height - 3)
    face, lines = fit.fit_lines(caption, "bold", box[2] - box[0], box[3] - box[1], largest=27, smallest=16,
                                spacing=1.0)
    draw_lines(draw, lines, box, face, BAR_TEXT, valign="middle", spacing=1.0)


def render_board(view: LegendView, *, title: str = "") -> bytes:
    """PNG of the dungeon for a public view: rooms by status, fighters' tokens, the legal destinations of
    the player to move ringed, the last move as an arrow, a title bar and a caption."""
    return png_bytes(to_palette(compose_board(view, title=title), _palette()), compress_level=1)


# --- alt text -----------------------------------------------------------------------------------------

def _fighter_words(f: FighterView, rooms: Mapping[str, RoomView]) -> str:
    player, colour = f.player or _("Someone"), colour_name(f.colour) if f.colour else "?"
    if f.fighter:
        who = (_("{player} ({colour}, {fighter}, wounded)", player=player, colour=colour, fighter=hero_name(f.fighter))
               if f.wounded else
               _("{player} ({colour}, {fighter})", player=player, colour=colour, fighter=hero_name(f.fighter)))
    else:
        who = (_("{player} ({colour}, wounded)", player=player, colour=colour) if f.wounded else
               _("{player} ({colour})", player=player, colour=colour))
    if f.doorway:
        return _("{who} on doorway {doorway}", who=who, doorway=f.doorway)
    if f.in_room:
        name = rooms.get(f.in_room, RoomView()).name
        if name:
            return _("{who} inside room {room}, the {name}", who=who, room=f.in_room, name=card_title(name))
        return _("{who} inside room {room}", who=who, room=f.in_room)
    return _("{who} not yet in the dungeon", who=who)


def board_alt_text(view: LegendView) -> str:
    """One or two sentences: who is where, how many rooms are explored, whose turn it is."""
    rooms = view.rooms
    where = semicolon(_fighter_words(f, rooms) for f in view.fighters) or _("No fighters yet")
    explored = sum(1 for r in rooms.values() if r.status == "explored")
    text = _("Dungeon board: {where}. {explored} of {total} rooms explored", where=where, explored=explored,
             total=len(rooms) or len(dungeon().room))
    partly = [_("{room} ({card})", room=rid, card=card_title(r.waiting)) if r.waiting else rid
              for rid, r in rooms.items() if r.status == "partly"]
    if partly:
        text += _("; a danger waits in {rooms}", rooms=comma(partly))
    if view.fighters:
        ranked = sorted(view.fighters, key=lambda f: -f.gold) if view.phase == "over" else view.fighters
        scores = comma(f"{f.player or _('someone')} {f.gold}" for f in ranked)
        text += _("; gold: {scores}", scores=scores)
        if len(view.fighters) == 1 and view.mode != "starter":
            text += _("; wounds {n} of {limit}", n=view.fighters[0].wounds, limit=SOLO_WOUNDS)
    to_move = view.to_move
    mover = next((f for f in view.fighters if f.seat == to_move), None) if to_move is not None else None
    if mover is not None:
        text += _("; {player} ({colour}) to move", player=mover.player or _("someone"),
                  colour=colour_name(mover.colour) if mover.colour else "?")
        if view.highlight:
            text += _(", can go to {doorways}", doorways=comma(view.highlight))
    return cap_alt(_p("sentence", "{text}.", text=text))
