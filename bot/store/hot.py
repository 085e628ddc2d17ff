"""The per-action hot path: load a game row, and save a new state with its log row in one transaction.

Saving is optimistic: ``UPDATE game ... WHERE id = :id AND version = :v``; when no row matches, another
writer (in this process or another one) got there first and the caller reloads.  Two implementations:

* ``SqliteStore`` (the default): one aiosqlite writer connection, transactions serialised by a lock and
  opened with ``BEGIN IMMEDIATE``, plus a separate reader connection (WAL lets it read while a write runs).
  Measured on the 2-core dev box, an ORM session per action managed ~200 actions/s; this path runs at the
  speed of a bare aiosqlite transaction (see ``python -m bot.bench``).
* ``CoreStore``: SQLAlchemy Core on the async engine, for PostgreSQL (asyncpg) and any other backend.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiosqlite
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

_COLUMNS = ("id, ruleset, status, options, state, version, guild_id, channel_id, thread_id, host_id, seed, deadline, "
            "clock_deadline, remind_at, wake_at, paused, language")
_LOAD = f"SELECT {_COLUMNS} FROM game WHERE id = :id"
_SEATS = "SELECT seat, user_id, name, strikes, vacation_until FROM seat WHERE game_id = :id ORDER BY seat"
#: Every move writes the turn clock too (see ``bot.longplay.clock``): it starts again whenever the turn moves on.
_SET = ("state = :state, status = :status, deadline = :deadline, version = version + 1, updated_at = :now, "
        "clock_deadline = :clock_deadline, remind_at = :remind_at, wake_at = :wake_at, paused = :paused")
_UPDATE = f"UPDATE game SET {_SET} WHERE id = :id AND version = :version"
#: The start: the options as the rules settled them are written in the same statement as the first state.
_UPDATE_OPTIONS = f"UPDATE game SET {_SET}, options = :options WHERE id = :id AND version = :version"
_INSERT = (
    "INSERT INTO action (game_id, seq, user_id, seat, action, events, created_at) "
    "VALUES (:id, :seq, :user_id, :seat, :action, :events, :now)"
)
#: The move's telling, owed to its thread from this same transaction on (see ``bot/delivery/outbox.py``).
_OWE = "INSERT INTO outbox (game_id, seq, kind, state, created_at) VALUES (:id, :seq, :kind, :state, :now)"


@dataclass(slots=True)
class GameRecord:
    id: int
    ruleset: str
    status: str
    options: dict[str, Any]
    state: str | None
    version: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    host_id: int
    seed: int
    deadline: float | None
    clock: Clock = field(default_factory=lambda: Clock())
    #: What the game's thread, pictures and tellings are written in (``rules.i18n.LANGUAGES``).
    language: str = "en"

    @classmethod
    def from_row(cls, row: Any) -> GameRecord:
        r = tuple(row)
        return cls(id=r[0], ruleset=r[1], status=r[2], options=json.loads(r[3] or "{}"), state=r[4],
                   version=r[5], guild_id=r[6], channel_id=r[7], thread_id=r[8], host_id=r[9], seed=r[10],
                   deadline=r[11], clock=Clock(deadline=r[12], remind_at=r[13], wake_at=r[14], paused=r[15] or 0),
                   language=(r[16] if len(r) > 16 else None) or "en")


@dataclass(frozen=True, slots=True)
class Clock:
    """A game's turn clock as stored: when it runs out, when its one reminder is due, the sooner of the two
    (what the sweep reads), and whether it is stopped (1: by the host; 2: waiting for an absent player)."""

    deadline: float | None = None
    remind_at: float | None = None
    wake_at: float | None = None
    paused: int = 0

    def values(self) -> dict[str, Any]:
        return {"clock_deadline": self.deadline, "remind_at": self.remind_at, "wake_at": self.wake_at,
                "paused": self.paused}


@dataclass(slots=True)
class LogEntry:
    user_id: int
    seat: int | None
    action: str
    events: str


class GameStore(Protocol):
    async def load(self, game_id: int) -> GameRecord | None: ...

    async def load_seats(self, game_id: int) -> list[tuple[int, int, str, int, float | None]]:
        """(seat, user id, name, strikes, vacation until) of every seat, in seat order."""
        ...

    async def save(self, game_id: int, version: int, *, state: str, status: str, deadline: float | None,
                   entry: LogEntry | None, now: float, options: str | None = None, clock: Clock | None = None,
                   tell: tuple[str, str | None] | None = None) -> bool:
        """Write the new state if the row is still at ``version``; False when someone else moved first.
        With ``options`` (the start), the lobby's options are rewritten in the same transaction.  With ``tell``
        (``("move", the state the move was made in)`` or ``("start", None)``), an outbox row owes the move's
        telling to the thread from this transaction on (``bot/delivery/outbox.py`` draws it again from that state)."""
        ...

    async def close(self) -> None: ...



#: Each SQLite connection's page cache, in KiB (SQLite's default is 2,000): the file's pages stay in the
#: operating system's cache anyway, and a move reads and writes a handful of them, so four connections of a
#: long-running bot holding 2 MB each of pages read once (lists, exports, old games) bought nothing.
CACHE_KIB = 1024


class SqliteStore:
    """One writer connection with group commit, one reader connection, checkpoints off the hot path.

    Group commit without a writer task: a save joins the queue and takes the transaction lock; whoever holds
    it commits everything queued so far in one ``BEGIN IMMEDIATE`` ... ``COMMIT``, and a save whose entry was
    committed by an earlier holder just returns.  Alone, a save commits inline with no hand-off; under load,
    one transaction carries many moves.  A save whose version check fails matched no row and wrote nothing,
    so it simply skips its log row: the others in the batch are unaffected.  The WAL is checkpointed by a
    background task on the reader connection, so no player's move waits for an fsync of the whole file.
    """

    CHECKPOINT_EVERY = 2.0  # seconds

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection) -> None:
        self._writer = writer
        self._reader = reader
        self._pending: list[tuple[dict[str, Any], dict[str, Any] | None, asyncio.Future[bool]]] = []
        self._tx = asyncio.Lock()
        self._checkpoints = asyncio.create_task(self._checkpoint_loop(), name="tabula-sqlite-checkpoint")

    @classmethod
    async def open(cls, path: str) -> SqliteStore:
        conns = []
        # The writer lets the driver open each transaction itself ("BEGIN IMMEDIATE" sent together with the
        # first UPDATE): one thread hop fewer per commit than an explicit BEGIN.  The reader never writes.
        for level in ("IMMEDIATE", None):
            conn = await aiosqlite.connect(path, isolation_level=level)
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA busy_timeout=10000")
            await conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            conns.append(conn)
        await conns[0].execute("PRAGMA wal_autocheckpoint=0")
        return cls(conns[0], conns[1])

    async def load(self, game_id: int) -> GameRecord | None:
        async with self._reader.execute(_LOAD, {"id": game_id}) as cur:
            row = await cur.fetchone()
        return GameRecord.from_row(row) if row else None

    async def load_seats(self, game_id: int) -> list[tuple[int, int, str, int, float | None]]:
        async with self._reader.execute(_SEATS, {"id": game_id}) as cur:
            return [(r[0], r[1], r[2], r[3] or 0, r[4]) for r in await cur.fetchall()]

    async def save(self, game_id: int, version: int, *, state: str, status: str, deadline: float | None,
                   entry: LogEntry | None, now: float, options: str | None = None, clock: Clock | None = None,
                   tell: tuple[str, str | None] | None = None) -> bool:
        update, insert = _rows(game_id, version, state=state, status=status, deadline=deadline, entry=entry,
                               now=now, options=options, clock=clock, tell=tell)
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending.append((update, insert, done))
        try:
            async with self._tx:
                if not done.done():  # nobody has committed it yet: commit everything queued, ours included
                    batch, self._pending = self._pending, []
                    commit = asyncio.ensure_future(self._commit(batch))
                    try:
                        await asyncio.shield(commit)
                    except asyncio.CancelledError:
                        # The caller gave up (shutdown, a cancelled handler): the transaction still runs to
                        # its end, for everyone in the batch, before the connection is let go.
                        await commit
                        raise
        except asyncio.CancelledError:
            queued = [p for p in self._pending if p[2] is not done]
            if len(queued) < len(self._pending):  # still queued, never written: nobody will write it now
                self._pending = queued
                done.cancel()
            raise
        return await done

    async def _commit(self, batch: list[tuple[dict[str, Any], dict[str, Any] | None, asyncio.Future[bool]]]) -> None:
        db = self._writer
        try:
            results = []
            for update, insert, _ in batch:
                cur = await db.execute(_UPDATE_OPTIONS if "options" in update else _UPDATE, update)
                ok = cur.rowcount == 1
                if ok and insert is not None:
                    await db.execute(_INSERT, insert)  # (sqlite reads only the names the statement has)
                    if "tell" in insert:
                        await db.execute(_OWE, insert["tell"])
                results.append(ok)
            await db.commit()
        except Exception as err:
            try:
                await db.rollback()
            except Exception:
                pass
            if len(batch) > 1:  # find the one that failed: commit the others one by one
                for item in batch:
                    await self._commit([item])
                return
            if not batch[0][2].done():
                batch[0][2].set_exception(err)
            return
        for (_, _, done), ok in zip(batch, results, strict=True):
            if not done.done():
                done.set_result(ok)

    async def _checkpoint_loop(self) -> None:
        while True:
            await asyncio.sleep(self.CHECKPOINT_EVERY)
            try:
                await self._reader.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # a busy checkpoint is retried at the next tick
                pass

    async def close(self) -> None:
        async with self._tx:  # never cut a commit in half
            self._checkpoints.cancel()
            try:
                await self._checkpoints
            except (asyncio.CancelledError, Exception):
                pass
            try:
                await self._writer.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # another process is using the file; it will checkpoint later
                pass
        await self._writer.close()
        await self._reader.close()


class CoreStore:
    """The same two statements through SQLAlchemy Core, for PostgreSQL and other backends."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def load(self, game_id: int) -> GameRecord | None:
        async with self._engine.connect() as conn:
            row = (await conn.execute(text(_LOAD), {"id": game_id})).first()
        return GameRecord.from_row(row) if row else None

    async def load_seats(self, game_id: int) -> list[tuple[int, int, str, int, float | None]]:
        async with self._engine.connect() as conn:
            rows = (await conn.execute(text(_SEATS), {"id": game_id})).all()
        return [(r[0], r[1], r[2], r[3] or 0, r[4]) for r in rows]

    async def save(self, game_id: int, version: int, *, state: str, status: str, deadline: float | None,
                   entry: LogEntry | None, now: float, options: str | None = None, clock: Clock | None = None,
                   tell: tuple[str, str | None] | None = None) -> bool:
        update, insert = _rows(game_id, version, state=state, status=status, deadline=deadline, entry=entry,
                               now=now, options=options, clock=clock, tell=tell)
        async with self._engine.begin() as conn:
            result = await conn.execute(text(_UPDATE_OPTIONS if options is not None else _UPDATE), update)
            if result.rowcount != 1:
                await conn.rollback()
                return False
            if insert is not None:
                owed = insert.pop("tell", None)
                await conn.execute(text(_INSERT), insert)
                if owed is not None:
                    await conn.execute(text(_OWE), owed)
        return True

    async def close(self) -> None:
        return None


def _rows(game_id: int, version: int, *, state: str, status: str, deadline: float | None, entry: LogEntry | None,
          now: float, options: str | None, clock: Clock | None, tell: tuple[str, str | None] | None
          ) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A save's parameters, the same for both stores: the game row's update (with ``options`` only when they
    change), and the log row to insert, if any, carrying under ``tell`` the outbox row it owes."""
    update: dict[str, Any] = {"id": game_id, "version": version, "state": state, "status": status,
                              "deadline": deadline, "now": now, **(clock or Clock()).values()}
    if options is not None:
        update["options"] = options
    if entry is None:
        return update, None
    insert: dict[str, Any] = {"id": game_id, "seq": version + 1, "user_id": entry.user_id, "seat": entry.seat,
                              "action": entry.action, "events": entry.events, "now": now}
    if tell is not None:
        insert["tell"] = {"id": game_id, "seq": version + 1, "kind": tell[0], "state": tell[1], "now": now}
    return update, insert


def sqlite_path(url: str) -> str | None:
    """The file of a ``sqlite+aiosqlite:///path`` URL (None for other backends)."""
    if not url.startswith("sqlite"):
        return None
    path = url.split("///", 1)[1] if "///" in url else ":memory:"
    return path or ":memory:"


async def open_store(url: str, engine: AsyncEngine) -> GameStore:
    path = sqlite_path(url)
    if path is not None and path != ":memory:":
        return await SqliteStore.open(path)
    return CoreStore(engine)
