"""Autokrator's balance, kept by a small sample: Tabula's policy plays every realm (drawn at random to the
seats) and no realm may run away with the game.  The limits are loose on purpose — the real figures, from 2,000
games a setting, are in RULES.md (`python -m bot.balance autokrator --games 2000`) — so only an edit to the map,
the epochs or the scoring that badly breaks the balance fails here."""

from __future__ import annotations

import pytest

from bot.balance import measure, settings
from rules.autokrator import RULESET

SETTINGS = {s.key: s for s in settings(RULESET.spec)}


@pytest.mark.parametrize(("key", "games", "low", "high"), [
    ("east", 100, 0.35, 0.65),
    ("west-noraids", 100, 0.35, 0.65),
    ("full", 60, 0.12, 0.40),
])
def test_no_realm_runs_away_with_the_game(key: str, games: int, low: float, high: float) -> None:
    tally = measure("autokrator", SETTINGS[key], games, seed=500)
    shares = {side: tally.wins.get(side, 0.0) / tally.games for side in tally.sides}
    assert len(shares) == SETTINGS[key].players
    assert all(low <= share <= high for share in shares.values()), (key, shares)
