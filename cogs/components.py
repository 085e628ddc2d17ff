"""Buttons and selects that survive restarts: each custom id carries the game id (and the version it was
drawn at, so a button from an earlier turn is refused politely instead of acting twice)."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any, ClassVar

import discord

from cogs.common import reply, send_telling, service, tell_result
from rules import GameError

log = logging.getLogger("tabula.discord")


async def guarded(interaction: discord.Interaction, game_id: int | None, work: Any) -> None:
    """Run a component callback; a GameError becomes a polite ephemeral line, anything else an apology."""
    try:
        await work
    except GameError as err:
        await reply(interaction, str(err))
    except Exception:
        log.exception("game %s: component %s failed", game_id, (interaction.data or {}).get("custom_id"))
        try:
            from bot.client import APOLOGY

            await reply(interaction, APOLOGY)
        except discord.HTTPException:
            pass


async def _defer_later(interaction: discord.Interaction, seconds: float) -> None:
    await asyncio.sleep(seconds)
    if not interaction.response.is_done():
        await interaction.response.defer(thinking=True)


def decode(verb: str, args: dict[str, str]) -> tuple[str, dict[str, str]]:
    """A menu or button that carries a whole command (``act`` = ``explore?path=latium>campania``)."""
    if verb != "act":
        return verb, args
    from urllib.parse import parse_qsl

    command, _, query = (args.get("a") or "").partition("?")
    return command, dict(parse_qsl(query, keep_blank_values=True))


async def perform(interaction: discord.Interaction, game_id: int, **act: Any) -> None:
    """Act for the person who pressed or typed, then post the move's story publicly in the thread.

    A move normally takes milliseconds; if it is held up (another process holding the database), the
    interaction is deferred before Discord's 3-second limit so the player sees "thinking", not a failure."""
    if "verb" in act:
        act["verb"], act["args"] = decode(act["verb"], act.get("args") or {})
    watchdog = asyncio.create_task(_defer_later(interaction, 2.0))
    try:
        result = await service(interaction).act(game_id, interaction.user.id, **act)
    finally:
        watchdog.cancel()
    telling = await tell_result(result)
    await send_telling(interaction.client, interaction, result, telling)  # type: ignore[arg-type]
    if result.outcome is not None:
        from cogs.games import refresh_lobby

        await refresh_lobby(interaction.client, game_id, f"🏆 {result.outcome.summary}")


async def show_narrator_card(interaction: discord.Interaction, game_id: int) -> None:
    """The card in the Narrator's hand, shown only to the Narrator."""
    from bot.present import presenter
    from cogs.common import files

    result = await service(interaction).get(game_id, interaction.user.id)
    telling = None
    if result.actor is not None:
        telling = presenter(result.rules.key).narrator_card(result, result.actor)
    if telling is None:
        raise GameError("You have no card to read: only the Narrator of the room being explored does, "
                        "and only while a card waits to be told.")
    await reply(interaction, telling.text, files=files(telling.pictures))


class VerbSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                 template=r"tb:sel:(?P<game>\d+):(?P<ver>\d+):(?P<verb>[a-z]+):(?P<opt>[a-z]+)"):
    """A select menu that fills one option of a verb, e.g. the doorway of `/explore to:`."""

    def __init__(self, game_id: int, version: int, verb: str, option: str,
                 choices: list[tuple[str, str]] | None = None, *, placeholder: str = "") -> None:
        options = [discord.SelectOption(label=label[:100], value=value) for label, value in (choices or [])[:25]]
        super().__init__(discord.ui.Select(
            custom_id=f"tb:sel:{game_id}:{version}:{verb}:{option}",
            placeholder=placeholder or ("Choose where to go…" if verb == "explore" else "Choose…"),
            options=options or [discord.SelectOption(label="—", value="-")],
        ))
        self.game_id, self.version, self.verb, self.option = game_id, version, verb, option

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select[Any],
                             match: re.Match[str], /) -> VerbSelect:
        return cls(int(match["game"]), int(match["ver"]), match["verb"], match["opt"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or [""]
        await guarded(interaction, self.game_id, perform(
            interaction, self.game_id, verb=self.verb, args={self.option: str(values[0])},
            expect_version=self.version))


class NarratorButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"tb:narr:(?P<game>\d+):(?P<ver>\d+):(?P<op>read|auto)"):
    """"Read the card" (private to the Narrator) and "Let Tabula read it"."""

    def __init__(self, game_id: int, version: int, op: str) -> None:
        label, style, emoji = {
            "read": ("Read the card", discord.ButtonStyle.primary, "📜"),
            "auto": ("Let Tabula read it", discord.ButtonStyle.secondary, "🤖"),
        }[op]
        super().__init__(discord.ui.Button(label=label, style=style, emoji=emoji,
                                           custom_id=f"tb:narr:{game_id}:{version}:{op}"))
        self.game_id, self.version, self.op = game_id, version, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str], /) -> NarratorButton:
        return cls(int(match["game"]), int(match["ver"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.op == "read":
            await guarded(interaction, self.game_id, show_narrator_card(interaction, self.game_id))
        else:
            await guarded(interaction, self.game_id, perform(interaction, self.game_id, verb="narrate", args={},
                                                             expect_version=self.version))


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"tb:act:(?P<game>\d+):(?P<ver>\d+):(?P<verb>[a-z]+)(?::(?P<opt>[a-z]+)=(?P<val>[^:]*))?"):
    """A button that does one verb, optionally with one option filled in: Attack, Retreat, Keep the Leader,
    Rest; in Champion of the Empire a whole encoded command (`act:a=play?card=torso&target=1`)."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
        "danger": discord.ButtonStyle.danger, "success": discord.ButtonStyle.success,
    }

    def __init__(self, game_id: int, version: int, verb: str, *, label: str = "", style: str = "secondary",
                 option: str = "", value: str = "") -> None:
        tail = f":{option}={value}" if option else ""
        super().__init__(discord.ui.Button(label=(label or verb.title())[:80],
                                           style=self.STYLES.get(style, discord.ButtonStyle.secondary),
                                           custom_id=f"tb:act:{game_id}:{version}:{verb}{tail}"[:100]))
        self.game_id, self.version, self.verb, self.option, self.value = game_id, version, verb, option, value

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str], /) -> ActionButton:
        return cls(int(match["game"]), int(match["ver"]), match["verb"], label=item.label or "",
                   option=match["opt"] or "", value=match["val"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        args = {self.option: self.value} if self.option else {}
        await guarded(interaction, self.game_id, perform(interaction, self.game_id, verb=self.verb, args=args,
                                                         expect_version=self.version))


async def show_private(interaction: discord.Interaction, game_id: int) -> None:
    """The pinged player's own secret choices (a hand of cards), shown only to them, with buttons."""
    from bot.present import presenter
    from cogs.common import files, prompt_view

    result = await service(interaction).get(game_id, interaction.user.id)
    if result.actor is None:
        raise GameError("You are not playing in this game, so there is nothing here for you to choose.")
    shown = presenter(result.rules.key)
    telling = shown.private(result, result.actor) if hasattr(shown, "private") else None
    if telling is None:
        names = {e.seat: e.name for e in result.seats}
        waiting = [names.get(s, "?") for s in sorted(result.rules.to_act(result.state))]
        who = " and ".join(waiting) or "nobody"
        raise GameError(f"Nothing waits for you right now — the game is waiting for {who}.")
    view = prompt_view(interaction.client, result, telling)  # type: ignore[arg-type]
    await reply(interaction, telling.text, files=files(telling.pictures),
                **({"view": view} if view is not None else {}))


class PrivateButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"tb:mine:(?P<game>\d+):(?P<ver>\d+)"):
    """"Your hand": shows whoever presses it their own secret cards and choices (ephemeral)."""

    def __init__(self, game_id: int, version: int, *, label: str = "Your hand") -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=discord.ButtonStyle.primary, emoji="🂠",
                                           custom_id=f"tb:mine:{game_id}:{version}"))
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button[Any],
                             match: re.Match[str], /) -> PrivateButton:
        return cls(int(match["game"]), int(match["ver"]), label=item.label or "Your hand")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self.game_id, show_private(interaction, self.game_id))
