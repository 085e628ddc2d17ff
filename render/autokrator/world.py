"""Autokrator's board handed to the map kit: each region a site at its longitude/latitude, projected onto the
picture; the kit fits its coastline, cuts the Voronoi regions and finds where each port's anchor sits."""

from __future__ import annotations

import math
from functools import lru_cache

from render.idle import forget_when_idle
from render.mapkit import Geometry, MapData, Site
from render.mapkit import geometry as kit_geometry
from rules.autokrator.content import library

WIDTH, HEIGHT = 1400, 940
WEST, NORTH = -10.8, 54.4
SCALE = 31.0  # pixels per degree of latitude
SHRINK = math.cos(math.radians(39.0))  # a degree of longitude is shorter at these latitudes


def project(lon: float, lat: float) -> tuple[int, int]:
    return round((lon - WEST) * SCALE * SHRINK), round((NORTH - lat) * SCALE)


def sites() -> tuple[Site, ...]:
    out = []
    for r in library().regions.values():
        x, y = project(r.lon, r.lat)
        out.append(Site(r.id, x, y, coast=bool(r.anchor), lonlat=(r.lon, r.lat)))
    return tuple(out)


@forget_when_idle(120)  # 15–18 MB a map: once its layers are kept as PNG, only a missing one needs it
@lru_cache(maxsize=1)
def geometry() -> Geometry:
    return kit_geometry(MapData(width=WIDTH, height=HEIGHT, sites=sites()))
