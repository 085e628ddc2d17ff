"""The Champion map at chat size: no name block touches another name or any province's icon; each hero
token stands inside its own province and covers no name; the tokens are larger than before (40 px)."""

from __future__ import annotations

import itertools

from render.champion import basemap
from render.mapkit.labels import overlap


def _disc(point: tuple[int, int]) -> tuple[int, int, int, int]:
    r = basemap.TOKEN_D // 2
    return (point[0] - r, point[1] - r, point[0] + r, point[1] + r)


def test_no_two_name_blocks_touch_and_none_covers_another_icon() -> None:
    world = basemap.world()
    labs = basemap.labels(world)
    assert len(labs) == len(world.province)
    for a, b in itertools.combinations(labs.values(), 2):
        assert overlap(a.name_box, b.name_box) == 0, (a.pid, b.pid)
    half = basemap.BADGE // 2
    for p in world.province:
        badge = (p.x - half, p.y - half, p.x + half, p.y + half)
        for lab in labs.values():  # its own icon too
            assert overlap(lab.name_box, badge) == 0, (lab.pid, "covers the icon of", p.id)


def test_each_token_stands_in_its_own_province_and_covers_no_name() -> None:
    world = basemap.world()
    labs = basemap.labels(world)
    owners = basemap.owners(world)
    index = {p.id: i + 1 for i, p in enumerate(world.province)}
    assert basemap.TOKEN_D >= 40
    for lab in labs.values():
        assert owners.getpixel(lab.token_at) == index[lab.pid], lab.pid  # e.g. Attica's token in Attica
        for other in labs.values():
            assert overlap(_disc(lab.token_at), other.name_box) == 0, (lab.pid, "covers the name of", other.pid)
