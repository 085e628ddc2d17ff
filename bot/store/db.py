"""The database: one async engine and session factory per process, SQLite in WAL mode by default.

``open_database(url)`` upgrades the schema to the newest migration (so an upgraded bot keeps every running
game) and returns a ``Database`` holding the engine, the session factory and the hot-path game store.

Alembic is imported only when a database made by an earlier release needs its migrations: a database already
at the newest revision needs nothing, and a new, empty one gets the models' tables directly (the very schema
the migrations build: ``tests/test_database.py`` compares the two), stamped with that revision.  Alembic and
the SQL dialects it loads are some 11 MB of a bot process that would otherwise keep them for its whole life,
for a step that runs once per release.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, MetaData, PrimaryKeyConstraint, String, Table, event, inspect
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlmodel import SQLModel
from sqlmodel.ext.asyncio.session import AsyncSession

import bot.store.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from bot.store import GameStore, Queries, open_store
from bot.store.hot import CACHE_KIB

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger("tabula.db")
MIGRATIONS = Path(__file__).parent / "migrations"
#: The newest migration's revision (``migrations/versions``); ``tests/test_database.py`` fails when a new
#: migration is added without moving it.
HEAD = "0009"
MIGRATION_LOCK = 0x7A6B_0013  # the advisory lock id the schema upgrade holds on PostgreSQL
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
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


async def migrate(url: str) -> None:
    """Bring the schema to the newest revision: at ``HEAD`` already, nothing; a new, empty database, the models'
    tables at once; otherwise Alembic's migrations (in a worker thread: Alembic drives its own loop)."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            settled = await conn.run_sync(_settled)
            await conn.commit()
    finally:
        await engine.dispose()
    if not settled:
        from alembic import command

        await asyncio.to_thread(command.upgrade, alembic_config(url), "head")


def _settled(connection: Connection) -> bool:
    """Whether the schema is at ``HEAD`` now: it was, or the database was empty and now has the models' tables
    stamped ``HEAD``.  On PostgreSQL the upgrade's lock is held meanwhile, so of several processes starting at
    once on an empty database one creates the tables and the others find them."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
    tables = set(inspect(connection).get_table_names())
    if "alembic_version" in tables:
        return connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == HEAD
    if tables:
        return False  # tables without a revision: Alembic says what is wrong
    if connection.dialect.name == "sqlite":
        # A new SQLite file gets 8 KiB pages (as the first migration gives it): see migrations/env.py.
        connection.exec_driver_sql("PRAGMA page_size=8192")
    SQLModel.metadata.create_all(connection)
    version = Table("alembic_version", MetaData(), Column("version_num", String(32), nullable=False),
                    PrimaryKeyConstraint("version_num", name="alembic_version_pkc"))
    version.create(connection)
    connection.execute(version.insert().values(version_num=HEAD))
    return True


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
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
