"""A turn's own timeout plays the absent seat at the game's Tabula level (issue 26).

At ``easy`` the game's own stand-in is played and logged as it always was (Autokrator's ``Deputy``, The Heroes'
Road's ``AutoRow`` or its policy's move, Champion's chosen answer, Legend's card read out).  At a level that
searches, the thinker chooses the seat's moves, each saved and logged as its own action by Tabula, as far as the
game's stand-in goes (``rules.ruleset.stands_in``), and the game replays from its log without searching."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from bot.delivery.tellings import run_telling
from bot.service.play import SYSTEM_USER, GameService, Person
from bot.service.thinking import LEVEL_OPTION, Thinker
from bot.store.db import Database
from rules.core import Rng, seed_state
from rules.registry import games
from rules.ruleset import one_move, stands_in
from rules.search import Budget, decide, key_of
from tests.test_tabula_levels import Recording

PEOPLE = [Person(100, "Ann"), Person(101, "Bo"), Person(102, "Cy")]
ITERATIONS = 4
#: The moments the last sweep returned (the stand-in's moves and Tabula's after them), as the thread is told them.
told: list[Any] = []


Wanted = Callable[[Any, Any, int, Any], bool]


async def _timed_out(db: Database, key: str, level: str, options: dict[str, object], wanted: Wanted,
                     people: int = 2, seeds: range = range(12), thinker: type[Thinker] = Thinker
                     ) -> tuple[GameService, Recording, int, Any, int, Any, list[Any]]:
    """A game of ``people`` played by their policies until the turn timeout would stand in for a seat as
    ``wanted`` likes; then the clock passes the timeout and the sweep plays it.  Returns the service, its pool,
    the game, the state that timed out, the seat, the game's own stand-in and the rows Tabula logged."""
    rules = games()[key]
    now = [1_000_000.0]
    for seed in seeds:
        pool = Recording()
        svc = GameService(db, clock=lambda: now[0], turn_timeout_minutes=1,
                          thinker=thinker(iterations=ITERATIONS, seconds=None, executor=pool))
        info = await svc.create(key, PEOPLE[0], guild_id=1, options={**options, LEVEL_OPTION: level}, seed=seed)
        for person in PEOPLE[1:people]:
            await svc.join(info.game_id, person)
        await svc.start(info.game_id, PEOPLE[0].id)
        rng = Rng(seed_state(seed))
        for _step in range(400):
            moment = await svc.get(info.game_id)
            if moment.status != "active":
                break
            pending = rules.timeout(moment.state)
            if pending is not None and wanted(rules, moment.state, *pending):
                seat, action = pending
                seen = len(await svc.history(info.game_id))
                now[0] += 120  # past the one-minute timeout
                timed = await svc.due()
                assert len(timed) == 1
                told.clear()
                told.extend([timed[0], *timed[0].followups])
                rows = (await svc.history(info.game_id))[seen:]
                assert rows and all(r.user_id == SYSTEM_USER and r.seat == seat for r in rows)
                return svc, pool, info.game_id, moment.state, seat, action, rows
            acting = sorted(moment.to_act)
            if not acting:
                break
            seat = acting[0]
            move = rules.policy(moment.state, seat, rng)
            if move is None:
                break
            user = next(s.user_id for s in moment.seats if s.seat == seat)
            await svc.act(info.game_id, user, move)
        pool.shutdown()
    raise AssertionError(f"no {key} game reached the position wanted")


def _logged(key: str, rows: list[Any]) -> list[Any]:
    return [msgspec.json.decode(r.action, type=games()[key].action_type) for r in rows]


async def _replays(svc: GameService, game_id: int, pool: Recording) -> None:
    pool.asked.clear()
    replayed = await svc.replay(game_id)
    assert pool.asked == [], "a replay searched"
    assert msgspec.json.encode(replayed) == msgspec.json.encode((await svc.get(game_id)).state)


def _thought(key: str, asked: tuple[Any, ...]) -> Any:
    """The move the search gives for one decision the pool was asked for (thought again here)."""
    rules = games()[key]
    _key, state, seat, level, seed, seconds, iterations = asked
    decoded = msgspec.json.decode(state, type=rules.state_type)
    return decide(rules, decoded, seat, level, seed, Budget(iterations=iterations, seconds=seconds))


def _has_choice(rules: Any, state: Any, seat: int, action: Any) -> bool:
    return not rules.meta(action).asks_tabula and len(rules.legal(state, seat)) > 1


# --- Autokrator: a realm's whole stand-in, move by move -------------------------------------------------------


async def test_autokrator_at_easy_the_deputy_is_logged_as_before(db: Database) -> None:
    from rules.autokrator.state import Deputy

    svc, pool, game_id, _state, _seat, _action, rows = await _timed_out(
        db, "autokrator", "easy", {"mode": "east"}, _has_choice)
    assert _logged("autokrator", rows) == [Deputy()] and pool.asked == []
    await _replays(svc, game_id, pool)
    pool.shutdown()


@pytest.mark.parametrize("phase", ["assign", "turns"])
async def test_autokrator_at_strong_the_thinker_plays_the_realms_turn_one_logged_move_at_a_time(
        db: Database, phase: str) -> None:
    from rules.autokrator.state import Deputy

    def wanted(rules: Any, state: Any, seat: int, action: Any) -> bool:
        return state.phase == phase and _has_choice(rules, state, seat, action)

    svc, pool, game_id, start, seat, _action, rows = await _timed_out(
        db, "autokrator", "strong", {"mode": "east"}, wanted)
    logged = _logged("autokrator", rows)
    assert not any(isinstance(a, Deputy) for a in logged)
    assert len(pool.asked) == len(logged) >= 1  # one decision per move, each its own row
    for asked, move in zip(pool.asked, logged, strict=True):
        assert asked[0] == "autokrator" and asked[2] == seat and asked[3] == "strong"
        assert key_of(_thought("autokrator", asked)) == key_of(move)
    # as far as the Deputy goes: the realm has nothing more to do now, or the epoch changed
    rules = games()["autokrator"]
    after = (await svc.get(game_id)).state
    assert after.phase == "over" or seat not in rules.to_act(after) or after.epoch != start.epoch
    # the thread is told the run once: "did not answer" at its first move only
    stood = [m for m in told if m.by_tabula and not m.auto_seat]
    assert len(stood) == len(logged) and [m.timed_out for m in stood] == [True] + [False] * (len(stood) - 1)
    text = str(run_telling(told).text)
    assert text.count("did not answer") == 1, text
    await _replays(svc, game_id, pool)
    pool.shutdown()


class Refused(Thinker):
    """A thinker whose every move the game refuses (a search gone wrong)."""

    async def choose(self, rules: Any, state: Any, seat: int, options: dict[str, Any], seed: int) -> Any:
        from rules.autokrator.state import Assign

        return Assign(holder="king", cards=("no-such-card",))


async def test_a_searched_move_the_game_refuses_gives_way_to_the_games_own_stand_in(db: Database) -> None:
    from rules.autokrator.state import Deputy

    def dealing(rules: Any, state: Any, seat: int, action: Any) -> bool:
        return state.phase == "assign" and _has_choice(rules, state, seat, action)

    svc, pool, game_id, _state, _seat, _action, rows = await _timed_out(
        db, "autokrator", "strong", {"mode": "east"}, dealing, thinker=Refused)
    assert _logged("autokrator", rows) == [Deputy()]  # the timeout still plays: a game never stalls
    await _replays(svc, game_id, pool)
    pool.shutdown()


# --- The Heroes' Road: a programmed row, and its other choices ------------------------------------------------


def _programming(rules: Any, state: Any, seat: int, action: Any) -> bool:
    return bool(state.phase == "program")


def _eiyu_choice(rules: Any, state: Any, seat: int, action: Any) -> bool:
    return state.phase != "program" and _has_choice(rules, state, seat, action)


async def test_eiyu_at_easy_the_timeout_programs_the_year_as_before(db: Database) -> None:
    from rules.eiyu.state import AutoRow

    svc, pool, game_id, *_rest, rows = await _timed_out(db, "eiyu", "easy", {}, _programming)
    assert _logged("eiyu", rows) == [AutoRow()] and pool.asked == []
    await _replays(svc, game_id, pool)
    pool.shutdown()


async def test_eiyu_at_strong_the_timed_out_year_is_the_searchs_row(db: Database) -> None:
    from rules.eiyu.state import SetRow

    svc, pool, game_id, _state, seat, _action, rows = await _timed_out(db, "eiyu", "strong", {}, _programming)
    [row] = _logged("eiyu", rows)
    assert isinstance(row, SetRow) and row.lock  # the whole row, as "Let Tabula program my year" chooses it
    assert [a[2] for a in pool.asked] == [seat] and len(pool.asked[0]) == 8  # the suggestion's search
    await _replays(svc, game_id, pool)
    pool.shutdown()


async def test_eiyu_at_strong_a_timed_out_choice_is_the_thinkers(db: Database) -> None:
    svc, pool, game_id, _state, seat, _action, rows = await _timed_out(db, "eiyu", "strong", {}, _eiyu_choice)
    [move] = _logged("eiyu", rows)
    [asked] = pool.asked
    assert asked[2] == seat and key_of(_thought("eiyu", asked)) == key_of(move)
    await _replays(svc, game_id, pool)
    pool.shutdown()


async def test_eiyu_at_easy_a_timed_out_choice_is_the_games_own(db: Database) -> None:
    svc, pool, game_id, _state, _seat, action, rows = await _timed_out(db, "eiyu", "easy", {}, _eiyu_choice)
    assert _logged("eiyu", rows) == [action] and pool.asked == []
    await _replays(svc, game_id, pool)
    pool.shutdown()


# --- Champion: an answer chosen for an absent player ----------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "strong"])
async def test_champion_a_timed_out_answer_at_each_level(db: Database, level: str) -> None:
    svc, pool, game_id, _state, seat, action, rows = await _timed_out(db, "champion", level, {}, _has_choice)
    [move] = _logged("champion", rows)
    if level == "easy":
        assert move == action and pool.asked == []
    else:
        [asked] = pool.asked
        assert asked[2] == seat and key_of(_thought("champion", asked)) == key_of(move)
    await _replays(svc, game_id, pool)
    pool.shutdown()


# --- Legend: a card read out for an absent Narrator chooses nothing ------------------------------------------


@pytest.mark.parametrize("level", ["easy", "strong"])
async def test_legend_tabula_reads_the_card_for_an_absent_narrator_at_every_level(db: Database, level: str
                                                                                   ) -> None:
    from rules.legend.state import Narrate

    svc, pool, game_id, *_rest, rows = await _timed_out(
        db, "legend", level, {"mode": "expanded", "narration": "players"}, lambda *_args: True, people=3)
    assert _logged("legend", rows) == [Narrate(auto=True)] and pool.asked == []
    await _replays(svc, game_id, pool)
    pool.shutdown()


# --- the seam ---------------------------------------------------------------------------------------------------


def test_a_ruleset_without_the_hook_stands_in_for_one_move() -> None:
    class Bare:
        def legal(self, state: object, seat: int) -> list[str]:
            return ["a", "b"] if seat == 0 else ["only"]

    assert stands_in(Bare(), None, None, 0, 0) and not stands_in(Bare(), None, None, 0, 1)
    assert not stands_in(Bare(), None, None, 1, 0)  # nothing to choose: the game's own action
    assert one_move(Bare(), None, 0, 0)
