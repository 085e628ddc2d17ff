"""The web page from Discord, through discord.py's real path against the loopback fake: the "Open the board" link
on the game's messages, `/game web` (the public link, and the personal link privately), `/game web revoke:True`,
and the page hearing of a move pressed in the thread."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import aiohttp

from bot.store.db import Database
from tests.fakediscord import FakeDiscordHarness, walk_components
from tests.tabula_harness import bot_factory, uid
from tests.test_discord import last, start_game


def links_of(message: Any) -> list[tuple[str, str]]:
    return [(c.get("label", ""), c["url"]) for c in walk_components(message.components) if c.get("style") == 5]


async def get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as resp:
        return resp.status, await resp.text()


async def test_the_game_messages_carry_the_board_link_and_game_web_answers_privately(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db, web_port=0)) as h:
        thread, _game_id = await start_game(h, h.bob)
        opening = last(h, thread.id)
        [(label, url)] = links_of(opening)
        assert label == "Open the board" and re.fullmatch(r"http://127\.0\.0\.1:\d+/g/[A-Za-z0-9_-]{24}", url)
        assert any(c.startswith("tb:pick:") for c in opening.custom_ids)  # the prompt keeps its controls

        status, page = await get(url)
        assert status == 200 and 'id="board"' in page and "Your own view" not in page

        answer = await h.slash(h.alice, thread, "game", {}, subcommand="web")
        assert answer.ephemeral
        public, personal = re.findall(r"http://\S+", answer.content)
        assert public == url and personal.startswith(url + "/s/")
        assert [u for _l, u in links_of(answer)] == [url]
        status, mine = await get(personal)
        assert status == 200 and "Your own view" in mine

        shown = await h.slash(h.bob, thread, "game", {}, subcommand="status")
        assert shown.ephemeral and [u for _l, u in links_of(shown)] == [url]

        revoked = await h.slash(h.alice, thread, "game", {"revoke": True}, subcommand="web")
        assert revoked.ephemeral and "closed" in revoked.content
        assert (await get(personal))[0] == 404
        assert (await get(url))[0] == 200  # the public page stays
        outsider = await h.slash(h.carol, thread, "game", {}, subcommand="web")
        assert outsider.ephemeral and len(re.findall(r"http://\S+", outsider.content)) == 1  # no personal link
        assert h.fake.unknown_requests == []


async def test_an_open_page_hears_of_a_move_pressed_in_the_thread(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db, web_port=0)) as h:
        thread, _game_id = await start_game(h, h.bob)
        opening = last(h, thread.id)
        [(_label, url)] = links_of(opening)
        mover = h.alice if uid(h.alice) in opening.pings.users else h.bob
        pick = next(c for c in opening.custom_ids if c.startswith("tb:pick:"))
        async with aiohttp.ClientSession() as session, session.get(url + "/live") as stream:
            await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
            await asyncio.sleep(0.2)
            values = [o["value"] for c in walk_components(opening.components) for o in c.get("options", [])]
            await h.select(mover, opening, pick, [values[0]])
            event = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 2.5)
        assert event.startswith(b"event: moved")


async def test_without_web_port_there_is_no_link_and_game_web_says_so(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _game_id = await start_game(h, h.bob)
        assert links_of(last(h, thread.id)) == []
        answer = await h.slash(h.alice, thread, "game", {}, subcommand="web")
        assert answer.ephemeral and "WEB_PORT" in answer.content


async def test_the_final_message_carries_the_board_link_and_the_page_says_who_won(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db, web_port=0)) as h:
        thread, game_id = await start_game(h, h.bob)
        service = h.bot.service
        rng = random.Random(2)
        while True:  # through the service until one move before the end; the last one in Discord
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
        assert not final.ephemeral and "🏆" in final.content
        [(label, url)] = links_of(final)
        assert label == "Open the board"
        status, page = await get(url)
        assert status == 200 and 'id="result"' in page and "🏆" in page
