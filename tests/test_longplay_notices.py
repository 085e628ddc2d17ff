"""The clock's notices (bot/delivery/notices.py) through the service and the outbox, on SQLite and on PostgreSQL: a
reminder, a run-out's line and strike, a wait and a seat offer are owed in the transaction that does them,
told once and in the game's order, kept when telling fails, taken back when Tabula's move is not made, found
again (not written twice) when a run-out is tried again after a crash, and a seat is offered once, then kept
up to date and closed.  Race to Ten stands in for any game; the Discord half is a recording teller (the real
one is tested through the real process in tests/test_longplay_process.py)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.delivery.notices import Notice, Told
from bot.delivery.outbox import Outbox
from bot.longplay.clock import CLOCKS, REMINDER_SHARE, STRIKES_TO_OFFER
from bot.longplay.service import LongGameService
from bot.service.play import Person
from bot.store.db import Database, open_database
from rules.registry import register, unregister

ANN, BOB, CY = Person(101, "Ann"), Person(202, "Bob"), Person(303, "Cy")
HOUR = 3600.0
PG = os.environ.get("TABULA_TEST_POSTGRES_URL", "")


@pytest.fixture(autouse=True)
def race() -> Iterator[None]:
    register("tests.plugins.race")
    yield
    unregister("tests.plugins.race")


@pytest.fixture(params=["sqlite", "postgresql"])
async def base(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    if request.param == "postgresql":
        if not PG:
            pytest.skip("TABULA_TEST_POSTGRES_URL is not set (CI sets it)")
        engine = create_async_engine(PG)
        async with engine.begin() as conn:  # a clean database for every test
            await conn.execute(text("DROP SCHEMA public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
        await engine.dispose()
        database = await open_database(PG)
    else:
        database = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'tabula.db'}")
    yield database
    await database.close()


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Teller:
    """The Discord half, recorded: each notice told gets a message; a seat's first offer is remembered."""

    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox
        self.told: list[Notice] = []
        self.searched: list[bool] = []  # whether each telling was told to look for an earlier post first
        self.fail = False
        outbox.notice_teller = self

    async def __call__(self, notice: Notice, maybe_posted: bool) -> Told:
        self.searched.append(maybe_posted)
        if self.fail:
            raise OSError("Discord cannot be reached")
        self.told.append(notice)
        message = 9000 + notice.id
        if notice.kind == "offer" and notice.seat is not None \
                and await self.outbox.notices.offer_of(notice.game_id, notice.seat) is None:
            return Told(message, offer=(77, message))
        return Told(message)

    def kinds(self) -> list[str]:
        return [n.kind for n in self.told]


async def table(db: Database, now: Clock, seed: int = 3, **options: Any) -> tuple[LongGameService, Outbox, Teller, int]:
    svc = LongGameService(db, clock=now)
    info = await svc.create("race", ANN, guild_id=1, channel_id=2, seed=seed,
                            options={"clock": "1h", "policy": "tabula", **options})
    await svc.join(info.game_id, BOB)
    await svc.start(info.game_id, ANN.id)
    await svc.queries.set_thread(info.game_id, 5, None)
    outbox = Outbox(None, db, clock=now)  # type: ignore[arg-type]
    await told_moves(db)
    return svc, outbox, Teller(outbox), info.game_id


async def told_moves(db: Database) -> None:
    """Every move's own telling delivered (the cog's part, not under test here)."""
    async with db.engine.begin() as conn:
        await conn.execute(text("UPDATE outbox SET delivered_at = 1 WHERE delivered_at IS NULL"))


async def died_before_the_move(svc: LongGameService, game_id: int, now: Clock
                               ) -> tuple[tuple[int, int, int | None], int, int]:
    """A run-out cut short after its line and strike were owed, before Tabula's move: (what ``owe_ranout``
    gave, the seat, its player)."""
    moment = await svc.get(game_id)
    seat = min(moment.to_act)
    absent = moment.user_of(seat)
    body = {"title": "Race", "ruleset": "race", "language": "en", "thread_id": 5, "channel_id": 2,
            "users": [absent], "names": ["x"], "deadline": None, "strikes": 0, "user": absent}
    return await svc.notices.owe_ranout(game_id, moment.version, seat, body, now.now), seat, absent


async def owed(db: Database) -> int:
    async with db.engine.connect() as conn:
        return int((await conn.execute(text("SELECT COUNT(*) FROM outbox_notice WHERE delivered_at IS NULL"))).scalar()
                   or 0)


async def test_a_reminder_is_owed_with_the_clocks_claim_and_told_once(base: Database) -> None:
    now = Clock()
    svc, outbox, teller, game_id = await table(base, now)
    now.now += CLOCKS["1h"] * REMINDER_SHARE + 1
    [news] = await svc.clock_due()
    assert news.kind == "remind" and news.notice_id is not None
    assert await LongGameService(base, clock=now).clock_due() == []  # claimed: never twice
    assert await owed(base) == 1  # owed before anything is posted: a crash now loses nothing
    teller.fail = True
    assert await outbox.drain_notices() == 0  # Discord down: it stays owed
    assert await owed(base) == 1
    teller.fail = False
    assert await outbox.tell_notices(game_id) == [news.notice_id]
    assert await outbox.tell_notices(game_id) == [] and await outbox.drain_notices() == 0
    assert teller.searched == [True, True]  # tried before: a post of it may be on Discord (adopted, not repeated)
    [told] = teller.told
    assert told.kind == "remind" and told.body["deadline"] == news.deadline and told.body["users"] == news.users


async def test_a_notice_this_process_just_wrote_is_posted_without_looking_for_an_earlier_post(
        base: Database) -> None:
    now = Clock()
    svc, outbox, teller, _game = await table(base, now)
    now.now += CLOCKS["1h"] * REMINDER_SHARE + 1
    [news] = await svc.clock_due()
    assert news.notice_id is not None
    outbox.untried.add(news.notice_id)  # (what the Discord side does with the news of its own sweep)
    teller.fail = True
    await outbox.drain_notices()
    teller.fail = False
    await outbox.drain_notices()
    assert teller.searched == [False, True]  # once tried, a post may exist: the second try looks first


async def test_a_reminder_whose_turn_is_over_is_never_told(base: Database) -> None:
    now = Clock()
    svc, outbox, teller, game_id = await table(base, now)
    now.now += CLOCKS["1h"] * REMINDER_SHARE + 1
    assert [n.kind for n in await svc.clock_due()] == ["remind"]
    moment = await svc.get(game_id)
    await svc.act(game_id, moment.user_of(min(moment.to_act)), verb="move", args={"steps": "1"})
    await told_moves(base)
    assert await outbox.drain_notices() == 1 and teller.told == []  # dropped: it would tell a turn that is over
    assert await owed(base) == 0


async def test_the_clocks_notices_wait_for_the_moves_before_them(base: Database) -> None:
    now = Clock()
    svc, outbox, teller, game_id = await table(base, now)
    moment = await svc.get(game_id)
    await svc.act(game_id, moment.user_of(min(moment.to_act)), verb="move", args={"steps": "1"})  # not told yet
    now.now += CLOCKS["1h"] * REMINDER_SHARE + 1
    [news] = await svc.clock_due()
    assert await outbox.tell_notices(game_id) == [] and teller.told == []  # the move's telling comes first
    await told_moves(base)
    assert await outbox.tell_notices(game_id) == [news.notice_id]


async def test_a_run_out_owes_its_line_and_strike_before_the_move_and_once_across_a_retry(base: Database) -> None:
    now = Clock()
    svc, outbox, teller, game_id = await table(base, now)
    now.now += CLOCKS["1h"] + 1
    # A process that died between the line and the move: the strike and the line are written...
    first, seat, _absent = await died_before_the_move(svc, game_id, now)
    assert first[1] == 1 and first[2] is None
    [line] = await svc.notices.owed(game_id)
    assert await svc.notices.judge(line) == "wait"  # Tabula's move is not made yet
    # ...and the next sweep does the run-out again: the same line, the strike counted once.
    news = await LongGameService(base, clock=now).clock_due()
    assert [n.kind for n in news] == ["played"] and news[0].notice_id == first[0] and news[0].strikes == 1
    info = await svc.lobby(game_id)
    assert next(s for s in info.seats if s.seat == seat).strikes == 1
    await told_moves(base)
    assert await outbox.tell_notices(game_id) == [first[0]]
    assert teller.kinds() == ["ranout"] and teller.told[0].body["strikes"] == 1


async def test_a_line_whose_move_was_never_made_goes_with_its_strike(base: Database) -> None:
    now = Clock()
    svc, outbox, teller, game_id = await table(base, now)
    _first, seat, absent = await died_before_the_move(svc, game_id, now)
    await svc.act(game_id, absent, verb="move", args={"steps": "1"})  # the player moved first
    await told_moves(base)
    assert await outbox.drain_notices() == 1 and teller.told == []
    info = await svc.lobby(game_id)
    assert next(s for s in info.seats if s.seat == seat).strikes == 0


async def test_a_seat_is_offered_once_kept_up_to_date_and_closed_when_its_player_is_back(base: Database) -> None:
    now = Clock()
    svc, outbox, teller, game_id = await table(base, now, seed=4)  # (a race that lasts 11 run-outs)
    strikes: dict[int, int] = {}
    while max(strikes.values(), default=0) < STRIKES_TO_OFFER + 1:
        now.now += CLOCKS["1h"] + 1
        for news in await svc.clock_due():
            if news.kind == "played":
                assert news.seat is not None
                strikes[news.seat] = news.strikes
        await told_moves(base)
        await outbox.drain_notices()
        assert (await svc.get(game_id)).status == "active", "the race ended before the offer was made"
    offers = [n for n in teller.told if n.kind == "offer"]
    by_seat: dict[int, list[Notice]] = {}
    for n in offers:
        assert n.seat is not None
        by_seat.setdefault(n.seat, []).append(n)
    repeated = next(seat for seat, ns in by_seat.items() if len(ns) >= 2)
    assert [n.body["strikes"] for n in by_seat[repeated]] == list(range(STRIKES_TO_OFFER, strikes[repeated] + 1))
    live = await outbox.notices.offer_of(game_id, repeated)
    assert live == (77, 9000 + by_seat[repeated][0].id)  # the first offer is the one message, edited since
    # Its player is back: the offer is closed (told as "unoffer", naming the message), and is no longer live.
    moment = await svc.get(game_id)
    while min(moment.to_act) != repeated:
        now.now += CLOCKS["1h"] + 1
        await svc.clock_due()
        moment = await svc.get(game_id)
    await svc.act(game_id, moment.user_of(repeated), verb="move", args={"steps": "1"})
    await told_moves(base)
    await outbox.drain_notices()
    closing = teller.told[-1]
    assert closing.kind == "unoffer" and closing.body["reason"] == "back" and closing.body["message"] == live[1]
    assert await outbox.notices.offer_of(game_id, repeated) is None


async def test_a_seat_given_away_closes_its_offer_and_a_taken_one_is_forgotten(base: Database) -> None:
    now = Clock()
    svc, outbox, teller, game_id = await table(base, now)
    async with base.engine.begin() as conn:  # both seats offered already
        await conn.execute(text("UPDATE seat SET strikes = 3, offer_channel_id = 77, offer_message_id = 500 + seat "
                                "WHERE game_id = :g"), {"g": game_id})
    await svc.replace(game_id, ANN.id, CY, seat=1)
    await outbox.drain_notices()
    [closing] = teller.told
    assert closing.kind == "unoffer" and closing.body["reason"] == "replaced" and closing.body["name"] == "Cy"
    await svc.replace(game_id, 404, Person(404, "Di"), seat=0, taking=True)  # the button's own message says so
    assert await outbox.notices.offered(game_id) == []
    assert await svc.close_offers(game_id) == []
