"""Champion of the Empire: setting the table — the shuffled decks, the order of play — and each player's first
choices (hero, side of the sheet, starting weapon, one of two items or none).  The lobby's options are the
ruleset's to check."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.champion.engine.combat import all_cards
from rules.champion.engine.items import Items
from rules.champion.engine.table import Table
from rules.champion.i18n import _, _n, comma, local
from rules.champion.state import (
    COLOURS,
    Bought,
    Buy,
    ChampionEvent,
    Hero,
    Offered,
    Pass,
    Passed,
    Pick,
    Picked,
    Seated,
    Shuffled,
    State,
)
from rules.core import IllegalAction, NotYourTurn, Rng, SeatInfo, Step, seed_state


@dataclass(frozen=True, slots=True)
class Opening:
    """Setting the table, and each player's first choices, at a table whose items deal the offers."""

    table: Table
    items: Items

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step[State, ChampionEvent]:
        lib = self.table.lib
        rng = self.table.dice(seed_state(seed))
        events: list[Any] = []
        n = len(seats)
        first = rng.below(n)  # the book's "last read a mythological book": Tabula draws lots
        order = [(first + i) % n for i in range(n)]
        heroes = [Hero(name=seat.name, colour=COLOURS[i][0], letter=COLOURS[i][1],
                       regions=[r.id for r in lib.map.region]) for i, seat in enumerate(seats)]
        events.append(Seated(order=order, first=first, colours={i: h.colour for i, h in enumerate(heroes)}))
        s = State(opponents="bot" if options.get("opponents") == "bot" else "players",
                  fate=bool(options.get("fate", False)), short=bool(options.get("short", False)),
                  heroic=bool(options.get("heroic", False)),
                  rng=0, heroes=heroes, order=order)

        def shuffled(name: str, cards: Sequence[str]) -> list[str]:
            out = rng.shuffle(cards)
            events.append(Shuffled(pile=name, cards=len(out)))
            return out

        s.events = shuffled("event", [e.id for e in lib.events])
        for deck in ("easy", "medium", "hard"):
            s.stories[deck] = shuffled(deck, [st.id for st in lib.stories if st.deck == deck])
            s.story_discard[deck] = []
        s.item_deck = shuffled("item", lib.market)
        plain, armed = all_cards(lib)
        s.combat_deck = shuffled("combat", plain)
        s.armed = armed
        s.province_cards = shuffled("province", sorted({p.icon for p in lib.map.province}))
        s.monsters = shuffled("monster", [m.id for m in lib.monsters])
        s.rng = rng.state
        return Step(state=s, events=tuple(events))

    def setup_move(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
        lib = self.table.lib
        me = s.heroes[seat]
        if seat not in self.table.to_act(s):
            raise NotYourTurn(_("You are ready; the others are still choosing their heroes."))
        if isinstance(action, Pick):
            if me.hero:
                raise IllegalAction(_("You have chosen your hero already. Now buy one of the two items or pass."))
            taken = {h.hero for h in s.heroes if h.hero}
            free = [h.id for h in lib.heroes if h.id not in taken]
            hero = lib.hero.get(action.hero)
            if hero is None or hero.id in taken:
                raise IllegalAction(_("Choose a hero nobody has taken: {heroes}.", heroes=comma(free)))
            here = local(lib).hero[hero.id]
            if not 1 <= action.side <= len(hero.side):
                raise IllegalAction(_("{hero}'s sheet has two sides: {sides}.", hero=here.name, sides=comma(
                    f"{i + 1} ({sd.name})" for i, sd in enumerate(here.side))))
            if action.weapon not in hero.weapons:
                raise IllegalAction(_("{hero} starts with one of the {people} weapons: {weapons}.", hero=here.name,
                                      people=here.people, weapons=comma(hero.weapons)))
            side = hero.side[action.side - 1]
            me.hero, me.side, me.weapon, me.province = hero.id, action.side - 1, action.weapon, hero.start
            me.life = me.max_life = side.life
            me.combat, me.initiative, me.xp, me.gold = side.combat, side.initiative, side.xp, side.gold
            me.items = [action.weapon]
            events.append(Picked(seat=seat, hero=hero.id, side=side.name, weapon=action.weapon))
            me.offer = [self.items.draw_item(s, rng, events) for _i in range(2)]
            me.offer = [i for i in me.offer if i]
            events.append(Offered(seat=seat, cards=list(me.offer), where="setup"))
            if not me.offer:
                me.offer_done = True
        elif isinstance(action, Buy):
            if not me.hero:
                raise IllegalAction(_("First choose your hero: `/hero hero: side: weapon:`."))
            if action.item not in me.offer:
                raise IllegalAction(_("Buy one of the two cards on offer: {cards} — or pass.",
                                      cards=comma(me.offer)))
            price = lib.item[action.item].price
            if price > me.gold:
                raise IllegalAction(_n("{item} costs {price} gold; you have {gold}.",
                                       "{item} costs {price} gold; you have {gold}.", price,
                                      item=local(lib).item[action.item].name, price=price, gold=me.gold))
            me.gold -= price
            me.items.append(action.item)
            me.offer.remove(action.item)
            events.append(Bought(seat=seat, item=action.item, price=price))
            s.item_out += me.offer
            me.offer = []
            me.offer_done = True
        elif isinstance(action, Pass):
            if not me.hero:
                raise IllegalAction(_("First choose your hero: `/hero hero: side: weapon:`."))
            s.item_out += me.offer
            me.offer = []
            me.offer_done = True
            events.append(Passed(seat=seat, what="offer"))
        else:
            raise IllegalAction(_("The game is being set up: choose your hero with `/hero`, then buy or pass."))
        if all(h.hero and h.offer_done for h in s.heroes):
            s.item_deck = rng.shuffle(s.item_deck + s.item_out)
            s.item_out = []
            events.append(Shuffled(pile="item", cards=len(s.item_deck)))
            self.table.new_round(s, rng, events)
