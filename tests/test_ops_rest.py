"""REST requests per move, split by the token they spend: at most one bot-token request (Discord's global
limit) per move on average, whatever the game; the bot's own count (bot.ops.metrics) agrees with the fake's."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.ops.metrics import requests_so_far
from bot.store.db import Database
from rules.registry import games
from tests.fakediscord import FakeDiscordHarness
from tests.ops_helpers import MoveCount, open_game, play_by_controls
from tests.tabula_harness import bot_factory


@pytest.mark.parametrize("key", sorted(games()))
async def test_a_move_spends_at_most_one_bot_token_request(db: Database, key: str) -> None:
    async with FakeDiscordHarness(bot_factory(db), quiet=0.02) as h:
        thread = await open_game(h, key)
        count = MoveCount()
        counted = requests_so_far()
        before = len(h.fake.requests)
        made = await play_by_controls(h, thread, 8, count, random.Random(3))
        assert made >= 1, f"no move could be made in {key} by its controls"
        assert count.interaction_per_move >= 1  # every move answers its own interaction
        assert count.bot_per_move <= 1.0, count.routes
        assert set(count.routes) <= {"PATCH /channels/{id}/messages/{id}", "POST /channels/{id}/messages"}
        for _ in range(100):  # a request the bot has counted may still be on its way to the fake (a busy machine)
            now = requests_so_far()
            seen = h.fake.requests[before:]
            if now["bot"] - counted["bot"] + now["interaction"] - counted["interaction"] == len(seen):
                break
            await asyncio.sleep(0.02)
        assert now["bot"] - counted["bot"] >= count.bot  # the bot's own counter sees at least the moves' requests
        assert now["bot"] - counted["bot"] + now["interaction"] - counted["interaction"] == len(seen)
