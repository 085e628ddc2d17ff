"""The game as the platform sees it: ``RULESET`` satisfies ``rules.spec.Ruleset``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from rules.core import Outcome, Rng, SeatInfo, Step
from rules.eiyu import auto
from rules.eiyu.codec import EiyuCodec
from rules.eiyu.engine import Eiyu, scores
from rules.eiyu.i18n import _
from rules.eiyu.spec import SPEC
from rules.eiyu.state import AutoRow, EiyuAction, EiyuEvent, Lock, Reveal, SetOrder, SetRow, State, TakeRewards
from rules.eiyu.view import EiyuView, build_view, secret_variants
from rules.spec import ActionMeta, GameSpec


class EiyuRuleset:
    def __init__(self) -> None:
        self.game = Eiyu(planner=auto.plan)
        self._codec = EiyuCodec()

    @property
    def spec(self) -> GameSpec:
        return SPEC

    @property
    def state_type(self) -> type[State]:
        return State

    @property
    def action_type(self) -> object:
        return EiyuAction

    @property
    def codec(self) -> EiyuCodec:
        return self._codec

    def check_options(self, options: Mapping[str, object], players: int) -> dict[str, object]:
        return self.game.check_options(options, players)

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step[State, EiyuEvent]:
        return self.game.setup(seats, options, seed)

    def to_act(self, state: State) -> frozenset[int]:
        return self.game.to_act(state)

    def legal(self, state: State, seat: int) -> Sequence[EiyuAction]:
        return self.game.legal(state, seat)

    def apply(self, state: State, seat: int, action: EiyuAction) -> Step[State, EiyuEvent]:
        return self.game.apply(state, seat, action)

    def view(self, state: State, seat: int | None) -> EiyuView:
        return build_view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over" or state.winner is None:
            return None
        n = len(state.players)
        points = scores(state)
        names = [p.name for p in state.players]
        if state.winner == n:
            summary = _("The dummy player outlasts everyone: no hero this time. (Last out: {name}.)",
                        name=names[state.out[-1]] if state.out and state.out[-1] < n else "—")
            winners: tuple[int, ...] = ()
        else:
            summary = _("{name} is the hero of the road!", name=names[state.winner])
            winners = (state.winner,)
        # the score of a seat: how long it lasted in the rankings, then its three scores added up
        order = [*state.out, state.winner]
        result = {i: order.index(i) * 1000 + sum(points[t][i] for t in points) for i in range(n)}
        return Outcome(winners=winners, scores=result, summary=summary)

    def moment(self, state: State) -> int:
        return state.stamp

    def meta(self, action: EiyuAction) -> ActionMeta:
        # Changing a row stales nobody's controls and pings nobody; locking in may start the resolution.
        if isinstance(action, SetOrder) or (isinstance(action, SetRow) and not action.lock):
            return ActionMeta(free=True, secret=True, undoable=True)
        if isinstance(action, (SetRow, Lock, AutoRow, TakeRewards, Reveal)):
            return ActionMeta(free=False, secret=True, undoable=False)
        return ActionMeta(free=False, secret=False, undoable=False)

    def timeout(self, state: State) -> tuple[int, EiyuAction] | None:
        acting = sorted(self.game.to_act(state))
        if not acting:
            return None
        seat = acting[0]
        if state.phase == "program":
            return (seat, AutoRow())  # planned inside apply: asking for the timeout stays cheap
        move = auto.policy(self.game, state, seat, Rng(state.rng ^ (state.stamp * 0x9E37 + seat)))
        return (seat, move) if move is not None else None

    def policy(self, state: State, seat: int, rng: Rng) -> EiyuAction | None:
        return auto.policy(self.game, state, seat, rng)

    def secret_variants(self, state: State, seat: int) -> Iterator[State]:
        return secret_variants(state, seat)
