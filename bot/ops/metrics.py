"""Prometheus metrics (the official ``prometheus-client``), served by ``bot.ops.health`` on ``/metrics``.

What is counted, and where it is hooked (small calls from the places that know):
  * interactions, by kind (command, autocomplete, component), command and outcome (ok, refused, error), with a
    latency histogram: the command tree's ``_call`` and the components' ``guarded``;
  * Discord REST requests, split by whose token they spend: ``bot`` (counts against Discord's global rate
    limit) or ``interaction`` (an interaction's own token: its response, follow-ups and edits) — through an
    aiohttp trace on discord.py's one HTTP session, so every request is seen, whoever makes it;
  * database latency by operation: the hot-path store's load and save, and every ORM statement;
  * the outbox's depth (a gauge read when scraped, from ``set_outbox_depth``), sweeps and their length;
  * errors: every ERROR log record, by logger (a handler on the root logger);
  * the deployment's shards no live process holds (``set_shards``, from each heartbeat of the shard lease).

One registry per process (``REGISTRY``), not prometheus-client's global one, so tests that start several
bots in one process share it without registering anything twice.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import aiohttp
from discord import app_commands
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, ProcessCollector, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from sqlalchemy import event

from bot.ops import allocator
from render.cache import current
from render.idle import shed
from rules import GameError

REGISTRY = CollectorRegistry(auto_describe=True)
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
DB_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)

INTERACTIONS = Counter("tabula_interactions", "Interactions handled, by kind, command and outcome.",
                       ["kind", "command", "outcome"], registry=REGISTRY)
INTERACTION_SECONDS = Histogram("tabula_interaction_seconds", "Time from receiving an interaction to its "
                                "handler's end.", ["kind"], buckets=LATENCY_BUCKETS, registry=REGISTRY)
REQUESTS = Counter("tabula_discord_requests", "REST requests made to Discord, by the token they spend "
                   "(bot: global rate limit; interaction: the interaction's own).", ["auth", "method"],
                   registry=REGISTRY)
DB_SECONDS = Histogram("tabula_database_seconds", "Database latency by operation.", ["operation"],
                       buckets=DB_BUCKETS, registry=REGISTRY)
OUTBOX_DEPTH = Gauge("tabula_outbox_depth", "Committed tellings not yet posted.", registry=REGISTRY)
SWEEPS = Counter("tabula_sweeps", "Background sweeps (turn timeouts and clocks), by outcome.", ["outcome"],
                 registry=REGISTRY)
SWEEP_SECONDS = Histogram("tabula_sweep_seconds", "How long one sweep took.", buckets=LATENCY_BUCKETS,
                          registry=REGISTRY)
SWEEP_ITEMS = Counter("tabula_sweep_items", "Timed moves and clock items a sweep handled.", registry=REGISTRY)
ERRORS = Counter("tabula_errors", "ERROR log records, by logger.", ["logger"], registry=REGISTRY)
READY = Gauge("tabula_ready", "1 once the bot is ready for interactions.", registry=REGISTRY)
SHARDS_UNCLAIMED = Gauge("tabula_shards_unclaimed", "Shards of the deployment (SHARD_COUNT) no live process holds: "
                         "their servers' interactions reach nobody.", registry=REGISTRY)
SHARD_CLAIMED = Gauge("tabula_shard_claimed", "1 while a live process holds the shard, 0 while none does.",
                      ["shard"], registry=REGISTRY)


def set_shards(count: int | None, unclaimed: frozenset[int]) -> None:
    """What the last look at the shard leases found (bot.ops.shards.ShardLease.watch)."""
    SHARDS_UNCLAIMED.set(len(unclaimed))
    for shard in range(count or 0):
        SHARD_CLAIMED.labels(str(shard)).set(0 if shard in unclaimed else 1)


class _PictureCollector:
    """The picture cache's own counts (render.cache keeps them; render/ imports nothing from bot/)."""

    def collect(self) -> Iterator[Any]:
        cache = current()
        found = CounterMetricFamily("tabula_pictures", "Cached picture look-ups, by where they were found "
                                    "(memory, disk, drawn).", labels=["source"])
        found.add_metric(["memory"], cache.hits)
        found.add_metric(["disk"], cache.disk_hits)
        found.add_metric(["drawn"], cache.misses)
        yield found
        yield GaugeMetricFamily("tabula_picture_memory_bytes", "PNG bytes the picture cache holds in memory.",
                                value=cache.held_bytes)


REGISTRY.register(_PictureCollector())
ProcessCollector(registry=REGISTRY)  # process_resident_memory_bytes, CPU seconds, open files


def release_memory() -> None:
    """Drop what only drawing the kept layers needed once it has been idle a while (a map's geometry,
    ``render.idle.shed``), and hand freed heap back to the system (glibc keeps freed pages of drawn
    pictures, ~35 MB after a few hundred games, in its arenas otherwise); a few milliseconds, called after
    each sweep."""
    shed()
    allocator.trim()


def _no_outbox() -> int:
    """The outbox gauge before a bot points it at its outbox (TabulaBot.setup_hook): nothing is waiting."""
    return 0


_outbox_depth: Callable[[], float] = _no_outbox
OUTBOX_DEPTH.set_function(lambda: float(_outbox_depth()))


def set_outbox_depth(read: Callable[[], float]) -> None:
    """Point the outbox gauge at a function returning how many tellings wait (called at each scrape)."""
    global _outbox_depth
    _outbox_depth = read


def outcome_of(error: BaseException | None) -> str:
    """``ok``, ``refused`` (a player's request the game refused: GameError, a failed check) or ``error``."""
    if error is None:
        return "ok"

    original = getattr(error, "original", error)
    if isinstance(original, GameError) or isinstance(error, (app_commands.CheckFailure,
                                                             app_commands.TransformerError)):
        return "refused"
    return "error"


def count_interaction(kind: str, command: str, outcome: str, seconds: float) -> None:
    INTERACTIONS.labels(kind, command, outcome).inc()
    INTERACTION_SECONDS.labels(kind).observe(seconds)


@contextmanager
def timed_db(operation: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        DB_SECONDS.labels(operation).observe(time.perf_counter() - started)


def auth_of(path: str) -> str:
    """Whose token a request to ``path`` spends: interaction callbacks and interaction webhooks use the
    interaction's token, everything else the bot's."""
    return "interaction" if "/interactions/" in path or "/webhooks/" in path else "bot"


def http_trace() -> aiohttp.TraceConfig:
    """An aiohttp trace that counts every request discord.py makes (its REST session is also the one
    interaction responses and follow-ups use)."""
    trace = aiohttp.TraceConfig()

    async def started(_session: aiohttp.ClientSession, _context: SimpleNamespace,
                      params: aiohttp.TraceRequestStartParams) -> None:
        REQUESTS.labels(auth_of(params.url.path), params.method).inc()

    trace.on_request_start.append(started)
    return trace


def requests_so_far() -> dict[str, float]:
    """REST requests counted so far, by token kind (``bot``, ``interaction``)."""
    out = {"bot": 0.0, "interaction": 0.0}
    for metric in REQUESTS.collect():
        for sample in metric.samples:
            if sample.name.endswith("_total"):
                out[sample.labels["auth"]] = out.get(sample.labels["auth"], 0.0) + sample.value
    return out


class _ErrorCounter(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        ERRORS.labels(record.name).inc()


_error_handler = _ErrorCounter(level=logging.ERROR)


def count_errors() -> None:
    """Count ERROR records from every logger (idempotent)."""
    root = logging.getLogger()
    if _error_handler not in root.handlers:
        root.addHandler(_error_handler)


def instrument_engine(engine: Any) -> None:
    """Time every statement of the SQLAlchemy engine (the ORM's queries) as ``orm``."""
    sync = engine.sync_engine
    if getattr(sync, "_tabula_timed", False):
        return
    sync._tabula_timed = True

    def before(conn: Any, _cursor: Any, _statement: Any, _params: Any, context: Any, _many: Any) -> None:
        context._tabula_started = time.perf_counter()

    def after(conn: Any, _cursor: Any, _statement: Any, _params: Any, context: Any, _many: Any) -> None:
        started = getattr(context, "_tabula_started", None)
        if started is not None:
            DB_SECONDS.labels("orm").observe(time.perf_counter() - started)

    event.listen(sync, "before_cursor_execute", before)
    event.listen(sync, "after_cursor_execute", after)


class TimedStore:
    """The hot-path game store with its load and save timed; everything else passes through."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    async def load(self, game_id: int) -> Any:
        with timed_db("load"):
            return await self._inner.load(game_id)

    async def save(self, *args: Any, **kwargs: Any) -> Any:
        with timed_db("save"):
            return await self._inner.save(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def instrument_database(db: Any) -> None:
    """Time a ``bot.store.db.Database``'s hot-path store and engine (idempotent)."""
    instrument_engine(db.engine)
    if not isinstance(db.store, TimedStore):
        db.store = TimedStore(db.store)


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus' text format, and its content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST


__all__ = ["REGISTRY", "count_errors", "count_interaction", "exposition", "http_trace", "instrument_database",
           "outcome_of", "release_memory", "requests_so_far", "set_outbox_depth", "set_shards", "timed_db"]
