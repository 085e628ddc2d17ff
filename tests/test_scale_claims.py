"""The claim primitive (bot/store/claims.py): one process gets each row, a crashed holder's claim runs out, and many
claimers at once split the work with no row twice, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import bindparam, text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.store.claims import Claimer
from bot.store.db import migrate
from tests.scale_helpers import PG_URL, clean_postgres

NOW = 10_000.0
DONE = text("UPDATE game SET wake_at = NULL WHERE id IN :ids").bindparams(bindparam("ids", expanding=True))


@pytest.fixture(params=["sqlite", "postgresql"])
async def engine(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    if request.param == "postgresql":
        if not PG_URL:
            pytest.skip("TABULA_TEST_POSTGRES_URL is not set (CI sets it, see .ci/run)")
        url = await clean_postgres()
    else:
        url = f"sqlite+aiosqlite:///{tmp_path / 'claims.db'}"
    await migrate(url)
    made = create_async_engine(url)
    yield made
    await made.dispose()


async def add_games(engine: AsyncEngine, rows: list[dict[str, object]]) -> None:
    async with engine.begin() as conn:
        await conn.execute(text(
            "INSERT INTO game (id, host_id, ruleset, options, status, seed, version, created_at, updated_at, "
            "deadline, wake_at, paused, language) VALUES (:id, 1, 'race', '{}', :status, 0, 1, 0, 0, :deadline, "
            ":wake_at, :paused, 'en')"), [{"status": "active", "deadline": None, "wake_at": None, "paused": 0, **r}
                                          for r in rows])


async def test_one_claimer_gets_each_due_game_and_a_crashed_claim_runs_out(engine: AsyncEngine) -> None:
    await add_games(engine, [
        {"id": 1, "deadline": NOW - 5},  # a turn timeout has passed
        {"id": 2, "wake_at": NOW - 1},  # a reminder is due
        {"id": 3, "wake_at": NOW + 1000},  # not yet
        {"id": 4, "wake_at": NOW - 1, "paused": 1},  # paused by the host
        {"id": 5, "deadline": NOW - 5, "status": "finished"},
    ])
    one, two = Claimer(engine, owner="one", ttl=60), Claimer(engine, owner="two", ttl=60)
    assert await one.due_games(NOW) == [1, 2]
    assert await two.due_games(NOW) == []  # held by one
    assert await one.due_games(NOW + 1) == [1, 2]  # its own unfinished work comes back to it
    assert await two.release("game", [1, 2]) == 0  # only the holder gives a claim back
    assert await one.release("game", [1]) == 1
    assert await two.due_games(NOW + 2) == [1]
    assert await two.due_games(NOW + 70) == [1, 2]  # one crashed: its claim on game 2 ran out
    async with one.sweeping(NOW + 200) as games:
        assert games == {1, 2}  # two's claims ran out too
        assert await two.due_games(NOW + 200) == []
    assert await two.due_games(NOW + 200) == [1, 2]  # given back when the sweep ended


async def test_many_claimers_at_once_take_every_row_exactly_once(engine: AsyncEngine) -> None:
    total = 2000 if engine.dialect.name == "postgresql" else 400
    await add_games(engine, [{"id": i, "wake_at": NOW - 1} for i in range(1, total + 1)])
    engines = [engine] + [create_async_engine(engine.url) for _ in range(3)]  # four "processes"
    claimers = [Claimer(e, owner=f"p{i}-{j}") for i, e in enumerate(engines) for j in range(2)]
    got: dict[str, list[int]] = {c.owner: [] for c in claimers}

    async def work(claimer: Claimer) -> None:
        while batch := await claimer.claim("game", "wake_at <= :now", {}, now=NOW, limit=25):
            got[claimer.owner] += batch
            async with claimer.engine.begin() as conn:  # the work: the item is done, it wakes no more
                await conn.execute(DONE, {"ids": batch})
            await claimer.release("game", batch)

    started = time.perf_counter()
    try:
        await asyncio.gather(*(work(c) for c in claimers))
    finally:
        for extra in engines[1:]:
            await extra.dispose()
    took = time.perf_counter() - started
    claimed = [i for rows in got.values() for i in rows]
    assert sorted(claimed) == list(range(1, total + 1))  # every row once: none missed, none twice
    busy = sum(1 for rows in got.values() if rows)
    print(f"\n{engine.dialect.name}: {total} rows claimed by {len(claimers)} claimers ({busy} got work) in "
          f"{took:.2f} s: {total / took:.0f} rows/s, duplicates 0")
    if engine.dialect.name == "postgresql":
        assert busy > 1  # SKIP LOCKED let them work side by side
