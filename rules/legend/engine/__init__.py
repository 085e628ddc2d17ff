"""Legend of Heroes — starter game, solo game and Expanded Game — as a pure ruleset.

The turn: a fighter moves from one red doorway square to another linked by one corridor or one room.  A
move through a room that still holds Action cards stops there to explore it: the Narrator reads the cards
one by one, following the red arrows, and monsters and hazards are fought with d20 rolls against the
numbers on the cards.  House rules (where the book is silent) are listed in ``rules/legend/RULES.md``.

The engine is composed of its parts: the ``table`` every rule asks about (``table.py``: whose turn, who
narrates, where a fighter may go, how a turn passes), the ``explorer`` (``explore.py``: moves, rooms, cards and
the starter game's fights) and the Expanded Game's ``party`` (``party.py``).  Here: setup, what is legal and
the dispatch of an action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, cast

from rules import dice as dice_expr
from rules.core import GameOver, NotYourTurn, Outcome, Rng, SeatInfo, Step, copier, seed_state
from rules.legend.board import Board
from rules.legend.content import cards, fighters
from rules.legend.engine.explore import Explorer
from rules.legend.engine.party import Party
from rules.legend.engine.table import STEP_ACTIONS, Table
from rules.legend.i18n import _
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

PILES = ("feature", "monster", "hazard", "treasure")

_copy = copier(State)


class Engine:
    """The starter game (2–5 fighters), the solo game (1 fighter, eight wounds) and the Expanded Game."""

    def __init__(self, plan: Board | None = None, *, dice: type[Rng] = Rng) -> None:
        self.table = Table(plan, dice=dice)
        self.explorer = Explorer(self.table)
        self.party = Party(self.table, self.explorer)
        self.explorer.party = self.party

    # --- setup ------------------------------------------------------------------------------------

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step[State, LegendEvent]:
        opts = options
        rng = self.table.dice(seed_state(seed))
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
        rooms = {room: [room_cards[i]] for i, room in enumerate(self.table.board.room_ids)}
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
            self.party.deal_parties(state, rng, events)
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
                return [Narrate()] if seat == self.table.narrator(state) else []
            if seat != self.table.current(state):
                return []
            out: list[LegendAction] = []
            if ex.decision == "leader":
                out.append(Keep())
            else:
                out.append(Attack())
                if self.table.can_cast(state, seat):
                    out.append(Cast())
            if ex.decision == "fight":
                out.append(Retreat())
            if ex.decision in ("leader", "fight"):
                out += [Lead(hero=h.id) for h in self.table.can_lead(state, seat)]
            return out
        kind = STEP_ACTIONS.get(state.phase)
        if kind is None:
            return []
        moves: list[LegendAction] = [kind(to=d) for d in self.table.destinations(state, seat)]
        if self.table.expanded(state) and state.phase == "move" and seat == self.table.current(state):
            healed, _healer, studying = self.table.rest_plan(state, seat)
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
        rng = self.table.dice(s.rng)
        events: list[Any] = []
        if isinstance(action, Narrate):
            self.explorer.narrate(s, seat, action, rng, events)
        elif isinstance(action, (Place, Move)):
            self.explorer.go(s, seat, action, rng, events)
        elif isinstance(action, Roll):  # kept so that the logs of older games replay: `/roll` is the platform's
            terms = dice_expr.parse(action.expr)
            rolled, total = dice_expr.roll(terms, rng)
            events.append(Rolled(seat=seat, expr=dice_expr.normalise(terms), dice=rolled, total=total))
        elif isinstance(action, SceneNote):
            self.explorer.note(s, seat, action, events)
        else:
            self.party.act(s, seat, action, rng, events)
        if not isinstance(action, FREE_ACTIONS):
            s.moment += 1
        s.rng = rng.state
        return Step(state=s, events=tuple(events))

    def moment(self, state: State) -> int:
        """Changes whenever what may be done next changes: buttons carry it, so an old one is refused."""
        return state.moment

    def to_act(self, state: State) -> frozenset[int]:
        return self.table.to_act(state)

    def outcome(self, state: State) -> Outcome | None:
        return self.table.outcome(state)
