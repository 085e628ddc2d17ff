"""Champion of the Empire as the platform sees it: ``RULESET`` satisfies ``rules.spec.Ruleset``.  It wraps
the engine and adds the plug-in's side: the codec, the typed view, per-action metadata, what Tabula plays
(policy and timeout) and the secret variants."""

from __future__ import annotations

from collections.abc import Iterator

from rules.champion import auto
from rules.champion.commands import ChampionCodec
from rules.champion.engine import Engine
from rules.champion.i18n import _
from rules.champion.spec import SPEC
from rules.champion.state import Buy, ChampionAction, Defend, Develop, Keep, Pass, Pick, Play, State, Use
from rules.champion.view import ChampionView, build_view, secret_variants
from rules.core import IllegalAction, Rng
from rules.ruleset import GameRuleset
from rules.spec import ActionMeta

#: Choices made from what only the chooser sees: a hero's sheet and weapon, the setup offer (and the pass that
#: may hide standing in one's lair), cards from a hidden hand.
SECRET = (Pick, Buy, Pass, Play, Defend, Keep)
MIN_PLAYERS, MAX_PLAYERS = 2, 4


class ChampionRuleset(GameRuleset[State, ChampionAction, ChampionView]):
    spec, state_type, action_type = SPEC, State, ChampionAction

    def __init__(self, engine: Engine | None = None) -> None:
        self.engine: Engine = engine or Engine()
        self.codec: ChampionCodec = ChampionCodec(self.engine)

    def check_table(self, options: dict[str, object], players: int) -> dict[str, object]:
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise IllegalAction(_("Champion of the Empire is for 2 to 4 players; {players} are seated.",
                                  players=players))
        return options

    def view(self, state: State, seat: int | None) -> ChampionView:
        return build_view(self.engine, state, seat)

    def meta(self, action: ChampionAction) -> ActionMeta:
        # Nothing is free: every action leads to a prompt (after a hero choice, the same player buys or passes).
        # Staleness follows ``moment``, which a setup choice or one of several simultaneous choices leaves alone.
        # Developing and healing roll nothing and reveal nothing; everything else draws, rolls or turns a card.
        return ActionMeta(free=False, secret=isinstance(action, SECRET), undoable=isinstance(action, (Develop, Use)))

    def timeout(self, state: State) -> tuple[int, ChampionAction] | None:
        return auto.timeout(self.engine, state)

    def policy(self, state: State, seat: int, rng: Rng) -> ChampionAction | None:
        return auto.policy(self.engine, state, seat, rng)

    def secret_variants(self, state: State, seat: int) -> Iterator[State]:
        return secret_variants(self.engine, state, seat)


__all__ = ["ChampionRuleset"]
