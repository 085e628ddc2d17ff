"""Background work claimed from the database, so that exactly one process does each item.

Several bot processes may share one PostgreSQL (see ``bot/ops/shards.py``).  Each of them sweeps for work that
no interaction triggers: turn clocks (reminders, run-outs), Tabula's timed moves, messages still to post.
Before a process acts on an item it **claims** the item's row: one statement sets ``claimed_by`` (the
process's identity) and ``claimed_until`` (now + a time to live) on rows that nobody holds, and returns the
keys it got.  On PostgreSQL the candidate rows are locked ``FOR UPDATE SKIP LOCKED``, so two processes
claiming at the same instant split the rows between them without waiting for each other; on SQLite the
statement runs under the database's single write lock (and only one process may open the file at all, see
``bot.ops.shards.lock_sqlite``).  A claim that its process never releases (it crashed, it was killed) runs out
after its time to live, and the next sweep of any process takes the item.

The claim is a generic primitive: any table with the two columns ``claimed_by`` (text) and ``claimed_until``
(a float, seconds since the epoch) can be claimed with :meth:`Claimer.claim` and given back with
:meth:`Claimer.release`.  Game rows carry them (migration 0006); :meth:`Claimer.due_games` is the sweep's
claim on every game whose clock or timeout is due.

The claim makes duplicates impossible in the ordinary course, and cheap to avoid; it is not the only guard.
The work itself stays conditional (a clock item is taken with ``UPDATE ... WHERE wake_at = :seen``, a timed
move is saved only at the version it was judged at), so even a claim that ran out while its holder was still
working (a process frozen for longer than the time to live) cannot make a reminder fire twice or a timed
move be played twice.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import socket
from collections.abc import AsyncIterator, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, text
from sqlalchemy.ext.asyncio import AsyncEngine

#: How long a sweep's claim on a game lasts unless released: far longer than a sweep takes (a sweep posts a
#: few messages per game), far shorter than any turn clock.
CLAIM_SECONDS = 120.0
#: Games one sweep claims at most; the rest wait for the next sweep (or another process).
SWEEP_LIMIT = 500
#: A game whose turn timeout has passed or whose clock has something due (the two things a sweep does).
DUE_GAMES = ("status = 'active' AND ((deadline IS NOT NULL AND deadline <= :now) OR "
             "(wake_at IS NOT NULL AND wake_at <= :now AND paused = 0))")
_NAME = re.compile(r"^[a-z_][a-z0-9_]*$")


def process_identity() -> str:
    """This process, as claims and shard leases name it: host, pid and a random tag (a restarted container
    may well get the same host name and pid 1 again; the tag still tells the two lives apart)."""
    return f"{socket.gethostname()[:120]}:{os.getpid()}:{secrets.token_hex(4)}"


def _name(identifier: str) -> str:
    if not _NAME.match(identifier):
        raise ValueError(f"not a plain SQL name: {identifier!r}")
    return identifier


@dataclass
class Claimer:
    """Claims rows for one process (``owner``) on one database."""

    engine: AsyncEngine
    owner: str = field(default_factory=process_identity)
    ttl: float = CLAIM_SECONDS

    @property
    def skip_locked(self) -> bool:
        """PostgreSQL locks the candidates and skips rows another claimer holds; SQLite has one writer anyway."""
        return self.engine.dialect.name == "postgresql"

    async def claim(self, table: str, where: str, params: Mapping[str, Any], *, now: float, key: str = "id",
                    limit: int = SWEEP_LIMIT, order: str | None = None, ttl: float | None = None) -> list[int]:
        """Claim up to ``limit`` rows of ``table`` matching ``where`` (an SQL condition over its columns, with
        ``:now`` and ``params`` bound) that no other process holds; returns their keys.

        Rows this process claimed before are returned again (a retry of its own unfinished work)."""
        table, key = _name(table), _name(key)
        lock = " FOR UPDATE SKIP LOCKED" if self.skip_locked else ""
        sql = (f"UPDATE {table} SET claimed_by = :claim_owner, claimed_until = :claim_until "
               f"WHERE {key} IN (SELECT {key} FROM {table} WHERE ({where}) AND "
               f"(claimed_until IS NULL OR claimed_until < :now OR claimed_by = :claim_owner) "
               f"ORDER BY {order or key} LIMIT :claim_limit{lock}) RETURNING {key}")
        values = {**params, "now": now, "claim_owner": self.owner, "claim_until": now + (ttl or self.ttl),
                  "claim_limit": limit}
        async with self.engine.begin() as conn:
            rows = (await conn.execute(text(sql), values)).all()
        return sorted(int(r[0]) for r in rows)

    async def release(self, table: str, keys: Collection[int], *, key: str = "id") -> int:
        """Give back this process's claims on ``keys`` (the work is done, or left for another try)."""
        if not keys:
            return 0
        table, key = _name(table), _name(key)
        sql = text(f"UPDATE {table} SET claimed_by = NULL, claimed_until = NULL "
                   f"WHERE {key} IN :claim_keys AND claimed_by = :claim_owner"
                   ).bindparams(bindparam("claim_keys", expanding=True))
        async with self.engine.begin() as conn:
            result = await conn.execute(sql, {"claim_keys": list(keys), "claim_owner": self.owner})
        return int(result.rowcount or 0)

    async def due_games(self, now: float, *, limit: int = SWEEP_LIMIT) -> list[int]:
        """Claim the games whose clock or turn timeout is due (what one sweep does)."""
        return await self.claim("game", DUE_GAMES, {}, now=now, limit=limit)

    @contextlib.asynccontextmanager
    async def sweeping(self, now: float, *, limit: int = SWEEP_LIMIT) -> AsyncIterator[frozenset[int]]:
        """``async with claimer.sweeping(now) as games:`` the due games this process may work on; the claims
        are given back when the block ends, however it ends."""
        games = await self.due_games(now, limit=limit)
        try:
            yield frozenset(games)
        finally:
            if games:
                await self.release("game", games)


__all__ = ["CLAIM_SECONDS", "DUE_GAMES", "SWEEP_LIMIT", "Claimer", "process_identity"]
