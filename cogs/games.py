"""`/game new | status | list | abandon` and the lobby: Join, Leave, Add Tabula, Start.

The `/game new` choices and options come from the games' specs (``bot.service.verbs.new_game_options``)."""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
from typing import Any, ClassVar, Optional

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.delivery.outbox import Owed, crash_point
from bot.delivery.tellings import status_now
from bot.front.client import TabulaBot
from bot.front.discordpy import with_parameters
from bot.lang.translator import locale_of, server_language, text
from bot.longplay.clock import (
    CLOCK_OPTION,
    CLOCKS,
    HOST_PAUSED,
    POLICIES,
    POLICY_CHOICE,
    POLICY_OPTION,
    POLICY_WORDS,
    WAITING,
    describe,
    timestamp,
)
from bot.present.base import Telling
from bot.service.lobby import TIMEOUT_OPTION, LobbyInfo, Person, timeout_minutes
from bot.service.moment import GameMoment
from bot.service.thinking import level_line
from bot.service.verbs import SlashOption, new_game_options, options_of
from cogs.answers import Answer, guarded
from cogs.common import NONE, Interaction, bot_of, channel_of, files, ours, pick, reply, service, tell_result
from cogs.components import post_followups, send_telling, told_already
from cogs.web import board_link, with_board
from rules import GameError
from rules.i18n import LANGUAGES, N_, NATIVE, SOURCE, N_p, _, _p, using
from rules.registry import game_text, games, ruleset

log = logging.getLogger("tabula.discord")
#: Platform options of `/game new` (the games' own come from their specs).
SEAT_OPTION = N_p("option", "seat")
PRIVATE_OPTION = N_p("option", "private")
LANGUAGE_OPTION = N_p("option", "language")
#: The other options of the platform's commands, named here so that their translations are extracted.
OPTION_NAMES = (N_p("option", "game"), N_p("option", "seed"), N_p("option", "turn_timeout"))
#: A game's status as the lobby message and `/game list` word it.
#: A flag option's value in the lobby.
FLAG_WORDS = (N_p("flag", "on"), N_p("flag", "off"))
STATUS_WORDS = (N_p("status", "lobby"), N_p("status", "active"), N_p("status", "finished"),
                N_p("status", "abandoned"))


def _option_line(key: str, name: str, value: object) -> str:
    """One of a game's options as the lobby shows it (``mode: full``, ``raids: on``), in the current language."""
    if isinstance(value, bool):
        shown: object = _p("flag", "on") if value else _p("flag", "off")
    else:
        shown = game_text(key, value, "choice") if isinstance(value, str) else value
    # TRANSLATORS: one of a game's options in the lobby, "mode: full"
    return _("{option}: {value}", option=game_text(key, name, "option").replace("_", " "), value=shown)


def lobby_embed(info: LobbyInfo, note: str = "") -> discord.Embed:
    """The lobby message, in the current language (the game's, where it is posted)."""
    spec = ruleset(info.ruleset).spec
    key = info.ruleset
    title = f"{game_text(key, spec.title)} · #{info.game_id} — {_p('status', info.status)}"
    summary = game_text(key, spec.summary)
    description = f"{note}\n\n{summary}" if note else summary
    embed = discord.Embed(title=title[:256], description=description[:4000], colour=0x8B5A2B)
    host = _(" (host)")
    seated = "\n".join(f"{s.seat + 1}. " + (f"🤖 {s.name}" if s.auto else f"<@{s.user_id}>")
                       + (host if s.user_id == info.host_id else "") for s in info.seats)
    embed.add_field(name=_("Players ({seated}/{most})", seated=len(info.seats), most=spec.max_players),
                    value=seated or "—", inline=True)
    nice = [_option_line(key, k, v)[:100] for k, v in info.options.items() if k in options_of(info.ruleset)]
    minutes = timeout_minutes(info.options, 0)
    if minutes:
        nice.append(_("turn timeout: {minutes} min", minutes=f"{minutes:g}"))
    nice.append(describe(info.options))
    if info.options.get(PRIVATE_OPTION):
        nice.append(_("players only (private thread)"))
    if info.language != SOURCE:
        nice.append(f"🗣️ {NATIVE.get(info.language, info.language)}")
    if nice:
        embed.add_field(name=_("Options"), value="\n".join(nice), inline=True)
    if info.status == "lobby":
        embed.set_footer(text=_("Press Join to take a seat; the host can seat Tabula too. The host presses Start "
                                "when everyone is in."))
    elif info.thread_id:
        embed.set_footer(text=_("The game is played in its thread."))
    return embed


def clock_line(moment: Any) -> str:
    """Where the turn clock stands, for `/game status`."""
    if moment.status != "active":
        return ""
    if moment.paused == HOST_PAUSED:
        return _("⏸️ Paused by the host: the clock is stopped (`/game resume`).")
    if moment.paused == WAITING:
        return _("⏸️ The clock ran out; the game waits for the player to move (or the host).")
    if moment.clock_deadline:
        return _("⏳ {clock}; this turn's clock runs out {when}.", clock=describe(moment.options),
                 when=timestamp(moment.clock_deadline))
    return ""


def language_line(moment: Any) -> str:
    """The game's language, for `/game status`."""
    return _("🗣️ This game is played in {language}.", language=NATIVE.get(moment.language, moment.language))


def lobby_view(info: LobbyInfo) -> discord.ui.View | None:
    if info.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)  # labelled in the current language (the game's)
    for op in ("join", "leave", "bot", "start"):
        view.add_item(LobbyButton(info.game_id, op))
    return view


async def refresh_lobby(client: TabulaBot, game_id: int, note: str = "") -> None:
    """Show a started, finished or abandoned game on its lobby message (and take the buttons away)."""
    svc = client.service
    info = await svc.lobby(game_id)
    if info.channel_id is None or info.lobby_message_id is None:
        return
    channel = client.get_channel(info.channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        return
    try:
        with using(info.language):
            embed, view = lobby_embed(info, note), lobby_view(info)
        await channel.get_partial_message(info.lobby_message_id).edit(embed=embed, view=view, allowed_mentions=NONE)
    except (discord.HTTPException, aiohttp.ClientError, RuntimeError) as err:
        # Discord refused, or the bot is shutting down under this edit ("Session is closed"): the game is
        # saved either way, and only the lobby message's look is behind.
        log.info("game %d: could not update the lobby message (%s)", game_id, type(err).__name__)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"tb:lobby:(?P<game>\d+):(?P<op>join|leave|bot|start)"):
    LOOKS: ClassVar[dict[str, tuple[str, discord.ButtonStyle]]] = {
        "join": (N_("Join"), discord.ButtonStyle.success), "leave": (N_("Leave"), discord.ButtonStyle.secondary),
        "bot": (N_("Add Tabula"), discord.ButtonStyle.secondary), "start": (N_("Start"), discord.ButtonStyle.primary)}

    def __init__(self, game_id: int, op: str) -> None:
        label, style = self.LOOKS[op]
        super().__init__(discord.ui.Button(label=_(label), style=style, custom_id=f"tb:lobby:{game_id}:{op}"))
        self.game_id, self.op = game_id, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LobbyButton:
        return cls(int(match["game"]), match["op"])

    async def callback(self, pressed: discord.Interaction[Any]) -> None:
        interaction = ours(pressed)
        work = begin_game(interaction, self.game_id) if self.op == "start" else self._seat(interaction)
        await guarded(interaction, self.game_id, work)

    async def _seat(self, interaction: Interaction) -> None:
        person = Person(interaction.user.id, interaction.user.display_name)
        svc = service(interaction)
        if self.op == "bot":
            info = await svc.add_tabula(self.game_id, person.id)
        else:
            info = await (svc.join if self.op == "join" else svc.leave)(self.game_id, person)
        with using(info.language):
            embed, view = lobby_embed(info), lobby_view(info)
        await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=NONE)


async def begin_game(interaction: Interaction, game_id: int) -> None:
    """Start: deal, open the game's thread, add the players, post the board, ping the first.

    From the commit on, the start's outbox row says it is under way: if the process dies at any step, the
    next one finishes it (``finish_start``, each step safe to repeat)."""
    svc = service(interaction)
    answer = Answer(interaction, public=True)  # Tabula's first moves may take a while: acknowledged in time
    try:
        result = await svc.start(game_id, interaction.user.id)
    finally:
        await answer.settled()
    bot = bot_of(interaction)
    claimed = bot.outbox.claim(result)
    try:
        crash_point("started")
        info = await svc.lobby(game_id)
        with using(info.language):  # the lobby and the thread speak the game's language
            embed = lobby_embed(info)
        if interaction.response.is_done():
            await interaction.edit_original_response(embed=embed, view=None, allowed_mentions=NONE)
        else:
            await interaction.response.edit_message(embed=embed, view=None, allowed_mentions=NONE)
        target = await finish_start(bot, result, interaction)
        await post_followups(bot, target, result)
    finally:
        bot.outbox.release(claimed)


async def _open_thread(bot: TabulaBot, info: LobbyInfo, title: str, lobby: discord.Message | None) -> discord.Thread:
    """The game's thread: from the lobby message (a second try finds the one Discord already made, which shares
    the message's id), or a private one for a players-only game."""
    assert info.channel_id is not None  # every lobby is opened in a channel (/game new refuses a DM)
    channel: Any = await channel_of(bot, info.channel_id)
    if info.options.get(PRIVATE_OPTION) and isinstance(channel, discord.TextChannel):
        me = getattr(bot.user, "id", None)
        for made in channel.threads:  # a start cut short after Discord made the thread, before its id was saved
            if made.name == title and made.owner_id == me and made.type is discord.ChannelType.private_thread:
                return made
        # Players only: a private thread that only its members (and moderators) can see.
        return await channel.create_thread(name=title, auto_archive_duration=10080, invitable=False,
                                           type=discord.ChannelType.private_thread)
    if lobby is None and info.lobby_message_id is None:
        thread: discord.Thread = await channel.create_thread(name=title, auto_archive_duration=10080,
                                                             type=discord.ChannelType.public_thread)
        return thread
    try:
        starter = lobby if lobby is not None else channel.get_partial_message(info.lobby_message_id)
        return await starter.create_thread(name=title, auto_archive_duration=10080)
    except discord.HTTPException as err:
        if err.code != 160004:  # "A thread has already been created for this message": a start cut short
            raise
        found: Any = await bot.fetch_channel(starter.id)
        opened: discord.Thread = found
        return opened


async def finish_start(bot: TabulaBot, result: GameMoment[Any], interaction: Interaction | None = None
                       ) -> discord.abc.Messageable:
    """The steps after the start's commit, each safe to repeat: the thread (its id saved at once), its
    members, the first post (adopted if a crash cut its bookkeeping short).  Returns where the game is told."""
    info = await bot.service.lobby(result.game_id)
    with using(info.language):  # the thread speaks the game's language
        return await _finish_start(bot, result, info, interaction)


async def _finish_start(bot: TabulaBot, result: GameMoment[Any], info: LobbyInfo,
                        interaction: Interaction | None) -> discord.abc.Messageable:
    svc = bot.service
    game_id = result.game_id
    title = f"{game_text(result.spec.key, result.spec.title)} · #{game_id}"
    target: Any
    if info.thread_id is None:
        try:
            target = await _open_thread(bot, info, title, interaction.message if interaction else None)
            crash_point("thread")
            await svc.set_thread(game_id, target.id)  # at once: every command in the thread finds its game
        except discord.HTTPException as err:
            # Without "Create Public Threads" (or if Discord refuses the thread) the game is played in the channel.
            log.warning("game %d: no thread (%s); playing in the channel", game_id, err)
            if interaction is not None:
                with using(locale_of(interaction)):
                    await reply(interaction, _("I could not open a thread here (the bot needs **Create Public "
                                               "Threads** and **Send Messages in Threads**), so this game is "
                                               "played in this channel."))
            assert info.channel_id is not None
            await svc.set_thread(game_id, info.channel_id)
            target = bot.get_channel(info.channel_id) or await bot.fetch_channel(info.channel_id)
    else:
        target = bot.get_channel(info.thread_id) or await bot.fetch_channel(info.thread_id)
    if isinstance(target, discord.Thread):
        people = [s.user_id for s in result.seats if s.user_id > 0]
        if target.type is discord.ChannelType.private_thread and info.host_id > 0 and info.host_id not in people:
            people.insert(0, info.host_id)
        for user_id in people:
            try:
                await target.add_user(discord.Object(id=user_id))
            except discord.HTTPException:
                log.warning("game %d: could not add user %d to thread", game_id, user_id)
            crash_point("members")
    result.thread_id = target.id
    telling = await tell_result(result)
    intro = f"\n{game_text(result.spec.key, result.spec.intro)}" if result.spec.intro else ""
    telling.text = _("**{title}** begins!", title=title) + f"{intro}\n{telling.text}"
    found = await told_already(bot, target, result, telling) if interaction is None else None
    if found is not None:
        live = (found.channel.id, found.id) if found.components else None
        await bot.outbox.delivered(game_id, result.version, found.id, prompt=live)
    else:
        await send_telling(bot, target, result, telling)
    told: discord.abc.Messageable = target
    return told


async def resume_start(bot: TabulaBot, moment: GameMoment[Any], owed: Owed) -> bool:
    """At start-up (or the sweep): a start that died after its commit is finished, and its lobby shows it."""
    log.info("game %d: finishing a start that was cut short", moment.game_id)
    await refresh_lobby(bot, moment.game_id)  # first, as a Start press does
    await finish_start(bot, moment)
    return True


def _annotation(option: SlashOption) -> Any:
    if option.kind == "flag":
        return Optional[bool]  # noqa: UP045 — discord.py reads typing.Optional from the signature
    if option.kind == "number":
        lo = option.minimum if option.minimum is not None else 0.0
        hi = option.maximum if option.maximum is not None else 1e6
        return Optional[app_commands.Range[float, lo, hi]]  # noqa: UP045
    return Optional[str]  # noqa: UP045


def new_game_command(games_cog: Games) -> app_commands.Command[Any, ..., None]:
    """`/game new` with a choice of every game and the games' own options, as their specs declare them."""
    options = new_game_options()

    async def new(interaction: Interaction, **given: Any) -> None:
        await games_cog.open_lobby(interaction, given)

    params = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=Interaction),
        inspect.Parameter("game", inspect.Parameter.KEYWORD_ONLY, annotation=str),
    ]
    for o in options.values():
        params.append(inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=_annotation(o)))
    params += [
        inspect.Parameter("seed", inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=Optional[app_commands.Range[int, 0, 2_147_483_647]]),  # noqa: UP045
        inspect.Parameter(TIMEOUT_OPTION, inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=Optional[app_commands.Range[float, 0.5, 10080.0]]),  # noqa: UP045
        inspect.Parameter(CLOCK_OPTION, inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=Optional[str]),  # noqa: UP045
        inspect.Parameter(POLICY_OPTION, inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=Optional[str]),  # noqa: UP045
        inspect.Parameter(SEAT_OPTION, inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=Optional[bool]),  # noqa: UP045
        inspect.Parameter(PRIVATE_OPTION, inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=Optional[bool]),  # noqa: UP045
        inspect.Parameter(LANGUAGE_OPTION, inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=Optional[str]),  # noqa: UP045
    ]
    descriptions: dict[str, str | app_commands.locale_str] = {
        o.name: text(o.description, msgid=o.msgid or None, fill=o.fill) for o in options.values()}
    descriptions.update(
        game=N_("Which game to play"),
        seed=N_("Fixes the dice and shuffles (same seed, same game: whoever knows it can foresee the cards)"),
        **{TIMEOUT_OPTION: N_("Minutes a player (a Narrator, an opponents' player) has before Tabula acts "
                              "(default 10)"),
           CLOCK_OPTION: N_("How long each turn may take before the absent-player policy applies (server "
                            "default)"),
           POLICY_OPTION: N_("When a turn clock runs out: Tabula plays the seat, skip it, or pause the game"),
           SEAT_OPTION: N_("Take a seat yourself (default yes); no: organise the table for others"),
           PRIVATE_OPTION: N_("Players only: the game's thread is private (spectators cannot join)"),
           LANGUAGE_OPTION: N_("The game's language in its thread and pictures (default: the server's language)")},
    )
    choices = {"game": [app_commands.Choice(name=r.spec.title, value=k) for k, r in games().items()]}
    for o in options.values():
        if o.kind == "choice" and o.choices:
            choices[o.name] = [app_commands.Choice(name=c, value=c) for c in o.choices[:25]]
    choices[CLOCK_OPTION] = clock_choices()
    choices[POLICY_OPTION] = policy_choices()
    choices[LANGUAGE_OPTION] = [app_commands.Choice(name=text(NATIVE[k], native=True), value=k) for k in LANGUAGES]
    with_parameters(new, params, descriptions=descriptions, choices=choices)
    return app_commands.Command(name=N_p("command", "new"),
                                description=N_("Open a lobby for a new game in this channel"), callback=new)


def clock_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=k, value=k) for k in CLOCKS]


def policy_choices() -> list[app_commands.Choice[str]]:
    """``tabula — Tabula plays the seat…``: each policy and what it means (translated as one text)."""
    return [app_commands.Choice(name=text(f"{k} — {POLICY_WORDS[k]}"[:100], msgid=POLICY_CHOICE,
                                          fill={"policy": (k, "choice"), "meaning": (POLICY_WORDS[k], None)}),
                                value=k)
            for k in POLICIES]


@app_commands.guild_only()
class Games(commands.GroupCog, group_name=N_p("command", "game"),
            group_description=N_("Start, find and manage games")):
    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot
        super().__init__()
        group = self.app_command
        assert group is not None
        group.add_command(new_game_command(self))

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LobbyButton)

    @commands.Cog.listener()
    async def on_tabula_finished(self, game_id: int, note: str) -> None:
        await refresh_lobby(self.bot, game_id, note)

    async def open_lobby(self, interaction: Interaction, given: dict[str, Any]) -> None:
        if interaction.guild_id is None:
            raise GameError(_("Games are played in servers: invite Tabula to one and use `/game new` there."))
        if isinstance(interaction.channel, discord.Thread):
            raise GameError(_("Start games from a text channel: each game then gets a thread of its own."))
        key = str(given.pop("game"))
        rules = ruleset(key)
        seed = given.pop("seed", None)
        seated = given.pop(SEAT_OPTION, None) is not False
        language = given.pop(LANGUAGE_OPTION, None) or server_language(interaction)
        options = {k: v for k, v in given.items() if v is not None}
        own = set(options_of(key)) | {TIMEOUT_OPTION, CLOCK_OPTION, POLICY_OPTION, PRIVATE_OPTION}
        stray = sorted(set(options) - own)
        if stray:
            allowed = ", ".join(f"`{o}`" for o in sorted(own))
            raise GameError(_("{game} has no option {given}; its options are {allowed} (and `seed`).",
                              game=game_text(key, rules.spec.title), given=", ".join(f"`{o}`" for o in stray),
                              allowed=allowed))
        person = Person(interaction.user.id, interaction.user.display_name)
        answer = Answer(interaction, public=True)  # a busy database never leaves `/game new` unanswered
        try:
            info = await service(interaction).create(key, person, guild_id=interaction.guild_id,
                                                     channel_id=interaction.channel_id, options=options, seed=seed,
                                                     seated=seated, language=language)
        finally:
            await answer.settled()
        with using(info.language):  # the lobby is posted for everyone: in the game's language
            embed, view = lobby_embed(info), lobby_view(info)
        assert view is not None
        message: discord.Message
        if interaction.response.is_done():
            message = await interaction.followup.send(embed=embed, view=view, allowed_mentions=NONE, wait=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NONE)
            message = await interaction.original_response()
        await service(interaction).set_thread(info.game_id, lobby_message_id=message.id)

    async def _pick(self, interaction: Interaction, game: int | None) -> int:
        return await pick(interaction, game)

    @app_commands.command(name=N_p("command", "status"), description=N_("The board, whose turn it is and the scores"))
    @app_commands.describe(game=N_("The game's number (#12) — needed outside the game's thread"))
    async def status(self, interaction: Interaction,
                     game: app_commands.Range[int, 1, 2_147_483_647] | None = None) -> None:
        answer = Answer(interaction, private=True)  # drawing the board may be slow: acknowledged in time
        try:
            game_id = await self._pick(interaction, game)
            result = await service(interaction).get(game_id, interaction.user.id)
            telling: Telling = await asyncio.to_thread(status_now, result)
        finally:
            await answer.settled()
        shown = "\n".join(line for line in (telling.text, clock_line(result), level_line(result)) if line)
        await reply(interaction, f"{shown}\n{language_line(result)}", files=files(telling.pictures),
                    view=with_board(None, await board_link(interaction.client, game_id)))

    @app_commands.command(name=N_p("command", "list"), description=N_("Games in this server, with their threads"))
    async def list_(self, interaction: Interaction) -> None:
        listed = await service(interaction).list_games(interaction.guild_id)
        if not listed:
            await reply(interaction, _("No games are running in this server. Start one with `/game new`."))
            return
        rows = []
        for g in listed:
            where = f"<#{g.thread_id}>" if g.thread_id else (
                _("lobby in {channel}", channel=f"<#{g.channel_id}>") if g.channel_id else "")
            rows.append(f"**#{g.game_id}** {game_text(g.ruleset, ruleset(g.ruleset).spec.title)} — "
                        f"{_p('status', g.status)} — {', '.join(g.players)} {where}")
        await reply(interaction, "\n".join(rows))

    @app_commands.command(name=N_p("command", "abandon"),
                          description=N_("End a game or lobby without a winner (host or Manage Server)"))
    @app_commands.describe(game=N_("The game's number (#12) — needed outside the game's thread, e.g. for a lobby"))
    async def abandon(self, interaction: Interaction,
                      game: app_commands.Range[int, 1, 2_147_483_647] | None = None) -> None:
        game_id = await self._pick(interaction, game)
        perms = interaction.permissions
        info = await service(interaction).abandon(game_id, interaction.user.id,
                                                  can_manage=bool(perms and perms.manage_guild))
        with using(info.language):  # said in the channel, for everyone: in the game's language
            said = _("**{game} · #{number}** was abandoned by {who}. Nothing more can be played in it.",
                     game=game_text(info.ruleset, ruleset(info.ruleset).spec.title), number=game_id,
                     who=interaction.user.mention)
            note = _("Abandoned by {name}.", name=interaction.user.display_name)
        await interaction.response.send_message(said, allowed_mentions=NONE)
        await refresh_lobby(interaction.client, game_id, note)


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Games(bot))
    tabula: TabulaBot = bot

    async def starter(moment: GameMoment[Any], owed: Owed) -> bool:
        return await resume_start(tabula, moment, owed)
    tabula.outbox.starter = starter
