"""Fixtures every test may use, and how the suite shares its workers (pytest-xdist, docs/tests.md).

Under ``-n`` each worker is its own process with its own temporary directories; ports are taken from the
system (port 0) and databases are SQLite files in ``tmp_path``.  The one thing the workers share is the
PostgreSQL database ``TABULA_TEST_POSTGRES_URL`` names, which a test wipes before it starts: every test that
uses it is put in the xdist group ``postgres`` here, so they all run one after another on one worker
(``--dist loadgroup``, set in pyproject.toml)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.db import Database, open_database

#: The parameter values that mean "this run is on PostgreSQL" in the tests that run on both databases.
POSTGRES_PARAMS = {"postgres", "postgresql"}


def uses_postgres(item: pytest.Item) -> bool:
    """Marked ``postgres`` (a module's or a test's mark), or parametrized onto the PostgreSQL backend."""
    if item.get_closest_marker("postgres") is not None:
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and any(
        isinstance(value, str) and value in POSTGRES_PARAMS for value in callspec.params.values())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if uses_postgres(item):
            item.add_marker(pytest.mark.postgres)
            item.add_marker(pytest.mark.xdist_group("postgres"))


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'tabula.db'}")
    yield database
    await database.close()
