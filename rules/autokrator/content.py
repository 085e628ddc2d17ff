"""Autokrator's content, read once from ``data/*.toml``: the map, the battle cards, the life tracks, the designed
numbers and the five epochs.  Everything here is plain data; the engine reads it and never the prose."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TypeVar

import msgspec

from rules.datafiles import load_toml, records

DATA = Path(__file__).parent / "data"
REALMS = ("sar", "byz", "fra", "moo")
UNITS = ("king", "general", "admiral")
HOLDERS = ("king", "general", "admiral", "garrison")
FIELDS = ("plain", "hill", "forest", "city", "ambush")
FIELD_NAMES = {"plain": "Plain", "hill": "Hill", "forest": "Forest", "city": "City", "ambush": "Ambush"}
UNIT_NAMES = {"king": "King", "general": "General", "admiral": "Admiral", "garrison": "Garrison"}
KIND_NAMES = {"cavalry": "Cavalry", "infantry": "Infantry", "archers": "Archers", "mercenaries": "Mercenaries",
              "militia": "Militia"}


T = TypeVar("T")


class Region(msgspec.Struct, frozen=True):
    id: str
    name: str
    local: str
    lon: float
    lat: float
    owner: str = ""  # a realm key, "" neutral, "x" never conquered
    coats: int = 0
    capital: bool = False
    anchor: str = ""  # "red", "yellow" or ""


class Realm(msgspec.Struct, frozen=True):
    name: str
    adjective: str
    capital: str
    admiral: str
    anchor: str
    colour: tuple[int, int, int]
    letter: str


class Card(msgspec.Struct, frozen=True):
    id: str
    owner: str
    kind: str
    name: str
    values: tuple[int, int, int, int, int]
    troops: int
    swords: int
    fixed: str = ""

    def points(self, field: str) -> int:
        return self.values[FIELDS.index(field)]


class Track(msgspec.Struct, frozen=True):
    start: int
    modifiers: dict[str, int]

    def modifier(self, lives: int) -> int:
        return self.modifiers.get(str(lives), 0)


class Epoch(msgspec.Struct, frozen=True):
    number: int
    years: str
    title: str
    report: str
    condition: str
    kind: str
    value: int
    realm: str = ""
    unit: str = ""
    when: str = ""
    raid: str = ""


class Numbers(msgspec.Struct, frozen=True):
    battlefields: list[str]
    treasury: dict[str, int]
    garrisons: dict[str, int]
    lives: dict[str, Track]
    defence: dict[str, int]
    costs: dict[str, int]
    points: dict[str, int]
    realms: dict[str, int] = msgspec.field(default_factory=dict)
    #: Points a realm starts with, by mode ("east"), or by mode without raids ("east-noraids", else the mode's):
    #: compensation found by the balance command (RULES.md has why).
    start: dict[str, dict[str, int]] = msgspec.field(default_factory=dict)
    #: Level scores, by setting as ``start``: a realm wins a level score at the end against the realms listed
    #: (before conquests held are counted) -- half a point of compensation, where a whole one is too much.
    level: dict[str, dict[str, list[str]]] = msgspec.field(default_factory=dict)

    def start_points(self, mode: str, raids: bool) -> dict[str, int]:
        """The points each realm starts with in this setting (a realm not named starts with none)."""
        return _by_setting(self.start, mode, raids)

    def level_wins(self, mode: str, raids: bool) -> dict[str, list[str]]:
        """Per realm, the realms it wins a level score against in this setting."""
        return _by_setting(self.level, mode, raids)


def _by_setting(table: dict[str, dict[str, T]], mode: str, raids: bool) -> dict[str, T]:
    """A table's row for a setting: ``<mode>-noraids`` without raids if it has one, else ``<mode>``'s."""
    if not raids and f"{mode}-noraids" in table:
        return table[f"{mode}-noraids"]
    return table.get(mode, {})


class _MapFile(msgspec.Struct):
    regions: list[Region]
    links: list[tuple[str, str]]
    realms: dict[str, Realm]


class Library:
    """All of the game's data, indexed."""

    def __init__(self) -> None:
        board = load_toml(DATA / "map.toml", _MapFile)
        self.regions: dict[str, Region] = {r.id: r for r in board.regions}
        self.realms: dict[str, Realm] = board.realms
        nbrs: dict[str, set[str]] = {r: set() for r in self.regions}
        for a, b in board.links:
            nbrs[a].add(b)
            nbrs[b].add(a)
        self.neighbours: dict[str, tuple[str, ...]] = {r: tuple(sorted(n)) for r, n in nbrs.items()}
        self.links: tuple[tuple[str, str], ...] = tuple(board.links)
        self.cards: dict[str, Card] = {c.id: c for c in records(DATA / "cards.toml", "cards", Card)}
        self.numbers = load_toml(DATA / "rules.toml", Numbers)
        self.epochs: tuple[Epoch, ...] = records(DATA / "epochs.toml", "epochs", Epoch)

        self._decks: dict[str, tuple[str, ...]] = {}
        for c in self.cards.values():
            self._decks[c.owner] = (*self._decks.get(c.owner, ()), c.id)
        self._fixed = {(c.owner, c.fixed): c.id for c in self.cards.values() if c.fixed}

    def deck(self, owner: str) -> tuple[str, ...]:
        return self._decks.get(owner, ())

    def fixed(self, realm: str, holder: str) -> str:
        return self._fixed[(realm, holder)]

    def ports(self, anchor: str) -> tuple[str, ...]:
        return tuple(r.id for r in self.regions.values() if r.anchor == anchor)

    def name(self, region: str) -> str:
        return self.regions[region].name


@cache
def library() -> Library:
    return Library()
