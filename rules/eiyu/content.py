"""The game's printed components, read once from ``data/*.toml``: the map, the double-sided chips, the titans,
the year track, the dummy player and the other numbers (see RULES.md for where each comes from)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import msgspec

from rules.datafiles import load_toml

DATA = Path(__file__).parent / "data"
ACT, WAIT = "act", "wait"


class City(msgspec.Struct, frozen=True):
    id: int
    name: str
    x: int
    y: int
    kind: str  # "recruit", "monster" or "field"


class Road(msgspec.Struct, frozen=True):
    a: int
    b: int
    colour: str


class Area(msgspec.Struct, frozen=True):
    id: str
    name: str
    cities: tuple[int, ...]
    first: int
    second: int
    x: int
    y: int
    hidden: bool = False


class Chip(msgspec.Struct, frozen=True):
    id: str
    monster: str
    soldiers: tuple[int, ...]  # the recruitment side, weakest first (8 o'clock, clockwise)
    needs: tuple[int, ...]  # the monster side: the exact soldiers a hunt discards
    building: int
    gold: int
    fame: int


class Soldier(msgspec.Struct, frozen=True):
    id: int
    name: str
    short: str
    colour: str


class Titan(msgspec.Struct, frozen=True):
    id: str
    name: str
    wakes: int
    wakes_short: int
    cost: int
    gold: int
    fame: int


class ShowReward(msgspec.Struct, frozen=True):
    soldier: int
    kind: str  # "gold" or "fame"
    amounts: tuple[int, ...]


class YearTrack(msgspec.Struct, frozen=True):
    shows: tuple[int, ...]
    shows_short: tuple[int, ...]
    reward: tuple[ShowReward, ...]


class Buildings(msgspec.Struct, frozen=True):
    points: tuple[int, ...]
    max_levels: int


class DummyStart(msgspec.Struct, frozen=True):
    players: int
    fame: int
    gold: int
    building: int


class Dummy(msgspec.Struct, frozen=True):
    name: str
    fame_step: int
    gold_step: int
    building_step: int
    start: tuple[DummyStart, ...]

    def start_for(self, players: int) -> tuple[int, int, int]:
        row = next((s for s in self.start if s.players == players), self.start[-1])
        return (row.fame, row.gold, row.building)


class Library(msgspec.Struct, frozen=True):
    colours: tuple[str, ...]
    cities: tuple[City, ...]
    roads: tuple[Road, ...]
    areas: tuple[Area, ...]
    chips: tuple[Chip, ...]
    soldiers: tuple[Soldier, ...]
    titans: tuple[Titan, ...]
    year_track: YearTrack
    building: Buildings
    dummy: Dummy
    slots: int
    years: int
    short_years: int
    dummy_at_most: int

    @property
    def orders(self) -> tuple[str, ...]:
        """Every order a slot can hold: act (the green square), wait (×) and one move per road colour."""
        return (ACT, WAIT, *self.colours)

    def city(self, city_id: int) -> City:
        return self.cities[city_id - 1]

    def road(self, city_id: int, colour: str) -> int | None:
        """Where the road of this colour leads from the city, or None when the city has no such road."""
        for r in self.roads:
            if r.colour == colour and city_id in (r.a, r.b):
                return r.b if r.a == city_id else r.a
        return None

    def areas_of(self, city_id: int) -> tuple[Area, ...]:
        return tuple(a for a in self.areas if city_id in a.cities)

    def area(self, area_id: str) -> Area:
        return next(a for a in self.areas if a.id == area_id)

    def chip(self, chip_id: int) -> Chip:
        return self.chips[chip_id]

    def soldier(self, kind: int) -> Soldier:
        return self.soldiers[kind - 1]


def _load(name: str) -> dict[str, object]:
    return load_toml(DATA / name, dict[str, object])


@cache
def library() -> Library:
    board, chips, game = _load("map.toml"), _load("chips.toml"), _load("game.toml")
    raw = {
        "colours": board["colours"], "cities": board["city"], "roads": board["road"], "areas": board["area"],
        "chips": chips["chip"], "soldiers": game["soldier"], "titans": game["titan"],
        "year_track": game["year_track"], "building": game["building"], "dummy": game["dummy"],
        "slots": game["slots"], "years": game["years"], "short_years": game["short_years"],
        "dummy_at_most": game["dummy_at_most"],
    }
    return msgspec.convert(raw, Library)
