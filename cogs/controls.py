"""The cog of the move path: it registers the persistent controls (``cogs.components``) when it loads, tells
what the outbox owes through them, and tells the moves Tabula makes on a timer (the
client's ``moment_tellers``), so the client imports no cog."""

from __future__ import annotations

from typing import Any

from discord.ext import commands

from bot.delivery.outbox import Owed
from bot.front.client import TabulaBot
from bot.service.moment import GameMoment
from cogs.components import (
    DoButton,
    LegacyButton,
    LegacySelect,
    PickSelect,
    ViewButton,
    run_of,
    send_telling,
    tell_owed,
    tell_run,
)
from rules.i18n import using


class Controls(commands.Cog):
    """Registers the persistent controls, and posts the moves Tabula makes on a timer."""

    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(DoButton, PickSelect, ViewButton, LegacySelect, LegacyButton)
        bot: TabulaBot = self.bot

        async def teller(moment: GameMoment[Any], owed: Owed, superseded: bool) -> bool:
            return await tell_owed(bot, moment, owed, superseded)
        bot.outbox.teller = teller
        bot.moment_tellers.append(self.tell_moment)

    async def cog_unload(self) -> None:
        self.bot.moment_tellers.remove(self.tell_moment)
        self.bot.remove_dynamic_items(DoButton, PickSelect, ViewButton, LegacySelect, LegacyButton)

    async def tell_moment(self, moment: GameMoment[Any]) -> None:
        """A move made by Tabula itself (a turn timeout): tell it in the game's thread."""
        if moment.thread_id is None:
            return
        bot: TabulaBot = self.bot
        claimed = bot.outbox.claim(moment)
        try:
            channel: Any = self.bot.get_channel(moment.thread_id) or await self.bot.fetch_channel(moment.thread_id)
            run = run_of(moment)
            await send_telling(bot, channel, run[-1], await tell_run(run), since=moment.version)
        finally:
            bot.outbox.release(claimed)
        last = moment.followups[-1] if moment.followups else moment
        with using(moment.language):
            outcome = last.outcome
        if outcome is not None:
            self.bot.dispatch("tabula_finished", moment.game_id, f"🏆 {outcome.summary}")


async def setup(bot: TabulaBot) -> None:
    await bot.add_cog(Controls(bot))

