"""Caches to let go of once idle: what is big and needed only to draw the layers that the picture cache then
keeps as PNG (a map's geometry).  Plain standard library, so the map kit may use it and still know no game
and no platform."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, TypeVar

C = TypeVar("C", bound="functools._lru_cache_wrapper[Any]")


class _Idle:
    """One cache ``shed`` may clear, and since when nothing has called it."""

    def __init__(self, fn: functools._lru_cache_wrapper[Any], seconds: float) -> None:
        self.fn, self.seconds = fn, seconds
        self.calls, self.since = -1, time.monotonic()


_IDLE: list[_Idle] = []


def forget_when_idle(seconds: float) -> Callable[[C], C]:
    """Mark an ``lru_cache``'d function whose results are big and needed only to draw the layers that are
    then kept as PNG (a map's geometry: 15–18 MB): ``shed()`` clears it once nothing has called it for
    ``seconds``.  A layer missing later (a new language) computes it again."""
    def mark(fn: C) -> C:
        _IDLE.append(_Idle(fn, seconds))
        return fn
    return mark


def shed(now: float | None = None) -> int:
    """Clear the marked caches left idle long enough (the bot calls it after each sweep); how many."""
    now = time.monotonic() if now is None else now
    cleared = 0
    for idle in _IDLE:
        info = idle.fn.cache_info()
        calls = info.hits + info.misses
        if calls != idle.calls:
            idle.calls, idle.since = calls, now
        elif info.currsize and now - idle.since >= idle.seconds:
            idle.fn.cache_clear()
            cleared += 1
    return cleared


__all__ = ["forget_when_idle", "shed"]
