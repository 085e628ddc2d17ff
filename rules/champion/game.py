"""Champion of the Empire (A birodalom bajnoka) as a pure ruleset.

Heroes roam the Roman Empire of AD 115.  Each round opens with an event card; on their turn a hero takes
one action (caravan escort, exploration, voyage, local commissions, recuperation or secret lore), draws a
story card after moving, may visit the market of a city, and develops with experience.  Six pieces of
information reveal a monster's lair; the first hero to kill their monster is the Champion of the Empire.
House rules (where the book is silent) are listed in ``rules/champion/RULES.md``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any, ClassVar

from rules.champion.combat import Melee, all_cards, card_type, make_foe
from rules.champion.content import CARD_TYPES, Library, Outcome, Story, library
from rules.champion.state import (
    COLOURS,
    DEVELOP_COST,
    FATE_LIMIT,
    ITEM_LIMIT,
    Attack,
    Bought,
    Buy,
    Caravan,
    CardKept,
    Champion,
    ChampionAction,
    ChampionEvent,
    Choose,
    Combat,
    Commission,
    Defeated,
    Defend,
    Develop,
    Developed,
    Drop,
    Explore,
    FateMoved,
    FightBegan,
    FightEnded,
    Gained,
    GoldForAll,
    Hero,
    Information,
    ItemGained,
    ItemLost,
    Keep,
    Kept,
    KeptUsed,
    Lore,
    MonsterOffer,
    MonsterTaken,
    Moved,
    Offered,
    Pass,
    Passed,
    Pick,
    Picked,
    Play,
    ProvinceCard,
    Ranged,
    Recuperate,
    Reshuffled,
    Rolled,
    RoundBegan,
    Seated,
    Shipwreck,
    Shuffled,
    State,
    StoryChosen,
    StoryDraw,
    StoryDrawn,
    StoryOutcome,
    TrailLost,
    TurnBegan,
    Use,
    Used,
    Voyage,
    Weapon,
)
from rules.core import GameOver, IllegalAction, NotYourTurn, Rng, SeatInfo, Step, copier, seed_state
from rules.core import Outcome as GameOutcome

_copy = copier(State)

#: Phases in which the hero whose turn it is may develop or use a healing item.
FREE_PHASES = ("action", "lair", "story", "market")
ACTION_NAMES: dict[type, str] = {
    Caravan: "caravan", Explore: "explore", Voyage: "voyage", Commission: "commission", Recuperate: "recuperate",
    Lore: "lore", Attack: "attack",
}


class ChampionOfTheEmpire:
    """2–4 heroes; variants: the fate track, the shorter game (five pieces of information), heroic opponents."""

    key: ClassVar[str] = "champion"
    title: ClassVar[str] = "Champion of the Empire"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    state_type: ClassVar[type] = State
    action_type: ClassVar[Any] = ChampionAction
    event_type: ClassVar[Any] = ChampionEvent

    def __init__(self, lib: Library | None = None, *, dice: type[Rng] = Rng) -> None:
        self._lib = lib
        self.dice = dice  # tests pass a scripted generator to replay the book's examples roll by roll

    @property
    def lib(self) -> Library:
        if self._lib is None:
            self._lib = library()
        return self._lib

    # --- setup --------------------------------------------------------------------------------

    def check_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """Normalise the lobby options and refuse a table that does not fit them."""
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction(f"Champion of the Empire is for 2 to 4 players; {players} are seated.")
        opponents = options.get("opponents") or "players"
        if opponents not in ("players", "bot"):
            raise IllegalAction("Opponents can be played by **players** (the player to the hero's right) or by "
                                "the **bot** (Tabula).")
        out = {**options, "opponents": opponents}
        for flag in ("fate", "short", "heroic"):
            value = options.get(flag, False)
            if isinstance(value, str):
                if value.lower() not in ("true", "false", "yes", "no", "on", "off", "1", "0", ""):
                    raise IllegalAction(f"The {flag} variant is on or off (true/false), not {value!r}.")
                value = value.lower() in ("true", "yes", "on", "1")
            out[flag] = bool(value)
        return out

    def setup(self, seats: Sequence[SeatInfo], options: dict[str, Any], seed: int) -> Step:
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
        s = State(opponents=opts["opponents"], fate=opts["fate"], short=opts["short"], heroic=opts["heroic"],
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

    # --- who acts -----------------------------------------------------------------------------

    def current(self, state: State) -> int | None:
        if state.phase in ("setup", "over"):
            return None
        return state.order[state.turn]

    def right_of(self, state: State, seat: int, k: int = 1) -> int:
        """The player ``k`` places to the right of ``seat`` (earlier in turn order)."""
        pos = state.order.index(seat)
        return state.order[(pos - k) % len(state.order)]

    def left_of(self, state: State, seat: int) -> int:
        pos = state.order.index(seat)
        return state.order[(pos + 1) % len(state.order)]

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        if state.phase == "setup":
            return frozenset(i for i, h in enumerate(state.heroes) if not h.hero or not h.offer_done)
        if state.phase == "combat" and state.combat is not None:
            return frozenset(self._melee(state).to_act())
        if state.phase == "fate" and state.draw is not None:
            return frozenset({state.draw.chooser})
        if state.phase == "item" and state.losing:
            return frozenset({int(state.losing[1])})
        return frozenset({state.order[state.turn]})

    def _melee(self, state: State, rng: Rng | None = None, events: list[Any] | None = None) -> Melee:
        return Melee(self.lib, state, rng or self.dice(state.rng), events if events is not None else [])

    def effect(self, state: State) -> str:
        ev = self.lib.event.get(state.event)
        return ev.effect if ev is not None else "none"

    def target_info(self, state: State) -> int:
        return 5 if state.short else 6

    # --- movement -----------------------------------------------------------------------------

    def _kept(self, hero: Hero, key: str, state: State) -> Kept | None:
        for k in hero.kept:
            if k.key == key and k.round < state.round:
                return k
        return None

    def allowance(self, state: State, seat: int, by: str) -> int:
        """How many provinces a caravan or an exploration may move this turn."""
        me = state.heroes[seat]
        lame = 1 if self._kept(me, "lame", state) else 0
        if by == "caravan":
            return max(0, 1 - lame)
        items = [self.lib.item[i] for i in me.items]
        horses = max((i.move for i in items if i.kind == "horse"), default=0)  # one horse is ridden at a time
        steps = 2 + horses + sum(i.move for i in items if i.kind != "horse")  # a road book, boots: +1 each
        steps += 1 if self._kept(me, "guide", state) else 0
        eff = self.effect(state)
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
            for nxt in self.lib.near[here]:
                if nxt not in paths:
                    paths[nxt] = paths[here] + [nxt]
                    queue.append(nxt)
        del paths[start]
        return paths

    def voyage_cost(self, state: State, seat: int) -> int:
        if self.effect(state) == "voyage_free" or self._kept(state.heroes[seat], "free_passage", state):
            return 0
        return 2

    def lore_cost(self, state: State) -> int:
        return 0 if self.effect(state) == "lore_free" else 2

    def at_lair(self, state: State, seat: int) -> bool:
        me = state.heroes[seat]
        return bool(me.monster) and me.info >= self.target_info(state) and me.province == self.lair(me)

    def lair(self, hero: Hero) -> str | None:
        if not hero.province_card or len(hero.regions) != 1:
            return None
        return self.lib.lairs.get((hero.regions[0], hero.province_card))

    def losable(self, hero: Hero) -> list[str]:
        return [i for i in hero.items if i != hero.weapon]

    # --- what is legal ------------------------------------------------------------------------

    def legal(self, state: State, seat: int) -> list[Any]:
        if state.phase == "over" or seat not in self.to_act(state):
            return []
        lib = self.lib
        me = state.heroes[seat]
        if state.phase == "setup":
            if not me.hero:
                taken = {h.hero for h in state.heroes}
                return [Pick(hero=h.id, side=side + 1, weapon=w) for h in lib.heroes if h.id not in taken
                        for side in range(len(h.side)) for w in h.weapons]
            return [Buy(item=i) for i in me.offer if lib.item[i].price <= me.gold] + [Pass()]
        if state.phase == "combat":
            return self._melee(state).legal(seat)
        if state.phase == "fate":
            assert state.draw is not None
            return [Choose(option=c) for c in state.draw.cards]
        if state.phase == "item":
            owner = state.heroes[state.order[state.turn]]
            return [Drop(item=i) for i in self.item_choices(state, owner)]
        if state.phase == "monster":
            return [Choose(option=m) for m in state.monster_offer]
        out: list[Any] = []
        if state.phase == "action":
            out += self.action_moves(state, seat)
        elif state.phase == "lair":
            out += [Attack(), Pass()]
        elif state.phase == "story":
            out += [Choose(option=str(i + 1)) for i in self.story_options(state)]
        elif state.phase == "market":
            price = self.price_cut(state)
            out += [Buy(item=i) for i in state.market if max(0, lib.item[i].price - price) <= me.gold] + [Pass()]
        out += self.free_moves(state, seat)
        return out

    def item_choices(self, state: State, owner: Hero) -> list[str]:
        """Items that may be given up now (at the limit, the new item itself too)."""
        if state.losing and state.losing[0] == "limit":
            return [*self.losable(owner), state.losing[2]]
        return self.losable(owner)

    def action_moves(self, state: State, seat: int) -> list[Any]:
        lib = self.lib
        me = state.heroes[seat]
        out: list[Any] = []
        cara = self.allowance(state, seat, "caravan")
        out += [Caravan(to=p) for p in (lib.near[me.province] if cara else (me.province,))]
        steps = self.allowance(state, seat, "explore")
        if steps:
            out += [Explore(path=tuple(path)) for path in self.reach(state, seat, steps).values()]
        else:
            out.append(Explore(path=(me.province,)))
        if self.effect(state) != "voyage_forbidden" and me.province in lib.ports \
                and me.gold >= self.voyage_cost(state, seat):
            out += [Voyage(to=p) for p in lib.ports if p != me.province]
        if me.last_action != "commission":
            out += [Commission(reward="xp"), Commission(reward="gold")]
        out.append(Recuperate())
        if self._lore_refusal(state, seat) is None:
            out.append(Lore())
        if self.at_lair(state, seat):
            out.append(Attack())
        return out

    def free_moves(self, state: State, seat: int) -> list[Any]:
        me = state.heroes[seat]
        out: list[Any] = [Develop(attribute=a) for a, cost in DEVELOP_COST.items() if me.xp >= cost]
        used = set()
        for i in me.items:
            item = self.lib.item[i]
            if item.kind == "healing" and i not in used and me.life < me.max_life:
                used.add(i)
                out.append(Use(item=i))
        return out

    def story_options(self, state: State) -> list[int]:
        """The choice outcomes the hero may take (a choice that costs gold needs the gold)."""
        assert state.draw is not None
        story = self.lib.story[state.draw.cards[0]]
        me = state.heroes[state.order[state.turn]]
        ok = [i for i, o in enumerate(story.outcome) if o.gold >= 0 or me.gold >= -o.gold]
        return ok or list(range(len(story.outcome)))

    def price_cut(self, state: State) -> int:
        return 1 if self.effect(state) == "market_discount1" else 0

    # --- applying an action -------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Any) -> Step:
        if state.phase == "over":
            raise GameOver("This game has ended: " + self._winner_line(state))
        if not isinstance(action, ChampionAction.__args__):
            raise IllegalAction("That is not a move in Champion of the Empire.")
        if not 0 <= seat < len(state.heroes):
            raise NotYourTurn("You are not seated in this game.")
        s = _copy(state)
        rng = self.dice(s.rng)
        events: list[Any] = []
        before, acting = self._decision_key(state), self.to_act(state)
        if s.phase == "setup":
            self._setup_move(s, seat, action, rng, events)
        elif s.phase == "combat":
            if seat not in self.to_act(s):
                raise NotYourTurn(self._melee(s).waiting_for())
            melee = self._melee(s, rng, events)
            melee.act(seat, action)
            self._run(s, rng, events)
        else:
            self._turn_move(s, seat, action, rng, events)
        s.rng = rng.state
        # The moment moves with every action — so a second press of the same button is refused — except
        # while several players choose at once: one of them finishing must not stale the others' buttons
        # (the rules refuse a second choice from the same player anyway).
        after = self.to_act(s)
        together = (state.phase == s.phase == "setup") or (self._decision_key(s) == before and after < acting)
        if not together:
            s.moment += 1
        return Step(state=s, events=tuple(events))

    def _decision_key(self, s: State) -> tuple[Any, ...]:
        c = s.combat
        return (s.phase, s.turn, s.round, c.step if c else "", c.round if c else 0, len(s.tasks))

    def moment(self, state: State) -> int:
        """Changes with every action, except when one of several players who choose at once has chosen:
        buttons carry it, and a button drawn for an earlier moment is refused."""
        return state.moment

    def _waiting(self, s: State) -> str:
        names = [s.heroes[i].name for i in sorted(self.to_act(s))]
        return "It is " + " and ".join(names) + "'s move now, not yours."

    # --- setup moves --------------------------------------------------------------------------

    def _setup_move(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
        lib = self.lib
        me = s.heroes[seat]
        if seat not in self.to_act(s):
            raise NotYourTurn("You are ready; the others are still choosing their heroes.")
        if isinstance(action, Pick):
            if me.hero:
                raise IllegalAction("You have chosen your hero already. Now buy one of the two items or pass.")
            taken = {h.hero for h in s.heroes if h.hero}
            free = [h.id for h in lib.heroes if h.id not in taken]
            hero = lib.hero.get(action.hero)
            if hero is None or hero.id in taken:
                raise IllegalAction(f"Choose a hero nobody has taken: {', '.join(free)}.")
            if not 1 <= action.side <= len(hero.side):
                raise IllegalAction(f"{hero.name}'s sheet has two sides: " +
                                    ", ".join(f"{i + 1} ({sd.name})" for i, sd in enumerate(hero.side)) + ".")
            if action.weapon not in hero.weapons:
                raise IllegalAction(f"{hero.name} starts with one of the {hero.people} weapons: " +
                                    ", ".join(hero.weapons) + ".")
            side = hero.side[action.side - 1]
            me.hero, me.side, me.weapon, me.province = hero.id, action.side - 1, action.weapon, hero.start
            me.life = me.max_life = side.life
            me.combat, me.initiative, me.xp, me.gold = side.combat, side.initiative, side.xp, side.gold
            me.items = [action.weapon]
            events.append(Picked(seat=seat, hero=hero.id, side=side.name, weapon=action.weapon))
            me.offer = [self._draw_item(s, rng, events) for _ in range(2)]
            me.offer = [i for i in me.offer if i]
            events.append(Offered(seat=seat, cards=list(me.offer), where="setup"))
            if not me.offer:
                me.offer_done = True
        elif isinstance(action, Buy):
            if not me.hero:
                raise IllegalAction("First choose your hero: `/hero hero: side: weapon:`.")
            if action.item not in me.offer:
                raise IllegalAction("Buy one of the two cards on offer: " + ", ".join(me.offer) + " — or pass.")
            price = lib.item[action.item].price
            if price > me.gold:
                raise IllegalAction(f"{lib.item[action.item].name} costs {price} gold; you have {me.gold}.")
            me.gold -= price
            me.items.append(action.item)
            me.offer.remove(action.item)
            events.append(Bought(seat=seat, item=action.item, price=price))
            s.item_out += me.offer
            me.offer = []
            me.offer_done = True
        elif isinstance(action, Pass):
            if not me.hero:
                raise IllegalAction("First choose your hero: `/hero hero: side: weapon:`.")
            s.item_out += me.offer
            me.offer = []
            me.offer_done = True
            events.append(Passed(seat=seat, what="offer"))
        else:
            raise IllegalAction("The game is being set up: choose your hero with `/hero`, then buy or pass.")
        if all(h.hero and h.offer_done for h in s.heroes):
            s.item_deck = rng.shuffle(s.item_deck + s.item_out)
            s.item_out = []
            events.append(Shuffled(pile="item", cards=len(s.item_deck)))
            self._new_round(s, rng, events)

    def _draw_item(self, s: State, rng: Rng, events: list[Any]) -> str:
        if not s.item_deck:
            return ""
        return s.item_deck.pop(0)

    # --- rounds and turns ---------------------------------------------------------------------

    def _new_round(self, s: State, rng: Rng, events: list[Any]) -> None:
        s.round += 1
        if s.event:
            s.event_discard.append(s.event)
        if not s.events:
            s.events = rng.shuffle(s.event_discard)
            s.event_discard = []
            events.append(Reshuffled(pile="event", cards=len(s.events)))
        s.event = s.events.pop(0)
        events.append(RoundBegan(round=s.round, event=s.event))
        if self.effect(s) == "all_gain_1_gold":
            for h in s.heroes:
                h.gold += 1
            events.append(GoldForAll(gold=1))
        s.turn = 0
        self._begin_turn(s, events)

    def _begin_turn(self, s: State, events: list[Any]) -> None:
        s.phase = "action"
        s.tasks = []
        s.moved = False
        events.append(TurnBegan(seat=s.order[s.turn], round=s.round))

    def _end_turn(self, s: State, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[s.order[s.turn]]
        me.turn_end = me.province
        if s.turn + 1 >= len(s.order):
            self._new_round(s, rng, events)
        else:
            s.turn += 1
            self._begin_turn(s, events)

    # --- turn moves ---------------------------------------------------------------------------

    def _turn_move(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
        if seat not in self.to_act(s):
            raise NotYourTurn(self._waiting(s))
        me = s.heroes[seat]
        if isinstance(action, (Develop, Use)):
            if s.phase not in FREE_PHASES or seat != s.order[s.turn]:
                raise IllegalAction("You develop your hero or use a healing item on your own turn, outside a fight.")
            self._free_move(s, seat, action, events)
            return
        if s.phase == "action":
            self._action(s, seat, action, rng, events)
        elif s.phase == "lair":
            if isinstance(action, Attack):
                self._start_monster_fight(s, seat, rng, events)
            elif isinstance(action, Pass):
                s.tasks.insert(0, "draw")
                s.phase = "action"
            else:
                raise IllegalAction("You stand in the monster's lair: `/attack` it, or `/pass` to draw a story card.")
        elif s.phase == "story":
            if not isinstance(action, Choose):
                raise IllegalAction("Choose what you do on the story card: `/choose option:`.")
            assert s.draw is not None
            options = self.story_options(s)
            try:
                index = int(action.option) - 1
            except ValueError:
                index = -1
            if index not in options:
                story = self.lib.story[s.draw.cards[0]]
                listed = "; ".join(f"{i + 1}: {story.outcome[i].choice}" for i in options)
                raise IllegalAction(f"Choose one of the options you can afford — {listed}.")
            self._resolve_outcome(s, seat, self.lib.story[s.draw.cards[0]], index, 0, events)
        elif s.phase == "fate":
            if not isinstance(action, Choose):
                raise IllegalAction("Choose which story card is faced: `/choose option:`.")
            assert s.draw is not None
            if action.option not in s.draw.cards:
                raise IllegalAction("Choose one of the two story cards: " + ", ".join(s.draw.cards) + ".")
            chosen = action.option
            for other in s.draw.cards:
                if other != chosen:
                    s.stories[s.draw.deck].append(other)  # the card not chosen goes to the bottom
            events.append(StoryChosen(seat=s.order[s.turn], card=chosen, by=seat, auto=action.auto))
            s.draw.cards = [chosen]
            s.phase = "action"  # placeholder until the card is resolved below
            self._read_story(s, rng, events)
        elif s.phase == "monster":
            if not isinstance(action, Choose) or action.option not in s.monster_offer:
                raise IllegalAction("Choose your monster sheet: " + ", ".join(s.monster_offer) + ".")
            self._take_monster(s, seat, action.option, True, rng, events)
        elif s.phase == "item":
            if not isinstance(action, Drop):
                raise IllegalAction("An item must be given up first: `/drop item:`.")
            owner_seat = s.order[s.turn]
            owner = s.heroes[owner_seat]
            losable = self.item_choices(s, owner)
            if action.item not in losable:
                names = ", ".join(self.lib.item[i].name for i in losable)
                raise IllegalAction(f"Choose one of {owner.name}'s items that can go: {names} "
                                    "(never the starting weapon).")
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
        elif s.phase == "market":
            if isinstance(action, Buy):
                if action.item not in s.market:
                    raise IllegalAction("Buy one of the market's cards: " + ", ".join(s.market) + " — or `/pass`.")
                price = max(0, self.lib.item[action.item].price - self.price_cut(s))
                if price > me.gold:
                    raise IllegalAction(f"{self.lib.item[action.item].name} costs {price} gold; you have {me.gold}.")
                me.gold -= price
                s.market.remove(action.item)
                events.append(Bought(seat=seat, item=action.item, price=price))
                self._close_market(s, rng, events)
                self._gain_item(s, seat, action.item, events)
            elif isinstance(action, Pass):
                events.append(Passed(seat=seat, what="market"))
                self._close_market(s, rng, events)
            else:
                raise IllegalAction("At the market: `/buy item:` one card, or `/pass`.")
        else:
            raise IllegalAction("That cannot be done now.")
        self._run(s, rng, events)

    def _close_market(self, s: State, rng: Rng, events: list[Any]) -> None:
        s.item_deck = rng.shuffle(s.item_deck + s.market)
        s.market = []
        events.append(Shuffled(pile="item", cards=len(s.item_deck)))
        s.phase = "action"

    def _free_move(self, s: State, seat: int, action: Develop | Use, events: list[Any]) -> None:
        me = s.heroes[seat]
        if isinstance(action, Develop):
            cost = DEVELOP_COST.get(action.attribute)
            if cost is None:
                raise IllegalAction("Develop initiative (4 XP), combat (3 XP) or life (2 XP).")
            if me.xp < cost:
                raise IllegalAction(f"Raising {action.attribute} costs {cost} experience; you have {me.xp}.")
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
            item = self.lib.item.get(action.item)
            if action.item not in me.items or item is None or item.kind != "healing":
                heal = [self.lib.item[i].name for i in me.items if self.lib.item[i].kind == "healing"]
                raise IllegalAction("Use a healing item you carry: " + (", ".join(heal) or "you have none") + ".")
            if me.life >= me.max_life:
                raise IllegalAction("Your life is already at its maximum; keep the remedy for later.")
            gain = min(item.heal, me.max_life - me.life)
            me.life += gain
            me.items.remove(action.item)
            s.item_deck.append(action.item)
            events.append(Used(seat=seat, item=action.item, life=gain))

    def _lore_refusal(self, s: State, seat: int) -> str | None:
        me = s.heroes[seat]
        prov = self.lib.province[me.province]
        if not prov.shrine:
            return "There is no secret shrine in " + prov.name + "."
        if me.turn_end != me.province:
            return f"You must end a turn at {prov.shrine} before you can learn its secret lore."
        if me.province in me.shrines:
            return f"You have already learned what {prov.shrine} can teach you; each shrine gives one piece once."
        if me.info >= self.target_info(s):
            return "You already know where your monster lies; there is nothing more to learn."
        cost = self.lore_cost(s)
        if me.gold < cost:
            return f"Secret lore costs {cost} gold; you have {me.gold}."
        return None

    def _action(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
        lib = self.lib
        me = s.heroes[seat]
        name = ACTION_NAMES.get(type(action))
        if name is None:
            raise IllegalAction("Choose your action: /caravan, /explore, /voyage, /commission, /recuperate or /lore "
                                "(and /develop or /use any time on your turn).")
        s.last_move = None
        if isinstance(action, Caravan):
            steps = self.allowance(s, seat, "caravan")
            near = lib.near[me.province]
            if steps == 0:
                if action.to != me.province:
                    raise IllegalAction("You are lame: this caravan moves no province. Escort it where you stand "
                                        f"(`to:{me.province}`).")
            elif action.to not in near:
                raise IllegalAction("A caravan moves one province, to a neighbour: "
                                    + ", ".join(lib.province[p].name for p in near) + ". (A horse does not help.)")
            self._use_kept(s, seat, "lame", events)
            path = [me.province] + ([action.to] if action.to != me.province else [])
            me.province = action.to
            gold = 1 + (1 if self.effect(s) == "caravan_gold_plus1" else 0)
            me.gold += gold
            events.append(Moved(seat=seat, path=path, by="caravan"))
            events.append(Gained(seat=seat, changes={"gold": gold}, why="caravan"))
            s.last_move = {"seat": seat, "path": path, "by": "caravan"}
            s.tasks = ["story"]
        elif isinstance(action, Explore):
            steps = self.allowance(s, seat, "explore")
            path = list(action.path)
            if steps == 0:
                if path != [me.province]:
                    raise IllegalAction("This exploration moves no province (rain or a lame leg); explore where you "
                                        f"stand (`path:{me.province}`).")
                path = []
            else:
                self._check_path(s, seat, path, steps)
            if self._kept(me, "guide", s) and len(path) > steps - 1:
                self._use_kept(s, seat, "guide", events)
            self._use_kept(s, seat, "lame", events)
            full = [me.province, *path]
            if path:
                me.province = path[-1]
            me.xp += 1
            events.append(Moved(seat=seat, path=full, by="explore"))
            events.append(Gained(seat=seat, changes={"xp": 1}, why="explore"))
            s.last_move = {"seat": seat, "path": full, "by": "explore"}
            s.tasks = ["story"]
        elif isinstance(action, Voyage):
            if self.effect(s) == "voyage_forbidden":
                raise IllegalAction("No ship sails this round (the event forbids voyages). Choose another action.")
            if me.province not in lib.ports:
                raise IllegalAction(f"{lib.province[me.province].name} has no harbour on the Mare Internum; "
                                    "voyages start from a coastal province.")
            if action.to not in lib.ports or action.to == me.province:
                raise IllegalAction("Sail to another coastal province of the Mare Internum (`/voyage to:` lists them).")
            cost = self.voyage_cost(s, seat)
            if me.gold < cost:
                raise IllegalAction(f"A voyage costs {cost} gold; you have {me.gold}.")
            if cost == 0 and self.effect(s) != "voyage_free":
                self._use_kept(s, seat, "free_passage", events)
            me.gold -= cost
            path = [me.province, action.to]
            me.province = action.to
            events.append(Moved(seat=seat, path=path, by="voyage"))
            if cost:
                events.append(Gained(seat=seat, changes={"gold": -cost}, why="voyage"))
            s.last_move = {"seat": seat, "path": path, "by": "voyage"}
            roll = rng.die(6)
            events.append(Rolled(seat=seat, roll=roll, why="voyage"))
            wreck = 2 if self.effect(s) == "shipwreck_on_1_2" else 1
            s.tasks = ["story"]
            if roll <= wreck:
                events.append(Shipwreck(seat=seat))
                s.tasks.insert(0, f"lose:{seat}:shipwreck")
        elif isinstance(action, Commission):
            if action.reward not in ("xp", "gold"):
                raise IllegalAction("Local commissions pay in **xp** or **gold**: choose one.")
            if me.last_action == "commission":
                raise IllegalAction("You took local commissions last turn; they cannot be taken twice in a row.")
            bonus = 1 if self.effect(s) == f"commission_{action.reward}_plus1" else 0
            if action.reward == "xp":
                me.xp += 2 + bonus
            else:
                me.gold += 2 + bonus
            events.append(Gained(seat=seat, changes={action.reward: 2 + bonus}, why="commission"))
        elif isinstance(action, Recuperate):
            before = me.life
            if lib.province[me.province].city:
                me.life = me.max_life
            else:
                me.life = min(me.max_life, me.life + 2 + (1 if self.effect(s) == "recuperate_plus1" else 0))
            events.append(Gained(seat=seat, changes={"life": me.life - before}, why="recuperate"))
        elif isinstance(action, Lore):
            why = self._lore_refusal(s, seat)
            if why:
                raise IllegalAction(why)
            cost = self.lore_cost(s)
            me.gold -= cost
            me.shrines.append(me.province)
            if cost:
                events.append(Gained(seat=seat, changes={"gold": -cost}, why="lore"))
            s.tasks = ["info:lore"]
        elif isinstance(action, Attack):
            if not self.at_lair(s, seat):
                raise IllegalAction("You can attack your monster only in its lair, once you know where it is.")
            me.last_action = name
            self._start_monster_fight(s, seat, rng, events)
            s.tasks.append("market")
            s.tasks.append("end")
            return
        me.last_action = name
        s.tasks += ["market", "end"]

    def _check_path(self, s: State, seat: int, path: list[str], steps: int) -> None:
        lib = self.lib
        me = s.heroes[seat]
        unknown = [p for p in path if p not in lib.province]
        if unknown:
            raise IllegalAction(f"There is no province called {unknown[0][:30]!r}. Use the ids the list offers.")
        if not path:
            raise IllegalAction("Name where you explore: `/explore path:` one to "
                                f"{steps} provinces, each next to the one before.")
        if len(path) > steps:
            raise IllegalAction(f"This exploration moves at most {steps} province{'s' if steps > 1 else ''}; "
                                f"your path has {len(path)}.")
        here = me.province
        seen = {here}
        for p in path:
            if p not in lib.near[here]:
                raise IllegalAction(f"{lib.province[p].name} does not border {lib.province[here].name}; each step "
                                    "goes to a neighbouring province (crossings count).")
            if p in seen:
                raise IllegalAction("An exploration does not pass the same province twice.")
            seen.add(p)
            here = p

    def _use_kept(self, s: State, seat: int, key: str, events: list[Any]) -> None:
        me = s.heroes[seat]
        k = self._kept(me, key, s)
        if k is not None:
            me.kept.remove(k)
            deck = self.lib.story[k.card].deck
            s.story_discard[deck].append(k.card)
            events.append(KeptUsed(seat=seat, card=k.card, key=key))

    # --- the task list: what is left of the turn ----------------------------------------------

    def _run(self, s: State, rng: Rng, events: list[Any]) -> None:
        """Carry on with the turn until someone must choose (or the game ends)."""
        while s.phase != "over":
            if s.phase == "combat":
                melee = self._melee(s, rng, events)
                result = melee.advance()
                if not result:
                    return
                self._end_fight(s, result, rng, events)
                continue
            if s.phase != "action" or not s.tasks:
                return
            task = s.tasks.pop(0)
            seat = s.order[s.turn]
            me = s.heroes[seat]
            kind, _, arg = task.partition(":")
            if kind == "story":
                if self.at_lair(s, seat):
                    s.phase = "lair"
                    return
                self._draw_story(s, seat, rng, events)
            elif kind == "draw":
                self._draw_story(s, seat, rng, events)
            elif kind == "info":
                self._gain_info(s, seat, arg, rng, events)
            elif kind == "monster":
                self._offer_monster(s, seat, rng, events)
            elif kind == "item":
                got = arg if arg in s.item_deck else (s.item_deck[0] if s.item_deck else "")
                if got:
                    s.item_deck.remove(got)
                    self._gain_item(s, seat, got, events)
            elif kind == "lose":
                chooser, _, why = arg.partition(":")
                self._ask_loss(s, seat, int(chooser), why, rng, events)
            elif kind == "fight":
                card, _, idx = arg.partition(":")
                self._start_story_fight(s, seat, card, int(idx), rng, events)
            elif kind == "market":
                if self.lib.province[me.province].city and self.effect(s) != "market_closed" and s.item_deck:
                    s.market = [s.item_deck.pop(0) for _ in range(min(3, len(s.item_deck)))]
                    events.append(Offered(seat=seat, cards=list(s.market), where="market"))
                    s.phase = "market"
                    return
            elif kind == "end":
                self._end_turn(s, rng, events)

    # --- story cards --------------------------------------------------------------------------

    def _take_story(self, s: State, deck: str, rng: Rng, events: list[Any]) -> str | None:
        pile = s.stories[deck]
        if not pile:
            back = s.story_discard[deck]
            if not back:
                return None
            s.stories[deck] = pile = rng.shuffle(back)
            s.story_discard[deck] = []
            events.append(Reshuffled(pile=deck, cards=len(pile)))
        return pile.pop(0)

    def _draw_story(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        deck = self.lib.deck_of(me.province)
        first = self._take_story(s, deck, rng, events)
        if first is None:
            return  # every card of that deck is in front of someone: no story this time
        cards = [first]
        chooser = -1
        if s.fate and abs(me.fate) >= FATE_LIMIT:
            second = self._take_story(s, deck, rng, events)
            if second is not None:
                cards.append(second)
                chooser = seat if me.fate < 0 else self.right_of(s, seat)
            me.fate = 0
            events.append(FateMoved(seat=seat, fate=0, mark="reset"))
        s.draw = StoryDraw(cards=cards, deck=deck, chooser=chooser)
        events.append(StoryDrawn(seat=seat, deck=deck, cards=list(cards), chooser=chooser))
        if len(cards) == 2:
            if chooser != seat and s.opponents == "bot":
                chosen = self.fate_policy(s)
                s.stories[deck].append(cards[1] if chosen == cards[0] else cards[0])
                s.draw.cards = [chosen]
                events.append(StoryChosen(seat=seat, card=chosen, by=chooser, auto=True))
            else:
                s.phase = "fate"
                return
        self._read_story(s, rng, events)

    def fate_policy(self, s: State) -> str:
        """Tabula's pick for the right-hand player on the laurel side: the harder card (more opponents)."""
        assert s.draw is not None
        cards = s.draw.cards

        def danger(cid: str) -> int:
            return sum(len(o.opponent) for o in self.lib.story[cid].outcome)

        return max(cards, key=lambda c: (danger(c), -cards.index(c)))

    def _read_story(self, s: State, rng: Rng, events: list[Any]) -> None:
        assert s.draw is not None
        seat = s.order[s.turn]
        story = self.lib.story[s.draw.cards[0]]
        s.phase = "action"
        if story.roll:
            roll = rng.die(6)
            events.append(Rolled(seat=seat, roll=roll, why=story.id))
            index = next((i for i, o in enumerate(story.outcome) if o.covers(roll)), -1)
            self._resolve_outcome(s, seat, story, index, roll, events)
        elif len(story.outcome) > 1:
            s.phase = "story"
        else:
            self._resolve_outcome(s, seat, story, 0 if story.outcome else -1, 0, events)

    def _resolve_outcome(self, s: State, seat: int, story: Story, index: int, roll: int, events: list[Any]) -> None:
        """Carry out an outcome: attributes at once, then information, items and the fight, in that order."""
        me = s.heroes[seat]
        s.phase = "action"
        s.draw = None
        events.append(StoryOutcome(seat=seat, card=story.id, outcome=index, roll=roll))
        keep = story.keep
        tasks: list[str] = []
        if index >= 0:
            o: Outcome = story.outcome[index]
            changes: dict[str, int] = {}

            def change(key: str, delta: int) -> None:
                if delta:
                    changes[key] = changes.get(key, 0) + delta

            if o.gold:
                delta = o.gold if o.gold > 0 else -min(me.gold, -o.gold)
                me.gold += delta
                change("gold", delta)
            if o.xp:
                delta = o.xp if o.xp > 0 else -min(me.xp, -o.xp)
                me.xp += delta
                change("xp", delta)
            if o.max_life:
                me.max_life = max(1, me.max_life + o.max_life)
                change("max_life", o.max_life)
                if o.max_life > 0:
                    me.life += o.max_life
                    change("life", o.max_life)
                me.life = min(me.life, me.max_life)
            if o.life:
                before = me.life
                # a story never drops life below 1 (nor raises it above the maximum)
                me.life = max(min(me.life, 1), min(me.max_life, me.life + o.life))
                change("life", me.life - before)
            if o.full_life:
                change("life", me.max_life - me.life)
                me.life = me.max_life
            if o.combat:
                me.combat = max(1, me.combat + o.combat)
                change("combat", o.combat)
            if o.initiative:
                me.initiative = max(0, me.initiative + o.initiative)
                change("initiative", o.initiative)
            if changes:
                events.append(Gained(seat=seat, changes=changes, why=story.id))
            if s.fate and o.fate:
                me.fate = max(-FATE_LIMIT, min(FATE_LIMIT, me.fate + (1 if o.fate == "laurel" else -1)))
                events.append(FateMoved(seat=seat, fate=me.fate, mark=o.fate))
            keep = keep or o.keep
            tasks += [f"info:{story.id}"] * o.info
            if o.item:
                tasks.append(f"item:{o.item}")
            if o.draw_item:
                tasks.append("item:")
            if o.lose_item:
                tasks.append(f"lose:{seat}:story")
            if o.opponent:
                tasks.append(f"fight:{story.id}:{index}")
        if keep:
            me.kept.append(Kept(card=story.id, key=keep, round=s.round))
            events.append(CardKept(seat=seat, card=story.id, key=keep))
        elif not any(t.startswith("fight:") for t in tasks):
            s.story_discard[story.deck].append(story.id)
        s.tasks = tasks + s.tasks

    # --- information and monsters -------------------------------------------------------------

    def _gain_info(self, s: State, seat: int, source: str, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        target = self.target_info(s)
        if me.info >= target:
            return
        me.info += 1
        discarded = False
        if len(me.regions) > 1:
            me.regions.pop(rng.below(len(me.regions)))
            discarded = True
        events.append(Information(seat=seat, info=me.info, source=source, region_discarded=discarded))
        if me.info >= target and not me.province_card and s.province_cards:
            me.province_card = s.province_cards.pop(0)
            events.append(ProvinceCard(seat=seat))
            if not me.monster:
                s.tasks.insert(0, "monster")

    def _offer_monster(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        count = 3 if s.chosen_monsters == 0 else 2 if s.chosen_monsters == 1 else 1
        s.monsters = rng.shuffle(s.monsters)
        offer = s.monsters[:count]
        s.monsters = s.monsters[count:]
        if not offer:
            return
        if len(offer) == 1:
            s.monster_offer = offer
            self._take_monster(s, seat, offer[0], False, rng, events)
            return
        s.monster_offer = offer
        events.append(MonsterOffer(seat=seat, monsters=list(offer)))
        s.phase = "monster"

    def _take_monster(self, s: State, seat: int, monster: str, chosen: bool, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        me.monster = monster
        s.monsters += [m for m in s.monster_offer if m != monster]
        s.monster_offer = []
        s.chosen_monsters += 1
        s.phase = "action"
        events.append(MonsterTaken(seat=seat, monster=monster, chosen=chosen))

    # --- items --------------------------------------------------------------------------------

    def _gain_item(self, s: State, seat: int, item: str, events: list[Any]) -> None:
        """Take an item; at the limit of four it waits beside the sheet until one item is given up."""
        me = s.heroes[seat]
        if len(me.items) >= ITEM_LIMIT:
            s.losing = ["limit", str(seat), item]
            s.phase = "item"
            return
        me.items.append(item)
        events.append(ItemGained(seat=seat, item=item))

    def _ask_loss(self, s: State, seat: int, chooser: int, why: str, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        options = self.losable(me)
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
        options = self.losable(me)
        return max(options, key=lambda i: (self.lib.item[i].price, -options.index(i)))

    def _lose_item(self, s: State, seat: int, item: str, why: str, chooser: int, events: list[Any], *,
                   auto: bool = False) -> None:
        me = s.heroes[seat]
        me.items.remove(item)
        s.item_deck.append(item)  # lost items go under the item deck
        events.append(ItemLost(seat=seat, item=item, why=why, chooser=-1 if auto else chooser))
        s.phase = "action"

    # --- fights -------------------------------------------------------------------------------

    def _controllers(self, s: State, seat: int, count: int) -> list[int]:
        """Who plays each opponent: the players to the hero's right in turn, wrapping, never the hero."""
        if s.opponents == "bot":
            return [-1] * count
        others = [self.right_of(s, seat, k) for k in range(1, len(s.order))]
        return [others[i % len(others)] for i in range(count)]

    def _bonus_cards(self, s: State, seat: int, events: list[Any]) -> int:
        me = s.heroes[seat]
        bonus = 0
        if self._kept(me, "blessing", s):
            bonus += 1
            self._use_kept(s, seat, "blessing", events)
        if self._kept(me, "fever", s):
            bonus -= 1
            self._use_kept(s, seat, "fever", events)
        return bonus

    def _foe_bonus(self, s: State) -> tuple[int, int, int]:
        """(combat, initiative, life) added to every opponent by the heroic variant and the round's event."""
        eff = self.effect(s)
        heroic = 1 if s.heroic else 0
        return (heroic + (1 if eff == "opponents_combat_plus1" else 0),
                1 if eff == "opponents_initiative_plus1" else 0, heroic)

    def _start_story_fight(self, s: State, seat: int, card: str, index: int, rng: Rng, events: list[Any]) -> None:
        story = self.lib.story[card]
        o = story.outcome[index]
        cb, ib, lb = self._foe_bonus(s)
        ctl = self._controllers(s, seat, len(o.opponent))
        foes = [make_foe(op.name, op.combat + cb, op.initiative + ib, op.life + lb, op.xp, op.weapon, ctl[i])
                for i, op in enumerate(o.opponent)]
        s.combat = Combat(kind="story", foes=foes, story=card, rounds=o.rounds, win_gold=o.win_gold,
                          bonus=self._bonus_cards(s, seat, events))
        self._begin_fight(s, seat, events)

    def _start_monster_fight(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        m = self.lib.monster[me.monster]
        cb, ib, lb = self._foe_bonus(s)
        heads = max(1, m.heads)
        ctl = self._controllers(s, seat, heads)
        names = [m.name] if heads == 1 else [f"{m.name} ({n})" for n in ("left head", "middle head", "right head")
                                             [:heads]] if heads <= 3 else [f"{m.name} {i + 1}" for i in range(heads)]
        foes = [make_foe(names[i], m.combat + cb, m.initiative + ib, m.life + lb, 0, "", ctl[i]) for i in range(heads)]
        abilities = list(m.abilities)
        if m.single_torso and "single_torso" not in abilities:
            abilities.append("single_torso")
        s.combat = Combat(kind="monster", foes=foes, monster=m.id, abilities=[str(a) for a in abilities],
                          bonus=self._bonus_cards(s, seat, events))
        s.phase = "combat"
        self._begin_fight(s, seat, events)

    def _begin_fight(self, s: State, seat: int, events: list[Any]) -> None:
        assert s.combat is not None
        s.phase = "combat"
        events.append(FightBegan(seat=seat, kind=s.combat.kind, rounds=s.combat.rounds, foes=[
            {"name": f.name, "combat": f.combat, "initiative": f.initiative, "life": f.life,
             "controller": f.controller} for f in s.combat.foes]))

    def _end_fight(self, s: State, result: str, rng: Rng, events: list[Any]) -> None:
        c = s.combat
        assert c is not None
        seat = s.order[s.turn]
        me = s.heroes[seat]
        melee = self._melee(s, rng, events)
        for f in c.foes:  # every card goes back: hands to the discards, armed cards to their row
            melee.discard(f.hand)
            f.hand = []
        melee.discard(c.hand)
        c.hand = []
        s.combat = None
        s.phase = "action"
        if c.kind == "monster" and result == "won":
            s.phase = "over"
            s.winner = seat
            s.tasks = []
            events.append(FightEnded(seat=seat, result="won", xp=0, gold=0))
            events.append(Champion(seat=seat, monster=c.monster))
            return
        xp = 1 + (1 if c.kind == "story" and self.effect(s) == "story_xp_plus1" else 0) + c.xp
        gold = c.win_gold if result == "won" else 0
        me.xp += xp
        me.gold += gold
        events.append(FightEnded(seat=seat, result=result, xp=xp, gold=gold))
        if c.story:
            story = self.lib.story[c.story]
            if not any(k.card == c.story for k in me.kept):
                s.story_discard[story.deck].append(c.story)
        if result == "lost":
            lost = (me.gold + 1) // 2
            me.gold -= lost
            me.life = 2
            events.append(Defeated(seat=seat, gold_lost=lost, life=2))
            if c.kind == "monster":
                self._lose_trail(s, seat, rng, events)
            s.tasks.insert(0, f"lose:{self.left_of(s, seat)}:defeat")

    def _lose_trail(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        if me.province_card:
            s.province_cards.append(me.province_card)
            s.province_cards = rng.shuffle(s.province_cards)
            me.province_card = ""
        me.info = max(0, me.info - 1)
        events.append(TrailLost(seat=seat, info=me.info))

    # --- the end ------------------------------------------------------------------------------

    def outcome(self, state: State) -> GameOutcome | None:
        if state.phase != "over" or state.winner < 0:
            return None
        scores = {i: h.info for i, h in enumerate(state.heroes)}
        scores[state.winner] = max(scores.values()) + 1
        return GameOutcome(winners=(state.winner,), scores=scores, summary=self._winner_line(state))

    def _winner_line(self, state: State) -> str:
        if state.winner < 0:
            return "the game is over."
        h = state.heroes[state.winner]
        hero = self.lib.hero[h.hero].name if h.hero in self.lib.hero else h.hero
        monster = self.lib.monster[h.monster].name if h.monster in self.lib.monster else h.monster
        if monster.startswith("The "):  # "has slain the Minotaur"
            monster = "the " + monster[4:]
        return f"{h.name} ({hero}) has slain {monster} and is the Champion of the Empire."

    # --- timeouts -----------------------------------------------------------------------------

    def timeout(self, state: State) -> tuple[int, Any] | None:
        """What Tabula plays for an absent player acting for the opponents, or on someone else's turn."""
        if state.phase == "combat" and state.combat is not None:
            melee = self._melee(state)
            for seat in sorted(melee.to_act()):
                if seat == state.order[state.turn]:
                    continue
                move = melee.policy(seat)
                if move is not None:
                    return seat, move
            return None
        if state.phase == "item" and state.losing and int(state.losing[1]) != state.order[state.turn]:
            owner = state.heroes[state.order[state.turn]]
            return int(state.losing[1]), Drop(item=self.loss_policy(owner), auto=True)
        if state.phase == "fate" and state.draw is not None and state.draw.chooser != state.order[state.turn]:
            return state.draw.chooser, Choose(option=self.fate_policy(state), auto=True)
        return None

    # --- what a seat may see ------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        lib = self.lib
        acting = self.to_act(state)
        current = self.current(state)
        heroes = []
        for i, h in enumerate(state.heroes):
            heroes.append({
                "seat": i, "player": h.name, "hero": h.hero or None, "colour": h.colour, "letter": h.letter,
                "province": h.province or None, "life": h.life, "max_life": h.max_life, "combat": h.combat,
                "max_combat": h.combat, "initiative": h.initiative, "xp": h.xp, "gold": h.gold, "info": h.info,
                "items": list(h.items), "fate": h.fate, "to_act": i in acting,
                "side": lib.hero[h.hero].side[h.side].name if h.hero in lib.hero else None,
                "weapon": h.weapon or None, "shrines": list(h.shrines), "regions_left": len(h.regions),
                "kept": [{"card": k.card, "key": k.key} for k in h.kept],
                "has_monster": bool(h.monster), "monster": h.monster or None, "knows_lair": bool(h.province_card),
            })
        highlight: list[str] = []
        if state.phase == "action" and current is not None:
            highlight = sorted({a.to for a in self.action_moves(state, current) if isinstance(a, (Caravan, Voyage))}
                               | {a.path[-1] for a in self.action_moves(state, current) if isinstance(a, Explore)}
                               - {state.heroes[current].province})
        view: dict[str, Any] = {
            "round": state.round, "phase": state.phase, "event": state.event or None, "heroes": heroes,
            "highlight": highlight, "last_move": state.last_move, "caption": self._caption(state),
            "variants": {"fate": state.fate, "short": state.short, "heroic": state.heroic},
            "opponents": state.opponents, "order": list(state.order), "current": current,
            "to_act": sorted(acting), "info_needed": self.target_info(state),
            "market": list(state.market), "combat": self._public_combat(state),
            "story": list(state.draw.cards) if state.draw is not None and state.phase == "story" else None,
            "story_offer": list(state.draw.cards) if state.draw is not None and state.phase == "fate" else None,
            "losing": {"why": state.losing[0], "chooser": int(state.losing[1]), "owner": state.order[state.turn],
                       "incoming": state.losing[2] if len(state.losing) > 2 else None} if state.losing else None,
            "winner": state.winner if state.winner >= 0 else None,
        }
        if seat is not None and 0 <= seat < len(state.heroes):
            me = state.heroes[seat]
            secret: dict[str, Any] = {"regions": list(me.regions), "lair": self.lair(me), "monster": me.monster or None,
                                      "hand": []}
            if state.phase == "setup":
                secret["offer"] = list(me.offer)
            if state.phase == "monster" and seat == current:
                secret["monster_offer"] = list(state.monster_offer)
            c = state.combat
            if c is not None:
                if seat == current:
                    secret["hand"] = sorted(card_type(x) for x in c.hand)
                    secret["hand_cards"] = list(c.hand)
                foes = {str(i): sorted(card_type(x) for x in f.hand) for i, f in enumerate(c.foes)
                        if f.controller == seat}
                if foes:
                    secret["foe_hands"] = foes
            view["secret"] = secret
        return view

    def _public_combat(self, state: State) -> dict[str, Any] | None:
        c = state.combat
        if c is None:
            return None
        seat = state.order[state.turn]
        melee = self._melee(state)
        return {
            "kind": c.kind, "story": c.story or None, "monster": c.monster or None, "step": c.step,
            "round": c.round, "rounds": c.rounds, "weapon": c.weapon, "hero": seat,
            "hero_cards": len(c.hand), "hero_initiative": melee.hero_initiative(), "attacker": c.attacker or None,
            "attack": c.attack if c.step == "foe_defend" else None,
            "target": c.target if c.step == "foe_defend" else None,
            "attacks": [[int(i), k] for i, k in c.attacks],
            "foes": [{"name": f.name, "life": f.life, "max_life": f.max_life, "initiative": f.initiative,
                      "combat": f.combat, "cards": len(f.hand), "controller": f.controller, "alive": f.life > 0,
                      "chosen": bool(f.play)} for f in c.foes],
        }

    def _caption(self, state: State) -> str:
        if state.phase == "over":
            return self._winner_line(state)
        if state.phase == "setup":
            waiting = [state.heroes[i].name for i in sorted(self.to_act(state))]
            return "Choosing heroes · waiting for " + ", ".join(waiting)
        h = state.heroes[state.order[state.turn]]
        hero = self.lib.hero[h.hero].name if h.hero in self.lib.hero else h.hero
        event = self.lib.event[state.event].name if state.event in self.lib.event else ""
        # Standing in one's own lair is a secret (it would give the lair away): it reads like any turn.
        what = {"action": "to act", "lair": "to act", "fate": "facing fate", "story": "choosing",
                "monster": "choosing a monster", "item": "giving up an item", "combat": "fighting",
                "market": "at the market"}[state.phase]
        return f"{h.name} ({hero}) {what} · round {state.round}" + (f" · {event}" if event else "")

    # --- verbs --------------------------------------------------------------------------------

    verbs: ClassVar[dict[str, str]] = {
        "hero": "`/hero hero: side: weapon:` choose your hero, the side of the sheet and a starting weapon",
        "caravan": "`/caravan to:` escort a caravan one province (+1 gold)",
        "explore": "`/explore path:` explore 2 provinces (3 with a horse), e.g. `latium>campania` (+1 XP)",
        "voyage": "`/voyage to:` sail to another coastal province for 2 gold",
        "commission": "`/commission reward:xp|gold` take local commissions (+2)",
        "recuperate": "`/recuperate` rest: full life in a city, +2 elsewhere",
        "lore": "`/lore` learn a secret shrine's lore (2 gold, +1 information)",
        "develop": "`/develop attribute:initiative|combat|life` spend experience (4/3/2)",
        "buy": "`/buy item:` buy an item on offer",
        "pass": "`/pass` skip the offer or the market; in the lair, draw a story card instead",
        "use": "`/use item:` use a healing item",
        "attack": "`/attack` fight your monster in its lair; in a fight, `/attack card: target:`",
        "choose": "`/choose option:` answer a story card, or pick a story card or a monster",
        "drop": "`/drop item:` give up an item",
        "weapon": "`/weapon item:` the weapon you fight with",
        "ranged": "`/ranged item: target:` your one ranged attack before melee",
        "play": "`/play card: target:` attack with a combat card (opponents' player: `foe:`)",
        "defend": "`/defend card:` with no matching card, the card you throw down",
        "keep": "`/keep cards:` at the end of a combat round keep at most two (e.g. `head,leg`)",
    }

    def command(self, state: State, seat: int, rng: Any) -> str:
        """A random legal move typed as a player would type it (the terminal runner's `--auto`)."""
        from rules.champion.words import command_for

        legal = self.legal(state, seat)
        moving = [a for a in legal if isinstance(a, (Caravan, Explore, Voyage, Attack))]
        pick = rng.choice(moving) if moving and state.phase == "action" and rng.random() < 0.7 else rng.choice(legal)
        return command_for(state, pick)

    def parse(self, state: State, seat: int, verb: str, args: dict[str, str]) -> Any:
        """Turn a slash command into an action, or explain what the verb needs."""
        from rules.champion.words import parse

        return parse(self, state, seat, verb, args)

    def choices(self, state: State, seat: int, verb: str, option: str) -> list[tuple[str, str]]:
        """Autocomplete: every legal value for a verb's option, labelled for people (at most 25)."""
        from rules.champion.words import choices

        return choices(self, state, seat, verb, option)[:25]


__all__ = ["CARD_TYPES", "ChampionOfTheEmpire", "Defend", "Keep", "Play", "Ranged", "Weapon"]
