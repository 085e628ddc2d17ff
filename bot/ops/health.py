"""The optional operators' port (``HEALTH_PORT``): ``/healthz`` and ``/metrics``, served by aiohttp (already
a dependency of discord.py) on the bot's own event loop.

``/healthz`` answers 200 when the bot is ready, its gateway connection is open, the database answers a
trivial query within two seconds and every shard of the deployment has a live process, else 503; either way
a JSON body says which part is failing::

    {"ok": false, "status": "degraded", "ready": true, "gateway": true, "database": true, "database_ms": 0.4,
     "latency_ms": 41.2, "unclaimed_shards": [1]}

``status`` is ``degraded`` when this process is well and another shard has no process (its servers'
commands reach nobody), ``failing`` when this process itself is not.  ``/livez`` answers for this process
alone (no ``unclaimed_shards``): what a container's health check that restarts the process should read.

``/metrics`` is Prometheus' text format (see ``bot.ops.metrics``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from typing import Any, Protocol

from aiohttp import web
from sqlalchemy import text

from bot.ops import metrics

log = logging.getLogger("tabula.health")
DB_TIMEOUT = 2.0


class Watched(Protocol):
    """What the health check reads of the bot (typed here so that tests can hand in a stand-in)."""

    db: Any

    def is_ready(self) -> bool: ...
    def is_closed(self) -> bool: ...
    @property
    def latency(self) -> float: ...


def gateway_open(bot: Any) -> bool:
    """Whether the bot's gateway websocket (each of its shards' websockets) is open now."""
    if bot.is_closed():
        return False
    shards = getattr(bot, "shards", None)
    if isinstance(shards, dict):  # a sharded client: every shard this process runs must be connected
        return bool(shards) and not any(shard.is_closed() for shard in shards.values())
    ws = getattr(bot, "ws", None)
    socket = getattr(ws, "socket", None)
    return socket is not None and not socket.closed


async def database_ms(db: Any) -> float | None:
    """Milliseconds a ``SELECT 1`` takes, or None when it fails or takes over ``DB_TIMEOUT`` seconds."""
    if db is None:
        return None
    started = time.perf_counter()
    try:
        async with asyncio.timeout(DB_TIMEOUT):
            async with db.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
    except Exception as err:  # unreachable, locked past the timeout, closed: all mean "not healthy"
        log.warning("health check: the database did not answer (%s)", type(err).__name__)
        return None
    elapsed = time.perf_counter() - started
    metrics.DB_SECONDS.labels("health").observe(elapsed)
    return round(elapsed * 1000, 2)


async def unclaimed_shards(bot: Any) -> list[int]:
    """The deployment's shards no live process runs (bot.ops.shards.ShardLease.unclaimed), read afresh; the last
    heartbeat's finding when the database does not answer in time."""
    lease = getattr(bot, "lease", None)
    if lease is None:
        return []
    try:
        async with asyncio.timeout(DB_TIMEOUT):
            found = await lease.watch()
    except Exception:
        found = lease.orphans
    return sorted(found)


async def health(bot: Watched, *, deployment: bool = True) -> tuple[bool, dict[str, Any]]:
    """Whether this process is well (ready, its gateway open, its database answering) and, with
    ``deployment``, whether every shard of the deployment has a process; the JSON body says which part fails
    (``status``: ``ok``, ``degraded`` — this process is well, a shard has none — or ``failing``)."""
    ready = bot.is_ready()
    gateway = gateway_open(bot)
    db_ms = await database_ms(bot.db)
    latency = bot.latency
    well = ready and gateway and db_ms is not None
    unclaimed = await unclaimed_shards(bot) if deployment and db_ms is not None else []
    ok = well and not unclaimed
    body: dict[str, Any] = {
        "ok": ok, "status": "ok" if ok else "degraded" if well else "failing", "ready": ready, "gateway": gateway,
        "database": db_ms is not None, "database_ms": db_ms,
        "latency_ms": round(latency * 1000, 1) if math.isfinite(latency) else None}
    if deployment:
        body["unclaimed_shards"] = unclaimed
    return ok, body


def application(bot: Watched) -> web.Application:
    async def healthz(_request: web.Request) -> web.Response:
        ok, body = await health(bot)
        return web.json_response(body, status=200 if ok else 503)

    async def livez(_request: web.Request) -> web.Response:
        ok, body = await health(bot, deployment=False)
        return web.json_response(body, status=200 if ok else 503)

    async def scrape(_request: web.Request) -> web.Response:
        data, content_type = metrics.exposition()
        # aiohttp wants the charset apart from the media type
        media, _, rest = content_type.partition(";")
        charset = rest.split("charset=")[-1].strip() if "charset=" in rest else None
        return web.Response(body=data, content_type=media.strip(), charset=charset)

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/livez", livez)
    app.router.add_get("/metrics", scrape)
    return app


async def start(bot: Watched, host: str, port: int) -> web.AppRunner:
    """Listen on ``host:port`` (port 0: any free one; the runner's ``addresses`` say which)."""
    runner = web.AppRunner(application(bot), access_log=None, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    log.info("health and metrics on http://%s:%d/healthz, /livez and /metrics", host, bound_port(runner))
    return runner


def bound_port(runner: web.AppRunner) -> int:
    """The port the runner really listens on (useful with port 0)."""
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            return int(address[1])
    return 0


__all__ = ["application", "bound_port", "database_ms", "gateway_open", "health", "start", "unclaimed_shards"]
