"""A shard nobody runs, with two real ``python -m bot`` processes on one real PostgreSQL: when the process of the
shard that serves the fake's server dies (kill -9 right after a move's commit, before its post), the other
process's ``/healthz`` says so at once (503, ``degraded``, naming the shard; ``/livez`` stays 200), its metrics
count the shard as unclaimed, and it tells the dead process's owed moves once the outbox's settling time has
passed, exactly once; a process started later on that shard takes it over (``/healthz`` 200 again) and tells
nothing twice, and the server's games play on through it."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.ops.shards import shard_of
from tests.delivery_helpers import STEP, Bot, press, prompt_of, user_for
from tests.fakediscord import FakeDiscord
from tests.scale_helpers import clean_postgres, needs_postgres
from tests.test_scale_processes import ready_connections

pytestmark = needs_postgres


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.text()


async def _race_against_tabula(fake: FakeDiscord, bot: Bot) -> int:
    """/game new race, Tabula takes the second seat, Start: the new game's thread."""
    before = {t.id for t in fake.threads()}
    await fake.interact(fake.slash(fake.alice, fake.channel, "game", {"game": "race"}, subcommand="new"), timeout=30)
    lobby = next(m for m in reversed(fake.messages(fake.channel)) if m.embeds and "lobby" in m.embeds[0]["title"])
    for op in (":bot", ":start"):
        await fake.interact(fake.component(fake.alice, fake.message(lobby.id),
                                           next(c for c in lobby.custom_ids if c.endswith(op))), timeout=30)
    for _ in range(300):
        made = [t.id for t in fake.threads() if t.id not in before]
        if made and prompt_of(fake, made[0]) is not None:
            return made[0]
        await asyncio.sleep(0.05)
    raise AssertionError(f"the game did not start: {await bot.stderr()}")


def _pressing(fake: FakeDiscord, thread: int) -> dict[str, Any]:
    prompt = prompt_of(fake, thread)
    assert prompt is not None
    user = user_for(fake, prompt) or fake.alice
    menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
    return fake.component(user, prompt, menu, component_type=3, values=[prompt.component(menu)["options"][0]["value"]])


async def _committed(engine: AsyncEngine, thread: int) -> Counter[tuple[int, int]]:
    """Every step the database holds for the thread's game, as (seat, square)."""
    async with engine.connect() as conn:
        events = (await conn.execute(text("SELECT a.events FROM action a JOIN game g ON g.id = a.game_id "
                                          "WHERE g.thread_id = :t ORDER BY a.seq"), {"t": thread})).scalars().all()
    out: Counter[tuple[int, int]] = Counter()
    for raw in events:
        for e in json.loads(raw):
            if isinstance(e, dict) and "at" in e and "by" in e:
                out[(int(e["seat"]), int(e["at"]))] += 1
    return out


def _told(fake: FakeDiscord, thread: int) -> int:
    return sum(len(STEP.findall(m.content)) for m in fake.messages(thread))


async def _owed(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(text("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL"))).scalar_one())


@pytest.mark.slow
async def test_a_shard_nobody_runs_is_reported_its_moves_told_once_and_a_later_process_takes_it(tmp_path: Path) -> None:
    url = await clean_postgres()
    engine = create_async_engine(url)
    port = _free_port()
    async with FakeDiscord() as fake:
        home = shard_of(fake.guild_id, 2)  # the shard Discord sends the server's interactions to
        common = {"DATABASE_URL": url, "SHARD_COUNT": "2", "SHARD_LEASE_SECONDS": "6"}
        keeper = await Bot.start(tmp_path / "unused.db", fake, SHARD_IDS=str(1 - home), HEALTH_PORT=str(port),
                                 **common)
        server = await Bot.spawn(tmp_path / "unused.db", fake, SHARD_IDS=str(home), TABULA_TEST_CRASH="commit:1",
                                 **common)
        later: Bot | None = None
        base = f"http://127.0.0.1:{port}"
        try:
            server.log.with_suffix(".go").touch()
            await ready_connections(fake, 2)
            assert (await _get(base + "/healthz"))[0] == 200
            threads = [await _race_against_tabula(fake, server) for _ in range(2)]
            told_before = _told(fake, threads[0])
            assert not await press(fake, server, _pressing(fake, threads[0]))  # committed, then killed
            await server.proc.wait()
            killed = time.monotonic()
            assert await _owed(engine) >= 1  # the move and Tabula's answer, committed and not told

            status, body = await _get(base + "/healthz")
            report = json.loads(body)
            assert status == 503 and report["status"] == "degraded" and report["unclaimed_shards"] == [home], body
            assert report["ready"] and report["gateway"] and report["database"]
            assert (await _get(base + "/livez"))[0] == 200  # this process itself is well
            _, metrics = await _get(base + "/metrics")
            assert "tabula_shards_unclaimed 1.0" in metrics
            assert f'tabula_shard_claimed{{shard="{home}"}} 0.0' in metrics
            assert f'tabula_shard_claimed{{shard="{1 - home}"}} 1.0' in metrics

            for _ in range(600):  # the outbox's 20-second settling time, then the keeper's next sweep
                if await _owed(engine) == 0:
                    break
                await asyncio.sleep(0.1)
            took = time.monotonic() - killed
            committed = await _committed(engine, threads[0])
            assert await _owed(engine) == 0, await keeper.stderr()
            assert _told(fake, threads[0]) == sum(committed.values()), [m.content for m in fake.messages(threads[0])]
            assert _told(fake, threads[0]) > told_before
            for _ in range(100):  # said once the claims are released, after the move is marked told
                if "owed move(s) of games on shards no process runs" in await keeper.stderr():
                    break
                await asyncio.sleep(0.1)
            assert "owed move(s) of games on shards no process runs" in await keeper.stderr()

            later = await Bot.spawn(tmp_path / "unused.db", fake, SHARD_IDS=str(home), **common)
            later.log.with_suffix(".go").touch()
            await ready_connections(fake, 2)
            for _ in range(100):
                status, body = await _get(base + "/healthz")
                if status == 200:
                    break
                await asyncio.sleep(0.1)
            assert status == 200 and json.loads(body)["unclaimed_shards"] == [], body
            await asyncio.sleep(2.5)  # the new process's start-up sweep: nothing of the dead one's is told again
            assert _told(fake, threads[0]) == sum((await _committed(engine, threads[0])).values())
            moved = await fake.interact(_pressing(fake, threads[1]), timeout=15)  # the server's games play on
            assert moved.callback_type is not None
            for _ in range(100):
                if _told(fake, threads[1]) == sum((await _committed(engine, threads[1])).values()):
                    break
                await asyncio.sleep(0.1)
            assert _told(fake, threads[1]) == sum((await _committed(engine, threads[1])).values())
        finally:
            logs = []
            for proc in (keeper, later):
                if proc is not None and proc.alive:
                    proc.proc.send_signal(signal.SIGTERM)
                    await asyncio.wait_for(proc.proc.wait(), timeout=20)
                    logs.append(await proc.stderr())
            server.kill()
            await engine.dispose()
    for log in logs:
        assert "Traceback" not in log, log
    assert keeper.proc.returncode == 0 and later is not None and later.proc.returncode == 0
    print(f"\nshard {home}'s process killed after a commit: the other process reported it at once (503 degraded, "
          f"shard named), told its {sum(committed.values())} owed steps once {took:.0f} s later; a new process "
          "took the shard over and told nothing twice")
