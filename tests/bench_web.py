"""`python -m tests.bench_web`: what open web pages cost the moves of their game (``--quick``: 60 moves).

The full `/explore` interaction through the loopback Discord harness (``tests/discord_bench.py``, the figure
the main bench prints) is timed three times: with the web page off, on with no page open, and with ``VIEWERS``
public pages open on each game, held by a separate process (as browsers are) that does what the page's script
does — one live stream per page, which brings the newest step with each move (a page that is not sent it
fetches it).  Printed: both p50 / p99, their ratio, how many updates the
pages received, and how much the bot's own process grew (resident memory) while the pages were open.

Figures, never assertions: the machine is noisy, so compare the ratio.  It lives in the test tree because it
needs the loopback fake of Discord, which the product never imports."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from bot.bench import pct
from tests.discord_bench import explore_latencies
from tests.fakediscord import walk_components

VIEWERS = 200


def rss_mb() -> float:
    """This process's resident memory in MB (Linux; 0 elsewhere), once freed heap is handed back as the bot
    does after each sweep (``bot.metrics.release_memory``)."""
    import gc

    from bot.ops.metrics import release_memory

    gc.collect()
    release_memory()
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def _viewers(url: str, count: int) -> None:
    """The pages: ``count`` live streams on ``url``, each fetching the newest step at every move (run in a process
    of its own); prints ``ready`` once every stream is open, and the totals when its input closes."""
    import aiohttp

    got = {"events": 0, "steps": 0}
    ready = asyncio.Event()
    opened = 0

    async def page(session: aiohttp.ClientSession) -> None:
        nonlocal opened
        async with session.get(url + "/live", timeout=aiohttp.ClientTimeout(total=None)) as stream:
            await stream.content.readuntil(b"\n\n")
            opened += 1
            if opened == count:
                ready.set()
            while True:
                chunk = await stream.content.readuntil(b"\n\n")
                if chunk.startswith(b"event: moved"):
                    got["events"] += 1
                    if b'"html"' in chunk:  # the newest step came with the news, as a public page gets it
                        got["steps"] += 1
                        continue
                    async with session.get(url + "/step") as answer:
                        await answer.read()
                        got["steps"] += answer.status == 200

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        tasks = [asyncio.create_task(page(session)) for _ in range(count)]
        await ready.wait()
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.read)  # until the bench closes our input
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    print(f"{got['events']} {got['steps']}", flush=True)


class Pages:
    """The viewers' process around each game of the timed run, and what it and the bot's memory did."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.events = self.steps = 0
        self.grown: list[float] = []
        self.connected: list[float] = []  # what holding the pages open cost the bot, measured as they opened

    @contextlib.asynccontextmanager
    async def around(self, _h: Any, opening: Any) -> AsyncIterator[None]:
        if not self.count:  # the same game without pages: what the bot grows by anyway
            before = rss_mb()
            try:
                yield
            finally:
                self.grown.append(rss_mb() - before)
            return
        url = next(c["url"] for c in _links(opening.components))
        quiet = rss_mb()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.bench_web", "--viewers", url, str(self.count),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert proc.stdout is not None and proc.stdin is not None
        line = await asyncio.wait_for(proc.stdout.readline(), 120)
        if line.strip() != b"ready":
            raise RuntimeError("the viewers' process did not open its pages")
        before = rss_mb()
        self.connected.append(before - quiet)
        try:
            yield
        finally:
            self.grown.append(rss_mb() - before)
            proc.stdin.close()
            out, _err = await asyncio.wait_for(proc.communicate(), 60)
            events, steps = (int(x) for x in out.split()[-2:])
            self.events += events
            self.steps += steps


def _links(components: Any) -> list[dict[str, Any]]:
    return [c for c in walk_components(components) if c.get("style") == 5 and c.get("url")]


async def figures(n: int, viewers: int = VIEWERS) -> dict[str, float]:
    # (the pages all come from this machine: the per-address rate limit is lifted for them)
    web = {"web_port": 0, "web_rate_per_minute": 100_000}
    bare = await explore_latencies(n)
    alone = Pages(0)
    plain = await explore_latencies(n, settings=web, around=alone.around)
    pages = Pages(viewers)
    watched = await explore_latencies(n, settings=web, around=pages.around)
    return {"n": float(n), "viewers": float(viewers), "bare_p50": pct(bare, 0.5), "bare_p99": pct(bare, 0.99),
            "web_p50": pct(plain, 0.5), "web_p99": pct(plain, 0.99), "watched_p50": pct(watched, 0.5),
            "watched_p99": pct(watched, 0.99), "events": float(pages.events), "steps": float(pages.steps),
            "grown_mb": max(pages.grown, default=0.0), "plain_grown_mb": max(alone.grown, default=0.0),
            "connected_mb": max(pages.connected, default=0.0)}


async def main(quick: bool) -> None:
    n = 60 if quick else 200
    print(f"\nWeb pages: the full /explore interaction, {n} moves, with {VIEWERS} pages open on the game "
          "(p50 / p99 ms)")
    fig = await figures(n)
    print(f"  web page off                     : {fig['bare_p50']:6.1f} / {fig['bare_p99']:6.1f}")
    print(f"  web page on, no page open        : {fig['web_p50']:6.1f} / {fig['web_p99']:6.1f}")
    print(f"  {VIEWERS} pages open on the game      : {fig['watched_p50']:6.1f} / {fig['watched_p99']:6.1f}"
          f"   p99 ratio to off {fig['watched_p99'] / fig['bare_p99']:.2f}×")
    print(f"  updates the pages received       : {fig['events']:.0f} events, {fig['steps']:.0f} with the newest step")
    print(f"  the bot's memory as {VIEWERS} pages opened : +{fig['connected_mb']:.1f} MB")
    print(f"  the bot's memory over a game, pages open : +{fig['grown_mb']:.1f} MB "
          f"(the same without pages: +{fig['plain_grown_mb']:.1f} MB)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m tests.bench_web")
    parser.add_argument("--viewers", nargs=2, metavar=("URL", "N"), help="(internal) hold N pages open on URL")
    parser.add_argument("--quick", action="store_true", help="fewer moves")
    given = parser.parse_args()
    if given.viewers:
        asyncio.run(_viewers(given.viewers[0], int(given.viewers[1])))
    else:
        asyncio.run(main(given.quick))
