"""Operators: a consistent backup of the live SQLite database while games are being played, a restore that
checks what it is given and keeps what it replaces, and logs as JSON lines."""

from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.backup import BackupError, backup, check, restore
from bot.db import Database, open_database
from bot.play import GameService, Person

ROOT = Path(__file__).resolve().parent.parent


async def test_backup_while_playing_then_restore(db: Database, tmp_path: Path) -> None:
    svc = GameService(db)
    info = await svc.create("legend", Person(1, "Ann"), options={"mode": "starter"}, seed=3)
    await svc.join(info.game_id, Person(2, "Bob"))
    moment = await svc.start(info.game_id, 1)
    copy = tmp_path / "copy.db"
    assert backup(db.url, copy) == 1
    seat = min(moment.to_act)
    await svc.act(info.game_id, moment.user_of(seat), moment.rules.legal(moment.state, seat)[0])  # after the copy
    with pytest.raises(BackupError, match="exists already"):
        backup(db.url, copy)
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT count(*) FROM action").fetchone()[0] == 1  # the start, not the later move
    await db.close()
    games, kept = restore(db.url, copy)
    assert games == 1 and kept is not None and kept.exists()
    again = await open_database(db.url)
    try:
        assert len(await GameService(again).history(info.game_id)) == 1
        assert (await GameService(again).get(info.game_id)).status == "active"
    finally:
        await again.close()


def test_restore_refuses_what_is_not_a_tabula_database(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(BackupError, match="not a readable SQLite database"):
        check(junk)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x)")
    with pytest.raises(BackupError, match="not a Tabula database"):
        restore(f"sqlite+aiosqlite:///{tmp_path / 'tabula.db'}", other)
    with pytest.raises(BackupError, match="pg_dump"):
        backup("postgresql+asyncpg://u:p@localhost/db", tmp_path / "x.db")


def test_the_commands_and_json_logs(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'tabula.db'}"
    env = {"DATABASE_URL": url, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "bot", "migrate"], cwd=tmp_path, env=env, check=True, capture_output=True)
    made = subprocess.run([sys.executable, "-m", "bot", "backup", str(tmp_path / "b.db")], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert made.returncode == 0 and "backed up 0 games" in made.stdout
    bad = subprocess.run([sys.executable, "-m", "bot", "restore", str(tmp_path / "missing.db")], cwd=tmp_path,
                         env=env, capture_output=True, text=True)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1

    from bot.__main__ import _JsonLines

    record = logging.LogRecord("tabula.play", logging.INFO, __file__, 1, "game %d: moved", (7,), None)
    line = json.loads(_JsonLines().format(record))
    assert line["message"] == "game 7: moved" and line["level"] == "INFO" and line["logger"] == "tabula.play"
