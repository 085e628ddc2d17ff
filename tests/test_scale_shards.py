"""Sharding and the one-process checks: settings, the shard lease (heartbeat, expiry, clashes), the SQLite
file lock, and the real ``python -m bot`` refusing a second process on the same SQLite file."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from bot.front.client import TabulaBot
from bot.ops.config import Settings
from bot.ops.shards import EVERY_SHARD, ProcessConflict, ShardLease, ShardPlan, lock_sqlite, shard_of
from bot.ops.testing_endpoints import ENV_VAR
from bot.store.db import migrate
from tests.fakediscord import FakeDiscord
from tests.test_entrypoint import bot_env


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg, arg-type]


def test_shard_settings_read_a_list_and_refuse_what_cannot_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "0, 2")
    conf = settings()
    assert conf.shard_count == 4 and conf.shard_ids == (0, 2)
    plan = ShardPlan.from_settings(conf)
    assert plan.client_options() == {"shard_count": 4, "shard_ids": [0, 2]}
    assert plan.describe() == "shards 0, 2 of 4" and plan.lease_keys == (0, 2)
    for wrong, says in (("0,4", "between 0 and 3"), ("1,1", "twice")):
        monkeypatch.setenv("SHARD_IDS", wrong)
        with pytest.raises(ValueError, match=says):
            settings()
    monkeypatch.delenv("SHARD_COUNT")
    monkeypatch.setenv("SHARD_IDS", "1")
    with pytest.raises(ValueError, match="needs SHARD_COUNT"):
        settings()


def test_no_shard_settings_is_one_process_on_every_shard() -> None:
    plan = ShardPlan.from_settings(settings())
    assert plan.client_options() == {} and plan.lease_keys == (EVERY_SHARD,) and plan.owns(12345 << 22)
    bot = TabulaBot(settings())
    assert bot.shard_count is None and bot.shard_ids is None  # AutoShardedBot asks Discord how many
    sharded = TabulaBot(settings(shard_count=3, shard_ids=(1,)))
    assert sharded.shard_count == 3 and sharded.shard_ids == [1]


def test_a_server_is_on_the_shard_discord_sends_it_to() -> None:
    guild = 81384788765712384  # Discord's documentation example: (id >> 22) % count
    assert shard_of(guild, 1) == 0 and shard_of(guild, 2) == (guild >> 22) % 2 and shard_of(None, 4) == 0
    plan = ShardPlan(count=2, ids=(shard_of(guild, 2),))
    assert plan.owns(guild) and not ShardPlan(count=2, ids=(1 - shard_of(guild, 2),)).owns(guild)


@pytest.mark.slow
def test_a_wrong_setting_stops_python_m_bot_with_one_line(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=bot_env(tmp_path, SHARD_IDS="0,1"),
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().splitlines() == [
        "tabula: the settings are wrong: SHARD_IDS needs SHARD_COUNT (the shards of the whole deployment)"]


async def test_the_shard_lease_refuses_a_clash_lets_disjoint_shards_share_and_expires(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'lease.db'}"
    await migrate(url)
    engine = create_async_engine(url)
    now = [1000.0]

    def lease(plan: ShardPlan, owner: str) -> ShardLease:  # owners on other hosts: no process check applies
        return ShardLease(engine, plan, owner, seconds=30, clock=lambda: now[0])

    try:
        first = lease(ShardPlan(2, (0,)), "host-a:10:aa")
        await first.acquire()
        await lease(ShardPlan(2, (1,)), "host-b:11:bb").acquire()  # the other shard: fine
        with pytest.raises(ProcessConflict, match=r"shard 0 is already running .*host-a:10:aa") as err:
            await lease(ShardPlan(2, (0,)), "host-c:12:cc").acquire()
        assert "\n" not in str(err.value) and "runs out in 30 s" in str(err.value)
        with pytest.raises(ProcessConflict, match=r"SHARD_COUNT=2 .* SHARD_COUNT=3"):
            await lease(ShardPlan(3, (2,)), "host-c:12:cc").acquire()
        with pytest.raises(ProcessConflict, match="would run every shard"):
            await lease(ShardPlan(), "host-c:12:cc").acquire()  # no settings: it would take everyone's servers
        now[0] += 20
        assert await first.renew()  # the heartbeat keeps it
        now[0] += 25
        with pytest.raises(ProcessConflict):
            await lease(ShardPlan(2, (0,)), "host-c:12:cc").acquire()
        now[0] += 40  # host-a stopped beating (it crashed): its lease has run out, a restart takes the shard
        restarted = lease(ShardPlan(2, (0,)), "host-a:10:dd")
        await restarted.acquire()
        assert not await first.renew()  # the old life learns it lost the shard (and stops)
        await restarted.release()
        assert [h[0] for h in await restarted.holders()] == []  # host-b's lease ran out too: the table is clean
    finally:
        await engine.dispose()


async def test_a_lease_held_by_a_process_gone_on_this_host_is_taken_at_once(tmp_path: Path) -> None:
    import socket

    url = f"sqlite+aiosqlite:///{tmp_path / 'lease.db'}"
    await migrate(url)
    engine = create_async_engine(url)
    try:
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
        gone = ShardLease(engine, ShardPlan(), f"{socket.gethostname()}:{dead.stdout.strip()}:aa")
        await gone.acquire()
        mine = ShardLease(engine, ShardPlan(), f"{socket.gethostname()}:1:bb")
        await mine.acquire()  # pid of the finished child: not running any more, so no 30 s wait
        assert [h[1] for h in await mine.holders()] == [mine.owner]
    finally:
        await engine.dispose()


@pytest.mark.slow
def test_the_sqlite_file_lock_admits_one_holder(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'one.db'}"
    assert lock_sqlite("postgresql+asyncpg://x@y/z") is None and lock_sqlite("sqlite+aiosqlite://") is None
    held = lock_sqlite(url)
    assert held is not None
    child = subprocess.run([sys.executable, "-c", f"from bot.ops.shards import lock_sqlite; lock_sqlite({url!r})"],
                           capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent)
    assert child.returncode == 1 and "SQLite serves one process" in child.stderr
    held.close()
    again = lock_sqlite(url)  # released with its file: the next process gets it
    assert again is not None
    again.close()


@pytest.mark.slow
async def test_a_second_python_m_bot_on_the_same_sqlite_file_is_refused_with_one_line(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        env = bot_env(tmp_path, DISCORD_TOKEN=fake.token, **{ENV_VAR: fake.url})
        first = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            await fake.wait_until_connected(timeout=30)
            second = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            _, err = await asyncio.wait_for(second.communicate(), timeout=30)
            text = err.decode()
            assert second.returncode == 2, text
            lines = text.strip().splitlines()
            assert lines == [lines[0]] and "Traceback" not in text
            assert lines[0].startswith("tabula: another Tabula process (pid ") and "SQLite serves one process" in text
            assert str(tmp_path / "bot.db") in lines[0]
            assert len(fake.gateway_connects) == 1  # the refused one never reached Discord
        finally:
            first.send_signal(signal.SIGTERM)
            _, err = await asyncio.wait_for(first.communicate(), timeout=30)
        assert first.returncode == 0 and b"Traceback" not in err, err.decode()


async def test_a_process_whose_shards_were_taken_stops_itself(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'lease.db'}"
    await migrate(url)
    engine = create_async_engine(url)
    now = [1000.0]
    try:
        frozen = ShardLease(engine, ShardPlan(2, (1,)), "host-a:10:aa", seconds=2, clock=lambda: now[0])
        await frozen.acquire()
        now[0] += 10  # it missed its heartbeats (a frozen VM): the lease ran out and another process took it
        await ShardLease(engine, ShardPlan(2, (1,)), "host-b:11:bb", seconds=2, clock=lambda: now[0]).acquire()
        stopped = asyncio.Event()
        frozen.start_heartbeat(stopped.set)
        await asyncio.wait_for(stopped.wait(), timeout=5)  # its next heartbeat finds the lease gone: it stops
        assert frozen.lost.is_set()
        await frozen.release()  # a stop gives back only its own lease
        assert [h[1] for h in await frozen.holders()] == ["host-b:11:bb"]
    finally:
        await engine.dispose()


async def test_the_shards_no_live_process_holds_are_the_unclaimed_ones(tmp_path: Path) -> None:
    import socket

    url = f"sqlite+aiosqlite:///{tmp_path / 'lease.db'}"
    await migrate(url)
    engine = create_async_engine(url)
    now = [1000.0]
    try:
        mine = ShardLease(engine, ShardPlan(4, (0,)), "host-a:10:aa", seconds=6, clock=lambda: now[0])
        await mine.acquire()
        assert await mine.unclaimed() == [1, 2, 3]
        await ShardLease(engine, ShardPlan(4, (1, 2)), "host-b:11:bb", seconds=2, clock=lambda: now[0]).acquire()
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
        await ShardLease(engine, ShardPlan(4, (3,)), f"{socket.gethostname()}:{dead.stdout.strip()}:cc",
                         seconds=600, clock=lambda: now[0]).acquire()
        assert await mine.watch() == frozenset({3})  # its process is gone (this host): at once, not in 600 s
        now[0] += 3  # host-b missed its heartbeats: its lease ran out
        assert await mine.unclaimed() == [1, 2, 3] and mine.orphans == frozenset({3})
        assert await mine.watch() == frozenset({1, 2, 3})
        assert await ShardLease(engine, ShardPlan(), "host-c:1:dd").unclaimed() == []  # every shard: none to miss
    finally:
        await engine.dispose()
