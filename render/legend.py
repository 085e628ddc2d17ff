"""Legend of Heroes pictures: the Dungeons of Legend board, the Action cards and the Fighter cards.

Pure functions from a view (plain data) to PNG bytes, plus alt text for screen readers.  The dungeon plan
is drawn once into a cached layer; a snapshot pastes cached room, token and ring sprites onto a copy, maps
it onto a fixed palette and encodes at a low compression level (encoding is the big cost).
"""

from __future__ import annotations

import io
import statistics
import time
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

import msgspec
from PIL import Image, ImageDraw

from render.common import (
    RGB,
    Box,
    build_palette,
    draw_lines,
    ellipsize,
    fit_text,
    font,
    line_height,
    mix,
    outlined,
    png_bytes,
    shrink,
    supersampled,
    to_palette,
    wrap,
)
from rules.legend.content import BOXES, ActionCard, Dungeon, Fighter, Room, dungeon

View = Mapping[str, Any]

# --- board geometry and colours -----------------------------------------------------------------------

CELL = 44  # pixels per square of the plan
MARGIN = 8
TITLE_H = 50
CAPTION_H = 52

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

#: Token fill and letter colour for each player colour; the letter is a second cue beyond colour.
TOKENS: dict[str, tuple[RGB, RGB]] = {
    "red": ((229, 57, 53), WHITE),
    "blue": ((30, 118, 220), WHITE),
    "green": ((40, 150, 60), WHITE),
    "orange": ((251, 140, 0), BLACK),
    "white": ((250, 250, 250), BLACK),
}
OTHER_TOKEN: tuple[RGB, RGB] = ((150, 150, 150), BLACK)


def _token_colours(colour: str) -> tuple[RGB, RGB]:
    return TOKENS.get(colour.lower(), OTHER_TOKEN)


@cache
def _palette() -> Image.Image:
    """The board's fixed palette: every flat colour exactly, plus blends for anti-aliased edges."""
    fills = [c for c, _ in TOKENS.values()] + [OTHER_TOKEN[0]]
    solids = [ROCK, ROOM, ROOM_LINE, ROOM_EXPLORED, ROOM_EXPLORED_LINE, WALL, ROOM_TEXT, CORRIDOR,
              CORRIDOR_LINE, EDGE, DOORWAY, DOORWAY_EDGE, ENTRANCE, WHITE, BLACK, BAR, BAR_TEXT, BAR_DIM,
              CARD_BACK, CARD_RIM, DANGER, TURN_RING, *fills]
    grounds = [ROCK, ROOM, ROOM_EXPLORED, CORRIDOR, DOORWAY, BAR]
    ramps: list[tuple[RGB, RGB]] = [(WHITE, BLACK), (WHITE, DOORWAY), (BLACK, DOORWAY), (WHITE, ENTRANCE),
                                    (BLACK, ENTRANCE), (ROOM_TEXT, ROOM), (ROOM_TEXT, ROOM_EXPLORED),
                                    (BAR_TEXT, BAR), (BAR_DIM, BAR), (WHITE, CARD_BACK), (DANGER, CARD_BACK),
                                    (CARD_RIM, CARD_BACK), (WHITE, EDGE), (TURN_RING, BLACK)]
    ramps += [(g, edge) for g in grounds for edge in (BLACK, WHITE, ENTRANCE, CARD_RIM, TURN_RING)]
    ramps += [(f, c) for f in fills for c in (WHITE, BLACK)]
    return build_palette(solids, ramps, steps=3)


# --- the plan, in pixels ------------------------------------------------------------------------------

def _size(plan: Dungeon) -> tuple[int, int]:
    return plan.grid.cols * CELL + 2 * MARGIN, TITLE_H + MARGIN + plan.grid.rows * CELL + MARGIN + CAPTION_H


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

def _circle_sprite(diameter: int, fill: RGB, rims: Sequence[tuple[RGB, float]]) -> Image.Image:
    """A disc with concentric rims given as (colour, width in px) from the outside in."""
    s = 4
    img, draw = supersampled((diameter, diameter), s)
    r = diameter * s / 2
    inset = 0.0
    for colour, width in rims:
        draw.ellipse((inset, inset, 2 * r - inset - 1, 2 * r - inset - 1), fill=colour)
        inset += width * s
    draw.ellipse((inset, inset, 2 * r - inset - 1, 2 * r - inset - 1), fill=fill)
    return shrink(img, (diameter, diameter))


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
    img = _circle_sprite(CELL + 4, ENTRANCE, [(BLACK, 2), (WHITE, 2.5)])
    outlined(ImageDraw.Draw(img), (img.width / 2, img.height / 2), label, font("bold", 17), width=2)
    return img


TOKEN_D = 42


@cache
def _token_sprite(colour: str, letter: str, wounded: bool, to_move: bool) -> Image.Image:
    """A player's token: coloured disc, white and black rims, the letter; a gold ring on the player to move;
    a red-cross badge, half outside the disc, when wounded."""
    fill, ink = _token_colours(colour)
    extra = 7 if to_move else 4
    size = TOKEN_D + 2 * extra
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    if to_move:
        img.alpha_composite(_circle_sprite(size, TURN_RING, [(BLACK, 2), (TURN_RING, 4), (BLACK, 1.5)]))
    disc = _circle_sprite(TOKEN_D, fill, [(BLACK, 1.5), (WHITE, 2.5), (BLACK, 1)])
    img.alpha_composite(disc, (extra, extra))
    draw = ImageDraw.Draw(img)
    draw.text((size / 2, size / 2 + 1), letter[:1].upper(), font=font("bold", 25), fill=ink, anchor="mm")
    if wounded:
        badge = _circle_sprite(20, WHITE, [(BLACK, 1.5)])
        bd = ImageDraw.Draw(badge)
        bd.rectangle((8, 4, 11, 15), fill=DOORWAY)
        bd.rectangle((4, 8, 15, 11), fill=DOORWAY)
        img.alpha_composite(badge, (size - 20, 0))
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
    outlined(ImageDraw.Draw(img), (w / 2, h / 2 + 1), symbol, font("bold", 30), fill=ink, width=2)
    return img


# --- the static layer ---------------------------------------------------------------------------------

Point = tuple[int, int]
Fighters = list[Mapping[str, Any]]


def _draw_room(img: Image.Image, room: Room, status: str, name: str | None, tokens: int) -> list[Point]:
    """Draw one room onto ``img`` (board coordinates); returns the centres for ``tokens`` fighter tokens."""
    plan = dungeon()
    draw = ImageDraw.Draw(img)
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

    # inside the walls, under the id: the card mark and/or name, then a row for tokens
    top, bottom = y0 + 32, y1 - 8
    left, right = x0 + 11, x1 - 11
    slots: list[Point] = []
    if tokens:
        row_y = bottom - TOKEN_D // 2 - 2
        step = min(TOKEN_D + 16, (right - left) // tokens)
        first = (left + right) // 2 - step * (tokens - 1) // 2
        slots = [(first + i * step, row_y) for i in range(tokens)]
        bottom = row_y - TOKEN_D // 2 - 8
    mark = {"unexplored": "?", "partly": "!"}.get(status)
    text = name if name else ("explored" if explored else None)
    if mark:
        sprite = _card_mark(mark)
        space = bottom - top
        wide = room.w >= 4 and text is not None
        if text is None or (not wide and space < sprite.height + 24):
            my = top + max(0, (space - sprite.height) // 2)
            img.paste(sprite, ((left + right - sprite.width) // 2, my), sprite)
            text = None
        elif wide:
            img.paste(sprite, (left + 2, top + max(0, (space - sprite.height) // 2)), sprite)
            left += sprite.width + 10
        else:
            img.paste(sprite, ((left + right - sprite.width) // 2, top), sprite)
            top += sprite.height + 4
    if text:
        face, lines = fit_text(text, "bold", right - left, bottom - top, largest=21, smallest=13, spacing=1.1)
        draw_lines(draw, lines, (left, top, right, bottom), face, ROOM_TEXT, align="center", valign="middle",
                   spacing=1.1)
    return slots


@lru_cache(maxsize=512)
def _room_patch(room: Room, status: str, name: str | None,
                tokens: int) -> tuple[Image.Image, tuple[Point, ...]]:
    """One room drawn for a status (cut from the base layer), and where its fighters' tokens go."""
    x0, y0, x1, y1 = _room_box(room)
    area = (x0 - 2, y0 - 2, x1 + 2, y1 + 2)
    canvas = _base().copy()
    slots = _draw_room(canvas, room, status, name, tokens)
    return canvas.crop(area), tuple(slots)


KEY_ITEMS = (("entrance", "entrance"), ("doorway", "doorway"), ("corridor", "corridor"), ("room", "room"),
             ("?", "unexplored"), ("!", "danger waits"), ("ring", "can move to"))


@cache
def _key_widths() -> list[int]:
    face = font("sans", 15)
    return [24 + 6 + int(face.getlength(label)) + 16 for _, label in KEY_ITEMS]


def _draw_key(img: Image.Image, right: int) -> None:
    """The key to the board, right-aligned in the title bar."""
    draw = ImageDraw.Draw(img)
    face = font("sans", 15)
    widths = _key_widths()
    x = right - sum(widths)
    cy = TITLE_H // 2
    for (kind, label), w in zip(KEY_ITEMS, widths, strict=True):
        sw = (x, cy - 11, x + 22, cy + 11)
        if kind == "entrance":
            spr = _circle_sprite(24, ENTRANCE, [(WHITE, 2)])
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
        draw.text((x + 30, cy), label, font=face, fill=BAR_DIM, anchor="lm")
        x += w


@cache
def _base() -> Image.Image:
    """The dungeon plan with every room unexplored, an empty caption bar and the key: drawn once."""
    plan = dungeon()
    img = Image.new("RGB", _size(plan), ROCK)
    draw = ImageDraw.Draw(img)
    _rect(draw, (0, 0, img.width, TITLE_H), fill=BAR)
    _rect(draw, (0, img.height - CAPTION_H, img.width, img.height), fill=BAR)
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


def _fighters_by_place(view: View) -> tuple[dict[str, Fighters], dict[str, Fighters]]:
    """Fighters grouped by the doorway they stand on, and by the room they are inside."""
    at_door: dict[str, Fighters] = {}
    in_room: dict[str, Fighters] = {}
    for f in view.get("fighters", ()):
        if f.get("doorway"):
            at_door.setdefault(str(f["doorway"]), []).append(f)
        elif f.get("in_room"):
            in_room.setdefault(str(f["in_room"]), []).append(f)
    return at_door, in_room


def _token(f: Mapping[str, Any], to_move: Any) -> Image.Image:
    colour = str(f.get("colour", ""))
    letter = str(f.get("letter") or colour[:1] or "?")
    their_turn = to_move is not None and f.get("seat") == to_move
    return _token_sprite(colour, letter, bool(f.get("wounded")), their_turn)


def compose_board(view: View, *, title: str = "") -> Image.Image:
    """The board snapshot as an RGB image (``render_board`` encodes it)."""
    plan = dungeon()
    img = _base().copy()
    draw = ImageDraw.Draw(img)
    doors = {d.id: d for d in plan.doorway}
    rooms = view.get("rooms", {})
    at_door, in_room = _fighters_by_place(view)
    to_move = view.get("to_move")

    slots: dict[str, tuple[tuple[int, int], ...]] = {}
    for room in plan.room:
        info = rooms.get(room.id, {})
        status = str(info.get("status", "unexplored"))
        name = info.get("name")
        n = len(in_room.get(room.id, ()))
        if status == "unexplored" and not n:
            continue  # already so on the base layer
        patch, slots[room.id] = _room_patch(room, status, str(name) if name else None, n)
        x0, y0, _, _ = _room_box(room)
        img.paste(patch, (x0 - 2, y0 - 2))

    last = view.get("last_move")
    if last and last.get("from") in doors and last.get("to") in doors and last["from"] != last["to"]:
        mover: Mapping[str, Any] = next(
            (f for f in view.get("fighters", ()) if f.get("seat") == last.get("seat")), {})
        a, b = doors[last["from"]], doors[last["to"]]
        _arrow(draw, _centre(a.x, a.y), _centre(b.x, b.y), _token_colours(str(mover.get("colour", "")))[0])

    ring = _highlight_sprite()
    highlight = [d for d in view.get("highlight", ()) if d in doors]
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
            _paste_centred(img, _token(f, to_move), (cx - 4 + 10 * i, cy - 4 - 10 * i))
        # the doorway's number stays readable in a tag at the square's corner
        x1, y1 = cx + CELL // 2 + 2, cy + CELL // 2 + 2
        label = door_id.lstrip("D")
        w = int(tag.getlength(label)) + 6
        draw.rectangle((x1 - w, y1 - 16, x1 - 1, y1 - 1), fill=BLACK, outline=WHITE)
        draw.text((x1 - w / 2 - 0.5, y1 - 8), label, font=tag, fill=WHITE, anchor="mm")
    for room_id, group in in_room.items():
        for f, centre in zip(group, slots.get(room_id, ()), strict=False):  # slots: one per fighter
            _paste_centred(img, _token(f, to_move), centre)

    _draw_title(img, title or "Legend of Heroes")
    _draw_caption(img, str(view.get("caption") or ""))
    return img


def _draw_title(img: Image.Image, title: str) -> None:
    draw = ImageDraw.Draw(img)
    key_left = img.width - MARGIN - sum(_key_widths())
    face = font("serif", 27)
    text = ellipsize(title, face, key_left - 2 * MARGIN - 12)
    draw.text((MARGIN + 4, TITLE_H // 2), text, font=face, fill=BAR_TEXT, anchor="lm")


def _draw_caption(img: Image.Image, caption: str) -> None:
    if not caption:
        return
    draw = ImageDraw.Draw(img)
    top = img.height - CAPTION_H
    box = (MARGIN + 4, top + 3, img.width - MARGIN - 4, img.height - 3)
    face, lines = fit_text(caption, "bold", box[2] - box[0], box[3] - box[1], largest=27, smallest=16,
                           spacing=1.0)
    draw_lines(draw, lines, box, face, BAR_TEXT, valign="middle", spacing=1.0)


def render_board(view: View, *, title: str = "") -> bytes:
    """PNG of the dungeon for a public view: rooms by status, fighters' tokens, the legal destinations of
    the player to move ringed, the last move as an arrow, a title bar and a caption."""
    return png_bytes(to_palette(compose_board(view, title=title), _palette()), compress_level=1)


# --- alt text -----------------------------------------------------------------------------------------

def _fighter_words(f: Mapping[str, Any], rooms: Mapping[str, Mapping[str, Any]]) -> str:
    who = f"{f.get('player', 'Someone')} ({f.get('colour', '?')}"
    if f.get("fighter"):
        who += f", {f['fighter']}"
    who += ", wounded)" if f.get("wounded") else ")"
    if f.get("doorway"):
        return f"{who} on doorway {f['doorway']}"
    if f.get("in_room"):
        room = str(f["in_room"])
        name = rooms.get(room, {}).get("name")
        return f"{who} inside room {room}" + (f", the {name}" if name else "")
    return f"{who} not yet in the dungeon"


def board_alt_text(view: View) -> str:
    """One or two sentences: who is where, how many rooms are explored, whose turn it is."""
    fighters = list(view.get("fighters", ()))
    rooms: Mapping[str, Mapping[str, Any]] = view.get("rooms", {})
    where = "; ".join(_fighter_words(f, rooms) for f in fighters) or "No fighters yet"
    explored = sum(1 for r in rooms.values() if r.get("status") == "explored")
    text = f"Dungeon board: {where}. {explored} of {len(rooms) or len(dungeon().room)} rooms explored"
    partly = [f"{rid} ({r['waiting']})" if r.get("waiting") else rid
              for rid, r in rooms.items() if r.get("status") == "partly"]
    if partly:
        text += f"; a danger waits in {', '.join(partly)}"
    to_move = view.get("to_move")
    mover = next((f for f in fighters if f.get("seat") == to_move), None) if to_move is not None else None
    if mover is not None:
        text += f"; {mover.get('player', 'someone')} ({mover.get('colour', '?')}) to move"
        options = [str(d) for d in view.get("highlight", ())]
        if options:
            text += f", can go to {', '.join(options)}"
    return _cap(text + ".")


def _cap(text: str, limit: int = 1000) -> str:
    """Discord allows 1024 characters of attachment description."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# --- cards --------------------------------------------------------------------------------------------

CARD_W, CARD_H = 480, 680
KIND_COLOURS: dict[str, RGB] = {
    "room": (122, 84, 50),
    "feature": (30, 112, 118),
    "monster": (150, 26, 34),
    "hazard": (172, 88, 14),
    "treasure": (176, 134, 20),
}
FIGHTER_COLOUR: RGB = (44, 78, 128)
WOUNDED_COLOUR: RGB = (84, 16, 16)
PARCHMENT: RGB = (251, 244, 226)
WOUNDED_PARCHMENT: RGB = (226, 196, 188)
INK: RGB = (36, 28, 22)
GOLD: RGB = (242, 190, 40)
NEXT_RED: RGB = (200, 30, 30)
NEXT_NAMES = {"feature": "Feature", "monster": "Monster", "hazard": "Hazard", "treasure": "Treasure"}


def _as_card(card: ActionCard | Mapping[str, Any]) -> ActionCard:
    return card if isinstance(card, ActionCard) else msgspec.convert(dict(card), ActionCard)


def _as_fighter(fighter: Fighter | Mapping[str, Any]) -> Fighter:
    return fighter if isinstance(fighter, Fighter) else msgspec.convert(dict(fighter), Fighter)


@lru_cache(maxsize=16)
def _blank_card(colour: RGB, label: str, parchment: RGB) -> Image.Image:
    """A card: rounded frame in ``colour`` with ``label`` in its top band, parchment inside; the corners
    outside the rounding are transparent.  One per kind, drawn at twice the size and shrunk (smooth)."""
    s = 2
    big = Image.new("RGBA", (CARD_W * s, CARD_H * s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, CARD_W * s - 1, CARD_H * s - 1), radius=26 * s, fill=BLACK)
    d.rounded_rectangle((3 * s, 3 * s, (CARD_W - 3) * s - 1, (CARD_H - 3) * s - 1), radius=23 * s,
                        fill=colour)
    d.rounded_rectangle((16 * s, 48 * s, (CARD_W - 16) * s - 1, (CARD_H - 16) * s - 1), radius=12 * s,
                        fill=parchment, outline=mix(colour, BLACK, 0.4), width=2 * s)
    img = big.resize((CARD_W, CARD_H), Image.Resampling.LANCZOS)
    outlined(ImageDraw.Draw(img), (CARD_W / 2, 27), label.upper(), font("bold", 22), fill=WHITE,
             outline=mix(colour, BLACK, 0.6))
    return img


def _frame(colour: RGB, label: str, parchment: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = _blank_card(colour, label, parchment).copy()
    return img, ImageDraw.Draw(img)


def _boxes(draw: ImageDraw.ImageDraw, top: int, numbers: Sequence[int], dot: int | None, colour: RGB) -> int:
    """The five boxes A–E with their numbers, and a red dot under box ``dot``; returns the bottom y."""
    w, h, gap = 72, 58, 10
    left = (CARD_W - (5 * w + 4 * gap)) // 2
    letter = font("bold", 15)
    num = font("bold", 32)
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
    face = font("bold", 23)
    if nxt == "end":
        draw.rounded_rectangle((90, top, CARD_W - 90, bottom), radius=6, fill=INK, outline=BLACK, width=2)
        draw.rectangle((96, top + 6, CARD_W - 96, bottom - 6), outline=PARCHMENT, width=2)
        draw.text((CARD_W / 2, (top + bottom) / 2), "End of Room", font=face, fill=PARCHMENT, anchor="mm")
        return
    mid = (top + bottom) / 2
    x0, x1 = 80, CARD_W - 80
    points = [(x0, top), (x1 - 28, top), (x1, mid), (x1 - 28, bottom), (x0, bottom)]
    draw.polygon(points, fill=NEXT_RED, outline=BLACK, width=2)
    label = f"Next: {NEXT_NAMES.get(nxt, nxt.title())}"
    draw.text(((x0 + x1 - 28) / 2, mid), label, font=face, fill=WHITE, anchor="mm")


def _text(draw: ImageDraw.ImageDraw, text: str, box: Box, *, largest: int = 22) -> None:
    """Card text, centred in ``box`` at the largest size that fits."""
    face, lines = fit_text(text, "sans", box[2] - box[0], box[3] - box[1], largest=largest, smallest=13,
                           spacing=1.25)
    draw_lines(draw, lines, box, face, INK, align="center", valign="middle", spacing=1.25)


# --- emblems: simple vector pictures, one per kind ------------------------------------------------------

@lru_cache(maxsize=64)
def _emblem(kind: str, size: tuple[int, int], colour: RGB) -> Image.Image:
    """A simple drawn picture for a card kind, on a transparent ground.

    Coordinates are in tenths of the shorter side from the centre: ``pt(x, y)`` a point, ``bx(...)`` a box.
    """
    s = 4
    img, d = supersampled(size, s)
    cx, cy = size[0] * s / 2, size[1] * s / 2
    u = min(size) * s / 10

    def pt(x: float, y: float) -> tuple[float, float]:
        return cx + x * u, cy + y * u

    def bx(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return cx + x0 * u, cy + y0 * u, cx + x1 * u, cy + y1 * u

    dark = mix(colour, BLACK, 0.55)
    line = max(2, round(u * 0.25))
    if kind == "room":  # an arched doorway with a plank door
        stone = mix(colour, WHITE, 0.35)
        d.rectangle(bx(-3.5, -1, 3.5, 4.5), fill=stone)
        d.pieslice(bx(-3.5, -4.5, 3.5, 2.5), 180, 360, fill=stone)
        d.rectangle(bx(-2.3, -0.5, 2.3, 4.5), fill=dark)
        d.pieslice(bx(-2.3, -2.8, 2.3, 1.8), 180, 360, fill=dark)
        for i in (-1, 0, 1):
            d.line((*pt(i * 0.8, -2.3), *pt(i * 0.8, 4.5)), fill=colour, width=line)
        d.ellipse(bx(1.2, 1.2, 1.8, 1.8), fill=GOLD)
        d.rectangle(bx(-4.5, 4.5, 4.5, 5), fill=dark)
    elif kind == "feature":  # a stone pillar with a burning brazier
        stone = mix(colour, WHITE, 0.45)
        d.rectangle(bx(-1.4, -1.5, 1.4, 4), fill=stone, outline=dark, width=line)
        for off in (-0.5, 0.5):
            d.line((*pt(off, -1.2), *pt(off, 3.7)), fill=dark, width=line)
        d.rectangle(bx(-2.2, 4, 2.2, 5), fill=stone, outline=dark, width=line)
        d.rectangle(bx(-2.2, -2.3, 2.2, -1.5), fill=stone, outline=dark, width=line)
        d.chord(bx(-2.4, -3.8, 2.4, -0.8), 0, 180, fill=dark)
        flame = [pt(-1.7, -2.3), pt(-0.9, -4.4), pt(0, -3.3), pt(0.8, -4.7), pt(1.7, -2.3)]
        d.polygon(flame, fill=(250, 140, 20))
        d.polygon([pt(-0.9, -2.3), pt(0, -3.9), pt(0.9, -2.3)], fill=GOLD)
    elif kind == "monster":  # a horned head with glaring eyes and fangs
        for sx in (-1, 1):
            d.polygon([pt(sx * 2.6, -1.5), pt(sx * 4.4, -4.8), pt(sx * 1.2, -2.6)], fill=dark)
        d.ellipse(bx(-3.2, -3.2, 3.2, 3.6), fill=mix(colour, BLACK, 0.25), outline=BLACK, width=line)
        for sx in (-1, 1):
            eye = [pt(sx * 0.4, -0.9), pt(sx * 2.3, -1.6), pt(sx * 1.9, -0.1)]
            d.polygon(eye, fill=(255, 220, 40), outline=BLACK)
        d.chord(bx(-2, 0.6, 2, 3.2), 0, 180, fill=BLACK)
        for sx in (-1, 1):
            d.polygon([pt(sx * 1.3, 1.85), pt(sx * 0.7, 1.85), pt(sx * 1.0, 2.9)], fill=WHITE)
    elif kind == "hazard":  # a warning triangle over a row of spikes
        d.polygon([pt(0, -4.8), pt(4.2, 2.4), pt(-4.2, 2.4)], fill=BLACK)
        d.polygon([pt(0, -3.8), pt(3.3, 1.9), pt(-3.3, 1.9)], fill=GOLD)
        d.rectangle(bx(-0.4, -2, 0.4, 0.2), fill=BLACK)
        d.ellipse(bx(-0.45, 0.6, 0.45, 1.5), fill=BLACK)
        for i in range(-4, 5):
            d.polygon([pt(i - 0.45, 5), pt(i, 3), pt(i + 0.45, 5)], fill=mix(colour, BLACK, 0.3))
    elif kind == "treasure":  # an open chest heaped with coins
        wood, band = mix(colour, (110, 60, 20), 0.6), mix(colour, BLACK, 0.5)
        for ox, oy in ((-1.8, -1.2), (0, -1.9), (1.8, -1.2), (-0.9, -0.5), (0.9, -0.5)):
            d.ellipse(bx(ox - 1, oy - 1, ox + 1, oy + 1), fill=GOLD, outline=band, width=line)
        d.rectangle(bx(-4, 0, 4, 4), fill=wood, outline=BLACK, width=line)
        d.rectangle(bx(-4, 0.9, 4, 1.5), fill=band)
        d.rectangle(bx(-0.6, 0.6, 0.6, 2.2), fill=GOLD, outline=BLACK, width=line)
    else:  # a fighter: a shield before two crossed swords
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
    return shrink(img, size)


def _paste_emblem(img: Image.Image, kind: str, box: Box, colour: RGB) -> None:
    x0, y0, x1, y1 = box
    side = max(1, min(x1 - x0, y1 - y0))
    img.alpha_composite(_emblem(kind, (side, side), colour), ((x0 + x1 - side) // 2, (y0 + y1 - side) // 2))


def _card_bytes(img: Image.Image) -> bytes:
    """Cards are drawn once and cached: an adaptive 256-colour palette makes them a third of the size."""
    return png_bytes(img.quantize(256, method=Image.Quantize.FASTOCTREE), compress_level=6)


def _title(draw: ImageDraw.ImageDraw, text: str, top: int) -> int:
    face, lines = fit_text(text, "serif", CARD_W - 60, 84, largest=34, smallest=22, spacing=1.1)
    bottom = draw_lines(draw, lines, (30, top, CARD_W - 30, top + 90), face, INK, align="center", spacing=1.1)
    draw.line((70, bottom + 6, CARD_W - 70, bottom + 6), fill=mix(INK, PARCHMENT, 0.6), width=2)
    return bottom + 14


def _danger_body(img: Image.Image, draw: ImageDraw.ImageDraw, card: ActionCard, colour: RGB, top: int,
                 bottom: int) -> None:
    """A Monster or Hazard: ``text`` above the picture, ``after`` below it, both in one font size, the
    picture taking what room is left (between 80 and 140 pixels)."""
    width = CARD_W - 68
    spacing = 1.22
    for size in range(21, 12, -1):
        face = font("sans", size)
        step = line_height(face, spacing)
        above = wrap(card.text, face, width)
        below = wrap(card.after, face, width) if card.after else []
        need = (len(above) + len(below)) * step + 12
        if need + 80 <= bottom - top:
            break
    pic = max(60, min(140, bottom - top - need))
    slack = (bottom - top - need - pic) // 3
    y = top + slack
    y = draw_lines(draw, above, (34, y, CARD_W - 34, y), face, INK, align="center", spacing=spacing) + 6
    _paste_emblem(img, card.kind, (34, y + slack // 2, CARD_W - 34, y + slack // 2 + pic), colour)
    y += pic + slack + 6
    draw_lines(draw, below, (34, y, CARD_W - 34, y), face, INK, align="center", spacing=spacing)


@cache
def _card_png(card: ActionCard) -> bytes:
    colour = KIND_COLOURS.get(card.kind, KIND_COLOURS["room"])
    img, draw = _frame(colour, card.kind, PARCHMENT)
    top = _title(draw, card.title, 58)
    bottom = CARD_H - 88  # above the Next / End of Room box
    if card.kind in ("monster", "hazard"):
        boxes_top = bottom - 106
        _boxes(draw, boxes_top, card.needs, card.dot if card.kind == "monster" else None, colour)
        _danger_body(img, draw, card, colour, top + 2, boxes_top - 10)
    elif card.kind == "treasure":
        coin_h = 150
        _text(draw, card.text, (34, top, CARD_W - 34, bottom - coin_h - 10), largest=22)
        cy = bottom - coin_h // 2 - 4
        cx = CARD_W // 2 - 70
        _paste_emblem(img, "treasure", (cx - 75, cy - 75, cx + 75, cy + 75), colour)
        value = font("serif", 60 if card.gold < 1000 else 46)
        outlined(draw, (CARD_W // 2 + 70, cy - 12), str(card.gold), value, fill=GOLD, outline=INK, width=3)
        draw.text((CARD_W // 2 + 70, cy + 34), "gold pieces", font=font("bold", 20), fill=INK, anchor="mm")
    else:
        pic = 150
        _paste_emblem(img, card.kind, (34, top, CARD_W - 34, top + pic), colour)
        _text(draw, card.text, (34, top + pic + 8, CARD_W - 34, bottom - 6), largest=23)
    _next_box(draw, card.next)
    return _card_bytes(img)


def render_card(card: ActionCard | Mapping[str, Any]) -> bytes:
    """PNG (480×680) of one Action card; drawn once per card and cached."""
    return _card_png(_as_card(card))


def card_alt_text(card: ActionCard | Mapping[str, Any]) -> str:
    """The card in words: kind, title, texts, the numbers to roll and what comes next."""
    c = _as_card(card)
    parts = [f"{c.kind.title()} card: {c.title}. {c.text}"]
    if c.after:
        parts.append(f"Once overcome: {c.after}")
    if c.needs:
        boxes = ", ".join(f"{b} {n}" for b, n in zip(BOXES, c.needs, strict=False))
        parts.append(f"Roll needed by a fighter whose red dot is under box {boxes}.")
    if c.kind == "monster" and c.dot is not None and 0 <= c.dot < len(BOXES):
        parts.append(f"Its red dot is under box {BOXES[c.dot]}.")
    if c.kind == "treasure":
        parts.append(f"Worth {c.gold} gold pieces.")
    parts.append("End of room." if c.next == "end" else f"Next: {NEXT_NAMES.get(c.next, c.next)}.")
    return _cap(" ".join(p.strip() for p in parts))


@cache
def _fighter_png(fighter: Fighter, wounded: bool) -> bytes:
    colour = WOUNDED_COLOUR if wounded else FIGHTER_COLOUR
    img, draw = _frame(colour, "Wounded fighter" if wounded else "Fighter",
                       WOUNDED_PARCHMENT if wounded else PARCHMENT)
    top = _title(draw, fighter.name, 58)
    pic = 170
    _paste_emblem(img, "fighter", (34, top, CARD_W - 34, top + pic), colour)
    if wounded:
        stamp = font("bold", 40)
        outlined(draw, (CARD_W / 2, top + pic / 2), "WOUNDED", stamp, fill=(230, 30, 30), outline=WHITE,
                 width=3)
    boxes_top = CARD_H - 190
    text = fighter.wounded_text if wounded else fighter.text
    _text(draw, text, (34, top + pic + 8, CARD_W - 34, boxes_top - 30), largest=22)
    draw.text((CARD_W / 2, boxes_top - 24), "Defence: what a Monster must roll to wound",
              font=font("bold", 15), fill=INK, anchor="ma")
    _boxes(draw, boxes_top, fighter.defence, fighter.dot, colour)
    if 0 <= fighter.dot < len(BOXES):
        box = BOXES[fighter.dot]
        hint = f"Red dot under {box}: against a Monster or Hazard, roll its box {box} number or more"
        face, lines = fit_text(hint, "bold", CARD_W - 80, 50, largest=17, smallest=13, spacing=1.1)
        draw_lines(draw, lines, (40, CARD_H - 76, CARD_W - 40, CARD_H - 24), face, INK, align="center",
                   valign="middle", spacing=1.1)
    return _card_bytes(img)


def render_fighter(fighter: Fighter | Mapping[str, Any], *, wounded: bool) -> bytes:
    """PNG (480×680) of a Fighter card, coloured side or wounded side; cached."""
    return _fighter_png(_as_fighter(fighter), wounded)


def fighter_alt_text(fighter: Fighter | Mapping[str, Any], *, wounded: bool) -> str:
    f = _as_fighter(fighter)
    side = "wounded side" if wounded else "unwounded side"
    defence = ", ".join(f"{b} {n}" for b, n in zip(BOXES, f.defence, strict=False))
    dot = BOXES[f.dot] if 0 <= f.dot < len(BOXES) else "?"
    text = f.wounded_text if wounded else f.text
    return _cap(f"Fighter card, {side}: {f.name}. {text} Defence {defence}; red dot under box {dot}.")


# --- benchmark ----------------------------------------------------------------------------------------

def sample_view() -> dict[str, Any]:
    """A busy mid-game view (five fighters, every room status) for benchmarks and sample pictures."""
    plan = dungeon()
    names = ["Map Room", "Guardroom", "Chapel of the Sleeping King", "Armoury", "Well Chamber", "Crypt"]
    statuses = ("explored", "unexplored", "partly")
    rooms: dict[str, dict[str, Any]] = {
        r.id: {"status": statuses[i % 3], "name": None if i % 3 == 1 else names[i % len(names)]}
        for i, r in enumerate(plan.room)
    }
    people = [("Ann", "red", "Brand", "D7"), ("Bob", "blue", "Sigrun", "D16"), ("Cy", "green", "Idris", None),
              ("Dora", "orange", "Temur", "D31"), ("Eve", "white", "Amara", "D26")]
    fighters = [{"seat": seat, "player": player, "colour": colour, "letter": colour[0].upper(),
                 "fighter": name, "doorway": spot, "in_room": None if spot else "R6", "wounded": seat == 3}
                for seat, (player, colour, name, spot) in enumerate(people)]
    taken = {f["doorway"] for f in fighters}
    areas = [{d.id for d in plan.doorway if d.room == r.id} for r in plan.room]
    areas += [set(c.doorways) for c in plan.corridor]
    reach = sorted({d for a in areas if "D7" in a for d in a} - taken - {"D7"}, key=lambda d: int(d[1:]))
    return {"rooms": rooms, "fighters": fighters, "to_move": 0, "highlight": reach,
            "last_move": {"seat": 0, "from": "D1", "to": "D7"},
            "caption": "Ann (red) to move · 4 of 12 rooms explored"}


def bench_board(n: int = 50) -> dict[str, float]:
    """Median milliseconds of ``render_board`` and of Pillow's default PNG encoding of the same RGB image."""
    view = sample_view()
    render_board(view, title="Legend of Heroes · benchmark")  # warm the caches
    times: list[float] = []
    for _ in range(n):
        t = time.perf_counter()
        data = render_board(view, title="Legend of Heroes · benchmark")
        times.append((time.perf_counter() - t) * 1000)
    rgb = compose_board(view, title="Legend of Heroes · benchmark")
    plain: list[float] = []
    for _ in range(n):
        buf = io.BytesIO()
        t = time.perf_counter()
        rgb.save(buf, format="PNG")
        plain.append((time.perf_counter() - t) * 1000)
    render_ms, encode_ms = statistics.median(times), statistics.median(plain)
    return {"render_p50_ms": render_ms, "default_encode_p50_ms": encode_ms, "ratio": render_ms / encode_ms,
            "png_bytes": float(len(data)), "default_png_bytes": float(len(buf.getvalue()))}


if __name__ == "__main__":
    for key, value in bench_board().items():
        print(f"{key}: {value:.2f}")
