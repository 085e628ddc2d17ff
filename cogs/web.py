"""`/game web`: the game's web page (``bot/web``), and the "Open the board" link on the game's messages.

The answer is private: the public address (anyone in the server may open it; it shows exactly what the thread
shows) and, to a seated player, their own personal link, signed and expiring, which shows their seat's private
views too.  ``revoke:True`` ends every personal link of the asker's seat made so far.  Without ``WEB_PORT`` the
command says the page is off."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import Interaction, pick, reply, service
from rules import GameError
from rules.i18n import N_, N_p, _

#: The option's name, listed here so that its translations are extracted.
OPTION_NAMES = (N_p("option", "revoke"),)


def web_of(client: Any) -> Any:
    """The process's web server, or None when the page is off."""
    return getattr(client, "web", None)


async def board_link(client: Any, game_id: int) -> str | None:
    """The game's public page, when the web page is on (None otherwise, or if it cannot be had right now)."""
    server = web_of(client)
    if server is None:
        return None
    try:
        return str(await server.public_url(game_id))
    except Exception:  # the page is an extra: a message is never held back for it
        return None


def board_button(url: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=_("Open the board"), emoji="🗺️")


def with_board(view: discord.ui.View | None, url: str | None) -> discord.ui.View | None:
    """``view`` with the "Open the board" link button added (a view of its own when there is none)."""
    if url is None:
        return view
    shown = view if view is not None else discord.ui.View(timeout=None)
    if len(shown.children) < 25:
        shown.add_item(board_button(url))
    return shown


@app_commands.describe(game=N_("The game's number (#12) — needed outside the game's thread"),
                       revoke=N_("End every personal link of yours for this game made so far"))
async def web(interaction: Interaction, game: app_commands.Range[int, 1, 2_147_483_647] | None = None,
              revoke: bool = False) -> None:
    server = web_of(interaction.client)
    if server is None:
        raise GameError(_("This bot serves no web pages: its operator has not set WEB_PORT."))
    game_id = await pick(interaction, game)
    info = await service(interaction).lobby(game_id)
    if info.status == "lobby":
        raise GameError(_("Game #{number} has not started yet, so it has no board to show.", number=game_id))
    seat = next((s.seat for s in info.seats if s.user_id == interaction.user.id), None)
    if revoke:
        if seat is None:
            raise GameError(_("You are not playing in this game. You can watch, or start your own with `/game new`."))
        await server.revoke(game_id, seat)
        await reply(interaction, _("Done: every personal link of yours for game #{number} is closed now. "
                                   "`/game web` gives you a new one.", number=game_id))
        return
    url = await server.public_url(game_id)
    lines = [_("🗺️ The board of game #{number}, for everyone: {url}", number=game_id, url=url)]
    if seat is not None:
        personal, expires = await server.personal_url(game_id, seat, interaction.user.id)
        until = datetime.fromtimestamp(expires, tz=UTC)
        lines.append(_("🔒 Your personal link — it also shows your own hand and secrets, so keep it to yourself. It "
                       "works until <t:{when}:f>; `/game web revoke:True` closes it sooner: {url}",
                       when=int(until.timestamp()), url=personal))
    await reply(interaction, "\n".join(lines), view=with_board(None, url))


class WebCog(commands.Cog, name="Web"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._added = False

    async def cog_load(self) -> None:
        server = web_of(self.bot)
        records = getattr(self.bot.get_cog("Records"), "records", None)
        if server is not None and records is not None:
            server.records = records  # one walked copy of each game's log for `/game replay` and the pages
        group = self.bot.tree.get_command("game")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("cogs.web needs the /game group: load cogs.games first")
        group.add_command(app_commands.Command(
            name=N_p("command", "web"), callback=web,
            description=N_("The game's live web page: the whole board, zoomable, and its history (only you see "
                           "the links)")))
        self._added = True

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("game")
        if self._added and isinstance(group, app_commands.Group):
            group.remove_command(N_p("command", "web"))
        self._added = False


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WebCog(bot))


__all__ = ["board_button", "board_link", "web", "web_of", "with_board"]
