"""Champion of the Empire: setting the table — the lobby's options, the shuffled decks, the order of play,
and each player's first choices (hero, side of the sheet, starting weapon, one of two items or none)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.champion.combat import all_cards
from rules.champion.i18n import _, _n, comma, local
from rules.champion.items import Items
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

MIN_PLAYERS, MAX_PLAYERS = 2, 4


class Setup(Items):
    def check_options(self, options: Mapping[str, object], players: int) -> dict[str, object]:
        """Normalise the lobby options and refuse a table that does not fit them."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise IllegalAction(_("Champion of the Empire is for 2 to 4 players; {players} are seated.",
                                  players=players))
        opponents = options.get("opponents") or "players"
        if opponents not in ("players", "bot"):
            raise IllegalAction(_("Opponents can be played by **players** (the player to the hero's right) or by "
                                "the **bot** (Tabula)."))
        out = {**options, "opponents": opponents}
        for flag in ("fate", "short", "heroic"):
            value = options.get(flag, False)
            if isinstance(value, str):
                if value.lower() not in ("true", "false", "yes", "no", "on", "off", "1", "0", ""):
                    raise IllegalAction(_("The {flag} variant is on or off (true/false), not '{value}'.", flag=flag,
                                          value=value))
                value = value.lower() in ("true", "yes", "on", "1")
            out[flag] = bool(value)
        return out

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step[State, ChampionEvent]:
        opts = self.check_options(options, len(seats))
        lib = self.lib
        rng = self.dice(seed_state(seed))
        events: list[Any] = []
        n = len(seats)
        first = rng.below(n)  # the book's "last read a mythological book": Tabula draws lots
        order = [(first + i) % n for i in range(n)]
        heroes = [Hero(name=seat.name, colour=COLOURS[i][0], letter=COLOURS[i][1],
                       regions=[r.id for r in lib.map.region]) for i, seat in enumerate(seats)]
        events.append(Seated(order=order, first=first, colours={i: h.colour for i, h in enumerate(heroes)}))
        s = State(opponents="bot" if opts["opponents"] == "bot" else "players", fate=bool(opts["fate"]),
                  short=bool(opts["short"]), heroic=bool(opts["heroic"]),
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

    def _setup_move(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
        lib = self.lib
        me = s.heroes[seat]
        if seat not in self.to_act(s):
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
            me.offer = [self._draw_item(s, rng, events) for _i in range(2)]
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
            self._new_round(s, rng, events)
