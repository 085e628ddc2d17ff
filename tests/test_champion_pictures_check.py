"""Champion's map after issue 22: the key is never painted over (the wash and rim of a province in reach, the
last move's arrow), an arrow's head stops short of the names it would cover, and the final map marks the
Champion."""

from __future__ import annotations

import msgspec
import pytest

from render.champion import map as champion_map
from render.champion.basemap import TITLE_H, _base_rgb, _key_box, _label_layer, labels, world
from render.common import drawing
from rules.champion.view import MoveView
from rules.i18n import using
from tests.champion_helpers import midgame
from tests.picture_check import overlap


def _key_area() -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = _key_box(world())
    return (x0, y0 + TITLE_H, x1 + 4, y1 + TITLE_H + 5)


def test_provinces_in_reach_are_washed_but_the_key_stays_as_drawn() -> None:
    """Every province in reach at once (those under the key included): the key's pixels are the static map's."""
    _state, view = midgame()
    everywhere = tuple(p.id for p in world().province)
    view = msgspec.structs.replace(view, highlight=everywhere)
    with using("en"):
        img, _dirty = champion_map.compose_map(view, title="Champion of the Empire · #1")
        base = _base_rgb(world())
    box = _key_area()
    assert img.crop(box).tobytes() == base.crop(box).tobytes()
    washed = (900, 300 + TITLE_H, 1000, 400 + TITLE_H)
    assert img.crop(washed).tobytes() != base.crop(washed).tobytes()  # the wash is drawn elsewhere


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_last_moves_arrowhead_covers_no_name(lang: str) -> None:
    """Moves into Noricum (from each neighbour) and a few long ones: the head stops short of every name."""
    _state, view = midgame()
    links = world().link
    paths = [(ln.a, ln.b) if ln.b == "noricum" else (ln.b, ln.a) for ln in links if "noricum" in (ln.a, ln.b)]
    paths += [(ln.a, ln.b) for ln in links[::45]]
    seat = view.heroes[0].seat
    with using(lang):
        names = [(b[0], b[1] + TITLE_H, b[2], b[3] + TITLE_H) for b in (lab.name_box for lab in
                                                                          labels(world()).values())]
        layer = _label_layer(world())
    laid_over = 0
    for path in paths:
        moved = msgspec.structs.replace(view, last_move=MoveView(seat=seat, path=path, by="explore"))
        with using(lang), drawing() as drawn:
            img, dirty = champion_map.compose_map(moved, title="Champion of the Empire · #1")
        heads = [d.box for d in drawn if d.kind == "arrow"]
        if heads:  # stopped short of every name
            assert not [n for n in names if overlap(heads[0], n, 0)], path
            continue
        # no place clear of the names: the names are laid over the head again, pixel for pixel
        laid_over += 1
        hit = [n for n in names if any(overlap(n, d, 0) for d in dirty)]
        assert hit, path
        x0, y0, x1, y1 = hit[0]
        ink = layer.crop((x0, y0 - TITLE_H, x1, y1 - TITLE_H))
        shown = img.crop((x0, y0, x1, y1)).convert("RGBA")
        solid = [i for i, a in enumerate(ink.getchannel("A").tobytes()) if a == 255]
        assert solid and all(shown.getpixel((i % ink.width, i // ink.width))[:3] ==
                             ink.getpixel((i % ink.width, i // ink.width))[:3] for i in solid[::7]), path
    assert laid_over < len(paths) / 2
