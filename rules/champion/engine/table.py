"""Champion of the Empire: what every part of the engine shares — the content library, the dice, who sits
where and who acts now, the round's event, cards kept in front of a hero, and the lair."""

from __future__ import annotations

from typing import Any

from rules.champion.content import Library, library
from rules.champion.engine.combat import Melee
from rules.champion.i18n import _, and_list, local, the
from rules.champion.state import GoldForAll, Hero, Kept, KeptUsed, Reshuffled, RoundBegan, State, TurnBegan
from rules.core import Rng


class Table:
    """The library and the dice, and the facts every part of the rules asks about a state."""

    def __init__(self, lib: Library | None = None, *, dice: type[Rng] = Rng) -> None:
        self._lib = lib
        self.dice = dice  # tests pass a scripted generator to replay the book's examples roll by roll

    @property
    def lib(self) -> Library:
        if self._lib is None:
            self._lib = library()
        return self._lib

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
            return frozenset(self.melee(state).to_act())
        if state.phase == "fate" and state.draw is not None:
            return frozenset({state.draw.chooser})
        if state.phase == "item" and state.losing:
            return frozenset({int(state.losing[1])})
        return frozenset({state.order[state.turn]})

    def melee(self, state: State, rng: Rng | None = None, events: list[Any] | None = None) -> Melee:
        return Melee(self.lib, state, rng or self.dice(state.rng), events if events is not None else [])

    def effect(self, state: State) -> str:
        ev = self.lib.event.get(state.event)
        return ev.effect if ev is not None else "none"

    def target_info(self, state: State) -> int:
        return 5 if state.short else 6

    def kept(self, hero: Hero, key: str, state: State) -> Kept | None:
        for k in hero.kept:
            if k.key == key and k.round < state.round:
                return k
        return None

    def use_kept(self, s: State, seat: int, key: str, events: list[Any]) -> None:
        me = s.heroes[seat]
        k = self.kept(me, key, s)
        if k is not None:
            me.kept.remove(k)
            deck = self.lib.story[k.card].deck
            s.story_discard[deck].append(k.card)
            events.append(KeptUsed(seat=seat, card=k.card, key=key))

    def at_lair(self, state: State, seat: int) -> bool:
        me = state.heroes[seat]
        return bool(me.monster) and me.info >= self.target_info(state) and me.province == self.lair(me)

    def lair(self, hero: Hero) -> str | None:
        if not hero.province_card or len(hero.regions) != 1:
            return None
        return self.lib.lairs.get((hero.regions[0], hero.province_card))

    def losable(self, hero: Hero) -> list[str]:
        return [i for i in hero.items if i != hero.weapon]

    def waiting(self, s: State) -> str:
        names = [s.heroes[i].name for i in sorted(self.to_act(s))]
        if len(names) == 1:
            return _("It is {player}'s move now, not yours.", player=names[0])
        return _("It is {players}'s move now, not yours.", players=and_list(names))

    def winner_line(self, state: State) -> str:
        if state.winner < 0:
            return _("the game is over.")
        h = state.heroes[state.winner]
        lib = local(self.lib)
        hero = lib.hero[h.hero].name if h.hero in lib.hero else h.hero
        monster = the(lib.monster[h.monster].name, proper=True) if h.monster in lib.monster else h.monster
        return _("{player} ({hero}) has slain {monster} and is the Champion of the Empire.", player=h.name, hero=hero,
                 monster=monster)

    # --- rounds and turns ---------------------------------------------------------------------

    def new_round(self, s: State, rng: Rng, events: list[Any]) -> None:
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
        self.begin_turn(s, events)

    def begin_turn(self, s: State, events: list[Any]) -> None:
        s.phase = "action"
        s.tasks = []
        s.moved = False
        events.append(TurnBegan(seat=s.order[s.turn], round=s.round))

    def end_turn(self, s: State, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[s.order[s.turn]]
        me.turn_end = me.province
        if s.turn + 1 >= len(s.order):
            self.new_round(s, rng, events)
        else:
            s.turn += 1
            self.begin_turn(s, events)
