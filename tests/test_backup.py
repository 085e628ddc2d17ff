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

from bot.ops.backup import BackupError, backup, check, restore
from bot.service.play import GameService, Person
from bot.store.db import Database, open_database

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


@pytest.mark.slow
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


@pytest.mark.slow
async def test_restore_is_refused_while_the_bot_runs_and_works_once_it_stopped(tmp_path: Path) -> None:
    """The real `python -m bot` on the loopback Discord holds the database: `restore` says so in one line, exits
    2 and touches nothing (the live write-ahead log stays, the bot plays on); stopped, the restore goes
    through and the next start serves the restored games."""
    import asyncio
    import signal

    from tests.delivery_helpers import Bot, bot_env, rows
    from tests.fakediscord import FakeDiscord
    from tests.test_delivery_stop import _pressing, _tables

    db = tmp_path / "bot.db"
    copy = tmp_path / "copy.db"

    async def cli(fake: FakeDiscord, *args: str) -> subprocess.CompletedProcess[str]:
        env = bot_env(db, fake)
        run = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", *args, cwd=tmp_path, env=env,
                                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = await run.communicate()
        return subprocess.CompletedProcess(args, run.returncode or 0, out.decode(), err.decode())

    async with FakeDiscord() as fake:
        bot = await Bot.start(db, fake)
        try:
            threads = await _tables(fake, bot, 2)
            made = await cli(fake, "backup", str(copy))
            assert made.returncode == 0 and "backed up 2 games" in made.stdout, made
            await fake.interact(_pressing(fake, threads[0]), timeout=15)  # a move after the backup
            moves = rows(db, "SELECT COUNT(*) FROM action")[0][0]
            wal = Path(f"{db}-wal")
            assert wal.exists()
            refused = await cli(fake, "restore", str(copy))
            assert refused.returncode == 2, refused
            line = refused.stderr.strip().splitlines()
            assert len(line) == 1 and line[0].startswith(f"tabula: a Tabula bot is running on {db} (pid "), line
            assert "stop it first" in line[0] and "Nothing was changed" in line[0]
            assert wal.exists() and Path(f"{db}-shm").exists()  # the live log is where it was
            assert not list(tmp_path.glob("bot.db.before-restore-*"))
            await fake.interact(_pressing(fake, threads[1]), timeout=15)  # the bot plays on
            assert rows(db, "SELECT COUNT(*) FROM action")[0][0] > moves
            bot.proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(bot.proc.wait(), timeout=15)
        finally:
            bot.kill()
        played = rows(db, "SELECT COUNT(*) FROM action")[0][0]
        done = await cli(fake, "restore", str(copy))
        assert done.returncode == 0 and "restored 2 games" in done.stdout, done
        assert rows(db, "SELECT COUNT(*) FROM action")[0][0] < played  # the backup's moves, not the later ones
        kept = next(tmp_path.glob("bot.db.before-restore-*"))
        with sqlite3.connect(kept) as conn:
            assert conn.execute("SELECT COUNT(*) FROM action").fetchone()[0] == played  # nothing is lost
        again = await Bot.start(db, fake)
        try:
            status = await fake.interact(fake.slash(fake.alice, threads[0], "game", subcommand="status"), timeout=15)
            assert status.callback_type is not None
        finally:
            again.proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(again.proc.wait(), timeout=15)
        assert again.proc.returncode == 0, await again.stderr()


@pytest.mark.slow
def test_restore_is_refused_while_another_program_has_the_database_open(tmp_path: Path) -> None:
    live = tmp_path / "tabula.db"
    url = f"sqlite+aiosqlite:///{live}"
    env = {"DATABASE_URL": url, "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "bot", "migrate"], cwd=tmp_path, env=env, check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "bot", "backup", str(tmp_path / "b.db")], cwd=tmp_path, env=env,
                   check=True, capture_output=True)
    reader = sqlite3.connect(live, isolation_level=None)
    reader.execute("PRAGMA journal_mode=WAL")
    reader.execute("BEGIN")
    reader.execute("SELECT COUNT(*) FROM game").fetchall()  # a read transaction: someone is looking at it
    try:
        with pytest.raises(BackupError, match=r"another program has .* open"):
            restore(url, tmp_path / "b.db")
    finally:
        reader.rollback()
        reader.close()
    assert restore(url, tmp_path / "b.db")[0] == 0
