"""Benchmarks through the loopback fake of Discord: figures printed, never asserted.

    python -m tests.bench_discord            start-up, memory, requests per move, one /explore interaction end to
                                             end, and whole games per decision (add --quick for a short run)
    python -m tests.bench_discord --turns    only the whole games' figures per decision (--game KEY: one game)

The service path and the pictures, which need no Discord, are measured by ``python -m bot bench``; what is
here needs the test tree's fake Discord (``tests/fakediscord.py``), which the product never imports.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

from bot.bench import pct
from tests import ops_helpers as ops
from tests.delivery_helpers import Bot
from tests.discord_bench import explore_latencies
from tests.fakediscord import FakeDiscord
from tests.turns_helpers import TURN_GAMES, people_of, whole_game


async def discord_figures(n: int) -> dict[str, float]:
    lat = await explore_latencies(n)
    return {"p50": pct(lat, 0.5), "p99": pct(lat, 0.99), "n": float(len(lat))}


async def ops_figures(quick: bool) -> None:
    """Start-up, memory and REST figures (tests/ops_helpers.py: the real process on the loopback Discord)."""
    ready = await ops.ready_figures(10_000)
    print(f"\nStart-up with {ready['stored']:,.0f} stored games (real `python -m bot`, loopback Discord)")
    print(f"  bot's first log line to ready    : {ready['bot_to_ready_s']:.2f} s   (spawn to /healthz 200, "
          f"Python's start and imports included: {ready['spawn_to_ready_s']:.2f} s)")
    print(f"  RSS at ready                     : {ready['rss_ready_mb']:.0f} MB")
    played = 100 if quick else 1000
    pictures = Path(tempfile.mkdtemp(prefix="tabula-bench-pictures-"))
    for run in ("empty picture directory", "the directory the first run filled"):
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "tests.ops_helpers", "memory", str(played),
                                                    str(pictures), stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()
        mem = json.loads(out.decode().strip().splitlines()[-1])
        trail = " → ".join(f"{mb:.0f}" for _, mb in mem["samples"])
        print(f"\nMemory, {played:,} games played in one bot process ({run})")
        print(f"  RSS at ready {mem['ready_mb']:.0f} MB, after {played:,} games {mem['final_mb']:.0f} MB;"
              f" second half {mem['kb_per_game']:+.0f} KB per game")
        print(f"  every tenth: {trail}")
    lat = await ops.latency_figures(20.0)
    print("\n/game status right after a start, round the games' threads (p50 / p99 ms)")
    for run, fig in lat.items():
        print(f"  {run + ' pictures':<16}: first 10 s {fig['early_p50']:.0f} / {fig['early_p99']:.0f}"
              f" (n={fig['early_n']:.0f}), later {fig['late_p50']:.0f} / {fig['late_p99']:.0f} "
              f"(n={fig['late_n']:.0f}), unanswered {fig['failed']:.0f}")
    print("\nREST requests per move, played by the prompts' controls (bot token: Discord's global limit)")
    total_bot = total_moves = 0
    for key, count in (await ops.rest_figures(20 if quick else 60)).items():
        total_bot += count.bot
        total_moves += count.moves
        routes = ", ".join(f"{r} ×{n}" for r, n in count.routes.most_common()) or "none"
        print(f"  {key:<12}: {count.moves:3d} moves, bot-token {count.bot_per_move:.2f}/move, interaction-token "
              f"{count.interaction_per_move:.2f}/move ({routes})")
    if total_moves:
        print(f"  all games    : {total_bot / total_moves:.2f} bot-token requests per move")


async def turn_figures(seed: int = 1, only: str = "") -> None:
    """Whole games through the real process (tests/turns_helpers.py): per decision, the people pinged, the
    public messages and pictures posted, and the REST requests on the bot's token and on interactions' own;
    and whether any interaction was answered late, anyone pinged wrongly, or a present person's seat played."""
    print("\nWhole games through the real `python -m bot` (loopback Discord), played by their controls; per decision:")
    print(f"  {'game':<34} {'decisions':>9} {'pings':>6} {'public':>7} {'pictures':>8} {'bot-token':>9} "
          f"{'interaction':>11}  late  wrong pings  seats taken")
    work = Path(tempfile.mkdtemp(prefix="tabula-bench-turns-"))
    async with FakeDiscord() as fake:
        people = people_of(fake, 4)
        bot = await Bot.start(work / "bot.db", fake, TABULA_GAMES="", TIMEOUT_POLL_SECONDS="0.5")
        try:
            for label, key, options, n, tabulas in TURN_GAMES:
                if only and only not in key:
                    continue
                c = await whole_game(fake, work / "bot.db", key, options, people[:n], tabulas, seed=seed, label=label,
                                     strict=False)
                wrong = sum("pinged" in p for p in c.problems)
                end = "" if c.finished else " (not finished)"
                print(f"  {label:<34} {c.decisions:>9} {c.per(c.pings):>6.2f} {c.per(c.messages):>7.2f} "
                      f"{c.per(c.pictures):>8.2f} {c.per(c.bot):>9.2f} {c.per(c.interaction):>11.2f}  {c.late:>4}  "
                      f"{wrong:>11}  {c.seats_taken:>11}{end}", flush=True)
        finally:
            bot.kill()
            await bot.gone(fake)


async def main(quick: bool) -> None:
    await ops_figures(quick)
    disc = await discord_figures(50 if quick else 200)
    print("\nFull /explore interaction through the loopback Discord harness (PNG included)")
    print(f"  {disc['n']:.0f} interactions: p50 {disc['p50']:.1f} ms  p99 {disc['p99']:.1f} ms")
    if not quick:
        await turn_figures()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m tests.bench_discord")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, and no whole games")
    parser.add_argument("--turns", action="store_true", help="only the whole games' figures per decision")
    parser.add_argument("--game", default="", help="with --turns: only this game (its key)")
    given = parser.parse_args()
    if given.turns:
        asyncio.run(turn_figures(only=given.game))
    else:
        asyncio.run(main(given.quick))
    sys.exit(0)
