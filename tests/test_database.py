"""The schema: the Alembic migrations build exactly the tables the models describe, and a new database made
without them (the models' tables, stamped with the newest revision) has the very same schema; the Core store
(the PostgreSQL path) behaves like the SQLite one."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlmodel import SQLModel

import bot.store.models  # noqa: F401
from bot.service.play import GameService, Person
from bot.store import CoreStore
from bot.store.db import HEAD, Database, alembic_config, migrate, open_database
from rules import StaleAction
from tests.scale_helpers import PG_URL, clean_postgres


async def _by_migrations(url: str) -> None:
    """The schema built the long way, by every Alembic migration in turn (as an older database is upgraded)."""
    await asyncio.to_thread(command.upgrade, alembic_config(url), "head")


def _schema(connection: Connection) -> dict[str, Any]:
    """Everything the database says about its tables: columns (by name: a migration that adds a column puts it
    last), types, nullability, defaults, keys, indexes, unique and foreign constraints, and the revision."""
    seen = inspect(connection)
    out: dict[str, Any] = {}
    for table in sorted(seen.get_table_names()):
        columns = seen.get_columns(table)
        indexes = seen.get_indexes(table)
        out[table] = {
            "columns": sorted((c["name"], str(c["type"]), c["nullable"], str(c.get("default"))) for c in columns),
            "key": seen.get_pk_constraint(table)["constrained_columns"],
            "indexes": sorted((i["name"], tuple(i["column_names"]), bool(i["unique"])) for i in indexes),
            "unique": sorted((u["name"], tuple(u["column_names"])) for u in seen.get_unique_constraints(table)),
            "foreign": sorted((f["name"], tuple(f["constrained_columns"]), f["referred_table"],
                               tuple(f["referred_columns"])) for f in seen.get_foreign_keys(table)),
        }
    out["revision"] = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    return out


async def _schema_of(url: str) -> dict[str, Any]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(_schema)
    finally:
        await engine.dispose()


def test_head_is_the_newest_migration() -> None:
    assert ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head() == HEAD


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_new_database_gets_the_schema_the_migrations_build(tmp_path: Path, backend: str) -> None:
    if backend == "postgres" and not PG_URL:
        pytest.skip("TABULA_TEST_POSTGRES_URL is not set (CI sets it, see .ci/run)")
    if backend == "sqlite":
        direct, migrated = (f"sqlite+aiosqlite:///{tmp_path / name}" for name in ("direct.db", "migrated.db"))
        await migrate(direct)
        await _by_migrations(migrated)
        made, built = await _schema_of(direct), await _schema_of(migrated)
    else:
        url = await clean_postgres()
        await migrate(url)
        made = await _schema_of(url)
        await clean_postgres()
        await _by_migrations(url)
        built = await _schema_of(url)
    assert made["revision"] == built["revision"] == HEAD
    assert made == built
    await migrate(direct if backend == "sqlite" else url)  # at the newest revision: nothing to do, nothing fails


def test_a_start_on_a_new_or_current_database_does_not_load_alembic(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    code = ("import asyncio, sys\nfrom bot.store.db import open_database\n"
            "async def main():\n    db = await open_database(sys.argv[1])\n    await db.close()\n"
            "asyncio.run(main())\nprint(sorted(m for m in sys.modules if m.split('.')[0] in ('alembic', 'mako')))")
    for _ in ("new", "current"):
        out = subprocess.run([sys.executable, "-c", code, url], capture_output=True, text=True, check=True)
        assert out.stdout.strip() == "[]", out.stdout + out.stderr


async def test_migrations_match_the_models(tmp_path: Path) -> None:
    path = tmp_path / "schema.db"
    await _by_migrations(f"sqlite+aiosqlite:///{path}")
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


async def test_every_sqlite_connection_keeps_a_bounded_page_cache(tmp_path: Path) -> None:
    from sqlalchemy import text

    from bot.store import SqliteStore
    from bot.store.hot import CACHE_KIB

    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'cache.db'}")
    try:
        assert isinstance(db.store, SqliteStore)
        for conn in (db.store._writer, db.store._reader):
            async with conn.execute("PRAGMA cache_size") as cur:
                assert (await cur.fetchone()) == (-CACHE_KIB,)
        async with db.engine.connect() as pooled:
            assert (await pooled.execute(text("PRAGMA cache_size"))).scalar() == -CACHE_KIB
    finally:
        await db.close()
