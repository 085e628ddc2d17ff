"""The Discord client: wiring (database, service, extensions), errors, timeouts, shutdown.

It imports no cog: the cogs register their own commands and persistent controls when they load, and what
the client needs posted (a move Tabula made when a turn timed out) goes to them as a bot event
(``moment_tellers``, which the cogs fill when they load), awaited so that a shutdown waits for it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy import text

from bot.delivery.outbox import Outbox
from bot.front.discordpy import connection_of, forget_command
from bot.front.inbound import (
    AUTOCOMPLETE,
    COMMAND,
    COMPONENT,
    MODAL,
    STALE,
    UNUSABLE,
    answer_privately,
    command_shape_problem,
    component_problem,
    option_problem,
    shown,
)
from bot.lang.translator import TabulaTranslator, locale_of, lookup
from bot.longplay.service import ClockNews, LongGameService
from bot.ops import allocator, metrics
from bot.ops.config import Settings
from bot.ops.shards import ShardLease, ShardPlan, lock_sqlite, shard_of
from bot.ops.shutdown import Stopping
from bot.service.play import Result
from bot.service.thinking import Thinker
from bot.store.claims import Claimer, process_identity
from bot.store.db import Database, open_database
from render.cache import configure, default_directory
from rules import GameError
from rules.i18n import N_, _, _p, language, set_language

log = logging.getLogger("tabula.bot")

EXTENSIONS = ("cogs.controls", "cogs.games", "cogs.verbs", "cogs.guide", "cogs.tables", "cogs.records",
              "cogs.web")
APOLOGY = N_("Something went wrong on our side. If your move went through it shows in the thread; "
              "if not, please try again.")


class OutOfBounds(app_commands.CheckFailure):
    """An option outside what the command declares (only a forged or hand-built interaction gets here:
    Discord's own client enforces the limits, discord.py does not check them again)."""


class Unreadable(app_commands.CheckFailure):
    """A command interaction discord.py cannot read at all (a shape Discord never sends)."""


def too_late(interaction: discord.Interaction, error: BaseException, game_id: int | None) -> bool:
    """Whether ``error`` is Discord refusing an answer that came after its 3-second window (404, code 10062
    "Unknown interaction"); if so the log gets one warning line with the game and the delay.  Nothing can be
    answered on that interaction any more, and nothing is lost: what it committed is in the outbox, which tells
    the thread."""
    if not (isinstance(error, discord.NotFound) and error.code == 10062):
        return False
    delay = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    log.warning("game %s: answered %.1f s after the interaction, past Discord's 3-second window (unknown "
                "interaction); what it committed is kept and told in the thread", game_id if game_id else "?",
                delay)
    return True


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def out_of_bounds(param: app_commands.Parameter, value: object) -> str | None:
    """What is wrong with ``value`` for ``param``, in a player's words, or None."""
    name = f"`{lookup(language(), param.display_name, 'option') or param.display_name}`"
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return _("{name} must be a number.", name=name)
        lo, hi = param.min_value, param.max_value
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            return _("{name} must be between {lo} and {hi}.", name=name, lo=_num(lo), hi=_num(hi)) \
                if lo is not None and hi is not None else _("{name} is out of range.", name=name)
    if isinstance(value, str):  # a string's Range bounds its length
        longest = param.max_value
        if longest is not None and param.type is discord.AppCommandOptionType.string and len(value) > longest:
            return _("{name} takes at most {most} characters.", name=name, most=_num(longest))
        if len(value) > 6000:
            return _("{name} is far too long.", name=name)
    if param.choices and isinstance(value, (str, int, float)) and value not in {c.value for c in param.choices}:
        listed = _p("list", ", ").join(f"`{c.value}`" for c in param.choices[:10])
        return _("{name} is one of {listed}.", name=name, listed=listed)
    return None


class TabulaTree(app_commands.CommandTree):
    """One place for command errors: a GameError is the player's answer; anything else is logged."""

    async def _call(self, interaction: discord.Interaction, /) -> None:
        started = time.perf_counter()
        try:
            await super()._call(interaction)
        except app_commands.AppCommandError:
            raise  # discord.py's wrapper hands it to on_error
        except Exception as err:  # discord.py could not read the interaction at all (a shape Discord never sends)
            log.warning("a command discord.py cannot read was refused (%s: %s)", type(err).__name__, str(err)[:200])
            forget_command(interaction)  # (discord.py's error path reads it)
            raise Unreadable(_(UNUSABLE)) from err
        finally:  # counted by command and outcome (on_error notes a refusal or an error)
            kind = "autocomplete" if interaction.type is discord.InteractionType.autocomplete else "command"
            try:
                name = interaction.command.qualified_name if interaction.command else "?"
            except Exception:  # (options discord.py cannot walk: refused above)
                name = "?"
            metrics.count_interaction(kind, name, interaction.extras.get("tabula_outcome", "ok"),
                                      time.perf_counter() - started)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Every option of the type and within the bounds its command declares, before anything reads it or
        reaches the database (an autocomplete whose options are not is answered with no suggestions)."""
        set_language(locale_of(interaction))  # this interaction's own task answers in the asker's language
        typed = interaction.type is discord.InteractionType.application_command
        if not typed and interaction.type is not discord.InteractionType.autocomplete:
            return True
        data: Any = interaction.data or {}
        if data.get("type", 1) != 1:
            return True  # a context menu: Tabula has none, and discord.py answers CommandNotFound
        command, options = self._get_app_command_options(data)  # CommandNotFound: on_error answers it
        problem = option_problem(command, options, data.get("resolved"), autocomplete=not typed) \
            if isinstance(command, app_commands.Command) else None
        if problem and not typed:
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.autocomplete([])
            return False
        if problem:
            raise OutOfBounds(problem)
        if typed and isinstance(command, app_commands.Command):
            for param in command.parameters:
                problem = out_of_bounds(param, getattr(interaction.namespace, param.display_name, None))
                if problem:
                    raise OutOfBounds(problem)
        return True

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        interaction.extras["tabula_outcome"] = metrics.outcome_of(error)
        if too_late(interaction, original, None):
            return
        if interaction.type is discord.InteractionType.autocomplete:  # (an unknown command's): no suggestions
            with contextlib.suppress(discord.HTTPException):
                if not interaction.response.is_done():
                    await interaction.response.autocomplete([])
            return
        if isinstance(original, (GameError, OutOfBounds, Unreadable)):
            message = str(original)
        elif isinstance(error, app_commands.TransformerError):
            message = _("I could not read **{value}** for that option. Pick one of the suggestions instead.",
                        value=shown(error.value))
        elif isinstance(error, (app_commands.CheckFailure, app_commands.CommandNotFound,
                                app_commands.CommandSignatureMismatch)):
            # (a command Discord's list has and this release has not, or with other options: a stale list)
            message = _(UNUSABLE)
        elif isinstance(original, (aiohttp.ClientError, OSError)):  # Discord unreachable: nothing to answer on
            log.warning("command in channel %s: Discord could not be reached (%s)", interaction.channel_id,
                        type(original).__name__)
            return
        else:
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("command /%s in channel %s failed", command, interaction.channel_id, exc_info=original)
            message = _(APOLOGY)
        with contextlib.suppress(discord.HTTPException):
            none = discord.AllowedMentions.none()
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True, allowed_mentions=none)
            else:
                await interaction.response.send_message(message, ephemeral=True, allowed_mentions=none)


class TabulaBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, *, database: Database | None = None) -> None:
        allocator.tune()  # before the threads that draw pictures exist (bot/ops/allocator.py)
        self.shard_plan = ShardPlan.from_settings(settings)  # none set: every shard, as many as Discord says
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),  # no privileged intents: everything runs on interactions
            allowed_mentions=discord.AllowedMentions.none(),  # only turn pings mention, and only their players
            tree_cls=TabulaTree,
            help_command=None,
            guild_ready_timeout=settings.guild_ready_timeout,
            http_trace=metrics.http_trace(),  # counts REST requests by the token they spend
            **self.shard_plan.client_options(),
        )
        self.settings = settings
        self.db = database
        self._own_db = database is None
        self.service: LongGameService
        self.outbox: Outbox  # what is owed to the threads (bot/delivery/outbox.py)
        self.stopper = Stopping(self)  # how a stop answers what is in flight (bot/ops/shutdown.py)
        self._timeout_task: asyncio.Task[None] | None = None
        self._shutdown: asyncio.Future[None] | None = None
        self._gateway: asyncio.Future[None] | None = None  # discord.py's connection loop (see connect)
        self.warmed: asyncio.Task[None] | None = None
        self._sweep: asyncio.Future[int] | None = None
        self.background: set[asyncio.Task[None]] = set()  # small follow-up tasks (kept referenced)
        #: Who tells what Tabula did on its own (a timed move; a clock's reminder, run-out or offer), registered by
        #: the cogs that tell it when they load, and awaited so that a stop waits for them (discord.py's
        #: ``dispatch`` runs its listeners as tasks nobody awaits).
        self.moment_tellers: list[Callable[[Result[Any]], Awaitable[None]]] = []
        self.clock_tellers: list[Callable[[ClockNews], Awaitable[None]]] = []
        self.running: dict[int, tuple[int, int, str, str]] = {}  # game -> a message a telling may continue
        self.identity = process_identity()  # how claims and the shard lease name this process
        self.claims: Claimer | None = None
        self.lease: ShardLease | None = None
        self._file_lock: Any = None
        self.health: Any = None  # the operators' port (bot.ops.health), when HEALTH_PORT is set
        self.web: Any = None  # the games' web pages (bot.web.server.WebServer), when WEB_PORT is set
        self.controls: dict[type[Any], re.Pattern[str]] = {}  # the persistent controls' classes and templates
        self._adopted: set[int | None] = set()  # servers of a shard nobody runs whose owed moves are being told

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        for item in items:
            self.controls[item] = item.__discord_ui_compiled_template__

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().remove_dynamic_items(*items)
        for item in items:
            self.controls.pop(item, None)

    def _screen(self, data: Any) -> bool:
        """A component press no control of Tabula's can take, or a modal (it opens none), is answered
        privately here and goes no further (bot/front/inbound.py); True when it was."""
        kind = data.get("type") if isinstance(data, dict) else None
        answer = STALE
        if kind == MODAL:
            problem: str | None = "a modal, and Tabula opens none"
        elif kind == COMPONENT:
            problem = component_problem(data, [(p, c) for c, p in self.controls.items()])
        elif kind in (COMMAND, AUTOCOMPLETE):
            problem, answer = command_shape_problem(data), UNUSABLE
        else:
            return False
        if problem is None:
            return False
        log.info("refused an interaction: %s", problem)
        metrics.count_interaction("component" if kind in (COMPONENT, MODAL) else "command", "unreadable", "refused",
                                  0.0)
        task = asyncio.ensure_future(answer_privately(connection_of(self), data, answer))
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return True

    async def setup_hook(self) -> None:
        if self.db is None:
            # A process of its own (python -m bot): refuse a second one on the same SQLite file, or on the
            # same shards of one database, before anything else (bot/ops/shards.py raises ProcessConflict).
            self._file_lock = lock_sqlite(self.settings.database_url)
            self.db = await open_database(self.settings.database_url)
            self.lease = ShardLease(self.db.engine, self.shard_plan, self.identity,
                                    seconds=self.settings.shard_lease_seconds)
            await self.lease.acquire()
            await self.lease.watch()  # a shard nobody runs is said at once (then at every heartbeat)
            self.lease.start_heartbeat(self.close)
        self.claims = Claimer(self.db.engine, owner=self.identity)
        metrics.instrument_database(self.db)
        metrics.count_errors()
        if self.settings.health_port is not None:  # (aiohttp's server half is loaded only then, as bot.web's)
            from bot.ops.health import start

            self.health = await start(self, self.settings.health_host, self.settings.health_port)
        if self.settings.web_port is not None:  # every game's web page (bot/web), off unless configured
            from bot.web.server import WebServer

            self.web = WebServer(self.db, base_url=self.settings.web_url(), link_days=self.settings.web_link_days,
                                 rate_per_minute=self.settings.web_rate_per_minute)
            port = await self.web.start(self.settings.web_host, self.settings.web_port)
            if not self.settings.web_base_url:
                self.web.base_url = self.settings.web_url(port)
        self.service = LongGameService(self.db, turn_timeout_minutes=self.settings.turn_timeout_minutes,
                                       default_clock=self.settings.default_clock,
                                       default_policy=self.settings.default_policy,
                                       vacation_days=self.settings.vacation_days,
                                       thinker=Thinker(self.settings.tabula_workers,
                                                       self.settings.tabula_think_seconds))
        self.outbox = Outbox(self, self.db)
        # The process whose shards serve a server tells its games; a game of a shard no process runs is told by
        # whichever process claims it (see _tell_for_absent_shards).
        self.outbox.owns = lambda guild: self.shard_plan.owns(guild) or guild in self._adopted
        self.outbox_depth = 0
        metrics.set_outbox_depth(lambda: self.outbox_depth)  # read at each scrape, counted at each sweep
        self.stopper.install(self._screen)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        await self.tree.set_translator(TabulaTranslator())
        await self.sync_commands()
        self._timeout_task = asyncio.create_task(self._timeout_loop(), name="tabula-timeouts")
        self.warmed = asyncio.create_task(self._warm(), name="tabula-picture-cache")

    async def _warm(self) -> None:
        """Pictures are drawn when first needed, in a worker thread, and kept as PNG files in the picture
        cache directory between runs: a start draws nothing and imports no renderer (a renderer's import
        competes with the first interactions for the interpreter, so it waits for the first picture, drawn in a
        worker thread whose answer is deferred in time if need be); it only drops files an old renderer left."""
        def prepare() -> tuple[Any, int]:
            directory = self.settings.picture_cache_dir or default_directory(self.settings.database_url)
            try:
                return directory, configure(directory).prune()
            except OSError as err:
                log.warning("pictures are kept in memory only: cannot use %s (%s)", directory, err)
                configure(None)
                raise
        try:
            directory, removed = await asyncio.to_thread(prepare)
        except OSError:
            return
        log.info("pictures are kept in %s%s", directory, f" ({removed} old files removed)" if removed else "")

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
        metrics.READY.set(1)
        log.info("logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    # --- turn timeouts: an absent player never stalls a game ----------------------------------

    async def _timeout_loop(self) -> None:
        await self.wait_until_ready()
        first = True
        while not self.is_closed():
            # Shielded: a shutdown waits for a sweep under way, so a move Tabula made is also posted.
            self._sweep = asyncio.ensure_future(self.sweep(startup=first))
            first = False
            try:
                await asyncio.shield(self._sweep)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("timeout sweep failed")
            await asyncio.sleep(self.settings.timeout_poll_seconds)

    async def run_timeouts(self, games: frozenset[int] | None = None) -> int:
        """Tabula's timed moves (only in ``games``, the ones this process claimed, when given)."""
        results = await self.service.due(games)
        for result in results:
            try:
                await self.post_result(result)
            except Exception:  # e.g. the thread was deleted: the move is saved; the other games still post
                log.exception("game %d: could not post Tabula's timed-out move", result.game_id)
        return len(results)

    async def run_clocks(self, games: frozenset[int] | None = None) -> int:
        """The turn clocks' due items (reminders, run-outs), each handed to the cogs that tell it (only in
        ``games``, the ones this process claimed, when given)."""
        news = await self.service.clock_due(games)
        for item in news:
            log.info("game %d: clock %s", item.game_id, item.kind)
            try:
                for tell in self.clock_tellers:
                    await tell(item)
            except Exception:  # the thread is gone, Discord refused: the game itself has moved on already
                log.exception("game %d: could not tell the clock's %s", item.game_id, item.kind)
        return len(news)

    async def sweep(self, *, startup: bool = False) -> int:
        """One round of background work.  What is owed to a thread (the outbox) is told by the process whose
        shards serve the game's server (``Outbox.owns``); turn clocks and timed moves are done on the due games
        this process claimed in the database (bot/store/claims.py), so that with several processes on one database
        each item is done by exactly one of them."""
        started = time.perf_counter()
        try:
            done = await self._sweep_once(startup)
        except Exception:
            metrics.SWEEPS.labels("error").inc()
            raise
        metrics.SWEEPS.labels("ok").inc()
        self.outbox_depth = await self.outbox.depth()  # what /metrics reports as the outbox's depth
        metrics.SWEEP_ITEMS.inc(done)
        metrics.SWEEP_SECONDS.observe(time.perf_counter() - started)
        metrics.release_memory()
        return done

    async def _sweep_once(self, startup: bool) -> int:
        if startup:  # what a crash left: old prompts still live, moves and starts never told
            await self.outbox.retire_stale()
        told = await self.outbox.drain(startup=startup)
        if self.lease is not None and self.lease.orphans and self.claims is not None:
            told += await self._tell_for_absent_shards()
        if self.claims is None:
            return told + await self.run_timeouts() + await self.run_clocks()
        async with self.claims.sweeping(self.service.clock()) as games:
            if not games:
                return told
            return told + await self.run_timeouts(games) + await self.run_clocks(games)

    async def _tell_for_absent_shards(self) -> int:
        """The owed moves of games on a shard no live process runs (it crashed, it is down): this process claims
        each such game in the database (so that exactly one process tells it) and tells what it owes.  The
        shard's own process, once one starts, tells its games again; the claim and the outbox's own checks
        (the thread is read for a post already made, and posts carry nonces) keep it to once."""
        assert self.lease is not None and self.claims is not None
        count = self.shard_plan.count or 1
        async with self.db.engine.begin() as conn:  # type: ignore[union-attr]  # (set in setup_hook, before any sweep)
            rows = (await conn.execute(text(
                "SELECT DISTINCT o.game_id, g.guild_id FROM outbox o JOIN game g ON g.id = o.game_id "
                "WHERE o.delivered_at IS NULL"))).all()
        orphans = self.lease.orphans
        games = {int(g): (int(guild) if guild is not None else None) for g, guild in rows
                 if shard_of(guild, count) in orphans}
        if not games:
            return 0
        claimed = await self.claims.claim("game", "id IN (" + ", ".join(str(g) for g in games) + ")", {},
                                          now=self.service.clock())
        told = 0
        try:
            for game in claimed:
                if shard_of(games[game], count) not in await self.lease.unclaimed():
                    continue  # its shard has a process again: that process tells it
                self._adopted = {games[game]}
                try:
                    told += await self.outbox.drain(game_id=game)
                finally:
                    self._adopted = set()
        finally:
            await self.claims.release("game", claimed)
        if told:
            log.info("told %d owed move(s) of games on shards no process runs", told)
        return told

    async def post_result(self, result: Result[Any]) -> None:
        """Hand a move Tabula made to the cogs that tell it (``moment_tellers``), and wait for them."""
        for tell in self.moment_tellers:
            await tell(result)

    async def connect(self, *, reconnect: bool = True) -> None:
        """discord.py's connection loop, run as a task of its own so that a stop can end it.  While Discord is
        away the loop sleeps before its next attempt (the wait doubles up to minutes) or waits on a gateway
        that accepted the socket and says nothing (up to 60 s), and closing the client wakes neither."""
        task = self._gateway = asyncio.ensure_future(super().connect(reconnect=reconnect))
        try:
            await asyncio.wait([task])
        except asyncio.CancelledError:
            task.cancel()
            raise
        if not task.cancelled():  # cancelled: a stop ended it (end_gateway); else its own end or its error
            task.result()

    def end_gateway(self) -> bool:
        """After a stop: end the connection loop if it is still sleeping or waiting on Discord (the client is
        closed, so nothing is lost).  Returns whether there was one to end."""
        task = self._gateway
        if task is None or task.done():
            return False
        log.info("stopping: the gateway was still trying to reach Discord; that attempt is ended")
        task.cancel()
        return True

    async def close(self) -> None:
        # close() is called twice on a signal (our handler, then `async with`): both wait for one shutdown.
        if self._shutdown is None:
            self._shutdown = asyncio.ensure_future(self._close_once())
        await asyncio.shield(self._shutdown)

    async def _close_once(self) -> None:
        try:
            await self._stop()
        finally:
            self.stopper.done()

    async def _stop(self) -> None:
        stop = self.stopper
        stop.begin()  # from here a new interaction is answered "Tabula is restarting"
        for task in (self._timeout_task, self.warmed):
            if task is not None:
                task.cancel()
        # The presses in flight answer and post what they committed; the sweep under way posts its timed moves.
        await stop.drain_interactions(self._sweep)
        if getattr(self, "service", None) is not None:
            await stop.bounded(self.service.drain(), "the moves in flight")  # let moves finish their transaction
        if getattr(self, "outbox", None) is not None:
            await stop.bounded(self.outbox.settle(stop.open_left()), "the outbox")
        await stop.settle(self.background, stop.open_left())
        await stop.refusals()
        await stop.bounded(super().close(), "closing the connection", closing=True)
        if self.lease is not None:  # after the gateway is closed: no interaction of these shards is left
            await stop.bounded(self.lease.release(), "giving the shards back", closing=True)
        metrics.READY.set(0)
        if getattr(self, "service", None) is not None:
            self.service.thinker.close()  # a move being thought is not saved: the next start thinks it again
        if self.health is not None:
            await self.health.cleanup()
            self.health = None
        if self.web is not None:
            await self.web.close()
            self.web = None
        if self.db is not None and self._own_db:
            await stop.bounded(self.db.close(), "closing the database", closing=True)
            self.db = None
        if self._file_lock is not None:
            self._file_lock.close()
            self._file_lock = None
