from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.db import Database, open_database


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'tabula.db'}")
    yield database
    await database.close()
