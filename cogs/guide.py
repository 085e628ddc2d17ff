"""`/help` and `/rules`: the thread's game's commands and its rules summary, answered only to whoever asked.
The words come from ``bot.service.guide`` (the terminal shows the same); the rules page through Previous / Next
buttons that work after a restart (the page is in the button's id)."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.front.client import TabulaBot
from bot.service.guide import help_text, lobby_help, rules_page, topics
from cogs.answers import guarded
from cogs.common import NONE, Interaction, checked_id, ours, reply, service
from rules.i18n import N_, N_p, _
from rules.registry import AnyRuleset, games, ruleset

#: The options of `/rules`, named here so that their translations are extracted.
OPTION_NAMES = (N_p("option", "topic"), N_p("option", "game"))


async def _thread_rules(interaction: Interaction) -> AnyRuleset | None:
    channel_id = interaction.channel_id
    game_id = await service(interaction).game_in_thread(channel_id) if channel_id else None
    return None if game_id is None else await service(interaction).rules_of(game_id)


def pager(key: str, index: int, total: int) -> discord.ui.View | None:
    if total <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(RulesButton(key, index - 1, _("◀ Previous"), disabled=index == 0))
    view.add_item(RulesButton(key, index + 1, _("Next ▶"), disabled=index >= total - 1))
    return view


class RulesButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"tb:rules:(?P<key>[a-z0-9_]+):(?P<n>\d+)"):
    """Turns a `/rules` answer to another page (the message is edited in place, still only for the reader)."""

    PRIVATE: ClassVar[bool] = True  # only ever on a private answer (bot/front/inbound.py)

    def __init__(self, key: str, index: int, label: str = "Page", *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=checked_id(f"tb:rules:{key}:{max(index, 0)}")))
        self.key, self.index = key, max(index, 0)

    @classmethod
    def accepts(cls, match: re.Match[str]) -> bool:
        """Only a game this release has (bot/front/inbound.py refuses the others politely)."""
        return match["key"] in games()

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> RulesButton:
        return cls(match["key"], int(match["n"]))

    async def callback(self, pressed: discord.Interaction[Any]) -> None:
        interaction = ours(pressed)
        async def turn() -> None:
            page = rules_page(ruleset(self.key), self.index)
            await interaction.response.edit_message(content=page.text(), view=pager(self.key, page.index, page.total),
                                                    allowed_mentions=NONE)
        await guarded(interaction, None, turn())


class Guide(commands.Cog):
    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RulesButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RulesButton)

    @app_commands.command(name=N_p("command", "help"),
                          description=N_("The commands of this thread's game (or the games Tabula has)"))
    @app_commands.guild_only()
    async def help(self, interaction: Interaction) -> None:
        rules = await _thread_rules(interaction)
        if rules is None:
            await reply(interaction, lobby_help())
            return
        game_id = await service(interaction).game_in_thread(interaction.channel_id or 0)
        options = await service(interaction).options_of(game_id) if game_id is not None else None
        await reply(interaction, help_text(rules, options=options))

    @app_commands.command(name=N_p("command", "rules"),
                          description=N_("The rules summary of this thread's game, a section a page"))
    @app_commands.describe(topic=N_("Which section (the list offers them)"),
                           game=N_("Which game's rules (in a game's thread, that game)"))
    @app_commands.choices(game=[app_commands.Choice(name=r.spec.title, value=k) for k, r in games().items()])
    @app_commands.guild_only()
    async def rules(self, interaction: Interaction, topic: app_commands.Range[str, 1, 60] | None = None,
                    game: str | None = None) -> None:
        rules = ruleset(game) if game else await _thread_rules(interaction)
        if rules is None:
            await reply(interaction, _("Which game? Use `/rules game:` here, or `/rules` inside a game's thread.")
                        + "\n\n" + lobby_help())
            return
        page = rules_page(rules, topic)
        await reply(interaction, page.text(), view=pager(rules.spec.key, page.index, page.total))

    @rules.autocomplete("topic")
    async def _topics(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        key = getattr(interaction.namespace, "game", None)
        rules = ruleset(key) if key in games() else await _thread_rules(interaction)
        if rules is None:
            return []
        typed = current.strip().lower()
        return [app_commands.Choice(name=label[:100], value=topic) for label, topic in topics(rules)
                if typed in label.lower()][:25]


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Guide(bot))
