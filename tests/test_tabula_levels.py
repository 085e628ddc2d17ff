"""Tabula's levels through the service (issue 26): every game declares ``tabula_level`` (easy, normal, strong)
through its spec, the level is stored with the game, a seat at ``normal``/``strong`` is thought for in the
process pool with a seed per move (the same position and seed give the same move; a replay reads the log and
never thinks again), and a restart while Tabula was thinking plays its move once."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import msgspec
import pytest

from bot.service.play import SYSTEM_USER, GameService, Person
from bot.service.thinking import LEVEL_OPTION, Thinker
from bot.store.db import Database
from rules import GameError
from rules.core import Rng, SeatInfo, seed_state
from rules.registry import games
from rules.search import LEVELS, Budget, decide, key_of

ANN = Person(100, "Ann")


@pytest.mark.parametrize("key", sorted(games()))
def test_every_game_offers_the_three_levels_easy_by_default(key: str) -> None:
    rules = games()[key]
    option = rules.spec.option(LEVEL_OPTION)
    assert option is not None and option.choices == LEVELS and option.default == "easy"
    players = max(2, rules.spec.min_players)
    extra = {"mode": "east"} if key == "autokrator" else {}
    assert rules.check_options(extra, players)[LEVEL_OPTION] == "easy"
    assert rules.check_options({**extra, LEVEL_OPTION: "Strong"}, players)[LEVEL_OPTION] == "strong"
    with pytest.raises(GameError, match="easy"):
        rules.check_options({**extra, LEVEL_OPTION: "hard"}, players)


class Recording(ThreadPoolExecutor):
    """A thread pool that remembers every decision it was asked for (the arguments crossing to a worker)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.asked: list[tuple[Any, ...]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.asked.append(args)
        return super().submit(fn, *args, **kwargs)


async def _game(svc: GameService, level: str, seed: int = 4) -> int:
    info = await svc.create("autokrator", ANN, guild_id=1, options={"mode": "east", LEVEL_OPTION: level}, seed=seed)
    await svc.add_tabula(info.game_id, ANN.id)
    await svc.start(info.game_id, ANN.id)
    return info.game_id


async def _play_ann(svc: GameService, game_id: int, moves: int) -> None:
    rng = Rng(7)
    for _ in range(moves):
        moment = await svc.get(game_id)
        if moment.status != "active" or 0 not in moment.to_act:
            break
        move = moment.rules.policy(moment.state, 0, rng)
        await svc.act(game_id, ANN.id, move)


async def test_a_strong_seat_thinks_in_the_pool_and_the_log_replays_it(db: Database) -> None:
    pool = Recording()
    svc = GameService(db, thinker=Thinker(iterations=4, seconds=None, executor=pool))
    game_id = await _game(svc, "strong")
    await _play_ann(svc, game_id, 25)
    assert pool.asked, "Tabula's strong seat never asked the pool"
    info = await svc.lobby(game_id)
    assert info.options[LEVEL_OPTION] == "strong"  # stored with the game
    rows = await svc.history(game_id)
    tabula = [r for r in rows if r.user_id == SYSTEM_USER]
    assert tabula, "Tabula made no move"
    # every decision is a function of the position and its seed: thought again here, the same move
    rules = games()["autokrator"]
    for key, state, seat, level, seed, seconds, iterations in pool.asked[:6]:
        assert (key, level, iterations) == ("autokrator", "strong", 4)
        decoded = msgspec.json.decode(state, type=rules.state_type)
        budget = Budget(iterations=iterations, seconds=seconds)
        first = decide(rules, decoded, seat, level, seed, budget)
        assert key_of(decide(rules, decoded, seat, level, seed, budget)) == key_of(first)
    # the replay applies the log: no search, the same game
    pool.asked.clear()
    replayed = await svc.replay(game_id)
    assert pool.asked == []
    assert msgspec.json.encode(replayed) == msgspec.json.encode((await svc.get(game_id)).state)
    pool.shutdown()


async def test_an_easy_seat_plays_inline_as_before(db: Database) -> None:
    pool = Recording()
    svc = GameService(db, thinker=Thinker(iterations=4, seconds=None, executor=pool))
    game_id = await _game(svc, "easy")
    await _play_ann(svc, game_id, 10)
    assert pool.asked == []
    assert any(r.user_id == SYSTEM_USER for r in await svc.history(game_id))
    pool.shutdown()


class Stuck(ThreadPoolExecutor):
    """A pool whose workers never answer: the process is killed while Tabula thinks."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        return Future()


async def test_a_restart_while_tabula_thinks_loses_no_move_and_plays_it_once(db: Database) -> None:
    now = [1_000_000.0]
    stuck = GameService(db, clock=lambda: now[0], thinker=Thinker(iterations=4, seconds=None, executor=Stuck()))
    info = await stuck.create("autokrator", ANN, guild_id=1, options={"mode": "east", LEVEL_OPTION: "normal"},
                              seed=9)
    await stuck.add_tabula(info.game_id, ANN.id)
    # the start owes Tabula's dealing at once: the process "dies" while it thinks
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(stuck.start(info.game_id, ANN.id), timeout=1.0)
    before = await stuck.history(info.game_id)
    assert not any(r.user_id == SYSTEM_USER for r in before), "nothing of Tabula's was saved mid-thought"
    # a new process over the same database: its sweep finds Tabula's move owed and plays it, once
    pool = Recording()
    fresh = GameService(db, clock=lambda: now[0] + 5, thinker=Thinker(iterations=4, seconds=None, executor=pool))
    played = [m for timed in await fresh.due() for m in (timed, *timed.followups)]
    assert played and all(m.auto_seat for m in played)
    again = [m for timed in await fresh.due() for m in (timed, *timed.followups)]
    assert again == [], "the owed move was played twice"
    rows = await fresh.history(info.game_id)
    tabula = [r for r in rows if r.user_id == SYSTEM_USER]
    assert len(tabula) == len(played)
    versions = [r.seq for r in rows]
    assert versions == sorted(set(versions))
    pool.shutdown()


def _spawned() -> Iterator[Thinker]:
    thinker = Thinker(workers=1, iterations=3, seconds=None)
    try:
        yield thinker
    finally:
        thinker.close()


async def test_the_real_pool_thinks_in_another_process_and_agrees_with_the_search() -> None:
    rules = games()["champion"]
    state = rules.setup([SeatInfo(0, "A"), SeatInfo(1, "B")], {}, 5).state
    seat = sorted(rules.to_act(state))[0]
    for thinker in _spawned():
        move = await thinker.choose(rules, state, seat, {LEVEL_OPTION: "strong"}, 77)
        expected = decide(rules, state, seat, "strong", 77, Budget(iterations=3, seconds=None))
        assert key_of(move) == key_of(expected)
        easy = await thinker.choose(rules, state, seat, {}, 77)
        assert key_of(easy) == key_of(rules.policy(state, seat, Rng(seed_state(77))))


async def test_a_server_sets_the_level_of_its_new_games(db: Database) -> None:
    from bot.longplay.service import LongGameService

    svc = LongGameService(db)
    assert await svc.server_level(1, None) == "easy"
    assert await svc.server_level(1, "strong") == "strong"
    with pytest.raises(GameError, match="normal"):
        await svc.server_level(1, "hard")
    info = await svc.create("legend", ANN, guild_id=1)
    assert info.options[LEVEL_OPTION] == "strong"
    chosen = await svc.create("legend", ANN, guild_id=1, options={LEVEL_OPTION: "normal"})
    assert chosen.options[LEVEL_OPTION] == "normal"  # /game new still chooses per game
    elsewhere = await svc.create("legend", ANN, guild_id=2)
    assert LEVEL_OPTION not in elsewhere.options  # the game's own default (easy) applies at the start


@pytest.mark.parametrize("level", ["easy", "normal"])
async def test_let_tabula_program_my_year_uses_the_games_level(db: Database, level: str) -> None:
    from rules.eiyu.state import AutoRow, SetRow

    pool = Recording()
    svc = GameService(db, thinker=Thinker(iterations=6, seconds=None, executor=pool))
    info = await svc.create("eiyu", ANN, guild_id=1, options={LEVEL_OPTION: level}, seed=3)
    await svc.add_tabula(info.game_id, ANN.id)
    await svc.start(info.game_id, ANN.id)
    rng = Rng(2)
    for _ in range(20):  # to Ann's first year (Tabula's seat moving between, as it does)
        moment = await svc.get(info.game_id)
        if moment.state.phase == "program" and 0 in moment.to_act:
            break
        assert 0 in moment.to_act, (moment.state.phase, moment.to_act)
        await svc.act(info.game_id, ANN.id, moment.rules.policy(moment.state, 0, rng))
    await svc.act(info.game_id, ANN.id, AutoRow())
    mine = [r for r in await svc.history(info.game_id) if r.user_id == ANN.id]
    logged = msgspec.json.decode(mine[-1].action, type=moment.rules.action_type)
    if level == "easy":
        assert logged == AutoRow() and pool.asked == []  # the game plans it, as before
    else:
        assert isinstance(logged, SetRow) and logged.lock, logged  # the search's row, kept in the log
        assert any(len(args) == 8 for args in pool.asked)
    after = await svc.get(info.game_id)
    assert after.state.players[0].locked or after.state.year > moment.state.year  # Ann's year was programmed
    pool.shutdown()


@pytest.mark.slow  # a real pool: a spawned worker starts Python and loads every game
def test_a_thinking_worker_runs_below_the_bots_priority() -> None:
    import os

    from bot.service.thinking import WORKER_NICE

    thinker = Thinker(workers=1)
    try:
        worker = thinker._executor().submit(os.nice, 0).result(timeout=120)  # os.nice(0) reads the niceness
    finally:
        thinker.close()
    assert worker == min(19, os.nice(0) + WORKER_NICE)
