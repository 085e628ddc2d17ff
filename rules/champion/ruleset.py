"""Champion of the Empire as the platform sees it: ``RULESET`` satisfies ``rules.spec.Ruleset``.  It wraps
the engine (``game.ChampionOfTheEmpire``) and adds the plug-in's side: the spec, the codec, the typed view,
per-action metadata, what Tabula plays (policy and timeout) and the secret variants."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from rules.champion import auto
from rules.champion.commands import ChampionCodec
from rules.champion.game import ChampionOfTheEmpire
from rules.champion.spec import SPEC
from rules.champion.state import (
    Buy,
    ChampionAction,
    ChampionEvent,
    Defend,
    Develop,
    Keep,
    Pass,
    Pick,
    Play,
    State,
    Use,
)
from rules.champion.view import ChampionView, build_view, secret_variants
from rules.core import Outcome, Rng, SeatInfo, Step
from rules.spec import ActionMeta, GameSpec

#: Choices made from what only the chooser sees: a hero's sheet and weapon, the setup offer (and the pass that
#: may hide standing in one's lair), cards from a hidden hand.
SECRET = (Pick, Buy, Pass, Play, Defend, Keep)


class ChampionRuleset:
    def __init__(self, game: ChampionOfTheEmpire | None = None) -> None:
        self.game = game or ChampionOfTheEmpire()
        self._codec = ChampionCodec(self.game)

    @property
    def spec(self) -> GameSpec:
        return SPEC

    @property
    def state_type(self) -> type[State]:
        return State

    @property
    def action_type(self) -> object:
        return ChampionAction

    @property
    def codec(self) -> ChampionCodec:
        return self._codec

    def check_options(self, options: Mapping[str, object], players: int) -> dict[str, object]:
        return self.game.check_options(options, players)

    def setup(self, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int) -> Step[State, ChampionEvent]:
        return self.game.setup(seats, options, seed)

    def to_act(self, state: State) -> frozenset[int]:
        return self.game.to_act(state)

    def legal(self, state: State, seat: int) -> Sequence[ChampionAction]:
        return self.game.legal(state, seat)

    def apply(self, state: State, seat: int, action: ChampionAction) -> Step[State, ChampionEvent]:
        return self.game.apply(state, seat, action)

    def view(self, state: State, seat: int | None) -> ChampionView:
        return build_view(self.game, state, seat)

    def outcome(self, state: State) -> Outcome | None:
        return self.game.outcome(state)

    def moment(self, state: State) -> int:
        return self.game.moment(state)

    def meta(self, action: ChampionAction) -> ActionMeta:
        # Nothing is free: every action leads to a prompt (after a hero choice, the same player buys or passes).
        # Staleness follows ``moment``, which a setup choice or one of several simultaneous choices leaves alone.
        # Developing and healing roll nothing and reveal nothing; everything else draws, rolls or turns a card.
        return ActionMeta(free=False, secret=isinstance(action, SECRET), undoable=isinstance(action, (Develop, Use)))

    def timeout(self, state: State) -> tuple[int, ChampionAction] | None:
        return self.game.timeout(state)

    def policy(self, state: State, seat: int, rng: Rng) -> ChampionAction | None:
        return auto.policy(self.game, state, seat, rng)

    def secret_variants(self, state: State, seat: int) -> Iterator[State]:
        return secret_variants(self.game, state, seat)


__all__ = ["ChampionRuleset"]
