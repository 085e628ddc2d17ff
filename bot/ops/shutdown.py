"""Stopping (SIGTERM from systemd or docker, Ctrl-C) without losing an answer, a post or a line of log.

The order, all of it inside ``BUDGET`` seconds (container runtimes kill at 10):

1. From the signal on, a new interaction is answered at once, privately: "Tabula is restarting" (it is never
   handed to a command, so nothing new starts).
2. The interactions already running (their handler tasks) and the sweep under way get ``GRACE`` seconds,
   together, to answer and post what they committed; the per-game locks drain.
3. The background edits and tellings under way get what is left but ``CLOSING``; whatever still waits (Discord
   unreachable, the database locked) is cancelled: every committed move is in the outbox, and the next start-up
   tells it.
4. Only then does the client close its connection, end discord.py's connection loop if it is still waiting on
   Discord (reconnecting, resuming), give the shards back and close the database.

Nothing runs on a closed HTTP session, so no "Session is closed" and no "Task exception was never retrieved".
A last-resort timer ends the process at ``HARD_EXIT`` seconds if a step is stuck in a way none foresaw."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import discord

from bot.front.discordpy import connection_of, interaction_parser, replace_interaction_parser
from bot.front.inbound import answer_privately
from rules.i18n import N_

log = logging.getLogger("tabula.shutdown")
RESTARTING = N_("Tabula is restarting — please try again in a moment.")
GRACE = 6.0  # seconds for the interactions in flight (and the sweep under way) to answer and post
BUDGET = 8.5  # seconds for the whole stop, the connection and the database closed included
CLOSING = 1.0  # seconds of the budget kept for closing the connection, the lease and the database
HARD_EXIT = 9.5  # seconds: the process ends here whatever is still running
HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-view-dispatch-", "discord-ui-dynamic-item-",
                 "discord-ui-modal-dispatch-")


class Stopping:
    """One client's stop: refuses new interactions politely and waits, bounded, for the ones in flight."""

    def __init__(self, client: discord.Client, *, grace: float = GRACE, budget: float = BUDGET) -> None:
        self.client, self.grace, self.budget = client, grace, budget
        self.since: float | None = None
        self.refused = 0
        self._refusals: set[asyncio.Task[None]] = set()
        self._hard: asyncio.TimerHandle | None = None
        self._closing: asyncio.Future[None] | None = None
        self._ready = False
        self.signalled = False  # a signal asked for the stop (not a failed start closing the client)

    @property
    def stopping(self) -> bool:
        return self.since is not None

    def install(self, screen: Callable[[Any], bool] | None = None) -> None:
        """Put the polite refusal in front of discord.py's own handling of INTERACTION_CREATE, and ``screen``
        (which answers, and returns True for, what no command or control can take: bot/front/inbound.py).  An
        interaction discord.py cannot read at all is one line in the log, never a traceback in the gateway."""
        original = interaction_parser(self.client)

        def parse(data: Any) -> None:
            if self.stopping:
                task = asyncio.ensure_future(self._refuse(data))
                self._refusals.add(task)
                task.add_done_callback(self._refusals.discard)
                return
            if screen is not None and screen(data):
                return
            try:
                original(data)
            except Exception as err:  # a shape Discord never sends: nothing in it can be answered
                log.warning("an interaction discord.py cannot read was dropped (%s: %s)", type(err).__name__,
                            str(err)[:200])

        replace_interaction_parser(self.client, parse)

    async def _refuse(self, data: Any) -> None:
        self.refused += 1
        if data.get("type") == 4:  # an autocomplete: an empty list is its answer
            return

        await answer_privately(connection_of(self.client), data, RESTARTING)

    def begin(self) -> None:
        if self.since is None:
            self.since = time.monotonic()
            self._ready = self.client.is_ready()  # a start that never got in says only why (one line)
            if self._ready:
                log.info("stopping: answering what is in flight, then closing")

    def on_signal(self) -> None:
        """SIGTERM or SIGINT in the real process (``python -m bot``): close the client, then end discord.py's
        connection loop if it is still waiting on Discord (reconnecting, resuming, connecting); and end the
        process at ``HARD_EXIT`` seconds whatever is still running.  The timer stays armed until the process
        ends (never armed in a test's own process)."""
        self.signalled = True
        if self._hard is None:
            self._hard = asyncio.get_running_loop().call_later(HARD_EXIT, _hard_exit)
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close_then_end())

    async def _close_then_end(self) -> None:
        await self.client.close()
        end = getattr(self.client, "end_gateway", None)
        if end is not None:
            end()

    def left(self, limit: float | None = None) -> float:
        """Seconds left of the budget (or of ``limit`` seconds since the stop began, if sooner)."""
        spent = time.monotonic() - (self.since or time.monotonic())
        return max(0.0, min(self.budget, limit if limit is not None else self.budget) - spent)

    def open_left(self) -> float:
        """Seconds left for the steps before closing (what the closing itself needs is kept back)."""
        return self.left(self.budget - CLOSING)

    @staticmethod
    def in_flight() -> list[asyncio.Task[Any]]:
        """The handler tasks discord.py runs for interactions (a command, a press, a modal)."""
        me = asyncio.current_task()
        return [t for t in asyncio.all_tasks() if t is not me and not t.done()
                and t.get_name().startswith(HANDLER_TASKS)]

    async def drain_interactions(self, *also: asyncio.Future[Any] | None) -> int:
        """Let the interactions in flight finish, and ``also`` (the sweep under way), together, up to ``grace``;
        returns how many had to be cut off."""
        return await self.settle([*self.in_flight(), *(f for f in also if f is not None)], self.left(self.grace))

    async def settle(self, tasks: Iterable[asyncio.Future[Any]], timeout: float) -> int:
        """Wait up to ``timeout`` for ``tasks``; cancel the rest (and wait a moment for them to unwind)."""
        pending = [t for t in tasks if not t.done()]
        if not pending:
            return 0
        _, late = await asyncio.wait(pending, timeout=timeout)
        for task in late:
            task.cancel()
        if late:
            log.info("stopping: %d task(s) did not finish in time (their moves are in the outbox)", len(late))
            await asyncio.wait(late, timeout=0.5)
        return len(late)

    async def bounded(self, work: Awaitable[Any], what: str, *, closing: bool = False) -> None:
        """Run one step of the stop within what is left of the budget (a step before closing leaves the
        closing its share).  A step that runs out of time is cancelled and left to unwind by itself: waiting
        for it to unwind could take as long as what it waits on (a locked database answers a rollback no
        sooner than the statement it cancels)."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=max(0.1, self.left() if closing else self.open_left()))
        if not done:
            task.cancel()
            log.info("stopping: %s did not finish in time", what)
            return
        error = task.exception()
        if error is not None:  # the step failed: the stop goes on (the log says which, without a traceback)
            log.info("stopping: %s failed (%s)", what, type(error).__name__)

    async def refusals(self) -> None:
        await self.settle(list(self._refusals), min(1.0, self.open_left()))

    def done(self) -> None:
        # The last-resort timer is not cancelled here: the client is closed, but the process has not ended yet
        # (discord.py's connection loop, a worker thread); it fires only if the exit is stuck after all.
        if self.since is not None and self._ready:
            log.info("stopped in %.1f s (%d interaction(s) arriving meanwhile were asked to try again)",
                     time.monotonic() - self.since, self.refused)


class QuietReconnects(logging.Filter):
    """discord.py logs a whole traceback each time it retries a lost gateway (Discord unreachable, a network
    blip): one line with the reason says the same to an operator."""

    RETRIES = ("Attempting a reconnect", "Failed to connect for shard_id")

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.getMessage().startswith(self.RETRIES):
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def leave(code: int) -> None:
    """After a stop: if a worker thread is still busy (drawing a picture, which cannot be interrupted) or a step
    the stop gave up on is still unwinding (waiting on a locked database), end the process now rather than wait
    for it; the connection and the database are closed already, or given up on."""
    busy = [t for t in threading.enumerate() if t is not threading.main_thread() and t.is_alive() and not t.daemon]
    me = asyncio.current_task()
    stuck = [t for t in asyncio.all_tasks() if t is not me and not t.done()]
    if busy or stuck:
        log.info("leaving %d busy worker thread(s) and %d unfinished task(s) behind", len(busy), len(stuck))
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _hard_exit() -> None:
    log.warning("stopping took too long: exiting now (every committed move is in the outbox)")
    logging.shutdown()
    os._exit(0)


__all__ = ["BUDGET", "GRACE", "RESTARTING", "QuietReconnects", "Stopping", "leave"]
