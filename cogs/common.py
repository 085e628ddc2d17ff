"""Helpers every cog shares: replying politely, turning a Telling into a message, finding the thread's game,
and building the controls of a prompt (every id made and checked here)."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any, cast

import discord

from bot.delivery.tellings import telling_now
from bot.front.client import TabulaBot
from bot.longplay.clock import timestamp
from bot.longplay.service import LongGameService
from bot.present.base import Picture, Telling
from bot.service.moment import GameMoment
from rules import GameError
from rules.i18n import _, _p, using
from rules.spec import ID_LIMIT

log = logging.getLogger("tabula.discord")
MAX_CONTENT = 2000
NONE = discord.AllowedMentions.none()


#: Every interaction Tabula's cogs receive comes through its own client, so its ``client`` is a ``TabulaBot``
#: (its service, outbox and running prompts typed; no cog needs a hand-made protocol of them).
Interaction = discord.Interaction[TabulaBot]


def bot_of(interaction: Interaction) -> TabulaBot:
    return interaction.client


def ours(interaction: discord.Interaction[Any]) -> Interaction:
    """A control's interaction, typed as what it is.  discord.py types an item's ``callback`` for any client
    (its ``ClientT`` is the method's own, so an override cannot narrow it); Tabula registers its controls only
    on its own client (``cogs.controls`` and the other cogs' ``setup``), so every press comes through one."""
    return cast(Interaction, interaction)


async def channel_of(bot: TabulaBot, channel_id: int) -> Any:
    """A game's thread or a lobby's channel, from the cache or Discord.  Typed ``Any``: discord.py's union of
    channel kinds includes forums, categories and DMs, which no game's message is ever posted in."""
    return bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)


def service(interaction: Interaction) -> LongGameService:
    return bot_of(interaction).service


async def reply(interaction: Interaction, content: str, *, ephemeral: bool = True,
                view: discord.ui.View | None = None, **kwargs: Any) -> None:
    """Answer an interaction whether or not it has been answered already (the one place that chooses)."""
    kwargs.setdefault("allowed_mentions", NONE)
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(content[:MAX_CONTENT], ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(content[:MAX_CONTENT], ephemeral=ephemeral, **kwargs)


#: Set in ``interaction.extras`` when a slow move was deferred (privately: "Tabula is thinking…" only for the
#: mover).  A refusal then replaces the placeholder and stays private; a move that goes through is posted in
#: the thread as a message of its own, and the placeholder is removed.
PRIVATE_PLACEHOLDER = "tabula_private_placeholder"


async def game_here(interaction: Interaction) -> int:
    """The game of the thread this interaction came from, or a polite refusal."""
    channel_id = interaction.channel_id
    game_id = await service(interaction).game_in_thread(channel_id) if channel_id else None
    if game_id is None:
        raise GameError(_("This works inside a game's thread. Use `/game list` to find your games, or `/game "
                          "new` to start one."))
    return int(game_id)


async def pick(interaction: Interaction, game: int | None) -> int:
    """The game named by number (it must belong to this server), or else the thread's game."""
    if game is None:
        return await game_here(interaction)
    info = await service(interaction).lobby(game)
    if info.guild_id != interaction.guild_id:
        raise GameError(_("There is no game #{number} in this server. `/game list` shows the ones here.",
                          number=game))
    return game


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
    """The public message of a move, in the game's language (Pillow runs in a worker thread, never on the
    event loop; the thread inherits the language)."""
    with using(moment.language):
        return await asyncio.to_thread(telling_now, moment)


def mentions_of(users: list[int]) -> discord.AllowedMentions:
    """Allow exactly these users to be pinged: never @everyone, never a role."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(id=u) for u in users])


def prompt_line(telling: Telling, clock_deadline: float | None = None) -> tuple[str, discord.AllowedMentions]:
    """The ping at the end of a message: name the players who must act, with the turn clock as a Discord
    timestamp (each reader sees it in their own time zone), and notify only those the turn has passed to
    (``Prompt.notified``): nobody else, never someone still choosing."""
    prompt = telling.prompt
    users = [u for u in (prompt.users if prompt else []) if u > 0]  # Tabula's own seats are never pinged
    if prompt is None or not users:
        return "", NONE
    who = _p("list", ", ").join(f"<@{u}>" for u in users)
    clock = _(" · ⏳ clock runs out {when}", when=timestamp(clock_deadline)) if clock_deadline else ""
    # TRANSLATORS: the ping under a move: who must act, then what the prompt asks of them
    asked = _("{who}, {prompt}", who=who, prompt=prompt.text)
    notified = prompt.notified
    return f"➡️ {asked}{clock}", mentions_of(notified) if notified else NONE


__all__ = ["bot_of", "checked_id", "chunks", "files", "game_here", "mentions_of", "pick", "prompt_line", "reply",
           "service", "tell_result"]
