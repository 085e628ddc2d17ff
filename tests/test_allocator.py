"""The C heap under the pictures (bot/ops/allocator.py): with the bot's tuning, picture-sized buffers freed among
small live ones go back to the system; without it (glibc's defaults), the same pattern keeps them.

Each case runs in a fresh interpreter (the tuning is for the whole process, set once at start).  The pattern is
what drawing does: a large buffer freed once (glibc then raises its mmap threshold), then many picture-sized
buffers, each followed by a small allocation that outlives it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.ops import allocator

PATTERN = """
import sys
from pathlib import Path
from bot.ops import allocator
if sys.argv[1] == "tuned":
    assert allocator.tune()
def rss():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
first = bytearray(400_000)
del first
base = rss()
pictures, small = [], []
for _ in range(300):
    pictures.append(bytearray(300_000))
    small.append(bytearray(1000))
del pictures
print(round(rss() - base, 1))
"""

pytestmark = pytest.mark.skipif(allocator._LIBC is None or not Path("/proc/self/status").exists(),
                                reason="glibc and /proc only (the tuning does nothing elsewhere)")


def kept_mb(mode: str) -> float:
    root = Path(__file__).resolve().parents[1]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", PATTERN, mode], cwd=root, env=env, capture_output=True, text=True,
                         timeout=60, check=True).stdout
    return float(out.split()[-1])


def test_tuned_heap_hands_freed_picture_buffers_back() -> None:
    assert kept_mb("tuned") < 10  # 90 MB were allocated and freed


def test_the_default_heap_keeps_them_so_the_test_can_tell() -> None:
    assert kept_mb("default") > 50  # glibc's defaults keep about 86 of the 90 MB


POOL = """
import sys
from PIL import Image
from bot.ops import allocator
if sys.argv[1] == "tuned":
    assert allocator.tune()
for _ in range(20):  # pictures drawn one after another, as a game's tellings are
    img = Image.new("RGB", (1336, 1198), (40, 60, 80))
    img.resize((668, 599)).convert("P")
    del img
during = Image.core.get_stats()
allocator.trim()
after = Image.core.get_stats()
print(during["allocated_blocks"], during["reused_blocks"], during["blocks_cached"], after["blocks_cached"])
"""


def pool_stats(mode: str) -> list[int]:
    root = Path(__file__).resolve().parents[1]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", POOL, mode], cwd=root, env=env, capture_output=True, text=True,
                         timeout=60, check=True).stdout
    return [int(n) for n in out.split()]


def test_tuned_pictures_reuse_pillows_blocks_and_a_trim_lets_them_go() -> None:
    allocated, reused, cached, after_trim = pool_stats("tuned")
    assert reused > 10 * allocated  # the next picture takes the blocks the last one freed, not fresh mappings
    assert 0 < cached <= allocator.POOL_BLOCKS and after_trim == 0


def test_untuned_pillow_maps_every_block_afresh() -> None:
    allocated, reused, cached, after_trim = pool_stats("default")
    assert reused == 0 and cached == after_trim == 0 and allocated >= 60  # each of the 80 images a new block
