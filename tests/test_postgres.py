"""The PostgreSQL path (asyncpg): migrations, several processes on one database, replay.

Runs when TABULA_TEST_POSTGRES_URL points at a database it may wipe (CI starts a local PostgreSQL and sets
it, see .ci/run); elsewhere these tests are skipped with that reason.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator

import msgspec
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.service.play import GameService, Person
from bot.store import CoreStore
from bot.store.db import open_database
from rules import GameError

URL = os.environ.get("TABULA_TEST_POSTGRES_URL", "")
pytestmark = [pytest.mark.skipif(not URL, reason="TABULA_TEST_POSTGRES_URL is not set (CI sets it)"),
              pytest.mark.postgres]


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    engine = create_async_engine(URL)
    async with engine.begin() as conn:  # a clean database for every test
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()
    yield URL


@pytest.mark.slow
async def test_two_processes_on_postgresql_never_lose_an_update(pg_url: str) -> None:
    db1, db2 = await open_database(pg_url), await open_database(pg_url, upgrade=False)
    try:
        assert isinstance(db1.store, CoreStore)
        one, two = GameService(db1), GameService(db2)
        info = await one.create("legend", Person(1, "Ann"), guild_id=1, options={}, seed=9)
        await two.join(info.game_id, Person(2, "Bob"))
        result = await one.start(info.game_id, 1)
        applied = 1
        rng = random.Random(2)
        for _ in range(25):  # both processes push the same move at once, five times each
            now = await one.get(info.game_id)
            if now.status != "active":
                break
            seat = min(now.rules.to_act(now.state))
            action = rng.choice(list(now.rules.legal(now.state, seat)))
            outcomes = await asyncio.gather(
                *(s.act(info.game_id, now.user_of(seat), action, expect_version=now.stamp)
                  for s in (one, two) for _ in range(5)), return_exceptions=True)
            wins = [o for o in outcomes if not isinstance(o, BaseException)]
            assert len(wins) == 1, outcomes
            assert all(isinstance(o, GameError) for o in outcomes if isinstance(o, BaseException))
            applied += 1
        rows = await two.history(info.game_id)
        assert len(rows) == applied and [r.seq for r in rows] == sorted({r.seq for r in rows})
        stored = await db2.store.load(info.game_id)
        assert stored is not None and stored.version == result.version + applied - 1
        assert msgspec.json.encode(await two.replay(info.game_id)).decode() == stored.state
    finally:
        await db1.close()
        await db2.close()


@pytest.mark.slow
async def test_a_whole_game_on_postgresql_replays_exactly(pg_url: str) -> None:
    db = await open_database(pg_url)
    try:
        svc = GameService(db)
        info = await svc.create("legend", Person(10, "Cy"), guild_id=5, options={"narration": "players"}, seed=4)
        await svc.join(info.game_id, Person(11, "Di"))
        result = await svc.start(info.game_id, 10)
        rng = random.Random(4)
        while result.status == "active":
            seat = min(result.rules.to_act(result.state))
            result = await svc.act(info.game_id, result.user_of(seat),
                                   rng.choice(list(result.rules.legal(result.state, seat))))
        stored = await db.store.load(info.game_id)
        assert stored is not None and stored.status == "finished"
        assert msgspec.json.encode(await svc.replay(info.game_id)).decode() == stored.state
        assert [g.game_id for g in await svc.list_games(5)] == []  # finished games leave the list
    finally:
        await db.close()
