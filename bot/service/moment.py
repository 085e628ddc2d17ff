"""The one concrete ``Moment``: the game after a start, a move or a look, as presenters read it.

It holds the raw state privately (only the game's own ruleset and codec read it) and hands presenters the
views, the events and the legal choices already named by the codec."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from bot.present.base import Choice, SeatName
from rules import table
from rules.core import Outcome
from rules.spec import ActionMeta, Command, GameSpec, Ruleset

V = TypeVar("V")


@dataclass(slots=True)
class GameMoment(Generic[V]):
    game_id: int
    rules: Ruleset[Any, Any, V]
    _state: Any
    seats: Sequence[SeatName]
    status: str = "active"
    version: int = 0
    events: tuple[object, ...] = ()
    actor: int | None = None
    action: object | None = None
    by_tabula: bool = False
    thread_id: int | None = None
    channel_id: int | None = None
    options: dict[str, object] = field(default_factory=dict)
    _before: Any = None  # the state the action was taken in (to name it with the codec)
    #: When the turn clock runs out (None: no clock running), and whether it is stopped (see bot.longplay.clock).
    clock_deadline: float | None = None
    paused: int = 0
    #: The game's language: what is posted in its thread is told in it (``rules.i18n.using``).
    language: str = "en"
    #: An undo's moment: the seat and the action it took back (the game stands as before that action).
    undone: tuple[int, object] | None = None
    #: Tabula's second or later move standing in for one timed-out seat (bot.service.play ``_stand_in``): the run
    #: is told as one, and its "did not answer" line once, at the first move.
    stand_in_again: bool = False

    @property
    def spec(self) -> GameSpec:
        return self.rules.spec

    #: Tabula's moves right after this one (automatic seats), to be told after it, in order.
    followups: list[GameMoment[V]] = field(default_factory=list)

    @property
    def state(self) -> Any:
        """The raw state: for the platform's service and for tests. Presenters read ``view()``."""
        return self._state

    @property
    def command(self) -> Command | None:
        if self.action is None or self.actor is None:
            return None
        if table.is_table(self.action):
            return table.encode(self.action)
        if self._before is None:
            return None
        return self.rules.codec.encode(self._before, self.actor, self.action)

    @property
    def meta(self) -> ActionMeta:
        if self.action is None:
            return ActionMeta()
        if table.is_table(self.action):
            return table.meta(self.action)
        return self.rules.meta(self.action)

    @property
    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self._state)

    @property
    def to_act(self) -> frozenset[int]:
        if self.status != "active":
            return frozenset()
        return self.rules.to_act(self._state)

    @property
    def auto_seat(self) -> bool:
        """The acting seat is one Tabula plays itself (a move by Tabula there is no timeout)."""
        return self.actor is not None and any(s.seat == self.actor and s.user_id < 0 for s in self.seats)

    @property
    def timed_out(self) -> bool:
        """Tabula moved for a person whose turn clock ran out, and this is the first such move of the run: the
        presenters say so, once."""
        return self.by_tabula and not self.auto_seat and self.actor is not None and not self.stand_in_again

    @property
    def table_events(self) -> bool:
        """The action was the table's own (a roll): its events are the platform's to tell."""
        return self.action is not None and table.is_table(self.action)

    @property
    def stamp(self) -> int:
        """What controls carry, to be refused once stale: the ruleset's moment."""
        return self.rules.moment(self._state)

    def view(self, seat: int | None = None) -> V:
        return self.rules.view(self._state, seat)

    def choices(self, seat: int) -> list[Choice]:
        if self.status != "active":
            return []
        codec, state = self.rules.codec, self._state
        out = []
        for action in self.rules.legal(state, seat):
            command = codec.encode(state, seat, action)
            out.append(Choice(command=command, label=codec.label(state, seat, command)))
        return out

    def user_of(self, seat: int) -> int:
        return next(s.user_id for s in self.seats if s.seat == seat)

    def name_of(self, seat: int) -> str:
        return next((s.name for s in self.seats if s.seat == seat), "?")


def moment_for(rules: Ruleset[Any, Any, V], state: object, seats: Sequence[SeatName], **kw: Any) -> GameMoment[V]:
    """A moment for tests and tools: a state and its seats, nothing acted."""
    return GameMoment(game_id=kw.pop("game_id", 1), rules=rules, _state=state, seats=seats, **kw)
