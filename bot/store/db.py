"""The database: one async engine and session factory per process, SQLite in WAL mode by default.

``open_database(url)`` upgrades the schema to the newest migration (so an upgraded bot keeps every running
game) and returns a ``Database`` holding the engine, the session factory and the hot-path game store.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.store import GameStore, Queries, open_store

log = logging.getLogger("tabula.db")
MIGRATIONS = Path(__file__).parent / "migrations"
BUSY_TIMEOUT_MS = 10_000


@dataclass
class Database:
    url: str
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    store: GameStore

    @property
    def queries(self) -> Queries:
        return Queries(self.sessions)

    async def close(self) -> None:
        await self.engine.dispose()  # first, so the store's final checkpoint finds no other readers
        await self.store.close()


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


async def migrate(url: str) -> None:
    """Bring the schema to the newest revision (runs in a worker thread: Alembic drives its own loop)."""
    await asyncio.to_thread(command.upgrade, alembic_config(url), "head")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


async def open_database(url: str, *, upgrade: bool = True) -> Database:
    if upgrade:
        await migrate(url)
    engine = create_async_engine(url)
    if url.startswith("sqlite"):
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    sessions = async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)
    store = await open_store(url, engine)
    log.info("database ready: %s", url.split("@")[-1])
    return Database(url=url, engine=engine, sessions=sessions, store=store)
