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
import json
import re
from pathlib import Path

import pytest

from bot.longplay.clock import STRIKES_TO_OFFER
from bot.store.claims import CLAIM_SECONDS
from tests.delivery_helpers import settled
from tests.fakediscord import InteractionReply, StoredMessage
from tests.longplay_helpers import DAY, HOUR, MINUTE, Table, needs_libfaketime, opened

pytestmark = needs_libfaketime
RAN_OUT = "clock ran out, so Tabula played for them"
STEPS = re.compile(r"^(?P<name>\S+) steps \d to square", re.M)
OFFER = "A seat is free"
#: Real seconds that pass between two commands while the bot's clock is moved (a busy machine included).
SLACK = 120.0


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


@pytest.mark.slow
async def test_a_kill_9_while_the_clock_tells_loses_no_line_and_repeats_none(tmp_path: Path) -> None:
    async with opened(tmp_path) as table:
        fake = table.fake
        game_id, thread = await table.new_game(clock="1h", policy="tabula", seed=7)
        names = {int(u): str(n) for u, n in table.sql("SELECT user_id, name FROM seat WHERE game_id = ?", game_id)}
        reminded: list[int] = []
        ran_out: list[str] = []
        await table.prepare(TABULA_TEST_CRASH=f"{PHASES[0][1]}:1")
        for i, (phase, point) in enumerate(PHASES):
            absent = int(table.to_act(thread)["id"])
            if point is not None:
                armed = await table.start(TABULA_TEST_CRASH=f"{point}:1")
                await table.prepare()  # the process that takes over, its imports done meanwhile
            await table.wall.advance(31 * MINUTE if phase == "remind" else 30 * MINUTE)
            if point is not None:
                await table.until(lambda armed=armed: not armed.alive, alive=False)  # killed at the point
                await table.start()
                later = next((p for _, p in PHASES[i + 1:] if p is not None), None)
                if later is not None:
                    await table.prepare(TABULA_TEST_CRASH=f"{later}:1")
                if point == "ranout":
                    # The run-out is done again by the sweep that claims the game once the dead process's
                    # claim has run out (bot/store/claims.py): the strike and the line it owed are found, not
                    # written twice.
                    await table.wall.advance(CLAIM_SECONDS + 1)
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


@pytest.mark.slow
async def test_a_seat_is_offered_once_kept_up_to_date_then_closed_or_taken(tmp_path: Path) -> None:
    async with opened(tmp_path) as table:
        fake = table.fake
        game_id, thread = await table.new_game(clock="1h", policy="tabula", seed=4)  # (lasts 11 run-outs)
        seats = {int(u): (int(s), str(n)) for s, u, n in table.sql("SELECT seat, user_id, name FROM seat WHERE "
                                                                    "game_id = ?", game_id)}

        def offers() -> list[StoredMessage]:
            return table.said(fake.channel_id, OFFER)

        for n in range(1, 2 * STRIKES_TO_OFFER + 3):  # both seats absent: 4 strikes in a row each
            await table.wall.advance(HOUR + MINUTE)
            await table.until(lambda n=n: len(table.said(thread, RAN_OUT)) == n)
            offered = 0 if n < 2 * STRIKES_TO_OFFER - 1 else 1 if n == 2 * STRIKES_TO_OFFER - 1 else 2
            await table.until(lambda offered=offered: len(offers()) >= offered)
            await _quiet(table, 1.5)
            assert len(offers()) == offered, [m.content for m in offers()]  # one per seat, never another
        # the one message per seat, kept up to date (its edit may trail the run-out's line on a busy machine)
        await table.until(lambda: all("4 times in a row" in m.content for m in offers()))
        for message in offers():
            assert "3 times in a row" in (message.history[0].get("content") or "")  # as it was first posted
        # Whoever's turn it is now comes back: their offer is closed (no button left); the other seat's
        # offer is taken with its button by Carol.
        back = table.to_act(thread)
        seat, name = seats[int(back["id"])]
        await table.step(thread)
        mine = next(m for m in offers() if m.custom_ids == [f"tb:take:{game_id}:{seat}"] or
                    f"{name} is back" in m.content)
        await table.until(lambda: "is back" in fake.message(mine.id).content)
        assert fake.message(mine.id).custom_ids == [] and f"{name} is back" in fake.message(mine.id).content
        other = next(m for m in offers() if m.id != mine.id)
        take = next(c for c in other.custom_ids if c.startswith("tb:take:"))
        await table.ask(fake.component(fake.carol, other, take))
        assert "took seat" in fake.message(other.id).content and fake.message(other.id).custom_ids == []
        await table.until(lambda: int(fake.carol["id"]) in fake.thread(thread).member_ids)  # let into the thread
        # Two offers were ever posted in the lobby's channel, one per seat: every 🪑 line is one of them.
        assert {m.id for m in fake.messages(fake.channel_id) if "🪑" in m.content} == {mine.id, other.id}
        assert table.sql("SELECT COUNT(*) FROM outbox_notice WHERE delivered_at IS NULL") == [(0,)]


@pytest.mark.slow
async def test_a_vacation_ended_early_gives_the_clock_back_with_the_days(tmp_path: Path) -> None:
    async with opened(tmp_path) as table:
        fake = table.fake
        game_id, thread = await table.new_game(clock="24h", policy="tabula", seed=3)
        away = table.to_act(thread)
        start = table.deadline(game_id)
        assert start is not None

        async def vacation(days: float) -> InteractionReply:
            return await table.ask(fake.slash(away, thread, "game", {"days": days}, subcommand="vacation"))

        gone = await vacation(1)
        assert not gone.ephemeral and "on vacation until" in gone.content
        assert table.deadline(game_id) == start + DAY
        await table.wall.advance(2 * HOUR)
        back = await vacation(0)
        assert not back.ephemeral and "back from vacation" in back.content
        after = table.deadline(game_id)
        assert after is not None and start + 2 * HOUR <= after < start + 2 * HOUR + SLACK  # two hours used
        posted = len(fake.messages(thread))
        again = await vacation(0)  # nothing to end: a private answer, nothing in the thread
        assert again.ephemeral and "not on vacation" in again.content and len(fake.messages(thread)) == posted
        for _ in range(2):  # the allowance cannot be recycled to push the clock out
            await vacation(13)
            await vacation(0)
        recycled = table.deadline(game_id)
        assert recycled is not None and after <= recycled < after + SLACK
        # The clock runs out when it now says, not a day later.
        await table.wall.advance(recycled - table.wall.now() - 10 * MINUTE)
        await _quiet(table)
        assert not table.said(thread, RAN_OUT)
        await table.wall.advance(11 * MINUTE)
        await table.until(lambda: len(table.said(thread, RAN_OUT)) == 1)


@pytest.mark.slow
async def test_resume_pings_whoever_must_act_and_export_and_history_answer_at_once(tmp_path: Path) -> None:
    async with opened(tmp_path) as table:
        fake = table.fake
        game_id, thread = await table.new_game(clock="1h", policy="pause", seed=3)
        absent = table.to_act(thread)
        await table.wall.advance(HOUR + MINUTE)
        await table.until(lambda: bool(table.said(thread, "waits for")))
        resumed = await table.ask(fake.slash(fake.alice, thread, "game", {}, subcommand="resume"))
        assert not resumed.ephemeral and "running again" in resumed.content
        assert f"<@{absent['id']}>" in resumed.content and resumed.original is not None
        assert resumed.original.pings.users == {int(absent["id"])}  # the player to act is pinged
        for _ in range(4):
            await table.ask(fake.slash(table.to_act(thread), thread, "roll", {"expr": "2d6"}))
        while table.sql("SELECT status FROM game WHERE id = ?", game_id) == [("active",)]:
            await table.step(thread)
        entries = table.sql("SELECT COUNT(*) FROM action WHERE game_id = ?", game_id)[0][0] - 1
        exported = await table.ask(fake.slash(fake.bob, fake.channel, "game", {"game": game_id},
                                              subcommand="export"))
        assert exported.callback_type == 5  # "thinking…" at once: the file follows
        assert exported.original is not None
        await table.until(lambda: not fake.message(exported.original.id).loading)  # type: ignore[union-attr]
        answer = fake.message(exported.original.id)
        assert answer.ephemeral and f"({entries} entries after the start)" in answer.content
        [attachment] = answer.attachments
        assert json.loads(attachment.data)["game"]["complete"] is True
        history = await table.ask(fake.slash(fake.bob, fake.channel, "game", {"game": game_id},
                                             subcommand="history"))
        assert history.callback_type == 5 and history.original is not None
        await table.until(lambda: not fake.message(history.original.id).loading)  # type: ignore[union-attr]
        assert "history" in fake.message(history.original.id).content


@pytest.mark.slow
async def test_an_undo_in_the_heroes_road_keeps_the_secret_row_secret(tmp_path: Path) -> None:
    async with opened(tmp_path) as table:
        fake = table.fake
        game_id, thread = await table.new_game("eiyu", tabula=True, seed=3)
        asked: set[int] = set()
        for city in (1, 9):  # each person picks a city from the public menu when pinged, in seat order
            # a prompt that pings someone not asked yet (on a busy machine the press is answered before it comes)
            await table.until(lambda: bool(set(fake.messages(thread)[-1].pings.users) - asked))
            prompt = fake.messages(thread)[-1]
            [who] = prompt.pings.users
            asked.add(who)
            menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
            value = next(o["value"] for o in prompt.component(menu)["options"]
                         if o["value"].endswith(f"city={city}"))
            await table.ask(fake.component(table.person(who), prompt, menu, component_type=3, values=[value]))
        await table.until(lambda: bool(table.said(thread, "Year 1** begins")))
        posted = len(fake.messages(thread))
        [(before,)] = table.sql("SELECT state FROM game WHERE id = ?", game_id)
        chosen = await table.ask(fake.slash(fake.alice, thread, "program", {"slot": 2, "order": "blue"}))
        assert chosen.ephemeral  # a secret choice typed as a command is answered privately
        undone = await table.ask(fake.slash(fake.alice, thread, "game", {}, subcommand="undo"))
        assert undone.original is not None
        await table.until(lambda: not fake.message(undone.original.id).loading)  # type: ignore[union-attr]
        line = fake.message(undone.original.id).content
        assert "took back a secret choice" in line
        public = "\n".join(m.content for m in fake.messages(thread)[posted:])
        assert "blue" not in public.lower()  # nothing of the row is told
        assert table.sql("SELECT state FROM game WHERE id = ?", game_id) == [(before,)]  # and it is taken back


@pytest.mark.slow
async def test_a_kill_9_right_after_an_undo_is_saved_still_tells_it_once(tmp_path: Path) -> None:
    """An undo is owed to the thread from the transaction that saves it, as a move is: a process killed before
    it answers leaves it owed, and the next process tells it (once, naming the move as its telling did)."""
    async with opened(tmp_path) as table:
        fake = table.fake
        armed = await table.start(TABULA_TEST_CRASH="undone:1")
        await table.prepare()  # the process that takes over, its imports done meanwhile
        game_id, thread = await table.new_game(seed=5)
        mover = table.to_act(thread)
        await table.step(thread, mover)
        await table.until(lambda: bool(STEPS.search(fake.messages(thread)[-1].content)))
        pressed = asyncio.ensure_future(fake.interact(fake.slash(mover, thread, "game", {}, subcommand="undo"),
                                                      timeout=30, quiet=0.1))
        await table.until(lambda: not armed.alive, alive=False)  # killed once the undo was committed
        pressed.cancel()
        await asyncio.gather(pressed, return_exceptions=True)
        assert not table.said(thread, "took back")  # nothing was posted of it before the kill
        [(kind,)] = table.sql("SELECT action FROM action WHERE game_id = ? ORDER BY seq DESC LIMIT 1", game_id)
        assert json.loads(kind)["type"] == "tabula.undo"  # and yet it is saved
        await table.start()
        await table.until(lambda: bool(table.said(thread, "took back their move")))
        await _quiet(table)
        [told] = table.said(thread, "took back")
        assert "took back their move (1 step → square 1)" in told.content  # named as its telling named it
        assert table.prompt(thread) is not None  # the game goes on from the prompt the undo's telling carries
        audit = await settled(fake, table.db)
        assert not audit.problems and audit.owed == 0, audit
