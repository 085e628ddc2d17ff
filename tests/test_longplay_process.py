"""Long games exactly as promised, through the real `python -m bot` on the loopback fake Discord, with the bot's
wall clock moved from outside by libfaketime (``time.time()`` only; asyncio keeps real time):

* a reminder and a run-out's "⌛ … ran out" line are each told exactly once through kill -9 at every point
  (the clock claimed and nothing posted yet; posted and not yet recorded; the strike counted and Tabula's move
  not made yet), the line before the move it explains, and the strike counted once;
* a seat is offered once, that one message is kept up to date as the strikes go on, and it is closed when its
  player is back (or taken with its button);
* a vacation ended early gives the clock back with the days, so days cannot be recycled; `days:0` with no
  vacation is a private refusal;
* `/game resume` pings whoever must act; `/game export` and `/game history` answer at once (deferred);
* an undo in The Heroes' Road says only that a secret choice was taken back."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from bot.claims import CLAIM_SECONDS
from tests.delivery_helpers import settled
from tests.fakediscord import FakeDiscord
from tests.longplay_helpers import MINUTE, Table, needs_libfaketime

pytestmark = needs_libfaketime
RAN_OUT = "clock ran out, so Tabula played for them"
STEPS = re.compile(r"^(?P<name>\S+) steps \d to square", re.M)
OFFER = "A seat is free"
#: Discord's 3 seconds, with room for a machine busy with other tests (what is deferred is checked as such).
LATE = 10.0


async def _quiet(table: Table, seconds: float = 2.5) -> None:
    """Let a few of the bot's sweeps (one a second) pass: whatever would repeat, repeats now."""
    await asyncio.sleep(seconds)
    assert table.bot is not None and table.bot.alive, await table.bot.stderr() if table.bot else ""


#: One game, its clock crossed again and again, the process killed at a different point each time: the
#: (phase, the point armed, the line it must leave exactly once).  "noticed": the clock's claim and its notice
#: committed, nothing posted; "notice-posted": Discord has the post, the outbox does not know yet; "ranout":
#: the strike and the line owed, Tabula's move for the absent player not made yet.  None: no kill.
PHASES = (("remind", "noticed"), ("ranout", "notice-posted"), ("remind", "notice-posted"), ("ranout", "ranout"),
          ("remind", None), ("ranout", "noticed"))


async def test_a_kill_9_while_the_clock_tells_loses_no_line_and_repeats_none(tmp_path: Path) -> None:
    async with FakeDiscord(interaction_deadline=LATE) as fake:
        table = Table(tmp_path, fake)
        try:
            await table.start()
            game_id, thread = await table.new_game(clock="1h", policy="tabula", seed=7)
            names = {int(u): str(n) for u, n in table.sql("SELECT user_id, name FROM seat WHERE game_id = ?", game_id)}
            reminded: list[int] = []
            ran_out: list[str] = []
            for phase, point in PHASES:
                absent = int(table.to_act(thread)["id"])
                if point is not None:
                    armed = await table.start(TABULA_TEST_CRASH=f"{point}:1")
                table.wall.advance(31 * MINUTE if phase == "remind" else 30 * MINUTE)
                if point is not None:
                    await table.until(lambda armed=armed: not armed.alive, alive=False)  # killed at the point
                    await table.start()
                    if point == "ranout":
                        # The run-out is done again by the sweep that claims the game once the dead process's
                        # claim has run out (bot/claims.py): the strike and the line it owed are found, not
                        # written twice.
                        table.wall.advance(CLAIM_SECONDS + 1)
                if phase == "remind":
                    reminded.append(absent)
                    await table.until(lambda: len(table.said(thread, "a reminder")) >= len(reminded))
                else:
                    ran_out.append(names[absent])
                    await table.until(lambda: len(table.said(thread, RAN_OUT)) >= len(ran_out))
                    await table.until(lambda absent=absent: int(table.to_act(thread)["id"]) != absent)
                await _quiet(table)
                reminders = table.said(thread, "a reminder")
                assert [m.pings.users for m in reminders] == [{u} for u in reminded], (phase, point)
                lines = table.said(thread, RAN_OUT)
                assert [m.content.split("'s clock")[0].split()[-1] for m in lines] == ran_out, (phase, point)
            # Each run-out's line comes just before the move it explains; each strike is counted once; every
            # move the database holds is told exactly once, with one live prompt.
            messages = fake.messages(thread)
            for i, message in enumerate(messages):
                if RAN_OUT in message.content:
                    name = message.content.split("'s clock")[0].split()[-1]
                    moved = next(m for m in messages[i + 1:] if STEPS.search(m.content))
                    assert STEPS.search(moved.content)["name"] == name  # type: ignore[index]
            strikes = {str(n): int(k) for n, k in table.sql("SELECT name, strikes FROM seat WHERE game_id = ?",
                                                             game_id)}
            assert strikes == {n: ran_out.count(n) for n in names.values()}
            audit = await settled(fake, table.db)
            assert not audit.problems and audit.owed == 0, audit
            assert table.sql("SELECT COUNT(*) FROM outbox_notice WHERE delivered_at IS NULL") == [(0,)]
        finally:
            table.stop()
