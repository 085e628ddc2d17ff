"""Hostile or hand-built interactions: options outside what a command declares are refused politely and
privately before they reach the database (Discord's client enforces the limits; discord.py does not)."""

from __future__ import annotations

import pytest

from bot.service.lobby import check_bounds
from bot.store.db import Database
from rules import IllegalAction
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory


async def test_out_of_range_options_are_refused_privately(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        big = await h.slash(h.alice, h.channel, "game", {"game": 2147483648}, subcommand="status")
        assert big.ephemeral and "must be between 1 and 2147483647" in big.content
        seed = await h.slash(h.alice, h.channel, "game", {"game": "legend", "seed": -5}, subcommand="new")
        assert seed.ephemeral and "`seed` must be between" in seed.content
        slow = await h.slash(h.alice, h.channel, "game", {"game": "legend", "turn_timeout": 1e308}, subcommand="new")
        assert slow.ephemeral and "turn_timeout" in slow.content
        odd = await h.slash(h.alice, h.channel, "game", {"game": "legend", "clock": "forever"}, subcommand="new")
        assert odd.ephemeral and "`clock` is one of" in odd.content
        long = await h.slash(h.alice, h.channel, "game", {"game": "legend", "mode": "x" * 6000}, subcommand="new")
        assert long.ephemeral
        assert not [m for m in h.messages() if m.embeds]  # no lobby was built for any of them


def test_the_service_refuses_what_no_column_holds() -> None:
    with pytest.raises(IllegalAction, match="A seed"):
        check_bounds({}, -1)
    with pytest.raises(IllegalAction, match="turn timeout"):
        check_bounds({"turn_timeout": float("nan")}, 1)
    with pytest.raises(IllegalAction, match="turn timeout"):
        check_bounds({"turn_timeout": -1}, 1)
    with pytest.raises(IllegalAction, match="at most 100"):
        check_bounds({"mode": "y" * 101}, 1)
    check_bounds({"turn_timeout": 10, "mode": "starter"}, 2**62)


async def test_a_control_forged_in_another_channel_still_tells_the_move_in_its_thread(db: Database) -> None:
    from tests.tabula_harness import uid
    from tests.test_discord import last, start_game

    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _ = await start_game(h, h.bob)
        prompt = last(h, thread.id)
        who = {uid(h.alice): h.alice, uid(h.bob): h.bob}[next(iter(prompt.pings.users))]
        menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
        value = prompt.component(menu)["options"][0]["value"]
        payload = h.fake.component(who, prompt, menu, component_type=3, values=[value])
        elsewhere = h.fake.resolve_channel(h.channel)
        payload["channel_id"] = str(elsewhere["id"])
        payload["channel"] = {**elsewhere, "permissions": payload["channel"]["permissions"]}
        before_channel = len(h.messages(h.channel))
        answer = await h.interact(payload)
        assert answer.ephemeral and f"<#{thread.id}>" in answer.content, (answer.content, answer.ephemeral)
        assert len(h.messages(h.channel)) == before_channel  # nothing of the story in the other channel
        assert value.split("=")[-1] in last(h, thread.id).content


@pytest.mark.slow
async def test_a_slow_database_never_makes_a_refusal_public(db: Database) -> None:
    """The 2-second watchdog defers before Discord's 3-second limit; a refusal after it must still be private,
    and a move that goes through after it is still told publicly in the thread."""
    import asyncio

    from tests.tabula_harness import uid
    from tests.test_discord import last, start_game

    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _ = await start_game(h, h.bob)
        prompt = last(h, thread.id)
        who = {uid(h.alice): h.alice, uid(h.bob): h.bob}[next(iter(prompt.pings.users))]
        real_act = h.bot.service.act

        async def slow_refusal(*args: object, **kwargs: object) -> object:
            await asyncio.sleep(2.3)  # another connection holds the write lock
            raise IllegalAction("That doorway is not open to you — you can go to D1, D11 or D24.")

        h.bot.service.act = slow_refusal  # type: ignore[method-assign]
        try:
            answer = await h.slash(who, thread.payload, "explore", {"to": "D999"})
        finally:
            h.bot.service.act = real_act  # type: ignore[method-assign]
        assert answer.deferred  # the watchdog fired
        assert answer.ephemeral and "not open to you" in (answer.original.content if answer.original else "")
        public = [m for m in h.messages(thread.id) if "not open to you" in m.content or m.loading]
        assert public == []

        async def slow_move(*args: object, **kwargs: object) -> object:
            await asyncio.sleep(2.3)
            return await real_act(*args, **kwargs)  # type: ignore[operator]

        h.bot.service.act = slow_move  # type: ignore[method-assign]
        menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
        value = prompt.component(menu)["options"][0]["value"]
        try:
            moved = await h.select(who, prompt, menu, [value])
        finally:
            h.bot.service.act = real_act  # type: ignore[method-assign]
        assert moved.deferred
        told = last(h, thread.id)
        assert value.split("=")[-1] in told.content and not told.ephemeral
        assert not [m for m in h.messages(thread.id) if m.loading]
