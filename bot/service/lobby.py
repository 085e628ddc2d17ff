"""The lobby: opening a game, taking and leaving seats, seats Tabula plays, the start, abandoning.

Every change claims the lobby row at its version (``Queries._bump``), so joins, leaves and the start happen
in one order even across processes.  The start writes the rules' settled options, the first state and the
"start" log row in one transaction."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from bot.longplay.clock import CLOCK_OPTION, POLICY_OPTION, check_clock
from bot.longplay.clock import fresh as fresh_clock
from bot.present.base import SeatName
from bot.service.moment import GameMoment
from bot.store import Conflict, GameRecord, LobbyRow, LogEntry, SeatRow
from bot.store.db import Database
from bot.store.models import Game
from rules import GameError, IllegalAction
from rules.core import SeatInfo
from rules.i18n import N_, SOURCE, _, _n, _p, normalise
from rules.registry import AnyRuleset, game_text, ruleset
from rules.search import LEVEL_OPTION

log = logging.getLogger("tabula.lobby")
_enc = msgspec.json.Encoder()

#: The option every game has: minutes before Tabula plays for an absent player (see ``timeout`` in the rules).
TIMEOUT_OPTION = "turn_timeout"
#: Its name in games stored before it was generic (it began as one game's Narrator timeout).
LEGACY_TIMEOUT_OPTION = "narrator_timeout"
TABULA_NAME = "Tabula"


@dataclass(frozen=True, slots=True)
class Person:
    id: int
    name: str


LobbyInfo = LobbyRow


def seat_names(seats: list[SeatRow]) -> list[SeatName]:
    return [SeatName(s.seat, s.user_id, s.name) for s in seats]


def timeout_minutes(options: Mapping[str, object], default: float) -> float:
    value = options.get(TIMEOUT_OPTION, options.get(LEGACY_TIMEOUT_OPTION, default))
    return float(value) if isinstance(value, (int, float, str)) else default


class Locks:
    """Per-game locks that are dropped once nobody holds or waits for them (the dict never only grows)."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}

    def __call__(self, game_id: int) -> _Held:
        return _Held(self, game_id)

    def __len__(self) -> int:
        return len(self._locks)

    async def drain(self) -> None:
        for lock in list(self._locks.values()):
            async with lock:
                pass


class _Held:
    def __init__(self, locks: Locks, game_id: int) -> None:
        self.locks, self.game_id = locks, game_id

    async def __aenter__(self) -> None:
        locks = self.locks
        lock = locks._locks.get(self.game_id)
        if lock is None:
            lock = locks._locks[self.game_id] = asyncio.Lock()
        locks._users[self.game_id] = locks._users.get(self.game_id, 0) + 1
        try:
            await lock.acquire()
        except BaseException:
            self._release_user()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self.locks._locks[self.game_id].release()
        self._release_user()

    def _release_user(self) -> None:
        locks = self.locks
        left = locks._users[self.game_id] - 1
        if left:
            locks._users[self.game_id] = left
        else:
            del locks._users[self.game_id]
            del locks._locks[self.game_id]


class BoundedMap(OrderedDict[int, int]):
    """A small least-recently-used map (thread id → game id), so the cache never only grows."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def remember(self, key: int, value: int) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


#: What the database and Discord can hold: seeds fit a signed 64-bit column, timeouts a week, values a menu.
SEED_RANGE = (0, 2**63 - 1)
TIMEOUT_RANGE = (0.5, 7 * 24 * 60.0)
VALUE_LIMIT = 100


def check_bounds(options: Mapping[str, object], seed: int | None) -> None:
    """Refuse, politely, what no column or Discord message could hold, before anything is stored."""
    if seed is not None and not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise IllegalAction(_("A seed is a whole number from 0 up (at most 19 digits)."))
    minutes = options.get(TIMEOUT_OPTION)
    if minutes is not None:
        value = float("nan")
        if isinstance(minutes, (int, float, str)):
            try:
                value = float(minutes)
            except ValueError:
                pass
        if not TIMEOUT_RANGE[0] <= value <= TIMEOUT_RANGE[1]:  # NaN fails both comparisons
            raise IllegalAction(_("The turn timeout is between {lo} and {hi} minutes.",
                                  lo=f"{TIMEOUT_RANGE[0]:g}", hi=f"{TIMEOUT_RANGE[1]:g}"))
    for name, given in options.items():
        if isinstance(given, str) and len(given) > VALUE_LIMIT:
            raise IllegalAction(_("`{name}` takes at most {most} characters.", name=name[:40], most=VALUE_LIMIT))


class LobbyService:
    def __init__(self, db: Database, *, clock: Callable[[], float] = time.time,
                 turn_timeout_minutes: float = 10.0, narrator_timeout_minutes: float | None = None,
                 cache_size: int = 256, default_clock: str = "24h", default_policy: str = "tabula") -> None:
        self.db = db
        self.default_clock, self.default_policy = default_clock, default_policy
        self.queries = db.queries
        self.clock = clock
        self.turn_timeout_minutes = narrator_timeout_minutes if narrator_timeout_minutes is not None else \
            turn_timeout_minutes
        self._locks = Locks()
        self._threads = BoundedMap(4 * cache_size)

    def _remember_started(self, game_id: int, record: GameRecord, seats: list[SeatRow], state: object) -> None:
        """Hook for the play service's cache (a new game's first move then needs no read)."""

    def forget(self, game_id: int | None = None) -> None:
        """Hook for the play service's cache."""

    async def lobby(self, game_id: int) -> LobbyInfo:
        info = await self.queries.lobby(game_id)
        if info is None:
            raise GameError(_("There is no game #{number}. `/game list` shows the games in this server.",
                              number=game_id))
        return info

    async def create(self, key: str, host: Person, *, guild_id: int | None = None, channel_id: int | None = None,
                     options: Mapping[str, object] | None = None, seed: int | None = None,
                     seated: bool = True, language: str | None = None) -> LobbyInfo:
        """A lobby for ``key``; the host takes seat 1 unless ``seated`` is False (a moderator organising a
        table for others).  The turn clock and its policy come from the options, then the server's defaults,
        then the bot's.  ``language`` is the game's (English when Tabula does not speak it)."""
        rules = ruleset(key)
        opts = {k: v for k, v in (options or {}).items() if v is not None}
        if LEGACY_TIMEOUT_OPTION in opts and TIMEOUT_OPTION not in opts:
            opts[TIMEOUT_OPTION] = opts.pop(LEGACY_TIMEOUT_OPTION)
        opts.setdefault(TIMEOUT_OPTION, self.turn_timeout_minutes)
        check_bounds(opts, seed)
        can_skip = getattr(rules, "skip", None) is not None
        check_clock(opts.get(CLOCK_OPTION), opts.get(POLICY_OPTION), can_skip=can_skip,
                    title=game_text(key, rules.spec.title))
        server_clock, server_policy = await self.queries.guild_defaults(guild_id)
        opts.setdefault(CLOCK_OPTION, server_clock or self.default_clock)
        policy = server_policy or self.default_policy
        opts.setdefault(POLICY_OPTION, policy if policy != "skip" or can_skip else "tabula")
        if rules.spec.option(LEVEL_OPTION) is not None and LEVEL_OPTION not in opts:
            level = await self.queries.guild_level(guild_id)
            if level:
                opts[LEVEL_OPTION] = level
        now = self.clock()
        game = Game(guild_id=guild_id, channel_id=channel_id, host_id=host.id, ruleset=rules.spec.key,
                    options=msgspec.json.encode(opts).decode(), status="lobby",
                    seed=secrets.randbits(62) if seed is None else seed, version=0, created_at=now, updated_at=now,
                    language=normalise(language) or SOURCE)
        game_id = await self.queries.create(game, SeatRow(0, host.id, host.name) if seated else None)
        log.info("game %d: created (%s) by %d", game_id, key, host.id)
        return await self.lobby(game_id)

    async def _seat_change(self, game_id: int, change: Callable[[LobbyInfo, AnyRuleset], Any], again: str) -> LobbyInfo:
        async with self._locks(game_id):
            for _attempt in range(8):
                info = await self.lobby(game_id)
                try:
                    await change(info, ruleset(info.ruleset))
                except Conflict:
                    continue
                return await self.lobby(game_id)
        raise GameError(_("The lobby is very busy — please press {button} again.", button=_(again)))

    def _check_room(self, info: LobbyInfo, rules: AnyRuleset) -> None:
        if info.status != "lobby":
            raise IllegalAction(_("This game has already started; you can watch it in its thread."))
        if len(info.seats) >= rules.spec.max_players:
            raise IllegalAction(f"{rules.spec.title} seats at most {rules.spec.max_players} players, and the table "
                                "is full. Start another game with `/game new`.")

    async def join(self, game_id: int, person: Person) -> LobbyInfo:
        async def change(info: LobbyInfo, rules: AnyRuleset) -> None:
            if info.status == "lobby" and any(s.user_id == person.id for s in info.seats):
                raise IllegalAction(_("You are already seated in this game."))
            self._check_room(info, rules)
            await self.queries.add_seat(game_id, info.version, SeatRow(len(info.seats), person.id, person.name),
                                        self.clock())
        return await self._seat_change(game_id, change, N_("Join"))

    async def add_tabula(self, game_id: int, user_id: int) -> LobbyInfo:
        """The host seats Tabula, which then plays that seat itself."""
        async def change(info: LobbyInfo, rules: AnyRuleset) -> None:
            if user_id != info.host_id:
                raise IllegalAction(_("Only the host can seat Tabula."))
            self._check_room(info, rules)
            bots = [s for s in info.seats if s.auto]
            name = TABULA_NAME if not bots else f"{TABULA_NAME} {len(bots) + 1}"
            await self.queries.add_seat(game_id, info.version, SeatRow(len(info.seats), -(len(bots) + 1), name),
                                        self.clock())
        return await self._seat_change(game_id, change, N_("Add Tabula"))

    async def leave(self, game_id: int, person: Person) -> LobbyInfo:
        async def change(info: LobbyInfo, rules: AnyRuleset) -> None:
            if info.status != "lobby":
                raise IllegalAction(_("The game has started, so seats are fixed. The host can `/game abandon` it."))
            mine = next((s for s in info.seats if s.user_id == person.id), None)
            if mine is None and person.id == info.host_id and any(s.auto for s in info.seats):
                mine = [s for s in info.seats if s.auto][-1]  # an unseated host's Leave takes a Tabula seat away
            if mine is None:
                raise IllegalAction(_("You are not seated in this game, so there is nothing to leave."))
            await self.queries.remove_seat(game_id, info.version, info.seats, mine.user_id, self.clock())
            if person.id == info.host_id and mine.user_id == person.id:
                # The host's own seat goes; the host role passes to the next person seated, if any (otherwise
                # the host stays on as organiser, without a seat).
                heir = next((s for s in info.seats if s.user_id > 0 and s.user_id != person.id), None)
                if heir is not None:
                    await self.queries.set_host(game_id, heir.user_id)
        return await self._seat_change(game_id, change, N_("Leave"))

    @staticmethod
    def _tabula_to_act(rules: AnyRuleset, state: object, seats: Sequence[SeatRow]) -> bool:
        """A seat Tabula plays is among those to act."""
        acting = rules.to_act(state)
        return any(s.auto and s.seat in acting for s in seats)

    def _deadline(self, rules: AnyRuleset, state: object, options: Mapping[str, object], now: float,
                  seats: Sequence[SeatRow] = ()) -> float | None:
        """When Tabula plays for an absent player (the turn timeout); ``now`` when a seat Tabula plays is to act:
        its move follows the commit at once, and a process that dies first leaves it to the next sweep."""
        if self._tabula_to_act(rules, state, seats):
            return now
        if rules.timeout(state) is None:
            return None
        return now + timeout_minutes(options, self.turn_timeout_minutes) * 60

    async def start(self, game_id: int, user_id: int) -> GameMoment[Any]:
        async with self._locks(game_id):
            for _attempt in range(8):
                info = await self.lobby(game_id)
                rules = ruleset(info.ruleset)
                spec = rules.spec
                if info.status != "lobby":
                    raise IllegalAction(_("This game has already started."))
                if user_id != info.host_id:
                    raise IllegalAction(_("Only the host can start the game."))
                if len(info.seats) < spec.min_players:
                    raise IllegalAction(_n("{game} needs at least {n} player to start.",
                                           "{game} needs at least {n} players to start.", spec.min_players,
                                           game=game_text(spec.key, spec.title)))
                options = rules.check_options(info.options, len(info.seats))
                step = rules.setup([SeatInfo(index=s.seat, name=s.name) for s in info.seats], options, info.seed)
                now = self.clock()
                state_json = _enc.encode(step.state).decode()
                deadline = self._deadline(rules, step.state, options, now, info.seats)
                options_json = _enc.encode(options).decode()
                clock = fresh_clock(rules, step.state, info.seats, options, now)
                saved = await self.db.store.save(
                    game_id, info.version, state=state_json, status="active", deadline=deadline, now=now,
                    options=options_json, clock=clock,
                    tell=("start", None) if info.channel_id is not None else None,  # bot/delivery/outbox.py resumes it
                    entry=LogEntry(user_id=user_id, seat=None,
                                   action=_enc.encode({"type": "start", "names": [s.name for s in info.seats]})
                                   .decode(), events=_enc.encode(list(step.events)).decode()),
                )
                if not saved:
                    continue
                record = GameRecord(id=game_id, ruleset=spec.key, status="active", options=dict(options),
                                    state=state_json, version=info.version + 1, guild_id=info.guild_id,
                                    channel_id=info.channel_id, thread_id=info.thread_id, host_id=info.host_id,
                                    seed=info.seed, deadline=deadline, clock=clock, language=info.language)
                self._remember_started(game_id, record, info.seats, step.state)
                log.info("game %d: started with %d players", game_id, len(info.seats))
                return GameMoment(game_id=game_id, rules=rules, _state=step.state, seats=seat_names(info.seats),
                                  version=info.version + 1, events=step.events, thread_id=info.thread_id,
                                  channel_id=info.channel_id, options=dict(options), clock_deadline=clock.deadline,
                                  language=info.language)
        raise GameError(_("The lobby is very busy — please press {button} again.", button=_("Start")))

    async def set_thread(self, game_id: int, thread_id: int | None = None, *,
                         lobby_message_id: int | None = None) -> None:
        await self.queries.set_thread(game_id, thread_id, lobby_message_id)
        if thread_id is not None:
            self._threads.remember(thread_id, game_id)
            self.forget(game_id)  # the cached game was loaded before its thread existed

    async def swap_prompt(self, game_id: int, channel_id: int | None, message_id: int | None
                          ) -> tuple[int, int] | None:
        """Make (channel, message) the game's one prompt with live controls; returns the prompt it replaces,
        whose controls the caller takes away (kept in the database, so it holds across restarts)."""
        return await self.queries.swap_prompt(game_id, channel_id, message_id)

    async def game_in_thread(self, thread_id: int) -> int | None:
        if thread_id in self._threads:
            self._threads.move_to_end(thread_id)
            return self._threads[thread_id]
        game_id = await self.queries.game_in_thread(thread_id)
        if game_id is not None:
            self._threads.remember(thread_id, game_id)
        return game_id

    async def list_games(self, guild_id: int | None, *, limit: int = 25) -> list[Any]:
        return await self.queries.list_games(guild_id, limit=limit)

    async def abandon(self, game_id: int, user_id: int, *, can_manage: bool = False) -> LobbyInfo:
        async with self._locks(game_id):
            info = await self.lobby(game_id)
            if info.status in ("finished", "abandoned"):
                raise IllegalAction(_("This game is already {status}.", status=_p("status", info.status)))
            if user_id != info.host_id and not can_manage:
                raise IllegalAction(_("Only the host, or a member with **Manage Server**, can abandon a game."))
            record = await self.db.store.load(game_id)
            assert record is not None
            saved = await self.db.store.save(
                game_id, record.version, state=record.state or "", status="abandoned", deadline=None,
                now=self.clock(), entry=LogEntry(user_id=user_id, seat=None, action='{"type":"abandon"}',
                                                 events="[]"),
            )
            if not saved:
                raise GameError(_("The game moved on while you pressed that — please try again."))
            self.forget(game_id)
            log.info("game %d: abandoned by %d", game_id, user_id)
            return await self.lobby(game_id)

    async def count_games(self) -> int:
        return await self.queries.count_games()

    async def drain(self) -> None:
        """Wait until no game has an action in flight (used at shutdown)."""
        await self._locks.drain()
