"""Alembic environment: runs the migrations on the async engine given by the caller (or DATABASE_URL)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlmodel import SQLModel

import bot.store.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from bot.store.db import MIGRATION_LOCK

config = context.config
target_metadata = SQLModel.metadata


def _run(connection: Connection) -> None:
    if connection.dialect.name == "sqlite":
        # A new SQLite file gets 8 KiB pages (it has no effect on an existing one): a game of Champion of the
        # Empire is about 5 KiB of state, and with 4 KiB pages every move would also write an overflow page.
        connection.exec_driver_sql("PRAGMA page_size=8192")
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Several processes starting at once on one database: one upgrades, the others wait for it and then
            # find the schema at its newest revision (the lock ends with the transaction).
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        context.run_migrations()


async def _online() -> None:
    url = config.get_main_option("sqlalchemy.url")
    assert url, "sqlalchemy.url must be set"
    engine = create_async_engine(url)
    async with engine.connect() as conn:
        await conn.run_sync(_run)
        await conn.commit()
    await engine.dispose()


if context.is_offline_mode():
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata,
                      literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(_online())
