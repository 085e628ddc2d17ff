"""The Heroes' Road's designed numbers, checked by simulation: Tabula's policy plays every seat, and the dummy
player, the titans, the shows of strength and the three scores come out as RULES.md says they should."""

from __future__ import annotations

import pytest

from tests.eiyu_helpers import balance


@pytest.mark.parametrize(("players", "short"), [(2, False), (3, False), (3, True)])
def test_the_dummy_is_a_threat_but_rarely_the_winner(players: int, short: bool) -> None:
    stats = balance(players, 12, short=short, first_seed=100)
    assert 0.05 <= stats["dummy_survives_first"] <= 0.6, stats
    assert stats["dummy_wins"] <= 1 / (players + 1) + 0.1, stats  # no more than its fair share, give or take


@pytest.mark.parametrize("players", [4, 5])
def test_every_score_matters_and_the_titans_are_fought(players: int) -> None:
    stats = balance(players, 16, first_seed=200)
    assert stats["titans"] >= 2, stats  # the titans are worth waking up for
    assert stats["show_rewards"] >= 4, stats  # shows of strength hand out most of their rewards
    assert min(stats["mean_fame"], stats["mean_gold"], stats["mean_building"]) > 2, stats
    assert stats["tied_last"] <= 0.35, stats
    assert stats["dummy_wins"] == 0  # no dummy with four or more
    assert max(stats[f"seat{i}_wins"] for i in range(players)) <= 0.5, stats  # no seat is favoured outright
