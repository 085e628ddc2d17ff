"""The game verbs as slash commands, built from the games' specs: one command per verb name, shared by every
game that uses it.  Each acts on the game of the thread it is used in, and that game's codec decides what the
verb means there (a game without it says so, and lists what it has).  Autocomplete offers exactly the legal
values, labelled by the game's codec, narrowed by the options already filled in."""

from __future__ import annotations

import inspect
from typing import Any, Optional

from discord import app_commands
from discord.ext import commands

from bot.front.client import TabulaBot
from bot.front.discordpy import with_parameters
from bot.lang.translator import text
from bot.service.verbs import SlashVerb, slash_verbs
from cogs.common import Interaction, service
from cogs.components import run_verb


async def legal_values(interaction: Interaction, verb: str, arg: str,
                       current: str) -> list[app_commands.Choice[str]]:
    channel_id = interaction.channel_id
    game_id = await service(interaction).game_in_thread(channel_id) if channel_id else None
    if game_id is None:
        return []
    filled = {k: str(v) for k, v in interaction.namespace.__dict__.items() if v is not None and k != arg}
    options = await service(interaction).choices(game_id, interaction.user.id, verb, arg, filled)
    typed = current.strip().lower()
    picked = [(label, value) for label, value in options if typed in label.lower() or typed in value.lower()]
    picked.sort(key=lambda c: c[1].lower() != typed)  # an exact id first
    return [app_commands.Choice(name=label[:100], value=value[:100]) for label, value in picked[:25]]


def verb_command(verb: SlashVerb) -> app_commands.Command[Any, ..., None]:
    async def callback(interaction: Interaction, **given: Any) -> None:
        await run_verb(interaction, verb.name, {k: str(v) for k, v in given.items() if v is not None})

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=Interaction)]
    for a in verb.args:
        kind: Any = app_commands.Range[str, 1, a.max_length]
        params.append(inspect.Parameter(a.name, inspect.Parameter.KEYWORD_ONLY,
                                        default=inspect.Parameter.empty if a.required else None,
                                        annotation=kind if a.required else Optional[kind]))  # noqa: UP045
    with_parameters(callback, params, descriptions={
        a.name: text(a.description, msgid=a.msgid or None) for a in verb.args})
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=verb.name, description=text(verb.description, msgid=verb.msgid or None, fill=verb.fill),
        callback=callback)
    command.guild_only = True
    for a in verb.args:
        if a.complete:
            command.autocomplete(a.name)(_completer(verb.name, a.name))
    return command


def _completer(verb: str, arg: str) -> Any:
    async def complete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await legal_values(interaction, verb, arg, current)
    return complete


class Verbs(commands.Cog):
    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        for verb in slash_verbs().values():
            self.bot.tree.add_command(verb_command(verb), override=True)

    async def cog_unload(self) -> None:
        for name in slash_verbs():
            self.bot.tree.remove_command(name)


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Verbs(bot))
