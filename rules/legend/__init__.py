"""Legend of Heroes: explore the Dungeons of Legend room by room (starter, solo and Expanded Game)."""

from __future__ import annotations

from rules.legend.ruleset import LegendRuleset
from rules.legend.state import LegendAction, State
from rules.legend.view import LegendView
from rules.spec import Ruleset

RULESET: Ruleset[State, LegendAction, LegendView] = LegendRuleset()

__all__ = ["RULESET", "LegendRuleset"]
