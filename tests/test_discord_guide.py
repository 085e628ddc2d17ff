"""`/help` and `/rules` on Discord: only the thread's game's commands, the rules a section a page with
buttons that turn the page, privately; outside a game, the list of games."""

from __future__ import annotations

from bot.service.guide import sections
from bot.store.db import Database
from rules.registry import ruleset
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory
from tests.test_discord import start_game


async def test_help_and_rules_in_a_thread_and_outside(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        outside = await h.slash(h.alice, h.channel, "help", {})
        assert outside.ephemeral
        assert "Legend of Heroes" in outside.content and "Champion of the Empire" in outside.content
        thread, _ = await start_game(h, h.bob, mode="starter")
        helped = await h.slash(h.bob, thread.id, "help", {})
        assert helped.ephemeral and "`/explore" in helped.content
        assert "`/hero" not in helped.content and "`/voyage" not in helped.content  # Champion's verbs stay out
        assert helped.content.count("• `/narrate") == 1  # one line per command

        first = await h.slash(h.alice, thread.id, "rules", {})
        assert first.ephemeral
        total = len(sections(ruleset("legend")))
        assert f"page 1 of {total}" in first.content
        if total > 1:
            assert first.original is not None
            turned = await h.click(h.alice, first.original, next(c for c in first.custom_ids if c.endswith(":1")))
            assert f"page 2 of {total}" in turned.content
        wrong = await h.slash(h.alice, thread.id, "rules", {"topic": "zzz"})
        assert wrong.ephemeral and "The topics are" in wrong.content

        other = await h.slash(h.alice, thread.id, "rules", {"game": "champion"})
        assert other.ephemeral and "page 1 of" in other.content

        hand = await h.slash(h.alice, thread.id, "hand", {})
        assert hand.ephemeral and "Legend of Heroes has no `/hand`" in hand.content
        assert "What only you can see in this game: `/sheet`" in hand.content
