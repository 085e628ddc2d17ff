"""The map's region names, in every language, stand clear of one another (with a gap, so that two Japanese names
on a line do not read as one word) and of the printed shields — the label placer alone left Navarre across
Septimania and Damascus under Sidon's shields."""

from __future__ import annotations

import pytest

from render.autokrator import board
from render.autokrator.world import HEIGHT, WIDTH
from render.mapkit.labels import overlap
from rules.i18n import using


@pytest.mark.parametrize("lang", ["en", "hu", "el", "ja"])
def test_no_two_names_run_into_each_other(lang: str) -> None:
    with using(lang):
        placed = board._placements()
    inked = {rid: board._inked(p.box) for rid, p in placed.items()}
    crossed = [(a, b) for a in inked for b in inked if a < b and
               overlap((inked[a][0] - board.GAP + 1, inked[a][1], inked[a][2] + board.GAP - 1, inked[a][3]), inked[b])]
    assert not crossed, crossed
    assert all(p.box[0] >= 0 and p.box[1] >= 0 and p.box[2] <= WIDTH and p.box[3] <= HEIGHT for p in placed.values())
