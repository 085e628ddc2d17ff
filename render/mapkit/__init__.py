"""A map kit shared by games drawn on a map of the Mediterranean world: a coarse coastline (``coast``) and a
gazetteer of places (``places``), the fit from degrees onto a map's own coordinates, Voronoi provinces with
wobbled borders and port anchors (``geometry``), and label placement (``labels``).

It knows no game: a game hands it plain data — sites (an id, a point, a coast flag, an optional
longitude/latitude) on a canvas, name-block sizes — through the small types here, and draws the rest itself.
"""

from render.mapkit.coast import MEDITERRANEAN, Coastline, LonLat
from render.mapkit.geometry import OUT, Cell, Geometry, MapData, Site, fit_coastline, geometry, project, voronoi
from render.mapkit.labels import Placement, place_labels, token_spots
from render.mapkit.places import PLACES

__all__ = [
    "MEDITERRANEAN", "OUT", "PLACES", "Cell", "Coastline", "Geometry", "LonLat", "MapData", "Placement", "Site",
    "fit_coastline", "geometry", "place_labels", "project", "token_spots", "voronoi",
]
