"""The game service: the one path every action takes, from Discord, the terminal runner and the tests.

``act`` loads the game (from a small in-process cache when this process wrote it last), checks the seat
and the version, applies the rules, and saves the new state with its log row in one transaction.  Each
game's writes are serialised by an ``asyncio.Lock`` inside the process; the version column keeps several
processes honest (a stale write matches no row, and the service reloads and tries again).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from sqlalchemy import delete, func, update
from sqlmodel import col, select

from bot.db import Database
from bot.models import Action as ActionRow
from bot.models import Game, Seat
from bot.store import GameRecord, LogEntry
from rules import GameError, GameOver, IllegalAction, StaleAction, ruleset
from rules.core import SeatInfo

log = logging.getLogger("tabula.play")
_enc = msgspec.json.Encoder()
SYSTEM_USER = 0  # the user id logged for actions Tabula takes itself (a timed-out Narrator)


class NotSeated(GameError):
    """The person acting has no seat in this game."""


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    name: str


@dataclass(slots=True)
class SeatEntry:
    seat: int
    user_id: int
    name: str


@dataclass(slots=True)
class Loaded:
    record: GameRecord
    seats: list[SeatEntry]
    state: Any

    @property
    def version(self) -> int:
        return self.record.version


@dataclass(slots=True)
class Result:
    """What an action (or a start) did: the game after it, and the events to tell."""

    game_id: int
    version: int
    status: str
    rules: Any
    state: Any
    events: tuple[Any, ...]
    seats: list[SeatEntry]
    options: dict[str, Any]
    thread_id: int | None = None
    channel_id: int | None = None
    actor: int | None = None  # seat that acted (None for the start)
    action: Any = None  # what it did

    def user_of(self, seat: int) -> int:
        return self.seats[seat].user_id

    def view(self, seat: int | None = None) -> dict[str, Any]:
        return self.rules.view(self.state, seat)  # type: ignore[no-any-return]

    @property
    def outcome(self) -> Any:
        return self.rules.outcome(self.state)

    @property
    def stamp(self) -> int:
        """What buttons carry to be refused once stale: see ``stamp_of``."""
        return stamp_of(self.rules, self.state, self.version)


def stamp_of(rules: Any, state: Any, version: int) -> int:
    """The ruleset's ``moment`` when it has one (it ignores dice rolls, notes and reordering, so someone
    rolling dice does not stale the player's buttons), else the game's version."""
    moment = getattr(rules, "moment", None)
    return int(moment(state)) if moment is not None and state is not None else version


@dataclass(slots=True)
class LobbyInfo:
    game_id: int
    ruleset: str
    status: str
    host_id: int
    options: dict[str, Any]
    seats: list[SeatEntry]
    version: int
    thread_id: int | None = None
    channel_id: int | None = None
    lobby_message_id: int | None = None
    guild_id: int | None = None
    seed: int = 0

    @property
    def title(self) -> str:
        return ruleset(self.ruleset).title  # type: ignore[no-any-return]


@dataclass(slots=True)
class GameSummary:
    game_id: int
    ruleset: str
    status: str
    thread_id: int | None
    channel_id: int | None
    players: list[str] = field(default_factory=list)


class GameService:
    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time,
                 narrator_timeout_minutes: float = 10.0, cache_size: int = 512) -> None:
        self.db = db
        self.clock = clock
        self.narrator_timeout_minutes = narrator_timeout_minutes
        self._cache: OrderedDict[int, Loaded] = OrderedDict()
        self._cache_size = cache_size
        self._locks: dict[int, asyncio.Lock] = {}
        self._threads: dict[int, int] = {}

    # --- loading ------------------------------------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def _seats(self, game_id: int) -> list[SeatEntry]:
        return [SeatEntry(seat=s, user_id=u, name=n) for s, u, n in await self.db.store.load_seats(game_id)]

    async def _load(self, game_id: int, *, fresh: bool = False) -> Loaded:
        cached = self._cache.get(game_id)
        if cached is not None and not fresh:
            self._cache.move_to_end(game_id)
            return cached
        record = await self.db.store.load(game_id)
        if record is None:
            raise GameError(f"There is no game #{game_id}.")
        rules = ruleset(record.ruleset)
        state = msgspec.json.decode(record.state, type=rules.state_type) if record.state else None
        loaded = Loaded(record=record, seats=await self._seats(game_id), state=state)
        cached = self._cache.get(game_id)
        if cached is not None and cached.version > loaded.version:
            return cached  # a move committed while we were reading: the cache is the newer one
        if record.status == "active":
            self._remember(game_id, loaded)
        return loaded

    def _remember(self, game_id: int, loaded: Loaded) -> None:
        self._cache[game_id] = loaded
        self._cache.move_to_end(game_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def forget(self, game_id: int | None = None) -> None:
        """Drop cached games (all of them with no id): the next action reads the database again."""
        if game_id is None:
            self._cache.clear()
        else:
            self._cache.pop(game_id, None)

    # --- playing ------------------------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, action: Any = None, *, verb: str | None = None,
                  args: dict[str, str] | None = None, expect_version: int | None = None,
                  seat: int | None = None) -> Result:
        """Apply one action for ``user_id`` (or, with ``user_id=0`` and ``seat``, for Tabula itself)."""
        async with self._lock(game_id):
            fresh = False
            for _attempt in range(8):
                g = await self._load(game_id, fresh=fresh)
                try:
                    rules = ruleset(g.record.ruleset)
                    self._check_playable(g)
                    if expect_version is not None and stamp_of(rules, g.state, g.version) != expect_version:
                        raise StaleAction("That button belongs to an earlier moment of the game — use the newest "
                                          "message in the thread (or `/game status`).")
                    if user_id == SYSTEM_USER and seat is not None:
                        acting = seat
                    else:
                        acting = self._seat_of(g, user_id)
                    todo = rules.parse(g.state, acting, verb, args or {}) if verb is not None else action
                    step = rules.apply(g.state, acting, todo)
                except GameError:
                    if fresh:
                        raise
                    # Judged against the cache: another process may have moved the game on since. Refuse
                    # only what the game as stored refuses.
                    fresh = True
                    continue
                finished = rules.outcome(step.state) is not None
                status = "finished" if finished else "active"
                now = self.clock()
                deadline = self._deadline(rules, step.state, g.record.options, now)
                if stamp_of(rules, step.state, -1) == stamp_of(rules, g.state, -2) and g.record.deadline:
                    deadline = g.record.deadline  # a dice roll or a note does not give an absent player more time
                saved = await self.db.store.save(
                    game_id, g.version, state=_enc.encode(step.state).decode(), status=status,
                    deadline=deadline, now=now,
                    entry=LogEntry(user_id=user_id, seat=acting, action=_enc.encode(todo).decode(),
                                   events=_enc.encode(list(step.events)).decode()),
                )
                if not saved:  # another process moved this game on: read it again and retry
                    fresh = True
                    continue
                g.record.version += 1
                g.record.status = status
                g.record.deadline = deadline
                g.state = step.state
                if finished:
                    self.forget(game_id)
                log.info("game %d: seat %s %s -> v%d", game_id, acting, type(todo).__name__, g.version)
                return Result(game_id=game_id, version=g.version, status=status, rules=rules, state=step.state,
                              events=step.events, seats=g.seats, options=g.record.options,
                              thread_id=g.record.thread_id, channel_id=g.record.channel_id, actor=acting,
                              action=todo)
        raise GameError("This game is very busy right now — please try again in a moment.")

    def _check_playable(self, g: Loaded) -> None:
        status = g.record.status
        if status == "lobby":
            raise IllegalAction("This game has not started yet — the host presses **Start** in the lobby.")
        if status == "finished":
            raise GameOver("This game has ended. Start a new one with `/game new`.")
        if status == "abandoned":
            raise GameOver("This game was abandoned. Start a new one with `/game new`.")

    def _seat_of(self, g: Loaded, user_id: int) -> int:
        for s in g.seats:
            if s.user_id == user_id:
                return s.seat
        raise NotSeated("You are not playing in this game. You can watch, or start your own with `/game new`.")

    def _deadline(self, rules: Any, state: Any, options: dict[str, Any], now: float) -> float | None:
        timeout = getattr(rules, "timeout", None)
        if timeout is None or timeout(state) is None:
            return None
        minutes = float(options.get("narrator_timeout", self.narrator_timeout_minutes))
        return now + minutes * 60

    async def get(self, game_id: int, user_id: int | None = None) -> Result:
        """The game as it stands (for `/game status`, `/sheet`), read fresh: another process may have moved it.

        Under the game's lock, so that a read never lands in the cache in the middle of this process's move."""
        async with self._lock(game_id):
            g = await self._load(game_id, fresh=True)
        if g.state is None:
            raise IllegalAction("This game has not started yet — the host presses **Start** in the lobby.")
        seat = None
        if user_id is not None:
            seat = next((s.seat for s in g.seats if s.user_id == user_id), None)
        return Result(game_id=game_id, version=g.version, status=g.record.status, rules=ruleset(g.record.ruleset),
                      state=g.state, events=(), seats=g.seats, options=g.record.options,
                      thread_id=g.record.thread_id, channel_id=g.record.channel_id, actor=seat)

    async def choices(self, game_id: int, user_id: int, verb: str, option: str) -> list[tuple[str, str]]:
        g = await self._load(game_id)
        if g.state is None or g.record.status != "active":
            return []
        seat = next((s.seat for s in g.seats if s.user_id == user_id), None)
        if seat is None:
            return []
        return ruleset(g.record.ruleset).choices(g.state, seat, verb, option)  # type: ignore[no-any-return]

    # --- timeouts -----------------------------------------------------------------------------

    async def due(self) -> list[Result]:
        """Take Tabula's action in every game whose deadline has passed; the results are to be posted."""
        now = self.clock()
        async with self.db.sessions() as session:
            rows = (await session.exec(
                select(Game.id, Game.version).where(col(Game.deadline) <= now, Game.status == "active")
            )).all()
        results = []
        for game_id, version in rows:
            assert game_id is not None
            g = await self._load(game_id, fresh=True)
            rules = ruleset(g.record.ruleset)
            pending = rules.timeout(g.state) if g.state is not None else None
            if pending is None or g.version != version:
                continue
            seat, action = pending
            try:
                results.append(await self.act(game_id, SYSTEM_USER, action, seat=seat,
                                              expect_version=stamp_of(rules, g.state, g.version)))
            except GameError as err:  # someone acted in the meantime: nothing to do
                log.info("game %d: timeout skipped (%s)", game_id, err)
        return results

    # --- lobby --------------------------------------------------------------------------------

    async def create(self, key: str, host: Person, *, guild_id: int | None = None, channel_id: int | None = None,
                     options: dict[str, Any] | None = None, seed: int | None = None) -> LobbyInfo:
        rules = ruleset(key)
        opts = {k: v for k, v in (options or {}).items() if v is not None}
        if "narrator_timeout" not in opts:
            opts["narrator_timeout"] = self.narrator_timeout_minutes
        now = self.clock()
        game = Game(guild_id=guild_id, channel_id=channel_id, host_id=host.id, ruleset=rules.key,
                    options=json.dumps(opts), status="lobby", seed=secrets.randbits(62) if seed is None else seed,
                    version=0, created_at=now, updated_at=now)
        async with self.db.sessions() as session:
            session.add(game)
            await session.flush()
            assert game.id is not None
            session.add(Seat(game_id=game.id, user_id=host.id, seat=0, name=host.name[:64]))
            await session.commit()
        log.info("game %d: created (%s) by %d", game.id, key, host.id)
        return await self.lobby(game.id)

    async def lobby(self, game_id: int) -> LobbyInfo:
        async with self.db.sessions() as session:
            game = await session.get(Game, game_id)
            if game is None:
                raise GameError(f"There is no game #{game_id}.")
            seats = (await session.exec(select(Seat).where(Seat.game_id == game_id).order_by(col(Seat.seat)))).all()
        return LobbyInfo(game_id=game_id, ruleset=game.ruleset, status=game.status, host_id=game.host_id,
                         options=json.loads(game.options), version=game.version, thread_id=game.thread_id,
                         channel_id=game.channel_id, lobby_message_id=game.lobby_message_id, guild_id=game.guild_id,
                         seed=game.seed, seats=[SeatEntry(s.seat, s.user_id, s.name) for s in seats])

    async def _bump(self, session: Any, game_id: int, version: int) -> None:
        """Claim the lobby row at ``version`` or fail: keeps joins, leaves and the start in one order."""
        result = await session.exec(
            update(Game).where(col(Game.id) == game_id, col(Game.version) == version, col(Game.status) == "lobby")
            .values(version=Game.version + 1, updated_at=self.clock())
        )
        if result.rowcount != 1:
            raise _Conflict

    async def join(self, game_id: int, person: Person) -> LobbyInfo:
        async with self._lock(game_id):
            for _ in range(8):
                info = await self.lobby(game_id)
                rules = ruleset(info.ruleset)
                if info.status != "lobby":
                    raise IllegalAction("This game has already started; you can watch it in its thread.")
                if any(s.user_id == person.id for s in info.seats):
                    raise IllegalAction("You are already seated in this game.")
                if len(info.seats) >= rules.max_players:
                    raise IllegalAction(f"{rules.title} seats at most {rules.max_players} players, and the table "
                                        "is full. Start another game with `/game new`.")
                try:
                    async with self.db.sessions() as session:
                        await self._bump(session, game_id, info.version)
                        session.add(Seat(game_id=game_id, user_id=person.id, seat=len(info.seats),
                                         name=person.name[:64]))
                        await session.commit()
                except _Conflict:
                    continue
                return await self.lobby(game_id)
        raise GameError("The lobby is very busy — please press Join again.")

    async def leave(self, game_id: int, person: Person) -> LobbyInfo:
        async with self._lock(game_id):
            for _ in range(8):
                info = await self.lobby(game_id)
                if info.status != "lobby":
                    raise IllegalAction("The game has started, so seats are fixed. The host can `/game abandon` it.")
                mine = next((s for s in info.seats if s.user_id == person.id), None)
                if mine is None:
                    raise IllegalAction("You are not seated in this game, so there is nothing to leave.")
                if person.id == info.host_id:
                    raise IllegalAction("The host cannot leave their own lobby. Use `/game abandon` to call it off.")
                try:
                    async with self.db.sessions() as session:
                        await self._bump(session, game_id, info.version)
                        await session.exec(delete(Seat).where(col(Seat.game_id) == game_id,
                                                              col(Seat.user_id) == person.id))
                        for s in info.seats:
                            if s.seat > mine.seat:  # close the gap so seats stay 0..n-1
                                await session.exec(update(Seat).where(col(Seat.game_id) == game_id,
                                                                      col(Seat.user_id) == s.user_id)
                                                   .values(seat=s.seat - 1))
                        await session.commit()
                except _Conflict:
                    continue
                return await self.lobby(game_id)
        raise GameError("The lobby is very busy — please press Leave again.")

    async def start(self, game_id: int, user_id: int) -> Result:
        async with self._lock(game_id):
            for _ in range(8):
                info = await self.lobby(game_id)
                rules = ruleset(info.ruleset)
                if info.status != "lobby":
                    raise IllegalAction("This game has already started.")
                if user_id != info.host_id:
                    raise IllegalAction("Only the host can start the game.")
                if len(info.seats) < rules.min_players:
                    raise IllegalAction(f"{rules.title} needs at least {rules.min_players} players to start.")
                options = rules.check_options(info.options, len(info.seats))
                step = rules.setup([SeatInfo(index=s.seat, name=s.name) for s in info.seats], options, info.seed)
                now = self.clock()
                async with self.db.sessions() as session:  # the options as the rules settled them
                    await session.exec(update(Game).where(col(Game.id) == game_id).values(options=json.dumps(options)))
                    await session.commit()
                state_json = _enc.encode(step.state).decode()
                deadline = self._deadline(rules, step.state, options, now)
                saved = await self.db.store.save(
                    game_id, info.version, state=state_json, status="active", deadline=deadline, now=now,
                    entry=LogEntry(user_id=user_id, seat=None, action='{"type":"start"}',
                                   events=_enc.encode(list(step.events)).decode()),
                )
                if not saved:
                    continue
                # Keep the new game warm: its first move then needs no read at all.
                record = GameRecord(id=game_id, ruleset=rules.key, status="active", options=options, state=state_json,
                                    version=info.version + 1, guild_id=info.guild_id, channel_id=info.channel_id,
                                    thread_id=info.thread_id, host_id=info.host_id, seed=info.seed, deadline=deadline)
                self._remember(game_id, Loaded(record=record, seats=info.seats, state=step.state))
                log.info("game %d: started with %d players", game_id, len(info.seats))
                return Result(game_id=game_id, version=info.version + 1, status="active", rules=rules,
                              state=step.state, events=step.events, seats=info.seats, options=options,
                              thread_id=info.thread_id, channel_id=info.channel_id)
        raise GameError("The lobby is very busy — please press Start again.")

    async def set_thread(self, game_id: int, thread_id: int | None = None, *,
                         lobby_message_id: int | None = None) -> None:
        values: dict[str, Any] = {}
        if thread_id is not None:
            values["thread_id"] = thread_id
            self._threads[thread_id] = game_id
        if lobby_message_id is not None:
            values["lobby_message_id"] = lobby_message_id
        async with self.db.sessions() as session:
            await session.exec(update(Game).where(col(Game.id) == game_id).values(**values))
            await session.commit()
        cached = self._cache.get(game_id)
        if cached is not None and thread_id is not None:
            cached.record.thread_id = thread_id

    async def game_in_thread(self, thread_id: int) -> int | None:
        if thread_id in self._threads:
            return self._threads[thread_id]
        async with self.db.sessions() as session:
            # Newest first: without thread permission, several games can be played in one channel in turn.
            game_id = (await session.exec(select(Game.id).where(Game.thread_id == thread_id)
                                          .order_by(col(Game.id).desc()))).first()
        if game_id is not None:
            self._threads[thread_id] = game_id
        return game_id

    async def list_games(self, guild_id: int | None, *, limit: int = 25) -> list[GameSummary]:
        async with self.db.sessions() as session:
            games = (await session.exec(
                select(Game).where(Game.guild_id == guild_id, col(Game.status).in_(["lobby", "active"]))
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

    async def abandon(self, game_id: int, user_id: int, *, can_manage: bool = False) -> LobbyInfo:
        async with self._lock(game_id):
            info = await self.lobby(game_id)
            if info.status in ("finished", "abandoned"):
                raise IllegalAction(f"This game is already {info.status}.")
            if user_id != info.host_id and not can_manage:
                raise IllegalAction("Only the host, or a member with **Manage Server**, can abandon a game.")
            record = await self.db.store.load(game_id)
            assert record is not None
            saved = await self.db.store.save(
                game_id, record.version, state=record.state or "", status="abandoned", deadline=None,
                now=self.clock(), entry=LogEntry(user_id=user_id, seat=None, action='{"type":"abandon"}',
                                                 events="[]"),
            )
            if not saved:
                raise GameError("The game moved on while you pressed that — please try again.")
            self.forget(game_id)
            log.info("game %d: abandoned by %d", game_id, user_id)
            return await self.lobby(game_id)

    # --- history and replay -------------------------------------------------------------------

    async def history(self, game_id: int) -> list[ActionRow]:
        async with self.db.sessions() as session:
            return list((await session.exec(
                select(ActionRow).where(ActionRow.game_id == game_id).order_by(col(ActionRow.seq))
            )).all())

    async def replay(self, game_id: int) -> Any:
        """Rebuild the state from the start and the log alone (setup with the seed, then every action)."""
        info = await self.lobby(game_id)
        rules = ruleset(info.ruleset)
        state = rules.setup([SeatInfo(index=s.seat, name=s.name) for s in info.seats], info.options,
                            info.seed).state
        for row in await self.history(game_id):
            kind = json.loads(row.action).get("type")
            if kind in ("start", "abandon"):
                continue
            action = msgspec.json.decode(row.action, type=rules.action_type)
            assert row.seat is not None
            state = rules.apply(state, row.seat, action).state
        return state

    async def drain(self) -> None:
        """Wait until no game has an action in flight (used at shutdown)."""
        for lock in list(self._locks.values()):
            async with lock:
                pass

    async def count_games(self) -> int:
        async with self.db.sessions() as session:
            return int((await session.exec(select(func.count()).select_from(Game))).one())


class _Conflict(Exception):
    """Someone changed the lobby between our read and our write."""
