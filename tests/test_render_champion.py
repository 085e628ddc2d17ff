"""Champion of the Empire pictures: the map, the cards and the character sheet (valid PNGs, sizes, key pixels,
alt texts, caches), on small fixtures that follow the data contract and on the real data files."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from PIL import Image, ImageChops

from render import mapkit
from render.champion import map as map_layer
from render.champion import world as world_layer
from render.mapkit.geometry import CELL_RADIUS
from rules.champion.content import DATA, Link, MapFile, MapSize, Province, Region
from rules.champion.view import ChampionView
from tests.champion_helpers import midgame, sample_hero, typed_view


def _open(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def _px(img: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    pixel = img.getpixel(xy)
    assert isinstance(pixel, tuple)
    return pixel


# --- a tiny map that follows the contract (made-up places: no coastline fit) ---------------------------

TINY = MapFile(
    map=MapSize(width=1600, height=1000),
    region=(Region(id="north", name="Septentrio", colour="#5b9bd5"),
            Region(id="south", name="Meridies", colour="#e0a040")),
    province=(
        Province(id="alpha", name="Ἀλφα Ὀρος", region="north", icon="jug", x=400, y=300, city="Őrváros",
                 coast=True),
        Province(id="beta", name="Beta", region="north", icon="sword", x=560, y=330, shrine="Delphi"),
        Province(id="gamma", name="Gamma Longa Provincia", region="north", icon="scroll", x=700, y=280),
        Province(id="delta", name="Delta", region="south", icon="chest", x=480, y=520, coast=True),
        Province(id="epsilon", name="Epsilon", region="south", icon="bow", x=640, y=560),
        Province(id="zeta", name="Zeta", region="south", icon="basket", x=800, y=500, city="Zetapolis"),
    ),
    link=(Link(a="alpha", b="beta"), Link(a="beta", b="gamma"), Link(a="alpha", b="delta", crossing=True),
          Link(a="delta", b="epsilon"), Link(a="epsilon", b="zeta"), Link(a="gamma", b="zeta")),
)


@pytest.fixture()
def tiny(monkeypatch: pytest.MonkeyPatch) -> Iterator[MapFile]:
    monkeypatch.setattr(map_layer, "world", lambda: TINY)
    yield TINY


def _tiny_data(**extra: Any) -> dict[str, Any]:
    view: dict[str, Any] = {
        "round": 2, "phase": "action", "event": None,
        "heroes": [
            {"seat": 0, "player": "Ann", "hero": "labienus", "colour": "red", "letter": "R", "province": "beta",
             "life": 4, "max_life": 5, "to_act": True},
            {"seat": 1, "player": "Bob", "hero": "jahmesz", "colour": "blue", "letter": "B", "province": "zeta",
             "life": 5, "max_life": 5, "to_act": False},
            {"seat": 2, "player": "Cy", "hero": "x", "colour": "green", "letter": "G", "province": "zeta",
             "life": 5, "max_life": 5, "to_act": False},
        ],
        "highlight": ["alpha", "gamma"],
        "last_move": {"seat": 0, "path": ["alpha", "beta"], "by": "explore"},
        "caption": "Ann (Labienus) to act · round 2",
    }
    view.update(extra)
    return view


def _tiny_view(**extra: Any) -> ChampionView:
    return typed_view(_tiny_data(**extra))


def _token_pixel(world_map: MapFile, pid: str) -> tuple[int, int]:
    x, y = map_layer.labels(world_map)[pid].token_at
    return x - 7, y + map_layer.TITLE_H + 6  # inside the disc, beside the letter


@pytest.mark.slow
def test_tiny_map_png_size_mode_and_weight(tiny: MapFile) -> None:
    data = map_layer.render_map(_tiny_view(), title="Tiny")
    img = _open(data)
    assert img.format == "PNG" and img.mode == "P"
    assert img.size == (1600, 1000 + map_layer.TITLE_H + map_layer.CAPTION_H)
    assert len(data) < 1_000_000


def test_tiny_map_key_pixels(tiny: MapFile) -> None:
    img = _open(map_layer.render_map(_tiny_view())).convert("RGB")
    assert _px(img, _token_pixel(tiny, "beta")) == map_layer.TOKENS["red"][0]
    # two heroes share Zeta: both colours show near its token spot
    x, y = map_layer.labels(tiny)["zeta"].token_at
    area = img.crop((x - 40, y + map_layer.TITLE_H - 40, x + 40, y + map_layer.TITLE_H + 40))
    colours = {c for _, c in area.getcolors(1 << 16) or []}
    assert map_layer.TOKENS["blue"][0] in colours and map_layer.TOKENS["green"][0] in colours
    # a highlighted province is ringed and washed; a province not highlighted is untouched
    plain = _open(map_layer.render_map(_tiny_view(highlight=[]))).convert("RGB")

    def changed(pid: str) -> bool:
        p = next(p for p in tiny.province if p.id == pid)
        box = (p.x - 60, p.y + map_layer.TITLE_H - 60, p.x + 60, p.y + map_layer.TITLE_H + 60)
        return ImageChops.difference(img.crop(box), plain.crop(box)).getbbox() is not None

    assert changed("gamma") and changed("alpha") and not changed("epsilon")
    p = next(p for p in tiny.province if p.id == "gamma")
    ring = {c for _, c in img.crop((p.x - 160, p.y - 160 + map_layer.TITLE_H, p.x + 160,
                                    p.y + 160 + map_layer.TITLE_H)).getcolors(1 << 16) or []}
    assert any(min(c) >= 245 for c in ring)  # the white band (the palette may round it a step)


def test_map_without_anything_still_draws(tiny: MapFile) -> None:
    assert _open(map_layer.render_map(typed_view({}))).size[0] == 1600
    odd = {"heroes": [{"seat": 0, "player": "Zed", "colour": "purple", "letter": "", "province": "nowhere"}],
           "highlight": ["nowhere"], "last_move": {"seat": 0, "path": ["alpha"], "by": "voyage"},
           "event": "no-such-event", "round": 1}
    assert _open(map_layer.render_map(typed_view(odd))).size[0] == 1600


def test_map_rendering_repeatable_and_base_kept(tiny: MapFile) -> None:
    first, again = map_layer._base(tiny), map_layer._base(tiny)  # drawn once, then decoded from its PNG
    assert first is not again and first.tobytes() == again.tobytes()
    assert first.getpalette() == again.getpalette()
    assert map_layer.render_map(_tiny_view(), title="x") == map_layer.render_map(_tiny_view(), title="x")
    moved = _tiny_data()
    moved["heroes"][0]["province"] = "alpha"
    assert map_layer.render_map(typed_view(moved), title="x") != map_layer.render_map(_tiny_view(), title="x")


def test_snapshot_equals_a_full_quantisation(tiny: MapFile) -> None:
    """Pasting only the changed rectangles gives the same picture as mapping the whole snapshot."""
    view = _tiny_view(event="x-event", round=4)
    rgb, _ = map_layer.compose_map(view, title="t")
    whole = rgb.quantize(palette=map_layer._palette(tiny), dither=Image.Dither.NONE).convert("RGB")
    fast = _open(map_layer.render_map(view, title="t")).convert("RGB")
    assert ImageChops.difference(whole, fast).getbbox() is None


def test_map_alt_text_says_who_is_where(tiny: MapFile) -> None:
    text = map_layer.map_alt_text(_tiny_view(event="rainy-weather"))
    for words in ("Ann (red", "Beta", "Bob (blue", "Zeta (Zetapolis)", "Cy (green", "Ann to act",
                  "Ἀλφα Ὀρος", "Gamma Longa Provincia", "round 2", "Event:", "from Ἀλφα Ὀρος to Beta"):
        assert words in text, words
    assert len(text) <= 1000


def test_greek_and_hungarian_names_draw_glyphs_not_boxes() -> None:
    from render.common import font

    face = font("bold", 17)
    for word in ("Ἀλφα Ὀρος", "Őrváros", "Jahmesz ő ű"):
        for ch in set(word) - {" "}:
            # a missing glyph falls back to the .notdef box, the same shape for every missing character
            assert face.getmask(ch).getbbox() != face.getmask("\uffff").getbbox() or ch.isascii(), ch


def test_voronoi_cells_share_borders_and_stay_in_reach() -> None:
    cells = mapkit.voronoi(world_layer.sites(TINY), (1600, 1000))
    assert {c.pid for c in cells} == {p.id for p in TINY.province}
    beta = next(c for c in cells if c.pid == "beta")
    assert "alpha" in beta.across and "gamma" in beta.across
    for c in cells:
        p = next(p for p in TINY.province if p.id == c.pid)
        radius = CELL_RADIUS
        assert all(abs(x - p.x) <= radius + 10 and abs(y - p.y) <= radius + 10
                   for x, y in c.points)


def test_fit_needs_known_places() -> None:
    assert mapkit.fit_coastline(world_layer.map_data(TINY)) is None
    assert mapkit.fit_coastline(world_layer.map_data(map_layer.world())) is not None


def test_the_map_kit_knows_no_game() -> None:
    code = ("import sys, render.mapkit; bad = [m for m in sys.modules if m.startswith(('rules', 'bot', "
            "'render.champion'))]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_map_kit_places_labels_from_plain_data() -> None:
    sites = (mapkit.Site("a", 200, 200), mapkit.Site("b", 260, 210, coast=True), mapkit.Site("c", 900, 700))
    data = mapkit.MapData(1200, 900, sites)
    g = mapkit.geometry(data)
    assert g.fit is None and set(g.ports) == {"b"} and g.layers
    spots = mapkit.place_labels(sites, {s.id: (80, 24) for s in sites}, g.land, (1200, 900), badge=30, token=32)
    assert set(spots) == {"a", "b", "c"}
    assert mapkit.labels.overlap(spots["a"].box, spots["b"].box) == 0


# --- the real map ------------------------------------------------------------------------------------

needs_map = pytest.mark.skipif(not (DATA / "map.toml").exists(), reason="map.toml not written yet")


@needs_map
def test_real_map_fits_the_coastline_and_labels_stand_on_land() -> None:
    world_map = map_layer.world()
    g = world_layer.geometry(world_map)
    assert g.fit is not None
    for p in world_map.province:
        land = g.land.getpixel((p.x, p.y))
        assert isinstance(land, int) and land >= 128, p.id
        if p.coast:
            assert p.id in g.ports, p.id


@pytest.mark.slow
@needs_map
def test_real_game_map_renders_small_with_its_tokens() -> None:
    _state, view = midgame()
    assert view.last_move is not None and view.highlight and view.event
    data = map_layer.render_map(view, title="Champion of the Empire")
    img = _open(data).convert("RGB")
    assert len(data) < 1_000_000
    world_map = map_layer.world()
    provinces = [h.province for h in view.heroes]
    for hero in view.heroes:
        if hero.province is not None and provinces.count(hero.province) == 1:
            assert _px(img, _token_pixel(world_map, hero.province)) == map_layer.TOKENS[hero.colour][0]
    assert map_layer.map_alt_text(view).startswith("Map of the Roman world")


@needs_map
def test_real_map_labels_do_not_leave_the_picture() -> None:
    world_map = map_layer.world()
    for lab in map_layer.labels(world_map).values():
        x0, y0, x1, y1 = lab.name_box
        assert x0 >= 0 and x1 <= world_map.map.width and y0 >= 0 and y1 <= world_map.map.height, lab.pid


def test_render_imports_no_discord_or_database() -> None:
    code = ("import sys, render.champion; bad = [m for m in ('discord', 'sqlmodel', 'sqlalchemy', 'asyncio') "
            "if m in sys.modules]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


# --- cards -------------------------------------------------------------------------------------------

from render.champion import cards as card_layer  # noqa: E402
from render.champion import sheet as sheet_layer  # noqa: E402

TINY_STORY: dict[str, Any] = {
    "id": "t-oasis", "deck": "easy", "title": "Ὄασις at Őrség", "roll": True,
    "text": "You find a pool under palms. Roll a d6.",
    "outcome": [
        {"rolls": [1, 3], "text": "A robber attacks. Fight!", "fate": "skull", "rounds": 2,
         "opponent": [{"name": "Robber", "combat": 5, "initiative": 3, "life": 3, "xp": 2}]},
        {"rolls": [4, 5], "text": "Coins in the water. Gain 2 gold.", "fate": "laurel", "gold": 2},
        {"rolls": [6, 6], "text": "Sweet water. Set your life to its maximum.", "fate": "laurel", "full_life": True},
    ],
}
TINY_CHOICE: dict[str, Any] = {
    "id": "t-inn", "deck": "hard", "title": "Inn", "text": "An inn.",
    "outcome": [{"choice": "Pay for a bed", "text": "Lose 1 gold. Gain 2 life.", "gold": -1, "life": 2},
                {"choice": "Walk on", "text": "Nothing happens."}],
}
TINY_EVENT = {"id": "t-rain", "name": "Rainy Weather", "text": "Rain falls.", "effect": "explore_move_minus1"}
TINY_ITEM = {"id": "t-pilum", "name": "Pilum", "kind": "weapon", "starting": True, "people": "Roman", "hands": 1,
             "ranged": True, "ranged_discard": 2, "text": "A javelin."}
TINY_MONSTER = {"id": "t-kerberos", "name": "Kerberos", "text": "The hound.", "combat": 5, "initiative": 5,
                "life": 3, "heads": 3, "single_torso": True, "abilities": ["three_headed"],
                "ability_text": ["Three-headed: each head is a separate opponent."]}


@pytest.mark.parametrize("card", [TINY_STORY, TINY_CHOICE], ids=lambda c: c["id"])
def test_story_card_renders_and_says_its_outcomes(card: dict[str, Any]) -> None:
    data = card_layer.render_story(card)
    assert _open(data).size == (card_layer.STORY_W, card_layer.STORY_H) and len(data) < 400_000
    assert card_layer.render_story(dict(card)) is data  # cached per card
    alt = card_layer.story_alt_text(card)
    assert card["title"] in alt and card["deck"].title() in alt
    if card is TINY_STORY:
        assert "1–3:" in alt and "Robber: combat 5, initiative 3, life 3, 2 XP" in alt and "skull" in alt


def test_story_deck_colour_frames_the_card() -> None:
    img = _open(card_layer.render_story(TINY_STORY)).convert("RGBA")
    colours = {c[:3] for _, c in img.crop((0, 0, card_layer.STORY_W, 60)).getcolors(1 << 16) or []}
    easy = card_layer.glyphs.DECK_COLOURS["easy"]
    assert any(sum(abs(a - b) for a, b in zip(c, easy, strict=True)) < 12 for c in colours)


def test_event_item_monster_and_combat_cards() -> None:
    assert _open(card_layer.render_event(TINY_EVENT)).size == (card_layer.CARD_W, card_layer.CARD_H)
    assert "Exploration moves 1 province fewer" in card_layer.event_alt_text(TINY_EVENT)
    assert _open(card_layer.render_item(TINY_ITEM)).size == (card_layer.CARD_W, card_layer.CARD_H)
    alt = card_layer.item_alt_text(TINY_ITEM)
    assert "Pilum" in alt and "ranged: opponent discards 2" in alt and "one-handed" in alt
    assert _open(card_layer.render_monster(TINY_MONSTER)).size == (card_layer.SHEET_W, card_layer.SHEET_H)
    alt = card_layer.monster_alt_text(TINY_MONSTER)
    assert "Combat value 5, initiative 5, life 3" in alt and "3 heads" in alt
    seen = set()
    for kind in ("torso", "head", "hand", "leg", "inspired"):
        for armed in (False, True):
            data = card_layer.render_combat_card(kind, armed, kind == "inspired")
            assert _open(data).size == (card_layer.COMBAT_W, card_layer.COMBAT_H)
            seen.add(data)
    assert len(seen) == 10
    assert "without a roll" in card_layer.combat_card_alt_text("inspired", True, True)


needs_cards = pytest.mark.skipif(not all((DATA / f).exists() for f in ("stories.toml", "events.toml",
                                                                        "items.toml", "monsters.toml")),
                                 reason="card data not written yet")


@pytest.mark.slow
@needs_cards
def test_every_real_card_renders() -> None:
    from rules.champion import content

    for story in content.stories():
        assert _open(card_layer.render_story(story)).size == (card_layer.STORY_W, card_layer.STORY_H), story.id
        assert story.title in card_layer.story_alt_text(story)
    for event in content.events():
        assert _open(card_layer.render_event(event)).size == (card_layer.CARD_W, card_layer.CARD_H), event.id
    for item in content.items():
        assert _open(card_layer.render_item(item)).size == (card_layer.CARD_W, card_layer.CARD_H), item.id
    for monster in content.monsters():
        assert _open(card_layer.render_monster(monster)).size == (card_layer.SHEET_W, card_layer.SHEET_H)


@needs_cards
def test_real_story_text_fits_its_card() -> None:
    """The longest story is drawn at a legible size (the fitting loop did not run out of sizes)."""
    from render.common import font, line_height, wrap
    from rules.champion import content

    for story in content.stories():
        face = font("sans", 13)
        body = wrap(story.text, face, card_layer.STORY_W - 84)
        rows = card_layer._rows(story, font("sans", 12), card_layer.STORY_W - 84, 10, 1.18)
        need = len(body) * line_height(face, 1.22) + 16 + sum(r.height + 10 for r in rows)
        assert need < card_layer.STORY_H - 200, story.id


# --- the character sheet -----------------------------------------------------------------------------

def test_sheet_renders_tracks_and_alt_text() -> None:
    hero = sample_hero()
    data = sheet_layer.render_sheet(hero, side_name="Veteran")
    img = _open(data)
    assert img.size == (sheet_layer.SHEET_W, sheet_layer.SHEET_H) and len(data) < 500_000
    assert sheet_layer.render_sheet(msgspec.structs.replace(hero), side_name="Veteran") is data
    assert sheet_layer.render_sheet(hero) is data  # the side's name comes from the view
    changed = msgspec.structs.replace(hero, life=4)
    assert sheet_layer.render_sheet(changed, side_name="Veteran") != data
    alt = sheet_layer.sheet_alt_text(hero, side_name="Veteran")
    for words in ("Veteran side", "played by Ann", "life 3 of 6", "combat 6 of 7", "gold 5", "Information 2 of 6"):
        assert words in alt, words


def test_sheet_with_odd_input_still_draws() -> None:
    odd = msgspec.structs.replace(sample_hero(), hero="nobody-ő", player="Ödön", colour="purple",
                                  items=("x", "y", "z", "w", "v"), life=-3, shrines=("nowhere",), side=None)
    assert _open(sheet_layer.render_sheet(odd)).size == (sheet_layer.SHEET_W, sheet_layer.SHEET_H)
    assert "Ödön" in sheet_layer.sheet_alt_text(odd)


def test_a_developed_heros_tracks_slide_up_to_show_values_beyond_fifteen() -> None:
    from render.champion import render_sheet

    hero = msgspec.structs.replace(sample_hero(), life=22, max_life=24, xp=31, gold=40)
    one = render_sheet(hero, side_name="Veteran")
    hero = msgspec.structs.replace(hero, life=23)
    assert render_sheet(hero, side_name="Veteran") != one  # before, both drew no life marker at all


@pytest.mark.slow
def test_the_shipped_label_layout_is_the_one_placement_gives_today() -> None:
    """The map's name blocks and token places ship in render/champion/layout.json (placing them takes seconds);
    after a change to the map or the placement, `python -m render.champion.basemap` writes the file again."""
    from render.champion import basemap
    from rules.champion import content

    world_map = content.map_file()
    shipped = basemap.msgspec.json.decode(basemap.LAYOUT_FILE.read_bytes(), type=basemap._Layout)
    assert shipped.key == basemap._layout_key(world_map), "run: python -m render.champion.basemap"
    assert shipped.labels == basemap.place_all(world_map), "run: python -m render.champion.basemap"
