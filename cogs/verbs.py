"""The shared verbs: `/explore`, `/narrate`, `/sheet`.  Each acts on the game of the thread it is used in,
and that game's rules decide what the verb means there (a game without it says so)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.present import presenter
from cogs.common import files, game_here, reply, service
from cogs.components import perform, show_narrator_card
from rules import GameError


async def _game_choices(interaction: discord.Interaction, verb: str, option: str,
                        current: str) -> list[app_commands.Choice[str]]:
    channel_id = interaction.channel_id
    game_id = await service(interaction).game_in_thread(channel_id) if channel_id else None
    if game_id is None:
        return []
    options = await service(interaction).choices(game_id, interaction.user.id, verb, option)
    typed = current.strip().lower()
    picked = [(label, value) for label, value in options if typed in label.lower()]
    picked.sort(key=lambda c: c[1].lower() != typed)  # an exact doorway id first
    return [app_commands.Choice(name=label[:100], value=value) for label, value in picked[:25]]


class Verbs(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.guild_only()
    @app_commands.command(name="explore", description="Move your fighter: enter, go to a doorway, or leave a room")
    @app_commands.describe(to="The doorway to go to (the list shows every legal one)")
    async def explore(self, interaction: discord.Interaction, to: str) -> None:
        game_id = await game_here(interaction)
        await perform(interaction, game_id, verb="explore", args={"to": to})

    @explore.autocomplete("to")
    async def explore_to(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await _game_choices(interaction, "explore", "to", current)

    @app_commands.guild_only()
    @app_commands.command(name="narrate", description="Narrator: see the card in hand, or tell it in your words")
    @app_commands.describe(text="Your telling of the card (leave out to read the card privately first)")
    async def narrate(self, interaction: discord.Interaction,
                      text: app_commands.Range[str, 1, 1500] | None = None) -> None:
        game_id = await game_here(interaction)
        if not text:
            await show_narrator_card(interaction, game_id)
            return
        await perform(interaction, game_id, verb="narrate", args={"text": text})

    @app_commands.guild_only()
    @app_commands.command(name="sheet", description="Your fighter card and treasure (only you see it)")
    async def sheet(self, interaction: discord.Interaction) -> None:
        game_id = await game_here(interaction)
        result = await service(interaction).get(game_id, interaction.user.id)
        if result.actor is None:
            raise GameError("You are not playing in this game, so you have no sheet here.")
        telling = presenter(result.rules.key).sheet(result, result.actor)
        await reply(interaction, telling.text, files=files(telling.pictures))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Verbs(bot))
