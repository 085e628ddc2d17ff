"""Tabula thinking off the event loop: the moves of seats it plays at ``normal`` or ``strong`` are searched in a
process pool (``TABULA_WORKERS`` processes, one by default), each within a wall-time budget
(``TABULA_THINK_SECONDS``, 2 s by default).  ``easy`` is the game's own policy, quick enough to play inline.

The move is only chosen here; the service saves it as any other (a versioned save, the action in the log), so a
replay reads it from the log and never searches again, and a restart while Tabula was thinking plays the move
once: nothing was saved, the game is still Tabula's to move, and the clock sweep asks again.  Every decision has
its seed (the game's seed and version), so the same position, view and number of iterations give the same move.

If the pool cannot be used (it broke, or the process is shutting down) the move is the game's own policy, played
inline: a game never stalls for want of a thinker.  A worker whose bot process was killed ends itself (nobody is
left to shut the pool down)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import msgspec

from rules.core import Rng, seed_state
from rules.i18n import _
from rules.registry import game_text, games, ruleset
from rules.search import LEVEL_OPTION, Budget, decide, level_of, sampler_of

log = logging.getLogger(__name__)
#: How often a worker looks whether the bot's process is still there (it ends itself once it is not).
ORPHAN_CHECK_SECONDS = 1.0
#: How much lower than the bot a thinking worker runs (os.nice: 0 the same, 19 the lowest).
WORKER_NICE = 10

__all__ = ["LEVEL_OPTION", "Thinker", "level_line", "shared"]


def _think(key: str, state: bytes, seat: int, level: str, seed: int, seconds: float | None,
           iterations: int | None) -> bytes:
    """In a worker: decode, search, encode (only plain data crosses the process boundary)."""
    rules = ruleset(key)
    decoded = msgspec.json.decode(state, type=rules.state_type)
    action = decide(rules, decoded, seat, level, seed, Budget(iterations=iterations, seconds=seconds))
    return msgspec.json.encode(action)


def _suggest(key: str, state: bytes, seat: int, level: str, seed: int, seconds: float | None,
             iterations: int | None, request: bytes) -> bytes:
    rules = ruleset(key)
    decoded = msgspec.json.decode(state, type=rules.state_type)
    asked = msgspec.json.decode(request, type=rules.action_type)
    action = decide(rules, decoded, seat, level, seed, Budget(iterations=iterations, seconds=seconds), asked)
    return msgspec.json.encode(action)


def _worker_start(parent: int) -> None:
    """At a worker's start: it thinks at a lower priority than the bot, and ends once the bot's process is gone.

    The priority: where the machine has no core to spare for the pool, the bot's event loop (every other game's
    moves) goes first and the search, whose budget is wall time, simply gets fewer deals (``WORKER_NICE``).
    The guard: a process killed (kill -9, the machine's OOM killer) never shuts its pool down, and a spawned
    worker holds both ends of its own queues, so it would wait on them for ever, and think out any move it had
    in hand for nobody."""
    with contextlib.suppress(OSError):  # not allowed here (a container's policy): think at the bot's priority
        os.nice(WORKER_NICE)

    def watch() -> None:
        pause = threading.Event()  # never set: a timed wait (time.sleep fails under libfaketime's absolute clock)
        while os.getppid() == parent:
            pause.wait(ORPHAN_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="tabula-orphan-guard", daemon=True).start()


def _warm() -> int:
    """Load every game in a new worker, so the first real decision does not pay for the imports."""

    return len(games())


class Thinker:
    """Chooses Tabula's moves: inline for ``easy``, in the pool for the levels that search."""

    def __init__(self, workers: int = 1, seconds: float | None = 2.0, iterations: int | None = None,
                 executor: Executor | None = None) -> None:
        self.workers, self.seconds, self.iterations = max(1, workers), seconds, iterations
        self._pool: Executor | None = executor
        self._own = executor is None

    def _executor(self) -> Executor:
        if self._pool is None:
            # "spawn": the bot's process holds threads (the database driver's), which a fork would copy mid-lock
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_worker_start, initargs=(os.getpid(),))
        return self._pool

    async def warm(self) -> None:
        """Start the workers now (at start-up) rather than at the first strong move."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._executor(), _warm) for _ in range(self.workers)))

    def searches(self, rules: Any, options: dict[str, Any]) -> bool:
        """Whether a game with these lobby ``options`` has its seats' moves searched (``normal``, ``strong``, and the
        game has a sampler), rather than played by its own policy (``easy``)."""
        return level_of(options.get(LEVEL_OPTION)) != "easy" and sampler_of(rules) is not None

    async def choose(self, rules: Any, state: Any, seat: int, options: dict[str, Any], seed: int) -> Any:
        """The move for a seat Tabula plays in a game with these lobby ``options`` (None: nothing to do)."""
        level = level_of(options.get(LEVEL_OPTION))
        if level == "easy" or sampler_of(rules) is None:
            return rules.policy(state, seat, Rng(seed_state(seed)))
        loop = asyncio.get_running_loop()
        log.info("Tabula thinks for seat %d of a %s game at level %s", seat, rules.spec.key, level)
        try:
            encoded = await loop.run_in_executor(
                self._executor(), _think, rules.spec.key, msgspec.json.encode(state), seat, level, seed,
                self.seconds, self.iterations)
        except (BrokenProcessPool, RuntimeError) as err:  # a dead worker, or a pool shut down under us
            log.warning("Tabula's thinking pool failed (%s): playing the game's own policy instead", err)
            if self._own:
                self._pool = None  # a fresh pool next time
            return rules.policy(state, seat, Rng(seed_state(seed)))
        if encoded == b"null":
            return None
        return msgspec.json.decode(encoded, type=rules.action_type)

    async def suggest(self, rules: Any, state: Any, seat: int, options: dict[str, Any], seed: int,
                      request: Any) -> Any:
        """What a player's request that Tabula choose for them (``ActionMeta.asks_tabula``) becomes: at the
        game's level, the move the search finds among those that do what was asked; at ``easy``, the request."""
        level = level_of(options.get(LEVEL_OPTION))
        if level == "easy" or not callable(getattr(sampler_of(rules), "completes", None)):
            return request
        loop = asyncio.get_running_loop()
        try:
            encoded = await loop.run_in_executor(
                self._executor(), _suggest, rules.spec.key, msgspec.json.encode(state), seat, level, seed,
                self.seconds, self.iterations, msgspec.json.encode(request))
        except (BrokenProcessPool, RuntimeError) as err:
            log.warning("Tabula's thinking pool failed (%s): the game's own way instead", err)
            if self._own:
                self._pool = None
            return request
        return msgspec.json.decode(encoded, type=rules.action_type)

    def close(self) -> None:
        if self._pool is not None and self._own:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def level_line(moment: Any) -> str:
    """How Tabula plays a running game's seats (and an absent player's turn), for `/game status`."""
    if moment.status != "active" or moment.spec.option(LEVEL_OPTION) is None:
        return ""
    level = level_of(moment.options.get(LEVEL_OPTION))
    return _("🤖 Tabula plays at level {level}.", level=f"**{game_text(moment.spec.key, level, 'choice')}**")


_shared: Thinker | None = None


def shared(workers: int = 1, seconds: float = 2.0) -> Thinker:
    """The process's thinker (made at first use, with the settings given then)."""
    global _shared
    if _shared is None:
        _shared = Thinker(workers, seconds)
    return _shared
