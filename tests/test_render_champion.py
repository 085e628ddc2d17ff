"""Champion of the Empire pictures: the map, the cards and the character sheet (valid PNGs, sizes, key pixels,
alt texts, caches), on small fixtures that follow the data contract and on the real data files."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from render.champion import map as map_layer
from render.champion import world as world_layer
from rules.champion.content import DATA, Link, MapFile, MapSize, Province, Region


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


def _tiny_view(**extra: Any) -> dict[str, Any]:
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


def _token_pixel(world_map: MapFile, pid: str) -> tuple[int, int]:
    x, y = map_layer.labels(world_map)[pid].token_at
    return x - 7, y + map_layer.TITLE_H + 6  # inside the disc, beside the letter


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
    # a highlighted province is washed with the highlight colour somewhere; an unhighlighted one is not
    def has_highlight(pid: str) -> bool:
        p = next(p for p in tiny.province if p.id == pid)
        box = (p.x - 60, p.y + map_layer.TITLE_H - 60, p.x + 60, p.y + map_layer.TITLE_H + 60)
        return map_layer.HIGHLIGHT in {c for _, c in img.crop(box).getcolors(1 << 16) or []}
    assert has_highlight("gamma") and not has_highlight("epsilon")


def test_map_without_anything_still_draws(tiny: MapFile) -> None:
    assert _open(map_layer.render_map({})).size[0] == 1600
    odd = {"heroes": [{"seat": 0, "player": "Zed", "colour": "purple", "province": "nowhere"}],
           "highlight": ["nowhere"], "last_move": {"seat": 0, "path": ["alpha"], "by": "voyage"},
           "event": "no-such-event", "round": 1}
    assert _open(map_layer.render_map(odd)).size[0] == 1600


def test_map_rendering_repeatable_and_base_cached(tiny: MapFile) -> None:
    assert map_layer._base(tiny) is map_layer._base(tiny)
    assert map_layer.render_map(_tiny_view(), title="x") == map_layer.render_map(_tiny_view(), title="x")
    moved = _tiny_view()
    moved["heroes"][0]["province"] = "alpha"
    assert map_layer.render_map(moved, title="x") != map_layer.render_map(_tiny_view(), title="x")


def test_snapshot_equals_a_full_quantisation(tiny: MapFile) -> None:
    """Pasting only the changed rectangles gives the same picture as mapping the whole snapshot."""
    view = _tiny_view(event="x-event", round=4)
    rgb, _ = map_layer.compose_map(view, title="t")
    whole = rgb.quantize(palette=map_layer._palette(tiny), dither=Image.Dither.NONE).convert("RGB")
    fast = _open(map_layer.render_map(view, title="t")).convert("RGB")
    from PIL import ImageChops
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
    cells = world_layer.voronoi(TINY.province, (1600, 1000))
    assert {c.pid for c in cells} == {p.id for p in TINY.province}
    beta = next(c for c in cells if c.pid == "beta")
    assert "alpha" in beta.across and "gamma" in beta.across
    for c in cells:
        p = next(p for p in TINY.province if p.id == c.pid)
        assert all(abs(x - p.x) <= world_layer.CELL_RADIUS + 10 and abs(y - p.y) <= world_layer.CELL_RADIUS + 10
                   for x, y in c.points)


def test_fit_needs_known_places() -> None:
    assert world_layer.fit_coastline(TINY) is None


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


@needs_map
def test_real_map_sample_view_renders_fast_and_small() -> None:
    view = map_layer.sample_view()
    data = map_layer.render_map(view, title="Champion of the Empire")
    img = _open(data).convert("RGB")
    assert len(data) < 1_000_000
    world_map = map_layer.world()
    for hero in view["heroes"]:
        if hero["province"] == view["heroes"][0]["province"]:
            assert _px(img, _token_pixel(world_map, hero["province"])) == map_layer.TOKENS[hero["colour"]][0]
    out = map_layer.bench_map(n=3)
    assert out["render_p50_ms"] > 0 and out["png_bytes"] < 1_000_000


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
