"""What Tabula plays for a seat (an empty seat, or an absent player after the game's timeout), and the preview of
a row: where it takes a player on today's map, as if nobody else moved.

The programming policy samples rows that wander along the roads and act where there is something to do, plays
each through the preview and keeps the one worth most (hunts first, then recruits that feed a hunt in sight)."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from rules.core import Rng
from rules.eiyu.content import ACT, WAIT, Library, library
from rules.eiyu.engine import Eiyu, awake_titan, building_points, has_troops
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


class Step(msgspec.Struct, frozen=True):
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


def preview(board: Board | State, seat: int, row: Sequence[str], lib: Library | None = None) -> list[Step]:
    """Play ``row`` for ``seat`` alone on the map as it stands (what the others do may change it)."""
    lib = lib or library()
    b = board if isinstance(board, Board) else board_of_state(board, seat)
    city, soldiers = b.city, list(b.soldiers)
    taken = list(b.taken)
    slot = list(b.slot)
    acted = set(b.acted)
    titan = b.titan
    out: list[Step] = []
    for order in row:
        if order == WAIT:
            out.append(Step(order, city, "wait"))
            continue
        if order != ACT:
            to = lib.road(city, order)
            if to is None:
                out.append(Step(order, city, "no_road"))
            else:
                city = to
                out.append(Step(order, city, "move"))
            continue
        if city in acted:
            out.append(Step(order, city, "acted"))
            continue
        chip, kind = slot[city - 1], lib.city(city).kind
        if chip >= 0 and kind == "monster" and has_troops(soldiers, lib.chip(chip).needs):
            for t in lib.chip(chip).needs:
                soldiers.remove(t)
            slot[city - 1] = -1
            acted.add(city)
            out.append(Step(order, city, f"hunt {chip}"))
        elif chip >= 0 and kind == "recruit":
            on = lib.chip(chip).soldiers
            soldier = on[taken[city - 1]]
            taken[city - 1] += 1
            if taken[city - 1] >= len(on):
                slot[city - 1] = -1
            soldiers.append(soldier)
            acted.add(city)
            out.append(Step(order, city, f"recruit {soldier}"))
        elif titan is not None and len(soldiers) >= lib.titans[titan].cost:
            soldiers = sorted(soldiers)[lib.titans[titan].cost:]
            acted.add(city)
            titan = None
            out.append(Step(order, city, "titan"))
        else:
            out.append(Step(order, city, "troops" if chip >= 0 else "nothing"))
    return out


def _worth(b: Board, steps: list[Step], lib: Library) -> float:
    value = 0.0
    soldiers = list(b.soldiers)
    for st in steps:
        if st.did.startswith("hunt"):
            c = lib.chip(int(st.did.split()[1]))
            value += 6 + c.gold + c.fame + c.building
        elif st.did.startswith("recruit"):
            soldiers.append(int(st.did.split()[1]))
            value += 2.5
        elif st.did == "titan":
            value += 9
        elif st.did in ("no_road", "acted", "nothing", "troops"):
            value -= 0.5
    # where the row ends: near a monster the troops can beat, or a recruitment chip
    end = steps[-1].city if steps else b.city
    for city in {end, *(lib.road(end, c) or end for c in lib.colours)}:
        chip = b.slot[city - 1]
        if chip >= 0 and lib.city(city).kind == "monster" and has_troops(soldiers, lib.chip(chip).needs):
            value += 3
        elif chip >= 0 and lib.city(city).kind == "recruit":
            value += 0.5
    return value


def plan(board: Board | State, seat: int, rng: Rng, tries: int = 24) -> tuple[str, ...]:
    """A good row for ``seat``: a beam search over the orders that differ (act, wait, the city's three roads),
    each partial row judged by the preview; ``rng`` breaks ties, so Tabula's seats do not all look alike."""
    lib = library()
    b = board if isinstance(board, Board) else board_of_state(board, seat)
    beam: list[tuple[float, tuple[str, ...]]] = [(0.0, ())]
    for _k in range(lib.slots):
        grown: dict[tuple[str, ...], float] = {}
        for _value, row in beam:
            steps = preview(b, seat, row, lib) if row else []
            city = steps[-1].city if steps else b.city
            for order in (ACT, WAIT, *(c for c in lib.colours if lib.road(city, c) is not None)):
                new = (*row, order)
                grown[new] = _worth(b, preview(b, seat, new, lib), lib) + rng.below(100) / 1000
        beam = sorted(((v, r) for r, v in grown.items()), reverse=True)[:max(4, tries)]
    return beam[0][1]


def rewards(game: Eiyu, s: State, seat: int) -> TakeRewards:
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
                value = chip.building * (2.5 if buildable else 1.0)
            else:
                value = fame_worth(r.area)
            total += value * weight.get(kind, 1.0) * (1.3 if trailing.get(kind) else 1.0)
        return total

    return max(game.reward_choices(s, pend.city), key=worth)


def policy(game: Eiyu, s: State, seat: int, rng: Rng) -> EiyuAction | None:
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
