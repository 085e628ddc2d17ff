"""Champion of the Empire: fights seen from the turn — who plays the opponents, starting a story fight or
the monster fight, and what a fight's end brings (experience, gold, defeat, the lost trail, the Champion).
The combat itself (cards, initiative, wounds) is ``combat.Melee``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.champion.engine.combat import make_foe
from rules.champion.engine.table import Table
from rules.champion.state import Champion, Combat, Defeated, FightBegan, FightEnded, State, TrailLost
from rules.core import Rng


@dataclass(frozen=True, slots=True)
class Fights:
    """Fights as the turn sees them, at a table."""

    table: Table

    def _controllers(self, s: State, seat: int, count: int) -> list[int]:
        """Who plays each opponent: the players to the hero's right in turn, wrapping, never the hero."""
        if s.opponents == "bot":
            return [-1] * count
        others = [self.table.right_of(s, seat, k) for k in range(1, len(s.order))]
        return [others[i % len(others)] for i in range(count)]

    def _bonus_cards(self, s: State, seat: int, events: list[Any]) -> int:
        me = s.heroes[seat]
        bonus = 0
        if self.table.kept(me, "blessing", s):
            bonus += 1
            self.table.use_kept(s, seat, "blessing", events)
        if self.table.kept(me, "fever", s):
            bonus -= 1
            self.table.use_kept(s, seat, "fever", events)
        return bonus

    def _foe_bonus(self, s: State) -> tuple[int, int, int]:
        """(combat, initiative, life) added to every opponent by the heroic variant and the round's event."""
        eff = self.table.effect(s)
        heroic = 1 if s.heroic else 0
        return (heroic + (1 if eff == "opponents_combat_plus1" else 0),
                1 if eff == "opponents_initiative_plus1" else 0, heroic)

    def start_story_fight(self, s: State, seat: int, card: str, index: int, rng: Rng, events: list[Any]) -> None:
        story = self.table.lib.story[card]
        o = story.outcome[index]
        cb, ib, lb = self._foe_bonus(s)
        ctl = self._controllers(s, seat, len(o.opponent))
        foes = [make_foe(op.name, op.combat + cb, op.initiative + ib, op.life + lb, op.xp, op.weapon, ctl[i])
                for i, op in enumerate(o.opponent)]
        s.combat = Combat(kind="story", foes=foes, story=card, rounds=o.rounds, win_gold=o.win_gold,
                          bonus=self._bonus_cards(s, seat, events))
        self._begin_fight(s, seat, events)

    def start_monster_fight(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        m = self.table.lib.monster[me.monster]
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

    def end_fight(self, s: State, result: str, rng: Rng, events: list[Any]) -> None:
        c = s.combat
        assert c is not None
        seat = s.order[s.turn]
        me = s.heroes[seat]
        melee = self.table.melee(s, rng, events)
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
        xp = 1 + (1 if c.kind == "story" and self.table.effect(s) == "story_xp_plus1" else 0) + c.xp
        gold = c.win_gold if result == "won" else 0
        me.xp += xp
        me.gold += gold
        events.append(FightEnded(seat=seat, result=result, xp=xp, gold=gold))
        if c.story:
            story = self.table.lib.story[c.story]
            if not any(k.card == c.story for k in me.kept):
                s.story_discard[story.deck].append(c.story)
        if result == "lost":
            lost = (me.gold + 1) // 2
            me.gold -= lost
            me.life = 2
            events.append(Defeated(seat=seat, gold_lost=lost, life=2))
            if c.kind == "monster":
                self._lose_trail(s, seat, rng, events)
            s.tasks.insert(0, f"lose:{self.table.left_of(s, seat)}:defeat")

    def _lose_trail(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        if me.province_card:
            s.province_cards.append(me.province_card)
            s.province_cards = rng.shuffle(s.province_cards)
            me.province_card = ""
        me.info = max(0, me.info - 1)
        events.append(TrailLost(seat=seat, info=me.info))
