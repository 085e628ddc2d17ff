"""The outbox in one process (the fake Discord in-process): a move's debt is written in its own transaction, an
owed move is told once with a live prompt and the old one retired, a post Discord accepted before a crash is
adopted rather than repeated, a resend with the same nonce returns the message already made, and the
offline runner's moves (no thread) are not owed to anyone."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.delivery.outbox import Outbox, nonce
from bot.service.moment import GameMoment
from bot.service.play import GameService, Person
from bot.store.db import Database, open_database
from rules.registry import register, unregister
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory

PLUGIN = "tests.plugins.race"


@pytest.fixture
def race() -> Iterator[None]:
    register(PLUGIN)
    yield
    unregister(PLUGIN)


async def _owed(db: Database) -> list[tuple[int, int, str]]:
    async with db.engine.connect() as conn:
        found = await conn.execute(text("SELECT game_id, seq, kind FROM outbox WHERE delivered_at IS NULL"))
        return [(int(r[0]), int(r[1]), str(r[2])) for r in found.all()]


async def test_a_move_and_its_debt_are_one_transaction(db: Database, race: None) -> None:
    svc = GameService(db)
    info = await svc.create("race", Person(1, "Ann"), seed=3, channel_id=5)
    await svc.add_tabula(info.game_id, 1)
    started = await svc.start(info.game_id, 1)
    moved = await svc.act(info.game_id, 1, verb="move", args={"steps": "2"})
    owed = await _owed(db)
    assert (info.game_id, started.version, "start") in owed
    assert (info.game_id, moved.version, "move") in owed
    assert all((info.game_id, f.version, "move") in owed for f in moved.followups)
    stale = await db.store.save(info.game_id, moved.version - 5, state="{}", status="active", deadline=None,
                                entry=None, now=0.0, tell=("move", "{}"))
    assert not stale and len(await _owed(db)) == len(owed)  # a refused write owes nothing


async def test_an_owed_move_is_told_once_and_a_crashed_post_is_adopted(db: Database, race: None) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        await h.slash(h.alice, h.channel, "game", {"game": "race", "seed": 2}, subcommand="new")
        lobby = h.messages()[-1]
        await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
        await h.click(h.alice, h.fake.message(lobby.id), next(c for c in lobby.custom_ids if c.endswith(":start")))
        [thread] = h.threads()
        bot = h.bot
        assert await _owed(db) == []
        first = h.messages(thread.id)[-1]
        # A move committed by a process that died before posting it: owed, and told by the drain.
        game_id = await bot.service.game_in_thread(thread.id)
        assert game_id is not None
        now = await bot.service.get(game_id)
        seat = min(now.to_act)
        await bot.service.act(game_id, now.user_of(seat), verb="move", args={"steps": "3"})
        bot.outbox.started_at += 3600  # as if this process had started after it
        assert await bot.outbox.drain(startup=True) == 1
        await bot.outbox.settle(5)
        told = h.messages(thread.id)
        assert sum("steps 3 to square 3" in m.content for m in told) == 1
        assert [m.id for m in told if m.custom_ids] == [told[-1].id]  # the new prompt is the one live
        assert not h.fake.message(first.id).custom_ids
        assert f"<@{h.bob['id'] if seat == 0 else h.alice['id']}>" in told[-1].content  # the next player is pinged
        assert await bot.outbox.drain(startup=True) == 0  # never twice
        # A post Discord accepted just before a crash (the bookkeeping never ran): adopted, not repeated.
        now = await bot.service.get(game_id)
        seat = min(now.to_act)
        moment = await bot.service.act(game_id, now.user_of(seat), verb="move", args={"steps": "1"})
        from cogs.common import tell_result

        telling = await tell_result(moment)
        channel = bot.get_channel(thread.id)
        assert isinstance(channel, discord.Thread)
        made = await channel.send(telling.text, nonce=nonce(game_id, moment.version, 0))
        before = len(h.messages(thread.id))
        assert await bot.outbox.drain(startup=True) == 1
        assert len(h.messages(thread.id)) == before
        assert await _owed(db) == []
        async with db.engine.connect() as conn:
            kept = (await conn.execute(text("SELECT message_id FROM outbox WHERE game_id = :g AND seq = :s"),
                                       {"g": game_id, "s": moment.version})).scalar()
        assert kept == made.id
        # A resend with the same nonce returns the message already made (Discord's enforce_nonce).
        again = await channel.send("anything", nonce=nonce(game_id, moment.version, 0))
        assert again.id == made.id and h.fake.nonce_hits == 1


async def test_a_post_made_before_a_crash_is_adopted_when_a_later_move_was_recorded_first(
        db: Database, race: None) -> None:
    """Move A's post went out, then move B's post went out and was recorded, and the process died before A's
    was: the next drain finds A's post before B's and adopts it rather than telling A a second time."""
    async with FakeDiscordHarness(bot_factory(db)) as h:
        await h.slash(h.alice, h.channel, "game", {"game": "race", "seed": 4}, subcommand="new")
        lobby = h.messages()[-1]
        await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
        await h.click(h.alice, h.fake.message(lobby.id), next(c for c in lobby.custom_ids if c.endswith(":start")))
        [thread] = h.threads()
        bot = h.bot
        game_id = await bot.service.game_in_thread(thread.id)
        assert game_id is not None
        from cogs.common import tell_result

        channel = bot.get_channel(thread.id)
        assert isinstance(channel, discord.Thread)
        now = await bot.service.get(game_id)
        first = await bot.service.act(game_id, now.user_of(min(now.to_act)), verb="move", args={"steps": "3"})
        early = await tell_result(first)
        made = await channel.send(early.text, nonce=nonce(game_id, first.version, 0))
        now = await bot.service.get(game_id)
        second = await bot.service.act(game_id, now.user_of(min(now.to_act)), verb="move", args={"steps": "2"})
        later = await channel.send((await tell_result(second)).text, nonce=nonce(game_id, second.version, 0))
        await bot.outbox.delivered(game_id, second.version, later.id, prompt=(thread.id, later.id))
        bot.outbox.started_at += 3600  # as if this process had started after both
        before = len(h.messages(thread.id))
        assert await bot.outbox.drain(startup=True) == 1
        await bot.outbox.settle(5)
        assert len(h.messages(thread.id)) == before  # adopted, not posted again
        assert sum(early.text.strip() in m.content for m in h.messages(thread.id)) == 1
        assert await _owed(db) == []
        assert made.id in {m.id for m in h.messages(thread.id)}


async def test_the_offline_runner_owes_nothing_to_a_thread(db: Database, race: None) -> None:
    svc = GameService(db)
    info = await svc.create("race", Person(1, "Ann"), seed=5)
    await svc.join(info.game_id, Person(2, "Bob"))
    await svc.start(info.game_id, 1)
    await svc.act(info.game_id, 1, verb="move", args={"steps": "1"})
    assert await _owed(db) == []  # a game with no channel owes its moves to nobody
    async with FakeDiscordHarness(bot_factory(db)) as h:
        h.bot.outbox.started_at += 3600
        await h.bot.outbox.drain(startup=True)  # no thread: the start cannot be told there; nothing is posted
        assert not h.threads() and await _owed(db) == []


BACKENDS = ["sqlite"] + (["postgres"] if os.environ.get("TABULA_TEST_POSTGRES_URL") else [])


class _Gone:
    """A client for which every channel has been deleted (Discord answers 404)."""

    def get_channel(self, channel_id: int) -> None:
        return None

    async def fetch_channel(self, channel_id: int) -> None:
        class Response:
            status, reason = 404, "Not Found"
        raise discord.NotFound(Response(), {"message": "Unknown Channel", "code": 10003})  # type: ignore[arg-type]


async def _database(tmp_path: Path, backend: str) -> Database:
    """A fresh database: SQLite in ``tmp_path``, or the PostgreSQL that CI provides, emptied."""
    if backend == "postgres":
        url = os.environ["TABULA_TEST_POSTGRES_URL"]
        engine = create_async_engine(url)
        async with engine.begin() as conn:
            await conn.execute(text("DROP SCHEMA public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
        await engine.dispose()
    else:
        url = f"sqlite+aiosqlite:///{tmp_path / 'both.db'}"
    return await open_database(url)


async def _roll_then_move(db: Database) -> tuple[Any, GameMoment[Any], GameMoment[Any]]:
    """A race against Tabula in thread 77: a roll, then a move (Tabula's reply follows it)."""
    svc = GameService(db)
    info = await svc.create("race", Person(1, "Ann"), seed=7, channel_id=5)
    await svc.add_tabula(info.game_id, 1)
    await svc.start(info.game_id, 1)
    await svc.set_thread(info.game_id, 77)
    rolled = await svc.act(info.game_id, 1, verb="roll", args={"expr": "2d6"})
    moved = await svc.act(info.game_id, 1, verb="move", args={"steps": "3"})
    return info, rolled, moved


@pytest.mark.parametrize("backend", BACKENDS)
async def test_owed_moves_are_drawn_again_exactly_and_prompts_swap_in_one_transaction(
        tmp_path: Path, backend: str, race: None) -> None:
    """On SQLite, and on PostgreSQL when CI provides one: the moment an owed row tells is the one the move
    made; marking it delivered swaps the live prompt and lists the old one, which is then retired."""
    db = await _database(tmp_path, backend)
    try:
        info, rolled, moved = await _roll_then_move(db)
        outbox = Outbox(_Gone(), db)  # type: ignore[arg-type]
        owed = {o.seq: o for o in await outbox.owed(info.game_id)}
        for made in (rolled, moved, *moved.followups):
            again = await outbox.moment_of(owed[made.version])
            assert again is not None
            assert again.state == made.state and again.events == made.events and again.actor == made.actor
            assert again.command == made.command and again.by_tabula == made.by_tabula
        assert await outbox.delivered(info.game_id, rolled.version, 900, prompt=(77, 900)) is None
        assert await outbox.delivered(info.game_id, moved.version, 901, prompt=(77, 901)) == (77, 900)
        await outbox.settle(5)  # the old prompt's edit: its thread is gone, so nothing is live there
        async with db.engine.connect() as conn:
            assert (await conn.execute(text("SELECT COUNT(*) FROM stale_prompt"))).scalar() == 0
            live = (await conn.execute(text("SELECT prompt_message_id FROM game WHERE id = :g"),
                                       {"g": info.game_id})).scalar()
        assert live == 901
        assert [o.seq for o in await outbox.owed(info.game_id)] == [o for o in sorted(owed) if o > moved.version
                                                                     or o < rolled.version]
    finally:
        await db.close()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_telling_recorded_after_a_later_one_leaves_the_later_prompt_live(
        tmp_path: Path, backend: str, race: None) -> None:
    """A move's post went out, the next player pressed its prompt at once, and the next move's telling was
    recorded before the first one's (that commit waited on a busy database): the later prompt stays the one
    live prompt and the earlier one is listed to lose its controls, never the other way round."""
    db = await _database(tmp_path, backend)
    try:
        info, rolled, moved = await _roll_then_move(db)
        outbox = Outbox(_Gone(), db)  # type: ignore[arg-type]
        assert await outbox.delivered(info.game_id, moved.version, 901, prompt=(77, 901)) is None
        assert await outbox.delivered(info.game_id, rolled.version, 900, prompt=(77, 900)) == (77, 900)
        async with db.engine.connect() as conn:
            live = (await conn.execute(text("SELECT prompt_message_id FROM game WHERE id = :g"),
                                       {"g": info.game_id})).scalar()
            listed = (await conn.execute(text("SELECT message_id FROM stale_prompt"))).scalars().all()
        assert live == 901 and list(listed) == [900]
        await outbox.settle(5)
        assert rolled.version not in {o.seq for o in await outbox.owed(info.game_id)}
        assert moved.version not in {o.seq for o in await outbox.owed(info.game_id)}
    finally:
        await db.close()


async def test_tabula_plays_its_seat_at_the_next_sweep_when_a_crash_cut_its_move(
        db: Database, race: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tabula's move follows a person's in its own transaction: a process killed between the two left the
    game waiting for a turn timeout minutes away.  The person's commit makes the game due at once instead,
    and the next sweep (``due``) plays Tabula's seat."""
    svc = GameService(db)
    info = await svc.create("race", Person(1, "Ann"), seed=3, channel_id=5)
    await svc.add_tabula(info.game_id, 1)
    await svc.start(info.game_id, 1)

    async def died(game_id: int) -> list[Any]:
        return []  # the process is gone before Tabula moves

    with monkeypatch.context() as patch:
        patch.setattr(svc, "_autoplay", died)
        moved = await svc.act(info.game_id, 1, verb="move", args={"steps": "2"})
    rules = moved.rules
    assert rules.to_act(moved.state) == {1}  # Tabula's seat, left to act
    svc.forget()
    played = await svc.due()
    assert [(m.version, m.by_tabula, m.actor) for m in played] == [(moved.version + 1, True, 1)]
    after = await svc.get(info.game_id)
    assert 0 in rules.to_act(after.state)  # Ann's turn again
    assert await svc.due() == []  # done once
