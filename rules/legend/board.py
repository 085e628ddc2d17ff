"""The Dungeons of Legend as a graph: which doorways a fighter can reach in one move, and their names."""

from __future__ import annotations

from functools import cache

from rules.legend.content import Dungeon, dungeon
from rules.legend.i18n import _, card_title, place


class Board:
    """Links between doorways, derived once from the plan.

    Two doorways are linked when they open onto the same room or the same corridor ("linked by a corridor
    or room, with no other doors in between").  Each link remembers whether it passes through a room.
    """

    def __init__(self, plan: Dungeon) -> None:
        self.plan = plan
        self.room_ids: tuple[str, ...] = tuple(r.id for r in plan.room)
        self.doorways = {d.id: d for d in plan.doorway}
        self.room_doorways: dict[str, tuple[str, ...]] = {
            r.id: tuple(d.id for d in plan.doorway if d.room == r.id) for r in plan.room
        }
        self.entrances = {e.doorway: e for e in plan.entrance}
        # via[(a, b)] = room id when the link passes through that room, None for a corridor link
        self.via: dict[tuple[str, str], str | None] = {}
        for room, doors in self.room_doorways.items():
            for a in doors:
                for b in doors:
                    if a != b:
                        self.via[(a, b)] = room
        for corridor in plan.corridor:
            for a in corridor.doorways:
                for b in corridor.doorways:
                    if a != b:
                        self.via.setdefault((a, b), None)
        self.links: dict[str, tuple[str, ...]] = {
            d: tuple(sorted((b for (a, b) in self.via if a == d), key=doorway_order)) for d in self.doorways
        }

    def room_of(self, doorway: str) -> str | None:
        return self.doorways[doorway].room

    def label(self, doorway: str, room_names: dict[str, str] | None = None) -> str:
        """How a person finds the doorway on the picture: "D7 — north door of the Map Room"."""
        d = self.doorways[doorway]
        if d.room is None:
            entrance = self.entrances.get(doorway)
            if entrance:
                return _("{doorway} — by the {entrance} ({id})", doorway=doorway, entrance=place(entrance.name),
                         id=entrance.id)
            return _("{doorway} — in a corridor", doorway=doorway)
        room = room_label(d.room, room_names)
        if d.side == "n":
            return _("{doorway} — north door of {room}", doorway=doorway, room=room)
        if d.side == "e":
            return _("{doorway} — east door of {room}", doorway=doorway, room=room)
        if d.side == "s":
            return _("{doorway} — south door of {room}", doorway=doorway, room=room)
        if d.side == "w":
            return _("{doorway} — west door of {room}", doorway=doorway, room=room)
        return _("{doorway} — door of {room}", doorway=doorway, room=room)


def room_label(room: str, room_names: dict[str, str] | None = None) -> str:
    """"the Map Room" once its Room card is read (the title in the current language), else "room R4"."""
    name = (room_names or {}).get(room)
    return _("the {room}", room=card_title(name)) if name else _("room {id}", id=room)


def doorway_order(doorway: str) -> int:
    return int(doorway.lstrip("D"))


@cache
def board() -> Board:
    return Board(dungeon())
