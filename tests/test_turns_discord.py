"""Turns on Discord through the real `python -m bot` (issue 27, and issue 29's late answers):

* every game, played as people play by its controls: a ping only when the turn passes to you (once), nobody
  pinged who need not act, nobody still choosing pinged again, and Tabula never plays a present person's seat;
* Tabula's seats and people acting at the same time, with the timeout sweep running twice a second: no turn
  timeout ever fires for a person with time left (``TABULA_TURNS_RUNS`` runs; CI runs 8, 200 were run by hand);
* pictures drawn slowly on purpose (``TABULA_TEST_SLOW_PICTURES``), and the database held by another process
  for 2.5 s: every interaction is still acknowledged within Discord's 3 s, once, and the move is told by
  the press itself.

The figures per decision (pings, public messages, bot-token requests) of whole games are printed by
``python -m bot.bench --turns``."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.delivery_helpers import Bot
from tests.fakediscord import FakeDiscord
from tests.turns_helpers import Table, people_of, rows, whole_game

#: (label, game, options, people, Tabula seats): every game, with Tabula seats beside people where it fits
TABLES = [("legend", "legend", {}, 2, 1), ("champion", "champion", {"opponents": "bot"}, 2, 1),
          ("eiyu", "eiyu", {"short": True}, 2, 1), ("autokrator", "autokrator", {"mode": "east"}, 2, 0),
          ("autokrator-4", "autokrator", {"mode": "full"}, 3, 1)]


@contextlib.asynccontextmanager
async def running(tmp_path: Path, **env: str) -> AsyncIterator[tuple[FakeDiscord, Path, list[dict[str, Any]]]]:
    async with FakeDiscord() as fake:
        people = people_of(fake, 4)
        bot = await Bot.start(tmp_path / "bot.db", fake, TABULA_GAMES="", TIMEOUT_POLL_SECONDS="0.5", **env)
        try:
            yield fake, tmp_path / "bot.db", people
        finally:
            bot.kill()
            await bot.gone(fake)


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES, ids=[t[0] for t in TABLES])
async def test_pings_follow_the_turn_in_every_game(tmp_path: Path, table: tuple[Any, ...]) -> None:
    label, key, options, people, tabulas = table
    async with running(tmp_path) as (fake, db, folk):
        count = await whole_game(fake, db, key, options, folk[:people], tabulas, seed=3, label=label, most=32)
    assert not count.problems, "\n".join(count.problems)
    assert count.decisions >= 15 and count.pings >= 1
    assert count.seats_taken == 0 and count.late == 0


@pytest.mark.slow
async def test_tabula_never_takes_the_seat_of_a_person_who_is_there(tmp_path: Path) -> None:
    runs = int(os.environ.get("TABULA_TURNS_RUNS", "8"))
    # people and Tabula's seats act at once in these
    simultaneous = [("champion", "champion", {"opponents": "bot"}, 2, 1), ("eiyu", "eiyu", {"short": True}, 2, 1),
                    ("autokrator", "autokrator", {"mode": "east"}, 1, 1),
                    ("autokrator-4", "autokrator", {"mode": "full"}, 3, 1)]
    taken: list[str] = []
    async with running(tmp_path) as (fake, db, folk):
        for run in range(runs):
            label, key, options, people, tabulas = simultaneous[run % len(simultaneous)]
            table = Table(fake, db, folk[:people], f"{label} #{run}", run)
            await table.open(key, {"seed": run, **options}, tabulas)
            for _ in range(3):
                await asyncio.sleep(0.6)  # a sweep of the timeouts passes between presses, as a slow player's
                if not await table.move():
                    break
            await asyncio.sleep(0.6)
            humans = set(table.users)
            for seq, seat in rows(db, "SELECT seq, seat FROM action WHERE game_id = ? AND user_id = 0",
                                  table.game_id):
                if seat is not None and int(seat) in humans:
                    taken.append(f"{table.count.label}: Tabula played seat {seat} at v{seq}")
            taken += [p for p in table.count.problems if "Tabula played" in p]
    assert not taken, "\n".join(taken)


@pytest.mark.slow
async def test_every_answer_is_in_time_however_slowly_pictures_are_drawn(tmp_path: Path) -> None:
    async with running(tmp_path, TABULA_TEST_SLOW_PICTURES="1.8") as (fake, db, folk):
        late: list[str] = []
        for label, key, options, people, tabulas in TABLES[:4]:
            count = await whole_game(fake, db, key, options, folk[:people], tabulas, seed=5, label=label, most=3)
            assert count.presses >= 2, count.problems
            assert count.slowest > 1.0  # drawing was slow indeed: the first answer was a deferral
            late += [p for p in count.problems if "answered" in p or "no answer" in p]
    assert not late, "\n".join(late)


@pytest.mark.slow
async def test_a_move_held_up_by_the_database_is_deferred_once_and_told_by_its_press(tmp_path: Path) -> None:
    async with running(tmp_path) as (fake, db, folk):
        table = Table(fake, db, folk[:2], "legend", 1)
        await table.open("legend", {"seed": 1}, 0)
        before = len(fake.messages(table.thread_id))
        holder = sqlite3.connect(db, timeout=30, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process holds the database for 2.5 s

        async def release() -> None:
            await asyncio.sleep(2.5)
            holder.execute("COMMIT")
            holder.close()
        releasing = asyncio.ensure_future(release())  # (kept: the hold ends while the press waits)
        prompt = fake.messages(table.thread_id)[-1]
        menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
        value = prompt.component(menu)["options"][0]["value"]
        user = next(p for p in folk if int(p["id"]) in prompt.pings.users)
        version = rows(db, "SELECT version FROM game WHERE id = ?", table.game_id)[0][0]
        start = len(fake.requests)

        def busy() -> bool:  # until the move is committed and told
            return rows(db, "SELECT version FROM game WHERE id = ?", table.game_id)[0][0] == version or table.owed()
        reply = await fake.interact(fake.component(user, prompt, menu, component_type=3, values=[value]),
                                    timeout=20, quiet=0.3, busy=busy)
        record = fake.interactions[reply.token]
        callbacks = [r for r in fake.requests[start:] if r.path.endswith("/callback")]
        assert len(callbacks) == 1 and callbacks[0].status in (200, 204), callbacks  # no 40060, no 10062
        assert callbacks[0].at - record.dispatched_at < 3.0
        assert rows(db, "SELECT version FROM game WHERE id = ?", table.game_id)[0][0] > version, reply.content
        assert len(fake.messages(table.thread_id)) > before, fake.requests[start:]  # told by the press itself
        assert value.split("=")[-1] in fake.messages(table.thread_id)[-1].content
        await releasing
        assert rows(db, "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")[0][0] == 0


@pytest.mark.slow
async def test_the_last_person_leaving_is_answered_at_once_and_tabula_plays_on_in_one_message(tmp_path: Path
                                                                                             ) -> None:
    async with running(tmp_path) as (fake, db, folk):
        table = Table(fake, db, folk[:1], "eiyu", 2)
        await table.open("eiyu", {"seed": 2, "short": True}, 1)
        assert await table.move()
        before = len(fake.messages(table.thread_id))
        thread = fake.thread(table.thread_id)
        start = len(fake.requests)
        reply = await fake.interact(fake.slash(folk[0], thread.payload, "game", {}, subcommand="leave"),
                                    timeout=10, quiet=0.1)
        record = fake.interactions[reply.token]
        callback = next(r for r in fake.requests[start:] if r.path.endswith("/callback"))
        assert callback.status in (200, 204) and callback.at - record.dispatched_at < 3.0
        assert "Tabula plays their seat" in reply.content
        for _ in range(600):  # Tabula plays the rest of the game in the background
            if rows(db, "SELECT status FROM game WHERE id = ?", table.game_id)[0][0] == "finished" \
                    and not table.owed():
                break
            await asyncio.sleep(0.1)
        posted = fake.messages(table.thread_id)[before:]
        assert rows(db, "SELECT status FROM game WHERE id = ?", table.game_id)[0][0] == "finished"
        assert "🏆" in posted[-1].content
        assert len(posted) <= 3, [m.content[:60] for m in posted]  # the answer and Tabula's run, told as one


@pytest.mark.slow
async def test_the_first_command_after_a_start_is_answered_in_time(tmp_path: Path) -> None:
    """Nothing done at start-up (the picture folder's preparation) holds up an interaction: `/game new` sent
    the moment the bot is ready is answered within Discord's 3 s, with an empty picture folder."""
    async with FakeDiscord() as fake:
        people = people_of(fake, 2)
        bot = await Bot.start(tmp_path / "bot.db", fake, TABULA_GAMES="", PICTURE_CACHE_DIR=str(tmp_path / "new"))
        try:
            reply = await fake.interact(fake.slash(people[0], fake.channel, "game", {"game": "autokrator"},
                                                   subcommand="new"), timeout=10)
            record = fake.interactions[reply.token]
            callback = next(r for r in reply.requests if r.path.endswith("/callback"))
            assert callback.status in (200, 204) and callback.at - record.dispatched_at < 3.0
            assert "Autokrator" in str(fake.messages(fake.channel)[-1].embeds)
        finally:
            bot.kill()
            await bot.gone(fake)
