"""Exactly one message of a game has live controls, across restarts: the newest prompt is kept in the
database, so the first move after a restart retires the prompt drawn before it."""

from __future__ import annotations

from bot.store.db import Database
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory, uid
from tests.test_discord import last, start_game


def live(h: FakeDiscordHarness, channel: int) -> list[int]:
    return [m.id for m in h.messages(channel) if any(c.startswith(("tb:pick:", "tb:do:")) for c in m.custom_ids)]


async def test_after_a_restart_the_old_prompt_loses_its_controls(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id = await start_game(h, h.bob)
        message = last(h, thread.id)
        assert live(h, thread.id) == [message.id]
        who = {uid(h.alice): h.alice, uid(h.bob): h.bob}[next(iter(message.pings.users))]
        await h.restart(bot_factory(db))  # a new process: nothing of the old one's memory survives
        select = next(c for c in message.custom_ids if c.startswith("tb:pick:"))
        option = message.component(select)["options"][0]["value"]
        picked = await h.select(who, message, select, [option])
        assert not picked.ephemeral
        newest = last(h, thread.id)
        assert live(h, thread.id) == [newest.id] and newest.id != message.id
        edit = h.fake.message(message.id)
        assert edit.custom_ids == []
        stored = await h.bot.service.swap_prompt(game_id, newest.channel_id, newest.id)
        assert stored is None  # already the recorded prompt: nothing else to retire
