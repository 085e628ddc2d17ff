"""Legend of Heroes, the Expanded Game: each player leads a Party of five heroes in a row, the Leader at the
right-hand end.  Before a Monster or Hazard is turned up the Leader may change; the Leader strikes (or a
leading Magic User casts his Spell), a wounded Leader drops to the back, a party may retreat, and a party
that misses a turn rests: the Cleric heals and the Magic User studies a new Spell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from rules.core import IllegalAction, NotYourTurn, Rng
from rules.legend.content import CLASSES, ActionCard, Hero, card_index, hero_index, heroes, need, spell_index, spells
from rules.legend.engine.explore import Explorer
from rules.legend.engine.table import Table
from rules.legend.i18n import _, _p, comma, hero_name
from rules.legend.state import (
    SOLO_WOUND_LIMIT,
    Attack,
    Cast,
    HeroRoll,
    HeroWounded,
    Keep,
    Lead,
    LeaderChanged,
    LegendAction,
    Order,
    Overcame,
    PartiesDealt,
    Reordered,
    Rest,
    Rested,
    Retreat,
    Retreated,
    SpellCast,
    SpellLearned,
    State,
)
from rules.legend.state import Hero as PartyHero

#: The Party's first line-up, left to right: the Fighter leads (the book's hint), the Magic User at the back.
FIRST_LINE_UP = ("magic", "rogue", "cleric", "dwarf", "fighter")


@dataclass(frozen=True, slots=True)
class Party:
    """The Expanded Game's party actions: lead, keep, attack, cast, retreat, rest and reorder, at a table whose
    rooms the ``explorer`` walks through."""

    table: Table
    explorer: Explorer

    def deal_parties(self, state: State, rng: Rng, events: list[Any]) -> None:
        """One Hero of each kind per player (their Fighter is the one already dealt) and one Spell each."""
        by_kind: dict[str, list[str]] = {}
        for kind in CLASSES[1:]:
            by_kind[kind] = rng.shuffle([h.id for h in heroes() if h.kind == kind])
        for i, p in enumerate(state.players):
            dealt = {"fighter": p.fighter, **{kind: ids[i] for kind, ids in by_kind.items()}}
            p.party = [PartyHero(id=dealt[kind]) for kind in FIRST_LINE_UP]
        pile = rng.shuffle([sp.id for sp in spells()])
        for p in state.players:
            p.spell = pile.pop(0)
        state.spell_pile = pile
        events.append(PartiesDealt(parties={i: [h.id for h in p.party] for i, p in enumerate(state.players)},
                                   spells=len(state.players),
                                   dealt={i: p.spell for i, p in enumerate(state.players) if p.spell}))

    # --- who acts, what is legal ---------------------------------------------------------------

    def act(self, s: State, seat: int, action: LegendAction, rng: Rng, events: list[Any]) -> None:
        if not self.table.expanded(s):
            raise IllegalAction(_("That belongs to the Expanded Game (parties of five heroes). This game is the "
                                  "{mode} game: {verbs}.", mode=_p("choice", s.mode), verbs=self.table.verb_list(s)))
        if isinstance(action, Order):
            self._reorder(s, seat, action, events)
            return
        if isinstance(action, Rest):
            self._rest(s, seat, rng, events)
            return
        self._in_fight(s, seat, action, rng, events)

    def _in_fight(self, s: State, seat: int, action: LegendAction, rng: Rng, events: list[Any]) -> None:
        """The party's choices in a room: who leads before the card, then strike, cast or retreat."""
        ex = s.exploring
        if s.phase != "explore" or ex is None or ex.decision is None:
            if s.phase == "explore":
                self.table.check_turn(s, seat)
            raise IllegalAction(_("There is no fight or danger to face right now. {hint}",
                                  hint=self.table.phase_hint(s, seat)))
        if seat != self.table.current(s):
            raise NotYourTurn(_("It is {player}'s party in the room, not yours.",
                                player=s.players[self.table.current(s)].name))
        if isinstance(action, (Lead, Keep)):
            self._choose_leader(s, seat, action, rng, events)
            return
        if ex.decision == "leader":
            raise IllegalAction(self.table.decision_hint(s, seat))
        if isinstance(action, Retreat):
            if ex.decision != "fight":
                raise IllegalAction(_("You can retreat only after the Monster has struck back."))
            assert ex.danger is not None
            self._retreat(s, seat, card_index()[ex.danger], events, overwhelmed=False)
            return
        if isinstance(action, Cast):
            if not self.table.can_cast(s, seat):
                raise IllegalAction(self._cast_refusal(s, seat))
            self._cast(s, seat, rng, events)
        elif isinstance(action, Attack):
            self._strike(s, seat, rng, events)
        else:
            raise IllegalAction(self.table.decision_hint(s, seat))
        self.explorer.run(s, rng, events)

    def _choose_leader(self, s: State, seat: int, action: Lead | Keep, rng: Rng, events: list[Any]) -> None:
        """A new Leader (or the same one kept): before the card is drawn, or after the Monster struck back."""
        ex = s.exploring
        assert ex is not None
        if isinstance(action, Keep):
            if ex.decision != "leader":
                raise IllegalAction(self.table.decision_hint(s, seat))
            self._draw_danger(s, rng, events)
            return
        if ex.decision == "strike":
            raise IllegalAction(_("The Leader can change before the card is drawn or after the Monster strikes "
                                  "— now your Magic User must `/attack` or `/cast`."))
        self._lead(s, seat, action.hero, events)
        if ex.decision == "leader":
            self._draw_danger(s, rng, events)

    def _cast_refusal(self, s: State, seat: int) -> str:
        lead = self.table.leader(s, seat)
        ex = s.exploring
        if ex is not None and ex.danger is not None and card_index()[ex.danger].kind != "monster":
            return _("Spells work only on Monsters, not on Hazards.")
        if lead is None or lead.kind != "magic":
            return _("Only a Magic User at the front of the party can cast: make him Leader first.")
        return _("Your Magic User has no Spell card. Regain one with `/study` (it costs a turn).")

    def _lead(self, s: State, seat: int, hero_id: str, events: list[Any]) -> None:
        party = s.players[seat].party
        ids = [h.id for h in party]
        if hero_id not in ids:
            names = comma(hero_name(hero_index()[h.id].name) for h in party[:-1] if not h.wounded)
            raise IllegalAction(_("That hero is not in your party. You can make one of these Leader: {heroes}.",
                                  heroes=names))
        i = ids.index(hero_id)
        if party[i].wounded:
            raise IllegalAction(_("{hero} is wounded and cannot lead. A Cleric can heal him when your party rests "
                                  "(`/heal`).", hero=hero_name(hero_index()[hero_id].name)))
        if i == len(party) - 1:
            return  # already leading: nothing to swap
        was = party[-1].id
        party[i], party[-1] = party[-1], party[i]  # the book: swap the two cards
        events.append(LeaderChanged(seat=seat, hero=hero_id, was=was))

    def _draw_danger(self, s: State, rng: Rng, events: list[Any]) -> None:
        ex = s.exploring
        assert ex is not None
        ex.decision = None
        if ex.pending is None:  # a danger waiting on the room is already in hand
            ex.pending = self.table.draw(s, ex.coming, rng, events)
        ex.coming = ""
        if ex.pending is None:
            self.explorer.room_done(s, events)
            return
        self.explorer.run(s, rng, events)

    def meet_danger(self, s: State, seat: int, card: ActionCard, rng: Rng, events: list[Any]) -> None:
        """The Monster or Hazard is face up beside the Leader: strike at once, or let a Magic User choose."""
        ex = s.exploring
        assert ex is not None
        ex.danger = card.id
        if self.table.can_cast(s, seat):
            ex.decision = "strike"
            return
        self._strike(s, seat, rng, events)

    def _strike(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        ex = s.exploring
        assert ex is not None and ex.danger is not None
        card = card_index()[ex.danger]
        lead = self.table.leader(s, seat)
        assert lead is not None  # a party with nobody standing has already fallen back
        target = need(card, lead)
        roll = rng.die(20)
        events.append(HeroRoll(seat=seat, card=card.id, hero=lead.id, who="hero", roll=roll, need=target,
                               success=roll >= target))
        if roll >= target:
            self._overcome(s, seat, card, rng, events)
            return
        if card.kind == "hazard":
            self._hero_wounded(s, seat, card, events)
            return
        self._strike_back(s, seat, card, lead, rng, events)

    def _strike_back(self, s: State, seat: int, card: ActionCard, lead: Hero, rng: Rng, events: list[Any]) -> None:
        assert card.dot is not None
        target = lead.defence[card.dot]
        back = rng.die(20)
        events.append(HeroRoll(seat=seat, card=card.id, hero=lead.id, who="monster", roll=back, need=target,
                               success=back >= target))
        if back >= target:
            self._hero_wounded(s, seat, card, events)
        else:
            assert s.exploring is not None
            s.exploring.decision = "fight"

    def _cast(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        ex = s.exploring
        me = s.players[seat]
        assert ex is not None and ex.danger is not None and me.spell is not None
        card = card_index()[ex.danger]
        lead = self.table.leader(s, seat)
        assert lead is not None and card.dot is not None
        spell = spell_index()[me.spell]
        roll = rng.die(20)
        events.append(HeroRoll(seat=seat, card=card.id, hero=lead.id, who="spell", roll=roll, need=spell.roll,
                               success=roll >= spell.roll))
        result: Literal["failed", "no_effect", "success"]
        if roll < spell.roll:
            result = "failed"
        elif spell.works[card.dot]:
            result = "success"
        else:
            result = "no_effect"
        # Cast once, whatever happens: back into the Spell Pile, which is shuffled.
        me.spell = None
        s.spell_pile = rng.shuffle([*s.spell_pile, spell.id])
        events.append(SpellCast(seat=seat, hero=lead.id, spell=spell.id, card=card.id, result=result))
        if result == "success":
            self._overcome(s, seat, card, rng, events)
        else:
            self._strike_back(s, seat, card, lead, rng, events)

    def _overcome(self, s: State, seat: int, card: ActionCard, rng: Rng, events: list[Any]) -> None:
        ex = s.exploring
        assert ex is not None
        ex.danger = None
        ex.decision = None
        ex.used.append(card.id)
        events.append(Overcame(seat=seat, card=card.id))
        self.explorer.follow_arrow(s, card, rng, events)

    def _hero_wounded(self, s: State, seat: int, card: ActionCard, events: list[Any]) -> None:
        """The Leader is wounded: his card turns over and he drops to the back of the line."""
        ex = s.exploring
        assert ex is not None
        me = s.players[seat]
        hurt = me.party.pop()
        hurt.wounded = True
        me.party.insert(0, hurt)
        me.wounds += 1
        lead = self.table.leader(s, seat)
        events.append(HeroWounded(seat=seat, hero=hurt.id, card=card.id, leader=lead.id if lead else None,
                                  wounds=me.wounds))
        if len(s.order) == 1 and me.wounds >= SOLO_WOUND_LIMIT:
            self._retreat(s, seat, card, events, overwhelmed=lead is None, end=False)
            self.table.finish(s, events,
                              f"{me.name}'s party has taken {SOLO_WOUND_LIMIT} wounds and leaves the dungeon.")
            return
        if lead is None:
            self._retreat(s, seat, card, events, overwhelmed=True)
            return
        ex.decision = "fight"

    def _retreat(self, s: State, seat: int, card: ActionCard, events: list[Any], *, overwhelmed: bool,
                 end: bool = True) -> None:
        ex = s.exploring
        assert ex is not None
        me = s.players[seat]
        me.doorway = ex.came_from
        s.rooms[ex.room] = [card.id]  # face down on the room, waiting for the next party
        self.table.discard(s, ex.used)
        events.append(Retreated(seat=seat, card=card.id, room=ex.room, back_to=ex.came_from,
                                overwhelmed=overwhelmed))
        me.overwhelmed = overwhelmed
        s.exploring = None
        if end:
            s.phase = "move"
            self.table.end_turn(s, events)

    def _rest(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        self.table.check_turn(s, seat)
        if s.phase != "move":
            raise IllegalAction(_("Your party can rest once it is in the dungeon: first choose an entrance with "
                                  "`/explore to:`."))
        healed, healer, studying = self.table.rest_plan(s, seat)
        if not healed and not studying:
            raise IllegalAction(_("Your party has nothing to rest for: nobody is wounded and your Magic User "
                                  "already holds a spell. Move on with `/explore to:`."))
        me = s.players[seat]
        for h in me.party:
            if h.id in healed:
                h.wounded = False
        events.append(Rested(seat=seat, healed=healed, healer=healer, studying=studying))
        if studying is not None:  # the new spell arrives at the end of the missed turn
            me.spell = s.spell_pile.pop(0)
            events.append(SpellLearned(seat=seat, hero=studying, spell=me.spell))
        s.last_move = None
        self.table.end_turn(s, events)

    def _reorder(self, s: State, seat: int, action: Order, events: list[Any]) -> None:
        me = s.players[seat]
        ids = [h.id for h in me.party]
        refusal = self.table.reorder_refusal(s, seat)
        if refusal is not None:
            raise IllegalAction(refusal)
        wanted = list(action.heroes)
        if sorted(wanted) != sorted(ids):
            names = comma(hero_name(hero_index()[i].name) for i in ids)
            raise IllegalAction(_("Name all five of your heroes once each, left to right: {heroes}.", heroes=names))
        by_id = {h.id: h for h in me.party}
        if by_id[wanted[-1]].wounded and any(not h.wounded for h in me.party):
            raise IllegalAction(_("{hero} is wounded and cannot lead: put an unwounded hero at the right-hand end.",
                                  hero=hero_name(hero_index()[wanted[-1]].name)))
        if wanted == ids:
            return
        me.party = [by_id[i] for i in wanted]
        events.append(Reordered(seat=seat, heroes=wanted))

