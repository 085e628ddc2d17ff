"""The Heroes' Road as the platform sees it: ``RULESET`` satisfies ``rules.spec.Ruleset``."""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import IllegalAction, Rng
from rules.eiyu import auto
from rules.eiyu.commands import EiyuCodec
from rules.eiyu.engine import Engine
from rules.eiyu.i18n import _
from rules.eiyu.spec import SPEC
from rules.eiyu.state import AutoRow, EiyuAction, Lock, Reveal, SetOrder, SetRow, State, TakeRewards
from rules.eiyu.view import EiyuView, build_view, secret_variants
from rules.ruleset import GameRuleset
from rules.spec import ActionMeta


class EiyuRuleset(GameRuleset[State, EiyuAction, EiyuView]):
    spec, state_type, action_type = SPEC, State, EiyuAction

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine: Engine = engine or Engine(planner=auto.plan)
        self.codec: EiyuCodec = EiyuCodec()

    def check_table(self, options: dict[str, object], players: int) -> dict[str, object]:
        if not 2 <= players <= 5:
            raise IllegalAction(_("This game is for 2 to 5 players."))
        return options

    def view(self, state: State, seat: int | None) -> EiyuView:
        return build_view(state, seat)

    def meta(self, action: EiyuAction) -> ActionMeta:
        # Changing a row stales nobody's controls and pings nobody; locking in may start the resolution.
        if isinstance(action, SetOrder) or (isinstance(action, SetRow) and not action.lock):
            return ActionMeta(free=True, secret=True, undoable=True)
        if isinstance(action, AutoRow):  # "let Tabula program my year": as strong as the game's Tabula level
            return ActionMeta(free=False, secret=True, undoable=False, asks_tabula=True)
        if isinstance(action, (SetRow, Lock, TakeRewards, Reveal)):
            return ActionMeta(free=False, secret=True, undoable=False)
        return ActionMeta(free=False, secret=False, undoable=False)

    def timeout(self, state: State) -> tuple[int, EiyuAction] | None:
        acting = sorted(self.engine.to_act(state))
        if not acting:
            return None
        seat = acting[0]
        if state.phase == "program":
            return (seat, AutoRow())  # planned inside apply: asking for the timeout stays cheap
        move = auto.policy(self.engine, state, seat, Rng(state.rng ^ (state.stamp * 0x9E37 + seat)))
        return (seat, move) if move is not None else None

    def policy(self, state: State, seat: int, rng: Rng) -> EiyuAction | None:
        return auto.policy(self.engine, state, seat, rng)

    def secret_variants(self, state: State, seat: int) -> Iterator[State]:
        return secret_variants(state, seat)
