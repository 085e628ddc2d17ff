"""Fixtures every test may use, and how the suite shares its workers (pytest-xdist, docs/tests.md).

Under ``-n`` each worker is its own process with its own temporary directories; ports are taken from the
system (port 0) and databases are SQLite files in ``tmp_path``.  The one thing the workers share is the
PostgreSQL database ``TABULA_TEST_POSTGRES_URL`` names, which a test wipes before it starts: every test that
uses it (marked ``postgres``, or parametrized onto that backend) holds a lock on that database from its setup
to its teardown, so they run one at a time whichever worker runs them (and whichever run: two test runs on one
machine wait for each other too)."""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.store.db import Database, open_database

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


def _postgres_lock() -> Path:
    """One lock file per database, outside the repository (the same for every worker and every run)."""
    url = os.environ.get("TABULA_TEST_POSTGRES_URL", "")
    return Path(tempfile.gettempdir()) / f"tabula-test-postgres-{hashlib.sha256(url.encode()).hexdigest()[:16]}.lock"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    if not (os.environ.get("TABULA_TEST_POSTGRES_URL") and uses_postgres(item)):
        yield
        return
    with _postgres_lock().open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if the worker dies
        yield


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'tabula.db'}")
    yield database
    await database.close()
