"""`/game new | status | list | abandon` and the lobby: Join, Leave, Start."""

from __future__ import annotations

import logging
import re
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.play import LobbyInfo, Person
from bot.present import presenter
from cogs.common import files, game_here, reply, send_telling, service, tell_result
from cogs.components import guarded
from rules import RULESETS, GameError, ruleset

log = logging.getLogger("tabula.discord")

#: The `/game new` options each game understands (the rest belong to another game).
GAME_OPTIONS: dict[str, set[str]] = {
    "legend": {"mode", "narration", "narrator_timeout"},
    "champion": {"opponents", "fate", "short", "heroic", "narrator_timeout"},
}

SUMMARIES = {
    "legend": "Explore the Dungeons of Legend: move from doorway to doorway, uncover each room's story card by "
              "card, fight monsters and dodge hazards with a d20, and carry out the most gold. 2–5 players, "
              "or 1 in solo mode; `mode:expanded` gives everyone a party of five heroes.",
    "champion": "Roam the Roman Empire of AD 115 as a hero of an ancient people: escort caravans, explore, sail, "
                "face story cards and fights, gather six pieces of information and be the first to slay your "
                "mythological monster. 2–4 players; options `opponents`, `fate`, `short`, `heroic`.",
}


def lobby_embed(info: LobbyInfo, note: str = "") -> discord.Embed:
    rules = ruleset(info.ruleset)
    if info.status == "lobby":
        title = f"{rules.title} · #{info.game_id} — lobby"
    else:
        title = f"{rules.title} · #{info.game_id} — {info.status}"
    description = SUMMARIES.get(info.ruleset, "")
    if note:
        description = f"{note}\n\n{description}"
    embed = discord.Embed(title=title, description=description, colour=0x8B5A2B)
    seated = "\n".join(f"{s.seat + 1}. <@{s.user_id}>" + (" (host)" if s.user_id == info.host_id else "")
                       for s in info.seats)
    embed.add_field(name=f"Players ({len(info.seats)}/{rules.max_players})", value=seated or "—", inline=True)
    shown = {k: v for k, v in info.options.items()
             if k in ("mode", "narration", "narrator_timeout", "opponents", "fate", "short", "heroic")}
    if shown:
        nice = [f"{k.replace('_', ' ')}: {v:g} min" if k == "narrator_timeout" else f"{k}: {v}"
                for k, v in shown.items()]
        embed.add_field(name="Options", value="\n".join(nice), inline=True)
    if info.status == "lobby":
        embed.set_footer(text="Press Join to take a seat. The host presses Start when everyone is in.")
    elif info.thread_id:
        embed.set_footer(text="The game is played in its thread.")
    return embed


def lobby_view(info: LobbyInfo) -> discord.ui.View | None:
    if info.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    for op in ("join", "leave", "start"):
        view.add_item(LobbyButton(info.game_id, op))
    return view


async def refresh_lobby(client: discord.Client, game_id: int, note: str = "") -> None:
    """Show a started, finished or abandoned game on its lobby message (and take the buttons away)."""
    svc = client.service  # type: ignore[attr-defined]
    info = await svc.lobby(game_id)
    if info.channel_id is None or info.lobby_message_id is None:
        return
    channel = client.get_channel(info.channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        return
    try:
        await channel.get_partial_message(info.lobby_message_id).edit(  # type: ignore[attr-defined]
            embed=lobby_embed(info, note), view=lobby_view(info), allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.info("game %d: could not update the lobby message", game_id)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"tb:lobby:(?P<game>\d+):(?P<op>join|leave|start)"):
    def __init__(self, game_id: int, op: str) -> None:
        style = {"join": discord.ButtonStyle.success, "leave": discord.ButtonStyle.secondary,
                 "start": discord.ButtonStyle.primary}[op]
        super().__init__(discord.ui.Button(label=op.capitalize(), style=style,
                                           custom_id=f"tb:lobby:{game_id}:{op}"))
        self.game_id, self.op = game_id, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str], /) -> LobbyButton:
        return cls(int(match["game"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        work = begin_game(interaction, self.game_id) if self.op == "start" else self._seat(interaction)
        await guarded(interaction, self.game_id, work)

    async def _seat(self, interaction: discord.Interaction) -> None:
        person = Person(interaction.user.id, interaction.user.display_name)
        svc = service(interaction)
        info = await (svc.join if self.op == "join" else svc.leave)(self.game_id, person)
        await interaction.response.edit_message(embed=lobby_embed(info), view=lobby_view(info),
                                                allowed_mentions=discord.AllowedMentions.none())


async def begin_game(interaction: discord.Interaction, game_id: int) -> None:
    """Start: roll-off and deal, open the game's thread, add the players, post the board, ping the first."""
    svc = service(interaction)
    result = await svc.start(game_id, interaction.user.id)
    info = await svc.lobby(game_id)
    await interaction.response.edit_message(embed=lobby_embed(info), view=None,
                                            allowed_mentions=discord.AllowedMentions.none())
    title = f"{result.rules.title} · #{game_id}"
    target: discord.abc.Messageable
    try:
        assert interaction.message is not None
        thread = await interaction.message.create_thread(name=title, auto_archive_duration=10080)
        for seat in result.seats:
            try:
                await thread.add_user(discord.Object(id=seat.user_id))
            except discord.HTTPException:
                log.warning("game %d: could not add user %d to thread", game_id, seat.user_id)
        target = thread
        await svc.set_thread(game_id, thread.id)
    except discord.HTTPException as err:
        # Without "Create Public Threads" (or if Discord refuses the thread) the game is played in the channel.
        log.warning("game %d: no thread (%s); playing in the channel", game_id, err)
        await reply(interaction, "I could not open a thread here (the bot needs **Create Public Threads** and "
                                 "**Send Messages in Threads**), so this game is played in this channel.")
        assert interaction.channel_id is not None
        await svc.set_thread(game_id, interaction.channel_id)
        target = interaction.channel  # type: ignore[assignment]
    result.thread_id = getattr(target, "id", None)
    telling = await tell_result(result)
    telling.text = f"**{title}** begins!\n{telling.text}"
    await send_telling(interaction.client, target, result, telling)  # type: ignore[arg-type]


@app_commands.guild_only()
class Games(commands.GroupCog, group_name="game", group_description="Start, find and manage games"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _pick(self, interaction: discord.Interaction, game: int | None) -> int:
        """The game named by number (it must belong to this server), or else the thread's game."""
        if game is None:
            return await game_here(interaction)
        info = await service(interaction).lobby(game)
        if info.guild_id != interaction.guild_id:
            raise GameError(f"There is no game #{game} in this server. `/game list` shows the ones here.")
        return game

    @app_commands.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        game="Which game to play",
        mode="Legend of Heroes: starter (2–5), solo (1, eight wounds) or expanded (parties of five heroes, 1–5)",
        narration="Legend of Heroes: who reads the cards — bot, or players (the player to the explorer's right)",
        seed="Fixes the dice and shuffles (same seed, same game: whoever knows it can foresee the cards)",
        narrator_timeout="Minutes a Narrator (or the player running an opponent) has before Tabula acts (default 10)",
        opponents="Champion of the Empire: who plays story opponents — players (the hero's right) or bot",
        fate="Champion of the Empire: use the fate track variant",
        short="Champion of the Empire: the shorter version (five pieces of information)",
        heroic="Champion of the Empire: the heroic version (+1 combat value and life for every opponent)",
    )
    @app_commands.choices(game=[app_commands.Choice(name=r.title, value=k) for k, r in RULESETS.items()])
    async def new(self, interaction: discord.Interaction, game: str,
                  mode: Literal["starter", "solo", "expanded"] | None = None,
                  narration: Literal["bot", "players"] | None = None,
                  seed: app_commands.Range[int, 0, 2_147_483_647] | None = None,
                  narrator_timeout: app_commands.Range[float, 0.5, 10080.0] | None = None,
                  opponents: Literal["players", "bot"] | None = None,
                  fate: bool | None = None, short: bool | None = None, heroic: bool | None = None) -> None:
        if interaction.guild_id is None:
            raise GameError("Games are played in servers: invite Tabula to one and use `/game new` there.")
        if isinstance(interaction.channel, discord.Thread):
            raise GameError("Start games from a text channel: each game then gets a thread of its own.")
        person = Person(interaction.user.id, interaction.user.display_name)
        given = {"mode": mode, "narration": narration, "narrator_timeout": narrator_timeout, "opponents": opponents,
                 "fate": fate, "short": short, "heroic": heroic}
        options = {k: v for k, v in given.items() if v is not None}
        stray = sorted(set(options) - GAME_OPTIONS.get(game, set(options)))
        if stray:
            allowed = ", ".join(f"`{o}`" for o in sorted(GAME_OPTIONS[game]))
            raise GameError(f"{ruleset(game).title} has no option {', '.join(f'`{o}`' for o in stray)}; its "
                            f"options are {allowed} (and `seed`).")
        info = await service(interaction).create(game, person, guild_id=interaction.guild_id,
                                                 channel_id=interaction.channel_id, options=options, seed=seed)
        await interaction.response.send_message(embed=lobby_embed(info), view=lobby_view(info),
                                                allowed_mentions=discord.AllowedMentions.none())
        message = await interaction.original_response()
        await service(interaction).set_thread(info.game_id, lobby_message_id=message.id)

    @app_commands.command(name="status", description="The board, whose turn it is and the scores")
    @app_commands.describe(game="The game's number (#12) — needed outside the game's thread")
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await self._pick(interaction, game)
        result = await service(interaction).get(game_id, interaction.user.id)
        telling = presenter(result.rules.key).status(result)
        await reply(interaction, telling.text, files=files(telling.pictures))

    @app_commands.command(name="list", description="Games in this server, with their threads")
    async def list_(self, interaction: discord.Interaction) -> None:
        games = await service(interaction).list_games(interaction.guild_id)
        if not games:
            await reply(interaction, "No games are running in this server. Start one with `/game new`.")
            return
        rows = []
        for g in games:
            where = f"<#{g.thread_id}>" if g.thread_id else (f"lobby in <#{g.channel_id}>" if g.channel_id else "")
            rows.append(f"**#{g.game_id}** {ruleset(g.ruleset).title} — {g.status} — {', '.join(g.players)} {where}")
        await reply(interaction, "\n".join(rows))

    @app_commands.command(name="abandon", description="End a game or lobby without a winner (host or Manage Server)")
    @app_commands.describe(game="The game's number (#12) — needed outside the game's thread, e.g. for a lobby")
    async def abandon(self, interaction: discord.Interaction, game: int | None = None) -> None:
        game_id = await self._pick(interaction, game)
        perms = interaction.permissions
        info = await service(interaction).abandon(game_id, interaction.user.id,
                                                  can_manage=bool(perms and perms.manage_guild))
        await interaction.response.send_message(
            f"**{ruleset(info.ruleset).title} · #{game_id}** was abandoned by {interaction.user.mention}. "
            "Nothing more can be played in it.", allowed_mentions=discord.AllowedMentions.none())
        await refresh_lobby(interaction.client, game_id, f"Abandoned by {interaction.user.display_name}.")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Games(bot))
