"""The ordinary queries (lobby, threads, lists, the log, due deadlines) through SQLModel sessions.

The per-move hot path is in ``hot.py``; everything else the services read or write goes through here, so no
service or cog builds a query of its own."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, func, update
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.store.hot import Clock
from bot.store.models import Action as ActionRow
from bot.store.models import Game, GuildSetting, PlayerPref, Seat
from rules.core import Outcome


class Conflict(Exception):
    """Someone changed the lobby between our read and our write."""



async def game_and_seats(session: AsyncSession, game_id: int) -> tuple[Game, list[Seat]] | None:
    """A game's row and its seats in seat order (None: no such game)."""
    game = await session.get(Game, game_id)
    if game is None:
        return None
    seats = (await session.exec(select(Seat).where(Seat.game_id == game_id).order_by(col(Seat.seat)))).all()
    return game, list(seats)

@dataclass(slots=True)
class SeatRow:
    seat: int
    user_id: int
    name: str
    strikes: int = 0  # clock run-outs in a row that Tabula played for this seat
    vacation_until: float | None = None

    @property
    def auto(self) -> bool:
        """A seat Tabula plays (its user id is negative: there is no person behind it)."""
        return self.user_id < 0


@dataclass(slots=True)
class LobbyRow:
    game_id: int
    ruleset: str
    status: str
    host_id: int
    options: dict[str, Any]
    seats: list[SeatRow]
    version: int
    thread_id: int | None = None
    channel_id: int | None = None
    lobby_message_id: int | None = None
    guild_id: int | None = None
    seed: int = 0
    language: str = "en"


@dataclass(slots=True)
class GameSummary:
    game_id: int
    ruleset: str
    status: str
    thread_id: int | None
    channel_id: int | None
    players: list[str] = field(default_factory=list)


class Queries:
    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self.sessions = sessions

    async def create(self, game: Game, host: SeatRow | None) -> int:
        """A new lobby; ``host`` is None when the host organises the game without a seat of their own."""
        async with self.sessions() as session:
            session.add(game)
            await session.flush()
            assert game.id is not None
            if host is not None:
                session.add(Seat(game_id=game.id, user_id=host.user_id, seat=0, name=host.name[:64]))
            await session.commit()
            return game.id

    async def lobby(self, game_id: int) -> LobbyRow | None:
        async with self.sessions() as session:
            found = await game_and_seats(session, game_id)
        if found is None:
            return None
        game, seats = found
        return LobbyRow(game_id=game_id, ruleset=game.ruleset, status=game.status, host_id=game.host_id,
                        options=json.loads(game.options), version=game.version, thread_id=game.thread_id,
                        channel_id=game.channel_id, lobby_message_id=game.lobby_message_id, guild_id=game.guild_id,
                        seed=game.seed, language=game.language or "en",
                        seats=[SeatRow(s.seat, s.user_id, s.name, s.strikes, s.vacation_until) for s in seats])

    async def _bump(self, session: AsyncSession, game_id: int, version: int, now: float) -> None:
        """Claim the lobby row at ``version`` or fail: keeps joins, leaves and the start in one order."""
        result = await session.exec(
            update(Game).where(col(Game.id) == game_id, col(Game.version) == version, col(Game.status) == "lobby")
            .values(version=Game.version + 1, updated_at=now)
        )
        if result.rowcount != 1:
            raise Conflict

    async def add_seat(self, game_id: int, version: int, seat: SeatRow, now: float) -> None:
        async with self.sessions() as session:
            await self._bump(session, game_id, version, now)
            session.add(Seat(game_id=game_id, user_id=seat.user_id, seat=seat.seat, name=seat.name[:64]))
            await session.commit()

    async def remove_seat(self, game_id: int, version: int, seats: list[SeatRow], user_id: int, now: float) -> None:
        """Take ``user_id``'s seat away and close the gap, so seats stay 0..n-1."""
        mine = next(s for s in seats if s.user_id == user_id)
        async with self.sessions() as session:
            await self._bump(session, game_id, version, now)
            await session.exec(delete(Seat).where(col(Seat.game_id) == game_id, col(Seat.user_id) == user_id))
            for s in seats:
                if s.seat > mine.seat:
                    await session.exec(update(Seat).where(col(Seat.game_id) == game_id,
                                                          col(Seat.user_id) == s.user_id).values(seat=s.seat - 1))
            await session.commit()

    async def set_thread(self, game_id: int, thread_id: int | None, lobby_message_id: int | None) -> None:
        values: dict[str, Any] = {}
        if thread_id is not None:
            values["thread_id"] = thread_id
        if lobby_message_id is not None:
            values["lobby_message_id"] = lobby_message_id
        if not values:
            return
        async with self.sessions() as session:
            await session.exec(update(Game).where(col(Game.id) == game_id).values(**values))
            await session.commit()

    async def set_strikes(self, game_id: int, seat: int, strikes: int) -> None:
        async with self.sessions() as session:
            await session.exec(update(Seat).where(col(Seat.game_id) == game_id, col(Seat.seat) == seat)
                               .values(strikes=strikes))
            await session.commit()

    async def record_result(self, game_id: int, outcome: Outcome, now: float) -> None:
        """Keep a finished game's result with it (winners by seat, scores, the summary), for stats."""
        result = json.dumps({"winners": list(outcome.winners), "scores": {str(k): v for k, v in outcome.scores.items()},
                             "summary": outcome.summary})
        async with self.sessions() as session:
            await session.exec(update(Game).where(col(Game.id) == game_id).values(result=result, finished_at=now))
            await session.commit()

    async def swap_prompt(self, game_id: int, channel_id: int | None, message_id: int | None
                          ) -> tuple[int, int] | None:
        """Record a game's newest prompt (None: the game has no live controls now) and return the one it
        replaces, in one transaction, so that exactly one message keeps live controls."""
        async with self.sessions() as session:
            game = await session.get(Game, game_id, with_for_update=True)
            if game is None:
                return None
            previous = (game.prompt_channel_id, game.prompt_message_id)
            game.prompt_channel_id, game.prompt_message_id = channel_id, message_id
            session.add(game)
            await session.commit()
        if previous[0] is None or previous[1] is None or previous == (channel_id, message_id):
            return None
        return int(previous[0]), int(previous[1])

    async def game_in_thread(self, thread_id: int) -> int | None:
        async with self.sessions() as session:
            # Newest first: without thread permission, several games can be played in one channel in turn.
            found = (await session.exec(select(Game.id).where(Game.thread_id == thread_id)
                                        .order_by(col(Game.id).desc()))).first()
        return found

    async def list_games(self, guild_id: int | None, *, limit: int = 25,
                         statuses: tuple[str, ...] = ("lobby", "active")) -> list[GameSummary]:
        async with self.sessions() as session:
            games = (await session.exec(
                select(Game).where(Game.guild_id == guild_id, col(Game.status).in_(list(statuses)))
                .order_by(col(Game.id).desc()).limit(limit)
            )).all()
            out = []
            for g in games:
                assert g.id is not None
                names = (await session.exec(select(Seat.name).where(Seat.game_id == g.id)
                                            .order_by(col(Seat.seat)))).all()
                out.append(GameSummary(game_id=g.id, ruleset=g.ruleset, status=g.status, thread_id=g.thread_id,
                                       channel_id=g.channel_id, players=list(names)))
        return out

    async def due(self, now: float) -> list[tuple[int, int]]:
        """(game id, version) of every running game whose deadline has passed (one indexed query)."""
        async with self.sessions() as session:
            rows = (await session.exec(
                select(Game.id, Game.version).where(col(Game.deadline) <= now, Game.status == "active")
            )).all()
        return [(int(i), int(v)) for i, v in rows if i is not None]

    async def set_deadline(self, game_id: int, version: int, deadline: float | None) -> None:
        """Move a game's turn timeout, only if the game is still at ``version``."""
        async with self.sessions() as session:
            await session.exec(update(Game).where(col(Game.id) == game_id, col(Game.version) == version)
                               .values(deadline=deadline))
            await session.commit()

    # --- long games: the clock, seats, defaults (see bot/longplay/service.py) ----------------------------------

    async def waking(self, now: float, *, limit: int = 500) -> list[tuple[int, float]]:
        """(game id, wake time) of running games whose clock has something due: one range scan of the
        ``wake_at`` index (10,000 running games cost no more than the due ones)."""
        async with self.sessions() as session:
            rows = (await session.exec(
                select(Game.id, Game.wake_at).where(col(Game.wake_at) <= now, Game.status == "active",
                                                    Game.paused == 0)
                .order_by(col(Game.wake_at)).limit(limit)
            )).all()
        return [(int(i), float(w)) for i, w in rows if i is not None and w is not None]

    async def claim_clock(self, game_id: int, wake_at: float | None, clock: Clock) -> bool:
        """Move a game's clock on, only if it still wakes at ``wake_at`` (so one process does each item)."""
        cond = col(Game.wake_at).is_(None) if wake_at is None else col(Game.wake_at) == wake_at
        async with self.sessions() as session:
            result = await session.exec(update(Game).where(col(Game.id) == game_id, cond).values(
                clock_deadline=clock.deadline, remind_at=clock.remind_at, wake_at=clock.wake_at, paused=clock.paused))
            await session.commit()
        return bool(result.rowcount == 1)

    async def set_clock(self, game_id: int, clock: Clock) -> None:
        async with self.sessions() as session:
            await session.exec(update(Game).where(col(Game.id) == game_id).values(
                clock_deadline=clock.deadline, remind_at=clock.remind_at, wake_at=clock.wake_at, paused=clock.paused))
            await session.commit()

    async def claim_nudge(self, game_id: int, now: float, since: float) -> bool:
        """Record a nudge unless one was made after ``since`` (at most one per clock period)."""
        async with self.sessions() as session:
            result = await session.exec(update(Game).where(
                col(Game.id) == game_id, (col(Game.nudged_at).is_(None)) | (col(Game.nudged_at) < since))
                .values(nudged_at=now))
            await session.commit()
        return bool(result.rowcount == 1)

    async def nudged_at(self, game_id: int) -> float | None:
        async with self.sessions() as session:
            return (await session.exec(select(Game.nudged_at).where(col(Game.id) == game_id))).first()

    async def set_seat(self, game_id: int, seat: int, **values: Any) -> None:
        """Change one seat in place (its person on a replacement, its vacation): the seat number stays."""
        if "name" in values:
            values["name"] = str(values["name"])[:64]
        async with self.sessions() as session:
            await session.exec(update(Seat).where(col(Seat.game_id) == game_id, col(Seat.seat) == seat)
                               .values(**values))
            await session.commit()

    async def vacation_used(self, game_id: int, seat: int) -> float:
        async with self.sessions() as session:
            used = (await session.exec(select(Seat.vacation_used).where(
                col(Seat.game_id) == game_id, col(Seat.seat) == seat))).first()
        return float(used or 0.0)

    async def set_host(self, game_id: int, host_id: int) -> None:
        async with self.sessions() as session:
            await session.exec(update(Game).where(col(Game.id) == game_id).values(host_id=host_id))
            await session.commit()

    async def notify(self, user_id: int, on: bool | None = None) -> bool:
        """A player's DM choice, set when ``on`` is given; returns it."""
        async with self.sessions() as session:
            pref = await session.get(PlayerPref, user_id)
            if on is not None:
                pref = pref or PlayerPref(user_id=user_id)
                pref.notify = int(on)
                session.add(pref)
                await session.commit()
            return bool(pref and pref.notify)

    async def wants_dm(self, user_ids: list[int]) -> set[int]:
        if not user_ids:
            return set()
        async with self.sessions() as session:
            rows = (await session.exec(select(PlayerPref.user_id).where(
                col(PlayerPref.user_id).in_(user_ids), PlayerPref.notify == 1))).all()
        return {int(u) for u in rows}

    async def guild_defaults(self, guild_id: int | None, clock: str | None = None, policy: str | None = None,
                             *, write: bool = False) -> tuple[str | None, str | None]:
        """A server's default clock and policy (written first when ``write``)."""
        if guild_id is None:
            return None, None
        async with self.sessions() as session:
            row = await session.get(GuildSetting, guild_id)
            if write:
                row = row or GuildSetting(guild_id=guild_id)
                row.clock = clock if clock is not None else row.clock
                row.policy = policy if policy is not None else row.policy
                session.add(row)
                await session.commit()
            return (row.clock, row.policy) if row else (None, None)

    async def guild_level(self, guild_id: int | None, level: str | None = None, *, write: bool = False) -> str | None:
        """A server's default level for Tabula's seats (written first when ``write``)."""
        if guild_id is None:
            return None
        async with self.sessions() as session:
            row = await session.get(GuildSetting, guild_id)
            if write:
                row = row or GuildSetting(guild_id=guild_id)
                row.tabula_level = level
                session.add(row)
                await session.commit()
            return row.tabula_level if row else None

    async def history(self, game_id: int) -> list[ActionRow]:
        async with self.sessions() as session:
            return list((await session.exec(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(col(ActionRow.seq))
            )).all())

    async def count_games(self) -> int:
        async with self.sessions() as session:
            return int((await session.exec(select(func.count()).select_from(Game))).one())
