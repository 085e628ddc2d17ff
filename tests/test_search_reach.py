"""Every option a game offers is within reach of Tabula's search at ``normal`` and above (issue 26): the first
moves searched hold one of every kind the seat may play — a truce, a spy, a campaign in Autokrator — even where
the game's own policy never plays it (Autokrator's easy Tabula never offers a truce)."""

from __future__ import annotations

import pytest

from rules.registry import games
from rules.search import Budget, _Search, sampler_of
from tests.test_search_no_peeking import positions

TABLES = [("autokrator", 4, {"mode": "full"}), ("champion", 3, {"fate": True}), ("eiyu", 3, {}),
          ("legend", 3, {"mode": "expanded", "narration": "players"})]


@pytest.mark.parametrize(("key", "players", "options"), TABLES, ids=[t[0] for t in TABLES])
def test_the_search_weighs_every_kind_of_move(key: str, players: int, options: dict[str, object]) -> None:
    rules = games()[key]
    search = _Search(rules, sampler_of(rules), 0, Budget(iterations=1, seconds=None), tree=True)
    kinds_seen: set[str] = set()
    for state, seat in positions(key, players, options, seed=5, every=3)[:60]:
        search.seat = seat
        legal = list(rules.legal(state, seat))
        searched = search._candidates(state, legal, seed=1).values()
        assert {type(a) for a in legal} <= {type(a) for a in searched}
        kinds_seen |= {type(a).__name__ for a in legal}
    if key == "autokrator":
        assert {"OfferTruce", "Spy", "Campaign"} <= kinds_seen, "the positions reached hold truces and spies"
