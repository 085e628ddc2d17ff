"""Shared pieces of the web page's tests: a game played a few moves into a database, and a running server."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from bot.service.play import GameService, Person
from bot.store.db import Database
from bot.web.server import WebServer


@dataclass
class Played:
    service: GameService
    game_id: int
    moment: Any

    @property
    def rules(self) -> Any:
        return self.moment.rules


async def play(db: Database, key: str = "legend", *, players: int = 3, moves: int = 6, seed: int = 3,
               guild_id: int = 5, language: str = "en", options: dict[str, Any] | None = None) -> Played:
    """A game of ``key`` in ``db`` between users 1..players, ``moves`` random legal moves in."""
    service = GameService(db)
    info = await service.create(key, Person(1, "Ann"), options=options or {}, seed=seed, guild_id=guild_id,
                                channel_id=None)
    for user in range(2, players + 1):
        await service.join(info.game_id, Person(user, f"P{user}"))
    if language != "en":
        async with db.engine.begin() as conn:
            from sqlalchemy import text
            await conn.execute(text("UPDATE game SET language = :l WHERE id = :g"), {"l": language, "g": info.game_id})
        service.forget(info.game_id)
    moment = await service.start(info.game_id, 1)
    played = Played(service, info.game_id, moment)
    await advance(played, moves, seed=seed)
    return played


async def advance(played: Played, moves: int, *, seed: int = 0) -> None:
    rng = random.Random(seed * 7919 + played.moment.version)
    for _ in range(moves):
        moment = played.moment
        if moment.status != "active":
            return
        seat = min(moment.rules.to_act(moment.state))
        legal = list(moment.rules.legal(moment.state, seat))
        played.moment = await played.service.act(played.game_id, moment.user_of(seat), rng.choice(legal))


@asynccontextmanager
async def serving(db: Database, **kwargs: Any) -> AsyncIterator[WebServer]:
    server = WebServer(db, base_url="http://unset", **kwargs)
    port = await server.start("127.0.0.1", 0)
    server.base_url = f"http://127.0.0.1:{port}"
    try:
        yield server
    finally:
        await server.close()
