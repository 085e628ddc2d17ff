"""Champion of the Empire (A birodalom bajnoka) as a pure ruleset: the turn's flow.

Heroes roam the Roman Empire of AD 115.  Each round opens with an event card; on their turn a hero takes
one action (caravan escort, exploration, voyage, local commissions, recuperation or secret lore), draws a
story card after moving, may visit the market of a city, and develops with experience.  Six pieces of
information reveal a monster's lair; the first hero to kill their monster is the Champion of the Empire.
House rules (where the book is silent) are listed in ``rules/champion/RULES.md``.

The concepts live beside this module: ``setup`` (the table and the first choices), ``movement`` (caravans,
explorations, voyages), ``stories`` (story cards, lore, information, monsters), ``items`` (market, limit,
losses, development), ``fights`` (fights seen from the turn) and ``combat`` (the fight itself).  The
platform's side — spec, codec, typed view, policy — is ``ruleset``.
"""

from __future__ import annotations

from typing import Any

from rules.champion.content import CARD_TYPES
from rules.champion.fights import Fights
from rules.champion.i18n import _, comma, local, semicolon
from rules.champion.movement import Movement
from rules.champion.setup import Setup
from rules.champion.state import (
    Attack,
    Buy,
    Caravan,
    ChampionAction,
    ChampionEvent,
    Choose,
    Commission,
    Defend,
    Develop,
    Drop,
    Explore,
    Gained,
    Keep,
    Lore,
    Offered,
    Pass,
    Pick,
    Play,
    Ranged,
    Recuperate,
    State,
    StoryChosen,
    Use,
    Voyage,
    Weapon,
)
from rules.champion.stories import Stories
from rules.core import GameOver, IllegalAction, NotYourTurn, Rng, Step, copier
from rules.core import Outcome as GameOutcome

_copy = copier(State)

#: Phases in which the hero whose turn it is may develop or use a healing item.
FREE_PHASES = ("action", "lair", "story", "market")
ACTION_NAMES: dict[type, str] = {
    Caravan: "caravan", Explore: "explore", Voyage: "voyage", Commission: "commission", Recuperate: "recuperate",
    Lore: "lore", Attack: "attack",
}


class ChampionOfTheEmpire(Setup, Movement, Stories, Fights):
    """2–4 heroes; variants: the fate track, the shorter game (five pieces of information), heroic opponents."""

    key = "champion"

    # --- what is legal ------------------------------------------------------------------------

    def legal(self, state: State, seat: int) -> list[ChampionAction]:
        if state.phase == "over" or seat not in self.to_act(state):
            return []
        lib = self.lib
        me = state.heroes[seat]
        if state.phase == "setup":
            if not me.hero:
                taken = {h.hero for h in state.heroes}
                return [Pick(hero=h.id, side=side + 1, weapon=w) for h in lib.heroes if h.id not in taken
                        for side in range(len(h.side)) for w in h.weapons]
            offer: list[ChampionAction] = [Buy(item=i) for i in me.offer if lib.item[i].price <= me.gold]
            return [*offer, Pass()]
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

    def action_moves(self, state: State, seat: int) -> list[Any]:
        lib = self.lib
        me = state.heroes[seat]
        out: list[Any] = []
        cara = self.allowance(state, seat, "caravan")
        # the book's caravan "may" move one province: staying put is an escort too
        out += [Caravan(to=p) for p in ((*lib.near[me.province], me.province) if cara else (me.province,))]
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
        if me.life < me.max_life:
            out.append(Recuperate())
        if self._lore_refusal(state, seat) is None:
            out.append(Lore())
        if self.at_lair(state, seat):
            out.append(Attack())
        return out

    # --- applying an action -------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Any) -> Step[State, ChampionEvent]:
        if state.phase == "over":
            raise GameOver(_("This game has ended: {winner}", winner=self._winner_line(state)))
        if not isinstance(action, ChampionAction.__args__):
            raise IllegalAction(_("That is not a move in Champion of the Empire."))
        if not 0 <= seat < len(state.heroes):
            raise NotYourTurn(_("You are not seated in this game."))
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

    # --- turn moves ---------------------------------------------------------------------------

    def _turn_move(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
        if seat not in self.to_act(s):
            raise NotYourTurn(self._waiting(s))
        if isinstance(action, (Develop, Use)):
            if s.phase not in FREE_PHASES or seat != s.order[s.turn]:
                raise IllegalAction(_("You develop your hero or use a healing item on your own turn, outside a fight."))
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
                raise IllegalAction(_("You stand in the monster's lair: `/attack` it, or `/pass` to draw a story "
                                      "card."))
        elif s.phase == "story":
            if not isinstance(action, Choose):
                raise IllegalAction(_("Choose what you do on the story card: `/choose option:`."))
            assert s.draw is not None
            options = self.story_options(s)
            try:
                index = int(action.option) - 1
            except ValueError:
                index = -1
            if index not in options:
                story = local(self.lib).story[s.draw.cards[0]]
                listed = semicolon(f"{i + 1}: {story.outcome[i].choice}" for i in options)
                raise IllegalAction(_("Choose one of the options you can afford — {options}.", options=listed))
            self._resolve_outcome(s, seat, self.lib.story[s.draw.cards[0]], index, 0, events)
        elif s.phase == "fate":
            if not isinstance(action, Choose):
                raise IllegalAction(_("Choose which story card is faced: `/choose option:`."))
            assert s.draw is not None
            if action.option not in s.draw.cards:
                raise IllegalAction(_("Choose one of the two story cards: {cards}.", cards=comma(s.draw.cards)))
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
                raise IllegalAction(_("Choose your monster sheet: {monsters}.", monsters=comma(s.monster_offer)))
            self._take_monster(s, seat, action.option, True, rng, events)
        elif s.phase == "item":
            self._drop(s, seat, action, events)
        elif s.phase == "market":
            self._market(s, seat, action, rng, events)
        else:
            raise IllegalAction(_("That cannot be done now."))
        self._run(s, rng, events)

    def _action(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
        lib = self.lib
        me = s.heroes[seat]
        name = ACTION_NAMES.get(type(action))
        if name is None:
            raise IllegalAction(_("Choose your action: /caravan, /explore, /voyage, /commission, /recuperate or /lore "
                                "(and /develop or /use any time on your turn)."))
        s.last_move = None
        if isinstance(action, Caravan):
            self._caravan(s, seat, action, events)
        elif isinstance(action, Explore):
            self._explore(s, seat, action, events)
        elif isinstance(action, Voyage):
            self._voyage(s, seat, action, rng, events)
        elif isinstance(action, Commission):
            if action.reward not in ("xp", "gold"):
                raise IllegalAction(_("Local commissions pay in **xp** or **gold**: choose one."))
            if me.last_action == "commission":
                raise IllegalAction(_("You took local commissions last turn; they cannot be taken twice in a row."))
            bonus = 1 if self.effect(s) == f"commission_{action.reward}_plus1" else 0
            if action.reward == "xp":
                me.xp += 2 + bonus
            else:
                me.gold += 2 + bonus
            events.append(Gained(seat=seat, changes={action.reward: 2 + bonus}, why="commission"))
        elif isinstance(action, Recuperate):
            if me.life >= me.max_life:
                raise IllegalAction(_("You are at full life ({life}/{max_life}): there is nothing to recover. "
                                      "Choose another action.", life=me.life, max_life=me.max_life))
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
                raise IllegalAction(_("You can attack your monster only in its lair, once you know where it is."))
            me.last_action = name
            self._start_monster_fight(s, seat, rng, events)
            s.tasks.append("market")
            s.tasks.append("end")
            return
        me.last_action = name
        s.tasks += ["market", "end"]

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
            kind, _sep, arg = task.partition(":")
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
                chooser, _sep, why = arg.partition(":")
                self._ask_loss(s, seat, int(chooser), why, rng, events)
            elif kind == "fight":
                card, _sep, idx = arg.partition(":")
                self._start_story_fight(s, seat, card, int(idx), rng, events)
            elif kind == "market":
                if self.lib.province[me.province].city and self.effect(s) != "market_closed" and s.item_deck:
                    s.market = [s.item_deck.pop(0) for _i in range(min(3, len(s.item_deck)))]
                    events.append(Offered(seat=seat, cards=list(s.market), where="market"))
                    s.phase = "market"
                    return
            elif kind == "end":
                self._end_turn(s, rng, events)

    # --- the end ------------------------------------------------------------------------------

    def outcome(self, state: State) -> GameOutcome | None:
        if state.phase != "over" or state.winner < 0:
            return None
        scores = {i: h.info for i, h in enumerate(state.heroes)}
        scores[state.winner] = max(scores.values()) + 1
        return GameOutcome(winners=(state.winner,), scores=scores, summary=self._winner_line(state))

    # --- what Tabula plays --------------------------------------------------------------------

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


__all__ = ["CARD_TYPES", "ChampionOfTheEmpire", "Defend", "Keep", "Play", "Ranged", "Weapon"]
