"""The C heap under the pictures (glibc): hand freed memory back, and keep picture buffers from lingering.

Pillow's image buffers are allocated with ``malloc``.  Left to its defaults, glibc raises its mmap threshold
each time a large block is freed, so after the first pictures every picture-sized buffer comes from the heap and
leaves holes that ``malloc_trim`` cannot give back, and each thread that draws may get a heap (an arena) of its
own.  ``tune`` fixes the threshold at glibc's own starting figure, so every such buffer is a mapping of its own,
returned whole when freed, and lets two arenas serve the drawing threads.  Measured (docs/performance.md): a
game watched by 200 web pages grew the bot by 22 MB more than the same game unwatched, 1.6 MB with this; the
memory run of 100 games on an empty picture folder ended at 198 MB instead of 208.  Nothing here is needed for
correctness: where the C library is not glibc (musl, macOS) both calls do nothing."""

from __future__ import annotations

import ctypes
import os
from typing import Any

# mallopt's parameters (glibc's malloc.h)
M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8
MMAP_THRESHOLD = 128 * 1024
ARENA_MAX = 2


def _libc() -> Any | None:
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc_trim, libc.mallopt  # noqa: B018  (both are glibc's: musl has neither)
    except (OSError, AttributeError):
        return None
    return libc


_LIBC = _libc()


def tune() -> bool:
    """Set the threshold and the arenas, once, as a process that draws starts (before its drawing threads exist).
    An operator's own ``MALLOC_MMAP_THRESHOLD_`` or ``MALLOC_ARENA_MAX`` is left as set.  False without glibc."""
    if _LIBC is None:
        return False
    if "MALLOC_MMAP_THRESHOLD_" not in os.environ:
        _LIBC.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    if "MALLOC_ARENA_MAX" not in os.environ:
        _LIBC.mallopt(M_ARENA_MAX, ARENA_MAX)
    return True


def trim() -> None:
    """Hand the heap's free pages back to the system (a few milliseconds)."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)
