"""Answering an interaction in time and politely, for every cog: ``guarded`` runs a control's work and turns a
refusal into a private line and a failure into an apology (and counts it); ``Answer`` acknowledges an
interaction within Discord's three seconds however long its move takes to save and draw."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from typing import Any

import aiohttp
import discord

from bot.front.client import APOLOGY, too_late
from bot.lang.translator import locale_of
from bot.ops import metrics
from cogs.common import PRIVATE_PLACEHOLDER, Interaction, reply
from rules import GameError
from rules.i18n import _, set_language

log = logging.getLogger("tabula.discord")


async def guarded(interaction: Interaction, game_id: int | None, work: Awaitable[None]) -> None:
    """Run a component callback; a GameError becomes a polite ephemeral line, anything else an apology."""
    set_language(locale_of(interaction))  # the callback's own task answers in the presser's language
    started, outcome = time.perf_counter(), "ok"
    try:
        await work
    except GameError as err:
        outcome = "refused"
        await reply(interaction, str(err))
    except (aiohttp.ClientError, OSError) as err:  # Discord unreachable: what was committed is in the outbox
        log.warning("game %s: Discord could not be reached (%s); a committed move is told when it can be",
                    game_id, type(err).__name__)
    except Exception as err:
        outcome = "error"
        if not too_late(interaction, err, game_id):  # (late: one warning line; nothing can be answered)
            log.exception("game %s: component %s failed", game_id, data_of(interaction).get("custom_id"))
            try:
                await reply(interaction, _(APOLOGY))
            except discord.HTTPException:
                pass
    finally:
        kind = ":".join(str(data_of(interaction).get("custom_id", "?")).split(":")[:2])  # tb:do, tb:pick, …
        metrics.count_interaction("component", kind, outcome, time.perf_counter() - started)


def data_of(interaction: Interaction) -> dict[str, Any]:
    """The interaction's raw data as a plain mapping (its typed form is a union of payload shapes)."""
    return dict(interaction.data or {})


#: Seconds after an interaction was made by which it is acknowledged when its answer is not ready (Discord
#: refuses any first answer after 3 s: "Unknown interaction").  An answer with pictures still to upload later
#: than ``EARLY`` is deferred first, when in doubt.
BUDGET = 1.5
EARLY = 1.0


class Answer:
    """Acknowledges one interaction in time, however long its move takes to save and its pictures to draw.

    A watchdog defers the interaction ``BUDGET`` seconds after Discord made it, if nothing has answered it by
    then: a pressed control with an invisible deferral (its move then comes as the interaction's follow-up,
    a refusal privately), a typed command publicly once its move is saved (the telling replaces "thinking…"),
    privately before that or when the move is secret (the telling then goes to the thread), a private view
    privately.  ``settled`` is awaited before the first answer: it stops the watchdog, or waits for a deferral
    already on its way, so that ``is_done()`` never lies about an answer Discord has already taken."""

    def __init__(self, interaction: Interaction, *, private: bool = False, public: bool = False) -> None:
        self.interaction = interaction
        # saving → drawing (the move is committed); "private": a private answer; "public": a public one (a lobby)
        self.phase = "private" if private else "public" if public else "saving"
        self.secret = False  # a typed secret move: its answer stays private
        made = interaction.created_at.timestamp()
        self.began = time.monotonic() - min(2.0, max(0.0, time.time() - made))
        self._firing = False
        self._task = asyncio.ensure_future(self._watch())

    def age(self) -> float:
        return time.monotonic() - self.began

    async def _watch(self) -> None:
        await asyncio.sleep(max(0.0, BUDGET - self.age()))
        if not self.interaction.response.is_done():
            self._firing = True
            await self.defer()

    async def defer(self) -> None:
        interaction = self.interaction
        if interaction.response.is_done():
            return
        try:
            if self.phase == "private":
                await interaction.response.defer(ephemeral=True, thinking=True)
            elif interaction.type == discord.InteractionType.component:
                await interaction.response.defer()  # nothing shown: the move, or a refusal, follows
            elif self.phase == "public":
                await interaction.response.defer(thinking=True)
            elif self.phase == "saving" or self.secret:
                # Privately: whether the move will be refused is not known yet, and a refusal is never public.
                await interaction.response.defer(ephemeral=True, thinking=True)
                interaction.extras[PRIVATE_PLACEHOLDER] = True
            else:
                await interaction.response.defer(thinking=True)
        except discord.HTTPException as err:
            log.info("could not defer an interaction (%s)", err)

    async def settled(self, *, uploading: bool = False) -> None:
        """Before the first answer: the watchdog is stopped (a deferral under way is waited for); an answer with
        pictures to upload that is already late is deferred first."""
        if self._firing:
            with contextlib.suppress(Exception):
                await self._task
        else:
            self._task.cancel()
            if uploading and self.age() > EARLY:
                await self.defer()

    def cancel(self) -> None:
        if not self._firing:
            self._task.cancel()
