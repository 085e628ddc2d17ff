"""Two real ``python -m bot`` processes on one real PostgreSQL, each with its own Discord shard, both sweeping
the same games: every reminder fires once, every timed move is played once, nothing is told twice; a third
process on shards already running is refused with one line; a process killed with SIGKILL can start again.
"""

from __future__ import annotations

import asyncio
import collections
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text

from bot.longplay.service import LongGameService
from bot.ops.shards import shard_of
from bot.ops.testing_endpoints import ENV_VAR
from bot.service.play import SYSTEM_USER, Person
from bot.store.db import Database, alembic_config, open_database
from tests.fakediscord import FakeDiscord
from tests.scale_helpers import clean_postgres, needs_postgres
from tests.test_entrypoint import bot_env

pytestmark = needs_postgres
REMINDERS, RUN_OUTS, TIMEOUTS = 8, 4, 4
PLAYED = re.compile(r"game (\d+): (?:seat \S+ \S+ -> v\d+|clock remind)")


async def thread_for(fake: FakeDiscord, name: str) -> int:
    """A thread in #general, made as the bot would make it (the REST route)."""
    async with aiohttp.ClientSession() as http, http.post(
            f"{fake.api_base}/channels/{fake.channel_id}/threads", json={"name": name, "type": 11},
            headers={"Authorization": f"Bot {fake.token}"}) as response:
        assert response.status == 201, await response.text()
        return int((await response.json())["id"])


async def games_waiting(db: Database, fake: FakeDiscord) -> dict[str, list[int]]:
    """Running games in the fake's server, each in its own thread, with Ann and Bob seated."""
    svc = LongGameService(db)
    ann, bob = Person(int(fake.alice["id"]), "alice"), Person(int(fake.bob["id"]), "bob")
    made: dict[str, list[int]] = {"remind": [], "run_out": [], "timeout": []}
    for kind, count in (("remind", REMINDERS), ("run_out", RUN_OUTS), ("timeout", TIMEOUTS)):
        for n in range(count):
            options = {"narration": "players"} if kind == "timeout" else {}
            info = await svc.create("legend", ann, guild_id=fake.guild_id, channel_id=fake.channel_id,
                                    options=options, seed=100 + n)
            await svc.join(info.game_id, bob)
            result = await svc.start(info.game_id, ann.id)
            while kind == "timeout" and result.state.phase != "explore":  # until a Narrator is waited for
                seat = min(result.rules.to_act(result.state))
                choices = result.choices(seat)
                into = [c for c in choices if "explore it" in c.label] or choices
                result = await svc.act(info.game_id, result.user_of(seat), command=into[0].command)
            await svc.set_thread(info.game_id, await thread_for(fake, f"game {info.game_id}"))
            made[kind].append(info.game_id)
    return made


DUE = {
    "remind": "UPDATE game SET remind_at = :past, wake_at = :past WHERE id = :id",
    "run_out": "UPDATE game SET clock_deadline = :past, remind_at = NULL, wake_at = :past WHERE id = :id",
    "timeout": "UPDATE game SET deadline = :past WHERE id = :id",
}


async def start_bot(fake: FakeDiscord, tmp_path: Path, url: str, shard: int, **extra: str) -> Any:
    env = bot_env(tmp_path, DISCORD_TOKEN=fake.token, DATABASE_URL=url, SHARD_COUNT="2", SHARD_IDS=str(shard),
                  TIMEOUT_POLL_SECONDS="0.5", SHARD_LEASE_SECONDS="6", **{ENV_VAR: fake.url}, **extra)
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)


async def ready_connections(fake: FakeDiscord, count: int, timeout: float = 40) -> None:
    deadline = time.monotonic() + timeout
    while sum(1 for c in fake._connections if c.ready) < count:
        assert time.monotonic() < deadline, "the bots did not connect"
        await asyncio.sleep(0.1)


@pytest.mark.slow
async def test_two_processes_on_postgresql_do_each_background_item_exactly_once(tmp_path: Path) -> None:
    url = await clean_postgres()
    db = await open_database(url)
    async with FakeDiscord() as fake:
        made = await games_waiting(db, fake)
        home = shard_of(fake.guild_id, 2)  # the shard Discord sends this server's interactions to
        bots = [await start_bot(fake, tmp_path, url, shard) for shard in (0, 1)]
        logs: list[bytes] = [b"", b""]
        try:
            await ready_connections(fake, 2)
            assert sorted(tuple(c.identify["shard"]) for c in fake._connections if c.identify) == [(0, 2), (1, 2)]
            # Misconfigured: a third process on a shard that already runs (it starts while the work comes due).
            third = await start_bot(fake, tmp_path, url, home, LOG_LEVEL="WARNING")
            # The work comes due a game at a time, so that both processes' sweeps meet it.
            started = time.monotonic()
            order = [(k, g) for i in range(REMINDERS) for k in made for g in made[k][i:i + 1]]
            for kind, game_id in order:
                async with db.engine.begin() as conn:
                    await conn.execute(text(DUE[kind]), {"past": time.time() - 1, "id": game_id})
                await asyncio.sleep(0.1)
            for _ in range(300):
                told = {g: [m.content for m in fake.messages(await thread(db, g))] for k in made for g in made[k]}
                # (a reminder follows its game's first telling in the thread, so it may come after it)
                if all(told[g] for g in told) and all(any("a reminder" in c for c in told[g]) for g in made["remind"]):
                    break
                await asyncio.sleep(0.1)
            took = time.monotonic() - started
            _, err = await asyncio.wait_for(third.communicate(), timeout=40)
            refusal = err.decode().strip().splitlines()
            assert third.returncode == 2 and len(refusal) == 1, err.decode()
            assert refusal[0].startswith(f"tabula: shard {home} is already running in another process on this "
                                         "database:") and "Give each process its own SHARD_IDS" in refusal[0]
            await asyncio.sleep(1.5)  # three more sweeps of each process: nothing more may happen
            told = {g: [m.content for m in fake.messages(await thread(db, g))] for k in made for g in made[k]}
            reminders = {g: sum("a reminder" in c for c in told[g]) for g in made["remind"]}
            assert reminders == {g: 1 for g in made["remind"]}, told
            for g in made["run_out"] + made["timeout"]:
                rows = [r for r in await LongGameService(db).history(g) if r.user_id == SYSTEM_USER]
                assert len(rows) == 1, (g, rows)  # Tabula's move, once
                assert told[g] and len(told[g]) == len(set(told[g])), (g, told[g])  # told, nothing twice
            assert all(sum("clock ran out" in c for c in told[g]) == 1 for g in made["run_out"])
            # Kill -9 one process: a restart on its shard works at once (same host, the old process is gone).
            bots[1].kill()
            _, err = await bots[1].communicate()
            logs[1] = err
            restarted = await start_bot(fake, tmp_path, url, 1)
            await ready_connections(fake, 2)
            restarted.kill()  # (a clean stop is the first process's, below; this one may still be drawing)
            await restarted.wait()
        finally:
            for i, proc in enumerate(bots):
                if proc.returncode is None:
                    proc.send_signal(signal.SIGTERM)
                    _, err = await asyncio.wait_for(proc.communicate(), timeout=60)
                    logs[i] += err
                    assert proc.returncode == 0 and b"Traceback" not in err, err.decode()
            await db.close()
    done = [collections.Counter(m.group(1) for m in PLAYED.finditer(log.decode())) for log in logs]
    items = len(order)
    print(f"\n{items} background items (reminders {REMINDERS}, clock run-outs {RUN_OUTS}, timed moves {TIMEOUTS}) "
          f"over two processes: done by the first {sum(done[0].values())}, by the second {sum(done[1].values())}; "
          f"duplicates 0; all told {took:.1f} s after the first came due")
    assert sum(done[0].values()) + sum(done[1].values()) == items
    assert not set(done[0]) & set(done[1])  # no game's item done by both


async def thread(db: Database, game_id: int) -> int:
    info = await LongGameService(db).lobby(game_id)
    assert info.thread_id is not None
    return info.thread_id


@pytest.mark.slow
async def test_processes_starting_together_upgrade_the_schema_once(tmp_path: Path) -> None:
    url = await clean_postgres()
    env = bot_env(tmp_path, DATABASE_URL=url, LOG_LEVEL="WARNING")
    starts = [await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", "migrate", cwd=tmp_path, env=env,
                                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
              for _ in range(2)]  # two processes starting at the same instant, on an empty database
    for proc in starts:
        _, err = await asyncio.wait_for(proc.communicate(), timeout=60)
        assert proc.returncode == 0 and not err, err.decode()
    db = await open_database(url, upgrade=False)
    try:
        async with db.engine.connect() as conn:
            head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()  # the newest migration
            assert (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one() == head
    finally:
        await db.close()
