"""Champion of the Empire: story cards — drawing them (two under the fate track), reading and resolving
them, secret lore at the shrines, pieces of information, the province card and the monster sheets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.champion.content import Outcome, Story
from rules.champion.engine.table import Table
from rules.champion.i18n import _, _n, local
from rules.champion.state import (
    FATE_LIMIT,
    CardKept,
    FateMoved,
    Gained,
    Hero,
    Information,
    Kept,
    MonsterOffer,
    MonsterTaken,
    ProvinceCard,
    Reshuffled,
    Rolled,
    State,
    StoryChosen,
    StoryDraw,
    StoryDrawn,
    StoryOutcome,
)
from rules.core import Rng, draw


@dataclass(frozen=True, slots=True)
class Stories:
    """Story cards, lore, information and monster sheets, at a table."""

    table: Table

    def story_options(self, state: State) -> list[int]:
        """The choice outcomes the hero may take (a choice that costs gold needs the gold)."""
        assert state.draw is not None
        story = self.table.lib.story[state.draw.cards[0]]
        me = state.heroes[state.order[state.turn]]
        ok = [i for i, o in enumerate(story.outcome) if o.gold >= 0 or me.gold >= -o.gold]
        return ok or list(range(len(story.outcome)))

    def lore_cost(self, state: State) -> int:
        return 0 if self.table.effect(state) == "lore_free" else 2

    def lore_refusal(self, s: State, seat: int) -> str | None:
        me = s.heroes[seat]
        prov = local(self.table.lib).province[me.province]
        if not prov.shrine:
            return _("There is no secret shrine in {province}.", province=prov.name)
        if me.turn_end != me.province:
            return _("You must end a turn at {shrine} before you can learn its secret lore.", shrine=prov.shrine)
        if me.province in me.shrines:
            return _("You have already learned what {shrine} can teach you; each shrine gives one piece once.",
                     shrine=prov.shrine)
        if me.info >= self.table.target_info(s):
            return _("You already know where your monster lies; there is nothing more to learn.")
        cost = self.lore_cost(s)
        if me.gold < cost:
            return _n("Secret lore costs {cost} gold; you have {gold}.",
                      "Secret lore costs {cost} gold; you have {gold}.", cost, cost=cost, gold=me.gold)
        return None

    def _take_story(self, s: State, deck: str, rng: Rng, events: list[Any]) -> str | None:
        card, reshuffled = draw(s.stories, s.story_discard, deck, rng)
        if reshuffled:
            events.append(Reshuffled(pile=deck, cards=reshuffled))
        return card

    def draw_story(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        deck = self.table.lib.deck_of(me.province)
        first = self._take_story(s, deck, rng, events)
        if first is None:
            return  # every card of that deck is in front of someone: no story this time
        cards = [first]
        chooser = -1
        if s.fate and abs(me.fate) >= FATE_LIMIT:
            second = self._take_story(s, deck, rng, events)
            if second is not None:
                cards.append(second)
                chooser = seat if me.fate < 0 else self.table.right_of(s, seat)
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
        self.read_story(s, rng, events)

    def fate_policy(self, s: State) -> str:
        """Tabula's pick for the right-hand player on the laurel side: the harder card (more opponents)."""
        assert s.draw is not None
        cards = s.draw.cards

        def danger(cid: str) -> int:
            return sum(len(o.opponent) for o in self.table.lib.story[cid].outcome)

        return max(cards, key=lambda c: (danger(c), -cards.index(c)))

    def read_story(self, s: State, rng: Rng, events: list[Any]) -> None:
        assert s.draw is not None
        seat = s.order[s.turn]
        story = self.table.lib.story[s.draw.cards[0]]
        s.phase = "action"
        if story.roll:
            roll = rng.die(6)
            events.append(Rolled(seat=seat, roll=roll, why=story.id))
            index = next((i for i, o in enumerate(story.outcome) if o.covers(roll)), -1)
            self.resolve_outcome(s, seat, story, index, roll, events)
        elif len(story.outcome) > 1:
            s.phase = "story"
        else:
            self.resolve_outcome(s, seat, story, 0 if story.outcome else -1, 0, events)

    def resolve_outcome(self, s: State, seat: int, story: Story, index: int, roll: int, events: list[Any]) -> None:
        """Carry out an outcome: attributes at once, then information, items and the fight, in that order."""
        me = s.heroes[seat]
        s.phase = "action"
        s.draw = None
        events.append(StoryOutcome(seat=seat, card=story.id, outcome=index, roll=roll))
        keep = story.keep
        tasks: list[str] = []
        if index >= 0:
            o: Outcome = story.outcome[index]
            changes = _changed(me, o)
            if changes:
                events.append(Gained(seat=seat, changes=changes, why=story.id))
            if s.fate and o.fate:
                me.fate = max(-FATE_LIMIT, min(FATE_LIMIT, me.fate + (1 if o.fate == "laurel" else -1)))
                events.append(FateMoved(seat=seat, fate=me.fate, mark=o.fate))
            keep = keep or o.keep
            tasks = _tasks(story, o, index, seat)
        if keep:
            me.kept.append(Kept(card=story.id, key=keep, round=s.round))
            events.append(CardKept(seat=seat, card=story.id, key=keep))
        elif not any(t.startswith("fight:") for t in tasks):
            s.story_discard[story.deck].append(story.id)
        s.tasks = tasks + s.tasks

    def gain_info(self, s: State, seat: int, source: str, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        target = self.table.target_info(s)
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

    def offer_monster(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        count = 3 if s.chosen_monsters == 0 else 2 if s.chosen_monsters == 1 else 1
        s.monsters = rng.shuffle(s.monsters)
        offer = s.monsters[:count]
        s.monsters = s.monsters[count:]
        if not offer:
            return
        if len(offer) == 1:
            s.monster_offer = offer
            self.take_monster(s, seat, offer[0], False, rng, events)
            return
        s.monster_offer = offer
        events.append(MonsterOffer(seat=seat, monsters=list(offer)))
        s.phase = "monster"

    def take_monster(self, s: State, seat: int, monster: str, chosen: bool, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        me.monster = monster
        s.monsters += [m for m in s.monster_offer if m != monster]
        s.monster_offer = []
        s.chosen_monsters += 1
        s.phase = "action"
        events.append(MonsterTaken(seat=seat, monster=monster, chosen=chosen))


def _changed(me: Hero, o: Outcome) -> dict[str, int]:
    """An outcome's attributes applied to the hero at once; what changed, in the card's order."""
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
    return changes


def _tasks(story: Story, o: Outcome, index: int, seat: int) -> list[str]:
    """What an outcome leaves for the turn to do: information, items gained or lost, the fight."""
    tasks = [f"info:{story.id}"] * o.info
    if o.item:
        tasks.append(f"item:{o.item}")
    if o.draw_item:
        tasks.append("item:")
    if o.lose_item:
        tasks.append(f"lose:{seat}:story")
    if o.opponent:
        tasks.append(f"fight:{story.id}:{index}")
    return tasks
