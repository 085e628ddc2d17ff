"""The Discord client: wiring (database, service, extensions), errors, timeouts, shutdown.

It imports no cog: the cogs register their own commands and persistent controls when they load, and what
the client needs posted (a move Tabula made when a turn timed out) goes to them as a bot event
(``tabula_moment``), awaited so that a shutdown waits for it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.db import Database, open_database
from bot.play import GameService, Result
from rules import GameError

log = logging.getLogger("tabula.bot")

EXTENSIONS = ("cogs.components", "cogs.games", "cogs.verbs", "cogs.guide", "cogs.records")
APOLOGY = ("Something went wrong on our side. If your move went through it shows in the thread; "
           "if not, please try again.")


class TabulaTree(app_commands.CommandTree):
    """One place for command errors: a GameError is the player's answer; anything else is logged."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, GameError):
            message = str(original)
        elif isinstance(error, app_commands.TransformerError):
            message = f"I could not read **{error.value}** for that option. Pick one of the suggestions instead."
        elif isinstance(error, app_commands.CheckFailure):
            message = "You cannot use that command here."
        else:
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("command /%s in channel %s failed", command, interaction.channel_id, exc_info=original)
            message = APOLOGY
        with contextlib.suppress(discord.HTTPException):
            none = discord.AllowedMentions.none()
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True, allowed_mentions=none)
            else:
                await interaction.response.send_message(message, ephemeral=True, allowed_mentions=none)


class TabulaBot(commands.Bot):
    def __init__(self, settings: Settings, *, database: Database | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),  # no privileged intents: everything runs on interactions
            allowed_mentions=discord.AllowedMentions.none(),  # only turn pings mention, and only their players
            tree_cls=TabulaTree,
            help_command=None,
        )
        self.settings = settings
        self.db = database
        self._own_db = database is None
        self.service: GameService
        self._timeout_task: asyncio.Task[None] | None = None
        self._shutdown: asyncio.Future[None] | None = None
        self.warmed: asyncio.Task[None] | None = None
        self._sweep: asyncio.Future[int] | None = None
        self.background: set[asyncio.Task[None]] = set()  # small follow-up tasks (kept referenced)

    async def setup_hook(self) -> None:
        if self.db is None:
            self.db = await open_database(self.settings.database_url)
        self.service = GameService(self.db, turn_timeout_minutes=self.settings.turn_timeout_minutes)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        await self.sync_commands()
        self._timeout_task = asyncio.create_task(self._timeout_loop(), name="tabula-timeouts")
        self.warmed = asyncio.create_task(self._warm(), name="tabula-warm-pictures")

    async def _warm(self) -> None:
        """Draw every card picture in a worker thread once, at startup, instead of on a player's move."""
        from bot.present import presenter
        from rules.registry import games

        started = time.perf_counter()
        count = 0
        for key in games():
            count += await asyncio.to_thread(presenter(key).warm)
        log.info("drew %d pictures in %.1f s", count, time.perf_counter() - started)

    async def sync_commands(self) -> None:
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %d", len(synced), self.settings.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global commands (they can take up to an hour to appear)", len(synced))

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    # --- turn timeouts: an absent player never stalls a game ----------------------------------

    async def _timeout_loop(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            # Shielded: a shutdown waits for a sweep under way, so a move Tabula made is also posted.
            self._sweep = asyncio.ensure_future(self.run_timeouts())
            try:
                await asyncio.shield(self._sweep)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timeout sweep failed")
            await asyncio.sleep(self.settings.timeout_poll_seconds)

    async def run_timeouts(self) -> int:
        results = await self.service.due()
        for result in results:
            try:
                await self.post_result(result)
            except Exception:  # e.g. the thread was deleted: the move is saved; the other games still post
                log.exception("game %d: could not post Tabula's timed-out move", result.game_id)
        return len(results)

    async def post_result(self, result: Result[Any]) -> None:
        """Hand a move Tabula made to the cogs that tell it (the ``tabula_moment`` event), and wait for them."""
        for listener in self.extra_events.get("on_tabula_moment", []):
            await listener(result)

    async def close(self) -> None:
        # close() is called twice on a signal (our handler, then `async with`): both wait for one shutdown.
        if self._shutdown is None:
            self._shutdown = asyncio.ensure_future(self._close_once())
        await asyncio.shield(self._shutdown)

    async def _close_once(self) -> None:
        for task in (self._timeout_task, self.warmed):
            if task is not None:
                task.cancel()
        if self._sweep is not None and not self._sweep.done():
            with contextlib.suppress(Exception):
                await self._sweep
        if getattr(self, "service", None) is not None:
            await self.service.drain()  # let moves in flight finish their transaction
        await super().close()
        if self.db is not None and self._own_db:
            await self.db.close()
            self.db = None
