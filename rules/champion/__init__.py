"""Champion of the Empire (A birodalom bajnoka): heroes roam the Roman Empire of AD 115, gather
information and slay a mythological monster."""

from rules.champion.ruleset import ChampionRuleset
from rules.champion.state import ChampionAction, State
from rules.champion.view import ChampionView
from rules.spec import Ruleset

RULESET: Ruleset[State, ChampionAction, ChampionView] = ChampionRuleset()

__all__ = ["RULESET", "ChampionRuleset"]
