"""The schema: the Alembic migrations build exactly the tables the models describe; the Core store (the
PostgreSQL path) behaves like the SQLite one."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine
from sqlmodel import SQLModel

import bot.store.models  # noqa: F401
from bot.service.play import GameService, Person
from bot.store import CoreStore
from bot.store.db import Database, migrate, open_database
from rules import StaleAction


async def test_migrations_match_the_models(tmp_path: Path) -> None:
    path = tmp_path / "schema.db"
    await migrate(f"sqlite+aiosqlite:///{path}")
    engine = create_engine(f"sqlite:///{path}")
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
    engine.dispose()
    assert diff == []


async def test_core_store_plays_and_refuses_stale_writes(tmp_path: Path) -> None:
    sqlite = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'core.db'}")
    await sqlite.store.close()
    db = Database(url=sqlite.url, engine=sqlite.engine, sessions=sqlite.sessions, store=CoreStore(sqlite.engine))
    try:
        svc = GameService(db)
        info = await svc.create("legend", Person(1, "Ann"), options={}, seed=3)
        await svc.join(info.game_id, Person(2, "Bob"))
        result = await svc.start(info.game_id, 1)
        rng = random.Random(0)
        for _ in range(30):
            seat = min(result.rules.to_act(result.state))
            result = await svc.act(info.game_id, result.user_of(seat),
                                   rng.choice(list(result.rules.legal(result.state, seat))))
        record = await db.store.load(info.game_id)
        assert record is not None and record.version == result.version
        assert not await db.store.save(info.game_id, result.version - 1, state="{}", status="active",
                                       deadline=None, entry=None, now=0.0)
        seat = min(result.rules.to_act(result.state))
        with pytest.raises(StaleAction):
            await svc.act(info.game_id, result.user_of(seat), result.rules.legal(result.state, seat)[0],
                          expect_version=result.stamp - 1)
        rows = await svc.history(info.game_id)
        assert json.loads(rows[0].action)["type"] == "start" and len(rows) == 31
    finally:
        await db.engine.dispose()


async def test_a_new_sqlite_database_uses_8_kib_pages_so_a_whole_game_state_fits_one(tmp_path: Path) -> None:
    import sqlite3

    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'pages.db'}")
    await db.close()
    with sqlite3.connect(tmp_path / "pages.db") as conn:
        assert conn.execute("PRAGMA page_size").fetchone()[0] == 8192
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
