"""Legend of Heroes pictures (valid PNGs, sizes, key pixels, alt text, caches) and the dungeon plan."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from PIL import Image

from render import legend
from render.legend import board as board_layer
from render.legend import cards as card_layer
from rules.legend.content import DATA, ActionCard, Dungeon, Fighter, dungeon
from rules.legend.ruleset import LegendRuleset
from rules.legend.view import FighterView, LastMove, LegendView
from tests.legend_helpers import play_moves

Cell = tuple[int, int]


def _nbrs(c: Cell) -> Iterator[tuple[Cell, str]]:
    """The four neighbours of a cell, each with the side of ``c`` it lies on."""
    x, y = c
    yield (x, y - 1), "n"
    yield (x + 1, y), "e"
    yield (x, y + 1), "s"
    yield (x - 1, y), "w"


def _room_cells(plan: Dungeon) -> dict[Cell, str]:
    return {(x, y): r.id for r in plan.room for x in range(r.x, r.x + r.w) for y in range(r.y, r.y + r.h)}


def _px(img: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    pixel = img.getpixel(xy)
    assert isinstance(pixel, tuple)
    return pixel


def _open(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


# --- the dungeon plan ---------------------------------------------------------------------------------

def test_dungeon_counts_and_reading_order() -> None:
    plan = dungeon()
    assert [r.id for r in plan.room] == [f"R{i}" for i in range(1, 13)]
    assert sorted(plan.room, key=lambda r: (r.y, r.x)) == list(plan.room)
    assert [d.id for d in plan.doorway] == [f"D{i}" for i in range(1, len(plan.doorway) + 1)]
    assert sorted(plan.doorway, key=lambda d: (d.y, d.x)) == list(plan.doorway)
    assert [e.id for e in plan.entrance] == [f"E{i}" for i in range(1, 6)]
    assert [c.id for c in plan.corridor] == [f"C{i}" for i in range(1, len(plan.corridor) + 1)]


def test_rooms_sizes_and_placement() -> None:
    plan = dungeon()
    seen: dict[Cell, str] = {}
    sizes = set()
    for r in plan.room:
        assert 3 <= r.w <= 6 and 3 <= r.h <= 5, r
        assert r.x >= 1 and r.y >= 1 and r.x + r.w <= plan.grid.cols - 1 and r.y + r.h <= plan.grid.rows - 1
        for x in range(r.x, r.x + r.w):
            for y in range(r.y, r.y + r.h):
                assert (x, y) not in seen, f"{r.id} overlaps {seen[(x, y)]}"
                seen[(x, y)] = r.id
        sizes.add((r.w, r.h))
    assert len(sizes) >= 5, "rooms should vary in size"
    for cell, rid in seen.items():  # rooms never share a wall
        for n, _ in _nbrs(cell):
            assert seen.get(n, rid) == rid


def test_doorways_sit_outside_their_walls() -> None:
    plan = dungeon()
    rooms = {r.id: r for r in plan.room}
    room_cells = _room_cells(plan)
    per_room = {r.id: 0 for r in plan.room}
    cells = {(d.x, d.y) for d in plan.doorway}
    assert len(cells) == len(plan.doorway)
    for d in plan.doorway:
        assert 0 <= d.x < plan.grid.cols and 0 <= d.y < plan.grid.rows
        assert (d.x, d.y) not in room_cells
        touching = {room_cells[n] for n, _ in _nbrs((d.x, d.y)) if n in room_cells}
        assert not any(n in cells for n, _ in _nbrs((d.x, d.y))), f"{d.id} touches another doorway"
        if d.room is None:
            assert not touching, f"{d.id} belongs to an entrance but touches {touching}"
            assert d.side is None
            continue
        assert touching == {d.room}, d
        per_room[d.room] += 1
        r = rooms[d.room]
        expected = {
            "n": d.y == r.y - 1 and r.x <= d.x < r.x + r.w,
            "s": d.y == r.y + r.h and r.x <= d.x < r.x + r.w,
            "w": d.x == r.x - 1 and r.y <= d.y < r.y + r.h,
            "e": d.x == r.x + r.w and r.y <= d.y < r.y + r.h,
        }
        assert d.side is not None and expected[d.side], f"{d.id} is not on the {d.side} wall of {d.room}"
    assert all(2 <= n <= 4 for n in per_room.values()), per_room


def test_entrances_on_the_border_beside_their_doorway() -> None:
    plan = dungeon()
    doors = {d.id: d for d in plan.doorway}
    used = set()
    for e in plan.entrance:
        assert e.x in (0, plan.grid.cols - 1) or e.y in (0, plan.grid.rows - 1), e
        assert e.name.endswith("entrance")
        d = doors[e.doorway]
        assert d.room is None
        assert abs(d.x - e.x) + abs(d.y - e.y) == 1
        used.add(e.doorway)
    assert len(used) == 5
    assert {d.id for d in plan.doorway if d.room is None} == used


def test_corridors_connected_apart_and_linking_adjacent_doorways() -> None:
    plan = dungeon()
    room_cells = _room_cells(plan)
    door_at = {(d.x, d.y): d.id for d in plan.doorway}
    entrances = {(e.x, e.y) for e in plan.entrance}
    owner: dict[Cell, str] = {}
    for c in plan.corridor:
        cells = [(cell[0], cell[1]) for cell in c.cells]
        assert len(cells) == len(set(cells))
        for cell in cells:
            assert 0 <= cell[0] < plan.grid.cols and 0 <= cell[1] < plan.grid.rows
            assert cell not in room_cells and cell not in door_at and cell not in entrances, (c.id, cell)
            assert cell not in owner, f"{c.id} overlaps {owner.get(cell)}"
            owner[cell] = c.id
        todo, reached = [cells[0]], {cells[0]}
        while todo:  # 4-connected
            for n, _ in _nbrs(todo.pop()):
                if n in set(cells) and n not in reached:
                    reached.add(n)
                    todo.append(n)
        assert reached == set(cells), f"{c.id} is not one piece"
        adjacent = {door_at[n] for cell in cells for n, _ in _nbrs(cell) if n in door_at}
        assert set(c.doorways) == adjacent, c.id
        assert 2 <= len(c.doorways) <= 4, c.id
    for cell, cid in owner.items():  # distinct corridors never touch
        for n, _ in _nbrs(cell):
            assert owner.get(n, cid) == cid, f"{cid} touches {owner[n]}"
    for d in plan.doorway:  # each doorway opens onto exactly one corridor
        corridors = {owner[n] for n, _ in _nbrs((d.x, d.y)) if n in owner}
        assert len(corridors) == 1, (d.id, corridors)


def test_doorway_graph_connected_with_loops() -> None:
    plan = dungeon()
    areas = [tuple(d.id for d in plan.doorway if d.room == r.id) for r in plan.room]
    areas += [c.doorways for c in plan.corridor]
    links: dict[str, set[str]] = {d.id: set() for d in plan.doorway}
    for group in areas:
        for a in group:
            links[a].update(b for b in group if b != a)
    start = plan.doorway[0].id
    seen, todo = {start}, [start]
    while todo:
        for b in links[todo.pop()]:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    assert seen == set(links)
    # doorways and areas form a bipartite graph; its independent cycles are the loops players can choose
    edges = sum(len(g) for g in areas)
    loops = edges - (len(plan.doorway) + len(areas)) + 1
    assert loops >= 6, loops


# --- the board picture --------------------------------------------------------------------------------

def _view(**extra: Any) -> LegendView:
    plan = dungeon()
    rooms = {r.id: {"status": "unexplored", "name": None} for r in plan.room}
    rooms["R1"] = {"status": "explored", "name": "Map Room"}
    rooms["R3"] = {"status": "partly", "name": "Crypt"}
    view: dict[str, Any] = {
        "rooms": rooms,
        "fighters": [
            {"seat": 0, "player": "Ann", "colour": "red", "letter": "R", "fighter": "Brand",
             "doorway": "D7", "in_room": None, "wounded": False},
            {"seat": 1, "player": "Bob", "colour": "blue", "letter": "B", "fighter": "Sigrun",
             "doorway": None, "in_room": "R6", "wounded": True},
            {"seat": 2, "player": "Cy", "colour": "green", "letter": "G", "fighter": "Idris",
             "doorway": "D30", "in_room": None, "wounded": False},
        ],
        "to_move": 0,
        "highlight": ["D5", "D9"],
        "last_move": {"seat": 0, "frm": "D1", "to": "D7"},
        "caption": "Ann (red) to move · 1 of 12 rooms explored",
    }
    view.update(extra)
    return msgspec.convert(view, LegendView)


def _doorway_centre(did: str) -> tuple[int, int]:
    d = next(d for d in dungeon().doorway if d.id == did)
    return board_layer._centre(d.x, d.y)


def test_board_png_size_mode_and_weight() -> None:
    data = legend.render_board(_view(), title="Legend of Heroes · test")
    img = _open(data)
    assert img.format == "PNG"
    assert img.size == board_layer._size(dungeon())
    assert img.width <= 1600 and img.height <= 1200  # the plan, the player panel and the caption
    assert img.mode == "P"  # paletted: small and fast to encode
    assert len(data) < 1_000_000


def test_board_key_pixels() -> None:
    img = _open(legend.render_board(_view())).convert("RGB")
    plan = dungeon()
    # a free doorway square is red, away from its number
    d = next(d for d in plan.doorway if d.id == "D20")
    x0, y0, _, _ = board_layer._cell(d.x, d.y)
    assert _px(img, (x0 + 5, y0 + 5)) == board_layer.DOORWAY
    # Ann's token (red) on D7, below its letter; Cy's (green) on D30
    cx, cy = _doorway_centre("D7")
    assert _px(img, (cx - 4, cy - 4 + 12)) == board_layer.TOKENS["red"][0]
    cx, cy = _doorway_centre("D30")
    assert _px(img, (cx - 4, cy - 4 + 12)) == board_layer.TOKENS["green"][0]
    # Bob, inside R6, is drawn within its walls
    r6 = next(r for r in plan.room if r.id == "R6")
    bx0, by0, bx1, by1 = board_layer._room_box(r6)
    blue = board_layer.TOKENS["blue"][0]
    inside = img.crop((bx0, by0, bx1, by1))
    counts = {colour: n for n, colour in inside.getcolors(maxcolors=1 << 16) or []}
    assert counts.get(blue, 0) > 100
    # explored room greyed, unexplored room beige; a corridor square is yellow
    r1 = next(r for r in plan.room if r.id == "R1")
    assert _px(img, (board_layer._room_box(r1)[2] - 12, board_layer._room_box(r1)[3] - 12)) == board_layer.ROOM_EXPLORED
    r12 = next(r for r in plan.room if r.id == "R12")
    assert _px(img, (board_layer._room_box(r12)[2] - 12, board_layer._room_box(r12)[3] - 12)) == board_layer.ROOM
    cell = plan.corridor[0].cells[0]
    x0, y0, _, _ = board_layer._cell(*cell)
    assert _px(img, (x0 + 10, y0 + 10)) == board_layer.CORRIDOR
    # a highlighted destination gets a white ring just outside its square
    cx, cy = _doorway_centre("D9")
    ring = [_px(img, (cx + dx, cy)) for dx in range(22, 34)]
    assert any(min(p) >= 240 for p in ring), ring


def test_board_without_anything_still_draws() -> None:
    img = _open(legend.render_board(LegendView()))
    assert img.size == board_layer._size(dungeon())
    odd = LegendView(fighters=(FighterView(seat=0, player="Zed", colour="purple", doorway="D99"),),
                     highlight=("D404",), last_move=LastMove(seat=0, frm="D1", to="D1"))
    assert _open(legend.render_board(odd)).size == board_layer._size(dungeon())


def test_board_rendering_is_repeatable_and_base_kept() -> None:
    first, again = board_layer._base(), board_layer._base()  # drawn once, then decoded from its PNG
    assert first is not again and first.tobytes() == again.tobytes()
    assert legend.render_board(_view(), title="x") == legend.render_board(_view(), title="x")
    assert legend.render_board(_view(), title="x") != legend.render_board(_view(to_move=2), title="x")


def test_board_alt_text_says_who_is_where() -> None:
    text = legend.board_alt_text(_view())
    for words in ("Ann", "red", "D7", "Bob", "blue", "R6", "wounded", "Cy", "D30", "1 of 12 rooms explored",
                  "Ann (red) to move", "D5", "D9"):
        assert words in text, words
    assert text.count(".") <= 4 and len(text) <= 1000


@pytest.mark.parametrize("mode", ["starter", "expanded"])
def test_boards_of_a_real_game_render_with_their_alt_text(mode: str) -> None:
    rules = LegendRuleset()
    seen = play_moves(rules, ["Ann", "Bob", "Cy"], 60, mode=mode, narration="players")
    for state, _events in seen[::6]:
        view = rules.view(state, None)
        data = legend.render_board(view, title="Legend of Heroes · #1")
        assert _open(data).size == board_layer._size(dungeon()) and len(data) < 1_000_000
        alt = legend.board_alt_text(view)
        assert all(f.player in alt for f in view.fighters) and len(alt) <= 1000


# --- cards --------------------------------------------------------------------------------------------

SAMPLE_CARDS: list[dict[str, Any]] = [
    {"id": "t-room", "kind": "room", "title": "Map Room", "text": "Maps cover every wall. Facing you is a…",
     "next": "monster"},
    {"id": "t-monster", "kind": "monster", "title": "Troll", "text": "…troll, which grins as it attacks.",
     "after": "The troll falls. Beyond it you find…", "needs": [12, 13, 14, 15, 11], "dot": 2,
     "next": "treasure"},
    {"id": "t-hazard", "kind": "hazard", "title": "Falling Slab", "text": "…a slab that drops from above.",
     "after": "You leap clear.", "needs": [10, 9, 11, 12, 8], "next": "end"},
    {"id": "t-treasure", "kind": "treasure", "title": "Crown", "text": "…a crown worth 150 gold pieces.",
     "gold": 150, "next": "end"},
    {"id": "t-feature", "kind": "feature", "title": "Dry Well", "text": "…a dry well.", "next": "end"},
]


def _real_cards() -> list[ActionCard]:
    if not (DATA / "cards.toml").exists():
        return []
    from rules.legend.content import card_index

    return list(card_index().values())


def _real_fighters() -> list[Fighter]:
    if not (DATA / "fighters.toml").exists():
        return []
    from rules.legend.content import fighters

    return list(fighters())


@pytest.mark.parametrize("card", SAMPLE_CARDS, ids=lambda c: c["id"])
def test_sample_card_renders(card: dict[str, Any]) -> None:
    data = legend.render_card(card)
    img = _open(data)
    assert img.size == (card_layer.CARD_W, card_layer.CARD_H)
    assert len(data) < 300_000
    alt = legend.card_alt_text(card)
    assert card["title"] in alt and card["kind"].title() in alt
    if card["kind"] == "monster":
        assert "box C" in alt and "12" in alt
    if card["kind"] == "treasure":
        assert "150 gold" in alt


@pytest.mark.slow
def test_every_real_card_renders() -> None:
    cards = _real_cards()
    if not cards:
        pytest.skip("cards.toml not written yet")
    for card in cards:
        img = _open(legend.render_card(card))
        assert img.size == (card_layer.CARD_W, card_layer.CARD_H), card.id
        assert card.title in legend.card_alt_text(card)


def test_card_cache_returns_identical_bytes() -> None:
    card = SAMPLE_CARDS[1]
    first = legend.render_card(card)
    assert legend.render_card(dict(card)) is first
    assert legend.render_card(ActionCard(**{**card, "needs": tuple(card["needs"])})) is first


def test_monster_red_dot_under_its_box() -> None:
    img = _open(legend.render_card(SAMPLE_CARDS[1])).convert("RGBA")
    w, gap = 72, 10
    left = (card_layer.CARD_W - (5 * w + 4 * gap)) // 2
    boxes_top = card_layer.CARD_H - 88 - 106
    y = boxes_top + 20 + 58 + 15
    reds = [i for i in range(5) if _px(img, (left + i * (w + gap) + w // 2, y))[0] > 180
            and _px(img, (left + i * (w + gap) + w // 2, y))[1] < 60]
    assert reds == [2]


SAMPLE_FIGHTER = {"id": "brand", "name": "Brand", "dot": 1, "defence": [13, 12, 14, 11, 12],
                  "text": "Brand stands ready.", "wounded_text": "Brand leans on the wall, bleeding."}


@pytest.mark.parametrize("wounded", [False, True])
def test_fighter_card(wounded: bool) -> None:
    data = legend.render_fighter(SAMPLE_FIGHTER, wounded=wounded)
    img = _open(data)
    assert img.size == (card_layer.CARD_W, card_layer.CARD_H)
    assert legend.render_fighter(SAMPLE_FIGHTER, wounded=wounded) is data
    alt = legend.fighter_alt_text(SAMPLE_FIGHTER, wounded=wounded)
    assert "Brand" in alt and "box B" in alt
    assert ("Fighter card, wounded side" in alt) == wounded
    assert ("leans on the wall" in alt) == wounded


def test_fighter_sides_differ() -> None:
    assert legend.render_fighter(SAMPLE_FIGHTER, wounded=False) != legend.render_fighter(SAMPLE_FIGHTER,
                                                                                         wounded=True)


def test_every_real_fighter_renders_both_sides() -> None:
    fighters = _real_fighters()
    if not fighters:
        pytest.skip("fighters.toml not written yet")
    for f in fighters:
        for wounded in (False, True):
            assert _open(legend.render_fighter(f, wounded=wounded)).size == (card_layer.CARD_W, card_layer.CARD_H)


def test_render_imports_no_discord_or_database() -> None:
    code = ("import sys, render.legend; bad = [m for m in ('discord', 'sqlmodel', 'sqlalchemy', 'asyncio') "
            "if m in sys.modules]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)
