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
    @app_commands.command(name="explore", description="Explore: move to a doorway (Legend) or along a path of "
                                                       "provinces (Champion)")
    @app_commands.describe(to="Where to go (the list shows every legal choice)",
                           path="Champion of the Empire: the provinces to cross, e.g. latium>campania")
    async def explore(self, interaction: discord.Interaction, to: str | None = None, path: str | None = None) -> None:
        game_id = await game_here(interaction)
        where = to or path or ""
        await perform(interaction, game_id, verb="explore", args={"to": where, "path": where})

    @explore.autocomplete("to")
    async def explore_to(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await _game_choices(interaction, "explore", "to", current)

    @explore.autocomplete("path")
    async def explore_path(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await _game_choices(interaction, "explore", "path", current)

    @app_commands.guild_only()
    @app_commands.command(name="narrate", description="Narrator: see the card in hand, or tell it in your words")
    @app_commands.describe(text="Your telling of the card (leave out to read the card privately first)",
                           note="A short scene note pinned to the room, told again when a party next enters it")
    async def narrate(self, interaction: discord.Interaction,
                      text: app_commands.Range[str, 1, 1500] | None = None,
                      note: app_commands.Range[str, 1, 300] | None = None) -> None:
        game_id = await game_here(interaction)
        if note:
            await perform(interaction, game_id, verb="note", args={"text": note})
            if text:
                await perform(interaction, game_id, verb="narrate", args={"text": text})
            return
        if not text:
            await show_narrator_card(interaction, game_id)
            return
        await perform(interaction, game_id, verb="narrate", args={"text": text})

    @app_commands.guild_only()
    @app_commands.command(name="attack", description="Attack: your Leader strikes, or your hero attacks the monster")
    @app_commands.describe(card="Champion, in a fight: the combat card to attack with",
                           target="Champion, in a fight: which opponent (by number)")
    async def attack(self, interaction: discord.Interaction, card: str | None = None,
                     target: str | None = None) -> None:
        game_id = await game_here(interaction)
        args = {k: v for k, v in (("card", card), ("target", target)) if v}
        await perform(interaction, game_id, verb="attack", args=args)

    @attack.autocomplete("card")
    async def attack_card(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await _game_choices(interaction, "attack", "card", current)

    @attack.autocomplete("target")
    async def attack_target(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await _game_choices(interaction, "attack", "target", current)

    @app_commands.guild_only()
    @app_commands.command(name="cast", description="Legend of Heroes: your Magic User, leading, casts his spell")
    async def cast(self, interaction: discord.Interaction) -> None:
        await perform(interaction, await game_here(interaction), verb="cast", args={})

    @app_commands.guild_only()
    @app_commands.command(name="study", description="Legend of Heroes: miss a turn; your Magic User learns a spell")
    async def study(self, interaction: discord.Interaction) -> None:
        await perform(interaction, await game_here(interaction), verb="study", args={})

    @app_commands.guild_only()
    @app_commands.command(name="heal", description="Legend of Heroes: miss a turn; your Cleric heals the wounded")
    async def heal(self, interaction: discord.Interaction) -> None:
        await perform(interaction, await game_here(interaction), verb="heal", args={})

    @app_commands.guild_only()
    @app_commands.command(name="roll", description="Roll dice for everyone to see, logged in the game (2d20+3, d6)")
    @app_commands.describe(expr="Dice to roll, e.g. d20, 2d6+3, 3d6-1d4")
    async def roll(self, interaction: discord.Interaction, expr: app_commands.Range[str, 1, 60]) -> None:
        await perform(interaction, await game_here(interaction), verb="roll", args={"expr": expr})

    @app_commands.guild_only()
    @app_commands.command(name="party", description="Legend of Heroes: your party and spell (only you see them)")
    async def party(self, interaction: discord.Interaction) -> None:
        game_id = await game_here(interaction)
        result = await service(interaction).get(game_id, interaction.user.id)
        if result.actor is None:
            raise GameError("You are not playing in this game, so you have no party here.")
        shown = presenter(result.rules.key)
        if not hasattr(shown, "party_sheet") or result.state.mode != "expanded":
            raise GameError("Parties belong to the Expanded Game of Legend of Heroes. `/sheet` shows what you have "
                            "in this game.")
        telling = shown.party_sheet(result, result.actor)
        view = None
        if shown.can_reorder(result, result.actor):
            from cogs.components import VerbSelect

            view = discord.ui.View(timeout=None)
            for verb, hint in (("front", "Put at the front (Leader)…"), ("back", "Send to the back…")):
                picks = result.rules.choices(result.state, result.actor, verb, "hero")
                if picks:
                    view.add_item(VerbSelect(game_id, result.stamp, verb, "hero", picks, placeholder=hint))
        await reply(interaction, telling.text, files=files(telling.pictures),
                    **({"view": view} if view is not None and view.children else {}))

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
