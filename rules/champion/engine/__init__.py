"""Champion of the Empire (A birodalom bajnoka) as a pure ruleset: the turn's flow.

Heroes roam the Roman Empire of AD 115.  Each round opens with an event card; on their turn a hero takes
one action (caravan escort, exploration, voyage, local commissions, recuperation or secret lore), draws a
story card after moving, may visit the market of a city, and develops with experience.  Six pieces of
information reveal a monster's lair; the first hero to kill their monster is the Champion of the Empire.
House rules (where the book is silent) are listed in ``rules/champion/RULES.md``.

The engine is composed of its parts, each given what it needs: the ``table`` every part asks about
(``table.py``: the library, the dice, who acts, the round's event, kept cards, the lair, rounds and turns),
the ``opening`` (``opening.py``: the table set and the first choices), ``movement`` (caravans, explorations,
voyages), ``stories`` (story cards, lore, information, monsters), ``items`` (market, limit, losses,
development) and ``fights`` (fights seen from the turn; the fight itself is ``combat.Melee``).  Here: what is
legal, the dispatch of an action and the task list that carries a turn on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.champion.content import Library
from rules.champion.engine.fights import Fights
from rules.champion.engine.items import Items
from rules.champion.engine.movement import Movement
from rules.champion.engine.opening import Opening
from rules.champion.engine.stories import Stories
from rules.champion.engine.table import Table
from rules.champion.i18n import _, comma, local, semicolon
from rules.champion.state import (
    Attack,
    Buy,
    Caravan,
    ChampionAction,
    ChampionEvent,
    Choose,
    Commission,
    Develop,
    Drop,
    Explore,
    Gained,
    Lore,
    Offered,
    Pass,
    Pick,
    Recuperate,
    State,
    StoryChosen,
    Use,
    Voyage,
)
from rules.core import GameOver, IllegalAction, NotYourTurn, Rng, SeatInfo, Step, copier
from rules.core import Outcome as GameOutcome
from rules.spec import number

_copy = copier(State)

#: Phases in which the hero whose turn it is may develop or use a healing item.
FREE_PHASES = ("action", "lair", "story", "market")
ACTION_NAMES: dict[type, str] = {
    Caravan: "caravan", Explore: "explore", Voyage: "voyage", Commission: "commission", Recuperate: "recuperate",
    Lore: "lore", Attack: "attack",
}
#: One step of a turn: the state being built, the seat, the action, the dice and the events so far.
Move = Callable[[State, int, Any, Rng, list[Any]], None]
#: One task of what is left of a turn (``State.tasks``): the state, the acting seat, the task's argument, the
#: dice and the events; True when the turn must wait for someone to choose.
Task = Callable[[State, int, str, Rng, list[Any]], bool]


class Engine:
    """2–4 heroes; variants: the fate track, the shorter game (five pieces of information), heroic opponents."""

    key = "champion"

    def __init__(self, lib: Library | None = None, *, dice: type[Rng] = Rng) -> None:
        self.table = Table(lib, dice=dice)
        self.items = Items(self.table)
        self.movement = Movement(self.table)
        self.stories = Stories(self.table)
        self.fights = Fights(self.table)
        self.opening = Opening(self.table, self.items)
        #: What a move means in each phase of a turn (the setup and a fight are handled before these).
        self._phases: dict[str, Move] = {
            "action": self._action, "lair": self._lair, "story": self._story, "fate": self._fate,
            "monster": self._monster, "item": lambda s, seat, a, rng, ev: self.items.drop(s, seat, a, ev),
            "market": self.items.market,
        }
        #: Each action of the action phase (a move by land or sea, commissions, recuperation, lore, the lair).
        self._actions: dict[type, Move] = {
            Caravan: lambda s, seat, a, rng, ev: self.movement.caravan(s, seat, a, ev),
            Explore: lambda s, seat, a, rng, ev: self.movement.explore(s, seat, a, ev),
            Voyage: self.movement.voyage, Commission: self._commission, Recuperate: self._recuperate,
            Lore: self._lore, Attack: self._attack,
        }
        #: What each task left on the turn's list does.
        self._tasks: dict[str, Task] = {
            "story": self._story_task, "draw": self._draw_task, "info": self._info_task,
            "monster": self._monster_task, "item": self._item_task, "lose": self._lose_task,
            "fight": self._fight_task, "market": self._market_task, "end": self._end_task,
        }

    @property
    def lib(self) -> Library:
        return self.table.lib

    # --- the game as the ruleset asks it ------------------------------------------------------

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step[State, ChampionEvent]:
        return self.opening.setup(seats, options, seed)

    def to_act(self, state: State) -> frozenset[int]:
        return self.table.to_act(state)

    # --- what is legal ------------------------------------------------------------------------

    def legal(self, state: State, seat: int) -> list[ChampionAction]:
        if state.phase == "over" or seat not in self.table.to_act(state):
            return []
        lib = self.table.lib
        me = state.heroes[seat]
        if state.phase == "setup":
            if not me.hero:
                taken = {h.hero for h in state.heroes}
                return [Pick(hero=h.id, side=side + 1, weapon=w) for h in lib.heroes if h.id not in taken
                        for side in range(len(h.side)) for w in h.weapons]
            offer: list[ChampionAction] = [Buy(item=i) for i in me.offer if lib.item[i].price <= me.gold]
            return [*offer, Pass()]
        if state.phase == "combat":
            return self.table.melee(state).legal(seat)
        if state.phase == "fate":
            assert state.draw is not None
            return [Choose(option=c) for c in state.draw.cards]
        if state.phase == "item":
            owner = state.heroes[state.order[state.turn]]
            return [Drop(item=i) for i in self.items.item_choices(state, owner)]
        if state.phase == "monster":
            return [Choose(option=m) for m in state.monster_offer]
        out: list[Any] = []
        if state.phase == "action":
            out += self.action_moves(state, seat)
        elif state.phase == "lair":
            out += [Attack(), Pass()]
        elif state.phase == "story":
            out += [Choose(option=str(i + 1)) for i in self.stories.story_options(state)]
        elif state.phase == "market":
            price = self.items.price_cut(state)
            out += [Buy(item=i) for i in state.market if max(0, lib.item[i].price - price) <= me.gold] + [Pass()]
        out += self.items.free_moves(state, seat)
        return out

    def action_moves(self, state: State, seat: int) -> list[Any]:
        lib = self.table.lib
        me = state.heroes[seat]
        out: list[Any] = []
        cara = self.movement.allowance(state, seat, "caravan")
        # the book's caravan "may" move one province: staying put is an escort too
        out += [Caravan(to=p) for p in ((*lib.near[me.province], me.province) if cara else (me.province,))]
        steps = self.movement.allowance(state, seat, "explore")
        if steps:
            out += [Explore(path=tuple(path)) for path in self.movement.reach(state, seat, steps).values()]
        else:
            out.append(Explore(path=(me.province,)))
        if self.table.effect(state) != "voyage_forbidden" and me.province in lib.ports \
                and me.gold >= self.movement.voyage_cost(state, seat):
            out += [Voyage(to=p) for p in lib.ports if p != me.province]
        if me.last_action != "commission":
            out += [Commission(reward="xp"), Commission(reward="gold")]
        if me.life < me.max_life:
            out.append(Recuperate())
        if self.stories.lore_refusal(state, seat) is None:
            out.append(Lore())
        if self.table.at_lair(state, seat):
            out.append(Attack())
        return out

    # --- applying an action -------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Any) -> Step[State, ChampionEvent]:
        if state.phase == "over":
            raise GameOver(_("This game has ended: {winner}", winner=self.table.winner_line(state)))
        if not isinstance(action, ChampionAction.__args__):
            raise IllegalAction(_("That is not a move in Champion of the Empire."))
        if not 0 <= seat < len(state.heroes):
            raise NotYourTurn(_("You are not seated in this game."))
        s = _copy(state)
        rng = self.table.dice(s.rng)
        events: list[Any] = []
        before, acting = self._decision_key(state), self.table.to_act(state)
        if s.phase == "setup":
            self.opening.setup_move(s, seat, action, rng, events)
        elif s.phase == "combat":
            if seat not in self.table.to_act(s):
                raise NotYourTurn(self.table.melee(s).waiting_for())
            melee = self.table.melee(s, rng, events)
            melee.act(seat, action)
            self._run(s, rng, events)
        else:
            self._turn_move(s, seat, action, rng, events)
        s.rng = rng.state
        # The moment moves with every action — so a second press of the same button is refused — except
        # while several players choose at once: one of them finishing must not stale the others' buttons
        # (the rules refuse a second choice from the same player anyway).
        after = self.table.to_act(s)
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
        if seat not in self.table.to_act(s):
            raise NotYourTurn(self.table.waiting(s))
        if isinstance(action, (Develop, Use)):
            if s.phase not in FREE_PHASES or seat != s.order[s.turn]:
                raise IllegalAction(_("You develop your hero or use a healing item on your own turn, outside a fight."))
            self.items.free_move(s, seat, action, events)
            return
        move = self._phases.get(s.phase)
        if move is None:
            raise IllegalAction(_("That cannot be done now."))
        move(s, seat, action, rng, events)
        self._run(s, rng, events)

    def _lair(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
        if isinstance(action, Attack):
            self.fights.start_monster_fight(s, seat, rng, events)
        elif isinstance(action, Pass):
            s.tasks.insert(0, "draw")
            s.phase = "action"
        else:
            raise IllegalAction(_("You stand in the monster's lair: `/attack` it, or `/pass` to draw a story card."))

    def _story(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
        if not isinstance(action, Choose):
            raise IllegalAction(_("Choose what you do on the story card: `/choose option:`."))
        assert s.draw is not None
        options = self.stories.story_options(s)
        chosen = number(action.option)
        index = chosen - 1 if chosen is not None else -1
        if index not in options:
            story = local(self.table.lib).story[s.draw.cards[0]]
            listed = semicolon(f"{i + 1}: {story.outcome[i].choice}" for i in options)
            raise IllegalAction(_("Choose one of the options you can afford — {options}.", options=listed))
        self.stories.resolve_outcome(s, seat, self.table.lib.story[s.draw.cards[0]], index, 0, events)

    def _fate(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
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
        s.phase = "action"  # where the turn goes on, unless reading the chosen card (below) leads elsewhere
        self.stories.read_story(s, rng, events)

    def _monster(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
        if not isinstance(action, Choose) or action.option not in s.monster_offer:
            raise IllegalAction(_("Choose your monster sheet: {monsters}.", monsters=comma(s.monster_offer)))
        self.stories.take_monster(s, seat, action.option, True, rng, events)

    # --- the action of a turn -------------------------------------------------------------------

    def _action(self, s: State, seat: int, action: Any, rng: Rng, events: list[Any]) -> None:
        name = ACTION_NAMES.get(type(action))
        if name is None:
            raise IllegalAction(_("Choose your action: /caravan, /explore, /voyage, /commission, /recuperate or /lore "
                                "(and /develop or /use any time on your turn)."))
        s.last_move = None
        self._actions[type(action)](s, seat, action, rng, events)
        s.heroes[seat].last_action = name
        if not isinstance(action, Attack):
            s.tasks += ["market", "end"]

    def _commission(self, s: State, seat: int, action: Commission, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        if action.reward not in ("xp", "gold"):
            raise IllegalAction(_("Local commissions pay in **xp** or **gold**: choose one."))
        if me.last_action == "commission":
            raise IllegalAction(_("You took local commissions last turn; they cannot be taken twice in a row."))
        bonus = 1 if self.table.effect(s) == f"commission_{action.reward}_plus1" else 0
        if action.reward == "xp":
            me.xp += 2 + bonus
        else:
            me.gold += 2 + bonus
        events.append(Gained(seat=seat, changes={action.reward: 2 + bonus}, why="commission"))

    def _recuperate(self, s: State, seat: int, action: Recuperate, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        if me.life >= me.max_life:
            raise IllegalAction(_("You are at full life ({life}/{max_life}): there is nothing to recover. "
                                  "Choose another action.", life=me.life, max_life=me.max_life))
        before = me.life
        if self.table.lib.province[me.province].city:
            me.life = me.max_life
        else:
            me.life = min(me.max_life, me.life + 2 + (1 if self.table.effect(s) == "recuperate_plus1" else 0))
        events.append(Gained(seat=seat, changes={"life": me.life - before}, why="recuperate"))

    def _lore(self, s: State, seat: int, action: Lore, rng: Rng, events: list[Any]) -> None:
        me = s.heroes[seat]
        why = self.stories.lore_refusal(s, seat)
        if why:
            raise IllegalAction(why)
        cost = self.stories.lore_cost(s)
        me.gold -= cost
        me.shrines.append(me.province)
        if cost:
            events.append(Gained(seat=seat, changes={"gold": -cost}, why="lore"))
        s.tasks = ["info:lore"]

    def _attack(self, s: State, seat: int, action: Attack, rng: Rng, events: list[Any]) -> None:
        if not self.table.at_lair(s, seat):
            raise IllegalAction(_("You can attack your monster only in its lair, once you know where it is."))
        s.heroes[seat].last_action = "attack"
        self.fights.start_monster_fight(s, seat, rng, events)
        s.tasks.append("market")
        s.tasks.append("end")

    # --- the task list: what is left of the turn ----------------------------------------------

    def _run(self, s: State, rng: Rng, events: list[Any]) -> None:
        """Carry on with the turn until someone must choose (or the game ends)."""
        while s.phase != "over":
            if s.phase == "combat":
                melee = self.table.melee(s, rng, events)
                result = melee.advance()
                if not result:
                    return
                self.fights.end_fight(s, result, rng, events)
                continue
            if s.phase != "action" or not s.tasks:
                return
            kind, _sep, arg = s.tasks.pop(0).partition(":")
            task = self._tasks.get(kind)
            if task is not None and task(s, s.order[s.turn], arg, rng, events):
                return

    def _story_task(self, s: State, seat: int, arg: str, rng: Rng, events: list[Any]) -> bool:
        """After a move: a story card — or, in the lair, the choice to fight the monster instead."""
        if self.table.at_lair(s, seat):
            s.phase = "lair"
            return True
        self.stories.draw_story(s, seat, rng, events)
        return False

    def _draw_task(self, s: State, seat: int, arg: str, rng: Rng, events: list[Any]) -> bool:
        self.stories.draw_story(s, seat, rng, events)
        return False

    def _info_task(self, s: State, seat: int, arg: str, rng: Rng, events: list[Any]) -> bool:
        self.stories.gain_info(s, seat, arg, rng, events)
        return False

    def _monster_task(self, s: State, seat: int, arg: str, rng: Rng, events: list[Any]) -> bool:
        self.stories.offer_monster(s, seat, rng, events)
        return False

    def _item_task(self, s: State, seat: int, arg: str, rng: Rng, events: list[Any]) -> bool:
        got = arg if arg in s.item_deck else (s.item_deck[0] if s.item_deck else "")
        if got:
            s.item_deck.remove(got)
            self.items.gain_item(s, seat, got, events)
        return False

    def _lose_task(self, s: State, seat: int, arg: str, rng: Rng, events: list[Any]) -> bool:
        chooser, _sep, why = arg.partition(":")
        self.items.ask_loss(s, seat, int(chooser), why, rng, events)
        return False

    def _fight_task(self, s: State, seat: int, arg: str, rng: Rng, events: list[Any]) -> bool:
        card, _sep, idx = arg.partition(":")
        self.fights.start_story_fight(s, seat, card, int(idx), rng, events)
        return False

    def _market_task(self, s: State, seat: int, arg: str, rng: Rng, events: list[Any]) -> bool:
        """A city's market lays out three cards (unless the round's event shuts it)."""
        me = s.heroes[seat]
        if not (self.table.lib.province[me.province].city and self.table.effect(s) != "market_closed"
                and s.item_deck):
            return False
        s.market = [s.item_deck.pop(0) for _i in range(min(3, len(s.item_deck)))]
        events.append(Offered(seat=seat, cards=list(s.market), where="market"))
        s.phase = "market"
        return True

    def _end_task(self, s: State, seat: int, arg: str, rng: Rng, events: list[Any]) -> bool:
        self.table.end_turn(s, rng, events)
        return False

    # --- the end ------------------------------------------------------------------------------

    def outcome(self, state: State) -> GameOutcome | None:
        if state.phase != "over" or state.winner < 0:
            return None
        scores = {i: h.info for i, h in enumerate(state.heroes)}
        scores[state.winner] = max(scores.values()) + 1
        return GameOutcome(winners=(state.winner,), scores=scores, summary=self.table.winner_line(state))
