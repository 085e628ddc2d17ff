"""Helpers every cog shares: replying politely, turning a Telling into a message, finding the thread's game."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.play import Result
from bot.present import Picture, Telling, presenter

if TYPE_CHECKING:
    from bot.client import TabulaBot

log = logging.getLogger("tabula.discord")
MAX_CONTENT = 2000


def service(interaction: discord.Interaction) -> Any:
    return interaction.client.service  # type: ignore[attr-defined]


async def reply(interaction: discord.Interaction, content: str, *, ephemeral: bool = True, **kwargs: Any) -> None:
    """Answer an interaction whether or not it has been answered already (the one place that chooses)."""
    kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
    if interaction.response.is_done():
        await interaction.followup.send(content[:MAX_CONTENT], ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content[:MAX_CONTENT], ephemeral=ephemeral, **kwargs)


async def game_here(interaction: discord.Interaction) -> int:
    """The game of the thread this interaction came from, or a polite refusal."""
    from rules import GameError

    channel_id = interaction.channel_id
    game_id = await service(interaction).game_in_thread(channel_id) if channel_id else None
    if game_id is None:
        raise GameError("This works inside a game's thread. Use `/game list` to find your games, or `/game new` "
                        "to start one.")
    return int(game_id)


def files(pictures: list[Picture]) -> list[discord.File]:
    return [discord.File(io.BytesIO(p.png), filename=p.filename, description=p.alt) for p in pictures]


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


async def tell_result(result: Result, **kwargs: Any) -> Telling:
    """Render off the event loop: Pillow work runs in a worker thread."""
    return await asyncio.to_thread(presenter(result.rules.key).telling, result, **kwargs)


def prompt_line(telling: Telling) -> tuple[str, discord.AllowedMentions]:
    """The ping at the end of a message: mention exactly the players who must act, nobody else."""
    prompt = telling.prompt
    if prompt is None or not prompt.users:
        return "", discord.AllowedMentions.none()
    who = ", ".join(f"<@{u}>" for u in prompt.users)
    mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                       users=[discord.Object(id=u) for u in prompt.users])
    return f"➡️ {who}, {prompt.text}", mentions


def prompt_view(bot: TabulaBot, result: Result, telling: Telling) -> discord.ui.View | None:
    """Buttons or a select for the next decision, carrying the game id and version (they survive restarts)."""
    from cogs.components import ActionButton, NarratorButton, PrivateButton, VerbSelect

    prompt = telling.prompt
    if prompt is None:
        return None
    view = discord.ui.View(timeout=None)
    if prompt.narrator:
        view.add_item(NarratorButton(result.game_id, result.stamp, "read"))
        view.add_item(NarratorButton(result.game_id, result.stamp, "auto"))
    elif prompt.verb and prompt.option and prompt.choices:
        view.add_item(VerbSelect(result.game_id, result.stamp, prompt.verb, prompt.option, prompt.choices,
                                 placeholder=prompt.placeholder))
    if prompt.private:
        view.add_item(PrivateButton(result.game_id, result.stamp, label=prompt.private))
    for b in prompt.buttons[:24]:
        view.add_item(ActionButton(result.game_id, result.stamp, b.verb, label=b.label, style=b.style,
                                   option=b.option, value=b.value))
    return view if view.children else None


async def send_telling(bot: TabulaBot, target: discord.abc.Messageable | discord.Interaction, result: Result,
                       telling: Telling) -> None:
    """Post a move's story, pictures and the next prompt, publicly, in as many messages as the text needs."""
    ping, mentions = prompt_line(telling)
    parts = chunks(telling.text)
    if ping:
        if len(parts[-1]) + len(ping) + 1 <= MAX_CONTENT:
            parts[-1] = f"{parts[-1]}\n{ping}".strip()
        else:
            parts.append(ping)
    view = prompt_view(bot, result, telling)
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        kwargs: dict[str, Any] = {
            "content": part,
            "allowed_mentions": mentions if last else discord.AllowedMentions.none(),
        }
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
        if last and isinstance(sent, discord.Message) and not telling.free:
            retire_old_prompt(bot, result.game_id, sent if view is not None else None)


def retire_old_prompt(bot: TabulaBot, game_id: int, newest: discord.Message | None) -> None:
    """Take the select or buttons off the game's previous prompt, so only the newest can be pressed.

    Best effort, after the reply has gone out: a stale button is refused politely anyway (it carries the
    version it was drawn at), and after a restart the previous prompt is simply not known.
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
                await channel.get_partial_message(previous[1]).edit(view=None)  # type: ignore[attr-defined]
            except discord.HTTPException:
                log.info("game %d: could not retire an old prompt", game_id)

    task = asyncio.create_task(strip())
    bot.background.add(task)
    task.add_done_callback(bot.background.discard)
