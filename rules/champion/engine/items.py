"""Champion of the Empire: items — the offer at setup, the local market, the limit of four, giving an item
up (over the limit, shipwreck, a story, or after a defeat), developing a hero and using healing items."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.champion.engine.table import Table
from rules.champion.i18n import _, _n, _p, comma, local
from rules.champion.state import (
    DEVELOP_COST,
    ITEM_LIMIT,
    Bought,
    Buy,
    Develop,
    Developed,
    Drop,
    Hero,
    ItemGained,
    ItemLost,
    Pass,
    Passed,
    Shuffled,
    State,
    Use,
    Used,
)
from rules.core import IllegalAction, Rng


@dataclass(frozen=True, slots=True)
class Items:
    """Items at a table: the offer, the market, the limit, losses, development and healing."""

    table: Table

    def item_choices(self, state: State, owner: Hero) -> list[str]:
        """Items that may be given up now (at the limit, the new item itself too)."""
        if state.losing and state.losing[0] == "limit":
            return [*self.table.losable(owner), state.losing[2]]
        return self.table.losable(owner)

    def price_cut(self, state: State) -> int:
        return 1 if self.table.effect(state) == "market_discount1" else 0

    def free_moves(self, state: State, seat: int) -> list[Any]:
        me = state.heroes[seat]
        out: list[Any] = [Develop(attribute=a) for a, cost in DEVELOP_COST.items() if me.xp >= cost]
        used = set()
        for i in me.items:
            item = self.table.lib.item[i]
            if item.kind == "healing" and i not in used and me.life < me.max_life:
                used.add(i)
                out.append(Use(item=i))
        return out

    def draw_item(self, s: State, rng: Rng, events: list[Any]) -> str:
        if not s.item_deck:
            return ""
        return s.item_deck.pop(0)

    def _close_market(self, s: State, rng: Rng, events: list[Any]) -> None:
        s.item_deck = rng.shuffle(s.item_deck + s.market)
        s.market = []
        events.append(Shuffled(pile="item", cards=len(s.item_deck)))
        s.phase = "action"

    def free_move(self, s: State, seat: int, action: Develop | Use, events: list[Any]) -> None:
        me = s.heroes[seat]
        if isinstance(action, Develop):
            cost = DEVELOP_COST.get(action.attribute)
            if cost is None:
                raise IllegalAction(_("Develop initiative (4 XP), combat (3 XP) or life (2 XP)."))
            if me.xp < cost:
                raise IllegalAction(_("Raising {attribute} costs {cost} experience; you have {xp}.",
                                      attribute=_p("attribute", action.attribute), cost=cost, xp=me.xp))
            me.xp -= cost
            if action.attribute == "initiative":
                me.initiative += 1
            elif action.attribute == "combat":
                me.combat += 1
            else:
                me.max_life += 1
                me.life += 1
            events.append(Developed(seat=seat, attribute=action.attribute, cost=cost))
        else:
            item = self.table.lib.item.get(action.item)
            if action.item not in me.items or item is None or item.kind != "healing":
                lib = self.table.lib
                heal = [local(lib).item[i].name for i in me.items if lib.item[i].kind == "healing"]
                raise IllegalAction(_("Use a healing item you carry: {items}.", items=comma(heal))
                                    if heal else _("Use a healing item you carry: you have none."))
            if me.life >= me.max_life:
                raise IllegalAction(_("Your life is already at its maximum; keep the remedy for later."))
            gain = min(item.heal, me.max_life - me.life)
            me.life += gain
            me.items.remove(action.item)
            s.item_deck.append(action.item)
            events.append(Used(seat=seat, item=action.item, life=gain))

    def gain_item(self, s: State, seat: int, item: str, events: list[Any]) -> None:
        """Take an item; at the limit of four it waits beside the sheet until one item is given up."""
        me = s.heroes[seat]
        if len(me.items) >= ITEM_LIMIT:
            s.losing = ["limit", str(seat), item]
            s.phase = "item"
            return
        me.items.append(item)
        events.append(ItemGained(seat=seat, item=item))

    def ask_loss(self, s: State, seat: int, chooser: int, why: str, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        options = self.table.losable(me)
        if not options:
            return
        if chooser != seat and s.opponents == "bot":
            self._lose_item(s, seat, self.loss_policy(me), why, chooser, events, auto=True)
            return
        if len(options) == 1 and chooser == seat:
            self._lose_item(s, seat, options[0], why, chooser, events)
            return
        s.losing = [why, str(chooser)]
        s.phase = "item"

    def loss_policy(self, me: Hero) -> str:
        """Tabula's choice for the left-hand player: the dearest item that may go."""
        options = self.table.losable(me)
        return max(options, key=lambda i: (self.table.lib.item[i].price, -options.index(i)))

    def _lose_item(self, s: State, seat: int, item: str, why: str, chooser: int, events: list[Any], *,
                   auto: bool = False) -> None:
        me = s.heroes[seat]
        me.items.remove(item)
        s.item_deck.append(item)  # lost items go under the item deck
        events.append(ItemLost(seat=seat, item=item, why=why, chooser=-1 if auto else chooser))
        s.phase = "action"

    def drop(self, s: State, seat: int, action: Any, events: list[Any]) -> None:
        """The item phase: the item given up (by its owner, or by whoever chooses for them)."""
        if not isinstance(action, Drop):
            raise IllegalAction(_("An item must be given up first: `/drop item:`."))
        owner_seat = s.order[s.turn]
        owner = s.heroes[owner_seat]
        losable = self.item_choices(s, owner)
        if action.item not in losable:
            names = comma(local(self.table.lib).item[i].name for i in losable)
            raise IllegalAction(_("Choose one of {player}'s items that can go: {items} (never the starting weapon).",
                                  player=owner.name, items=names))
        if s.losing[0] == "limit":
            incoming = s.losing[2]
            if action.item != incoming:
                owner.items.append(incoming)
                owner.items.remove(action.item)
                events.append(ItemGained(seat=owner_seat, item=incoming))
            s.item_deck.append(action.item)
            events.append(ItemLost(seat=owner_seat, item=action.item, why="limit", chooser=seat))
            s.phase = "action"
        else:
            self._lose_item(s, owner_seat, action.item, s.losing[0], seat, events)
        s.losing = []

    def market(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        if isinstance(action, Buy):
            if action.item not in s.market:
                raise IllegalAction(_("Buy one of the market's cards: {cards} — or `/pass`.",
                                      cards=comma(s.market)))
            price = max(0, self.table.lib.item[action.item].price - self.price_cut(s))
            if price > me.gold:
                raise IllegalAction(_n("{item} costs {price} gold; you have {gold}.",
                                       "{item} costs {price} gold; you have {gold}.", price,
                                      item=local(self.table.lib).item[action.item].name, price=price, gold=me.gold))
            me.gold -= price
            s.market.remove(action.item)
            events.append(Bought(seat=seat, item=action.item, price=price))
            self._close_market(s, rng, events)
            self.gain_item(s, seat, action.item, events)
        elif isinstance(action, Pass):
            events.append(Passed(seat=seat, what="market"))
            self._close_market(s, rng, events)
        else:
            raise IllegalAction(_("At the market: `/buy item:` one card, or `/pass`."))
