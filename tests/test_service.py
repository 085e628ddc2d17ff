"""The game service: lobby, turns, versions, concurrency, restarts, replay and timeouts."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import msgspec
import pytest

from bot.service.play import SYSTEM_USER, GameService, NotSeated, Person
from bot.store.db import Database, open_database
from rules import GameError, GameOver, IllegalAction, NotYourTurn, StaleAction
from rules.legend.board import board

ANN, BOB, CY = Person(101, "Ann"), Person(202, "Bob"), Person(303, "Cy")


async def started(svc: GameService, *people: Person, **options: object) -> int:
    info = await svc.create("legend", people[0], guild_id=1, channel_id=2, options=dict(options), seed=5)
    for p in people[1:]:
        await svc.join(info.game_id, p)
    await svc.start(info.game_id, people[0].id)
    return info.game_id


async def step_randomly(svc: GameService, game_id: int, rng: random.Random) -> bool:
    """One random legal action by whoever must act; False once the game is over."""
    result = await svc.get(game_id)
    if result.status != "active":
        return False
    rules, state = result.rules, result.state
    seat = sorted(rules.to_act(state))[0]
    action = rng.choice(list(rules.legal(state, seat)))
    await svc.act(game_id, result.user_of(seat), action)
    return True


# --- lobby ------------------------------------------------------------------------------------


async def test_lobby_join_leave_and_start(db: Database) -> None:
    svc = GameService(db)
    info = await svc.create("legend", ANN, guild_id=1, channel_id=2)
    assert [s.name for s in info.seats] == ["Ann"] and info.status == "lobby"
    info = await svc.join(info.game_id, BOB)
    with pytest.raises(IllegalAction, match="already seated"):
        await svc.join(info.game_id, BOB)
    info = await svc.join(info.game_id, CY)
    info = await svc.leave(info.game_id, BOB)
    assert [(s.seat, s.name) for s in info.seats] == [(0, "Ann"), (1, "Cy")]  # seats stay 0..n-1
    with pytest.raises(IllegalAction, match="Only the host"):
        await svc.start(info.game_id, CY.id)
    info = await svc.leave(info.game_id, ANN)  # the host's Leave hands the host role to the next player
    assert info.host_id == CY.id and [s.name for s in info.seats] == ["Cy"]
    info = await svc.join(info.game_id, BOB)
    with pytest.raises(IllegalAction, match="Only the host"):
        await svc.start(info.game_id, ANN.id)
    result = await svc.start(info.game_id, CY.id)
    assert result.status == "active" and result.version == info.version + 1
    with pytest.raises(IllegalAction, match="already started"):
        await svc.join(info.game_id, BOB)


async def test_table_limits_are_explained(db: Database) -> None:
    svc = GameService(db)
    info = await svc.create("legend", ANN, options={"mode": "starter"})
    with pytest.raises(IllegalAction, match="2 to 5 players"):
        await svc.start(info.game_id, ANN.id)
    for i in range(4):
        await svc.join(info.game_id, Person(500 + i, f"P{i}"))
    with pytest.raises(IllegalAction, match="at most 5"):
        await svc.join(info.game_id, Person(999, "Late"))


async def test_unknown_game_is_refused_politely(db: Database) -> None:
    with pytest.raises(GameError, match="Legend of Heroes"):
        await GameService(db).create("chess", ANN)


# --- acting -------------------------------------------------------------------------------------


async def test_refusals_for_non_players_out_of_turn_and_stale_versions(db: Database) -> None:
    svc = GameService(db)
    game_id = await started(svc, ANN, BOB)
    result = await svc.get(game_id)
    current = result.user_of(result.rules.table.current(result.state))
    other = ANN.id if current == BOB.id else BOB.id
    door = next(iter(board().entrances))
    with pytest.raises(NotSeated, match="not playing"):
        await svc.act(game_id, CY.id, verb="explore", args={"to": door})
    with pytest.raises(NotYourTurn):
        await svc.act(game_id, other, verb="explore", args={"to": door})
    with pytest.raises(IllegalAction, match="D999"):
        await svc.act(game_id, current, verb="explore", args={"to": "D999"})
    with pytest.raises(StaleAction, match="earlier"):
        await svc.act(game_id, current, verb="explore", args={"to": door}, expect_version=result.stamp - 1)
    done = await svc.act(game_id, current, verb="explore", args={"to": door}, expect_version=result.stamp)
    assert done.version == result.version + 1
    rows = await svc.history(game_id)
    assert [json.loads(r.action)["type"] for r in rows] == ["start", "place"]
    assert rows[-1].seq == done.version and rows[-1].user_id == current


async def test_double_click_applies_once(db: Database) -> None:
    svc = GameService(db)
    game_id = await started(svc, ANN, BOB)
    result = await svc.get(game_id)
    user = result.user_of(result.rules.table.current(result.state))
    door = next(iter(board().entrances))
    outcomes = await asyncio.gather(
        *(svc.act(game_id, user, verb="explore", args={"to": door}, expect_version=result.stamp)
          for _ in range(10)), return_exceptions=True)
    assert sum(1 for o in outcomes if not isinstance(o, BaseException)) == 1
    assert all(isinstance(o, StaleAction) for o in outcomes if isinstance(o, BaseException))
    assert len(await svc.history(game_id)) == 2


async def test_two_processes_on_one_database_never_lose_an_update(tmp_path: Path) -> None:
    """Two services with their own connections and caches (as two bot processes would have)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}"
    db1, db2 = await open_database(url), await open_database(url)
    try:
        one, two = GameService(db1), GameService(db2)
        game_id = await started(one, ANN, BOB)
        rng = random.Random(1)
        applied = 1  # the start
        for i in range(60):
            svc = one if i % 3 else two
            try:
                if not await step_randomly(svc, game_id, rng):
                    break
                applied += 1
            except GameError:  # the other process moved first; this move no longer fits
                pass
        # Hammer: both services push the same legal move at once, many times over.
        for _ in range(10):
            first = await one.get(game_id)
            if first.status != "active":
                break
            seat = sorted(first.rules.to_act(first.state))[0]
            action = first.rules.legal(first.state, seat)[0]
            outcomes = await asyncio.gather(
                *(s.act(game_id, first.user_of(seat), action, expect_version=first.stamp)
                  for s in (one, two) for _ in range(5)), return_exceptions=True)
            wins = [o for o in outcomes if not isinstance(o, BaseException)]
            assert len(wins) == 1, outcomes
            applied += 1
        rows = await one.history(game_id)
        assert len(rows) == applied
        assert [r.seq for r in rows] == sorted({r.seq for r in rows})
        stored = await db1.store.load(game_id)
        assert stored is not None
        replayed = await one.replay(game_id)
        assert msgspec.json.encode(replayed).decode() == stored.state
    finally:
        await db1.close()
        await db2.close()


async def test_restart_mid_game_loses_nothing(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'restart.db'}"
    db1 = await open_database(url)
    svc = GameService(db1)
    game_id = await started(svc, ANN, BOB)
    rng = random.Random(3)
    for _ in range(15):
        await step_randomly(svc, game_id, rng)
    before = await svc.get(game_id)
    await db1.close()

    db2 = await open_database(url)  # a new process: empty cache, same file
    try:
        svc2 = GameService(db2)
        after = await svc2.get(game_id)
        assert after.version == before.version
        assert msgspec.json.encode(after.state) == msgspec.json.encode(before.state)
        assert await step_randomly(svc2, game_id, rng)
    finally:
        await db2.close()


async def test_replay_of_finished_games_equals_their_state(db: Database) -> None:
    svc = GameService(db)
    for n, people in enumerate([(ANN,), (ANN, BOB), (ANN, BOB, CY)]):
        game_id = await started(svc, *people, narration="players")
        rng = random.Random(n)
        while await step_randomly(svc, game_id, rng):
            pass
        info = await svc.lobby(game_id)
        assert info.status == "finished"
        stored = await db.store.load(game_id)
        assert stored is not None
        assert msgspec.json.encode(await svc.replay(game_id)).decode() == stored.state
        with pytest.raises(GameOver):
            await svc.act(game_id, ANN.id, verb="explore", args={"to": "D1"})


async def test_absent_narrator_is_replaced_by_tabula_after_the_timeout(db: Database) -> None:
    now = [1_000_000.0]
    svc = GameService(db, clock=lambda: now[0], narrator_timeout_minutes=10)
    game_id = await started(svc, ANN, BOB, narration="players")
    rng = random.Random(0)
    for _ in range(200):  # play until a Narrator is waited for
        result = await svc.get(game_id)
        if result.state.phase == "explore":
            break
        await step_randomly(svc, game_id, rng)
    assert result.state.phase == "explore"
    assert await svc.due() == []  # not yet
    now[0] += 9 * 60
    assert await svc.due() == []
    now[0] += 61
    results = await svc.due()
    assert len(results) == 1
    rows = await svc.history(game_id)
    assert rows[-1].user_id == SYSTEM_USER and json.loads(rows[-1].action)["auto"] is True


async def test_abandon_needs_the_host_or_manage_server(db: Database) -> None:
    svc = GameService(db)
    game_id = await started(svc, ANN, BOB)
    with pytest.raises(IllegalAction, match="Manage Server"):
        await svc.abandon(game_id, BOB.id)
    info = await svc.abandon(game_id, BOB.id, can_manage=True)
    assert info.status == "abandoned"
    with pytest.raises(GameOver, match="abandoned"):
        await svc.act(game_id, ANN.id, verb="explore", args={"to": "D1"})
    assert await svc.list_games(1) == []


async def test_moves_cancelled_mid_flight_neither_corrupt_nor_block_other_games(db: Database) -> None:
    """A handler cancelled while its move is being committed (shutdown, a dropped task) must not cut the
    shared transaction in half nor leave the moves batched with it waiting forever."""
    svc = GameService(db)
    games = [await started(svc, ANN, BOB) for _ in range(6)]
    rng = random.Random(0)
    for _ in range(30):
        tasks = []
        for game_id in games:
            now = await svc.get(game_id)
            if now.status != "active":
                continue
            seat = min(now.rules.to_act(now.state))
            action = rng.choice(list(now.rules.legal(now.state, seat)))
            tasks.append(asyncio.create_task(svc.act(game_id, now.user_of(seat), action,
                                                     expect_version=now.stamp)))
        await asyncio.sleep(0)
        for task in tasks[::2]:
            task.cancel()
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), timeout=10)
    for game_id in games:
        stored = await db.store.load(game_id)
        assert stored is not None
        rows = await svc.history(game_id)
        assert rows[-1].seq == stored.version  # every committed state has its log row, and only those
        assert msgspec.json.encode(await svc.replay(game_id)).decode() == stored.state


async def test_a_status_read_racing_a_move_never_makes_the_newest_button_stale(db: Database) -> None:
    svc = GameService(db)
    game_id = await started(svc, ANN, BOB)
    first = await svc.get(game_id)
    seat = min(first.rules.to_act(first.state))
    moved, _ = await asyncio.gather(svc.act(game_id, first.user_of(seat), first.rules.legal(first.state, seat)[0]),
                                    svc.get(game_id))
    nxt = min(moved.rules.to_act(moved.state))
    # the select under the newest message carries moved.version: it must work
    done = await svc.act(game_id, moved.user_of(nxt), moved.rules.legal(moved.state, nxt)[0],
                         expect_version=moved.stamp)
    assert done.version == moved.version + 1
    assert await svc.choices(game_id, done.user_of(min(done.rules.to_act(done.state))), "explore", "to")


async def test_one_unpostable_timeout_does_not_stop_the_others(db: Database) -> None:
    import types

    from bot.front.client import TabulaBot

    now = [1_000_000.0]
    svc = GameService(db, clock=lambda: now[0])
    waiting = []
    for seed in (1, 2):
        info = await svc.create("legend", ANN, options={"narration": "players"}, seed=seed)
        await svc.join(info.game_id, BOB)
        result = await svc.start(info.game_id, ANN.id)
        while result.state.phase != "explore":  # walk into a room so a Narrator holds a card
            seat = min(result.rules.to_act(result.state))
            choices = result.choices(seat)
            into = [c for c in choices if "explore it" in c.label] or choices
            result = await svc.act(info.game_id, result.user_of(seat), command=into[0].command)
        waiting.append(info.game_id)
    now[0] += 3600
    posted: list[int] = []

    async def post_result(result: object) -> None:
        if result.game_id == waiting[0]:  # type: ignore[attr-defined]
            raise RuntimeError("Unknown Channel")  # its thread was deleted
        posted.append(result.game_id)  # type: ignore[attr-defined]

    bot = types.SimpleNamespace(service=svc, post_result=post_result)
    assert await TabulaBot.run_timeouts(bot) == 2  # type: ignore[arg-type]
    assert posted == [waiting[1]]


async def test_games_played_in_turn_in_one_channel_resolve_to_the_newest(db: Database) -> None:
    """Without thread permission games are played in their channel; after a restart the channel must lead to
    the newest game there, not to a finished one."""
    svc = GameService(db)
    old = await started(svc, ANN, BOB)
    await svc.set_thread(old, 777)
    await svc.abandon(old, ANN.id)
    new = await started(svc, ANN, BOB)
    await svc.set_thread(new, 777)
    assert await GameService(db).game_in_thread(777) == new


async def test_a_process_with_an_old_copy_never_refuses_a_legal_move(tmp_path: Path) -> None:
    """Process two cached the game, then process one moved it: the next player's move sent to process two
    must be judged against the game as stored, not against its old copy ("not your turn")."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'two.db'}"
    db1, db2 = await open_database(url), await open_database(url)
    try:
        one, two = GameService(db1), GameService(db2)
        game_id = await started(one, ANN, BOB)
        before = await two.get(game_id)  # process two now holds a copy
        seat = min(before.rules.to_act(before.state))
        moved = await one.act(game_id, before.user_of(seat), before.rules.legal(before.state, seat)[0])
        nxt = min(moved.rules.to_act(moved.state))
        door = moved.rules.legal(moved.state, nxt)[0].to
        done = await two.act(game_id, moved.user_of(nxt), verb="explore", args={"to": door})
        assert done.version == moved.version + 1
    finally:
        await db1.close()
        await db2.close()
