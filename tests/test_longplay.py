"""Long games through the service, with a controllable clock (no sleeping): the turn clock and its one
reminder, each absent-player policy, restarts that neither lose nor repeat a reminder, nudges, vacations,
pauses, seats that change hands, and undo.  Race to Ten (tests/plugins/race) stands in for any game."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from bot.longplay.clock import CLOCKS, HOST_PAUSED, REMINDER_SHARE, STRIKES_TO_OFFER, WAITING
from bot.longplay.service import LongGameService
from bot.service.gamelog import UNDO, kind_of
from bot.service.play import Person
from bot.store.db import Database
from rules import GameError, IllegalAction
from rules.registry import register, unregister

ANN, BOB, CY, DI = Person(101, "Ann"), Person(202, "Bob"), Person(303, "Cy"), Person(404, "Di")
HOUR = 3600.0


@pytest.fixture(autouse=True)
def race() -> Iterator[None]:
    register("tests.plugins.race")
    yield
    unregister("tests.plugins.race")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def service(db: Database, clock: Clock) -> LongGameService:
    return LongGameService(db, clock=clock)


async def race_game(svc: LongGameService, *, clock: str = "1h", policy: str = "tabula", **kw: object) -> int:
    info = await svc.create("race", ANN, guild_id=1, channel_id=2, seed=3,
                            options={"clock": clock, "policy": policy}, **kw)  # type: ignore[arg-type]
    await svc.join(info.game_id, BOB)
    await svc.start(info.game_id, ANN.id)
    return info.game_id


async def mover(svc: LongGameService, game_id: int) -> Person:
    moment = await svc.get(game_id)
    return ANN if moment.user_of(min(moment.to_act)) == ANN.id else BOB


async def test_the_clock_starts_with_the_turn_and_a_roll_gives_no_more_time(db: Database) -> None:
    now = Clock()
    svc = service(db, now)
    game_id = await race_game(svc)
    first = await svc.get(game_id)
    assert first.clock_deadline == now.now + CLOCKS["1h"]
    who = await mover(svc, game_id)
    now.now += 600
    await svc.act(game_id, who.id, verb="roll", args={"expr": "d6"})  # free: the clock keeps running
    assert (await svc.get(game_id)).clock_deadline == first.clock_deadline
    await svc.act(game_id, who.id, verb="move", args={"steps": "1"})
    assert (await svc.get(game_id)).clock_deadline == now.now + CLOCKS["1h"]


async def test_one_reminder_even_across_a_restart_then_tabula_plays_and_offers_the_seat(db: Database) -> None:
    now = Clock()
    svc = service(db, now)
    game_id = await race_game(svc)
    assert await svc.clock_due() == []
    now.now += CLOCKS["1h"] * REMINDER_SHARE + 1
    again = service(db, now)  # a restart: a new process, nothing in memory
    [news] = await again.clock_due()
    absent = await mover(again, game_id)
    assert news.kind == "remind" and news.users == [absent.id] and news.deadline is not None
    assert await again.clock_due() == [] and await service(db, now).clock_due() == []  # never twice
    for strike in range(1, STRIKES_TO_OFFER + 1):
        now.now += CLOCKS["1h"] + 1
        news_list = await service(db, now).clock_due()
        kinds = [n.kind for n in news_list]
        assert kinds[0] == "played", kinds
        played = news_list[0]
        assert played.strikes >= 1 and played.moments[0].by_tabula
        if played.strikes >= STRIKES_TO_OFFER:
            assert kinds == ["played", "offer"]
            break
        assert strike < 2 * STRIKES_TO_OFFER
    # a person acting for their own seat hands it back: the run of strikes ends
    svc = service(db, now)
    moment = await svc.get(game_id)
    if moment.status == "active":
        seat = min(moment.to_act)
        await svc.act(game_id, moment.user_of(seat), verb="move", args={"steps": "1"})
        info = await svc.lobby(game_id)
        assert next(s for s in info.seats if s.seat == seat).strikes == 0


async def test_pause_policy_waits_and_a_move_starts_the_clock_again(db: Database) -> None:
    now = Clock()
    svc = service(db, now)
    game_id = await race_game(svc, policy="pause")
    now.now += CLOCKS["1h"] * REMINDER_SHARE + 5
    assert [n.kind for n in await svc.clock_due()] == ["remind"]
    now.now += CLOCKS["1h"]
    assert [n.kind for n in await svc.clock_due()] == ["paused"]
    moment = await svc.get(game_id)
    assert moment.paused == WAITING and moment.clock_deadline is None
    assert await svc.clock_due() == []
    who = await mover(svc, game_id)
    await svc.act(game_id, who.id, verb="move", args={"steps": "2"})
    # a run-out found after the deadline (the bot was down) waits at once: no stale reminder first
    now.now += 2 * CLOCKS["1h"]
    assert [n.kind for n in await svc.clock_due()] == ["paused"]
    who = await mover(svc, game_id)
    await svc.act(game_id, who.id, verb="move", args={"steps": "1"})
    assert (await svc.get(game_id)).clock_deadline == now.now + CLOCKS["1h"]


async def test_skip_needs_a_game_that_can_skip_and_clock_choices_are_checked(db: Database) -> None:
    svc = service(db, Clock())
    with pytest.raises(GameError, match="no way to skip"):
        await svc.create("race", ANN, options={"policy": "skip"})
    with pytest.raises(GameError, match="The clock is one of"):
        await svc.create("race", ANN, options={"clock": "5 minutes"})
    await svc.server_defaults(9, "3d", "pause")
    info = await svc.create("race", ANN, guild_id=9)
    assert info.options["clock"] == "3d" and info.options["policy"] == "pause"


async def test_nudge_once_per_clock_period_and_never_oneself(db: Database) -> None:
    now = Clock()
    svc = service(db, now)
    game_id = await race_game(svc)
    absent = await mover(svc, game_id)
    other = BOB if absent is ANN else ANN
    with pytest.raises(IllegalAction, match="your own move"):
        await svc.nudge(game_id, absent.id)
    with pytest.raises(IllegalAction, match="Only the players"):
        await svc.nudge(game_id, CY.id)
    _, pinged = await svc.nudge(game_id, other.id)
    assert pinged == [absent.id]
    with pytest.raises(IllegalAction, match="next nudge is possible <t:"):
        await svc.nudge(game_id, other.id)
    now.now += CLOCKS["1h"] + 1
    _, pinged = await svc.nudge(game_id, other.id)
    assert pinged == [absent.id]


async def test_vacation_moves_the_clock_on_and_has_an_allowance(db: Database) -> None:
    now = Clock()
    svc = service(db, now)
    game_id = await race_game(svc)
    absent = await mover(svc, game_id)
    deadline = (await svc.get(game_id)).clock_deadline
    assert deadline is not None
    until, left = await svc.vacation(game_id, absent.id, 2)
    assert until == now.now + 2 * 86400 and left == svc.vacation_days - 2
    assert (await svc.get(game_id)).clock_deadline == deadline + 2 * 86400
    with pytest.raises(IllegalAction, match="days of vacation per game"):
        await svc.vacation(game_id, absent.id, svc.vacation_days)
    until, left = await svc.vacation(game_id, absent.id, 0)
    assert until is None and left == svc.vacation_days  # back at once: nothing used
    assert (await svc.get(game_id)).clock_deadline == deadline  # and the clock stands where it stood
    with pytest.raises(IllegalAction, match="not on vacation"):
        await svc.vacation(game_id, absent.id, 0)  # nothing to end: a refusal, not a second "back"


async def test_a_vacation_ended_early_gives_back_the_clock_with_the_days(db: Database) -> None:
    now = Clock()
    svc = service(db, now)
    game_id = await race_game(svc, clock="24h")
    absent = await mover(svc, game_id)
    deadline = (await svc.get(game_id)).clock_deadline
    assert deadline is not None
    await svc.vacation(game_id, absent.id, 1)
    now.now += 2 * HOUR
    _until, left = await svc.vacation(game_id, absent.id, 0)  # back after two hours of a day's vacation
    assert (await svc.get(game_id)).clock_deadline == deadline + 2 * HOUR
    assert left == pytest.approx(svc.vacation_days - 2 / 24)
    # The allowance cannot be used again and again: each vacation ended at once leaves the clock as it was.
    for _ in range(3):
        await svc.vacation(game_id, absent.id, svc.vacation_days - 1)
        await svc.vacation(game_id, absent.id, 0)
    assert (await svc.get(game_id)).clock_deadline == deadline + 2 * HOUR
    # A turn that comes to a player on vacation starts when the vacation ends; ending it early starts it now.
    other = BOB if absent is ANN else ANN
    await svc.vacation(game_id, other.id, 3)
    now.now += HOUR
    await svc.act(game_id, absent.id, verb="move", args={"steps": "1"})
    assert (await svc.get(game_id)).clock_deadline == now.now - HOUR + 3 * 86400 + CLOCKS["24h"]
    now.now += HOUR
    await svc.vacation(game_id, other.id, 0)
    assert (await svc.get(game_id)).clock_deadline == now.now + CLOCKS["24h"]


async def test_host_pause_and_resume(db: Database) -> None:
    now = Clock()
    svc = service(db, now)
    game_id = await race_game(svc)
    with pytest.raises(IllegalAction, match="Only the host"):
        await svc.pause(game_id, BOB.id)
    paused = await svc.pause(game_id, ANN.id)
    assert paused.paused == HOST_PAUSED and paused.clock_deadline is None
    now.now += 10 * CLOCKS["1h"]
    assert await svc.clock_due() == []
    who = await mover(svc, game_id)
    await svc.act(game_id, who.id, verb="move", args={"steps": "1"})  # moves still count, the clock stays off
    assert (await svc.get(game_id)).clock_deadline is None
    resumed = await svc.resume(game_id, BOB.id, can_manage=True)
    assert resumed.clock_deadline == now.now + CLOCKS["1h"]


async def test_an_organiser_without_a_seat_and_seats_that_change_hands(db: Database) -> None:
    now = Clock()
    svc = service(db, now)
    info = await svc.create("race", DI, guild_id=1, seated=False, options={"clock": "none"})
    assert info.seats == [] and info.host_id == DI.id
    await svc.join(info.game_id, ANN)
    await svc.join(info.game_id, BOB)
    await svc.start(info.game_id, DI.id)
    game_id = info.game_id
    with pytest.raises(IllegalAction, match="Only the host"):
        await svc.replace(game_id, BOB.id, CY, player=ANN.id)
    old, seat = await svc.replace(game_id, DI.id, CY, player=ANN.id)
    assert old == "Ann" and seat == 0
    assert (await svc.lobby(game_id)).seats[0].user_id == CY.id
    left, name = await svc.leave_game(game_id, BOB.id)
    played = await svc.play_tabula(game_id)  # after the answer: Tabula moves when the seat it took must act
    assert played or 1 not in left.to_act
    assert name == "Bob" and (await svc.lobby(game_id)).seats[1].user_id < 0  # Tabula plays it now
    with pytest.raises(IllegalAction, match="already has a seat"):
        await svc.replace(game_id, DI.id, CY, seat=1)
    old, seat = await svc.replace(game_id, ANN.id, ANN, seat=1, taking=True)  # a seat its player left is free
    assert seat == 1
    with pytest.raises(IllegalAction, match="not free to take"):
        await svc.replace(game_id, DI.id, DI, seat=0, taking=True)  # seat 0 is Cy's, and Cy has not been absent
    state = await svc.replay(game_id)
    assert json.dumps(state.at) == json.dumps((await svc.get(game_id)).state.at)  # names changed, replay holds


async def test_undo_takes_back_the_last_move_only(db: Database) -> None:
    now = Clock()
    svc = service(db, now)
    game_id = await race_game(svc, clock="none")
    first = await mover(svc, game_id)
    second = BOB if first is ANN else ANN
    with pytest.raises(IllegalAction, match="Nothing has been played"):
        await svc.undo(game_id, first.id)
    before = (await svc.get(game_id)).state
    await svc.act(game_id, first.id, verb="move", args={"steps": "3"})
    with pytest.raises(IllegalAction, match="has moved since"):
        await svc.undo(game_id, second.id)
    done = await svc.undo(game_id, first.id)
    assert done.name == first.name and "3 steps" in done.label
    assert done.moment.state.at == before.at and done.moment.to_act == frozenset({before.turn})
    rows = await svc.history(game_id)
    assert kind_of(rows[-1]) == UNDO
    assert (await svc.replay(game_id)).at == before.at
    await svc.act(game_id, first.id, verb="move", args={"steps": "2"})
    await svc.act(game_id, second.id, verb="move", args={"steps": "1"})
    with pytest.raises(IllegalAction, match="has moved since"):
        await svc.undo(game_id, first.id)
    await svc.act(game_id, first.id, verb="roll", args={"expr": "d6"})
    await svc.act(game_id, first.id, verb="move", args={"steps": "1"})
    await svc.act(game_id, second.id, verb="roll", args={"expr": "d6"})
    with pytest.raises(IllegalAction, match="Dice were rolled"):
        await svc.undo(game_id, first.id)


async def test_history_export_and_verify_read_undos_and_seats_that_changed_hands(db: Database) -> None:
    from bot.ops.verify import check
    from bot.service.records import Records, export, history_lines

    now = Clock()
    svc = service(db, now)
    game_id = await race_game(svc, clock="none")
    first = await mover(svc, game_id)
    await svc.act(game_id, first.id, verb="move", args={"steps": "2"})
    await svc.undo(game_id, first.id)
    await svc.replace(game_id, ANN.id, CY, player=BOB.id)  # Bob's seat is Cy's now: names differ from setup
    while (await svc.get(game_id)).status == "active":
        moment = await svc.get(game_id)
        seat = min(moment.to_act)
        await svc.act(game_id, moment.user_of(seat), verb="move", args={"steps": "1"})
    walked = await Records(db.sessions).game(game_id, 1)
    lines = history_lines(walked)
    assert any("taken back" in line for line in lines)
    report = check(export(walked, now=now.now))
    assert report.complete and not report.mismatches, report.mismatches
