"""Stopping the real `python -m bot` (SIGTERM, as systemd and docker send it): under load every interaction in
flight is answered and every move it committed is posted before the connection closes, with no traceback; an
interaction arriving during the stop is asked, privately, to try again; with Discord unreachable the process
still exits well within the 10 seconds container runtimes allow."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from bot.ops.shutdown import RESTARTING
from tests.delivery_helpers import Bot, audit, prompt_of, rows, user_for
from tests.fakediscord import FakeDiscord, InteractionReply

GAMES = 40
NOISE = ("Traceback", "Session is closed", "Task exception was never retrieved", "Unclosed", "Exception ignored")


async def _tables(fake: FakeDiscord, bot: Bot, count: int) -> list[int]:
    """``count`` games of Race to Ten, started (every other one against Tabula), a few side by side (the
    set-up is not what is measured: it must not outrun Discord's 3-second answer on a loaded machine)."""
    room = asyncio.Semaphore(6)

    async def one(i: int) -> None:
        host = (fake.alice, fake.bob, fake.carol)[i % 3]
        async with room:
            await fake.interact(fake.slash(host, fake.channel, "game", {"game": "race"}, subcommand="new"), timeout=30)
    await asyncio.gather(*(one(i) for i in range(count)))
    lobbies = [m for m in fake.messages(fake.channel) if m.embeds and "lobby" in m.embeds[0]["title"]]
    assert len(lobbies) == count

    async def seat(i: int, lobby: Any) -> None:
        host = next(u for u in (fake.alice, fake.bob, fake.carol) if u["id"] in str(lobby.embeds[0]))
        guest = next(u for u in (fake.alice, fake.bob, fake.carol) if u is not host)
        op = ":join" if i % 2 else ":bot"
        async with room:
            await fake.interact(fake.component(guest if i % 2 else host, fake.message(lobby.id),
                                               next(c for c in lobby.custom_ids if c.endswith(op))), timeout=30)
            await fake.interact(fake.component(host, fake.message(lobby.id),
                                               next(c for c in lobby.custom_ids if c.endswith(":start"))), timeout=30)
    await asyncio.gather(*(seat(i, lobby) for i, lobby in enumerate(lobbies)))
    for _ in range(600):  # each start posts in its own time, after its answer
        threads = [int(t) for (t,) in rows(bot.log.parent / "bot.db", "SELECT thread_id FROM game WHERE status = "
                                           "'active' AND thread_id IS NOT NULL")]
        if len(threads) == count and all(prompt_of(fake, t) and user_for(fake, prompt_of(fake, t))  # type: ignore[arg-type]
                                         for t in threads):
            return threads
        await asyncio.sleep(0.05)
    raise AssertionError("the games did not all start")


def _pressing(fake: FakeDiscord, thread: int) -> dict[str, Any]:
    prompt = prompt_of(fake, thread)
    assert prompt is not None
    user = user_for(fake, prompt)
    assert user is not None
    menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
    return fake.component(user, prompt, menu, component_type=3, values=[prompt.component(menu)["options"][0]["value"]])


@pytest.mark.slow
async def test_sigterm_with_40_moves_in_flight_answers_all_posts_all_and_logs_no_traceback(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    async with FakeDiscord() as fake:
        bot = await Bot.start(db, fake)
        threads = await _tables(fake, bot, GAMES)
        before = {t: len(fake.messages(t)) for t in threads}
        moves_before = rows(db, "SELECT COUNT(*) FROM action")[0][0]
        again = [_pressing(fake, t) for t in threads[:3]]  # the same presses, made again during the stop
        presses = [asyncio.ensure_future(fake.interact(_pressing(fake, t), timeout=15, quiet=0.05)) for t in threads]
        await asyncio.sleep(0.05)  # the presses are on the wire and being played
        bot.proc.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        await asyncio.sleep(0.3)
        late = [asyncio.ensure_future(fake.interact(p, timeout=15, quiet=0.05)) for p in again]
        await asyncio.wait_for(bot.proc.wait(), timeout=15)
        took = time.monotonic() - stopped
        replies: list[InteractionReply | BaseException] = await asyncio.gather(*presses, *late, return_exceptions=True)
        err = await bot.stderr()
        found = audit(fake, db)
    assert bot.proc.returncode == 0, err
    for noise in NOISE:
        assert noise not in err, err
    unanswered = [r for r in replies if not isinstance(r, InteractionReply) or r.callback_type is None]
    assert not unanswered, unanswered
    moved = rows(db, "SELECT COUNT(*) FROM action")[0][0] - moves_before
    restarting = sum(isinstance(r, InteractionReply) and RESTARTING in str(r.data) for r in replies)
    assert found.owed == 0 and found.untold == 0 and found.twice == 0 and found.stale == 0, found
    assert moved >= 1 and restarting >= 3
    assert sum(len(fake.messages(t)) - before[t] for t in threads) >= 1
    print(f"\nSIGTERM with {GAMES} presses in flight: {len(replies)} interactions, all answered "
          f"({restarting} asked to try again), {moved} moves committed and every one posted, exit in {took:.1f} s")


@pytest.mark.slow
@pytest.mark.parametrize("how", ["refused", "hanging"])
async def test_sigterm_with_discord_unreachable_exits_within_ten_seconds(tmp_path: Path, how: str) -> None:
    """Discord gone: every connection refused, or (worse) accepted and never answered."""
    db = tmp_path / "bot.db"
    fake = await FakeDiscord().start()
    port = fake.port
    held: list[asyncio.StreamWriter] = []

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)
        while await reader.read(65536):
            pass
    blackhole = None
    try:
        bot = await Bot.start(db, fake)
        threads = await _tables(fake, bot, 4)
        pressing = [_pressing(fake, t) for t in threads]
        for payload in pressing:  # moves on the wire, and then Discord is gone
            fake._register_interaction(payload)
            await fake.dispatch("INTERACTION_CREATE", payload)
    finally:
        await fake.stop()
        if how == "hanging":
            blackhole = await asyncio.start_server(hold, "127.0.0.1", port, reuse_address=True)
    try:
        await asyncio.sleep(0.5)
        bot.proc.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        await asyncio.wait_for(bot.proc.wait(), timeout=20)
        took = time.monotonic() - stopped
    finally:
        if blackhole is not None:
            for writer in held:
                writer.close()
            blackhole.close()
    err = await bot.stderr()
    assert took < 10, err
    assert bot.proc.returncode == 0, err
    for noise in NOISE:
        assert noise not in err, err
    owed = rows(db, "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")[0][0]
    print(f"\nSIGTERM with Discord unreachable ({how}): exit in {took:.1f} s; {owed} tellings kept owed for the "
          "next start")
