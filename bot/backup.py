"""`python -m bot backup FILE` and `python -m bot restore FILE`: a consistent copy of a live SQLite database,
and putting one back.

The copy uses SQLite's online backup API, so it is consistent even while the bot is writing (pages changed
during the copy are copied again).  A restore first checks the file (``PRAGMA integrity_check`` and that it
holds Tabula's tables at a schema this release knows), and keeps the database it replaces beside it.
PostgreSQL is backed up with its own tools (see the README)."""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

from bot.store import sqlite_path

TABLES = {"game", "seat", "action", "alembic_version"}


class BackupError(Exception):
    """What went wrong, in one line for the operator."""


def _database_file(url: str) -> Path:
    path = sqlite_path(url)
    if path is None or path == ":memory:":
        raise BackupError("backup and restore work on a SQLite DATABASE_URL; for PostgreSQL use pg_dump and "
                          "pg_restore (see the README).")
    return Path(path)


def backup(url: str, target: Path) -> int:
    """Copy the live database at ``url`` to ``target``; returns the number of games in the copy."""
    source = _database_file(url)
    if not source.exists():
        raise BackupError(f"there is no database at {source}.")
    if target.exists():
        raise BackupError(f"{target} exists already; choose a new file name.")
    with sqlite3.connect(source) as live, sqlite3.connect(target) as copy:
        live.backup(copy, pages=256, sleep=0.005)  # a step at a time, so the bot's writes go on meanwhile
    return check(target)


def check(file: Path) -> int:
    """That ``file`` is a sound Tabula database; returns how many games it holds."""
    try:
        with sqlite3.connect(f"file:{file}?mode=ro", uri=True) as conn:
            if conn.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise BackupError(f"{file} fails SQLite's integrity check.")
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not names >= TABLES:
                raise BackupError(f"{file} is not a Tabula database (it lacks {', '.join(sorted(TABLES - names))}).")
            return int(conn.execute("SELECT count(*) FROM game").fetchone()[0])
    except sqlite3.DatabaseError as err:
        raise BackupError(f"{file} is not a readable SQLite database ({err}).") from err


def restore(url: str, source: Path) -> tuple[int, Path | None]:
    """Put the backup ``source`` in place of the database at ``url`` (the bot must be stopped); returns the
    number of games and where the replaced database was kept."""
    target = _database_file(url)
    games = check(source)
    kept = None
    if target.exists():
        kept = target.with_name(f"{target.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}")
        with sqlite3.connect(target) as old, sqlite3.connect(kept) as spare:
            old.backup(spare)
    for suffix in ("-wal", "-shm"):  # the old database's journal must not be replayed onto the restored one
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(source, target)
    return games, kept
