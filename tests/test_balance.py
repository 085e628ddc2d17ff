"""The balance command (`python -m bot.balance`): the settings a game declares, the win shares with their 95%
intervals, the band around the fair share, and the printed table."""

from __future__ import annotations

from typing import Any

import pytest

from bot.balance import BAND, NO_SEAT, Tally, main, measure, rows, settings, wilson
from rules.registry import games
from rules.spec import BalanceSpec


def test_the_interval_is_wilsons_and_the_band_is_nine_to_eleven_tenths_of_the_fair_share() -> None:
    low, high = wilson(50, 100)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert BAND == (0.9, 1.1)
    two = Tally(wins={"A": 55.0, "B": 45.0}, sides={"A", "B"}, games=100)
    fair, found = rows(two)
    assert fair == 0.5 and all(r.inside for r in found)  # 45–55% for two sides
    four = Tally(wins={"A": 28.0, "B": 22.0, "C": 25.0, "D": 25.0}, sides={"A", "B", "C", "D"}, games=100)
    fair, found = rows(four)
    assert fair == 0.25 and [r.inside for r in found] == [False, False, True, True]  # 22.5–27.5% for four


def test_a_game_no_seat_wins_is_its_own_row_and_never_out_of_band() -> None:
    tally = Tally(wins={"seat 1": 45.0, "seat 2": 45.0, NO_SEAT: 10.0}, sides={"seat 1", "seat 2"}, games=100)
    _fair, found = rows(tally)
    assert [r.side for r in found] == ["seat 1", "seat 2", NO_SEAT] and all(r.inside for r in found)


def test_settings_come_from_the_spec_or_else_from_its_bench() -> None:
    found = games()
    keys = [s.key for s in settings(found["autokrator"].spec)]
    assert keys == ["east", "east-noraids", "west", "west-noraids", "full", "full-noraids", "fast", "fast-noraids"]
    bench = settings(found["champion"].spec)
    assert [s.label for s in bench] == [b.label for b in found["champion"].spec.bench]


def test_the_sides_are_what_the_outcome_names_and_the_games_are_reproducible() -> None:
    setting = BalanceSpec("east", "east", {"mode": "east", "realms": "random"}, players=2)
    one = measure("autokrator", setting, 6, seed=11)
    assert one.sides == {"Saracens", "Byzantine Empire"} and one.games == 6
    assert sum(one.wins.values()) == pytest.approx(6)
    assert measure("autokrator", setting, 6, seed=11, workers=2).wins == one.wins


def test_the_command_prints_a_table_per_setting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eiyu", "--games", "3", "--setting", "2"]) == 0
    text = capsys.readouterr().out
    assert "fair share 50.0%; band 45.0%–55.0%" in text and "95% interval" in text and "seat 1" in text
    with pytest.raises(SystemExit):
        main(["eiyu", "--setting", "nine"])


@pytest.mark.slow  # a whole game searched at every move, twice
def test_with_a_level_every_seat_is_played_by_the_search_and_the_figures_repeat(monkeypatch: pytest.MonkeyPatch,
                                                                                capsys: pytest.CaptureFixture[str]
                                                                                ) -> None:
    import bot.balance as balance

    asked: list[tuple[int, str, int | None]] = []
    real = balance.decide

    def spy(rules: Any, state: Any, seat: int, level: str, seed: int, budget: Any) -> Any:
        asked.append((seat, level, budget.iterations))
        return real(rules, state, seat, level, seed, budget)

    monkeypatch.setattr(balance, "decide", spy)
    key = "legend"
    setting = settings(games()[key].spec)[0]
    who = balance.Players("strong", balance.Budget(iterations=2, seconds=None, depth=4))
    first = measure(key, setting, 1, seed=3, who=who)
    assert asked and {a[1:] for a in asked} == {("strong", 2)}
    assert {a[0] for a in asked} == set(range(setting.players))  # every seat searched
    again = measure(key, setting, 1, seed=3, who=who)
    assert (again.wins, again.moves) == (first.wins, first.moves)  # iterations, not wall time: the same game
    assert main([key, "--games", "1", "--seed", "3", "--setting", setting.key, "--level", "strong",
                 "--iterations", "2", "--depth", "4"]) == 0
    assert "Tabula strong in every seat, 2 deals a decision" in capsys.readouterr().out
