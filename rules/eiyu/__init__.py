"""The Heroes' Road (key ``eiyu``): a programmed-action game of secret orders, monster hunts and rankings by
elimination, from the Japanese help page in ``shared/rules/heroes-programmed.md``."""

from rules.eiyu.ruleset import EiyuRuleset
from rules.eiyu.state import EiyuAction, State
from rules.eiyu.view import EiyuView
from rules.spec import Ruleset

RULESET: Ruleset[State, EiyuAction, EiyuView] = EiyuRuleset()

__all__ = ["RULESET", "EiyuRuleset"]
