"""Shared pieces of the several-processes tests: a clean PostgreSQL (when TABULA_TEST_POSTGRES_URL is set)."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

PG_URL = os.environ.get("TABULA_TEST_POSTGRES_URL", "")
#: A module's ``pytestmark``: skipped without the database, and one at a time with its other users (tests/conftest.py).
needs_postgres = [
    pytest.mark.skipif(not PG_URL, reason="TABULA_TEST_POSTGRES_URL is not set (CI sets it, see .ci/run)"),
    pytest.mark.postgres,
]


async def clean_postgres() -> str:
    """Wipe the test database (it is CI's throwaway one) and return its URL."""
    engine = create_async_engine(PG_URL)
    async with engine.begin() as conn:
        await conn.execute(text("DROP SCHEMA public CASCADE"))
        await conn.execute(text("CREATE SCHEMA public"))
    await engine.dispose()
    return PG_URL
