"""The real `python -m bot` on the loopback fake Discord, for the delivery tests: start it, kill it, press its
prompts without waiting on a process that may die, and check what the threads show against the database."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ops.testing_endpoints import ENV_VAR
from tests.fakediscord import FakeDiscord, StoredMessage

ROOT = Path(__file__).resolve().parent.parent
STEP = re.compile(r"^(?P<name>.+?) steps (?P<by>\d) to square (?P<at>\d+)\.$", re.M)


#: Set by tests/conftest.py for the whole run: the picture folder every bot process the tests start shares,
#: as the processes of one deployment share a volume (a test about the folder itself names its own).
SHARED_PICTURES = "TABULA_TEST_PICTURES"


def bot_env(db: Path, fake: FakeDiscord, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID", ENV_VAR)}
    env.update({"DATABASE_URL": f"sqlite+aiosqlite:///{db}", "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": fake.token,
                ENV_VAR: fake.url, "TABULA_GAMES": "tests.plugins.race", "TIMEOUT_POLL_SECONDS": "1",
                "GUILD_READY_TIMEOUT": "0.1"})
    return with_shared_pictures(env, extra)


def with_shared_pictures(env: dict[str, str], extra: dict[str, str]) -> dict[str, str]:
    """``env`` with the run's shared picture folder as ``PICTURE_CACHE_DIR`` (when the run has one), then
    ``extra`` over both (a test about the folder itself names its own)."""
    if os.environ.get(SHARED_PICTURES):
        env["PICTURE_CACHE_DIR"] = os.environ[SHARED_PICTURES]
    env.update(extra)
    return env


@dataclass
class Bot:
    """One `python -m bot` process."""

    proc: asyncio.subprocess.Process
    log: Path
    started: float = field(default_factory=time.monotonic)
    connects: int = 0  # the fake's gateway connections before this process opened

    @classmethod
    async def start(cls, db: Path, fake: FakeDiscord, **extra: str) -> Bot:
        bot = await cls.spawn(db, fake, **extra)
        await bot.open(fake)
        return bot

    @classmethod
    async def spawn(cls, db: Path, fake: FakeDiscord, **extra: str) -> Bot:
        """A process started ahead: it does its imports, then waits at its gate (``open``) before the database
        and Discord."""
        log = db.parent / f"bot-{len(list(db.parent.glob('bot-*.log'))):03d}.log"
        with log.open("wb") as err:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=db.parent, stdout=subprocess.DEVNULL, stderr=err,
                env=bot_env(db, fake, TABULA_TEST_GATE=str(log.with_suffix(".go")), **extra))
        return cls(proc, log)

    async def open(self, fake: FakeDiscord) -> None:
        self.connects = len(fake.gateway_connects)
        self.log.with_suffix(".go").touch()
        self.started = time.monotonic()
        await self.ready(fake)

    async def ready(self, fake: FakeDiscord, timeout: float = 30) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(fake.gateway_connects) <= self.connects or not fake.connected or fake.find_command("move") is None:
            if self.proc.returncode is not None:
                raise AssertionError(f"the bot exited while starting: {await self.stderr()}")
            if loop.time() > deadline:
                raise TimeoutError("the bot did not connect")
            await asyncio.sleep(0.02)

    @property
    def alive(self) -> bool:
        return self.proc.returncode is None

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGKILL)

    async def gone(self, fake: FakeDiscord) -> None:
        """Wait until the process has ended."""
        await self.proc.wait()

    async def stderr(self) -> str:
        """What the process wrote to stderr so far (its log)."""
        return self.log.read_text(errors="replace")

    async def stop(self, timeout: float = 40) -> float:
        """SIGTERM, as systemd and docker stop send it; returns the seconds until the process had ended."""
        self.proc.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        await asyncio.wait_for(self.proc.wait(), timeout=timeout)
        return time.monotonic() - sent


@contextlib.asynccontextmanager
async def running(db: Path, fake: FakeDiscord, **extra: str) -> AsyncIterator[Bot]:
    """The real bot on ``fake`` for the block, killed at its end if it still runs (a failed test leaves no
    process behind)."""
    bot = await Bot.start(db, fake, **extra)
    try:
        yield bot
    finally:
        bot.kill()


async def press(fake: FakeDiscord, bot: Bot, payload: dict[str, Any], timeout: float = 8.0) -> bool:
    """Dispatch an interaction and wait until it is answered and quiet, or the process died (False).

    A process killed (from outside, or at a crash point it was armed with) drops its gateway connection as it
    dies, and the fake may see the connection go before asyncio has reaped the process (about half the time):
    a press in that moment fails ("no client is connected") while ``bot.alive`` still says True.  So a failed
    press first waits a moment for the process's end; only a process that is still running after it failed
    the press."""
    task = asyncio.ensure_future(fake.interact(payload, timeout=timeout, quiet=0.05))
    died = asyncio.ensure_future(bot.proc.wait())
    done, _ = await asyncio.wait({task, died}, return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        exc = task.exception()
        if exc is not None:
            await asyncio.wait({died}, timeout=5)
        died.cancel()
        if exc is not None and bot.alive:
            raise exc
        return exc is None
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
    return False


def prompt_of(fake: FakeDiscord, thread_id: int) -> StoredMessage | None:
    """The newest message of the thread with a live select menu (what a player presses)."""
    for message in reversed(fake.messages(thread_id)):
        if any(c.startswith("tb:pick:") for c in message.custom_ids):
            return message
    return None


def live_prompts(fake: FakeDiscord, thread_id: int) -> list[StoredMessage]:
    return [m for m in fake.messages(thread_id) if any(c.startswith("tb:") for c in m.custom_ids)]


def user_for(fake: FakeDiscord, message: StoredMessage) -> dict[str, Any] | None:
    for user in (fake.alice, fake.bob, fake.carol):
        if f"<@{user['id']}>" in message.content:
            return user
    return None


def rows(db: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(db, timeout=10)) as conn:
        return list(conn.execute(sql, args).fetchall())


def told_steps(fake: FakeDiscord, thread_id: int) -> Counter[tuple[str, int]]:
    """Every "X steps N to square M." line the thread shows (one per move told)."""
    seen: Counter[tuple[str, int]] = Counter()
    for message in fake.messages(thread_id):
        for m in STEP.finditer(message.content):
            seen[(m["name"], int(m["at"]))] += 1
    return seen


def committed_steps(db: Path, game_id: int) -> Counter[tuple[str, int]]:
    """Every step the database holds for a game (its action log's events), by the stepping seat's name."""
    names = {int(s): str(n) for s, n in rows(db, "SELECT seat, name FROM seat WHERE game_id = ?", game_id)}
    out: Counter[tuple[str, int]] = Counter()
    for (events,) in rows(db, "SELECT events FROM action WHERE game_id = ? ORDER BY seq", game_id):
        for e in json.loads(events):
            if isinstance(e, dict) and "at" in e and "by" in e:
                out[(names[int(e["seat"])], int(e["at"]))] += 1
    return out


@dataclass
class Audit:
    """What the threads show against what the database committed."""

    games: int = 0
    moves: int = 0
    untold: int = 0
    twice: int = 0
    stale: int = 0
    owed: int = 0
    problems: list[str] = field(default_factory=list)


def audit(fake: FakeDiscord, db: Path) -> Audit:
    out = Audit()
    out.owed = rows(db, "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")[0][0]
    for game_id, thread_id, status in rows(db, "SELECT id, thread_id, status FROM game WHERE status != 'lobby'"):
        out.games += 1
        if thread_id is None:
            out.problems.append(f"game {game_id} has no thread")
            continue
        committed, told = committed_steps(db, game_id), told_steps(fake, thread_id)
        out.moves += sum(committed.values())
        for key, n in committed.items():
            if told[key] < n:
                out.untold += n - told[key]
                out.problems.append(f"game {game_id}: {key} committed, told {told[key]}x")
            elif told[key] > n:
                out.twice += told[key] - n
                out.problems.append(f"game {game_id}: {key} told {told[key]}x")
        begins = sum("begins!" in m.content for m in fake.messages(thread_id))
        if begins != 1:
            out.problems.append(f"game {game_id}: the start is told {begins}x")
            out.twice += max(0, begins - 1)
            out.untold += int(begins == 0)
        live = live_prompts(fake, thread_id)
        want = 1 if status == "active" else 0
        if len(live) > want:
            out.stale += len(live) - want
            out.problems.append(f"game {game_id} ({status}): {len(live)} messages with live controls")
        elif len(live) < want:
            out.problems.append(f"game {game_id}: no live prompt")
    return out


async def settled(fake: FakeDiscord, db: Path, timeout: float = 15.0, alive: Any = None) -> Audit:
    """Wait until nothing is owed and the threads agree with the database (or the time is up, or ``alive()``
    says the process died)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = audit(fake, db)
        if (found.owed == 0 and not found.problems) or loop.time() > deadline or (alive and not alive()):
            return found
        await asyncio.sleep(0.1)
