"""The real `python -m bot` on the loopback fake Discord with its wall clock moved from outside.

libfaketime is preloaded into the bot's process and reads the clock's offset from a file again once the
second has changed (``FAKETIME_CACHE_DURATION=0``; ``Wall.advance`` waits for that second to pass, so the bot
sees the new time when it returns); ``DONT_FAKE_MONOTONIC`` leaves the monotonic clock alone, so asyncio,
discord.py's heartbeats and the fake's timeouts run in real time while ``time.time()`` (every turn clock,
reminder, vacation and deadline the bot keeps) is wherever the test has moved it.  Where libfaketime is not
installed (``apt-get install libfaketime``), the tests that need it are skipped with one line saying so.

Not ``FAKETIME_NO_CACHE`` (the file read at every call): libfaketime converts every timed wait of a thread too
(``pthread_cond_timedwait``, which the interpreter's lock uses whenever two threads take turns), so a bot playing
with its database threads busy opened and read the file 10,500 times a second (strace: 84,266 reads and 169,289
futex calls in 8 s), and one process of the resume test below took 42 s of user and 84 s of system CPU."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import os
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from tests.delivery_helpers import Bot, rows
from tests.fakediscord import FakeDiscord, InteractionReply, StoredMessage

_PLACES = ("/usr/lib/*/faketime/libfaketime.so.1", "/usr/lib/faketime/libfaketime.so.1",
           "/usr/local/lib/faketime/libfaketime.so.1", "/usr/lib64/faketime/libfaketime.so.1")
LIBFAKETIME = next((found for place in _PLACES for found in sorted(glob.glob(place))), None)
needs_libfaketime = pytest.mark.skipif(
    LIBFAKETIME is None, reason="libfaketime is not installed (apt-get install libfaketime): the bot's clock cannot "
                                "be moved from outside, so the long-game tests through the real process are skipped")
MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0


class Wall:
    """The bot's wall clock, moved from outside (the offset libfaketime reads once the second has changed)."""

    def __init__(self, home: Path) -> None:
        self.file = home / "faketime"
        self.offset = 0.0
        self._write()

    def env(self) -> dict[str, str]:
        assert LIBFAKETIME is not None
        return {"LD_PRELOAD": LIBFAKETIME, "FAKETIME_TIMESTAMP_FILE": str(self.file), "FAKETIME_CACHE_DURATION": "0",
                "DONT_FAKE_MONOTONIC": "1"}

    async def advance(self, seconds: float) -> None:
        """Move the bot's clock on by ``seconds``: seen by every call the bot makes once this returns."""
        self.offset += seconds
        self._write()
        # libfaketime keeps what it read for the rest of the second it read it in (real time): past that second's
        # end, the next call in the bot reads the file again.
        await asyncio.sleep(1.05 - time.time() % 1.0)

    def now(self) -> float:
        """What the bot's ``time.time()`` says now."""
        return time.time() + self.offset

    def _write(self) -> None:
        part = self.file.with_suffix(".new")
        part.write_text(f"+{int(self.offset)}\n")
        os.replace(part, self.file)  # never half a number: the bot reads it at any moment


class Table:
    """One fake Discord, one database, and the bot process serving them now (restarted at will)."""

    def __init__(self, home: Path, fake: FakeDiscord) -> None:
        self.home, self.fake, self.db = home, fake, home / "bot.db"
        self.wall = Wall(home)
        self.bot: Bot | None = None
        self.spawned: list[Bot] = []
        self._warmed: list[Bot] = []
        self._spare: tuple[dict[str, str], Bot] | None = None

    async def _spawn(self, extra: dict[str, str]) -> Bot:
        # Race to Ten has a turn timeout of its own (Tabula steps for a player after TURN_TIMEOUT_MINUTES): a
        # week, so that only the turn clocks under test act on these games.
        made = await Bot.spawn(self.db, self.fake, **self.wall.env(), **{"TURN_TIMEOUT_MINUTES": "10080", **extra})
        self.spawned.append(made)
        return made

    async def prepare(self, **extra: str) -> None:
        """Start the next process ahead (its imports done while the test goes on); ``start`` with the same
        settings opens it."""
        if self._spare is not None:
            self._spare[1].kill()
        self._spare = (extra, await self._spawn(extra))

    async def start(self, **extra: str) -> Bot:
        """A bot process (killing the one before, at once, as kill -9 would)."""
        if self._spare is not None and self._spare[0] == extra:
            made, self._spare = self._spare[1], None
        else:
            made = await self._spawn(extra)
        if self.bot is not None and self.bot.alive:
            self.bot.kill()
            await self.bot.gone(self.fake)
        await made.open(self.fake)
        self.bot = made
        return made

    async def warm(self, bot: Bot, timeout: float = 90.0) -> None:
        """Wait for the process's start-up warm-up (the renderers imported), so that the test's first press is
        not the one that waits for it on a busy machine (each test here is about something else)."""
        if bot in self._warmed:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while bot.alive and "pictures are kept" not in await bot.stderr() and loop.time() < deadline:
            await asyncio.sleep(0.1)
        self._warmed.append(bot)

    def stop(self) -> None:
        for bot in self.spawned:
            bot.kill()

    async def ask(self, payload: dict[str, Any], timeout: float = 15.0) -> InteractionReply:
        """An interaction, answered by the bot (which must stay alive)."""
        assert self.bot is not None
        await self.warm(self.bot)
        task = asyncio.ensure_future(self.fake.interact(payload, timeout=timeout, quiet=0.1))
        died = asyncio.ensure_future(self.bot.proc.wait())
        done, _ = await asyncio.wait({task, died}, return_when=asyncio.FIRST_COMPLETED)
        if task not in done:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
            raise AssertionError(f"the bot died: {await self.bot.stderr()}")
        died.cancel()
        return task.result()

    async def until(self, what: Callable[[], bool], timeout: float = 60.0, *, alive: bool = True) -> None:
        """Wait until ``what()`` holds (the bot staying alive, unless ``alive`` is False)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not what():
            if alive and self.bot is not None and not self.bot.alive:
                raise AssertionError(f"the bot died: {await self.bot.stderr()}")
            if loop.time() > deadline:
                log = await self.bot.stderr() if self.bot is not None else ""
                raise AssertionError(f"still waiting after {timeout}s; the bot's log ends:\n{log[-3000:]}")
            await asyncio.sleep(0.05)

    def sql(self, query: str, *args: Any) -> list[tuple[Any, ...]]:
        return rows(self.db, query, *args)

    def said(self, channel: int, text: str) -> list[StoredMessage]:
        return [m for m in self.fake.messages(channel) if text in m.content]

    async def new_game(self, game: str = "race", *, guest: dict[str, Any] | None = None, tabula: bool = False,
                       **options: Any) -> tuple[int, int]:
        """/game new by Alice, Bob joins (and Tabula, when asked), Start: (the game's id, its thread)."""
        fake = self.fake
        before = len(fake.messages(fake.channel))
        await self.ask(fake.slash(fake.alice, fake.channel, "game", {"game": game, **options}, subcommand="new"))
        # On a busy machine an answer can be a deferral that the lobby follows: wait for what comes next.
        def lobbies() -> list[StoredMessage]:
            return [m for m in fake.messages(fake.channel)[before:] if m.embeds and "lobby" in m.embeds[0]["title"]]

        await self.until(lambda: bool(lobbies()))
        lobby_id = lobbies()[0].id

        async def press(person: Any, ending: str) -> None:
            """Press a lobby button, and wait until the lobby shows what it did (its embed changes)."""
            lobby = fake.message(lobby_id)
            shown = json.dumps(lobby.embeds, sort_keys=True)
            await self.ask(fake.component(person, lobby, next(c for c in lobby.custom_ids if c.endswith(ending))))
            await self.until(lambda: json.dumps(fake.message(lobby_id).embeds, sort_keys=True) != shown)

        await press(guest or fake.bob, ":join")
        if tabula:
            await press(fake.alice, ":bot")
        lobby = fake.message(lobby_id)
        game_id = int(lobby.custom_ids[0].split(":")[2])
        await self.ask(fake.component(fake.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start"))))
        await self.until(lambda: self.sql("SELECT thread_id FROM game WHERE id = ?", game_id) != [(None,)])
        [(thread,)] = self.sql("SELECT thread_id FROM game WHERE id = ?", game_id)
        await self.until(lambda: self.prompt(int(thread)) is not None)
        return game_id, int(thread)

    def prompt(self, thread: int) -> StoredMessage | None:
        """The thread's message with live controls (what a player presses)."""
        for message in reversed(self.fake.messages(thread)):
            if any(c.startswith("tb:pick:") or c.startswith("tb:do:") for c in message.custom_ids):
                return message
        return None

    def deadline(self, game_id: int) -> float | None:
        [(deadline,)] = self.sql("SELECT clock_deadline FROM game WHERE id = ?", game_id)
        return None if deadline is None else float(deadline)

    def person(self, user_id: int) -> dict[str, Any]:
        fake = self.fake
        return next(u for u in (fake.alice, fake.bob, fake.carol) if int(u["id"]) == user_id)

    def to_act(self, thread: int) -> dict[str, Any]:
        """Whoever the newest prompt pings."""
        prompt = self.prompt(thread)
        assert prompt is not None
        [user] = prompt.pings.users
        return self.person(user)

    async def step(self, thread: int, who: dict[str, Any] | None = None) -> None:
        """The player the prompt pings (or ``who``) steps, by the prompt's menu."""
        prompt = self.prompt(thread)
        assert prompt is not None
        menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
        value = prompt.component(menu)["options"][0]["value"]
        await self.ask(self.fake.component(who or self.to_act(thread), prompt, menu, component_type=3,
                                           values=[value]))


@contextlib.asynccontextmanager
async def opened(home: Path, *, deadline: float = 10.0) -> AsyncIterator[Table]:
    """A fake Discord with a bot process started on it; every process the test started is killed at the end.
    ``deadline``: Discord's 3 seconds to answer, with room for a machine busy with other tests (what must be
    deferred is checked as such)."""
    async with FakeDiscord(interaction_deadline=deadline) as fake:
        table = Table(home, fake)
        try:
            await table.start()
            yield table
        finally:
            table.stop()


__all__ = ["DAY", "HOUR", "LIBFAKETIME", "MINUTE", "Table", "Wall", "needs_libfaketime", "opened"]
