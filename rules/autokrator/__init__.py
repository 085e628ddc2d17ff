"""Autokrator: four medieval realms at war over five epochs, with kings, generals, admirals and hidden battle
cards (translated rulebook: shared/rules/autokrator.md; house rules: RULES.md)."""

from rules.autokrator.ruleset import AutokratorRuleset

RULESET = AutokratorRuleset()

__all__ = ["RULESET"]
