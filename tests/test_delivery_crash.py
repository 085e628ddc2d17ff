"""Every committed move reaches its thread exactly once, through kill -9s of the real `python -m bot`.

Race to Ten (tests/plugins/race) stands in for any game.  The process is killed from outside at random moments
and kills itself (SIGKILL, no cleanup) at aimed points: right after a move's commit, right after Discord
accepted a post (before the bookkeeping), right after an old prompt was listed for retiring (before its edit),
and at every step of a Start (after its commit, after the thread is
made, after a member is added).  After every restart the threads are checked against the database: no move
committed but not told, none told twice, exactly one prompt with live controls per running game, and every
game plays on to its end."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.delivery_helpers import Audit, Bot, live_prompts, press, prompt_of, rows, settled, user_for
from tests.fakediscord import FakeDiscord

KILLS = 26  # the issue asks for at least 25
LANES = 2  # side by side (each its own fake Discord and database): a restart is mostly waiting
AIMED = ("commit:0.35", "posted:0.35", "swapped:0.3", "started:1", "thread:1", "members:0.5")


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


@dataclass
class Lane:
    kills: int = 0
    aimed: int = 0
    outside: int = 0
    restarts: int = 0
    retiring: int = 0
    nonce_hits: int = 0
    final: Audit | None = None


async def _lane(home: Path, seed: int, wanted: int) -> Lane:
    """One fake Discord, one database, one bot restarted after each of ``wanted`` kills, then played out."""
    home.mkdir()
    db = home / "bot.db"
    rng = random.Random(seed)
    lane = Lane()
    spawned: list[Bot] = []
    try:
        async with FakeDiscord() as fake:
            await _play_lane(home, db, fake, rng, lane, wanted, spawned)
    finally:  # a failed lane leaves no process behind
        for left in spawned:
            left.kill()
    return lane


async def _play_lane(home: Path, db: Path, fake: FakeDiscord, rng: random.Random, lane: Lane, wanted: int,
                     spawned: list[Bot]) -> None:
    people = [fake.alice, fake.bob, fake.carol]
    bot = await Bot.start(db, fake)
    spawned.append(bot)

    async def spare() -> Bot:
        """The next process, its imports done ahead: one or two crash points armed, or none for the clean run that
        ends the lane (when the process it follows is the last to be killed)."""
        armed = ",".join(rng.sample(AIMED, k=rng.choice((1, 2)))) if lane.kills + 1 < wanted else ""
        made = await Bot.spawn(db, fake, TABULA_TEST_CRASH=armed)
        spawned.append(made)
        return made
    following = await spare()
    while lane.kills < wanted:
        if not bot.alive:
            await bot.gone(fake)
            lane.restarts += 1
            bot, following = following, await spare()
            await bot.open(fake)
            found = await settled(fake, db, alive=lambda b=bot: b.alive)
            if not bot.alive:  # an armed point fired while it told what was owed: that is a kill too
                lane.kills += 1
                lane.aimed += 1
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
            lane.outside += 1
        elif fired:
            lane.outside += 1
        else:
            lane.aimed += 1  # it killed itself at an armed crash point
        lane.kills += 1
        await bot.gone(fake)
    # A last clean run: everything owed is told, and every game plays on to its end.
    bot = following
    await bot.open(fake)
    worst = await settled(fake, db, timeout=20)
    assert not worst.problems and worst.owed == 0, worst
    for _ in range(200):
        threads = _threads(db)
        if not threads:
            break
        for thread in threads:
            await _move(fake, bot, thread, rng)
        await asyncio.sleep(0.05)
    lane.final = await settled(fake, db)
    bot.proc.terminate()
    await bot.proc.wait()
    edits = [r for r in fake.requests
             if r.method == "PATCH" and "/messages/" in r.path and isinstance(r.json, dict)]
    lane.retiring = sum(r.json.get("components") == [] for r in edits)
    assert all(r.json.get("allowed_mentions") == {"parse": []} for r in edits), \
        [r.json.get("allowed_mentions") for r in edits]
    lane.nonce_hits = fake.nonce_hits
    for game_id, thread, status in rows(db, "SELECT id, thread_id, status FROM game"):
        if thread is not None:
            live = live_prompts(fake, int(thread))
            assert not live, (game_id, status, [m.content for m in live], lane.final,
                              rows(db, "SELECT * FROM stale_prompt"), rows(db, "SELECT * FROM outbox"))
    err = await bot.stderr()
    assert bot.proc.returncode == 0, err
    for log in sorted(home.glob("bot-*.log")):  # killed or not, no process logged a traceback
        assert "Traceback" not in log.read_text(errors="replace"), log
    final = lane.final
    assert not final.problems and final.owed == 0, final
    assert rows(db, "SELECT COUNT(*) FROM game WHERE status = 'active'")[0][0] == 0  # every game ended
    finished = rows(db, "SELECT COUNT(*) FROM game WHERE status = 'finished'")[0][0]
    assert finished == final.games and finished >= 3
    assert lane.aimed + lane.outside == lane.kills


@pytest.mark.slow
async def test_kill_9_at_random_and_after_commits_loses_and_doubles_no_telling(tmp_path: Path) -> None:
    began = time.monotonic()
    lanes = await asyncio.gather(*(_lane(tmp_path / f"lane{i}", 13 + i, KILLS // LANES) for i in range(LANES)))
    kills = sum(lane.kills for lane in lanes)
    assert kills >= 25
    finals = [lane.final for lane in lanes if lane.final is not None]
    untold, twice, stale = (sum(getattr(f, k) for f in finals) for k in ("untold", "twice", "stale"))
    assert untold == twice == stale == 0
    assert sum(lane.retiring for lane in lanes) > 0
    print(f"\n{kills} kill -9s ({sum(lane.aimed for lane in lanes)} aimed at a crash point, "
          f"{sum(lane.outside for lane in lanes)} from outside) and {sum(lane.restarts for lane in lanes)} restarts "
          f"in {time.monotonic() - began:.0f} s over {LANES} lanes: {sum(f.games for f in finals)} games, "
          f"{sum(f.moves for f in finals)} moves committed, {untold} committed but not told, {twice} told twice, "
          f"{stale} stale prompts live; {sum(lane.nonce_hits for lane in lanes)} resends returned by their nonce; "
          f"{sum(lane.retiring for lane in lanes)} old prompts retired, every edit with mentions off")
