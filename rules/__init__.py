"""Pure game rules.  Each game is a package ``rules/<key>/`` exposing ``RULESET``; ``rules.registry`` finds
them by name.  This module only re-exports the error hierarchy every caller needs."""

from __future__ import annotations

from rules.core import GameError, GameOver, IllegalAction, NotYourTurn, StaleAction

__all__ = ["GameError", "GameOver", "IllegalAction", "NotYourTurn", "StaleAction"]
