"""Legend of Heroes: explore the Dungeons of Legend room by room (starter, solo and Expanded Game)."""

from __future__ import annotations

from rules.legend.game import LegendOfHeroes
from rules.legend.state import LegendAction, State
from rules.legend.view import LegendView
from rules.spec import Ruleset

RULESET: Ruleset[State, LegendAction, LegendView] = LegendOfHeroes()

__all__ = ["RULESET", "LegendOfHeroes"]
