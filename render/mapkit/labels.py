"""Where each place's label goes: a name block beside the place's badge, and a spot for the tokens standing
there, chosen so that blocks, badges, ports and token spots overlap as little as possible and stay on land
and inside the picture.  Plain data in (points, block sizes, obstacles), boxes out; knows no game."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image

from render.common import Box
from render.mapkit.geometry import Site


@dataclass(frozen=True)
class Placement:
    box: Box  # the name block
    token_at: tuple[int, int]  # where a lone token is centred


def overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return float(w * h) if w > 0 and h > 0 else 0.0


def sea_share(box: Box, land: Image.Image) -> float:
    """How much of ``box`` lies over the sea (``land``: "L", 255 = land)."""
    x0, y0, x1, y1 = (max(0, box[0]), max(0, box[1]), min(land.width, box[2]), min(land.height, box[3]))
    if x1 <= x0 or y1 <= y0:
        return 1.0
    crop = land.crop((x0, y0, x1, y1)).resize((8, 4), Image.Resampling.BOX)
    values = list(crop.tobytes())
    return 1.0 - sum(values) / (255.0 * len(values))


def place_labels(sites: Sequence[Site], blocks: Mapping[str, tuple[int, int]], land: Image.Image,
                 size: tuple[int, int], *, badge: int, token: int,
                 obstacles: Sequence[Box] = ()) -> dict[str, Placement]:
    """Place each site's name block (``blocks``: width and height) beside its badge.

    Sites with the most neighbours close by are placed first; each tries below, right, above and left of its
    badge (and a few diagonal spots), scored by overlap, by how much of the block lies over the sea and by
    leaving the picture.  ``obstacles`` (port anchors…) are avoided like badges.
    """
    w, h = size
    half = badge // 2 + 1
    fixed: list[Box] = [(p.x - half, p.y - half, p.x + half, p.y + half) for p in sites]
    fixed += list(obstacles)

    def crowd(p: Site) -> float:
        return sum(1.0 / max(20.0, math.dist((p.x, p.y), (q.x, q.y))) for q in sites if q.id != p.id)

    placed: list[Box] = []
    out: dict[str, Placement] = {}
    for p in sorted(sites, key=crowd, reverse=True):
        bw, bh = blocks[p.id]
        gap = 3
        cands: list[tuple[float, Box, tuple[int, int]]] = []
        t_off = half + token // 2 + 1
        options = [
            (0.0, (p.x - bw // 2, p.y + half + gap), (p.x, p.y - t_off)),  # below; tokens above
            (1.0, (p.x + half + gap, p.y - bh // 2), (p.x - t_off, p.y)),  # right; tokens left
            (1.5, (p.x - bw // 2, p.y - half - gap - bh), (p.x, p.y + t_off)),  # above; tokens below
            (2.0, (p.x - half - gap - bw, p.y - bh // 2), (p.x + t_off, p.y)),  # left; tokens right
            (3.0, (p.x + half - 4, p.y + half - 6), (p.x - t_off + 6, p.y - t_off + 6)),  # below right
            (3.0, (p.x - half + 4 - bw, p.y + half - 6), (p.x + t_off - 6, p.y - t_off + 6)),  # below left
            (3.5, (p.x + half - 4, p.y - half + 6 - bh), (p.x - t_off + 6, p.y + t_off - 6)),  # above right
            (3.5, (p.x - half + 4 - bw, p.y - half + 6 - bh), (p.x + t_off - 6, p.y + t_off - 6)),  # above left
        ]
        own = (p.x - half, p.y - half, p.x + half, p.y + half)
        for pref, (x0, y0), tok in options:
            box = (x0, y0, x0 + bw, y0 + bh)
            tbox = (tok[0] - token // 2, tok[1] - token // 2, tok[0] + token // 2, tok[1] + token // 2)
            score = pref * 40
            score += sum(overlap(box, f) for f in fixed if f != own) * 4
            score += sum(overlap(box, b) for b in placed) * 6
            score += sum(overlap(tbox, b) for b in placed) * 5
            score += sum(overlap(tbox, f) for f in fixed if f != own) * 8
            score += sea_share(box, land) * bw * bh * 0.15
            off = max(0, -box[0]) + max(0, box[2] - w) + max(0, -box[1]) + max(0, box[3] - h)
            score += off * 200
            cands.append((score, box, tok))
        _, box, tok = min(cands, key=lambda c: c[0])
        placed.append(box)
        tx, ty = tok
        placed.append((tx - token // 2 + 4, ty - token // 2 + 4, tx + token // 2 - 4, ty + token // 2 - 4))
        out[p.id] = Placement(box, tok)
    return out


def token_spots(token_at: tuple[int, int], point: tuple[int, int], n: int, token: int) -> list[tuple[int, int]]:
    """Where ``n`` tokens sharing a place go: a row centred on the token spot, overlapping a little, spread
    across the line from the place's point to the spot."""
    if n <= 1:
        return [token_at]
    step = token - 8
    tx, ty = token_at
    px, py = point
    if abs(ty - py) >= abs(tx - px):  # the spot is above or below the badge: spread sideways
        first = tx - step * (n - 1) / 2
        return [(round(first + i * step), ty) for i in range(n)]
    first = ty - step * (n - 1) / 2
    return [(tx, round(first + i * step)) for i in range(n)]
