"""More than one process: which Discord shards this process runs, and the checks that stop two processes from
serving the same ones.

Discord splits a bot's servers into shards (server ``g`` is on shard ``(g >> 22) % shard_count``) and sends
each server's interactions only to the connection that identified for its shard.  Several processes can
therefore share the work, each running its own shards (``SHARD_COUNT`` for the whole deployment,
``SHARD_IDS`` for this process); with neither set one process runs every shard, and Discord says how many.

Two processes on the same shards would both receive every interaction of those servers and break every game
(the first to answer acknowledges with a stale-button refusal, the other's move is rejected).  So at start a
process takes a **lease** on its shards in the database (table ``shard_lease``): one row per shard (``-1``
for "every shard"), with the owner, a heartbeat and an expiry.  A lease held by another live process refuses
the start with one line; the heartbeat renews it every third of ``SHARD_LEASE_SECONDS``, so a process that
crashed frees its shards that long after its last heartbeat (at once when the same host shows its process
is gone), and a restart works.

SQLite serves one process: :func:`lock_sqlite` takes an exclusive OS lock on a file next to the database,
and a second process on the same file is refused with one line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.ops import metrics
from bot.store.hot import sqlite_path

log = logging.getLogger("tabula.shards")
EVERY_SHARD = -1  # the lease of a process that runs all shards (no SHARD_IDS)


class ProcessConflict(Exception):
    """Another process already serves what this one was asked to serve; ``str(err)`` is the one line to print,
    ``holder`` names that process when it is known ("pid 4711 on host-a")."""

    def __init__(self, message: str, *, holder: str = "") -> None:
        super().__init__(message)
        self.holder = holder


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a server's events to (direct messages, with no server, come on shard 0)."""
    return 0 if guild_id is None else (int(guild_id) >> 22) % shard_count


@dataclass(frozen=True)
class ShardPlan:
    """The shards of this process: ``count`` for the whole deployment (None: Discord decides) and ``ids``
    (None: all of them)."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    @classmethod
    def from_settings(cls, settings: Any) -> ShardPlan:
        ids = getattr(settings, "shard_ids", None)
        return cls(count=getattr(settings, "shard_count", None), ids=tuple(ids) if ids is not None else None)

    @property
    def lease_keys(self) -> tuple[int, ...]:
        return self.ids if self.ids is not None else (EVERY_SHARD,)

    def client_options(self) -> dict[str, Any]:
        """What ``AutoShardedBot`` is given: nothing for the default (it asks Discord), else count and ids."""
        options: dict[str, Any] = {}
        if self.count is not None:
            options["shard_count"] = self.count
            if self.ids is not None:
                options["shard_ids"] = list(self.ids)
        return options

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process's shards receive that server's interactions."""
        if self.count is None or self.ids is None:
            return True
        return shard_of(guild_id, self.count) in self.ids

    def describe(self) -> str:
        if self.ids is None:
            return "every shard" if self.count is None else f"all {self.count} shards"
        return f"shard{'s' if len(self.ids) > 1 else ''} {', '.join(map(str, self.ids))} of {self.count}"


# --- SQLite: one process per file -----------------------------------------------------------------------

def lock_sqlite(url: str) -> IO[str] | None:
    """Hold an exclusive lock on ``<database>.lock`` for as long as the returned file stays open (the process's
    life); another process asking for it gets :class:`ProcessConflict`.  None for other databases (and on
    systems without ``fcntl``, where SQLite's own locking is all there is)."""
    path = sqlite_path(url)
    if path is None or path == ":memory:":
        return None
    try:
        import fcntl
    except ImportError:  # Windows
        return None
    lock_path = Path(path).with_name(Path(path).name + ".lock")
    handle = open(lock_path, "a+", encoding="utf-8")  # noqa: SIM115 - held open for the process's life
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise ProcessConflict(
            f"another Tabula process ({holder}) is already using {path}; SQLite serves one process. Stop it "
            "first, or use PostgreSQL with SHARD_COUNT and SHARD_IDS to run several.", holder=holder) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()} on {socket.gethostname()}\n")
    handle.flush()
    return handle


# --- the shard lease ----------------------------------------------------------------------------------

def _alive_here(owner: str) -> bool | None:
    """For a lease owned on this very host: whether that process still runs (None: another host, or unknown)."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname()[:120] or not pid_text.isdigit():
        return None
    pid = int(pid_text)
    if pid == os.getpid():
        return False  # our own pid under another tag: a previous life of this process slot (a restart)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class ShardLease:
    """This process's lease on its shards: taken at start, renewed by a heartbeat, given back at stop."""

    def __init__(self, engine: AsyncEngine, plan: ShardPlan, owner: str, *, seconds: float = 30.0,
                 clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.plan = plan
        self.owner = owner
        self.seconds = seconds
        self.clock = clock
        self._task: asyncio.Task[None] | None = None
        self.lost: asyncio.Event = asyncio.Event()
        #: the deployment's shards no live process holds, as the last heartbeat found them (see ``unclaimed``)
        self.orphans: frozenset[int] = frozenset()

    async def acquire(self) -> None:
        """Take the lease, or raise :class:`ProcessConflict` naming the process that holds it."""
        now = self.clock()
        async with self.engine.begin() as conn:
            await self._lock(conn)
            rows = (await conn.execute(text(
                "SELECT shard, shard_count, owner, heartbeat_at, expires_at FROM shard_lease"))).all()
            for shard, count, owner, beat, expires in rows:
                if owner == self.owner:
                    continue
                live = expires > now and _alive_here(owner) is not False
                if not live:
                    continue
                problem = self._clash(shard, count)
                if problem:
                    raise ProcessConflict(
                        f"{problem}: {owner} holds it (last heartbeat {max(0.0, now - beat):.0f} s ago). Give each "
                        "process its own SHARD_IDS with the same SHARD_COUNT; if that process is gone, its "
                        f"lease runs out in {max(0.0, expires - now):.0f} s and a restart then works.")
            keys = self.plan.lease_keys
            await conn.execute(text("DELETE FROM shard_lease WHERE expires_at <= :now OR owner = :owner "
                                    "OR shard IN (" + ", ".join(str(int(k)) for k in keys) + ")"),
                               {"now": now, "owner": self.owner})
            for key in keys:
                await conn.execute(text(
                    "INSERT INTO shard_lease (shard, shard_count, owner, started_at, heartbeat_at, expires_at) "
                    "VALUES (:shard, :count, :owner, :now, :now, :expires)"),
                    {"shard": key, "count": self.plan.count, "owner": self.owner, "now": now,
                     "expires": now + self.seconds})
        log.info("took the lease on %s as %s", self.plan.describe(), self.owner)

    def _clash(self, shard: int, count: int | None) -> str | None:
        """Why a live lease of another process rules this start out (None: it does not)."""
        mine = self.plan
        if shard == EVERY_SHARD or mine.ids is None:
            theirs = "every shard" if shard == EVERY_SHARD else f"shard {shard}"
            return (f"another process already runs {theirs} on this database, and this one would run "
                    f"{mine.describe()}")
        if count is not None and mine.count is not None and count != mine.count:
            return (f"another process runs shard {shard} of SHARD_COUNT={count} on this database, and this one has "
                    f"SHARD_COUNT={mine.count}")
        if shard in mine.ids:
            return f"shard {shard} is already running in another process on this database"
        return None

    async def _lock(self, conn: AsyncConnection) -> None:
        """Serialise lease changes: two processes starting at the same instant must not both see a free table."""
        if conn.dialect.name == "postgresql":
            await conn.execute(text("LOCK TABLE shard_lease IN SHARE ROW EXCLUSIVE MODE"))
        else:  # SQLite: a write first takes the database's write lock for the whole transaction
            await conn.execute(text("DELETE FROM shard_lease WHERE 1 = 0"))

    def _live(self, owner: str, expires: float, now: float) -> bool:
        return owner == self.owner or (expires > now and _alive_here(owner) is not False)

    async def unclaimed(self) -> list[int]:
        """The shards of the deployment (0 … ``SHARD_COUNT``−1) that no live process holds: their servers'
        interactions reach nobody.  A lease counts until it runs out, or at once when its process is known gone
        (on this host).  Empty when this process runs every shard, or Discord decides how many there are."""
        if self.plan.count is None or self.plan.ids is None:
            return []
        now = self.clock()
        async with self.engine.connect() as conn:
            rows = (await conn.execute(text("SELECT shard, owner, expires_at FROM shard_lease"))).all()
        held = {int(shard) for shard, owner, expires in rows if self._live(str(owner), float(expires), now)}
        if EVERY_SHARD in held:
            return []
        return [shard for shard in range(self.plan.count) if shard not in held]

    async def watch(self) -> frozenset[int]:
        """Look again which shards nobody runs (each heartbeat does): kept in ``orphans``, in the metrics, and
        one log line when it changes."""
        found = frozenset(await self.unclaimed())
        if found != self.orphans:
            if found:
                log.warning("no process runs shard%s %s of %d: those servers' commands reach nobody until one "
                            "starts (this process tells their games' owed moves meanwhile)",
                            "s" if len(found) > 1 else "", ", ".join(map(str, sorted(found))), self.plan.count or 0)
            else:
                log.info("every shard of %d has a process again", self.plan.count or 0)
        self.orphans = found
        metrics.set_shards(self.plan.count, found)
        return found

    async def renew(self) -> bool:
        """One heartbeat; False when the lease is no longer ours (another process took it after it ran out)."""
        now = self.clock()
        keys = self.plan.lease_keys
        async with self.engine.begin() as conn:
            result = await conn.execute(text(
                "UPDATE shard_lease SET heartbeat_at = :now, expires_at = :expires WHERE owner = :owner AND shard IN ("
                + ", ".join(str(int(k)) for k in keys) + ")"),
                {"now": now, "expires": now + self.seconds, "owner": self.owner})
        return int(result.rowcount or 0) == len(keys)

    def start_heartbeat(self, on_lost: Callable[[], Any]) -> None:
        self._task = asyncio.create_task(self._beat(on_lost), name="tabula-shard-lease")

    async def _beat(self, on_lost: Callable[[], Any]) -> None:
        failures = 0
        while True:
            await asyncio.sleep(self.seconds / 3)
            try:
                ok = await self.renew()
                failures = 0
            except Exception:  # the database is unreachable for a moment: the lease still has time
                failures += 1
                log.warning("could not renew the lease on %s (try %d)", self.plan.describe(), failures,
                            exc_info=True)
                continue
            if not ok:
                log.error("the lease on %s was taken by another process (this one missed its heartbeats): "
                          "stopping, so that two processes never serve the same servers", self.plan.describe())
                self.lost.set()
                result = on_lost()
                if asyncio.iscoroutine(result):
                    await result
                return
            try:
                await self.watch()
            except Exception as err:  # the database is unreachable for a moment: the next heartbeat looks again
                log.warning("could not see which shards have a process (%s)", type(err).__name__)

    async def release(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        with contextlib.suppress(Exception):  # a stop never fails on this: the lease runs out by itself
            async with self.engine.begin() as conn:
                await conn.execute(text("DELETE FROM shard_lease WHERE owner = :owner"), {"owner": self.owner})

    async def holders(self) -> Sequence[tuple[int, str, float]]:
        """(shard, owner, expires at) of every lease, for operators and tests."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(text("SELECT shard, owner, expires_at FROM shard_lease ORDER BY shard"))).all()
        return [(int(r[0]), str(r[1]), float(r[2])) for r in rows]


__all__ = ["EVERY_SHARD", "ProcessConflict", "ShardLease", "ShardPlan", "lock_sqlite", "shard_of"]
