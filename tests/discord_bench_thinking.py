"""`/explore` while Tabula thinks (issue 26): the timed interactions of tests/discord_bench.py, first alone, then
with four strong Tabula seats thinking at once in other games of the same bot (four Autokrator games whose
every realm Tabula plays at ``tabula_level:strong``, each move searched in the thinking pool).  Figures printed,
never asserted:

    nice -n 10 python -m tests.discord_bench_thinking [N]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
from typing import Any

from bot.bench import pct
from bot.service.play import Person
from tests.discord_bench import explore_latencies
from tests.fakediscord import FakeDiscordHarness

#: Games whose Tabula seats think at once beside the timed interactions.
THINKING_GAMES = 4


#: Decisions the thinking pool finished for those games while the interactions were timed (printed: the
#: thinking really went on).
MOVES = [0]


async def strong_games(h: FakeDiscordHarness) -> None:
    """Four games of four strong Tabula realms each, played on and on (a new game when one ends)."""
    svc = h.bot.service  # type: ignore[attr-defined]
    thinker = svc.thinker
    choose = thinker.choose

    async def counted(*args: Any, **kwargs: Any) -> Any:
        move = await choose(*args, **kwargs)
        MOVES[0] += 1
        return move

    thinker.choose = counted

    async def one(n: int) -> None:
        host = Person(900_000 + n, f"Host{n}")
        seed = n
        while True:
            info = await svc.create("autokrator", host, options={"mode": "full", "tabula_level": "strong"},
                                    seed=seed)
            for _ in range(3):
                await svc.add_tabula(info.game_id, host.id)
            await svc.start(info.game_id, host.id)
            await svc.leave_game(info.game_id, host.id)
            while (await svc.get(info.game_id)).status == "active":
                if not await svc.play_tabula(info.game_id):  # a whole game of Tabulas, move by move
                    await asyncio.sleep(0.05)
            seed += THINKING_GAMES

    await asyncio.gather(*(one(n) for n in range(THINKING_GAMES)))


async def main(n: int) -> None:
    alone = await explore_latencies(n)
    thinking = await explore_latencies(n, strong_games)
    for label, lat in (("alone", alone), (f"{THINKING_GAMES} games of strong Tabula seats thinking", thinking)):
        print(f"/explore {label}: {len(lat)} interactions, p50 {statistics.median(lat):.1f} ms, "
              f"p99 {pct(lat, 0.99):.1f} ms")
    print(f"p99 ratio, thinking / alone: {pct(thinking, 0.99) / pct(alone, 0.99):.2f}; strong decisions thought "
          f"meanwhile: {MOVES[0]}")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
