"""Caches assume nothing about which process saw the last move: two services on one database (two processes'
worth: their own connections, caches and locks) interleave moves on one game; a save at an old version
reloads and tries again, a move Tabula chose for an older position is never applied to a newer one."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bot.longplay.service import LongGameService
from bot.service.play import Person
from bot.store.db import Database, open_database
from rules.registry import ruleset
from tests.scale_helpers import PG_URL, clean_postgres

ANN, BOB = Person(1, "Ann"), Person(2, "Bob")


@pytest.fixture(params=["sqlite", "postgresql"])
async def two(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[Database, Database]]:
    if request.param == "postgresql":
        if not PG_URL:
            pytest.skip("TABULA_TEST_POSTGRES_URL is not set (CI sets it, see .ci/run)")
        url = await clean_postgres()
    else:
        url = f"sqlite+aiosqlite:///{tmp_path / 'two.db'}"
    first = await open_database(url)
    second = await open_database(url, upgrade=False)
    yield first, second
    await first.close()
    await second.close()


def count_rereads(db: Database) -> dict[str, int]:
    """Wrap the store: how many saves found the row at another version (and wrote nothing), and how many
    times the game was read from the database rather than taken from the cache."""
    seen = {"stale_saves": 0, "reads": 0}
    save, load = db.store.save, db.store.load

    async def saving(*args: Any, **kwargs: Any) -> bool:
        ok = await save(*args, **kwargs)
        seen["stale_saves"] += not ok
        return ok

    async def loading(game_id: int) -> Any:
        seen["reads"] += 1
        return await load(game_id)

    db.store.save = saving  # type: ignore[method-assign]
    db.store.load = loading  # type: ignore[method-assign]
    return seen


@pytest.mark.slow
async def test_two_services_interleaving_moves_on_one_game_lose_nothing(two: tuple[Database, Database]) -> None:
    one, other = LongGameService(two[0]), LongGameService(two[1])
    info = await one.create("legend", ANN, guild_id=1, options={}, seed=21)
    await other.join(info.game_id, BOB)
    await one.start(info.game_id, ANN.id)
    seen = [count_rereads(two[0]), count_rereads(two[1])]
    referee_db = await open_database(two[0].url, upgrade=False)
    referee = LongGameService(referee_db)  # reads the game as stored, to choose each move
    rng = random.Random(21)
    moves = 0
    for turn in range(40):
        now = await referee.get(info.game_id)
        if now.status != "active":
            break
        seat = min(now.rules.to_act(now.state))
        action = rng.choice(list(now.rules.legal(now.state, seat)))
        acting = (one, other)[turn % 2]  # each service's cache is one move behind when its turn comes
        result = await acting.act(info.game_id, now.user_of(seat), action)
        assert result.version == now.version + 1
        moves += 1
    stored = await two[0].store.load(info.game_id)
    assert stored is not None and stored.version == 1 + moves + 1  # the lobby's start, then every move
    rows = await one.history(info.game_id)
    assert [r.seq for r in rows] == list(range(rows[0].seq, rows[0].seq + len(rows)))  # none lost, none twice
    assert msgspec.json.encode(await other.replay(info.game_id)).decode() == stored.state
    await referee_db.close()
    stale = sum(s["stale_saves"] for s in seen)
    reads = sum(s["reads"] for s in seen)
    # Every move met a cache one move old: each was judged again against the game as stored (a refusal by
    # the old position, or a save at the old version, is followed by a read and a second try).
    assert reads >= moves
    print(f"\n{two[0].engine.dialect.name}: {moves} interleaved moves, {reads} fresh reads, {stale} saves at an "
          "old version retried, 0 lost, 0 twice")


async def test_a_move_tabula_chose_for_an_older_position_is_not_applied(two: tuple[Database, Database]) -> None:
    one, other = LongGameService(two[0]), LongGameService(two[1])
    info = await one.create("legend", ANN, guild_id=1, options={}, seed=3)
    await one.add_tabula(info.game_id, ANN.id)
    await one.start(info.game_id, ANN.id)
    g = await other._load(info.game_id, fresh=True)
    rules = ruleset(g.record.ruleset)
    ann = next(s.seat for s in g.seats if s.user_id == ANN.id)
    assert ann in rules.to_act(g.state)  # the start has played Tabula's opening moves already
    async with other._locks(info.game_id):  # the other process saves Ann's move ...
        await other._act_locked(info.game_id, ANN.id, rules.legal(g.state, ann)[0], None, None, None)
    stale = await one._load(info.game_id, fresh=True)  # ... this one reads it: Tabula to move ...
    assert ann not in rules.to_act(stale.state)
    async with other._locks(info.game_id):
        assert await other._autoplay(info.game_id)  # ... and the other plays Tabula's turn first
    before = await two[0].store.load(info.game_id)
    assert before is not None
    assert ann in rules.to_act(msgspec.json.decode(before.state, type=rules.state_type))  # Ann's move again
    async with one._locks(info.game_id):
        late = await one._autoplay(info.game_id)  # chose from its old cache: stale, so it reads and sees Ann's turn
    after = await two[0].store.load(info.game_id)
    assert late == [] and after is not None and after.version == before.version and after.state == before.state
    assert msgspec.json.encode(await one.replay(info.game_id)).decode() == after.state


async def test_a_save_at_an_old_version_reads_the_game_again_and_retries(two: tuple[Database, Database]) -> None:
    """The other process rolls dice at the table between this one's moves: the roll changes no position, so
    this process's cached position still allows its move, but the row is a version further on."""
    one, other = LongGameService(two[0]), LongGameService(two[1])
    seen = count_rereads(two[0])
    info = await one.create("legend", ANN, guild_id=1, options={}, seed=8)
    await one.join(info.game_id, BOB)
    result = await one.start(info.game_id, ANN.id)
    for n in range(8):
        if result.status != "active":
            break
        rolled = await other.act(info.game_id, BOB.id, verb="roll", args={"expr": "1d6"})
        assert rolled.version == result.version + 1
        seat = min(result.rules.to_act(result.state))
        result = await one.act(info.game_id, result.user_of(seat), result.rules.legal(result.state, seat)[0])
        assert result.version == rolled.version + 1  # after the roll, not over it
        assert seen["stale_saves"] == n + 1  # the first save was refused at the old version, the retry saved
    stored = await two[0].store.load(info.game_id)
    assert stored is not None and stored.version == result.version
    assert msgspec.json.encode(await other.replay(info.game_id)).decode() == stored.state
    rolls = [r for r in await one.history(info.game_id) if "tabula.roll" in r.action]
    assert len(rolls) == 8
