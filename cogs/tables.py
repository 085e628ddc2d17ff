"""Long games on Discord: `/game nudge | leave | replace | vacation | pause | resume | undo | watch | unwatch |
defaults`, `/notify`, and telling what the turn clocks did (reminders, Tabula's moves for absent players,
games waiting, seats offered to the lobby's channel with a **Take the seat** button).

The words and rules live in ``bot.longplay.service``; this cog parses, calls it, and posts."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.delivery.notices import Notice, Told
from bot.delivery.outbox import crash_point
from bot.front.client import TabulaBot
from bot.longplay.clock import POLICY_WORDS, STRIKES_TO_OFFER, describe, timestamp
from bot.longplay.service import ClockNews
from bot.service.lobby import Person
from bot.service.moment import GameMoment
from cogs.answers import guarded
from cogs.common import NONE, Interaction, bot_of, checked_id, mentions_of, ours, pick, reply, service, tell_result
from cogs.components import post_followups, send_telling, tell_run
from cogs.games import clock_choices, policy_choices
from rules import GameError
from rules.i18n import N_, N_p, _, _p, using
from rules.registry import game_text
from rules.search import LEVEL_OPTION, LEVELS

log = logging.getLogger("tabula.discord")


#: Tabula's levels as `/game defaults` offers them (every game's `tabula_level` option offers the same).
LEVEL_CHOICES = (N_p("choice", "easy"), N_p("choice", "normal"), N_p("choice", "strong"))
LEVEL_NAME = N_p("option", "tabula_level")


def level_choices() -> list[app_commands.Choice[str]]:
    assert LEVEL_CHOICES == LEVELS and LEVEL_NAME == LEVEL_OPTION
    return [app_commands.Choice(name=level, value=level) for level in LEVEL_CHOICES]


def _can_manage(interaction: Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms and perms.manage_guild)


async def _thread(bot: Any, thread_id: int | None) -> Any:
    if thread_id is None:
        return None
    channel = bot.get_channel(thread_id)
    if channel is None:
        try:
            channel = await bot.fetch_channel(thread_id)
        except discord.HTTPException:
            return None
    return channel


async def _say(interaction: Interaction, game_id: int, say: Callable[[], str], *,
               ping: list[int] | None = None) -> None:
    """A public line in the game's own thread (wherever the command was used), and a private confirmation when
    the command came from elsewhere.  ``say`` words the line in the current language: the game's for the
    thread, the asker's own when there is no thread and the line is only theirs."""
    info = await service(interaction).lobby(game_id)
    thread = await _thread(interaction.client, info.thread_id)
    users = [u for u in (ping or []) if u > 0]
    mentions = mentions_of(users) if users else NONE
    with using(info.language):
        text = say()
    if thread is not None and interaction.channel_id == info.thread_id and not interaction.response.is_done():
        await interaction.response.send_message(text, allowed_mentions=mentions)
        return
    if thread is not None:
        await thread.send(text, allowed_mentions=mentions)
    await reply(interaction, _("Done — said in {thread}.", thread=f"<#{info.thread_id}>") if thread is not None
                else say())


def title_of(moment: Any) -> str:
    """A game's title in the current language."""
    return game_text(moment.spec.key, moment.spec.title)


#: The options of the long-game commands, named here so that their translations are extracted.
OPTION_NAMES = (N_p("option", "player"), N_p("option", "with"), N_p("option", "days"), N_p("option", "on"))
game_option = app_commands.describe(game=N_("The game's number (#12) — needed outside the game's thread"))
GameNumber = app_commands.Range[int, 1, 2_147_483_647]


def _runs_out(moment: Any) -> str:
    return _(" The clock runs out {when}.", when=timestamp(moment.clock_deadline)) if moment.clock_deadline else ""


@app_commands.command(name=N_p("command", "nudge"), description=N_("Remind whoever must move (once per clock period)"))
@game_option
async def nudge(interaction: Interaction, game: GameNumber | None = None) -> None:
    game_id = await pick(interaction, game)
    moment, users = await service(interaction).nudge(game_id, interaction.user.id)
    who = ", ".join(f"<@{u}>" for u in users)
    await _say(interaction, game_id, lambda: _("👋 {who}, {name} nudges you: {game} is waiting for your move.",
                                               who=who, name=interaction.user.display_name,
                                               game=title_of(moment)) + _runs_out(moment), ping=users)


@app_commands.command(name=N_p("command", "leave"),
                      description=N_("Leave a running game: Tabula plays your seat from now on"))
@game_option
async def leave(interaction: Interaction, game: GameNumber | None = None) -> None:
    game_id = await pick(interaction, game)
    moment, name = await service(interaction).leave_game(game_id, interaction.user.id)
    await _say(interaction, game_id, lambda: _("🚪 {name} has left {game}; Tabula plays their seat from now on. "
                                               "The host can give it to someone with `/game replace`.",
                                               name=name, game=title_of(moment)))
    # Answered first; Tabula's moves (the whole rest of the game, when the last person left) follow in the
    # background, told as one run (committed moves are owed to the thread, so a crash loses none).
    bot = bot_of(interaction)
    task = asyncio.ensure_future(_play_on(bot, game_id, moment.thread_id))
    bot.background.add(task)
    task.add_done_callback(bot.background.discard)


async def _play_on(bot: Any, game_id: int, thread_id: int | None) -> None:
    try:
        moves = await bot.service.play_tabula(game_id)
        if not moves:
            return
        first = moves[0]
        first.followups = moves[1:]
        claimed = bot.outbox.claim(first)
        try:
            thread = await _thread(bot, thread_id)
            if thread is not None:
                run = [first, *first.followups]
                await send_telling(bot, thread, run[-1], await tell_run(run), since=first.version)
                last = run[-1]
                if last.outcome is not None:
                    bot.dispatch("tabula_finished", game_id, f"🏆 {last.outcome.summary}")
        finally:
            bot.outbox.release(claimed)
    except Exception:
        log.exception("game %d: Tabula could not play on after a leave", game_id)


@app_commands.command(name=N_p("command", "replace"),
                      description=N_("Give a seat to someone else (host or Manage Server)"))
@app_commands.describe(player=N_("Whose seat (a player of this game)"), seat=N_("Or the seat's number (1, 2, …)"),
                       newcomer=N_("Who takes the seat"), game=N_("The game's number — needed outside its thread"))
@app_commands.rename(newcomer="with")
async def replace(interaction: Interaction, newcomer: discord.Member,
                  player: discord.Member | None = None, seat: app_commands.Range[int, 1, 10] | None = None,
                  game: GameNumber | None = None) -> None:
    if newcomer.bot:
        raise GameError(_("Seats go to people; the host's **Add Tabula** (or `/game leave`) gives one to Tabula."))
    if player is None and seat is None:
        raise GameError(_("Say whose seat: `player:` (a member) or `seat:` (its number)."))
    game_id = await pick(interaction, game)
    old, number = await service(interaction).replace(
        game_id, interaction.user.id, Person(newcomer.id, newcomer.display_name),
        seat=None if seat is None else seat - 1, player=None if player is None else player.id,
        can_manage=_can_manage(interaction))
    await _welcome(interaction, game_id, newcomer.id, lambda: _("🔁 {name} takes seat {seat} ({old}).",
                                                                name=newcomer.display_name, seat=number + 1,
                                                                old=old))


async def _welcome(interaction: Interaction, game_id: int, user_id: int, line: Callable[[], str]) -> None:
    info = await service(interaction).lobby(game_id)
    thread = await _thread(interaction.client, info.thread_id)
    if isinstance(thread, discord.Thread):
        try:
            await thread.add_user(discord.Object(id=user_id))
        except discord.HTTPException:
            log.info("game %d: could not add user %d to the thread", game_id, user_id)
    await _say(interaction, game_id, lambda: _("{line} {who}, welcome: the buttons under the newest prompt (and "
                                               "**Your hand**, where the game has one) are yours now; `/help` lists "
                                               "the commands.", line=line(), who=f"<@{user_id}>"), ping=[user_id])


@app_commands.command(name=N_p("command", "vacation"),
                      description=N_("Pause your own turn clock for some days (0: back now)"))
@app_commands.describe(days=N_("How many days (0 ends your vacation)"),
                       game=N_("The game's number — outside its thread"))
async def vacation(interaction: Interaction, days: app_commands.Range[float, 0, 60],
                   game: GameNumber | None = None) -> None:
    game_id = await pick(interaction, game)
    until, left = await service(interaction).vacation(game_id, interaction.user.id, days)
    name = interaction.user.display_name
    if until is None:
        await _say(interaction, game_id, lambda: _("🧳 {name} is back from vacation; their clock runs as usual.",
                                                   name=name))
    else:
        await _say(interaction, game_id, lambda: _("🏖️ {name} is on vacation until {when}; their turn clock waits "
                                                   "for them ({left} days of vacation left in this game).",
                                                   name=name, when=timestamp(until), left=f"{left:g}"))


async def _set_clock(interaction: Interaction, game: int | None, *, pausing: bool) -> tuple[int, GameMoment[Any]]:
    """Stops or starts the named game's (or the thread's) turn clock for its host or a member who manages the
    server; the game's number and its moment after."""
    game_id = await pick(interaction, game)
    games = service(interaction)
    change = games.pause if pausing else games.resume
    return game_id, await change(game_id, interaction.user.id, can_manage=_can_manage(interaction))


@app_commands.command(name=N_p("command", "pause"),
                      description=N_("Stop the game's turn clock (host or Manage Server)"))
@game_option
async def pause(interaction: Interaction, game: GameNumber | None = None) -> None:
    game_id, moment = await _set_clock(interaction, game, pausing=True)
    await _say(interaction, game_id, lambda: _("⏸️ {name} paused {game}: the turn clock is stopped and nobody is "
                                               "reminded. Moves still count. `/game resume` starts the clock again.",
                                               name=interaction.user.display_name, game=title_of(moment)))


@app_commands.command(name=N_p("command", "resume"),
                      description=N_("Start the game's turn clock again (host or Manage Server)"))
@game_option
async def resume(interaction: Interaction, game: GameNumber | None = None) -> None:
    game_id, moment = await _set_clock(interaction, game, pausing=False)
    users = [u for u in (moment.user_of(s) for s in sorted(moment.to_act)) if u > 0]
    who = _p("list", ", ").join(f"<@{u}>" for u in users)

    def said() -> str:
        if not users:  # Tabula's own seats are to act: they move by themselves, and nobody is pinged
            return _("▶️ {game} is running again.", game=title_of(moment)) + _runs_out(moment)
        return _("▶️ {game} is running again — {who}, it is your move.", game=title_of(moment), who=who) + \
            _runs_out(moment)
    await _say(interaction, game_id, said, ping=users)


@app_commands.command(name=N_p("command", "undo"),
                      description=N_("Take back your last move, if nobody has moved since"))
async def undo(interaction: Interaction) -> None:
    game_id = await pick(interaction, None)
    done = await service(interaction).undo(game_id, interaction.user.id)
    moment = done.moment
    outbox = bot_of(interaction).outbox
    claimed = outbox.claim(moment)  # committed and owed to the thread: this press tells it (as a move's press)
    try:
        if not interaction.response.is_done():
            # The move is taken back (nothing can refuse it now): Discord is told at once, in public, since
            # drawing the board again can take a moment on a busy bot.
            await interaction.response.defer(thinking=True)
        crash_point("undone")
        await send_telling(bot_of(interaction), interaction, moment, await tell_run([moment]))
    finally:
        outbox.release(claimed)
    outbox.after_move(game_id)


@app_commands.command(name=N_p("command", "watch"), description=N_("Follow a game: join its thread as a spectator"))
@game_option
async def watch(interaction: Interaction, game: GameNumber | None = None) -> None:
    game_id = await pick(interaction, game)
    info = await service(interaction).lobby(game_id)
    if info.options.get("private"):
        raise GameError(_("This game is for its players only; its thread is private."))
    thread = await _thread(interaction.client, info.thread_id)
    if not isinstance(thread, discord.Thread):
        raise GameError(_("This game has no thread to watch yet; it opens when the host presses **Start**."))
    await thread.add_user(interaction.user)
    await reply(interaction, _("You are watching {thread}. Nobody pings you for moves; `/game unwatch` leaves the "
                               "thread.", thread=f"<#{thread.id}>"))


@app_commands.command(name=N_p("command", "unwatch"), description=N_("Stop following a game: leave its thread"))
@game_option
async def unwatch(interaction: Interaction, game: GameNumber | None = None) -> None:
    game_id = await pick(interaction, game)
    info = await service(interaction).lobby(game_id)
    if any(s.user_id == interaction.user.id for s in info.seats) and info.status == "active":
        raise GameError(_("You are playing in this game, so you stay in its thread. `/game leave` hands your seat "
                          "to Tabula."))
    thread = await _thread(interaction.client, info.thread_id)
    if isinstance(thread, discord.Thread):
        try:
            await thread.remove_user(interaction.user)
        except discord.NotFound:  # 10007: they had left the thread already, which is what they asked for
            pass
    await reply(interaction, _("You no longer follow that game."))


@app_commands.command(name=N_p("command", "defaults"),
                      description=N_("This server's turn clock and policy for new games (Manage Server)"))
@app_commands.describe(clock=N_("The turn clock new games start with"), policy=N_("What happens when a clock runs out"),
                       tabula_level=N_("How well Tabula plays the seats of new games: easy, normal or strong"))
@app_commands.choices(clock=clock_choices(), policy=policy_choices(), tabula_level=level_choices())
async def defaults(interaction: Interaction, clock: str | None = None, policy: str | None = None,
                   tabula_level: str | None = None) -> None:
    if interaction.guild_id is None:
        raise GameError(_("Server defaults are set inside a server."))
    if (clock or policy or tabula_level) and not _can_manage(interaction):
        raise GameError(_("Only a member with **Manage Server** can change this server's defaults."))
    got = await service(interaction).server_defaults(interaction.guild_id, clock, policy)
    level = await service(interaction).server_level(interaction.guild_id, tabula_level)
    await reply(interaction, _("New games in this server: {clock} ({meaning}). `/game new clock: policy:` can still "
                               "choose per game.", clock=describe({"clock": got[0], "policy": got[1]}),
                               meaning=_(POLICY_WORDS[got[1]])) + "\n"
                + _("Tabula plays their seats at level {level} (`/game new tabula_level:` chooses per game).",
                    level=f"**{_p('choice', level)}**"))


SUBCOMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (
    nudge, leave, replace, vacation, pause, resume, undo, watch, unwatch, defaults)


class TakeSeat(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tb:take:(?P<game>\d+):(?P<seat>\d+)"):
    """Under a seat offered in the lobby's channel: whoever presses it takes the seat."""

    def __init__(self, game_id: int, seat: int) -> None:
        super().__init__(discord.ui.Button(label=_("Take the seat"), style=discord.ButtonStyle.success,
                                           custom_id=checked_id(f"tb:take:{game_id}:{seat}")))
        self.game_id, self.seat = game_id, seat

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TakeSeat:
        return cls(int(match["game"]), int(match["seat"]))

    async def callback(self, pressed: discord.Interaction[Any]) -> None:
        interaction = ours(pressed)
        async def take() -> None:
            person = Person(interaction.user.id, interaction.user.display_name)
            old, number = await service(interaction).replace(self.game_id, person.id, person, seat=self.seat,
                                                             taking=True)
            info = await service(interaction).lobby(self.game_id)
            with using(info.language):  # the offer was posted for everyone, in the game's language
                took = _("🪑 {name} took seat {seat} ({old}).", name=person.name, seat=number + 1, old=old)
            await interaction.response.edit_message(content=took, view=None, allowed_mentions=NONE)
            await _welcome(interaction, self.game_id, person.id,
                           lambda: _("🔁 {name} takes seat {seat} ({old}).", name=person.name, seat=number + 1,
                                     old=old))
        await guarded(interaction, self.game_id, take())


class Tables(commands.Cog):
    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("game")
        assert isinstance(group, app_commands.Group), "cogs.games must load first"
        for command in SUBCOMMANDS:
            command.guild_only = True
            group.add_command(command, override=True)
        self.bot.add_dynamic_items(TakeSeat)
        tabula: TabulaBot = self.bot

        async def teller(notice: Notice, maybe_posted: bool) -> Told:
            return await tell_notice(tabula, notice, maybe_posted)
        tabula.outbox.notice_teller = teller
        tabula.clock_tellers.append(self.tell_clock)
        tabula.service.crash_point = crash_point  # (loopback tests only: see bot.delivery.outbox.crash_point)

    async def cog_unload(self) -> None:
        self.bot.clock_tellers.remove(self.tell_clock)
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group):
            for command in SUBCOMMANDS:
                group.remove_command(command.name)
        self.bot.remove_dynamic_items(TakeSeat)

    @app_commands.command(name=N_p("command", "notify"),
                          description=N_("Get a DM when a turn clock reminds you (on or off)"))
    @app_commands.describe(on=N_("True: remind me by DM as well as in the thread"))
    async def notify(self, interaction: Interaction, on: bool) -> None:
        await service(interaction).notify(interaction.user.id, on)
        await reply(interaction, _("You will get a DM with each reminder (if your DMs are open to this server).")
                    if on else _("No more DMs: reminders come only in the games' threads."))

    async def tell_clock(self, news: ClockNews) -> None:
        """What a turn clock did: its notice is told through the outbox (exactly once, whatever crashes), then,
        for a run-out, Tabula's moves."""
        bot: TabulaBot = self.bot
        crash_point("noticed")  # (tests: the notice is owed, nothing is posted yet)
        if news.notice_id is not None:
            bot.outbox.untried.add(news.notice_id)  # written by this process's sweep just now
            await bot.outbox.tell_notices(news.game_id, upto=news.notice_id)
            if news.kind == "played" and await bot.outbox.notices.is_owed(news.notice_id):
                return  # its line waits for earlier tellings: the moves wait with it (the outbox tells them)
        if news.kind != "played":
            return
        thread = await _thread(self.bot, news.thread_id)
        if thread is None:
            return
        for moment in news.moments:
            await send_telling(bot, thread, moment, await tell_result(moment))
            await post_followups(bot, thread, moment)
            last = moment.followups[-1] if moment.followups else moment
            if last.outcome is not None:
                with using(moment.language):
                    self.bot.dispatch("tabula_finished", news.game_id, f"🏆 {last.outcome.summary}")

    @commands.Cog.listener()
    async def on_tabula_finished(self, game_id: int, note: str) -> None:
        """A game has ended: a seat still offered for it is offered no longer."""
        bot: TabulaBot = self.bot
        if await bot.service.close_offers(game_id):
            await bot.outbox.tell_notices(game_id)


async def tell_notice(bot: TabulaBot, notice: Notice, maybe_posted: bool = True) -> Told:
    """Post one owed notice (bot/delivery/notices.py) in the game's language, or (``maybe_posted``: a process tried
    before) adopt the post a crash left unrecorded; for a seat offered again, edit the offer already up."""
    with using(str(notice.body.get("language") or "en")):
        return await _tell_notice(bot, notice, maybe_posted)


async def _tell_notice(bot: TabulaBot, notice: Notice, maybe_posted: bool) -> Told:
    b = notice.body
    title = game_text(str(b["ruleset"]), str(b["title"])) if b.get("ruleset") else str(b.get("title", ""))
    users = [int(u) for u in b.get("users") or [] if int(u) > 0]
    names = _p("list", " and ").join(str(n) for n in b.get("names") or []) or _("nobody")
    pings = " ".join(f"<@{u}>" for u in users)
    if notice.kind in ("offer", "unoffer"):
        return await _tell_offer(bot, notice, title, maybe_posted)
    thread = await _thread(bot, b.get("thread_id"))
    if thread is None:
        return Told(None)  # the thread is gone: there is nowhere to tell it
    mentions = mentions_of(users)
    if notice.kind == "remind":
        text = _("⏰ {pings} a reminder: {game} is waiting for your move; the clock runs out {when}.", pings=pings,
                 game=title, when=timestamp(b.get("deadline")))
    elif notice.kind == "ranout":
        text = _("⌛ {names}'s clock ran out, so Tabula played for them ({strikes} of {most} in a row before the "
                 "seat is offered to others).", names=names, strikes=b.get("strikes", 1), most=STRIKES_TO_OFFER)
        mentions = NONE
    else:
        text = _("⏸️ The clock ran out. {game} waits for {who}: a move starts it again, and the host can `/game "
                 "resume` or `/game replace` the seat.", game=title, who=pings or names)
    found = await _posted(bot, thread, notice, lambda m: m.content == text) if maybe_posted else None
    sent = found or await thread.send(text, allowed_mentions=mentions, nonce=_nonce(notice))
    crash_point("notice-posted")  # (tests: Discord has it, the outbox does not know yet)
    if notice.kind == "remind":
        await _dm(bot, notice, title, users)
    return Told(sent.id)


def _nonce(notice: Notice) -> str:
    """A notice's post, resent within Discord's window, returns the message already made."""
    return f"n{notice.game_id}.{notice.id}"[:25]


async def _posted(bot: TabulaBot, channel: Any, notice: Notice, match: Callable[[discord.Message], bool]
                  ) -> discord.Message | None:
    """The post of this notice Discord accepted before a crash cut the bookkeeping short: among the channel's
    messages after the newest one the game had told when the notice was written."""
    if bot.user is None:
        return None
    after = discord.Object(id=notice.anchor) if notice.anchor else None
    message: discord.Message
    try:
        async for message in channel.history(limit=50, after=after):
            if message.author.id == bot.user.id and match(message):
                return message
    except discord.Forbidden:  # no Read Message History here: the nonce is the only guard left
        log.info("game %d: cannot read the channel to check for a notice posted before a crash", notice.game_id)
    return None


async def _dm(bot: TabulaBot, notice: Notice, title: str, users: list[int]) -> None:
    client = cast(discord.Client, bot)
    for user_id in await bot.service.wants_dm(users):
        try:
            user = client.get_user(user_id) or await client.fetch_user(user_id)
            await user.send(_("⏰ It is your move in {game} (game #{number}): {thread}. The clock runs out {when}.",
                              game=title, number=notice.game_id, thread=f"<#{notice.body.get('thread_id')}>",
                              when=timestamp(notice.body.get("deadline"))),
                            allowed_mentions=NONE, nonce=_nonce(notice))
        except discord.HTTPException:
            log.info("game %d: no DM for %d (closed DMs)", notice.game_id, user_id)


def _takes(message: discord.Message, custom_id: str) -> bool:
    return any(getattr(child, "custom_id", None) == custom_id
               for row in message.components for child in getattr(row, "children", [row]))


async def _tell_offer(bot: TabulaBot, notice: Notice, title: str, maybe_posted: bool) -> Told:
    """A seat offered in the lobby's channel: posted once, then that one message kept up to date (the strikes
    again, and closed once the seat is not free any more)."""
    b, seat = notice.body, notice.seat
    if notice.kind == "unoffer":
        channel = await _thread(bot, b.get("channel"))
        reason = str(b.get("reason"))
        if reason == "back":
            text = _("🪑 {name} is back, so this seat in **{game} · #{number}** is no longer free.", name=b.get("name"),
                     game=title, number=notice.game_id)
        elif reason == "replaced":
            text = _("🪑 This seat in **{game} · #{number}** was given to {name}.", name=b.get("name"),
                     game=title, number=notice.game_id)
        else:
            text = _("🪑 **{game} · #{number}** has ended, so its seat is no longer offered.", game=title,
                     number=notice.game_id)
        if channel is not None:
            try:
                await channel.get_partial_message(int(b["message"])).edit(content=text, view=None,
                                                                             allowed_mentions=NONE)
            except (discord.NotFound, discord.Forbidden):
                pass  # the offer is gone, or no longer ours to edit: nothing is left on offer there
        return Told(None)
    channel = await _thread(bot, b.get("channel_id"))
    if channel is None or seat is None:
        return Told(None)
    text = _("🪑 A seat is free in **{game} · #{number}**: Tabula has played {names}'s turn {strikes} times in a row. "
             "Press **Take the seat** to play it from here on.", game=title, number=notice.game_id,
             names=_p("list", " and ").join(str(n) for n in b.get("names") or []), strikes=b.get("strikes"))
    live = await bot.outbox.notices.offer_of(notice.game_id, seat)
    if live is not None:  # offered already: that one message says how things stand now
        try:
            await channel.get_partial_message(live[1]).edit(content=text, allowed_mentions=NONE)
            return Told(live[1])
        except discord.NotFound:
            pass  # deleted: offered again below
    button = f"tb:take:{notice.game_id}:{seat}"
    found = await _posted(bot, channel, notice, lambda m: _takes(m, button)) if maybe_posted else None
    if found is not None:
        await found.edit(content=text, allowed_mentions=NONE)
        return Told(found.id, offer=(channel.id, found.id))
    view = discord.ui.View(timeout=None)
    view.add_item(TakeSeat(notice.game_id, seat))
    sent = await channel.send(text, view=view, allowed_mentions=NONE, nonce=_nonce(notice))
    crash_point("notice-posted")
    return Told(sent.id, offer=(channel.id, sent.id))


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Tables(bot))
