"""Questions about the board that every rule asks: who holds what, who stands where, what a unit may reach."""

from __future__ import annotations

from collections.abc import Sequence

from rules.autokrator.content import Library, library
from rules.autokrator.state import RealmState, State, Unit


def lib() -> Library:
    return library()


def in_play(state: State, realm: str) -> bool:
    return realm in state.order


def at_truce(state: State, a: str, b: str) -> bool:
    return any(a in t.realms and b in t.realms for t in state.truces)


def hostile(state: State, realm: str, other: str) -> bool:
    """Whether ``realm`` may fight ``other`` (a realm in play, not at truce; "" is the neutral side)."""
    if other == realm or other == "x":
        return False
    if other == "":
        return True
    return in_play(state, other) and not at_truce(state, realm, other)


def units_at(state: State, region: str) -> list[tuple[str, str, Unit]]:
    return [(r.key, name, u) for r in state.realms.values() for name, u in r.units.items() if u.region == region]


def enemy_units(state: State, realm: str, region: str) -> list[tuple[str, str]]:
    return [(k, n) for k, n, _ in units_at(state, region) if hostile(state, realm, k)]


def targets(state: State, realm: str, region: str) -> list[str]:
    """What a unit of ``realm`` standing in ``region`` may attack: enemy units first, then the region."""
    found = [f"{k}.{n}" for k, n in enemy_units(state, realm, region)]
    if found:
        return found
    owner = state.owner[region]
    if owner != realm and hostile(state, realm, owner):
        rs = state.realms[realm]
        printed = lib().regions[region].owner
        if rs.supply > 0 or printed == realm:
            return ["region"]
    return []


def partner(unit: str) -> str:
    """King and General may not share a region (except the capital)."""
    return {"king": "general", "general": "king"}.get(unit, "")


def may_stand(state: State, realm: str, unit: str, region: str) -> bool:
    if state.owner[region] == "x":
        return False
    other = partner(unit)
    rs = state.realms[realm]
    if other and other in rs.units and rs.units[other].region == region:
        return lib().realms[realm].capital == region
    return True


def steps(state: State, realm: str, unit: str, frm: str) -> list[str]:
    return [n for n in lib().neighbours[frm] if may_stand(state, realm, unit, n)]


def ports_for(state: State, realm: str, any_colour: bool) -> list[str]:
    anchor = lib().realms[realm].anchor
    return [r.id for r in lib().regions.values() if r.anchor and (any_colour or r.anchor == anchor)]


def retreats(state: State, realm: str, unit: str, frm: str) -> list[str]:
    """Where a beaten unit may fall back to (empty: none — the King and General go home, the Admiral is lost)."""
    if unit == "admiral":
        return [p for p in ports_for(state, realm, False) if p != frm and state.owner[p] == realm]
    return [n for n in lib().neighbours[frm] if state.owner[n] == realm and may_stand(state, realm, unit, n)]


def defence(state: State, region: str) -> int:
    """The battle-point modifier of a region whose Garrison (or neutral defenders) fight."""
    d = lib().numbers.defence
    owner = state.owner[region]
    if owner == "":
        return d["neutral"]
    info = lib().regions[region]
    if info.owner == owner:
        base = d["capital"] if info.capital else d["two_coats"] if info.coats >= 2 else d["coat"] if info.coats else 0
    else:
        base = 0
    if state.pieces.get(region) == owner:
        base += d["garrison_piece"]
    return min(base, d["cap"])


def seat_of(state: State, realm: str) -> int:
    return state.realms[realm].seat if realm in state.realms else -1


def realm_of(state: State, seat: int) -> str:
    return state.seats[seat] if 0 <= seat < len(state.seats) else ""


def regions_held(state: State, realm: str) -> int:
    return sum(1 for o in state.owner.values() if o == realm)


def conquests_held(state: State, realm: str) -> int:
    """Regions ``realm`` won and still holds: its Garrison pieces on the board."""
    return sum(1 for k in state.pieces.values() if k == realm)


def level_after_compensation(mode: str, raids: bool, level: Sequence[str]) -> list[str]:
    """Of realms level on points at the end, those left once the setting's compensation has spoken: a realm
    the setting lets another of them win a level score against drops out (``rules.toml``, ``[level.<mode>]``)."""
    wins = library().numbers.level_wins(mode, raids)
    left = [k for k in level if not any(k in wins.get(other, ()) for other in level if other != k)]
    return left or list(level)


def acting(state: State) -> RealmState | None:
    if state.phase != "turns" or not state.order:
        return None
    return state.realms[state.order[state.turn]]
