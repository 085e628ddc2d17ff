"""Legend of Heroes, starter game and solo game, as a pure ruleset.

The turn: a fighter moves from one red doorway square to another linked by one corridor or one room.  A
move through a room that still holds Action cards stops there to explore it: the Narrator reads the cards
one by one, following the red arrows, and monsters and hazards are fought with d20 rolls against the
numbers on the cards.  House rules (where the book is silent) are listed in ``rules/legend/RULES.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from rules import dice as dice_expr
from rules.core import (
    GameOver,
    IllegalAction,
    NotYourTurn,
    Outcome,
    Rng,
    SeatInfo,
    Step,
    copier,
    seed_state,
)
from rules.legend.board import Board, board, room_label
from rules.legend.content import (
    CLASS_NAMES,
    CLASSES,
    ActionCard,
    Hero,
    card_index,
    cards,
    fighter_index,
    fighters,
    hero_index,
    heroes,
    need,
    spell_index,
    spells,
)
from rules.legend.state import (
    COLOURS,
    FREE_ACTIONS,
    SOLO_WOUND_LIMIT,
    Attack,
    AwaitNarration,
    CardRead,
    Cast,
    DangerComing,
    Dealt,
    Entered,
    Exited,
    Exploration,
    FightRoll,
    GameEnded,
    HeroRoll,
    HeroWounded,
    Keep,
    Lead,
    LeaderChanged,
    LegendAction,
    LegendEvent,
    Move,
    Moved,
    Narrate,
    NoteAdded,
    NoteRead,
    Order,
    Overcame,
    PartiesDealt,
    PartyRecovered,
    Place,
    Placed,
    Player,
    Recovered,
    Reordered,
    Reshuffled,
    Rest,
    Rested,
    Retreat,
    Retreated,
    Roll,
    Rolled,
    RollOff,
    RoomExplored,
    RoomsDealt,
    SceneNote,
    Shuffled,
    Skipped,
    SpellCast,
    SpellLearned,
    State,
    TreasureTaken,
    TurnBegan,
    Wounded,
)
from rules.legend.state import Hero as PartyHero
from rules.legend.state import Note as SceneNoteEntry

PILES = ("feature", "monster", "hazard", "treasure")
#: What `/explore to:` means in each phase of a turn.
STEP_ACTIONS: dict[str, type[Place] | type[Move]] = {"place": Place, "move": Move}
NARRATION_MAX = 1500  # characters of a Narrator's telling
NOTE_MAX = 300  # characters of a scene note
#: The Party's first line-up, left to right: the Fighter leads (the book's hint), the Magic User at the back.
FIRST_LINE_UP = ("magic", "rogue", "cleric", "dwarf", "fighter")

_copy = copier(State)


class LegendOfHeroes:
    """The starter game (2–5 fighters) and the solo game (1 fighter, eight wounds)."""

    key: ClassVar[str] = "legend"
    title: ClassVar[str] = "Legend of Heroes"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 5
    state_type: ClassVar[type] = State
    action_type: ClassVar[Any] = LegendAction
    event_type: ClassVar[Any] = LegendEvent

    def __init__(self, plan: Board | None = None, *, dice: type[Rng] = Rng) -> None:
        self.board = plan or board()
        self.dice = dice  # tests pass a scripted generator to replay the book's examples roll by roll

    # --- setup --------------------------------------------------------------------------------

    def check_options(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """Normalise the lobby options and refuse a table that does not fit them."""
        mode = options.get("mode") or ("solo" if players == 1 else "starter")
        if mode not in ("starter", "solo", "expanded"):
            raise IllegalAction("Legend of Heroes has three modes here: **starter** (2–5 players), **solo**, or "
                                "**expanded** (parties of five heroes, 1–5 players).")
        narration = options.get("narration") or "bot"
        if narration not in ("bot", "players"):
            raise IllegalAction("Narration can be **bot** (Tabula reads the cards) or **players**.")
        if mode == "solo" and players != 1:
            raise IllegalAction(f"The solo game is for one player; {players} are seated. Start a starter game.")
        if mode == "starter" and not 2 <= players <= 5:
            raise IllegalAction(
                f"The starter game needs 2 to 5 players ({players} seated). One player can play solo."
            )
        if mode == "expanded" and not 1 <= players <= 5:
            raise IllegalAction(f"The Expanded Game takes 1 to 5 players ({players} seated).")
        if players == 1:
            narration = "bot"  # nobody sits to the right of a lone player
        return {**options, "mode": mode, "narration": narration}

    def setup(self, seats: Sequence[SeatInfo], options: dict[str, Any], seed: int) -> Step:
        opts = self.check_options(options, len(seats))
        rng = self.dice(seed_state(seed))
        events: list[Any] = []
        n = len(seats)

        # The d20 roll-off: highest goes first; a tie for the highest rolls again among the tied.
        rounds: list[dict[int, int]] = []
        contenders = list(range(n))
        while n > 1:
            rolled = {s: rng.die(20) for s in contenders}
            rounds.append(rolled)
            best = max(rolled.values())
            contenders = [s for s, r in rolled.items() if r == best]
            if len(contenders) == 1:
                break
        first = contenders[0]
        order = [(first + i) % n for i in range(n)]
        if rounds:
            events.append(RollOff(rounds=rounds, first=first))

        dealt = rng.shuffle([f.id for f in fighters()])[:n]
        players = [
            Player(name=seat.name, fighter=dealt[i], colour=COLOURS[i][0], letter=COLOURS[i][1])
            for i, seat in enumerate(seats)
        ]
        events.append(Dealt(fighters=dict(enumerate(dealt)), colours={i: p.colour for i, p in enumerate(players)},
                            order=order))

        deck = cards()
        room_cards = rng.shuffle([c.id for c in deck.room])
        events.append(Shuffled(pile="room", cards=len(room_cards)))
        rooms = {room: [room_cards[i]] for i, room in enumerate(self.board.room_ids)}
        left_over = room_cards[len(rooms):]
        events.append(RoomsDealt(rooms=len(rooms), left_over=len(left_over)))
        piles: dict[str, list[str]] = {}
        for kind in PILES:
            piles[kind] = rng.shuffle([c.id for c in getattr(deck, kind)])
            events.append(Shuffled(pile=kind, cards=len(piles[kind])))

        state = State(
            mode=opts["mode"], narration=opts["narration"], rng=0, players=players, order=order,
            rooms=rooms, piles=piles, discards={"room": left_over}, phase="place",
        )
        if state.mode == "expanded":
            self._deal_parties(state, rng, events)
        events.append(TurnBegan(seat=order[0], turn_no=1))
        state.rng = rng.state
        return Step(state=state, events=tuple(events))

    def _deal_parties(self, state: State, rng: Rng, events: list[Any]) -> None:
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
                                   spells=len(state.players)))

    # --- who acts, what is legal ---------------------------------------------------------------

    def current(self, state: State) -> int:
        return state.order[state.turn]

    def narrator(self, state: State) -> int | None:
        """The player on the explorer's right (the one before them in turn order), in players mode."""
        if state.narration != "players" or len(state.order) < 2:
            return None
        return state.order[(state.turn - 1) % len(state.order)]

    def to_act(self, state: State) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        if state.phase == "explore":
            if state.exploring is not None and state.exploring.decision is not None:
                return frozenset({self.current(state)})
            narrator = self.narrator(state)
            return frozenset() if narrator is None else frozenset({narrator})
        return frozenset({self.current(state)})

    # --- the Party (Expanded Game) -------------------------------------------------------------

    def expanded(self, state: State) -> bool:
        return state.mode == "expanded"

    def leader(self, state: State, seat: int) -> Hero | None:
        """The Hero at the front (right-hand end) of the Party, if he is still standing."""
        party = state.players[seat].party
        if not party or party[-1].wounded:
            return None
        return hero_index()[party[-1].id]

    def can_cast(self, state: State, seat: int) -> bool:
        """A Magic User at the front, unwounded, holding a Spell, facing a Monster."""
        ex = state.exploring
        lead = self.leader(state, seat)
        return (lead is not None and lead.kind == "magic" and state.players[seat].spell is not None
                and ex is not None and ex.danger is not None and card_index()[ex.danger].kind == "monster")

    def can_lead(self, state: State, seat: int) -> list[Hero]:
        """Heroes who may take the lead now: every unwounded one but the Leader."""
        party = state.players[seat].party
        return [hero_index()[h.id] for h in party[:-1] if not h.wounded]

    def rest_plan(self, state: State, seat: int) -> tuple[list[str], str | None, str | None]:
        """What a rest would do: (heroes healed, the healer, the Magic User who studies)."""
        p = state.players[seat]
        index = hero_index()
        cleric = next((h for h in p.party if index[h.id].kind == "cleric"), None)
        healed: list[str] = []
        healer = None
        if cleric is not None and cleric.wounded:
            healed, healer = [cleric.id], cleric.id  # a wounded Cleric can tend only his own wounds
        elif cleric is not None:
            healed = [h.id for h in p.party if h.wounded]
            healer = cleric.id if healed else None
        mage = next((h for h in p.party if index[h.id].kind == "magic"), None)
        studying = mage.id if mage is not None and p.spell is None and state.spell_pile else None
        return healed, healer, studying

    def legal(self, state: State, seat: int) -> list[LegendAction]:
        if state.phase == "over":
            return []
        ex = state.exploring
        if state.phase == "explore" and ex is not None:
            if ex.decision is None:
                return [Narrate()] if seat == self.narrator(state) else []
            if seat != self.current(state):
                return []
            out: list[LegendAction] = []
            if ex.decision == "leader":
                out.append(Keep())
            else:
                out.append(Attack())
                if self.can_cast(state, seat):
                    out.append(Cast())
            if ex.decision == "fight":
                out.append(Retreat())
            if ex.decision in ("leader", "fight"):
                out += [Lead(hero=h.id) for h in self.can_lead(state, seat)]
            return out
        kind = STEP_ACTIONS.get(state.phase)
        if kind is None:
            return []
        moves: list[LegendAction] = [kind(to=d) for d in self.destinations(state, seat)]
        if self.expanded(state) and state.phase == "move" and seat == self.current(state):
            healed, _healer, studying = self.rest_plan(state, seat)
            if healed or studying:
                moves.append(Rest())
        return moves

    # --- applying an action -------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: LegendAction) -> Step:
        if state.phase == "over":
            raise GameOver("This game has ended. Start a new one with `/game new`.")
        if not 0 <= seat < len(state.players):
            raise NotYourTurn("You are not playing in this game.")
        s = _copy(state)
        rng = self.dice(s.rng)
        events: list[Any] = []
        if isinstance(action, Narrate):
            self._narrate(s, seat, action, rng, events)
        elif isinstance(action, (Place, Move)):
            self._go(s, seat, action, rng, events)
        elif isinstance(action, Roll):
            terms = dice_expr.parse(action.expr)
            rolled, total = dice_expr.roll(terms, rng)
            events.append(Rolled(seat=seat, expr=dice_expr.normalise(terms), dice=rolled, total=total))
        elif isinstance(action, SceneNote):
            self._note(s, seat, action, events)
        else:
            self._party_action(s, seat, action, rng, events)
        if not isinstance(action, FREE_ACTIONS):
            s.moment += 1
        s.rng = rng.state
        return Step(state=s, events=tuple(events))

    def moment(self, state: State) -> int:
        """Changes whenever what may be done next changes: buttons carry it, so an old one is refused."""
        return state.moment

    def occupied(self, state: State) -> set[str]:
        return {p.doorway for p in state.players if p.doorway}

    def destinations(self, state: State, seat: int) -> list[str]:
        """Doorways the seat may choose now (an entrance, or a move), in board order."""
        if state.phase == "over" or seat != self.current(state):
            return []
        taken = self.occupied(state)
        me = state.players[seat]
        if state.phase == "place":
            return [d for d in self.board.entrances if d not in taken]
        if state.phase == "move" and me.doorway:
            linked = [d for d in self.board.links[me.doorway] if d not in taken]
            room = self.board.room_of(me.doorway)
            if room is not None and state.rooms[room]:  # explore the room and come back out by this doorway
                linked.insert(0, me.doorway)
            return linked
        return []

    def _check_turn(self, s: State, seat: int) -> None:
        if s.phase == "explore":
            ex = s.exploring
            if ex is not None and ex.decision is not None:
                if seat == self.current(s):
                    raise IllegalAction(self._decision_hint(s, seat))
                raise NotYourTurn(f"{s.players[self.current(s)].name} is deciding what their party does next.")
            narrator = self.narrator(s)
            who = s.players[narrator].name if narrator is not None else "Tabula"
            raise NotYourTurn(f"The room is being explored — {who} is narrating. Wait for the story to finish.")
        if seat != self.current(s):
            raise NotYourTurn(f"It is {s.players[self.current(s)].name}'s turn, not yours.")

    def _decision_hint(self, s: State, seat: int) -> str:
        ex = s.exploring
        assert ex is not None
        if ex.decision == "leader":
            return (f"A **{ex.coming.title()}** card is coming. Keep your Leader (`/attack` is not needed yet) or "
                    "choose a new one with the buttons — then the card is drawn.")
        if ex.decision == "strike":
            return "Your Magic User leads with a spell in hand: `/attack` or `/cast`."
        extra = ", `/cast`" if self.can_cast(s, seat) else ""
        return f"Finish the fight first: `/attack`{extra}, change Leader with the buttons, or **Retreat**."

    # --- Expanded Game: leaders, fights, spells, rests ------------------------------------------

    def _party_action(self, s: State, seat: int, action: LegendAction, rng: Rng, events: list[Any]) -> None:
        if not self.expanded(s):
            raise IllegalAction("That belongs to the Expanded Game (parties of five heroes). This game is the "
                                f"{s.mode} game: " + "; ".join(self.verbs_for(s).values()) + ".")
        if isinstance(action, Order):
            self._reorder(s, seat, action, events)
            return
        if isinstance(action, Rest):
            self._rest(s, seat, rng, events)
            return
        ex = s.exploring
        if s.phase != "explore" or ex is None or ex.decision is None:
            if s.phase == "explore":
                self._check_turn(s, seat)
            raise IllegalAction("There is no fight or danger to face right now. " + self._phase_hint(s, seat))
        if seat != self.current(s):
            raise NotYourTurn(f"It is {s.players[self.current(s)].name}'s party in the room, not yours.")
        if isinstance(action, Lead):
            if ex.decision == "strike":
                raise IllegalAction("The Leader can change before the card is drawn or after the Monster strikes "
                                    "— now your Magic User must `/attack` or `/cast`.")
            self._lead(s, seat, action.hero, events)
            if ex.decision == "leader":
                self._draw_danger(s, rng, events)
            return
        if isinstance(action, Keep):
            if ex.decision != "leader":
                raise IllegalAction(self._decision_hint(s, seat))
            self._draw_danger(s, rng, events)
            return
        if ex.decision == "leader":
            raise IllegalAction(self._decision_hint(s, seat))
        if isinstance(action, Retreat):
            if ex.decision != "fight":
                raise IllegalAction("You can retreat only after the Monster has struck back.")
            assert ex.danger is not None
            self._retreat(s, seat, card_index()[ex.danger], events, overwhelmed=False)
            return
        if isinstance(action, Cast):
            if not self.can_cast(s, seat):
                raise IllegalAction(self._cast_refusal(s, seat))
            self._cast(s, seat, rng, events)
        elif isinstance(action, Attack):
            self._strike(s, seat, rng, events)
        else:
            raise IllegalAction(self._decision_hint(s, seat))
        self._run_exploration(s, rng, events)

    def _cast_refusal(self, s: State, seat: int) -> str:
        lead = self.leader(s, seat)
        ex = s.exploring
        if ex is not None and ex.danger is not None and card_index()[ex.danger].kind != "monster":
            return "Spells work only on Monsters, not on Hazards."
        if lead is None or lead.kind != "magic":
            return "Only a Magic User at the front of the party can cast: make him Leader first."
        return "Your Magic User has no Spell card. Regain one with `/study` (it costs a turn)."

    def _lead(self, s: State, seat: int, hero_id: str, events: list[Any]) -> None:
        party = s.players[seat].party
        ids = [h.id for h in party]
        if hero_id not in ids:
            names = ", ".join(hero_index()[h.id].name for h in party[:-1] if not h.wounded)
            raise IllegalAction(f"That hero is not in your party. You can make one of these Leader: {names}.")
        i = ids.index(hero_id)
        if party[i].wounded:
            raise IllegalAction(f"{hero_index()[hero_id].name} is wounded and cannot lead. A Cleric can heal "
                                "him when your party rests (`/heal`).")
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
            ex.pending = self._draw(s, ex.coming, rng, events)
        ex.coming = ""
        if ex.pending is None:
            self._room_done(s, events)
            return
        self._run_exploration(s, rng, events)

    def _meet_danger(self, s: State, seat: int, card: ActionCard, rng: Rng, events: list[Any]) -> None:
        """The Monster or Hazard is face up beside the Leader: strike at once, or let a Magic User choose."""
        ex = s.exploring
        assert ex is not None
        ex.danger = card.id
        if self.can_cast(s, seat):
            ex.decision = "strike"
            return
        self._strike(s, seat, rng, events)

    def _strike(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        ex = s.exploring
        assert ex is not None and ex.danger is not None
        card = card_index()[ex.danger]
        lead = self.leader(s, seat)
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
        lead = self.leader(s, seat)
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
        self._follow_arrow(s, card, rng, events)

    def _hero_wounded(self, s: State, seat: int, card: ActionCard, events: list[Any]) -> None:
        """The Leader is wounded: his card turns over and he drops to the back of the line."""
        ex = s.exploring
        assert ex is not None
        me = s.players[seat]
        hurt = me.party.pop()
        hurt.wounded = True
        me.party.insert(0, hurt)
        me.wounds += 1
        lead = self.leader(s, seat)
        events.append(HeroWounded(seat=seat, hero=hurt.id, card=card.id, leader=lead.id if lead else None,
                                  wounds=me.wounds))
        if len(s.order) == 1 and me.wounds >= SOLO_WOUND_LIMIT:
            self._retreat(s, seat, card, events, overwhelmed=lead is None, end=False)
            self._finish(s, events, f"{me.name}'s party has taken {SOLO_WOUND_LIMIT} wounds and leaves the dungeon.")
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
        self._discard(s, ex.used)
        events.append(Retreated(seat=seat, card=card.id, room=ex.room, back_to=ex.came_from,
                                overwhelmed=overwhelmed))
        me.overwhelmed = overwhelmed
        s.exploring = None
        if end:
            s.phase = "move"
            self._end_turn(s, events)

    def _rest(self, s: State, seat: int, rng: Rng, events: list[Any]) -> None:
        self._check_turn(s, seat)
        if s.phase != "move":
            raise IllegalAction("Your party can rest once it is in the dungeon: first choose an entrance with "
                                "`/explore to:`.")
        healed, healer, studying = self.rest_plan(s, seat)
        if not healed and not studying:
            raise IllegalAction("Your party has nothing to rest for: nobody is wounded and your Magic User "
                                "already holds a spell. Move on with `/explore to:`.")
        me = s.players[seat]
        for h in me.party:
            if h.id in healed:
                h.wounded = False
        events.append(Rested(seat=seat, healed=healed, healer=healer, studying=studying))
        if studying is not None:  # the new spell arrives at the end of the missed turn
            me.spell = s.spell_pile.pop(0)
            events.append(SpellLearned(seat=seat, hero=studying))
        s.last_move = None
        self._end_turn(s, events)

    def reorder_refusal(self, s: State, seat: int) -> str | None:
        """Why the seat may not rearrange its party now (None: it may): only outside its own fights."""
        if s.phase == "over" or not self.expanded(s):
            return "Parties can be rearranged only during an Expanded Game."
        if s.exploring is not None and self.current(s) == seat:
            return ("Your party is in a room: change the Leader with the buttons when you are asked. The whole "
                    "line-up can be changed outside fights.")
        if s.phase == "explore" and self.narrator(s) == seat:
            return "You are narrating this room; rearrange your party once the story is told."
        return None

    def _reorder(self, s: State, seat: int, action: Order, events: list[Any]) -> None:
        me = s.players[seat]
        ids = [h.id for h in me.party]
        refusal = self.reorder_refusal(s, seat)
        if refusal is not None:
            raise IllegalAction(refusal)
        wanted = list(action.heroes)
        if sorted(wanted) != sorted(ids):
            names = ", ".join(hero_index()[i].name for i in ids)
            raise IllegalAction(f"Name all five of your heroes once each, left to right: {names}.")
        by_id = {h.id: h for h in me.party}
        if by_id[wanted[-1]].wounded and any(not h.wounded for h in me.party):
            raise IllegalAction(f"{hero_index()[wanted[-1]].name} is wounded and cannot lead: put an unwounded "
                                "hero at the right-hand end.")
        if wanted == ids:
            return
        me.party = [by_id[i] for i in wanted]
        events.append(Reordered(seat=seat, heroes=wanted))

    def _note(self, s: State, seat: int, action: SceneNote, events: list[Any]) -> None:
        scene = s.scene
        text = " ".join(action.text.split())
        if not text:
            raise IllegalAction("Write the note: `/narrate note:` followed by a line about the room.")
        if len(text) > NOTE_MAX:
            raise IllegalAction(f"Keep a scene note under {NOTE_MAX} characters ({len(text)} now).")
        if scene is None:
            raise IllegalAction("No room has been entered yet: a scene note goes on the room most recently "
                                "explored.")
        writer = scene["narrator"] if scene.get("narrator") is not None else scene["explorer"]
        if seat != writer:
            role = "its Narrator" if scene.get("narrator") is not None else "the player who explored it"
            raise NotYourTurn(f"Only {role}, {s.players[writer].name}, can pin a note to "
                              f"{room_label(scene['room'], self.room_names(s))}.")
        s.notes[scene["room"]] = SceneNoteEntry(text=text, by=seat)
        events.append(NoteAdded(seat=seat, room=scene["room"], text=text))

    def _go(self, s: State, seat: int, action: Place | Move, rng: Rng, events: list[Any]) -> None:
        self._check_turn(s, seat)
        expected = STEP_ACTIONS[s.phase]
        if not isinstance(action, expected):
            raise IllegalAction(self._phase_hint(s, seat))
        allowed = self.destinations(s, seat)
        if action.to not in allowed:
            raise IllegalAction(self._refusal(s, seat, action.to, allowed))
        me = s.players[seat]
        s.last_move = None
        if isinstance(action, Place):
            me.doorway = action.to
            events.append(Placed(seat=seat, doorway=action.to))
            self._end_turn(s, events)
        else:
            assert me.doorway is not None
            frm = me.doorway
            through = self.board.room_of(frm) if action.to == frm else self.board.via[(frm, action.to)]
            events.append(Moved(seat=seat, frm=frm, to=action.to, via_room=through))
            if through is not None and s.rooms[through]:
                room = through
                me.doorway = None  # inside the room now
                s.exploring = Exploration(room=room, came_from=frm, heading=action.to)
                s.phase = "explore"
                left = s.rooms[room][0]
                resumed = card_index()[left].kind != "room"
                events.append(Entered(seat=seat, room=room, came_from=frm, resumed=resumed))
                s.scene = {"room": room, "narrator": self.narrator(s), "explorer": seat}
                if room in s.notes:
                    note = s.notes[room]
                    events.append(NoteRead(room=room, text=note.text, by=note.by))
                s.exploring.pending = s.rooms[room].pop(0)
                s.exploring.pending_from_room = True
                if resumed and self.expanded(s):  # the danger left here: choose who faces it first
                    self._announce(s, seat, card_index()[left].kind, events, waiting=left)
                    return
                self._run_exploration(s, rng, events)
            else:
                me.doorway = action.to
                s.last_move = {"seat": seat, "from": frm, "to": action.to}
                if through is not None and through in s.notes:  # walking through a room told of before
                    note = s.notes[through]
                    events.append(NoteRead(room=through, text=note.text, by=note.by))
                self._end_turn(s, events)

    def _narrate(self, s: State, seat: int, action: Narrate, rng: Rng, events: list[Any]) -> None:
        if s.phase != "explore" or s.exploring is None or s.exploring.pending is None:
            raise IllegalAction("There is no card to narrate right now. Narration happens while a room is explored.")
        if s.exploring.decision is not None:  # the explorer is choosing a Leader: the card waits for that
            self._check_turn(s, seat)
        narrator = self.narrator(s)
        if narrator is None:
            raise IllegalAction("Tabula is narrating this game, so there is nothing for you to read out.")
        if seat != narrator:
            raise NotYourTurn(f"{s.players[narrator].name} is the Narrator for this room, not you.")
        words = action.text.strip()
        if len(words) > NARRATION_MAX:
            raise IllegalAction(f"Keep the telling under {NARRATION_MAX} characters ({len(words)} now).")
        self._read_pending(s, rng, events, narrator=None if action.auto or not words else narrator,
                           words=words, auto=action.auto)
        self._run_exploration(s, rng, events)

    # --- exploration --------------------------------------------------------------------------

    def _run_exploration(self, s: State, rng: Rng, events: list[Any]) -> None:
        """Read cards until the room ends, a fighter is wounded, or a human Narrator must speak."""
        while (s.phase == "explore" and s.exploring is not None and s.exploring.pending is not None
               and s.exploring.decision is None):
            narrator = self.narrator(s)
            if narrator is not None:
                kind = card_index()[s.exploring.pending].kind
                events.append(AwaitNarration(narrator=narrator, explorer=self.current(s), kind=kind))
                return
            self._read_pending(s, rng, events, narrator=None, words="", auto=False)

    def _read_pending(self, s: State, rng: Rng, events: list[Any], *, narrator: int | None, words: str,
                      auto: bool) -> None:
        ex = s.exploring
        assert ex is not None and ex.pending is not None
        seat = self.current(s)
        card = card_index()[ex.pending]
        again = ex.pending_from_room and card.kind in ("monster", "hazard")
        ex.pending = None
        ex.pending_from_room = False
        events.append(CardRead(seat=seat, card=card.id, narrator=narrator, words=words, auto=auto, again=again))
        me = s.players[seat]
        if card.kind == "room":
            s.revealed[ex.room] = card.id
            ex.used.append(card.id)
        elif card.kind == "feature":
            ex.used.append(card.id)
        elif card.kind == "treasure":
            me.treasure.append(card.id)
            events.append(TreasureTaken(seat=seat, card=card.id, gold=card.gold))
        elif self.expanded(s):
            self._meet_danger(s, seat, card, rng, events)
            return
        elif not self._face_danger(s, seat, card, rng, events):
            return
        self._follow_arrow(s, card, rng, events)

    def _follow_arrow(self, s: State, card: ActionCard, rng: Rng, events: list[Any]) -> None:
        """End of Room, or the next card: in the Expanded Game a Monster or Hazard is announced first."""
        ex = s.exploring
        assert ex is not None
        if card.next == "end":
            self._room_done(s, events)
        elif self.expanded(s) and card.next in ("monster", "hazard"):
            self._announce(s, self.current(s), card.next, events)
        else:
            ex.pending = self._draw(s, card.next, rng, events)
            if ex.pending is None:  # a pile ran dry even after reshuffling: the room has nothing more
                self._room_done(s, events)

    def _announce(self, s: State, seat: int, kind: str, events: list[Any], *, waiting: str = "") -> None:
        """The Narrator says what kind of card is coming (or which danger waits on the room); the player may
        change Leader before it is turned up."""
        ex = s.exploring
        assert ex is not None
        lead = self.leader(s, seat)
        assert lead is not None
        ex.decision = "leader"
        ex.coming = kind
        events.append(DangerComing(seat=seat, kind=kind, leader=lead.id, waiting=waiting))

    def _face_danger(self, s: State, seat: int, card: ActionCard, rng: Rng, events: list[Any]) -> bool:
        """Fight the Monster or face the Hazard.  True when overcome; False when the fighter is wounded."""
        me = s.players[seat]
        fighter = fighter_index()[me.fighter]
        need = card.needs[fighter.dot]
        if card.kind == "hazard":
            roll = rng.die(20)
            events.append(FightRoll(seat=seat, card=card.id, who="fighter", roll=roll, need=need, success=roll >= need))
            if roll < need:
                self._wound(s, seat, card, events)
                return False
        else:
            assert card.dot is not None
            strike = fighter.defence[card.dot]
            while True:
                roll = rng.die(20)
                events.append(FightRoll(seat=seat, card=card.id, who="fighter", roll=roll, need=need,
                                        success=roll >= need))
                if roll >= need:
                    break
                back = rng.die(20)
                events.append(FightRoll(seat=seat, card=card.id, who="monster", roll=back, need=strike,
                                        success=back >= strike))
                if back >= strike:
                    self._wound(s, seat, card, events)
                    return False
        assert s.exploring is not None
        s.exploring.used.append(card.id)
        events.append(Overcame(seat=seat, card=card.id))
        return True

    def _wound(self, s: State, seat: int, card: ActionCard, events: list[Any]) -> None:
        ex = s.exploring
        assert ex is not None
        me = s.players[seat]
        me.wounded = True
        me.wounds += 1
        me.doorway = ex.came_from
        s.rooms[ex.room] = [card.id]  # face down on the room, waiting for the next fighter
        self._discard(s, ex.used)
        events.append(Wounded(seat=seat, card=card.id, room=ex.room, back_to=ex.came_from, wounds=me.wounds))
        s.exploring = None
        if s.mode == "solo" and me.wounds >= SOLO_WOUND_LIMIT:
            self._finish(s, events, f"{me.name}'s fighter has taken {SOLO_WOUND_LIMIT} wounds and leaves the dungeon.")
            return
        s.phase = "move"
        self._end_turn(s, events)

    def _room_done(self, s: State, events: list[Any]) -> None:
        ex = s.exploring
        assert ex is not None
        seat = self.current(s)
        s.rooms[ex.room] = []
        self._discard(s, ex.used)
        name = card_index()[s.revealed[ex.room]].title if ex.room in s.revealed else ex.room
        events.append(RoomExplored(seat=seat, room=ex.room, name=name))
        # The fighter leaves by the doorway the player chose when walking in (the book's "your choice", made
        # up front so that a game by message needs no extra question; the entry doorway was on offer too).
        # Nobody else moves during a turn, so it is still free.
        s.players[seat].doorway = ex.heading
        s.exploring = None
        if all(not stack for stack in s.rooms.values()):
            self._finish(s, events, "Every room of the Dungeons of Legend has been explored.")
            return
        s.last_move = {"seat": seat, "from": ex.came_from, "to": ex.heading}
        events.append(Exited(seat=seat, room=ex.room, to=ex.heading))
        s.phase = "move"
        self._end_turn(s, events)

    def _discard(self, s: State, used: list[str]) -> None:
        index = card_index()
        for cid in used:
            kind = index[cid].kind
            if kind != "treasure":
                s.discards.setdefault(kind, []).append(cid)

    def _draw(self, s: State, kind: str, rng: Rng, events: list[Any]) -> str | None:
        pile = s.piles[kind]
        if not pile:
            back = s.discards.get(kind, [])
            if not back:
                return None
            s.piles[kind] = pile = rng.shuffle(back)
            s.discards[kind] = []
            events.append(Reshuffled(pile=kind, cards=len(pile)))
        return pile.pop(0)

    # --- turns --------------------------------------------------------------------------------

    def _end_turn(self, s: State, events: list[Any]) -> None:
        if s.phase == "over":
            return
        n = len(s.order)
        if s.phase == "place":
            s.turn += 1
            if s.turn >= n:  # everyone is in: the first player makes the first move
                s.turn = 0
                s.phase = "move"
        else:
            s.turn = (s.turn + 1) % n
            s.phase = "move"
        s.turn_no += 1
        seat = self.current(s)
        events.append(TurnBegan(seat=seat, turn_no=s.turn_no))
        me = s.players[seat]
        if me.wounded:  # "at the start of your next turn your Fighter has recovered"
            me.wounded = False
            events.append(Recovered(seat=seat))
        if me.overwhelmed:  # the whole party was wounded: this turn is spent recovering
            me.overwhelmed = False
            healed = [h.id for h in me.party if h.wounded]
            for h in me.party:
                h.wounded = False
            events.append(PartyRecovered(seat=seat, healed=healed))
            self._end_turn(s, events)
            return
        if s.phase == "move" and not self.destinations(s, seat):
            s.skips_in_row += 1
            events.append(Skipped(seat=seat, reason="every doorway within reach is taken"))
            if s.skips_in_row >= n:
                self._finish(s, events, "No fighter can move any more.")
                return
            self._end_turn(s, events)
        else:
            s.skips_in_row = 0

    def gold(self, s: State, seat: int) -> int:
        index = card_index()
        return sum(index[c].gold for c in s.players[seat].treasure)

    def _finish(self, s: State, events: list[Any], reason: str) -> None:
        s.phase = "over"
        s.exploring = None
        gold = {i: self.gold(s, i) for i in range(len(s.players))}
        best = max(gold.values())
        winners = [i for i, g in gold.items() if g == best]
        events.append(GameEnded(winners=winners, gold=gold, reason=reason))

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        gold = {i: self.gold(state, i) for i in range(len(state.players))}
        best = max(gold.values())
        winners = tuple(i for i, g in gold.items() if g == best)
        names = " and ".join(state.players[i].name for i in winners)
        if state.mode == "solo":
            summary = f"{names} leaves the dungeon with {best} gold pieces."
        elif len(winners) > 1:
            summary = f"{names} share the victory with {best} gold pieces each."
        else:
            summary = f"{names} wins with {best} gold pieces."
        return Outcome(winners=winners, scores=gold, summary=summary)

    # --- what a seat may see ------------------------------------------------------------------

    def room_names(self, state: State) -> dict[str, str]:
        index = card_index()
        return {room: index[cid].title for room, cid in state.revealed.items()}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The public picture of the game, plus (for ``seat``) what only that seat may see."""
        index = card_index()
        names = self.room_names(state)
        rooms: dict[str, dict[str, Any]] = {}
        inside_room = state.exploring.room if state.exploring else None
        for room, stack in state.rooms.items():
            if room == inside_room:  # its cards are in the Narrator's hands: not explored yet
                status = "unexplored"
            elif not stack:
                status = "explored"
            elif index[stack[0]].kind == "room":
                status = "unexplored"
            else:
                status = "partly"
            waiting = index[stack[0]].title if status == "partly" and stack else None
            rooms[room] = {"status": status, "name": names.get(room), "waiting": waiting}
        inside = state.exploring.room if state.exploring else None
        current = self.current(state) if state.phase != "over" else None
        fighters_: list[dict[str, Any]] = [
            {
                "seat": i, "player": p.name, "colour": p.colour, "letter": p.letter,
                "fighter": fighter_index()[p.fighter].name, "fighter_id": p.fighter,
                "doorway": p.doorway, "in_room": inside if i == current and p.doorway is None else None,
                "wounded": p.wounded, "wounds": p.wounds, "gold": self.gold(state, i),
                "treasure": [index[c].title for c in p.treasure],
            }
            for i, p in enumerate(state.players)
        ]
        if self.expanded(state):
            for f, p in zip(fighters_, state.players, strict=True):
                party = [{"id": h.id, "name": hero_index()[h.id].name, "class": hero_index()[h.id].kind,
                          "wounded": h.wounded} for h in p.party]
                lead = party[-1] if party and not party[-1]["wounded"] else None
                f["party"] = party
                f["leader"] = lead["id"] if lead else None
                f["fighter"] = lead["name"] if lead else f["fighter"]  # the token is named after the Leader
                f["wounded"] = lead is None
                f["has_spell"] = p.spell is not None
                f["overwhelmed"] = p.overwhelmed
        explored = sum(1 for r in rooms.values() if r["status"] == "explored")
        view: dict[str, Any] = {
            "mode": state.mode, "narration": state.narration, "phase": state.phase,
            "turn_no": state.turn_no, "rooms": rooms, "fighters": fighters_, "to_move": current,
            "to_act": sorted(self.to_act(state)), "narrator": self.narrator(state),
            "highlight": self.destinations(state, current) if current is not None else [],
            "explored": explored, "room_count": len(rooms), "last_move": state.last_move,
            "caption": self._caption(state, explored, len(rooms)),
        }
        ex = state.exploring
        if ex is not None:
            view["decision"] = ex.decision
            view["coming"] = ex.coming or None
            view["danger"] = ex.danger
        view["notes"] = {room: note.text for room, note in state.notes.items()}
        if seat is not None and ex and ex.pending and ex.decision is None and seat == self.narrator(state):
            view["narrator_card"] = ex.pending
        if seat is not None and self.expanded(state):
            view["spell"] = state.players[seat].spell  # a party's spell is seen by its own player only
        return view

    def _caption(self, state: State, explored: int, total: int) -> str:
        if state.phase == "over":
            out = self.outcome(state)
            return out.summary if out else "Game over"
        p = state.players[self.current(state)]
        verb = {"place": "to enter the dungeon", "move": "to move", "explore": "exploring"}[state.phase]
        ex = state.exploring
        if ex is not None and ex.decision == "leader":
            verb = f"choosing a Leader: a {ex.coming.title()} is coming"
        elif ex is not None and ex.decision is not None and ex.danger is not None:
            verb = f"fighting the {card_index()[ex.danger].title}"
        return f"{p.name} ({p.colour}) {verb} · {explored} of {total} rooms explored"

    # --- words for people ---------------------------------------------------------------------

    def label(self, state: State, doorway: str) -> str:
        """A destination as a person reads it on the board, with what the move will do."""
        text = self.board.label(doorway, self.room_names(state))
        me = state.players[self.current(state)]
        if state.phase == "move" and me.doorway:
            names = self.room_names(state)
            if doorway == me.doorway:
                room = self.board.room_of(doorway)
                return f"{doorway} — explore {room_label(room or '', names)} and come back out here"
            room = self.board.via.get((me.doorway, doorway))
            if room is not None and state.rooms[room]:
                text += f" (through {room_label(room, names)}: explore it)"
        return text

    def _phase_hint(self, s: State, seat: int) -> str:
        hints = {
            "place": "First choose your starting doorway beside an entrance with `/explore to:`.",
            "move": "Move with `/explore to:` to a doorway linked by one corridor or one room.",
        }
        if self.expanded(s) and s.phase == "move":
            return hints["move"] + " Or rest a turn with `/study` or `/heal`."
        return hints.get(s.phase, "That is not something you can do now.")

    def _refusal(self, s: State, seat: int, wanted: str, allowed: list[str]) -> str:
        listed = ", ".join(allowed[:12]) + (" …" if len(allowed) > 12 else "")
        taken = self.occupied(s)
        if wanted not in self.board.doorways:
            why = f"There is no doorway called **{wanted[:20]}** on the board."
        elif wanted in taken and wanted != s.players[seat].doorway:
            why = f"{wanted} is taken by another fighter."
        elif s.phase == "place":
            why = f"{wanted} is not beside a free dungeon entrance."
        else:
            why = f"{wanted} is not linked to your doorway by a single corridor or room."
        return f"{why} You can go to: {listed}." if allowed else why

    # --- verbs: what the shared slash commands mean in this game ------------------------------

    verbs: ClassVar[dict[str, str]] = {
        "explore": "`/explore to:` to enter the dungeon or move to a doorway",
        "narrate": "`/narrate text:` to tell the card in your hand as Narrator (`note:` pins a scene note)",
        "roll": "`/roll expr:` to roll dice for everyone to see",
    }
    expanded_verbs: ClassVar[dict[str, str]] = {
        "attack": "`/attack` for your Leader to strike (or face the Hazard again)",
        "cast": "`/cast` for your Magic User, leading, to cast his spell",
        "study": "`/study` to miss a turn while your Magic User learns a new spell",
        "heal": "`/heal` to miss a turn while your Cleric tends the wounded",
        "party": "`/party` to see and reorder your party",
    }

    def verbs_for(self, state: State) -> dict[str, str]:
        return {**self.verbs, **self.expanded_verbs} if self.expanded(state) else dict(self.verbs)

    def parse(self, state: State, seat: int, verb: str, args: dict[str, str]) -> LegendAction:
        """Turn a slash command or a button into an action, or explain what the verb needs."""
        if verb == "explore":
            to = (args.get("to") or "").strip().upper().split(" ")[0]
            if not to:
                raise IllegalAction("Tell me where to go: `/explore to:D7` (the list offers every free doorway).")
            if not to.startswith("D") and to.isdigit():
                to = "D" + to
            kind = STEP_ACTIONS.get(state.phase)
            if kind is None:
                if state.phase == "over":
                    raise GameOver("This game has ended. Start a new one with `/game new`.")
                self._check_turn(state, seat)
                raise IllegalAction("Wait for the room's story to finish before you move.")
            return kind(to=to)
        if verb == "narrate":
            if args.get("note"):
                return SceneNote(text=args["note"])
            return Narrate(text=args.get("text") or "")
        if verb == "note":
            return SceneNote(text=args.get("text") or args.get("note") or "")
        if verb == "roll":
            return Roll(expr=args.get("expr") or "")
        if verb in self.expanded_verbs or verb in ("lead", "keep", "retreat", "order", "front", "back"):
            if not self.expanded(state):
                raise IllegalAction(f"`/{verb}` belongs to the Expanded Game; this is the {state.mode} game. Use "
                                    + "; ".join(self.verbs_for(state).values()) + ".")
            if verb in ("study", "heal"):
                return Rest()
            if verb in ("front", "back"):  # `/party`: put one hero at the front (Leader) or at the back
                hero = self._hero_id(state, seat, args.get("hero") or "")
                rest = [h.id for h in state.players[seat].party if h.id != hero]
                return Order(heroes=[*rest, hero] if verb == "front" else [hero, *rest])
            if verb in ("lead", "keep", "party", "order"):
                hero = (args.get("hero") or "").strip()
                if verb == "keep" or (verb == "lead" and not hero):
                    return Keep()
                if verb == "lead":
                    return Lead(hero=self._hero_id(state, seat, hero))
                order = [self._hero_id(state, seat, h) for h in (args.get("order") or "").split(",") if h.strip()]
                return Order(heroes=order)
            if verb == "cast":
                return Cast()
            return Retreat() if verb == "retreat" else Attack()
        raise IllegalAction(f"Legend of Heroes has no `/{verb}`. Use " + "; ".join(self.verbs_for(state).values())
                            + ".")

    def _hero_id(self, state: State, seat: int, typed: str) -> str:
        """A hero of the seat's party from an id or a name as typed."""
        wanted = typed.strip().lower()
        for h in state.players[seat].party:
            hero = hero_index()[h.id]
            if wanted in (hero.id, hero.name.lower()):
                return hero.id
        names = ", ".join(hero_index()[h.id].name for h in state.players[seat].party)
        raise IllegalAction(f"There is no **{typed[:30]}** in your party. Your heroes: {names}.")

    def hero_label(self, state: State, seat: int, hero: Hero) -> str:
        """"Rolf the Dwarf — needs 9" (against the danger in hand, when there is one)."""
        text = f"{hero.name} the {CLASS_NAMES[hero.kind]}"
        ex = state.exploring
        if ex is not None and ex.danger is not None:
            text += f" — needs {need(card_index()[ex.danger], hero)}"
        return text

    def choices(self, state: State, seat: int, verb: str, option: str) -> list[tuple[str, str]]:
        """Autocomplete: every legal value for a verb's option, labelled for people (at most 25)."""
        if verb == "explore" and option == "to":
            return [(self.label(state, d), d) for d in self.destinations(state, seat)][:25]
        if verb == "lead" and option == "hero" and any(isinstance(a, Lead) for a in self.legal(state, seat)):
            return [(self.hero_label(state, seat, h), h.id) for h in self.can_lead(state, seat)]
        if verb in ("front", "back") and option == "hero" and self.expanded(state):
            party = state.players[seat].party
            pick = [h for h in party[:-1] if not h.wounded] if verb == "front" else party[1:]
            return [(f"{hero_index()[h.id].name} the {CLASS_NAMES[hero_index()[h.id].kind]}"
                     + (" (wounded)" if h.wounded else ""), h.id) for h in pick]
        return []

    def command(self, state: State, seat: int, rng: Any) -> str:
        """A random legal move typed as a player would type it (the terminal runner's `--auto`); heads for
        rooms that still hold cards most of the time, as a player would."""
        legal = self.legal(state, seat)
        action = rng.choice(legal)
        onward = [a for a in legal if isinstance(a, (Keep, Attack))]
        if isinstance(action, Lead) and onward and rng.random() < 0.7:  # players mostly press on
            action = onward[0]
        if isinstance(action, (Place, Move)):
            promising = [v for label, v in self.choices(state, seat, "explore", "to") if "explore" in label]
            if isinstance(action, Move) and promising and rng.random() < 0.8:
                return f"/explore to:{rng.choice(promising)}"
            return f"/explore to:{action.to}"
        if isinstance(action, Narrate):
            return "/narrate text:The Narrator leans in and reads the card aloud."
        if isinstance(action, Lead):
            return f"/lead hero:{action.hero}"
        if isinstance(action, Rest):
            return "/study"
        return "/" + {Keep: "keep", Attack: "attack", Cast: "cast", Retreat: "retreat"}.get(type(action), "help")

    # --- what happens when a player is away ---------------------------------------------------

    def timeout(self, state: State) -> tuple[int, LegendAction] | None:
        """The action Tabula takes for an absent Narrator once the game's narrator timeout passes."""
        narrator = self.narrator(state)
        ex = state.exploring
        if state.phase == "explore" and narrator is not None and ex and ex.pending and ex.decision is None:
            return narrator, Narrate(auto=True)
        return None
