"""Legend of Heroes — starter game, solo game and Expanded Game — as a pure ruleset.

The turn: a fighter moves from one red doorway square to another linked by one corridor or one room.  A
move through a room that still holds Action cards stops there to explore it: the Narrator reads the cards
one by one, following the red arrows, and monsters and hazards are fought with d20 rolls against the
numbers on the cards.  House rules (where the book is silent) are listed in ``rules/legend/RULES.md``.

This module is the ruleset's face: setup, what is legal, the dispatch of an action, and what Tabula plays for
an absent or automatic seat.  The rooms are explored in ``explore.py``, parties fight in ``expanded.py``, the
commands are read in ``commands.py`` and the views built in ``view.py``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal, cast

from rules import dice as dice_expr
from rules.core import GameOver, IllegalAction, NotYourTurn, Rng, SeatInfo, Step, copier, seed_state
from rules.legend.board import Board
from rules.legend.commands import LegendCodec
from rules.legend.content import cards, fighters
from rules.legend.expanded import PartyRules
from rules.legend.i18n import _, _n
from rules.legend.spec import SPEC
from rules.legend.state import (
    COLOURS,
    FREE_ACTIONS,
    Attack,
    Cast,
    Dealt,
    Keep,
    Lead,
    LegendAction,
    LegendEvent,
    Mode,
    Move,
    Narrate,
    Order,
    Place,
    Player,
    Rest,
    Retreat,
    Roll,
    Rolled,
    RollOff,
    RoomsDealt,
    SceneNote,
    Shuffled,
    State,
    TurnBegan,
)
from rules.legend.table import STEP_ACTIONS
from rules.legend.variants import secret_variants
from rules.legend.view import LegendView, build_view
from rules.spec import ActionMeta, GameSpec

PILES = ("feature", "monster", "hazard", "treasure")

_copy = copier(State)


class LegendOfHeroes(PartyRules):
    """The starter game (2–5 fighters), the solo game (1 fighter, eight wounds) and the Expanded Game."""

    def __init__(self, plan: Board | None = None, *, dice: type[Rng] = Rng) -> None:
        super().__init__(plan, dice=dice)
        self._codec = LegendCodec(self)

    # --- what the platform reads ------------------------------------------------------------------

    @property
    def spec(self) -> GameSpec:
        return SPEC

    @property
    def state_type(self) -> type[State]:
        return State

    @property
    def action_type(self) -> object:
        return LegendAction

    @property
    def codec(self) -> LegendCodec:
        return self._codec

    # --- setup ------------------------------------------------------------------------------------

    def check_options(self, options: Mapping[str, object], players: int) -> dict[str, object]:
        """Normalise the lobby options and refuse a table that does not fit them."""
        mode = options.get("mode") or ("solo" if players == 1 else "starter")
        if mode not in ("starter", "solo", "expanded"):
            raise IllegalAction(_("Legend of Heroes has three modes here: **starter** (2–5 players), **solo**, or "
                                  "**expanded** (parties of five heroes, 1–5 players)."))
        narration = options.get("narration") or "bot"
        if narration not in ("bot", "players"):
            raise IllegalAction(_("Narration can be **bot** (Tabula reads the cards) or **players**."))
        if mode == "solo" and players != 1:
            raise IllegalAction(_n("The solo game is for one player; {n} is seated. Start a starter game.",
                                   "The solo game is for one player; {n} are seated. Start a starter game.", players))
        if mode == "starter" and not 2 <= players <= 5:
            raise IllegalAction(
                _("The starter game needs 2 to 5 players ({n} seated). One player can play solo.", n=players)
            )
        if mode == "expanded" and not 1 <= players <= 5:
            raise IllegalAction(_("The Expanded Game takes 1 to 5 players ({n} seated).", n=players))
        if players == 1:
            narration = "bot"  # nobody sits to the right of a lone player
        return {**options, "mode": mode, "narration": narration}

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step[State, LegendEvent]:
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
            mode=cast(Mode, opts["mode"]), narration=cast(Literal["bot", "players"], opts["narration"]), rng=0,
            players=players, order=order, rooms=rooms, piles=piles, discards={"room": left_over}, phase="place",
        )
        if state.mode == "expanded":
            self.deal_parties(state, rng, events)
        events.append(TurnBegan(seat=order[0], turn_no=1))
        state.rng = rng.state
        return Step(state=state, events=tuple(events))

    # --- what is legal ----------------------------------------------------------------------------

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

    # --- applying an action -----------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: LegendAction) -> Step[State, LegendEvent]:
        if state.phase == "over":
            raise GameOver(_("This game has ended. Start a new one with `/game new`."))
        if not 0 <= seat < len(state.players):
            raise NotYourTurn(_("You are not playing in this game."))
        s = _copy(state)
        rng = self.dice(s.rng)
        events: list[Any] = []
        if isinstance(action, Narrate):
            self._narrate(s, seat, action, rng, events)
        elif isinstance(action, (Place, Move)):
            self._go(s, seat, action, rng, events)
        elif isinstance(action, Roll):  # kept so that the logs of older games replay: `/roll` is the platform's
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

    def meta(self, action: LegendAction) -> ActionMeta:
        """Notes and reorders are free; anything that rolls a die or turns a card up cannot be taken back."""
        if isinstance(action, (SceneNote, Order)):
            return ActionMeta(free=True)
        if isinstance(action, Roll):
            return ActionMeta(free=True, undoable=False)
        if isinstance(action, (Place, Retreat)):
            return ActionMeta()
        return ActionMeta(undoable=False)

    # --- what a seat may see ----------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> LegendView:
        """The public picture of the game, plus (for ``seat``) what only that seat may see."""
        return build_view(self, self._codec, state, seat)

    def secret_variants(self, state: State, seat: int) -> Iterator[State]:
        """States that differ only in what ``seat`` alone knows, or nobody does (see ``variants.py``)."""
        return secret_variants(self, state, seat)

    # --- what Tabula plays ------------------------------------------------------------------------

    def timeout(self, state: State) -> tuple[int, LegendAction] | None:
        """The action Tabula takes for an absent Narrator once the game's narrator timeout passes."""
        narrator = self.narrator(state)
        ex = state.exploring
        if state.phase == "explore" and narrator is not None and ex and ex.pending and ex.decision is None:
            return narrator, Narrate(auto=True)
        return None

    def policy(self, state: State, seat: int, rng: Rng) -> LegendAction | None:
        """A move as a player makes it: mostly press on in a fight, mostly head for rooms that still hold
        cards; a Narrator lets Tabula read the card."""
        legal = self.legal(state, seat)
        if not legal:
            return None
        action = legal[rng.below(len(legal))]
        onward = [a for a in legal if isinstance(a, (Keep, Attack))]
        if isinstance(action, (Lead, Retreat)) and onward and rng.below(10) < 7:  # players mostly press on
            return onward[0]
        if isinstance(action, Move):
            promising = [a for a in legal if isinstance(a, Move) and self.explores(state, seat, a.to)]
            if promising and rng.below(10) < 8:
                return promising[rng.below(len(promising))]
        return action

    def explores(self, state: State, seat: int, to: str) -> bool:
        """Whether moving to ``to`` walks through a room that still holds cards."""
        here = state.players[seat].doorway
        if here is None:
            return False
        room = self.board.room_of(here) if to == here else self.board.via.get((here, to))
        return room is not None and bool(state.rooms.get(room))
