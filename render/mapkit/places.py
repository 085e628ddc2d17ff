"""Where places of the Mediterranean world lie (longitude, latitude), by the usual id spellings of Roman
provinces and lands.  A map uses it only to fit the coastline onto its own coordinates; a place missing here
is simply not used."""

from __future__ import annotations

from pathlib import Path

import msgspec

from render.mapkit.coast import LonLat

#: The gazetteer itself: one ``"id": [longitude, latitude]`` a line, several spellings of one place side by side.
PLACES_FILE = Path(__file__).with_name("places.json")

#: Where a province or land of the Roman world lies (longitude, latitude), by usual id spellings.  Used
#: only to fit the coastline onto the map's own coordinates; a province missing here is simply not used.
PLACES: dict[str, LonLat] = msgspec.json.decode(PLACES_FILE.read_bytes(), type=dict[str, tuple[float, float]])
