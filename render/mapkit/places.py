"""Where places of the Mediterranean world lie (longitude, latitude), by the usual id spellings of Roman
provinces and lands.  A map uses it only to fit the coastline onto its own coordinates; a place missing here
is simply not used."""

from __future__ import annotations

from render.mapkit.coast import LonLat

#: Where a province or land of the Roman world lies (longitude, latitude), by usual id spellings.  Used
#: only to fit the coastline onto the map's own coordinates; a province missing here is simply not used.
PLACES: dict[str, LonLat] = {
    "britannia": (-1.5, 52.5), "caledonia": (-4.0, 56.8), "hibernia": (-8.0, 53.3),
    "lusitania": (-7.5, 39.0), "baetica": (-5.0, 37.5), "tarraconensis": (-1.5, 41.6),
    "hispania-tarraconensis": (-1.5, 41.6), "gallaecia": (-8.0, 42.8), "hispania": (-4.0, 40.0),
    "aquitania": (0.0, 45.0), "gallia-aquitania": (0.0, 45.0), "narbonensis": (4.3, 43.7),
    "gallia-narbonensis": (4.3, 43.7), "lugdunensis": (1.5, 47.6), "gallia-lugdunensis": (1.5, 47.6),
    "belgica": (4.5, 49.9), "gallia-belgica": (4.5, 49.9), "germania-inferior": (6.3, 51.2),
    "germania-superior": (8.0, 48.3), "germania": (10.5, 52.0), "germania-magna": (10.5, 52.0),
    "alpes": (7.0, 45.5), "alpes-maritimae": (7.0, 44.2), "alpes-cottiae": (7.0, 45.0),
    "raetia": (10.5, 47.8), "noricum": (14.0, 47.4), "pannonia": (18.0, 46.5), "pannonia-superior": (16.5, 47.3),
    "pannonia-inferior": (19.0, 45.8), "dalmatia": (17.0, 43.9), "illyricum": (17.5, 43.5),
    "moesia": (23.5, 43.6), "moesia-superior": (21.5, 43.8), "moesia-inferior": (26.5, 43.9),
    "dacia": (24.0, 46.0), "thracia": (26.0, 42.0), "thrace": (26.0, 42.0), "macedonia": (22.5, 40.9),
    "epirus": (20.7, 39.5), "achaea": (22.3, 37.8), "achaia": (22.3, 37.8), "thessalia": (22.3, 39.5),
    "attica": (23.7, 38.1), "peloponnesus": (22.2, 37.5), "creta": (24.9, 35.2), "crete": (24.9, 35.2),
    "cyrenaica": (21.8, 32.3), "creta-et-cyrenaica": (21.8, 32.3), "aegyptus": (31.0, 29.5),
    "aegyptus-inferior": (31.0, 30.8), "thebais": (32.6, 26.0), "arabia": (36.2, 30.3),
    "arabia-petraea": (36.2, 30.3), "nabataea": (35.5, 30.3), "iudaea": (35.2, 31.7), "judaea": (35.2, 31.7),
    "judea": (35.2, 31.7), "palaestina": (35.0, 31.6), "syria": (37.5, 35.0), "phoenicia": (35.8, 34.0),
    "syria-phoenice": (35.8, 34.0), "cilicia": (34.6, 37.0), "cappadocia": (36.0, 38.7), "galatia": (32.6, 39.6),
    "bithynia": (30.5, 40.6), "bithynia-et-pontus": (31.5, 41.0), "pontus": (36.5, 40.8), "asia": (28.0, 38.5),
    "lycia": (29.8, 36.6), "lycia-et-pamphylia": (30.5, 36.9), "pamphylia": (31.0, 37.0), "armenia": (43.0, 39.8),
    "armenia-maior": (43.0, 39.8), "mesopotamia": (40.3, 36.6), "assyria": (43.5, 36.0),
    "babylonia": (44.4, 32.5), "osroene": (39.0, 37.0), "commagene": (38.0, 37.8), "colchis": (42.0, 42.0),
    "iberia": (44.5, 41.9), "albania": (47.0, 41.0), "media": (48.0, 35.5), "media-atropatene": (47.0, 38.0),
    "atropatene": (47.0, 38.0), "parthia": (52.0, 34.5), "sarmatia": (33.0, 48.0), "taurica": (34.0, 45.0),
    "chersonesus": (34.0, 45.0), "bosporus": (36.5, 45.2), "scythia": (30.0, 47.5),
    "africa": (9.7, 35.8), "africa-proconsularis": (9.7, 35.8), "numidia": (6.5, 35.8),
    "mauretania-caesariensis": (2.5, 35.5), "mauretania-tingitana": (-5.5, 34.0), "mauretania": (0.0, 34.8),
    "tripolitania": (13.5, 31.8), "garamantes": (13.5, 26.5), "gaetulia": (4.0, 32.5), "sicilia": (14.2, 37.5),
    "sicily": (14.2, 37.5), "sardinia": (9.0, 40.0), "corsica": (9.1, 42.1), "corsica-et-sardinia": (9.0, 40.8),
    "latium": (12.8, 41.8), "campania": (14.6, 41.0), "etruria": (11.3, 43.2), "umbria": (12.6, 43.0),
    "picenum": (13.4, 43.1), "samnium": (14.5, 41.6), "apulia": (16.2, 41.0), "calabria": (17.6, 40.4),
    "apulia-et-calabria": (16.6, 40.9), "lucania": (15.8, 40.4), "bruttium": (16.3, 39.0),
    "lucania-et-bruttium": (16.0, 39.7), "liguria": (8.5, 44.5), "gallia-cisalpina": (10.0, 45.2),
    "cisalpina": (10.0, 45.2), "aemilia": (11.0, 44.6), "venetia": (12.0, 45.6), "venetia-et-histria": (12.5, 45.6),
    "histria": (13.9, 45.2), "transpadana": (9.0, 45.5), "sabina": (12.9, 42.3), "cyprus": (33.0, 35.0),
    "rhodus": (28.0, 36.2), "lydia": (28.5, 38.7), "caria": (28.0, 37.3), "mysia": (27.5, 39.7),
    "ionia": (27.2, 38.3), "phrygia": (30.5, 38.7), "paphlagonia": (33.5, 41.2), "lycaonia": (33.0, 37.8),
    "pisidia": (30.8, 37.8), "isauria": (32.5, 37.2), "galilaea": (35.4, 32.8), "idumaea": (35.0, 31.0),
    "sinai": (33.8, 29.5), "marmarica": (25.5, 31.2), "libya": (25.0, 29.0), "aethiopia": (33.0, 21.5),
    "nubia": (32.5, 22.5), "armenia-minor": (38.5, 39.8), "hellespontus": (27.0, 40.2),
    "moesia-superior-et-dardania": (21.5, 43.0), "dardania": (21.2, 42.7), "sogdiana": (66.0, 40.0),
    "rhaetia": (10.5, 47.8), "vindelicia": (10.5, 48.2), "frisia": (6.0, 53.0), "batavia": (5.5, 51.9),
    "marcomannia": (15.0, 49.3), "quadia": (18.0, 48.5), "iazyges": (20.0, 46.8), "sarmatae": (20.0, 46.8),
}
