"""`python -m bot backup FILE` and `python -m bot restore FILE`: a consistent copy of a live SQLite database,
and putting one back.

The copy uses SQLite's online backup API, so it is consistent even while the bot is writing (pages changed
during the copy are copied again).  A restore first checks the file (``PRAGMA integrity_check`` and that it
holds Tabula's tables at a schema this release knows), refuses while a bot runs on the database, and keeps
the database it replaces beside it.
PostgreSQL is backed up with its own tools (see the README)."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path

from bot.ops.shards import ProcessConflict, lock_sqlite
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
    with contextlib.closing(sqlite3.connect(source)) as live, contextlib.closing(sqlite3.connect(target)) as copy:
        live.backup(copy, pages=256, sleep=0.005)  # a step at a time, so the bot's writes go on meanwhile
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file (the live one's mode is WAL)
    return check(target)


def check(file: Path) -> int:
    """That ``file`` is a sound Tabula database; returns how many games it holds."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{file}?mode=ro", uri=True)) as conn:
            if conn.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise BackupError(f"{file} fails SQLite's integrity check.")
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not names >= TABLES:
                raise BackupError(f"{file} is not a Tabula database (it lacks {', '.join(sorted(TABLES - names))}).")
            return int(conn.execute("SELECT count(*) FROM game").fetchone()[0])
    except sqlite3.DatabaseError as err:
        raise BackupError(f"{file} is not a readable SQLite database ({err}).") from err


def restore(url: str, source: Path) -> tuple[int, Path | None]:
    """Put the backup ``source`` in place of the database at ``url``; returns the number of games and where the
    replaced database was kept.

    Refused while a bot runs on the database (it holds ``<database>.lock``, see ``bot.ops.shards.lock_sqlite``) or
    another program has it open; the lock is held meanwhile, so no bot starts half-way.  Nothing is deleted by
    hand: SQLite folds the live write-ahead log into the file itself (a journal-mode change, which it makes only
    when no other connection has the file open), and the backup is written into the database through SQLite's
    backup API, so no old journal can ever be replayed onto the restored pages."""
    target = _database_file(url)
    games = check(source)
    try:
        held = lock_sqlite(url)
    except ProcessConflict as err:
        raise BackupError(f"a Tabula bot is running on {target} ({err.holder}); stop it first, then restore. "
                          "Nothing was changed.") from None
    try:
        existed = target.exists()
        with contextlib.closing(sqlite3.connect(target, timeout=1)) as live:
            try:
                mode = live.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
            except sqlite3.OperationalError:
                mode = "busy"
            if str(mode).lower() != "delete":
                raise BackupError(f"another program has {target} open; close it (or stop what uses it), then "
                                  "restore. Nothing was changed.")
            kept = None
            if existed:
                kept = target.with_name(f"{target.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}")
                with contextlib.closing(sqlite3.connect(kept)) as spare:
                    live.backup(spare)
            with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as backup_file:
                backup_file.backup(live)
        return games, kept
    finally:
        if held is not None:
            held.close()
