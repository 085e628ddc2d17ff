"""`/game history | replay | export`, `/stats` and `/leaderboard`.

Everything comes from ``bot.service.records`` (the log walked with the game's engine).  History and replay answer only
the person who asked and page with buttons whose ids carry the game and the page or move, so they keep working
after a restart; every press checks again that the game belongs to this server.  The leaderboard is posted
in the channel: it is the same table for everyone who asks, shows only finished games of this server, and
mentions nobody (its names are shown, never pinged)."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any, ClassVar, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.front.client import TabulaBot
from bot.lang.translator import server_language
from bot.service.records import (
    Frame,
    Game,
    Page,
    Records,
    export_bytes,
    frame,
    history_page,
    leaderboard_text,
    stats_text,
)
from cogs.answers import guarded
from cogs.common import NONE, Interaction, checked_id, files, game_here, ours, reply, service
from rules import GameError
from rules.i18n import N_, N_p, _, using
from rules.registry import game_text, games, ruleset

GameNumber = app_commands.Range[int, 1, 2_147_483_647]
MoveNumber = app_commands.Range[int, 0, 1_000_000]
FromNumber = app_commands.Range[int, 1, 1_000_000]
GAME_HELP = N_("The game's number (#12) — needed outside the game's thread")
#: The options of the records commands, named here so that their translations are extracted.
OPTION_NAMES = (N_p("option", "from"), N_p("option", "move"), N_p("option", "player"), N_p("option", "min_games"))


def records_of(client: TabulaBot) -> Records:
    cog = client.get_cog("Records")
    if not isinstance(cog, RecordsCog):
        raise GameError(_("History and stats are not available right now."))
    return cog.records


async def pick(interaction: Interaction, game: int | None) -> int:
    """The game named by number (checked against this server when it is read), or else the thread's game."""
    return game if game is not None else await game_here(interaction)


async def walked(interaction: Interaction, game_id: int) -> tuple[Game, list[str]]:
    records = records_of(interaction.client)
    found = await records.game(game_id, interaction.guild_id)
    lines = await records.lines(found)
    return found, lines


# --- history ---------------------------------------------------------------------------------------------


def history_view(game_id: int, page: Page) -> discord.ui.View | None:
    if page.previous is None and page.next is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(HistoryButton(game_id, "p", page.previous or 0, _("◀ Previous"), disabled=page.previous is None))
    view.add_item(HistoryButton(game_id, "n", page.next or page.start, _("Next ▶"), disabled=page.next is None))
    return view


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button that shows a private records answer at another place (history's page, replay's move), edited in
    place and still only for the reader.  Its id carries the game, the way it goes and where it lands, so it keeps
    working after a restart.  This base matches no id: each kind below names its ``KIND``, its template and how it
    ``show``s the answer at ``at``."""

    PRIVATE: ClassVar[bool] = True  # only ever on a private answer (bot/front/inbound.py)
    KIND: ClassVar[str]
    LABEL: ClassVar[str]

    def __init__(self, game_id: int, op: str, at: int, label: str | None = None, *, disabled: bool = False) -> None:
        at = max(at, 0)
        custom_id = checked_id(f"tb:{self.KIND}:{game_id}:{op}:{at}")
        super().__init__(discord.ui.Button(label=label or self.LABEL, style=discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=custom_id))
        self.game_id, self.op, self.at = game_id, op, at

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Self:
        return cls(int(match["game"]), match["op"], int(match["n"]))

    async def callback(self, pressed: discord.Interaction[Any]) -> None:
        interaction = ours(pressed)
        await guarded(interaction, self.game_id, self.show(interaction))

    async def show(self, interaction: Interaction) -> None:
        raise NotImplementedError(type(self).__name__)


class HistoryButton(PageButton, template=r"tb:hist:(?P<game>\d+):(?P<op>[pn]):(?P<n>\d+)"):
    """Turns a `/game history` answer to another page; ``at`` is where the page begins."""

    KIND, LABEL = "hist", "Page"

    async def show(self, interaction: Interaction) -> None:
        await interaction.response.defer()  # a long log takes a moment to walk: the edit follows
        found, lines = await walked(interaction, self.game_id)
        page = history_page(found, lines, self.at)
        await interaction.edit_original_response(content=page.text, view=history_view(self.game_id, page),
                                                 allowed_mentions=NONE)


# --- replay ----------------------------------------------------------------------------------------------


def replay_view(game_id: int, shown: Frame) -> discord.ui.View | None:
    if shown.first == shown.last:
        return None
    view = discord.ui.View(timeout=None)
    at_start, at_end = shown.number == shown.first, shown.number == shown.last
    view.add_item(ReplayButton(game_id, "f", shown.first, _("⏮ First"), disabled=at_start))
    view.add_item(ReplayButton(game_id, "p", shown.previous, _("◀ Previous"), disabled=at_start))
    view.add_item(ReplayButton(game_id, "n", shown.next, _("Next ▶"), disabled=at_end))
    view.add_item(ReplayButton(game_id, "l", shown.last, _("Last ⏭"), disabled=at_end))
    return view


class ReplayButton(PageButton, template=r"tb:replay:(?P<game>\d+):(?P<op>[fpnl]):(?P<n>\d+)"):
    """Shows a `/game replay` answer at another move, ``at`` (the picture is drawn again from the log)."""

    KIND, LABEL = "replay", "Move"

    async def show(self, interaction: Interaction) -> None:
        found, lines = await walked(interaction, self.game_id)
        await interaction.response.defer()  # drawing can take a moment: the edit follows
        shown = await asyncio.to_thread(frame, found, lines, self.at)
        await interaction.edit_original_response(content=shown.text, attachments=files(shown.pictures),
                                                 view=replay_view(self.game_id, shown), allowed_mentions=NONE)


# --- the /game subcommands --------------------------------------------------------------------------------


@app_commands.describe(game=GAME_HELP, from_=N_("Begin the page at this move number (by default: the newest moves)"))
@app_commands.rename(from_="from")
async def history(interaction: Interaction, game: GameNumber | None = None,
                  from_: FromNumber | None = None) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)  # a long log takes a moment to walk
    game_id = await pick(interaction, game)
    found, lines = await walked(interaction, game_id)
    page = history_page(found, lines, None if from_ is None else from_ - 1)
    await reply(interaction, page.text, view=history_view(game_id, page))


@app_commands.describe(game=GAME_HELP, move=N_("Show the board after this move (by default the newest; 0: the start)"))
async def replay(interaction: Interaction, game: GameNumber | None = None,
                 move: MoveNumber | None = None) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)  # replaying and drawing take a moment
    game_id = await pick(interaction, game)
    found, lines = await walked(interaction, game_id)
    shown = await asyncio.to_thread(frame, found, lines, move)
    await reply(interaction, shown.text, view=replay_view(game_id, shown), files=files(shown.pictures))


@app_commands.describe(game=GAME_HELP)
async def export(interaction: Interaction, game: GameNumber | None = None) -> None:
    # Walking a long log and writing the file take a moment, longer when the bot is busy: Discord is told at
    # once that the answer follows (only the asker sees it, as they see the answer or a refusal).
    await interaction.response.defer(ephemeral=True, thinking=True)
    game_id = await pick(interaction, game)
    found = await records_of(interaction.client).game(game_id, interaction.guild_id)
    data = await asyncio.to_thread(export_bytes, found, now=service(interaction).clock())
    name = f"tabula-game-{game_id}.json"
    title = found.title
    text = _("**{game}** — the whole log ({entries} entries after the start). Anyone can check it with the engine: "
             "`python -m bot verify {file}`.", game=title, entries=len(found.timeline.entries), file=name)
    if not found.ended:
        text += "\n" + _("The game is still running, so the seed, secret moves and the moves' events are left out; "
                         "export it again once it ends to check every move and roll.")
    await reply(interaction, text, file=discord.File(io.BytesIO(data), filename=name,
                                                     description=_("The log of {game}", game=title)))


SUBCOMMANDS = (
    (N_p("command", "history"), N_("The moves so far, a page at a time (only you see it)"), history),
    (N_p("command", "replay"), N_("The board as it stood after any move, with buttons to step through (only you see "
                                  "it)"), replay),
    (N_p("command", "export"), N_("The whole log as a file anyone can check with `python -m bot verify`"), export),
)


# --- the cog ---------------------------------------------------------------------------------------------


GAME_CHOICES = [app_commands.Choice(name=r.spec.title, value=k) for k, r in games().items()][:25]


class RecordsCog(commands.Cog, name="Records"):
    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot
        self.records = Records(bot.service.db.sessions)
        self._added: list[str] = []

    def _group(self) -> app_commands.Group:
        group = self.bot.tree.get_command("game")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("cogs.records needs the /game group: load cogs.games first")
        return group

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(HistoryButton, ReplayButton)
        group = self._group()
        for name, description, callback in SUBCOMMANDS:
            group.add_command(app_commands.Command(name=name, description=description, callback=callback))
            self._added.append(name)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(HistoryButton, ReplayButton)
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group):
            for name in self._added:
                group.remove_command(name)
        self._added.clear()

    @app_commands.command(name=N_p("command", "stats"), description=N_("Games played and won in this server, per game"))
    @app_commands.describe(player=N_("Whose record (by default yours)"), game=N_("Only this game"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction, player: discord.User | None = None,
                    game: str | None = None) -> None:
        who = player or interaction.user
        if who.bot:
            await reply(interaction, _("{name} is a bot: only people have a record here.", name=who.display_name))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)  # every finished game here is read
        tallies = await self.records.stats(interaction.guild_id, who.id, game)
        await reply(interaction, stats_text(tallies, who.display_name))

    @app_commands.command(name=N_p("command", "leaderboard"),
                          description=N_("The server's best players of a game: wins and win rate"))
    @app_commands.describe(game=N_("Which game"), min_games=N_("Only players with at least this many finished games "
                                                               "(default 3)"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction, game: str,
                          min_games: app_commands.Range[int, 1, 1000] = 3) -> None:
        await interaction.response.defer(thinking=True)  # every finished game here is read; the table is public
        rows = await self.records.leaderboard(interaction.guild_id, game, min_games)
        with using(server_language(interaction)):  # said in the channel, for everyone: the server's language
            text = leaderboard_text(game_text(game, ruleset(game).spec.title), rows, min_games)
        await reply(interaction, text, ephemeral=False)


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(RecordsCog(bot))
