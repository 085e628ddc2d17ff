"""Champion of the Empire's map handed to the map kit (``render.mapkit``): each province becomes a site (its
point, whether it has a harbour, where it lies on Earth if the gazetteer knows it); the kit computes the
coastline fit, the province cells with their wobbled borders and the port anchors once per map."""

from __future__ import annotations

from functools import lru_cache

from render.idle import forget_when_idle
from render.mapkit import PLACES, Geometry, MapData, Site
from render.mapkit import geometry as kit_geometry
from rules.champion.content import MapFile


def sites(world: MapFile) -> tuple[Site, ...]:
    return tuple(Site(p.id, p.x, p.y, coast=p.coast, lonlat=PLACES.get(p.id)) for p in world.province)


def map_data(world: MapFile) -> MapData:
    return MapData(width=world.map.width, height=world.map.height, sites=sites(world))


@forget_when_idle(120)  # 15–18 MB a map: once its layers are kept as PNG, only a missing one needs it
@lru_cache(maxsize=4)
def geometry(world: MapFile) -> Geometry:
    """Everything about the map that never changes during a game (computed once per map)."""
    return kit_geometry(map_data(world))
