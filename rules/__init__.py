"""Pure game rules.  ``RULESETS`` maps each game's key to its ruleset object."""

from __future__ import annotations

from typing import Any

from rules.champion.game import ChampionOfTheEmpire
from rules.core import GameError, GameOver, IllegalAction, NotYourTurn, StaleAction
from rules.legend.game import LegendOfHeroes

RULESETS: dict[str, Any] = {r.key: r for r in (LegendOfHeroes(), ChampionOfTheEmpire())}

__all__ = ["RULESETS", "GameError", "GameOver", "IllegalAction", "NotYourTurn", "StaleAction", "ruleset"]


def ruleset(key: str) -> Any:
    """The ruleset for a game key ("legend"), or a GameError naming the games there are."""
    try:
        return RULESETS[key]
    except KeyError:
        names = ", ".join(f"{r.title} (`{k}`)" for k, r in RULESETS.items())
        raise GameError(f"There is no game called {key!r}. Tabula has: {names}.") from None
