"""Helpers for Autokrator's tests: a game dealt and ready for turns, scenes from the book's examples, and a
battle played through to the outcome a test wants (the defender's row chosen so that it wins or loses)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import msgspec

from rules.autokrator import RULESET
from rules.autokrator.content import library
from rules.autokrator.engine.battle import fight, lineups
from rules.autokrator.state import (
    Attack,
    BattleFought,
    Field,
    Fields,
    Lineup,
    Move,
    State,
    Unit,
    Voyage,
)
from rules.core import SeatInfo, Step

R = RULESET
E = R.engine
NAMES = ("Ann", "Bob", "Cleo", "Dara")


def new_game(players: int = 4, mode: str = "full", raids: bool = False, seed: int = 1) -> State:
    seats = [SeatInfo(index=i, name=NAMES[i]) for i in range(players)]
    state: State = R.setup(seats, R.check_options({"mode": mode, "raids": raids}, players), seed).state
    return state


def deal(state: State) -> State:
    """Every realm deals its cards (the first legal choice each time) until the turns begin."""
    while state.phase == "assign":
        seat = min(R.to_act(state))
        state = R.apply(state, seat, R.legal(state, seat)[0]).state
    return state


def seat(state: State, realm: str) -> int:
    return state.realms[realm].seat


def scene(state: State, *, turn: str, units: dict[str, str] | None = None, owner: dict[str, str] | None = None,
          pieces: dict[str, str] | None = None, cards: dict[str, list[str]] | None = None,
          lives: dict[str, int] | None = None) -> State:
    """A dealt game rearranged: ``units`` maps "realm.unit" to a region, ``cards`` "realm.holder" to three cards."""
    s = msgspec.json.decode(msgspec.json.encode(state), type=State)
    for key, region in (units or {}).items():
        realm, unit = key.split(".")
        u = s.realms[realm].units.get(unit) or Unit(region=region, lives=3)
        u.region = region
        s.realms[realm].units[unit] = u
    for key, n in (lives or {}).items():
        realm, unit = key.split(".")
        s.realms[realm].units[unit].lives = n
    for key, cs in (cards or {}).items():
        realm, holder = key.split(".")
        s.realms[realm].cards[holder] = list(cs)
    s.owner.update(owner or {})
    for region, realm in (pieces or {}).items():
        s.pieces[region] = realm
        s.realms[realm].supply -= 1
    s.turn = s.order.index(turn)
    s.current = ""
    return s


def act(state: State, realm: str, action: Any) -> Step:
    step: Step = R.apply(state, seat(state, realm), action)
    return step


def fought(events: tuple[Any, ...]) -> BattleFought:
    return next(e for e in events if isinstance(e, BattleFought))


def battle(state: State, *, attacker_wins: bool) -> tuple[State, list[Any]]:
    """Play the battle now begun (both sides played by people) to the wanted result: the battlefields and rows
    are searched with the battle's own arithmetic, then played through ``apply``; returns the state after it
    and every event on the way."""
    b = state.battle
    assert b is not None and b.stage == "fields" and b.attacker.realm and b.defender.realm
    for a, c in combinations(library().numbers.battlefields, 2):
        for field in (a, c):
            for a_row, a_marks in lineups(b.attacker):
                for d_row, d_marks in lineups(b.defender):
                    att = msgspec.structs.replace(b.attacker, lineup=list(a_row), marks=list(a_marks))
                    dfd = msgspec.structs.replace(b.defender, lineup=list(d_row), marks=list(d_marks))
                    if fight(field, att, dfd)[4] != attacker_wins:
                        continue
                    events: list[Any] = []
                    for realm, action in ((b.attacker.realm, Fields(fields=(a, c))),
                                          (b.defender.realm, Field(field=field)),
                                          (b.attacker.realm, Lineup(cards=a_row, marks=a_marks)),
                                          (b.defender.realm, Lineup(cards=d_row, marks=d_marks))):
                        step = act(state, realm, action)
                        state = step.state
                        events += step.events
                    return state, events
    raise AssertionError("no battlefield and rows give the wanted result")


def neutral_battle(state: State, attack: Attack, attacker_wins: bool) -> tuple[State, list[Any]]:
    """An attack on neutral defenders (drawn at random when it is made) played with the seed varied until the
    wanted result comes up: the draw is the only chance in a battle."""
    realm = state.order[state.turn]
    for salt in range(300):
        s = msgspec.structs.replace(state, rng=state.rng ^ (salt * 0x9E3779B1))
        step = act(s, realm, attack)
        events = list(step.events)
        s = step.state
        step = act(s, realm, Fields(fields=("plain", "ambush")))
        s, events = step.state, events + list(step.events)
        for row in R.legal(s, seat(s, realm)):
            step = act(s, realm, row)
            if fought(step.events).attacker_won == attacker_wins:
                return step.state, events + list(step.events)
    raise AssertionError("the neutral draw never gave the wanted result")


__all__ = [
    "Attack",
    "E",
    "Move",
    "R",
    "Voyage",
    "act",
    "battle",
    "deal",
    "fought",
    "neutral_battle",
    "new_game",
    "scene",
    "seat",
]
