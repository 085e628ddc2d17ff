"""The web page keeps every secret the thread keeps, over whole games of all four games.

As the conformance suite checks the views (``test_no_view_shows_what_only_another_seat_may_know``): at steps of
a whole game, each seat's secrets are swapped for others the rules allow (``secret_variants``: another hand,
another row of orders) and the page is built again.  The public page (the board and its alt text, the standings,
who is to act) must not change at all, and a seat's personal page must not change when another seat's secrets
do, while it does show that seat's own views.  Drawing is slow (a Champion map takes seconds on a busy
machine), so each game is checked at ``TABULA_WEB_SECRECY_STEPS`` steps spread over the whole game (5 unless
set; ``all`` checks every step, for a long run by hand).
"""

from __future__ import annotations

import os
from itertools import islice
from typing import Any

import pytest

from bot.present.base import SeatName, seats_acting
from bot.service.moment import GameMoment
from bot.web.pages import content, private_views
from rules.registry import AnyRuleset, games
from tests.test_conformance import configurations, play_out

pytestmark = pytest.mark.slow  # whole games and picture sweeps: left out of the quick subset

KEYS = sorted(games())


def _steps(total: int) -> list[int]:
    wanted = os.environ.get("TABULA_WEB_SECRECY_STEPS", "5")
    if wanted == "all":
        return list(range(total))
    count = max(1, int(wanted))
    return sorted({round(i * (total - 1) / max(1, count - 1)) for i in range(count)})


def _pages(rules: AnyRuleset, state: Any, seats: list[SeatName], only: list[int]) -> dict[int | None, object]:
    """Everything the public page (key None) and each personal page of ``only`` show at a state, each as one
    comparable value (pictures by their bytes' digest).  The board is drawn once for all of them."""
    moment: GameMoment[Any] = GameMoment(game_id=1, rules=rules, _state=state, seats=seats)
    telling, pictures, private = content(moment, None)
    board = (str(telling), [(p.digest, p.alt) for p in pictures], seats_acting(moment))
    out: dict[int | None, object] = {None: (board, [(str(v.text), [(p.digest, p.alt) for p in v.pictures])
                                                    for v in private])}
    for seat in only:
        own = private_views(moment, seat)
        out[seat] = (board, [(str(v.text), [(p.digest, p.alt) for p in v.pictures]) for v in own])
    return out


@pytest.mark.parametrize("key", KEYS)
def test_the_public_page_and_a_personal_page_never_show_another_seats_secret(key: str) -> None:
    rules = games()[key]
    players, options = configurations(rules)[0]
    trace: list[tuple[Any, int, Any, tuple[object, ...]]] = []
    final, _log, _moves = play_out(rules, players, rules.check_options(options, players), 6, trace=trace)
    states = [s for s, *_ in trace] + [final]
    seats = [SeatName(i, 100 + i, f"P{i}") for i in range(players)]
    everyone = list(range(players))
    compared = own = 0
    for i in _steps(len(states)):
        state = states[i]
        pages = _pages(rules, state, seats, everyone)
        assert pages[None][1] == [], "the public page shows a private view"  # type: ignore[index]
        for owner in everyone:
            for variant in islice(rules.secret_variants(state, owner), 1):
                others = [s for s in everyone if s != owner]
                again = _pages(rules, variant, seats, others)
                assert again[None] == pages[None], f"{key}, step {i}: the public page shows seat {owner}'s secret"
                for s in others:
                    assert again[s] == pages[s], \
                        f"{key}, step {i}: seat {s}'s personal page shows seat {owner}'s secret"
                compared += 1
        own += sum(1 for s in everyone if pages[s][1])  # type: ignore[index]
    assert compared > 0, f"{key}: no step had a secret to swap"
    assert own > 0, f"{key}: no personal page showed its seat's own view"
