"""Tabula through discord.py's real interaction path, against the loopback fake of Discord."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.store.db import Database
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory, check_png, uid


async def open_lobby(h: FakeDiscordHarness, **options: Any) -> Any:
    reply = await h.slash(h.alice, h.channel, "game", {"game": "legend", "seed": 11, **options}, subcommand="new")
    assert not reply.ephemeral
    assert "lobby" in reply.embeds[0]["title"]
    return h.messages()[-1]


async def start_game(h: FakeDiscordHarness, *players: dict[str, Any], **options: Any) -> tuple[Any, int]:
    lobby = await open_lobby(h, **options)
    for p in players:
        joined = await h.click(p, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
        assert not joined.ephemeral
    lobby = h.fake.message(lobby.id)
    game_id = int(lobby.custom_ids[0].split(":")[2])
    started = await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start")))
    assert not started.ephemeral
    [thread] = h.threads()
    return thread, game_id


def last(h: FakeDiscordHarness, channel: int) -> Any:
    return h.messages(channel)[-1]


async def test_lobby_buttons_thread_and_opening_board(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        lobby = await open_lobby(h, mode="starter")
        join = next(c for c in lobby.custom_ids if c.endswith(":join"))
        start = next(c for c in lobby.custom_ids if c.endswith(":start"))
        again = await h.click(h.alice, lobby, join)
        assert again.ephemeral and "already seated" in again.content
        early = await h.click(h.alice, lobby, start)
        assert early.ephemeral and "2 to 5 players" in early.content
        await h.click(h.bob, lobby, join)
        lobby = h.fake.message(lobby.id)
        assert f"<@{uid(h.bob)}>" in lobby.embeds[0]["fields"][0]["value"]
        not_host = await h.click(h.bob, lobby, start)
        assert not_host.ephemeral and "Only the host" in not_host.content
        await h.click(h.alice, lobby, start)

        [thread] = h.threads()
        assert thread.name.startswith("Legend of Heroes · #")
        assert {uid(h.alice), uid(h.bob)} <= set(thread.member_ids)
        opening = last(h, thread.id)
        assert "Roll-off" in opening.content and "rolled highest" in opening.content
        [board] = opening.attachments
        image = check_png(board)
        assert image.width > 800 and "rooms explored" in board.description
        # the first player, and only they, is pinged; the select offers the free entrances
        pinged = opening.pings.users
        assert len(pinged) == 1 and pinged <= {uid(h.alice), uid(h.bob)}
        assert not opening.pings.everyone and opening.allowed_mentions.get("parse") == []
        assert any(c.startswith("tb:pick:") for c in opening.custom_ids)
        assert h.fake.unknown_requests == []


async def test_explore_with_autocomplete_refusals_and_stale_select(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id = await start_game(h, h.bob)
        users = {uid(h.alice): h.alice, uid(h.bob): h.bob}
        first = users[next(iter(last(h, thread.id).pings.users))]
        other = h.bob if first is h.alice else h.alice
        choices = await h.autocomplete(first, thread.payload, "explore", {"to": ""})
        values = [c["value"] for c in choices.choices]
        assert values and all(v.startswith("D") for v in values)
        assert all(" — " in c["name"] and "entrance" in c["name"] for c in choices.choices)
        narrowed = await h.autocomplete(first, thread.payload, "explore", {"to": values[0]})
        assert narrowed.choices[0]["value"] == values[0]
        assert all(values[0].lower() in c["name"].lower() for c in narrowed.choices)
        nobody = await h.autocomplete(h.carol, thread.payload, "explore", {"to": ""})
        assert nobody.choices == []

        outsider = await h.slash(h.carol, thread.payload, "explore", {"to": values[0]})
        assert outsider.ephemeral and "not playing" in outsider.content
        wrong_turn = await h.slash(other, thread.payload, "explore", {"to": values[0]})
        assert wrong_turn.ephemeral and "turn" in wrong_turn.content
        typed = await h.slash(first, thread.payload, "explore", {"to": "D999"})
        assert typed.ephemeral and "You can go to" in typed.content
        elsewhere = await h.slash(first, h.channel, "explore", {"to": values[0]})
        assert elsewhere.ephemeral and "inside a game's thread" in elsewhere.content

        before = last(h, thread.id)
        stale_id = next(c for c in before.custom_ids if c.startswith("tb:pick:"))
        moved = await h.slash(first, thread.payload, "explore", {"to": values[0]})
        assert not moved.ephemeral and values[0] in moved.content
        check_png(moved.attachments[-1])
        assert moved.original is not None and moved.original.pings.users == {uid(other)}
        # the older message's select is taken away; pressed anyway (a client that had not caught up), it is
        # refused politely and nothing is applied
        assert h.fake.message(before.id).custom_ids == []
        before.payload["components"] = before.history[-1].get("components", []) if before.history else []
        stale = await h.select(first, before, stale_id, [f"explore?to={values[1] if len(values) > 1 else values[0]}"])
        assert stale.ephemeral and "earlier" in stale.content
        # the fresh select works for the right player
        fresh = last(h, thread.id)
        fresh_id = next(c for c in fresh.custom_ids if c.startswith("tb:pick:"))
        option = fresh.component(fresh_id)["options"][0]["value"]
        picked = await h.select(other, fresh, fresh_id, [option])
        assert not picked.ephemeral and option.split("=")[-1] in picked.content
        history = await h.bot.service.history(game_id)
        assert [r.seq for r in history] == sorted(r.seq for r in history) and len(history) == 3


async def test_status_sheet_list_and_abandon(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _ = await start_game(h, h.bob)
        status = await h.slash(h.carol, thread.payload, "game", subcommand="status")
        assert status.ephemeral and "rooms explored" in status.content
        check_png(status.attachments[0])
        sheet = await h.slash(h.bob, thread.payload, "sheet")
        assert sheet.ephemeral and "'s fighter" in sheet.content
        card = check_png(sheet.attachments[0])
        assert card.height > card.width
        outsider = await h.slash(h.carol, thread.payload, "sheet")
        assert outsider.ephemeral and "not playing" in outsider.content
        listing = await h.slash(h.carol, h.channel, "game", subcommand="list")
        assert listing.ephemeral and f"<#{thread.id}>" in listing.content
        refused = await h.slash(h.bob, thread.payload, "game", subcommand="abandon")
        assert refused.ephemeral and "Manage Server" in refused.content
        done = await h.slash(h.alice, thread.payload, "game", subcommand="abandon")
        assert not done.ephemeral and "abandoned" in done.content
        after = await h.slash(h.alice, thread.payload, "explore", {"to": "D1"})
        assert after.ephemeral and "abandoned" in after.content


async def walk_to_narration(h: FakeDiscordHarness, thread: Any, players: dict[int, Any]) -> Any:
    """Move with the select menus until a Narrator is pinged; returns that message."""
    rng = random.Random(4)
    for _ in range(120):
        message = last(h, thread.id)
        if any((c.startswith("tb:view:") and c.endswith(":card")) for c in message.custom_ids):
            return message
        who = players[next(iter(message.pings.users))]
        select = next(c for c in message.custom_ids if c.startswith("tb:pick:"))
        options = [o["value"] for o in message.component(select)["options"]]
        unexplored = [o["value"] for o in message.component(select)["options"] if "explore it" in o["label"]]
        await h.select(who, message, select, [rng.choice(unexplored or options)])
    raise AssertionError("no Narrator was called in 120 moves")


async def test_players_narration_private_card_public_telling_and_no_stray_pings(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id = await start_game(h, h.bob, narration="players")
        players = {uid(h.alice): h.alice, uid(h.bob): h.bob}
        call = await walk_to_narration(h, thread, players)
        narrator = players[next(iter(call.pings.users))]
        explorer = h.bob if narrator is h.alice else h.alice
        assert "Narrator" in call.content
        read_id = next(c for c in call.custom_ids if c.endswith(":card"))
        peek = await h.click(explorer, call, read_id)
        assert peek.ephemeral and "no card to read" in peek.content
        secret = await h.click(narrator, call, read_id)
        assert secret.ephemeral and "What it does" in secret.content
        check_png(secret.attachments[0])
        title = secret.content.split("**")[1]
        # the card is only ever in the ephemeral answer, never in the thread
        assert all(title not in m.content for m in h.messages(thread.id))
        peek_cmd = await h.slash(narrator, thread.payload, "narrate")
        assert peek_cmd.ephemeral and title in peek_cmd.content

        butt_in = await h.slash(explorer, thread.payload, "narrate", {"text": "I tell it myself"})
        assert butt_in.ephemeral and "Narrator" in butt_in.content
        told = await h.slash(narrator, thread.payload, "narrate",
                             {"text": "@everyone <@&1> Dust, dark and a door that whines."})
        assert not told.ephemeral
        message = told.original
        assert message is not None and "Dust, dark and a door" in message.content
        assert not message.pings.everyone and not message.pings.roles
        assert message.pings.users <= {uid(h.alice), uid(h.bob)}  # only whoever must act next
        assert any(a.filename.startswith("card-") for a in message.attachments)
        for attachment in message.attachments:
            check_png(attachment)
        rows = await h.bot.service.history(game_id)
        assert '"text":"@everyone' in rows[-1].action


async def test_absent_narrator_timeout_posts_in_the_thread(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db, narrator_timeout_minutes=1)) as h:
        thread, _ = await start_game(h, h.bob, narration="players")
        players = {uid(h.alice): h.alice, uid(h.bob): h.bob}
        await walk_to_narration(h, thread, players)
        service = h.bot.service
        real = service.clock
        service.clock = lambda: real() + 120  # two minutes later
        count = len(h.messages(thread.id))
        assert await h.bot.run_timeouts() == 1
        posted = h.messages(thread.id)[count:]
        assert posted and "Narrator was away" in posted[0].content


async def test_buttons_survive_a_restart(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _ = await start_game(h, h.bob)
        message = last(h, thread.id)
        who = {uid(h.alice): h.alice, uid(h.bob): h.bob}[next(iter(message.pings.users))]
        await h.restart(bot_factory(db))
        select = next(c for c in message.custom_ids if c.startswith("tb:pick:"))
        option = message.component(select)["options"][0]["value"]
        picked = await h.select(who, message, select, [option])
        assert not picked.ephemeral and option.split("=")[-1] in picked.content


async def test_a_lobby_can_be_abandoned_by_number_and_its_message_says_so(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        lobby = await open_lobby(h)
        game_id = int(lobby.custom_ids[0].split(":")[2])
        wrong = await h.slash(h.alice, h.channel, "game", {"game": 999}, subcommand="abandon")
        assert wrong.ephemeral and "no game #999" in wrong.content.lower()
        outside = await h.slash(h.alice, h.channel, "game", subcommand="abandon")
        assert outside.ephemeral and "inside a game's thread" in outside.content
        done = await h.slash(h.alice, h.channel, "game", {"game": game_id}, subcommand="abandon")
        assert not done.ephemeral and "abandoned" in done.content
        lobby = h.fake.message(lobby.id)
        assert "abandoned" in lobby.embeds[0]["title"] and lobby.custom_ids == []


@pytest.mark.slow
async def test_the_end_of_a_game_is_posted_and_shown_on_the_lobby(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, game_id = await start_game(h, h.bob)
        service = h.bot.service
        rng = random.Random(2)
        lobby_id = (await service.lobby(game_id)).lobby_message_id
        # Play through the service until one move before the end, then make the last move in Discord.
        while True:
            result = await service.get(game_id)
            rules, state = result.rules, result.state
            seat = min(rules.to_act(state))
            legal = list(rules.legal(state, seat))
            finishing = [a for a in legal if rules.outcome(rules.apply(state, seat, a).state) is not None]
            if finishing:
                break
            await service.act(game_id, result.user_of(seat), rng.choice(legal))
        user = {uid(h.alice): h.alice, uid(h.bob): h.bob}[result.user_of(seat)]
        final = await h.slash(user, thread.payload, "explore", {"to": finishing[0].to})
        assert not final.ephemeral and "Final treasure" in final.content and "🏆" in final.content
        assert final.original is not None and final.original.pings.nobody  # nobody left to ping
        lobby = h.fake.message(lobby_id)
        assert "finished" in lobby.embeds[0]["title"] and "🏆" in lobby.embeds[0]["description"]


async def test_bot_narration_posts_each_card_with_its_picture_as_one_story(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _ = await start_game(h, h.bob)
        players = {uid(h.alice): h.alice, uid(h.bob): h.bob}
        rng = random.Random(8)
        for _ in range(60):
            message = last(h, thread.id)
            cards = [a for a in message.attachments if a.filename.startswith("card-")]
            if cards:
                break
            who = players[next(iter(message.pings.users))]
            select = next(c for c in message.custom_ids if c.startswith("tb:pick:"))
            options = message.component(select)["options"]
            into_room = [o["value"] for o in options if "explore it" in o["label"]]
            await h.select(who, message, select, [rng.choice(into_room or [o["value"] for o in options])])
        else:
            raise AssertionError("no room was explored in 60 moves")
        assert "🚪" in message.content and "**" in message.content  # the entry, then the room card's title
        for card in cards:
            check_png(card)
            assert card.description.split(":")[0].endswith("card")  # "Room card: Chapel. ..."
        assert message.attachments[-1].filename == "board.png"  # the board after the move, last
        # nobody is asked to narrate
        assert not any((c.startswith("tb:view:") and c.endswith(":card")) for c in message.custom_ids)


async def test_without_thread_permission_the_game_is_played_in_the_channel(db: Database, monkeypatch: Any) -> None:
    import discord

    class Refusal:
        status, reason = 403, "Forbidden"

    async def refuse(*_args: Any, **_kwargs: Any) -> None:
        raise discord.Forbidden(Refusal(), {"message": "Missing Permissions", "code": 50013})  # type: ignore[arg-type]

    async with FakeDiscordHarness(bot_factory(db)) as h:
        monkeypatch.setattr(discord.Message, "create_thread", refuse)
        lobby = await open_lobby(h)
        await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
        lobby = h.fake.message(lobby.id)
        started = await h.click(h.alice, lobby, next(c for c in lobby.custom_ids if c.endswith(":start")))
        assert any("Create Public Threads" in m.content and m.ephemeral for m in started.followups)
        assert h.threads() == []
        opening = h.messages()[-1]
        assert "Roll-off" in opening.content and opening.attachments[-1].filename == "board.png"
        who = {uid(h.alice): h.alice, uid(h.bob): h.bob}[next(iter(opening.pings.users))]
        status = await h.slash(who, h.channel, "game", subcommand="status")  # the channel is the game's place
        assert status.ephemeral and "rooms explored" in status.content


async def test_a_shutdown_during_the_timeout_sweep_still_posts_tabulas_move(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db, narrator_timeout_minutes=1)) as h:
        thread, _ = await start_game(h, h.bob, narration="players")
        await walk_to_narration(h, thread, {uid(h.alice): h.alice, uid(h.bob): h.bob})
        bot = h.bot
        real = bot.service.clock
        bot.service.clock = lambda: real() + 120
        count = len(h.messages(thread.id))
        bot._sweep = asyncio.ensure_future(bot.run_timeouts())  # a sweep under way ...
        await asyncio.sleep(0)
        await bot.close()  # ... when the process is told to stop
        posted = h.messages(thread.id)[count:]
        assert posted and "Narrator was away" in posted[0].content
