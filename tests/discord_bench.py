"""The `/explore` interaction, timed end to end through the loopback fake of Discord (used by tests/bench_discord.py).

Latency is measured from the moment the fake dispatches INTERACTION_CREATE on the gateway to the moment
the bot's interaction callback (the public reply, board PNG attached) has arrived at the fake's HTTP
server: discord.py's parsing and dispatch, the service, rendering and the upload are all inside it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import tempfile
from collections.abc import Callable, Coroutine
from contextlib import AbstractAsyncContextManager, nullcontext
from pathlib import Path
from typing import Any

from bot.store.db import open_database
from rules.spec import Command
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory, uid


async def explore_latencies(n: int, beside: Callable[[FakeDiscordHarness], Coroutine[Any, Any, None]] | None = None,
                            *, settings: dict[str, Any] | None = None,
                            around: Callable[[FakeDiscordHarness, Any], AbstractAsyncContextManager[Any]] | None = None
                            ) -> list[float]:
    """``n`` timed `/explore` interactions, game after game; ``beside``, when given, runs in the same bot meanwhile
    (other games being played, such as Tabula's seats thinking) and is cancelled at the end; ``settings`` for the
    bot, and ``around`` (given the harness and each game's opening message) wraps the timed moves of each game
    (``tests.bench_web`` opens pages)."""
    work = Path(tempfile.mkdtemp(prefix="tabula-discord-bench-"))
    db = await open_database(f"sqlite+aiosqlite:///{work / 'bench.db'}")
    rng = random.Random(5)
    out: list[float] = []
    try:
        async with FakeDiscordHarness(bot_factory(db, **(settings or {})), quiet=0.01) as h:
            people = {uid(h.alice): h.alice, uid(h.bob): h.bob}
            warmed = getattr(h.bot, "warmed", None)
            if warmed is not None:
                await warmed  # steady state: the startup warm-up has drawn every card
            side = asyncio.create_task(beside(h)) if beside is not None else None
            while len(out) < n:
                await h.slash(h.alice, h.channel, "game", {"game": "legend", "mode": "starter"}, subcommand="new")
                lobby = h.messages()[-1]
                await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
                lobby = h.fake.message(lobby.id)
                await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start")))
                thread = h.threads()[-1]
                for _wait in range(1000):  # a loaded machine may post the first prompt a moment later
                    if h.messages(thread.id):
                        break
                    await asyncio.sleep(0.01)
                async with around(h, h.messages(thread.id)[-1]) if around is not None else nullcontext():
                    await _moves(h, thread, people, rng, out, n)
            if side is not None:
                side.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await side
    finally:
        await db.close()
    return out


async def _moves(h: FakeDiscordHarness, thread: Any, people: dict[int, Any], rng: random.Random, out: list[float],
                 n: int) -> None:
    """Timed `/explore` moves in one game until it ends or ``out`` holds ``n``."""
    while len(out) < n:
        message = h.messages(thread.id)[-1]
        if not message.pings.users:
            break  # the game is over
        who = people[next(iter(message.pings.users))]
        select = next((c for c in message.custom_ids if c.startswith("tb:pick:")), None)
        if select is None:
            raise RuntimeError("the prompt has no move menu: the benchmark no longer fits the game")
        options = [Command.decode(o["value"]).get("to") for o in message.component(select)["options"]]
        reply = await h.slash(who, thread.payload, "explore", {"to": rng.choice(options)})
        record = h.fake.interactions[reply.token]
        callback = next(r for r in reply.requests if r.path.endswith("/callback"))
        out.append((callback.at - record.dispatched_at) * 1000)
