"""Helpers every cog shares: replying politely, turning a Telling into a message, finding the thread's game,
and building the controls of a prompt (every id made and checked here)."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any, Protocol

import discord

from bot.moment import GameMoment
from bot.play import GameService
from bot.present.base import Button, Menu, Picture, Prompt, Telling
from bot.tellings import telling_now
from rules import GameError
from rules.spec import ID_LIMIT, Command

log = logging.getLogger("tabula.discord")
MAX_CONTENT = 2000
NONE = discord.AllowedMentions.none()


class Tabula(Protocol):
    """What cogs need of the client (typed here so that no cog imports the client)."""

    service: GameService
    prompts: dict[int, tuple[int, int]]
    background: set[asyncio.Task[None]]

    def get_channel(self, channel_id: int, /) -> Any: ...
    async def fetch_channel(self, channel_id: int, /) -> Any: ...


def bot_of(interaction: discord.Interaction) -> Tabula:
    client: Tabula = interaction.client  # type: ignore[assignment]
    return client


def service(interaction: discord.Interaction) -> GameService:
    return bot_of(interaction).service


async def reply(interaction: discord.Interaction, content: str, *, ephemeral: bool = True, **kwargs: Any) -> None:
    """Answer an interaction whether or not it has been answered already (the one place that chooses)."""
    kwargs.setdefault("allowed_mentions", NONE)
    if interaction.response.is_done():
        await interaction.followup.send(content[:MAX_CONTENT], ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content[:MAX_CONTENT], ephemeral=ephemeral, **kwargs)


async def game_here(interaction: discord.Interaction) -> int:
    """The game of the thread this interaction came from, or a polite refusal."""
    channel_id = interaction.channel_id
    game_id = await service(interaction).game_in_thread(channel_id) if channel_id else None
    if game_id is None:
        raise GameError("This works inside a game's thread. Use `/game list` to find your games, or `/game new` "
                        "to start one.")
    return int(game_id)


def files(pictures: list[Picture]) -> list[discord.File]:
    return [discord.File(io.BytesIO(p.png), filename=p.filename, description=p.alt[:1000]) for p in pictures]


def chunks(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Split at line breaks so no message passes Discord's length limit."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            out.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) + 1 > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out or [""]


def checked_id(custom_id: str) -> str:
    """Discord refuses ids over 100 characters: refuse them here, where they are built, instead of cutting
    them (a cut id would name another command)."""
    if len(custom_id) > ID_LIMIT:
        raise ValueError(f"custom id of {len(custom_id)} characters (Discord's limit is {ID_LIMIT}): {custom_id!r}")
    return custom_id


async def tell_result(moment: GameMoment[Any]) -> Telling:
    """The public message of a move (Pillow runs in a worker thread, never on the event loop)."""
    return await asyncio.to_thread(telling_now, moment)


def prompt_line(telling: Telling) -> tuple[str, discord.AllowedMentions]:
    """The ping at the end of a message: mention exactly the players who must act, nobody else."""
    prompt = telling.prompt
    users = [u for u in (prompt.users if prompt else []) if u > 0]  # Tabula's own seats are never pinged
    if prompt is None or not users:
        return "", NONE
    who = ", ".join(f"<@{u}>" for u in users)
    mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                       users=[discord.Object(id=u) for u in users])
    return f"➡️ {who}, {prompt.text}", mentions


def controls(game_id: int, stamp: int, prompt: Prompt | None) -> discord.ui.View | None:
    """The select menus and buttons of a prompt; every id carries the game and the moment it was drawn at."""
    from cogs.components import DoButton, PickSelect, ViewButton

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


async def send_telling(bot: Tabula, target: discord.abc.Messageable | discord.Interaction,
                       moment: GameMoment[Any], telling: Telling) -> None:
    """Post a move's story, pictures and the next prompt, publicly, in as many messages as the text needs."""
    ping, mentions = prompt_line(telling)
    parts = chunks(telling.text)
    if ping:
        if len(parts[-1]) + len(ping) + 1 <= MAX_CONTENT:
            parts[-1] = f"{parts[-1]}\n{ping}".strip()
        else:
            parts.append(ping)
    view = controls(moment.game_id, moment.stamp, telling.prompt)
    free = moment.meta.free
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        kwargs: dict[str, Any] = {"content": part or "—", "allowed_mentions": mentions if last else NONE}
        if last:
            kwargs["files"] = files(telling.pictures)
            if view is not None:
                kwargs["view"] = view
        sent: Any
        if isinstance(target, discord.Interaction):
            if not target.response.is_done():
                sent = (await target.response.send_message(**kwargs)).resource
            else:
                sent = await target.followup.send(wait=True, **kwargs)
        else:
            sent = await target.send(**kwargs)
        if last and isinstance(sent, discord.Message) and not free:
            retire_old_prompt(bot, moment.game_id, sent if view is not None else None)


async def post_followups(bot: Tabula, channel: discord.abc.Messageable, moment: GameMoment[Any]) -> None:
    """Tabula's own moves after a person's (its automatic seats), each told in the thread in turn."""
    for after in moment.followups:
        await send_telling(bot, channel, after, await tell_result(after))


def retire_old_prompt(bot: Tabula, game_id: int, newest: discord.Message | None) -> None:
    """Take the select or buttons off the game's previous prompt, so only the newest can be pressed.

    Best effort, after the reply has gone out: a stale button is refused politely anyway (it carries the
    moment it was drawn at), and after a restart the previous prompt is simply not known.
    """
    previous = bot.prompts.pop(game_id, None)
    if newest is not None:
        bot.prompts[game_id] = (newest.channel.id, newest.id)
    if previous is None:
        return

    async def strip() -> None:
        channel = bot.get_channel(previous[0])
        if isinstance(channel, discord.abc.Messageable):
            try:
                await channel.get_partial_message(previous[1]).edit(  # type: ignore[attr-defined]
                    view=None, allowed_mentions=NONE)
            except discord.HTTPException:
                log.info("game %d: could not retire an old prompt", game_id)

    task = asyncio.create_task(strip())
    bot.background.add(task)
    task.add_done_callback(bot.background.discard)


__all__ = ["Button", "Command", "Menu", "Prompt", "Telling", "bot_of", "chunks", "controls", "files", "game_here",
           "post_followups", "reply", "send_telling", "service", "tell_result"]
