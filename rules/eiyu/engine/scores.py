"""The numbers every part of the game reads (years, shows, titans' waking, buildings, fame in the areas, the
final scores per track) and the final rankings by elimination.  Pure functions of a state."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.eiyu.content import Library, library
from rules.eiyu.state import Ranked, State

#: The three scores, in the order the dummy's tracks hold them.
TRACKS = ("fame", "gold", "building")


# --- numbers the whole game reads ------------------------------------------------------------------------


def years_of(s: State, lib: Library | None = None) -> int:
    lib = lib or library()
    return lib.short_years if s.short else lib.years


def shows_of(s: State, lib: Library | None = None) -> tuple[int, ...]:
    lib = lib or library()
    return lib.year_track.shows_short if s.short else lib.year_track.shows


def wakes_of(s: State, titan: int, lib: Library | None = None) -> int:
    lib = lib or library()
    t = lib.titans[titan]
    return t.wakes_short if s.short else t.wakes


def has_troops(soldiers: Sequence[int], needs: Sequence[int]) -> bool:
    """A hunt needs exactly the printed soldiers: a stronger soldier never stands in."""
    return all(soldiers.count(t) >= needs.count(t) for t in set(needs))


def awake_titan(s: State) -> int | None:
    """The titan a hunt in an empty city faces: the one awake longest (titans wake in the data's order)."""
    return next((i for i, t in enumerate(s.titans) if t == "awake"), None)


def building_points(s: State, seat: int, lib: Library | None = None) -> int:
    lib = lib or library()
    return sum(lib.building.points[b.levels] for b in s.buildings if b.owner == seat)


def area_chips(s: State, area_id: str, lib: Library | None = None) -> list[int]:
    """Each seat's fame chips in an area (the hidden centre read from the players' secret counts)."""
    lib = lib or library()
    if lib.area(area_id).hidden:
        return [p.central for p in s.players]
    return list(s.fame[area_id])


def area_awards(chips: Sequence[int], first: int, second: int) -> list[int]:
    """The most chips score ``first`` (every player tied there), the next count ``second`` (all tied there)."""
    counts = sorted({c for c in chips if c > 0}, reverse=True)
    out = [0] * len(chips)
    for i, c in enumerate(chips):
        if counts and c == counts[0]:
            out[i] = first
        elif len(counts) > 1 and c == counts[1]:
            out[i] = second
    return out


def fame_points(s: State, *, hidden: bool = True, lib: Library | None = None) -> list[int]:
    """Every seat's fame points: fame straight on the track plus the areas' awards (with ``hidden`` false, the
    hidden centre is left out: what everyone can count before the end)."""
    lib = lib or library()
    total = [p.renown for p in s.players]
    for a in lib.areas:
        if a.hidden and not hidden:
            continue
        for i, v in enumerate(area_awards(area_chips(s, a.id, lib), a.first, a.second)):
            total[i] += v
    return total


def scores(s: State, lib: Library | None = None) -> dict[str, list[int]]:
    """Final scores per track; the dummy, if any, is the last contestant."""
    lib = lib or library()
    n = len(s.players)
    out = {"fame": fame_points(s, lib=lib), "gold": [p.gold for p in s.players],
           "building": [building_points(s, i, lib) for i in range(n)]}
    if s.dummy is not None:
        for k, track in enumerate(TRACKS):
            out[track].append(s.dummy[k])
    return out


def rank(order: Sequence[str], points: Mapping[str, Sequence[int]], soldiers: Sequence[int], start: int,
         players: int, dummy: bool) -> tuple[list[Ranked], int]:
    """The final rankings: in the drawn order (again from the first when more are left), the last among those
    still in is eliminated, until one is left.  A tie for last goes against the fewer soldiers in hand, then
    against the player nearer the start player (seat order); the dummy loses every tie.  Returns the rankings
    and the winner (``players`` stands for the dummy)."""
    alive = list(range(players + (1 if dummy else 0)))

    def key(c: int, track: str) -> tuple[int, int, int, int]:
        if c == players:
            return (points[track][c], 0, 0, 0)
        return (points[track][c], 1, soldiers[c], (c - start) % players)

    events: list[Ranked] = []
    i = 0
    while len(alive) > 1:
        track = order[i % len(order)]
        ranked = sorted(alive, key=lambda c: key(c, track), reverse=True)
        last = ranked[-1]
        tied = [c for c in ranked[:-1] if points[track][c] == points[track][last]]
        why = ""
        if tied:
            k_last, k_next = key(last, track), key(tied[-1], track)
            why = "dummy" if k_last[1] != k_next[1] else "soldiers" if k_last[2] != k_next[2] else "start"
        events.append(Ranked(track=track, order=tuple(ranked), scores=tuple(points[track][c] for c in ranked),
                             out=last, why=why))
        alive.remove(last)
        i += 1
    return events, alive[0]
