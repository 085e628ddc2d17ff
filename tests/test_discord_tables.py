"""Long games on Discord, through discord.py's real path against the loopback fake, with the service's clock
under the test's control: the clock on the prompt, reminders, each absent-player policy, the seat offered in
the lobby's channel and taken by a button, nudges, undo, seats changing hands, vacations, pauses, spectators,
private threads and server defaults."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.longplay.clock import CLOCKS, REMINDER_SHARE, STRIKES_TO_OFFER
from bot.store.db import Database
from rules.registry import register, unregister
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory, uid
from tests.test_discord import last


class Clock:
    def __init__(self) -> None:
        self.now = 2_000_000_000.0

    def __call__(self) -> float:
        return self.now


async def quiet(h: FakeDiscordHarness) -> None:
    """Wait for the bot's own start-up sweep, so that it cannot race the test's controlled clock."""
    for _ in range(100):
        if h.bot._sweep is not None:
            break
        await asyncio.sleep(0.02)
    if h.bot._sweep is not None:
        await h.bot._sweep


async def begin(h: FakeDiscordHarness, now: Clock, **options: Any) -> tuple[Any, int]:
    await quiet(h)
    h.bot.service.clock = now
    new = await h.slash(h.alice, h.channel, "game", {"game": "legend", "seed": 11, "mode": "starter", **options},
                        subcommand="new")
    assert not new.ephemeral, new.content
    lobby = h.messages()[-1]
    await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
    lobby = h.fake.message(lobby.id)
    game_id = int(lobby.custom_ids[0].split(":")[2])
    await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start")))
    return h.threads()[-1], game_id


def people(h: FakeDiscordHarness, thread: Any) -> tuple[Any, Any]:
    users = {uid(h.alice): h.alice, uid(h.bob): h.bob}
    first = users[next(iter(last(h, thread.id).pings.users))]
    return first, (h.bob if first is h.alice else h.alice)


async def test_the_clock_on_the_prompt_a_reminder_then_tabula_plays_and_the_seat_is_offered(db: Database) -> None:
    # The fake has no DM channels: a reminder's DM fails there, as it does for a player with closed DMs.
    async with FakeDiscordHarness(bot_factory(db), allow_unknown_routes=True) as h:
        clock_now = Clock()
        for who in (h.alice, h.bob):
            opted = await h.slash(who, h.channel, "notify", {"on": True})
            assert opted.ephemeral and "DM" in opted.content
        thread, _ = await begin(h, clock_now, clock="1h", policy="tabula")
        prompt = last(h, thread.id)
        assert f"<t:{int(clock_now.now + CLOCKS['1h'])}:R>" in prompt.content
        first, _ = people(h, thread)
        clock_now.now += CLOCKS["1h"] * REMINDER_SHARE + 1
        assert await h.bot.run_clocks() == 1
        reminder = last(h, thread.id)
        assert "a reminder" in reminder.content and reminder.pings.users == {uid(first)}
        assert reminder.pings.everyone is False
        assert await h.bot.run_clocks() == 0  # once
        assert h.fake.unknown_requests and all("/users/@me/channels" in str(r) for r in h.fake.unknown_requests)
        before = len(h.messages(thread.id))
        offered = False
        for _ in range(2 * STRIKES_TO_OFFER + 2):
            clock_now.now += CLOCKS["1h"] + 1
            await h.bot.run_clocks()
            if any("A seat is free" in m.content for m in h.messages(h.channel)):
                offered = True
                break
        told = [m.content for m in h.messages(thread.id)[before:]]
        assert any("clock ran out, so Tabula played for them" in t for t in told)
        assert offered
        offer = next(m for m in h.messages(h.channel) if "A seat is free" in m.content)
        take = next(c for c in offer.custom_ids if c.startswith("tb:take:"))
        taken = await h.click(h.carol, offer, take)
        assert "took seat" in taken.content
        assert uid(h.carol) in h.threads()[-1].member_ids
        assert any("welcome" in m.content for m in h.messages(thread.id))


async def test_pause_policy_waits_and_host_pause_resume(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        clock_now = Clock()
        thread, game_id = await begin(h, clock_now, clock="1h", policy="pause")
        clock_now.now += 2 * CLOCKS["1h"]
        await h.bot.run_clocks()
        waiting = last(h, thread.id)
        assert "waits for" in waiting.content
        waiting_for = waiting.pings.users
        assert waiting_for
        resumed = await h.slash(h.alice, thread.payload, "game", {}, subcommand="resume")
        assert not resumed.ephemeral and "running again" in resumed.content
        assert resumed.original is not None and resumed.original.pings.users == waiting_for  # whoever must act
        assert all(f"<@{u}>" in resumed.content for u in waiting_for)
        status = await h.slash(h.bob, thread.payload, "game", {}, subcommand="status")
        assert "this turn's clock runs out <t:" in status.content
        not_host = await h.slash(h.bob, thread.payload, "game", {}, subcommand="pause")
        assert not_host.ephemeral and "Only the host" in not_host.content
        paused = await h.slash(h.alice, thread.payload, "game", {}, subcommand="pause")
        assert not paused.ephemeral and "paused" in paused.content
        assert "Paused by the host" in (await h.slash(h.bob, thread.payload, "game", {}, subcommand="status")).content
        again = await h.slash(h.alice, thread.payload, "game", {}, subcommand="pause")
        assert again.ephemeral and "paused already" in again.content
        clock_now.now += 10 * CLOCKS["1h"]
        assert await h.bot.run_clocks() == 0
        assert (await h.bot.service.get(game_id)).clock_deadline is None


async def test_nudge_undo_vacation_and_refusals(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        clock_now = Clock()
        thread, _ = await begin(h, clock_now, clock="24h")
        first, other = people(h, thread)
        prompt = last(h, thread.id)
        own = await h.slash(first, thread.payload, "game", {}, subcommand="nudge")
        assert own.ephemeral and "your own move" in own.content
        nudged = await h.slash(other, thread.payload, "game", {}, subcommand="nudge")
        assert not nudged.ephemeral and "nudges you" in nudged.content
        assert nudged.original is not None and nudged.original.pings.users == {uid(first)}
        twice = await h.slash(other, thread.payload, "game", {}, subcommand="nudge")
        assert twice.ephemeral and "next nudge is possible" in twice.content

        menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
        value = prompt.component(menu)["options"][0]["value"]
        await h.select(first, prompt, menu, [value])
        wrong = await h.slash(other, thread.payload, "game", {}, subcommand="undo")
        assert wrong.ephemeral and "has moved since" in wrong.content
        undone = await h.slash(first, thread.payload, "game", {}, subcommand="undo")
        assert undone.deferred and undone.original is not None  # told at once; the board follows
        told = h.fake.message(undone.original.id)
        assert not told.ephemeral and "took back their move" in told.content
        assert told.pings.users == {uid(first)}  # their turn again

        def live() -> list[int]:
            return [m.id for m in h.messages(thread.id) if any(c.startswith("tb:pick:") for c in m.custom_ids)]

        for _ in range(200):  # the old prompt's controls are taken off by an edit that may trail on a busy machine
            if live() == [last(h, thread.id).id]:
                break
            await asyncio.sleep(0.05)
        assert live() == [last(h, thread.id).id]  # the undo's prompt is the one with controls

        away = await h.slash(first, thread.payload, "game", {"days": 3}, subcommand="vacation")
        assert not away.ephemeral and "on vacation until" in away.content
        back = await h.slash(first, thread.payload, "game", {"days": 0}, subcommand="vacation")
        assert "back from vacation" in back.content
        again = await h.slash(first, thread.payload, "game", {"days": 0}, subcommand="vacation")
        assert again.ephemeral and "not on vacation" in again.content  # nothing changed: nothing said publicly
        outsider = await h.slash(h.carol, thread.payload, "game", {}, subcommand="undo")
        assert outsider.ephemeral and "not playing" in outsider.content


async def test_seats_spectators_private_threads_and_defaults(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        clock_now = Clock()
        thread, game_id = await begin(h, clock_now, clock="none")
        watched = await h.slash(h.carol, h.channel, "game", {"game": game_id}, subcommand="watch")
        assert watched.ephemeral and "You are watching" in watched.content
        assert uid(h.carol) in h.threads()[-1].member_ids
        press = last(h, thread.id)
        menu = next(c for c in press.custom_ids if c.startswith("tb:pick:"))
        refused = await h.select(h.carol, press, menu, [press.component(menu)["options"][0]["value"]])
        assert refused.ephemeral and "not playing" in refused.content
        left = await h.slash(h.carol, h.channel, "game", {"game": game_id}, subcommand="unwatch")
        assert left.ephemeral and uid(h.carol) not in h.threads()[-1].member_ids

        not_host = await h.slash(h.bob, thread.payload, "game", {"with": h.carol, "player": h.alice},
                                 subcommand="replace")
        assert not_host.ephemeral and "Only the host" in not_host.content
        swapped = await h.slash(h.alice, thread.payload, "game", {"with": h.carol, "player": h.bob},
                                subcommand="replace")
        assert not swapped.ephemeral and "takes seat 2" in swapped.content
        assert uid(h.carol) in h.threads()[-1].member_ids
        gone = await h.slash(h.carol, thread.payload, "game", {}, subcommand="leave")
        assert not gone.ephemeral and "Tabula plays their seat" in gone.content

        nobody = await h.slash(h.bob, h.channel, "game", {"clock": "3d"}, subcommand="defaults")
        assert nobody.ephemeral and "Manage Server" in nobody.content

        private = await h.slash(h.alice, h.channel, "game", {"game": "legend", "mode": "starter", "private": True,
                                                             "seat": False}, subcommand="new")
        assert not private.ephemeral and "players only" in str(private.embeds)
        lobby = h.messages()[-1]
        for who in (h.bob, h.carol):
            await h.click(who, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
        lobby = h.fake.message(lobby.id)
        private_id = int(lobby.custom_ids[0].split(":")[2])
        await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start")))
        room = h.threads()[-1]
        assert room.type == 12  # a private thread
        assert {uid(h.bob), uid(h.carol), uid(h.alice)} <= room.member_ids  # the organiser is let in too
        info = await h.bot.service.lobby(private_id)
        assert [s.user_id for s in info.seats] == [uid(h.bob), uid(h.carol)]
        dave = h.fake.add_user("dave")
        no_watch = await h.slash(dave, h.channel, "game", {"game": private_id}, subcommand="watch")
        assert no_watch.ephemeral and "players only" in no_watch.content


async def test_a_restart_while_a_clock_runs_loses_no_reminder_and_repeats_none(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        clock_now = Clock()
        thread, _ = await begin(h, clock_now, clock="12h")
        await h.restart(bot_factory(db))
        await quiet(h)
        h.bot.service.clock = clock_now
        clock_now.now += CLOCKS["12h"] * REMINDER_SHARE + 60  # the reminder fell due while the bot was down
        await sweep(h)
        assert sum("a reminder" in m.content for m in h.messages(thread.id)) == 1
        await h.restart(bot_factory(db))
        await quiet(h)
        h.bot.service.clock = clock_now
        await sweep(h)
        assert sum("a reminder" in m.content for m in h.messages(thread.id)) == 1


async def sweep(h: FakeDiscordHarness) -> None:
    """Run the clocks now, and let the bot's own start-up sweep (which may be racing us) finish too: whoever
    sends the reminder, it goes out once."""
    await quiet(h)
    await h.bot.run_clocks()


async def test_a_games_end_closes_its_seat_offers(db: Database) -> None:
    register("tests.plugins.race")
    try:
        async with FakeDiscordHarness(bot_factory(db)) as h:
            await quiet(h)
            clock_now = Clock()
            h.bot.service.clock = clock_now
            h.bot.outbox.clock = clock_now
            await h.slash(h.alice, h.channel, "game", {"game": "race", "seed": 2, "clock": "1h"}, subcommand="new")
            lobby = h.messages()[-1]
            await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
            lobby = h.fake.message(lobby.id)
            game_id = int(lobby.custom_ids[0].split(":")[2])
            await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start")))
            for _ in range(4 * STRIKES_TO_OFFER):  # nobody comes back: Tabula plays both seats to the end
                if (await h.bot.service.get(game_id)).status != "active":
                    break
                clock_now.now += CLOCKS["1h"] + 1
                await h.bot.run_clocks()
            assert (await h.bot.service.get(game_id)).status == "finished"
            for _ in range(200):  # the end is an event its listeners handle in the background
                if all("has ended" in m.content for m in h.messages(h.channel) if "🪑" in m.content):
                    break
                await asyncio.sleep(0.02)
            offers = [m for m in h.messages(h.channel) if "🪑" in m.content]
            assert len(offers) == 2  # one per seat, whatever the strikes since
            for offer in offers:
                assert "has ended" in offer.content and offer.custom_ids == []  # nothing left to take
    finally:
        unregister("tests.plugins.race")
