"""What a seat may see: ``build_view`` is the only way the state reaches presenters and renderers, and
``secret_variants`` are the states the conformance suite compares views across.

Everyone sees the map (chips, soldiers left on each recruitment chip, buildings, visible fame chips), the next
chip of each waiting pile, the titans, the year track, the dummy, every player's city, gold, building points,
soldier count and the orders already resolved this year.  Only the seat itself sees its row, the types of its
soldiers, its unbuilt building chips, its fame chips in the hidden centre and its show-of-strength choice.  At
the end the centre is revealed to all."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from rules.eiyu.content import ACT, WAIT, library
from rules.eiyu.engine.scores import building_points, fame_points, scores
from rules.eiyu.state import Ranked, State


class CityView(msgspec.Struct, frozen=True):
    id: int
    kind: str
    chip: int  # -1: none
    left: tuple[int, ...] = ()  # a recruitment chip's soldiers still on it, weakest first
    owner: int = -1
    levels: int = 0


class PlayerView(msgspec.Struct, frozen=True):
    name: str
    city: int
    soldiers: int
    gold: int
    renown: int
    building: int
    fame: int  # fame points everyone can count (the hidden centre left out until the end)
    locked: bool
    resolved: tuple[str, ...]  # this year's orders carried out so far
    path: tuple[int, ...]
    chose: bool  # at a show of strength: has chosen


class Secret(msgspec.Struct, frozen=True):
    soldiers: tuple[int, ...]
    held: int
    central: int
    row: tuple[str, ...]
    reveal: str | None


class EiyuView(msgspec.Struct, frozen=True):
    phase: str
    year: int
    years: int
    short: bool
    start: int
    turn: int
    cursor: int
    ranking: tuple[str, ...]
    cities: tuple[CityView, ...]
    players: tuple[PlayerView, ...]
    fame: dict[str, tuple[int, ...]]  # visible areas: chips per seat
    centre: tuple[int, ...] | None  # revealed at the end only
    next_recruit: int
    next_monster: int
    piles: tuple[int, int]
    titans: tuple[str, ...]
    dummy: tuple[int, int, int] | None
    pending: str  # "", "reward" or "dummy"
    pending_seat: int
    pending_city: int
    pending_chip: int
    out: tuple[int, ...]
    winner: int | None
    final: dict[str, tuple[int, ...]] | None
    me: int | None = None
    secret: Secret | None = None


def build_view(s: State, seat: int | None) -> EiyuView:
    lib = library()
    n = len(s.players)
    over = s.phase == "over"
    visible = fame_points(s, hidden=over)
    slots = lib.slots
    done, extra = divmod(s.cursor, n)
    players = []
    for i, p in enumerate(s.players):
        k = (i - s.start) % n
        if s.phase in ("program", "city"):
            resolved = 0
        elif s.phase in ("show", "over"):
            resolved = slots
        else:
            resolved = done + (1 if k < extra else 0)
        players.append(PlayerView(
            name=p.name, city=p.city, soldiers=len(p.soldiers), gold=p.gold, renown=p.renown,
            building=building_points(s, i), fame=visible[i], locked=p.locked,
            resolved=tuple(p.row[:resolved]) if p.row else (), path=tuple(p.path), chose=p.reveal is not None))
    cities = []
    for c in lib.cities:
        chip = s.slot[c.id - 1]
        left = lib.chip(chip).soldiers[s.taken[c.id - 1]:] if chip >= 0 and c.kind == "recruit" else ()
        b = s.buildings[c.id - 1]
        cities.append(CityView(id=c.id, kind=c.kind, chip=chip, left=tuple(left), owner=b.owner, levels=b.levels))
    secret = None
    if seat is not None and 0 <= seat < n:
        p = s.players[seat]
        secret = Secret(soldiers=tuple(p.soldiers), held=p.held, central=p.central, row=tuple(p.row),
                        reveal=p.reveal)
    pend = s.pending
    return EiyuView(
        phase=s.phase, year=s.year, years=lib.short_years if s.short else lib.years, short=s.short, start=s.start,
        turn=s.turn, cursor=s.cursor, ranking=tuple(s.ranking), cities=tuple(cities), players=tuple(players),
        fame={k: tuple(v) for k, v in s.fame.items()},
        centre=tuple(p.central for p in s.players) if over else None,
        next_recruit=s.recruit_pile[0] if s.recruit_pile else -1,
        next_monster=s.monster_pile[0] if s.monster_pile else -1,
        piles=(len(s.recruit_pile), len(s.monster_pile)), titans=tuple(s.titans),
        dummy=(s.dummy[0], s.dummy[1], s.dummy[2]) if s.dummy is not None else None,
        pending=pend.kind if pend else "", pending_seat=pend.seat if pend else -1,
        pending_city=pend.city if pend else 0, pending_chip=pend.chip if pend else -1,
        out=tuple(s.out), winner=s.winner,
        final={k: tuple(v) for k, v in scores(s).items()} if over else None,
        me=seat, secret=secret)


def secret_variants(s: State, seat: int) -> Iterator[State]:
    """The same game with what only ``seat`` knows changed (and the waiting piles' hidden order)."""
    if s.phase == "over":
        return
    p = s.players[seat]
    n = len(s.players)
    lib = library()
    # the orders not yet carried out this year
    if s.phase in ("program", "reward", "dummy", "resolve") and p.row:
        k = (seat - s.start) % n
        first_unresolved = 0 if s.phase == "program" else s.cursor // n + (1 if k < s.cursor % n else 0)
        if first_unresolved < lib.slots:
            row = list(p.row)
            row[-1] = WAIT if row[-1] != WAIT else ACT
            yield _with(s, seat, row=row)
    # the soldiers' types (the count is public)
    if p.soldiers:
        soldiers = sorted([*p.soldiers[1:], p.soldiers[0] % 4 + 1])
        yield _with(s, seat, soldiers=soldiers)
    yield _with(s, seat, held=p.held + 1)
    yield _with(s, seat, central=p.central + 2)
    if s.phase == "show" and p.reveal is not None:
        yield _with(s, seat, reveal="" if p.reveal else "1")
    for pile in ("recruit_pile", "monster_pile"):
        items = getattr(s, pile)
        if len(items) > 2:
            yield msgspec.structs.replace(s, **{pile: [items[0], *reversed(items[1:])]})


def _with(s: State, seat: int, **changes: object) -> State:
    players = list(s.players)
    players[seat] = msgspec.structs.replace(players[seat], **changes)
    return msgspec.structs.replace(s, players=players)


def last_rankings(events: tuple[object, ...]) -> list[Ranked]:
    return [e for e in events if isinstance(e, Ranked)]


__all__ = ["ACT", "CityView", "EiyuView", "PlayerView", "Secret", "build_view", "secret_variants"]
