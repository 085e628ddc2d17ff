"""Tabula never peeks: at ``normal`` and ``strong`` a seat decides from what that seat sees and nothing else.

For every game, positions are reached by play; at each, the states that differ only in another seat's secrets
or in what nobody knows (``secret_variants`` of the other seats: their hands, rows, battle cards, the order of
every pile, the dice to come) must give the deciding seat the same view — and then the same decision with the
same seed.  Each game's sampler (``rules/<key>/search.py``) must also deal states the seat cannot tell from the
real one."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import Rng, SeatInfo
from rules.registry import games
from rules.search import Budget, decide, key_of, sampler_of

#: Small budgets: the property is about what the search reads, not how well it plays.
BUDGET = Budget(iterations=6, seconds=None, depth=12)
TABLES: list[tuple[str, int, dict[str, object]]] = [
    ("autokrator", 2, {"mode": "east"}),
    ("autokrator", 4, {"mode": "full"}),
    ("champion", 3, {"opponents": "players"}),
    ("champion", 2, {"opponents": "bot", "fate": True}),
    ("eiyu", 3, {}),
    ("legend", 3, {"mode": "expanded", "narration": "players"}),
    ("legend", 3, {}),
]


def positions(key: str, players: int, options: dict[str, object], seed: int, every: int) -> list[tuple[Any, int]]:
    """Positions a seat must choose in (two choices or more), about every ``every`` moves of a policy game."""
    rules = games()[key]
    state = rules.setup([SeatInfo(i, f"P{i}") for i in range(players)], options, seed).state
    rng = Rng(seed)
    found: list[tuple[Any, int]] = []
    for move in range(3000):
        if rules.outcome(state) is not None:
            break
        acting = sorted(rules.to_act(state))
        if not acting:
            break
        seat = acting[rng.below(len(acting))]
        if move % every == 0 and len(rules.legal(state, seat)) > 1:
            found.append((state, seat))
        action = rules.policy(state, seat, rng) or rules.legal(state, seat)[0]
        state = rules.apply(state, seat, action).state
    return found


@pytest.mark.parametrize(("key", "players", "options"), TABLES, ids=[f"{k}-{p}-{'-'.join(map(str, o.values()))}"
                                                                    for k, p, o in TABLES])
def test_the_same_view_gives_the_same_decision(key: str, players: int, options: dict[str, object]) -> None:
    rules = games()[key]
    checked = 0
    for state, seat in positions(key, players, options, seed=11, every=17)[:10]:
        view = rules.view(state, seat)
        mine = key_of(decide(rules, state, seat, "strong", 5, BUDGET))
        for other in range(players):
            if other == seat:
                continue
            for variant in rules.secret_variants(state, other):
                if rules.view(variant, seat) != view:
                    continue  # not hidden from this seat after all (the conformance suite judges that)
                if seat not in rules.to_act(variant) or len(rules.legal(variant, seat)) < 2:
                    continue
                again = key_of(decide(rules, variant, seat, "strong", 5, BUDGET))
                assert again == mine, f"{key}: seat {seat} decided differently when seat {other}'s secrets changed"
                checked += 1
    assert checked >= 3, f"{key}: too few positions with another seat's secrets to compare ({checked})"


@pytest.mark.parametrize(("key", "players", "options"), TABLES[::2], ids=[f"{k}-{p}" for k, p, _ in TABLES[::2]])
def test_a_deal_keeps_what_the_seat_sees(key: str, players: int, options: dict[str, object]) -> None:
    """A determinization differs from the real game only where the deciding seat cannot see."""
    rules = games()[key]
    sampler = sampler_of(rules)
    assert sampler is not None
    for n, (state, seat) in enumerate(positions(key, players, options, seed=23, every=13)[:12]):
        dealt = sampler.sample(rules, state, seat, Rng(n + 1))
        assert rules.view(dealt, seat) == rules.view(state, seat), f"{key}: a deal shows seat {seat} something new"
        assert sorted(rules.to_act(dealt)) == sorted(rules.to_act(state))
        assert [key_of(a) for a in rules.legal(dealt, seat)] == [key_of(a) for a in rules.legal(state, seat)]


def test_the_same_seed_gives_the_same_decision_and_levels_differ_only_in_search() -> None:
    rules = games()["autokrator"]
    state, seat = positions("autokrator", 2, {"mode": "east"}, seed=3, every=5)[2]
    first = decide(rules, state, seat, "normal", 42, BUDGET)
    assert key_of(decide(rules, state, seat, "normal", 42, BUDGET)) == key_of(first)
    assert decide(rules, state, seat, "easy", 42, BUDGET) == rules.policy(state, seat, Rng(_easy_seed(42)))


def _easy_seed(seed: int) -> int:
    from rules.core import seed_state

    return seed_state(seed)
