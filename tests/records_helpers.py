"""Helpers for the records tests and figures: games played to the end by seeded random play."""

from __future__ import annotations

from typing import Any

from bot.play import GameService, Person
from rules import GameError
from rules.core import Rng, seed_state

PEOPLE = [Person(1000 + i, f"P{i}") for i in range(5)]


async def play_out(svc: GameService, key: str, options: dict[str, Any], people: list[Person], seed: int, *,
                   guild_id: int = 1, limit: int = 5000, stop_after: int | None = None,
                   tabula: int = 0) -> int:
    """Open, start and play a game to its end (or ``stop_after`` moves) with Tabula's own policy (a random
    legal move when it has none); ``tabula`` seats Tabula plays.  Returns the game's id."""
    info = await svc.create(key, people[0], guild_id=guild_id, options=dict(options), seed=seed)
    for p in people[1:]:
        await svc.join(info.game_id, p)
    for _ in range(tabula):
        await svc.add_tabula(info.game_id, people[0].id)
    result = await svc.start(info.game_id, people[0].id)
    rng = Rng(seed_state(seed))
    moves = 0
    while result.status == "active" and result.to_act and moves < limit:
        if stop_after is not None and moves >= stop_after:
            break
        rules, state = result.rules, result.state
        seat = sorted(result.to_act)[0]
        move = rules.policy(state, seat, rng)
        if move is None:
            legal = list(rules.legal(state, seat))
            move = legal[rng.below(len(legal))]
        try:
            result = await svc.act(result.game_id, result.user_of(seat), move)
        except GameError:
            result = await svc.get(result.game_id)
            continue
        moves += 1
    return info.game_id
