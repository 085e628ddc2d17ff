"""Autokrator: four medieval realms at war over five epochs, with kings, generals, admirals and hidden battle
cards (translated rulebook: shared/rules/autokrator.md; house rules: RULES.md)."""

from __future__ import annotations

from rules.autokrator.ruleset import AutokratorRuleset
from rules.autokrator.state import AutokratorAction, State
from rules.autokrator.view import AutokratorView
from rules.spec import Ruleset

RULESET: Ruleset[State, AutokratorAction, AutokratorView] = AutokratorRuleset()

__all__ = ["RULESET", "AutokratorRuleset"]
