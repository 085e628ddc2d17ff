"""The move path on Discord: acting for a person, posting the telling, and the controls under it.

Buttons and selects survive restarts.  Each custom id carries the game id and the moment it was drawn
at (so one from an earlier turn is refused politely instead of acting twice) and the command it plays, made
by the game's codec.  Controls drawn by the release before games were plug-ins (``tb:sel``, ``tb:act``,
``tb:narr``, ``tb:mine``) keep working.

This is a library, not a cog: every cog that plays or posts a move calls it.  The cog that registers these
controls and tells what the outbox owes is ``cogs.controls``; answering an interaction in time and politely is
``cogs.answers``."""

from __future__ import annotations

import asyncio
import datetime
import logging
import re
from typing import Any, ClassVar

import discord

from bot.delivery.outbox import KEEP, Owed, crash_point, nonce
from bot.delivery.tellings import private_now, run_telling
from bot.front.client import TabulaBot
from bot.lang.translator import locale_of
from bot.present.base import Button, Menu, Prompt, Telling
from bot.service.moment import GameMoment
from bot.service.verbs import not_here, nothing_to_show, verb_spec
from cogs.answers import Answer, data_of, guarded
from cogs.common import (
    MAX_CONTENT,
    NONE,
    PRIVATE_PLACEHOLDER,
    Interaction,
    bot_of,
    channel_of,
    checked_id,
    chunks,
    files,
    ours,
    prompt_line,
    reply,
    service,
)
from cogs.web import board_link, with_board
from rules import GameError
from rules.i18n import _, using
from rules.registry import ruleset
from rules.spec import Command

log = logging.getLogger("tabula.discord")
STYLES: dict[str, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
    "danger": discord.ButtonStyle.danger, "success": discord.ButtonStyle.success,
}


async def perform(interaction: Interaction, game_id: int, command: Command, *,
                  expect_version: int | None = None) -> None:
    """Act for the person who pressed or typed, then tell the move (and Tabula's moves after it, as one
    telling) publicly, through the interaction's own answer wherever it can.

    Acknowledged within Discord's 3 seconds whatever saving and drawing take (``Answer``).  A secret action
    typed as a slash command is answered privately and told in the thread without the command's own words
    (Discord shows a slash command's options to everyone above a public answer)."""
    answer = Answer(interaction)
    try:
        moment = await service(interaction).act(game_id, interaction.user.id, command=command,
                                                expect_version=expect_version)
    except BaseException:
        await answer.settled()  # a refusal answers after any deferral already on its way
        raise
    answer.phase = "drawing"
    answer.secret = interaction.type == discord.InteractionType.application_command and moment.meta.secret
    outbox = bot_of(interaction).outbox
    claimed = outbox.claim(moment)  # committed: this press tells it (the outbox's sweep leaves it alone)
    try:
        crash_point("commit")
        await _tell_move(interaction, game_id, moment, answer)
    finally:
        answer.cancel()
        outbox.release(claimed)
    outbox.after_move(game_id)


def run_of(moment: GameMoment[Any]) -> list[GameMoment[Any]]:
    """A move and the moves Tabula made right after it: told together."""
    return [moment, *moment.followups]


async def tell_run(moments: list[GameMoment[Any]]) -> Telling:
    """The public telling of a run of moves, in the game's language (drawn in a worker thread)."""
    with using(moments[-1].language):
        return await asyncio.to_thread(run_telling, moments)


async def _tell_move(interaction: Interaction, game_id: int, moment: GameMoment[Any],
                     answer: Answer) -> None:
    if _from_private_panel(interaction) and moment.meta.free and moment.meta.secret:
        await _redraw_panel(interaction, game_id, moment, answer)
        await bot_of(interaction).outbox.delivered(game_id, moment.version, None)  # nothing for the thread
        return
    run = run_of(moment)
    telling = await tell_run(run)
    await answer.settled(uploading=bool(telling.pictures))
    bot = bot_of(interaction)
    channel: Any = interaction.channel
    home = moment.thread_id
    if home is not None and interaction.channel_id != home:
        # A control pressed (or forged) outside the game's thread: the story still belongs to the thread.
        channel = bot.get_channel(home) or await bot.fetch_channel(home)
        await reply(interaction, _("Done — told in {thread}.", thread=f"<#{home}>"))
        await send_telling(bot, channel, run[-1], telling, since=moment.version)
        _finished(interaction, game_id, run[-1])
        return
    if interaction.extras.get(PRIVATE_PLACEHOLDER) and isinstance(channel, discord.abc.Messageable):
        # A slow or secret typed move: its only answer so far is the mover's private "thinking…"; the story
        # goes to the thread.
        await send_telling(bot, channel, run[-1], telling, since=moment.version)
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            log.info("game %d: could not remove a thinking placeholder", game_id)
    elif answer.secret and isinstance(channel, discord.abc.Messageable):
        await reply(interaction, _("Done — your choice stays secret; the thread tells what everyone may know."))
        await send_telling(bot, channel, run[-1], telling, since=moment.version)
    else:
        await send_telling(bot, interaction, run[-1], telling, since=moment.version)
    _finished(interaction, game_id, run[-1])


def _from_private_panel(interaction: Interaction) -> bool:
    """A control pressed on a message only its reader sees (a private view's panel)."""
    message = interaction.message
    return (interaction.type == discord.InteractionType.component and message is not None
            and message.flags.ephemeral)


async def _redraw_panel(interaction: Interaction, game_id: int, moment: GameMoment[Any],
                        answer: Answer) -> None:
    """A secret choice that stales nobody (a programmed order changed) made from a private panel: the panel
    is redrawn with the choice in it, and nothing is posted in the thread — there is nothing to tell."""
    look = await service(interaction).get(game_id, interaction.user.id)
    telling = None
    if look.actor is not None:
        for name in dict.fromkeys(v.view for v in look.spec.verbs if v.view):
            telling = await asyncio.to_thread(private_now, name, look, look.actor)
            if telling is not None:
                break
    await answer.settled(uploading=telling is not None and bool(telling.pictures))
    if telling is None:
        await reply(interaction, _("Done — your choice is kept secret."))
        return
    view = controls(game_id, look.stamp, telling.prompt)
    kwargs: dict[str, Any] = {"content": telling.text[:MAX_CONTENT], "attachments": files(telling.pictures),
                              "allowed_mentions": NONE}
    if interaction.response.is_done():
        await interaction.edit_original_response(view=view, **kwargs)
    else:
        await interaction.response.edit_message(view=view, **kwargs)


def _finished(interaction: Interaction, game_id: int, moment: GameMoment[Any]) -> None:
    last = moment.followups[-1] if moment.followups else moment
    with using(last.language):
        outcome = last.outcome
    if outcome is not None:
        interaction.client.dispatch("tabula_finished", game_id, f"🏆 {outcome.summary}")


def not_seated(moment: GameMoment[Any], name: str) -> str:
    """The refusal of a private view to someone without a seat, naming the command that opens it, if any."""
    verb = next((v.name for v in moment.spec.verbs if v.view == name), None)
    if verb is None:
        return _("You are not playing in this game, so there is nothing of yours to show here.")
    return _("You are not playing in this game, so there is no `/{name}` of yours here.", name=verb)


async def show_view(interaction: Interaction, game_id: int, name: str) -> None:
    """One of the game's private views (a sheet, a hand, the Narrator's card), shown only to whoever asked."""
    answer = Answer(interaction, private=True)  # drawing a hand may be slow: acknowledged in time regardless
    try:
        moment = await service(interaction).get(game_id, interaction.user.id)
        if moment.actor is None:
            raise GameError(not_seated(moment, name))
        telling = await asyncio.to_thread(private_now, name, moment, moment.actor)
        if telling is None:
            raise GameError(nothing_to_show(moment, name))
    finally:
        await answer.settled()
    view = controls(game_id, moment.stamp, telling.prompt)
    await reply(interaction, telling.text, files=files(telling.pictures), view=view)


async def run_verb(interaction: Interaction, verb: str, args: dict[str, str]) -> None:
    """A slash command: what the verb means is the thread's game's to say."""
    game_id = await service(interaction).game_in_thread(interaction.channel_id) if interaction.channel_id else None
    if game_id is None:
        raise GameError(_("This works inside a game's thread. Use `/game list` to find your games, or `/game "
                          "new` to start one."))
    rules = await service(interaction).rules_of(game_id)
    spec = verb_spec(rules, verb)
    given = {k: v for k, v in args.items() if v}
    if spec is None:
        raise GameError(not_here(rules, verb))
    if (spec.kind == "view" and spec.view) or (spec.view and not given):
        await show_view(interaction, game_id, spec.view)
    else:
        await perform(interaction, game_id, Command(verb=verb, args=tuple(given.items())))


class DoButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
               template=r"tb:do:(?P<game>\d+):(?P<ver>-?\d+):(?P<cmd>.+)"):
    """A button that plays one command (Attack, Retreat, Keep the Leader, Buy, Play a card…)."""

    def __init__(self, game_id: int, version: int, button: Button, *, pressed: str | None = None) -> None:
        assert button.command is not None
        # (pressed: the id as it came, read back; encoding its command again need not give the same text)
        custom_id = pressed or checked_id(f"tb:do:{game_id}:{version}:{button.command.encode()}")
        super().__init__(discord.ui.Button(label=button.label[:80], emoji=button.emoji, custom_id=custom_id,
                                           style=STYLES.get(button.style, discord.ButtonStyle.secondary)))
        self.game_id, self.version, self.command = game_id, version, button.command

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DoButton:
        label = getattr(item, "label", None) or ""
        return cls(int(match["game"]), int(match["ver"]), Button(label, Command.decode(match["cmd"])),
                   pressed=match.string)

    async def callback(self, pressed: discord.Interaction[Any]) -> None:
        interaction = ours(pressed)
        await guarded(interaction, self.game_id, perform(interaction, self.game_id, self.command,
                                                         expect_version=self.version))


class PickSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"tb:pick:(?P<game>\d+):(?P<ver>-?\d+):(?P<n>\d)"):
    """A select menu whose every entry is a whole command."""

    def __init__(self, game_id: int, version: int, n: int, menu: Menu | None = None) -> None:
        options = []
        for label, command in (menu.choices if menu else [])[:25]:
            options.append(discord.SelectOption(label=label[:100], value=checked_id(command.encode())))
        super().__init__(discord.ui.Select(
            custom_id=checked_id(f"tb:pick:{game_id}:{version}:{n}"),
            placeholder=(menu.placeholder if menu else _("Choose…"))[:150],
            options=options or [discord.SelectOption(label="—", value="-")],
        ))
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PickSelect:
        return cls(int(match["game"]), int(match["ver"]), int(match["n"]))

    async def callback(self, pressed: discord.Interaction[Any]) -> None:
        interaction = ours(pressed)
        values = data_of(interaction).get("values") or [""]
        command = Command.decode(str(values[0]))
        await guarded(interaction, self.game_id, perform(interaction, self.game_id, command,
                                                         expect_version=self.version))


class ViewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"tb:view:(?P<game>\d+):(?P<name>[a-z]+)"):
    """Opens one of the game's private views ("Your hand", "Read the card") for whoever presses it."""

    def __init__(self, game_id: int, button: Button) -> None:
        name = button.view or ""
        super().__init__(discord.ui.Button(label=button.label[:80], emoji=button.emoji,
                                           style=STYLES.get(button.style, discord.ButtonStyle.primary),
                                           custom_id=checked_id(f"tb:view:{game_id}:{name}")))
        self.game_id, self.name = game_id, name

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ViewButton:
        return cls(int(match["game"]), Button(getattr(item, "label", None) or "", view=match["name"]))

    async def callback(self, pressed: discord.Interaction[Any]) -> None:
        interaction = ours(pressed)
        await guarded(interaction, self.game_id, show_view(interaction, self.game_id, self.name))


# --- controls drawn by the release before games were plug-ins ------------------------------------------


class LegacySelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"tb:sel:(?P<game>\d+):(?P<ver>\d+):(?P<verb>[a-z]+):(?P<opt>[a-z]+)"):
    """``tb:sel:G:V:explore:to`` (the value fills one option) or ``tb:sel:G:V:act:a`` (the value is a command)."""

    def __init__(self, game_id: int, version: int, verb: str, option: str) -> None:
        super().__init__(discord.ui.Select(custom_id=f"tb:sel:{game_id}:{version}:{verb}:{option}",
                                           options=[discord.SelectOption(label="—", value="-")]))
        self.game_id, self.version, self.verb, self.option = game_id, version, verb, option

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LegacySelect:
        return cls(int(match["game"]), int(match["ver"]), match["verb"], match["opt"])

    async def callback(self, pressed: discord.Interaction[Any]) -> None:
        interaction = ours(pressed)
        value = str((data_of(interaction).get("values") or [""])[0])
        command = Command.decode(value) if self.verb == "act" else Command.of(self.verb, **{self.option: value})
        await guarded(interaction, self.game_id, perform(interaction, self.game_id, command,
                                                         expect_version=self.version))


class LegacyButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"tb:(?P<kind>act|narr|mine):(?P<game>\d+):(?P<ver>\d+)(?::(?P<rest>.*))?"):
    """``tb:act:G:V:verb[:opt=val]`` and ``tb:act:G:V:act:a=<command>``, ``tb:narr:G:V:read|auto`` and
    ``tb:mine:G:V``, as the earlier release drew them."""

    LEGACY_VIEWS: ClassVar[dict[str, str]] = {"mine": "hand", "narr:read": "narrate"}

    def __init__(self, game_id: int, version: int, kind: str, rest: str) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=f"tb:{kind}:{game_id}:{version}" +
                                           (f":{rest}" if rest else "")))
        self.game_id, self.version, self.kind, self.rest = game_id, version, kind, rest

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LegacyButton:
        return cls(int(match["game"]), int(match["ver"]), match["kind"], match["rest"] or "")

    def command(self) -> Command:
        if self.kind == "narr":
            return Command("narrate")
        verb, _, tail = self.rest.partition(":")
        option, _, value = tail.partition("=")
        if verb == "act":
            return Command.decode(value)
        return Command.of(verb, **({option: value} if option else {}))

    async def callback(self, pressed: discord.Interaction[Any]) -> None:
        interaction = ours(pressed)
        key = self.kind if self.kind == "mine" else f"{self.kind}:{self.rest}"
        view = self.LEGACY_VIEWS.get(key)
        if view is not None:
            await guarded(interaction, self.game_id, self._open(interaction, view))
            return
        await guarded(interaction, self.game_id, perform(interaction, self.game_id, self.command(),
                                                         expect_version=self.version))

    async def _open(self, interaction: Interaction, verb_or_view: str) -> None:
        info = await service(interaction).lobby(self.game_id)
        spec = verb_spec(ruleset(info.ruleset), verb_or_view)
        await show_view(interaction, self.game_id, spec.view if spec and spec.view else verb_or_view)


# --- posting a move -------------------------------------------------------------------------------------


def controls(game_id: int, stamp: int, prompt: Prompt | None) -> discord.ui.View | None:
    """The select menus and buttons of a prompt; every id carries the game and the moment it was drawn at."""
    if prompt is None:
        return None
    view = discord.ui.View(timeout=None)
    for i, menu in enumerate(prompt.menus[:5]):
        if menu.choices:
            view.add_item(PickSelect(game_id, stamp, i, menu))
    room = 25 - len(view.children) * 5
    for b in prompt.buttons[:room]:
        view.add_item(ViewButton(game_id, b) if b.command is None else DoButton(game_id, stamp, b))
    return view if view.children else None


def _running_key(telling: Telling, pings: bool) -> str | None:
    """What a telling may continue: the running message its game names (a fight, card by card), or, when it
    passes the turn to nobody, the game's live prompt (any plain prompt: its story grows in place)."""
    if telling.continues is not None:
        return telling.continues
    return "" if not pings else None


async def _continue(bot: TabulaBot, target: discord.abc.Messageable | Interaction, moment: GameMoment[Any],
                    telling: Telling, since: int) -> bool:
    """Append a telling to the running message it continues, with the new controls (and the new pictures, if
    any); False when there is none to continue (or the text would no longer fit), so the caller posts a new
    message.  A message continued from the pressed message itself is edited through the interaction's own
    answer; whoever must act next is pinged in a short line of its own (an edit pings nobody), through the
    interaction's follow-up when a press caused it."""
    running = bot.running.get(moment.game_id)
    line, mentions = prompt_line(telling, moment.clock_deadline)
    ping = line if telling.prompt is not None and telling.prompt.notified else ""
    key = _running_key(telling, bool(ping))
    if key is None or running is None or running[2] != key or moment.meta.free or moment.outcome is not None:
        return False
    channel_id, message_id, old = running[0], running[1], running[3]
    interaction = target if isinstance(target, discord.Interaction) else None
    if key == "" and interaction is not None and interaction.type == discord.InteractionType.application_command:
        return False  # a typed command is answered where it was typed, in public (Discord shows who typed it)
    pressed = interaction.message if interaction is not None else None
    here = pressed is not None and pressed.id == message_id
    old = old.rsplit("\n➡️ ", 1)[0] if "\n➡️ " in old else old  # the last prompt line is not kept
    shown = "" if ping else line  # who must act, named (the edit pings nobody) unless a ping line follows
    content = "\n".join(part for part in (old, telling.text, shown) if part)
    if len(content) > MAX_CONTENT:
        return False
    view = controls(moment.game_id, moment.stamp, telling.prompt)
    edit: dict[str, Any] = {"content": content, "view": with_board(view, await board_link(bot, moment.game_id)),
                            "allowed_mentions": NONE}
    if telling.pictures:
        edit["attachments"] = files(telling.pictures)
    if interaction is not None and here and not interaction.response.is_done():
        await interaction.response.edit_message(**edit)
    elif interaction is not None and here and interaction.response.type is \
            discord.InteractionResponseType.deferred_message_update:
        await interaction.edit_original_response(**edit)
    else:
        channel = await channel_of(bot, channel_id)
        await channel.get_partial_message(message_id).edit(**edit)
        if interaction is not None and not ping:
            with using(locale_of(interaction)):
                await _done_privately(interaction, _("Done — it is told in the running message above."))
    bot.running[moment.game_id] = (channel_id, message_id, key, content)
    crash_point("posted")
    await bot.outbox.delivered(moment.game_id, moment.version, message_id, since=since)  # it stays the prompt
    if ping:  # the turn passed to someone: they are pinged in a line of its own (an edit pings nobody)
        if interaction is not None:
            await _follow(interaction, ping, allowed_mentions=mentions)
        else:
            thread = await channel_of(bot, channel_id)
            await thread.send(ping, allowed_mentions=mentions, nonce=nonce(moment.game_id, moment.version, 99))
    return True


async def _follow(interaction: Interaction, content: str, **kwargs: Any) -> Any:
    """A public message through the interaction's own answer (its token, not the bot's)."""
    if interaction.response.is_done():
        return await interaction.followup.send(content, wait=True, **kwargs)
    return (await interaction.response.send_message(content, **kwargs)).resource


async def _done_privately(interaction: Interaction, text: str) -> None:
    """Answer a press whose telling went elsewhere: privately, or not at all once it was deferred unseen."""
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NONE)
    elif interaction.response.type is not discord.InteractionResponseType.deferred_message_update:
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NONE)


async def send_telling(bot: TabulaBot, target: discord.abc.Messageable | Interaction,
                       moment: GameMoment[Any], telling: Telling, *, since: int | None = None) -> None:
    """Post a telling (of ``moment``, or of the run of moves from version ``since`` to ``moment``): its story,
    pictures and the next prompt, publicly, in as many messages as the text needs, or appended to the running
    message it continues, in the game's language."""
    with using(moment.language):
        await _send_telling(bot, target, moment, telling, moment.version if since is None else since)


async def _send_telling(bot: TabulaBot, target: discord.abc.Messageable | Interaction,
                        moment: GameMoment[Any], telling: Telling, since: int) -> None:
    if await _continue(bot, target, moment, telling, since):
        return
    ping, mentions = prompt_line(telling, moment.clock_deadline)
    parts = chunks(telling.text)
    if ping:
        if len(parts[-1]) + len(ping) + 1 <= MAX_CONTENT:
            parts[-1] = f"{parts[-1]}\n{ping}".strip()
        else:
            parts.append(ping)
    view = controls(moment.game_id, moment.stamp, telling.prompt)
    shown = with_board(view, await board_link(bot, moment.game_id))  # "Open the board", when the page is on
    free = moment.meta.free
    interaction = target if isinstance(target, discord.Interaction) else None
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        kwargs: dict[str, Any] = {"content": part or "—", "allowed_mentions": mentions if last else NONE}
        if last:
            kwargs["files"] = files(telling.pictures)
            if shown is not None:
                kwargs["view"] = shown
        sent: Any
        if interaction is not None:
            content = kwargs.pop("content")
            sent = await _follow(interaction, content, **kwargs)
        else:
            assert not isinstance(target, discord.Interaction)
            sent = await target.send(nonce=nonce(moment.game_id, moment.version, i), **kwargs)
        if last and isinstance(sent, discord.Message):
            crash_point("posted")
            await retire_old_prompt(bot, moment, sent if view is not None else None, free=free, since=since)
        if last and isinstance(sent, discord.Message) and not free:
            if view is not None:
                bot.running[moment.game_id] = (sent.channel.id, sent.id, telling.continues or "", sent.content)
            else:
                bot.running.pop(moment.game_id, None)


async def post_followups(bot: TabulaBot, channel: discord.abc.Messageable, moment: GameMoment[Any]) -> None:
    """Tabula's own moves after a person's (its automatic seats), told in the thread as one telling."""
    if moment.followups:
        last = moment.followups[-1]
        await send_telling(bot, channel, last, await tell_run(moment.followups), since=moment.followups[0].version)


async def retire_old_prompt(bot: TabulaBot, moment: GameMoment[Any], newest: discord.Message | None, *,
                            free: bool = False, since: int | None = None) -> None:
    """The move (or the run of moves from ``since``) is told (as ``newest``): mark it delivered, and make
    ``newest`` the game's one prompt with live controls, listing the one before it to have its select or
    buttons taken off, in one transaction.

    The newest prompt is kept in the database, so the previous one is known after a restart and to every
    process; the edit itself runs after the reply has gone out (a stale button is refused politely anyway,
    since it carries the moment it was drawn at), and is tried again at start-up if it never happened."""
    prompt: tuple[int, int] | str | None = KEEP
    if not free:
        prompt = (newest.channel.id, newest.id) if newest is not None else None
    try:
        await bot.outbox.delivered(moment.game_id, moment.version, newest.id if newest else None, prompt=prompt,
                                   since=since)
    except Exception:
        log.exception("game %d: could not record the newest prompt", moment.game_id)


#: How far the bot's clock may run ahead of Discord's when a move's commit time bounds the search for its post.
CLOCK_SLACK = 120.0


async def told_already(bot: TabulaBot, channel: Any, moment: GameMoment[Any], telling: Telling, *,
                       committed: float | None = None) -> discord.Message | None:
    """A post of this telling Discord accepted before a crash cut the bookkeeping short: the thread's messages
    after the last one known delivered are read, and the one carrying the telling's last part is it (or the
    last delivered message itself, when the telling was appended to it).  When a later move's delivery is
    already recorded, this telling's post may have come before that one: then give ``committed`` (when the
    move was saved), and the thread's messages since then are read instead (a post cannot precede its move)."""
    key = chunks(telling.text)[-1].strip()
    if len(key) < 8 or bot.user is None:
        return None  # too short to recognise surely: posting again is the lesser harm
    last = await bot.outbox.last_delivered(moment.game_id)
    if committed is not None:
        since = datetime.datetime.fromtimestamp(committed - CLOCK_SLACK, tz=datetime.UTC)
        after: discord.abc.Snowflake | None = discord.Object(id=discord.utils.time_snowflake(since))
    else:
        after = discord.Object(id=last[1]) if last and last[1] else None
    message: discord.Message
    try:
        async for message in channel.history(limit=50, after=after):
            if message.author.id == bot.user.id and key in message.content:
                return message
        if last and last[1]:
            message = await channel.fetch_message(last[1])
            if key in message.content:
                return message
    except discord.NotFound:
        pass
    except discord.Forbidden:  # no Read Message History here: the nonce is the only guard left
        log.info("game %d: cannot read the thread to check for a post made before a crash", moment.game_id)
    return None


async def tell_owed(bot: TabulaBot, moment: GameMoment[Any], owed: Owed, superseded: bool) -> bool:
    """Tell a move the outbox owes, with the owed moves after it (``moment.followups``) as one telling (its
    press never posted it: a crash, Discord down): in its thread, with its prompt unless a later move's is
    already live, or adopt the post a crash left unrecorded."""
    assert moment.thread_id is not None
    channel: Any = bot.get_channel(moment.thread_id) or await bot.fetch_channel(moment.thread_id)
    run = run_of(moment)
    last = run[-1]
    telling = await tell_run(run)
    if superseded:
        telling.prompt = None
    found = await told_already(bot, channel, last, telling, committed=owed.created_at if superseded else None)
    if found is not None:
        live: tuple[int, int] | str | None = (found.channel.id, found.id) if found.components else None
        await bot.outbox.delivered(moment.game_id, last.version, found.id, since=moment.version,
                                   prompt=KEEP if superseded or last.meta.free else live)
        if superseded and found.components:  # a later move's prompt is live already: this one's controls go
            await bot.outbox.strip(moment.game_id, found.channel.id, found.id)
        return True
    await send_telling(bot, channel, last, telling, since=moment.version)
    if last.outcome is not None:
        bot.dispatch("tabula_finished", moment.game_id, f"🏆 {last.outcome.summary}")
    return True


__all__ = ["DoButton", "LegacyButton", "LegacySelect", "PickSelect", "ViewButton", "controls", "perform",
           "post_followups", "run_of", "run_verb", "send_telling", "show_view", "tell_owed", "tell_run",
           "told_already"]
