"""What Tabula plays for a seat (an empty seat, or an absent player after the game's timeout), and the preview of
a row: where it takes a player on today's map, as if nobody else moved.

The programming policy samples rows that wander along the roads and act where there is something to do, plays
each through the preview and keeps the one worth most (hunts first, then recruits that feed a hunt in sight)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import msgspec

from rules.core import Rng
from rules.eiyu.content import ACT, WAIT, Library, library
from rules.eiyu.engine import Engine
from rules.eiyu.engine.scores import awake_titan, building_points, has_troops
from rules.eiyu.state import (
    ChooseCity,
    EiyuAction,
    RaiseDummy,
    Reveal,
    SetRow,
    State,
    TakeRewards,
)
from rules.eiyu.view import EiyuView


class Preview(msgspec.Struct, frozen=True):
    """One order of a previewed row: where the pawn stands after it and what it did there."""

    order: str
    city: int
    did: str  # "move", "wait", "no_road", "recruit 2", "hunt <chip>", "titan", "acted", "nothing", "troops"


class Board(msgspec.Struct, frozen=True):
    """What a preview needs to know, read from the state (Tabula's own seats) or from a seat's view (the panel)."""

    city: int
    soldiers: tuple[int, ...]
    slot: tuple[int, ...]  # per city: its chip, or -1
    taken: tuple[int, ...]  # per city: soldiers already taken from its recruitment chip
    titan: int | None  # the awake titan a hunt would face
    acted: tuple[int, ...] = ()


def board_of_state(s: State, seat: int) -> Board:
    return Board(city=s.players[seat].city, soldiers=tuple(s.players[seat].soldiers), slot=tuple(s.slot),
                 taken=tuple(s.taken), titan=awake_titan(s),
                 acted=tuple(s.acted[seat]) if s.phase != "program" else ())


def board_of_view(view: EiyuView, seat: int) -> Board:
    lib = library()
    taken = tuple(len(lib.chip(c.chip).soldiers) - len(c.left) if c.chip >= 0 and c.kind == "recruit" else 0
                  for c in view.cities)
    return Board(city=view.players[seat].city, soldiers=view.secret.soldiers if view.secret else (),
                 slot=tuple(c.chip for c in view.cities), taken=taken,
                 titan=next((i for i, t in enumerate(view.titans) if t == "awake"), None))


class _Sim:
    """One pawn walking a row on the map as it stands: advanced an order at a time, copied cheaply."""

    __slots__ = ("acted", "city", "slot", "soldiers", "taken", "titan", "value")

    def __init__(self, b: Board) -> None:
        self.city, self.soldiers = b.city, list(b.soldiers)
        self.slot, self.taken = list(b.slot), list(b.taken)
        self.acted, self.titan = set(b.acted), b.titan
        self.value = 0.0

    def copy(self) -> _Sim:
        """A copy sharing the lists: ``_own`` copies them before an act changes them (moves change none)."""
        other = _Sim.__new__(_Sim)
        other.city, other.soldiers, other.slot, other.taken = self.city, self.soldiers, self.slot, self.taken
        other.acted, other.titan, other.value = self.acted, self.titan, self.value
        return other

    def _own(self) -> None:
        self.soldiers, self.slot, self.taken = list(self.soldiers), list(self.slot), list(self.taken)
        self.acted = set(self.acted)

    def advance(self, order: str, lib: Library) -> Preview:
        city = self.city
        if order == WAIT:
            return Preview(order, city, "wait")
        if order != ACT:
            to = lib.road(city, order)
            if to is None:
                self.value -= 0.5
                return Preview(order, city, "no_road")
            self.city = to
            return Preview(order, to, "move")
        if city in self.acted:
            self.value -= 0.5
            return Preview(order, city, "acted")
        chip, kind = self.slot[city - 1], lib.city(city).kind
        self._own()
        if chip >= 0 and kind == "monster" and has_troops(self.soldiers, lib.chip(chip).needs):
            c = lib.chip(chip)
            for t in c.needs:
                self.soldiers.remove(t)
            self.slot[city - 1] = -1
            self.acted.add(city)
            self.value += 6 + c.gold + c.fame + c.building
            return Preview(order, city, f"hunt {chip}")
        if chip >= 0 and kind == "recruit":
            on = lib.chip(chip).soldiers
            soldier = on[self.taken[city - 1]]
            self.taken[city - 1] += 1
            if self.taken[city - 1] >= len(on):
                self.slot[city - 1] = -1
            self.soldiers.append(soldier)
            self.acted.add(city)
            self.value += 2.5
            return Preview(order, city, f"recruit {soldier}")
        if self.titan is not None and len(self.soldiers) >= lib.titans[self.titan].cost:
            self.soldiers = sorted(self.soldiers)[lib.titans[self.titan].cost:]
            self.acted.add(city)
            self.titan = None
            self.value += 9
            return Preview(order, city, "titan")
        self.value -= 0.5
        return Preview(order, city, "troops" if chip >= 0 else "nothing")

    def outlook(self, lib: Library) -> float:
        """Where the row ends: beside a monster the troops can beat, or a recruitment chip."""
        bonus = 0.0
        have = (0, *(self.soldiers.count(t) for t in (1, 2, 3, 4)))
        for city in _around(self.city):
            chip = self.slot[city - 1]
            if chip < 0:
                continue
            if _kind(city) == "recruit":
                bonus += 0.5
            elif all(have[t] >= n for t, n in _needs(chip)):
                bonus += 3
        return bonus


@cache
def _kind(city: int) -> str:
    return library().city(city).kind


@cache
def _needs(chip: int) -> tuple[tuple[int, int], ...]:
    needs = library().chip(chip).needs
    return tuple((t, needs.count(t)) for t in sorted(set(needs)))


@cache
def _around(city: int) -> tuple[int, ...]:
    lib = library()
    return tuple({city, *(lib.road(city, c) or city for c in lib.colours)})


@cache
def _orders_from(city: int) -> tuple[str, ...]:
    lib = library()
    return (ACT, WAIT, *(c for c in lib.colours if lib.road(city, c) is not None))


def preview(board: Board | State, seat: int, row: Sequence[str], lib: Library | None = None) -> list[Preview]:
    """Play ``row`` for ``seat`` alone on the map as it stands (what the others do may change it)."""
    lib = lib or library()
    sim = _Sim(board if isinstance(board, Board) else board_of_state(board, seat))
    return [sim.advance(order, lib) for order in row]


def plan(board: Board | State, seat: int, rng: Rng, tries: int = 6) -> tuple[str, ...]:
    """A good row for ``seat``: a beam search over the orders that differ (act, wait, the city's three roads),
    each partial row judged by what it does and where it ends; ``rng`` breaks ties, so Tabula's seats do not all
    look alike."""
    return best_rows(board, seat, rng, tries)[0]


def best_rows(board: Board | State, seat: int, rng: Rng, tries: int = 12) -> list[tuple[str, ...]]:
    """The rows the beam search ends with, best first (the panel suggests them)."""
    lib = library()
    b = board if isinstance(board, Board) else board_of_state(board, seat)
    beam: list[tuple[float, tuple[str, ...], _Sim]] = [(0.0, (), _Sim(b))]
    for _k in range(lib.slots):
        grown: list[tuple[float, tuple[str, ...], _Sim]] = []
        for _value, row, sim in beam:
            for order in _orders_from(sim.city):
                nxt = sim.copy()
                nxt.advance(order, lib)
                grown.append((nxt.value + nxt.outlook(lib) + rng.below(100) / 1000, (*row, order), nxt))
        grown.sort(key=lambda g: g[0], reverse=True)
        beam = grown[:max(4, tries)]
    return [row for _v, row, _s in beam]


def rewards(game: Engine, s: State, seat: int) -> TakeRewards:
    """The two rewards worth most to the hunter: fame where it wins or keeps an area, building where it can stand."""
    lib = game.lib
    pend = s.pending
    assert pend is not None
    chip = lib.chip(pend.chip)
    b = s.buildings[pend.city - 1]
    buildable = b.owner in (-1, seat) and b.levels < lib.building.max_levels

    def fame_worth(area: str) -> float:
        a = lib.area(area)
        if a.hidden:
            return chip.fame * 0.9 + a.first * 0.3
        chips = s.fame[area]
        mine = chips[seat] + chip.fame
        rival = max((c for i, c in enumerate(chips) if i != seat), default=0)
        return chip.fame * 0.8 + (a.first if mine > rival else a.second * 0.5)

    # the rankings that come first matter most; a score where the hunter trails matters more
    weight = {track: 1.4 - 0.2 * k for k, track in enumerate(s.ranking)}
    trailing = {"gold": s.players[seat].gold <= min(p.gold for p in s.players),
                "building": building_points(s, seat, lib) <= min(building_points(s, i, lib)
                                                                 for i in range(len(s.players)))}

    def worth(r: TakeRewards) -> float:
        total = 0.0
        for kind in (r.first, r.second):
            if kind == "gold":
                value: float = chip.gold
            elif kind == "building":
                value = chip.building * (3.0 if buildable else 1.2)
            else:
                value = fame_worth(r.area)
            total += value * weight.get(kind, 1.0) * (1.5 if trailing.get(kind) else 1.0)
        return total

    return max(game.reward_choices(s, pend.city), key=worth)


def policy(game: Engine, s: State, seat: int, rng: Rng) -> EiyuAction | None:
    if seat not in game.to_act(s):
        return None
    lib = game.lib
    if s.phase == "city":
        cities = [c.id for c in lib.cities if c.kind == "recruit"]
        return ChooseCity(city=cities[rng.below(len(cities))])
    if s.phase == "program":
        return SetRow(orders=plan(s, seat, rng), lock=True)
    if s.phase == "reward":
        return rewards(game, s, seat)
    if s.phase == "dummy":
        # raise the dummy where it hurts least: the ranking that comes last
        return RaiseDummy(track=s.ranking[-1])
    if s.phase == "show":
        return Reveal(types="".join(str(t) for t in sorted(set(s.players[seat].soldiers))))
    return None
