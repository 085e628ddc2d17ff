"""Legend's `/help` lists what the game in play can use: a starter game leaves out the Expanded Game's party
commands (the ruleset says which verbs a configuration offers; the platform names no game)."""

from __future__ import annotations

import pytest

from bot.service.guide import help_text
from bot.store.db import Database
from rules.i18n import using
from rules.registry import ruleset
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory
from tests.test_discord import start_game

PARTY = ("`/attack", "`/cast", "`/study", "`/heal", "`/party", "`/lead", "`/keep", "`/retreat", "`/front", "`/back",
         "`/order")


@pytest.mark.parametrize("lang", ["en", "hu", "el", "ja"])
def test_a_starter_or_solo_game_lists_no_party_commands_and_the_expanded_game_lists_them(lang: str) -> None:
    rules = ruleset("legend")
    with using(lang):
        starter = help_text(rules, options=rules.check_options({"mode": "starter"}, 3))
        solo = help_text(rules, options=rules.check_options({"mode": "solo"}, 1))
        expanded = help_text(rules, options=rules.check_options({"mode": "expanded"}, 3))
        every = help_text(rules)
    english = help_text(rules, options={"mode": "expanded"})
    assert "`/explore" in starter or lang != "en"
    lines = len(PARTY)
    assert starter.count("• ") == solo.count("• ") == expanded.count("• ") - lines == every.count("• ") - lines
    if lang == "en":
        assert not [v for v in PARTY if v in starter] and not [v for v in PARTY if v in solo]
        assert all(v in expanded for v in PARTY) and expanded == english


def test_the_other_games_list_every_command_whatever_their_options() -> None:
    for key in ("champion", "autokrator", "eiyu"):
        rules = ruleset(key)
        assert rules.verbs_offered({}) is None


async def test_help_in_a_starter_games_thread_lists_only_its_commands(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        thread, _ = await start_game(h, h.bob, mode="starter")
        helped = await h.slash(h.bob, thread.id, "help", {})
        assert helped.ephemeral and "`/explore" in helped.content
        assert not [v for v in PARTY if v in helped.content], helped.content
