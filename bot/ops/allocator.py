"""The C heap under the pictures (glibc): hand freed memory back, and keep picture buffers from lingering.

Pillow's image buffers are allocated with ``malloc``.  Left to its defaults, glibc raises its mmap threshold
each time a large block is freed, so after the first pictures every picture-sized buffer comes from the heap and
leaves holes that ``malloc_trim`` cannot give back, and each thread that draws may get a heap (an arena) of its
own.  ``tune`` fixes the threshold at glibc's own starting figure, so every such buffer is a mapping of its own,
returned whole when freed, and lets two arenas serve the drawing threads.  Measured (docs/performance.md): a
game watched by 200 web pages grew the bot by 22 MB more than the same game unwatched, 1.6 MB with this; the
memory run of 100 games on an empty picture folder ended at 198 MB instead of 208.  Nothing here is needed for
correctness: where the C library is not glibc (musl, macOS) both calls do nothing.

A fresh mapping costs a page fault for each 4 KB the picture writes, so ``tune`` also lets Pillow keep the
blocks of freed images for the next picture (``POOL_BLOCKS`` of ``POOL_BLOCK`` bytes, at most 16 MB) instead of
mapping new ones, and ``trim`` (after each sweep) empties that pool: a whole-game picture run took 26.0 s of CPU
(4.4 s of it in the kernel) without the pool, 23.5 s (2.0 s) with it.  ``PILLOW_BLOCKS_MAX`` or
``PILLOW_BLOCK_SIZE`` in the environment, which Pillow reads itself, are left as set."""

from __future__ import annotations

import ctypes
import os
from typing import Any

from PIL import _imaging  # Pillow's block pool (its C module)

# mallopt's parameters (glibc's malloc.h)
M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8
MMAP_THRESHOLD = 128 * 1024
ARENA_MAX = 2
POOL_BLOCK, POOL_BLOCKS = 256 * 1024, 64  # Pillow's blocks of freed images kept for the next picture: ≤ 16 MB


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
    if "PILLOW_BLOCKS_MAX" not in os.environ and "PILLOW_BLOCK_SIZE" not in os.environ:
        _imaging.set_block_size(POOL_BLOCK)
        _imaging.set_blocks_max(POOL_BLOCKS)
    return True


def trim() -> None:
    """Hand the heap's free pages back to the system, Pillow's pooled blocks included (a few milliseconds)."""
    if _LIBC is not None:
        if "PILLOW_BLOCKS_MAX" not in os.environ:
            _imaging.clear_cache()
        _LIBC.malloc_trim(0)
