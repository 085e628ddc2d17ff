"""Every committed move reaches its thread exactly once, through kill -9s of the real `python -m bot`.

Race to Ten (tests/plugins/race) stands in for any game.  The process is killed from outside at random moments
and kills itself (SIGKILL, no cleanup) at aimed points: right after a move's commit, right after Discord
accepted a post (before the bookkeeping), and at every step of a Start (after its commit, after the thread is
made, after a member is added).  After every restart the threads are checked against the database: no move
committed but not told, none told twice, exactly one prompt with live controls per running game, and every
game plays on to its end."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

from tests.delivery_helpers import Bot, audit, live_prompts, press, prompt_of, rows, settled, user_for
from tests.fakediscord import FakeDiscord

KILLS = 26  # the issue asks for at least 25
AIMED = ("commit:0.35", "posted:0.35", "started:1", "thread:1", "members:0.5")


async def _new_game(fake: FakeDiscord, bot: Bot, host: dict[str, Any], *, guest: dict[str, Any] | None) -> bool:
    """/game new race, a second seat (a person or Tabula), Start."""
    before = len(fake.messages(fake.channel))
    if not await press(fake, bot, fake.slash(host, fake.channel, "game", {"game": "race"}, subcommand="new")):
        return False
    lobby = next((m for m in fake.messages(fake.channel)[before:] if m.embeds and "lobby" in m.embeds[0]["title"]),
                 None)
    if lobby is None:
        return False
    join = next(c for c in lobby.custom_ids if c.endswith(":join" if guest else ":bot"))
    if not await press(fake, bot, fake.component(guest or host, fake.message(lobby.id), join)):
        return False
    start = next(c for c in lobby.custom_ids if c.endswith(":start"))
    return await press(fake, bot, fake.component(host, fake.message(lobby.id), start))


async def _move(fake: FakeDiscord, bot: Bot, thread_id: int, rng: random.Random) -> bool | None:
    """Press the thread's live prompt for whoever it pings (None: the game is over or waits for Tabula)."""
    prompt = prompt_of(fake, thread_id)
    if prompt is None:
        return None
    user = user_for(fake, prompt)
    if user is None:
        return None
    menu = next(c for c in prompt.custom_ids if c.startswith("tb:pick:"))
    options = prompt.component(menu)["options"]
    value = rng.choice(options)["value"]
    return await press(fake, bot, fake.component(user, prompt, menu, component_type=3, values=[value]))


def _threads(db: Path) -> list[int]:
    return [int(t) for (t,) in rows(db, "SELECT thread_id FROM game WHERE status = 'active' AND thread_id IS NOT NULL")]


async def test_kill_9_at_random_and_after_commits_loses_and_doubles_no_telling(tmp_path: Path) -> None:
    db = tmp_path / "bot.db"
    rng = random.Random(13)
    began = time.monotonic()
    kills = aimed = outside = restarts = 0
    worst = None
    async with FakeDiscord() as fake:
        people = [fake.alice, fake.bob, fake.carol]
        bot = await Bot.start(db, fake)
        while kills < KILLS:
            # Aimed kills: each run of the process has one or two crash points armed, at random.
            if not bot.alive:
                await bot.gone(fake)
                restarts += 1
                armed = ",".join(rng.sample(AIMED, k=rng.choice((1, 2)))) if kills < KILLS - 1 else ""
                bot = await Bot.start(db, fake, TABULA_TEST_CRASH=armed)
                found = await settled(fake, db, alive=lambda b=bot: b.alive)
                if not bot.alive:  # an armed point fired while it told what was owed: that is a kill too
                    kills += 1
                    aimed += 1
                    continue
                assert not found.problems and found.owed == 0, (found, bot.log)
            fired: list[float] = []

            def outside_kill(victim: Bot = bot, fired: list[float] = fired) -> None:
                fired.append(time.monotonic())
                victim.kill()
            kill_after = rng.uniform(0.05, 1.5) if rng.random() < 0.4 else None  # outside kill -9, at random
            killer = asyncio.get_running_loop().call_later(kill_after, outside_kill) if kill_after else None
            try:
                for _ in range(6):
                    if not bot.alive:
                        break
                    threads = _threads(db)
                    if len(threads) < 3 or rng.random() < 0.15:
                        host = rng.choice(people)
                        guest = rng.choice([None, *[p for p in people if p is not host]])
                        await _new_game(fake, bot, host, guest=guest)
                    elif threads:
                        await _move(fake, bot, rng.choice(threads), rng)
            finally:
                if killer is not None:
                    killer.cancel()
            if bot.alive:  # nothing armed fired: kill it from outside now
                bot.kill()
                outside += 1
            elif fired:
                outside += 1
            else:
                aimed += 1  # it killed itself at an armed crash point
            kills += 1
            await bot.gone(fake)
        # A last clean run: everything owed is told, and every game plays on to its end.
        bot = await Bot.start(db, fake)
        worst = await settled(fake, db, timeout=20)
        assert not worst.problems and worst.owed == 0, worst
        for _ in range(200):
            threads = _threads(db)
            if not threads:
                break
            for thread in threads:
                await _move(fake, bot, thread, rng)
            await asyncio.sleep(0.05)
        final = await settled(fake, db)
        bot.proc.terminate()
        err = await bot.stderr()
        await bot.proc.wait()
    assert bot.proc.returncode == 0, err
    assert "Traceback" not in err, err
    assert not final.problems and final.owed == 0, final
    assert rows(db, "SELECT COUNT(*) FROM game WHERE status = 'active'")[0][0] == 0  # every game ended
    finished = rows(db, "SELECT COUNT(*) FROM game WHERE status = 'finished'")[0][0]
    assert finished == final.games and finished >= 3
    for (thread,) in rows(db, "SELECT thread_id FROM game"):
        if thread is not None:
            assert not live_prompts(fake, int(thread))
    assert aimed + outside == kills >= 25
    print(f"\n{kills} kill -9s ({aimed} aimed at a crash point, {outside} from outside) and {restarts} restarts "
          f"in {time.monotonic() - began:.0f} s: {final.games} games, {final.moves} moves committed, "
          f"{final.untold} committed but not told, {final.twice} told twice, {final.stale} stale prompts live; "
          f"{fake.nonce_hits} resends returned by their nonce")
    assert audit(fake, db).untold == 0
