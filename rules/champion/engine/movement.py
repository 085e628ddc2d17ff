"""Champion of the Empire: moving on the map — caravan escorts, explorations and voyages, how far a hero
may go this turn, every province in reach with a shortest path to it, and the checks on a typed path."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from rules.champion.engine.table import Table
from rules.champion.i18n import _, _n, comma, local
from rules.champion.state import Caravan, Explore, Gained, Moved, Rolled, Shipwreck, State, Voyage
from rules.core import IllegalAction, Rng


@dataclass(frozen=True, slots=True)
class Movement:
    """Moving on the map at a table: caravans, explorations and voyages."""

    table: Table

    def allowance(self, state: State, seat: int, by: str) -> int:
        """How many provinces a caravan or an exploration may move this turn."""
        me = state.heroes[seat]
        lame = 1 if self.table.kept(me, "lame", state) else 0
        if by == "caravan":
            return max(0, 1 - lame)
        items = [self.table.lib.item[i] for i in me.items]
        horses = max((i.move for i in items if i.kind == "horse"), default=0)  # one horse is ridden at a time
        steps = 2 + horses + sum(i.move for i in items if i.kind != "horse")  # a road book, boots: +1 each
        steps += 1 if self.table.kept(me, "guide", state) else 0
        eff = self.table.effect(state)
        steps += 1 if eff == "explore_move_plus1" else -1 if eff == "explore_move_minus1" else 0
        return max(0, steps - lame)

    def reach(self, state: State, seat: int, steps: int) -> dict[str, list[str]]:
        """Every province within ``steps`` by land, with a shortest path to it (start excluded)."""
        start = state.heroes[seat].province
        paths: dict[str, list[str]] = {start: []}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if len(paths[here]) >= steps:
                continue
            for nxt in self.table.lib.near[here]:
                if nxt not in paths:
                    paths[nxt] = paths[here] + [nxt]
                    queue.append(nxt)
        del paths[start]
        return paths

    def voyage_cost(self, state: State, seat: int) -> int:
        if self.table.effect(state) == "voyage_free" or self.table.kept(state.heroes[seat], "free_passage", state):
            return 0
        return 2

    def _check_path(self, s: State, seat: int, path: list[str], steps: int) -> None:
        lib = self.table.lib
        me = s.heroes[seat]
        unknown = [p for p in path if p not in lib.province]
        if unknown:
            raise IllegalAction(_("There is no province called '{name}'. Use the ids the list offers.",
                                  name=unknown[0][:30]))
        if not path:
            raise IllegalAction(_("Name where you explore: `/explore path:` one to {steps} provinces, each next to "
                                  "the one before.", steps=steps))
        if len(path) > steps:
            raise IllegalAction(_n("This exploration moves at most {n} province; your path has {length}.",
                                   "This exploration moves at most {n} provinces; your path has {length}.", steps,
                                   length=len(path)))
        here = me.province
        seen = {here}
        for p in path:
            if p not in lib.near[here]:
                loc = local(lib)
                raise IllegalAction(_("{province} does not border {here}; each step goes to a neighbouring province "
                                      "(crossings count).", province=loc.province[p].name,
                                      here=loc.province[here].name))
            if p in seen:
                raise IllegalAction(_("An exploration does not pass the same province twice."))
            seen.add(p)
            here = p

    def caravan(self, s: State, seat: int, action: Caravan, events: list[Any]) -> None:
        lib = self.table.lib
        me = s.heroes[seat]
        steps = self.allowance(s, seat, "caravan")
        near = lib.near[me.province]
        if steps == 0:
            if action.to != me.province:
                raise IllegalAction(_("You are lame: this caravan moves no province. Escort it where you stand "
                                      "(`to:{province}`).", province=me.province))
        elif action.to not in near and action.to != me.province:
            raise IllegalAction(_("A caravan moves one province, to a neighbour: {places} — or stays where it is. "
                                  "(A horse does not help.)",
                                  places=comma(local(lib).province[p].name for p in near)))
        self.table.use_kept(s, seat, "lame", events)
        path = [me.province] + ([action.to] if action.to != me.province else [])
        me.province = action.to
        gold = 1 + (1 if self.table.effect(s) == "caravan_gold_plus1" else 0)
        me.gold += gold
        events.append(Moved(seat=seat, path=path, by="caravan"))
        events.append(Gained(seat=seat, changes={"gold": gold}, why="caravan"))
        s.last_move = {"seat": seat, "path": path, "by": "caravan"}
        s.tasks = ["story"]

    def explore(self, s: State, seat: int, action: Explore, events: list[Any]) -> None:
        me = s.heroes[seat]
        steps = self.allowance(s, seat, "explore")
        path = list(action.path)
        if steps == 0:
            if path != [me.province]:
                raise IllegalAction(_("This exploration moves no province (rain or a lame leg); explore where you "
                                      "stand (`path:{province}`).", province=me.province))
            path = []
        else:
            self._check_path(s, seat, path, steps)
        if self.table.kept(me, "guide", s) and len(path) > steps - 1:
            self.table.use_kept(s, seat, "guide", events)
        self.table.use_kept(s, seat, "lame", events)
        full = [me.province, *path]
        if path:
            me.province = path[-1]
        me.xp += 1
        events.append(Moved(seat=seat, path=full, by="explore"))
        events.append(Gained(seat=seat, changes={"xp": 1}, why="explore"))
        s.last_move = {"seat": seat, "path": full, "by": "explore"}
        s.tasks = ["story"]

    def voyage(self, s: State, seat: int, action: Voyage, rng: Rng, events: list[Any]) -> None:
        lib = self.table.lib
        me = s.heroes[seat]
        if self.table.effect(s) == "voyage_forbidden":
            raise IllegalAction(_("No ship sails this round (the event forbids voyages). Choose another action."))
        if me.province not in lib.ports:
            raise IllegalAction(_("{province} has no harbour on the Mare Internum; voyages start from a coastal "
                                  "province.", province=local(lib).province[me.province].name))
        if action.to not in lib.ports or action.to == me.province:
            raise IllegalAction(_("Sail to another coastal province of the Mare Internum (`/voyage to:` lists them)."))
        cost = self.voyage_cost(s, seat)
        if me.gold < cost:
            raise IllegalAction(_n("A voyage costs {cost} gold; you have {gold}.",
                                   "A voyage costs {cost} gold; you have {gold}.", cost, cost=cost, gold=me.gold))
        if cost == 0 and self.table.effect(s) != "voyage_free":
            self.table.use_kept(s, seat, "free_passage", events)
        me.gold -= cost
        path = [me.province, action.to]
        me.province = action.to
        events.append(Moved(seat=seat, path=path, by="voyage"))
        if cost:
            events.append(Gained(seat=seat, changes={"gold": -cost}, why="voyage"))
        s.last_move = {"seat": seat, "path": path, "by": "voyage"}
        roll = rng.die(6)
        events.append(Rolled(seat=seat, roll=roll, why="voyage"))
        wreck = 2 if self.table.effect(s) == "shipwreck_on_1_2" else 1
        s.tasks = ["story"]
        if roll <= wreck:
            events.append(Shipwreck(seat=seat))
            s.tasks.insert(0, f"lose:{seat}:shipwreck")

    def highlight(self, state: State, seat: int) -> list[str]:
        """The provinces a move can end in this turn (the map washes them light)."""
        lib = self.table.lib
        me = state.heroes[seat]
        ends: set[str] = set()
        if self.allowance(state, seat, "caravan"):
            ends.update(lib.near[me.province])
        steps = self.allowance(state, seat, "explore")
        if steps:
            ends.update(self.reach(state, seat, steps))
        if self.table.effect(state) != "voyage_forbidden" and me.province in lib.ports \
                and me.gold >= self.voyage_cost(state, seat):
            ends.update(lib.ports)
        return sorted(ends - {me.province})
