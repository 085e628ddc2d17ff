"""Live pages: each open page holds one server-sent-events stream; one watcher per watched game tells them all.

A move made in this process wakes its game's watcher at once (``NotifyingStore``: the hot-path store's
``save``, the one write every start, move, undo and timeout goes through, tells the hub after it committed);
a move made by another process on the same database is seen by the watcher's own check, one small query per
watched game every ``poll`` seconds whatever the number of pages open on it.  The watcher then reads the game's
version and status once and writes one short event to every stream: the pages fetch the new step themselves
(each step is drawn once and kept, so two hundred pages cost one drawing)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import text

log = logging.getLogger("tabula.web")


class Hub:
    def __init__(self, engine: Any, *, poll: float = 1.0) -> None:
        self.engine, self.poll = engine, poll
        #: what a move's event carries (the server's newest public step), or None: the version and status only
        self.render: Callable[[int], Awaitable[str | None]] | None = None
        self._streams: dict[int, set[asyncio.Queue[bytes]]] = {}
        self._wake: dict[int, asyncio.Event] = {}
        self._watchers: dict[int, asyncio.Task[None]] = {}

    def open_streams(self, game_id: int | None = None) -> int:
        if game_id is not None:
            return len(self._streams.get(game_id, ()))
        return sum(len(s) for s in self._streams.values())

    def moved(self, game_id: int) -> None:
        """A move of ``game_id`` committed in this process (cheap when nobody watches it)."""
        wake = self._wake.get(game_id)
        if wake is not None:
            wake.set()

    async def version(self, game_id: int) -> tuple[int, str] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(text("SELECT version, status FROM game WHERE id = :g"), {"g": game_id})).first()
        return (int(row[0]), str(row[1])) if row else None

    def subscribe(self, game_id: int) -> asyncio.Queue[bytes]:
        queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=1)  # each event is the whole news: the newest will do
        self._streams.setdefault(game_id, set()).add(queue)
        if game_id not in self._watchers:
            self._wake[game_id] = asyncio.Event()
            self._watchers[game_id] = asyncio.create_task(self._watch(game_id), name=f"tabula-web-watch-{game_id}")
        return queue

    def unsubscribe(self, game_id: int, queue: asyncio.Queue[bytes]) -> None:
        streams = self._streams.get(game_id)
        if streams is None:
            return
        streams.discard(queue)
        if not streams:
            del self._streams[game_id]
            self._wake.pop(game_id, None)
            task = self._watchers.pop(game_id, None)
            if task is not None:
                task.cancel()

    async def _watch(self, game_id: int) -> None:
        seen: tuple[int, str] | None = None
        wake = self._wake[game_id]
        while True:
            try:
                now = await self.version(game_id)
            except Exception as err:  # the database is away for a moment: try again at the next beat
                log.warning("web: game %d: could not read its version (%s)", game_id, type(err).__name__)
                now = seen
            if seen is None:
                seen = now
            elif now is not None and now != seen:
                seen = now
                self._broadcast(game_id, await self._news(game_id, now))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), self.poll)
            wake.clear()

    async def _news(self, game_id: int, now: tuple[int, str]) -> str:
        small = json.dumps({"version": now[0], "status": now[1]})
        if self.render is None:
            return small
        try:
            made = await self.render(game_id)
        except Exception:  # the pages fetch the step themselves
            log.exception("web: game %d: could not draw the newest step for the live pages", game_id)
            return small
        return made or small

    def _broadcast(self, game_id: int, data: str) -> None:
        framed = b"event: moved\ndata: " + data.encode() + b"\n\n"  # one copy, written to every stream
        for queue in list(self._streams.get(game_id, ())):
            self._put(queue, framed)

    @staticmethod
    def _put(queue: asyncio.Queue[bytes], data: bytes) -> None:
        if queue.full():  # a reader that fell behind needs only the newest news
            with contextlib.suppress(asyncio.QueueEmpty):
                queue.get_nowait()
        queue.put_nowait(data)

    async def close(self) -> None:
        """Stop watching and end every open stream (each gets the empty message that ends it)."""
        tasks = list(self._watchers.values())
        for streams in self._streams.values():
            for queue in streams:
                self._put(queue, b"")
        self._watchers.clear()
        self._streams.clear()
        self._wake.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


class NotifyingStore:
    """The hot-path store with a callback after every committed save; everything else passes through."""

    def __init__(self, inner: Any, moved: Callable[[int], None]) -> None:
        self._inner, self._moved = inner, moved

    async def save(self, game_id: int, *args: Any, **kwargs: Any) -> Any:
        saved = await self._inner.save(game_id, *args, **kwargs)
        if saved:
            self._moved(game_id)
        return saved

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def watch_moves(db: Any, moved: Callable[[int], None]) -> None:
    """Tell ``moved`` of every save committed through ``db``'s store (idempotent)."""
    if not isinstance(db.store, NotifyingStore):
        db.store = NotifyingStore(db.store, moved)


__all__ = ["Hub", "NotifyingStore", "watch_moves"]
