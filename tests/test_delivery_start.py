"""A Start cut short at any step is finished when the bot comes back: the real `python -m bot` kills itself
(SIGKILL) right after the start's commit, right after Discord made the thread (before its id is saved), right
after a member is added, and right after the first post was accepted; the next process finds the thread (a
thread made from the lobby message shares its id), adds the players, posts the board once, takes the lobby's
buttons away, and the game is played in its thread."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.delivery_helpers import Bot, press, prompt_of, rows, settled, user_for
from tests.fakediscord import FakeDiscord

STEPS = ("started", "thread", "members", "posted")


@pytest.mark.slow
@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
async def test_a_start_killed_at_each_step_is_finished_at_the_next_start_up(tmp_path: Path, private: bool) -> None:
    db = tmp_path / "bot.db"
    async with FakeDiscord() as fake:
        spares = [await Bot.spawn(db, fake, TABULA_TEST_CRASH=f"{step}:1") for step in STEPS]
        started = list(spares)
        try:
            for number, (step, bot) in enumerate(zip(STEPS, spares, strict=True), start=1):
                await bot.open(fake)
                following = await Bot.spawn(db, fake)  # the clean process that comes back
                started.append(following)
                options = {"game": "race", "private": True} if private else {"game": "race"}
                assert await press(fake, bot, fake.slash(fake.alice, fake.channel, "game", options, subcommand="new"))
                lobby = fake.messages(fake.channel)[-1]
                assert await press(fake, bot, fake.component(fake.bob, lobby, next(c for c in lobby.custom_ids
                                                                                   if c.endswith(":join"))))
                await press(fake, bot, fake.component(fake.alice, fake.message(lobby.id),
                                                      next(c for c in lobby.custom_ids if c.endswith(":start"))))
                await bot.gone(fake)
                assert bot.proc.returncode == -9, f"{step}: {await bot.stderr()}"
                assert rows(db, "SELECT status FROM game WHERE id = ?", number) == [("active",)]
                await following.open(fake)
                found = await settled(fake, db)
                assert not found.problems and found.owed == 0, (step, found)
                [(thread,)] = rows(db, "SELECT thread_id FROM game WHERE id = ?", number)
                assert thread is not None
                members = fake.thread(thread).member_ids
                assert {int(fake.alice["id"]), int(fake.bob["id"])} <= members, step
                assert sum("begins!" in m.content for m in fake.messages(thread)) == 1, step
                assert not fake.message(lobby.id).custom_ids, f"{step}: the lobby kept its buttons"
                # The game is played in its thread: commands there find it, and the prompt moves it on.
                status = await fake.interact(fake.slash(fake.bob, thread, "game", {}, subcommand="status"))
                assert "works inside a game's thread" not in str(status.data)
                prompt = prompt_of(fake, thread)
                assert prompt is not None
                user = user_for(fake, prompt)
                assert user is not None
                menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
                assert await press(fake, following, fake.component(user, prompt, menu, component_type=3,
                                                                   values=[prompt.component(menu)["options"][0]["value"]]))
                assert not (await settled(fake, db)).problems
                following.kill()
                await following.gone(fake)
            threads = fake.threads()
            assert len(threads) == len(STEPS)  # one thread a game: a second try never made another
            for t in threads:
                assert (t.payload["type"] == 12) is private
        finally:  # a failed step leaves no process behind (a spare would wait at its gate for ever)
            for later in started:
                later.kill()
        await asyncio.sleep(0)
