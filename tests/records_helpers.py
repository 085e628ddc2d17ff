"""Helpers for the records tests and figures: games played to the end by seeded random play."""

from __future__ import annotations

from typing import Any

from bot.service.play import GameService, Person
from rules import GameError
from rules.core import Rng, seed_state

PEOPLE = [Person(1000 + i, f"P{i}") for i in range(5)]


async def play_out(svc: GameService, key: str, options: dict[str, Any], people: list[Person], seed: int, *,
                   guild_id: int = 1, limit: int = 5000, stop_after: int | None = None,
                   tabula: int = 0) -> int:
    """Open, start and play a game to its end (or ``stop_after`` moves) with Tabula's own policy (a random
    legal move when it has none); ``tabula`` seats Tabula plays.  Returns the game's id."""
    info = await svc.create(key, people[0], guild_id=guild_id, options=dict(options), seed=seed)
    for p in people[1:]:
        await svc.join(info.game_id, p)
    for _ in range(tabula):
        await svc.add_tabula(info.game_id, people[0].id)
    await svc.start(info.game_id, people[0].id)
    await play_on(svc, info.game_id, seed, limit=limit, stop_after=stop_after)
    return info.game_id


async def play_on(svc: GameService, game_id: int, seed: int, *, limit: int = 5000,
                  stop_after: int | None = None) -> int:
    """Play a started game on with Tabula's own policy (a random legal move when it has none), to its end or
    for ``stop_after`` moves; returns the moves made."""
    result = await svc.get(game_id)
    rng = Rng(seed_state(seed))
    moves = 0
    while result.status == "active" and result.to_act and moves < limit:
        if stop_after is not None and moves >= stop_after:
            break
        rules, state = result.rules, result.state
        seat = sorted(result.to_act)[0]
        move = rules.policy(state, seat, rng)
        if move is None:
            legal = list(rules.legal(state, seat))
            move = legal[rng.below(len(legal))]
        try:
            result = await svc.act(game_id, result.user_of(seat), move)
        except GameError:
            result = await svc.get(game_id)
            continue
        moves += 1
    return moves


async def bench(rounds: int = 9) -> None:
    """Median times of `/game history` and `/game replay` on a long finished game, through discord.py and the
    loopback fake: `python -m tests.records_helpers`."""
    import statistics
    import tempfile
    import time
    from pathlib import Path

    from bot.store.db import open_database
    from tests.fakediscord import FakeDiscordHarness
    from tests.tabula_harness import bot_factory, uid

    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}")
        async with FakeDiscordHarness(bot_factory(db)) as h:
            svc = GameService(db)
            players = [Person(uid(h.alice), "Alice"), Person(uid(h.bob), "Bob"), Person(uid(h.carol), "Carol")]
            game_id = await play_out(svc, "champion", {"opponents": "players"}, players, 5,
                                     guild_id=h.fake.guild_id)
            entries = len(await svc.history(game_id)) - 1
            print(f"a finished game of {entries} entries (3 players, seed 5)")

            async def timed(label: str, run: Any) -> None:
                times = []
                for _ in range(rounds):
                    t = time.perf_counter()
                    await run()
                    times.append((time.perf_counter() - t) * 1000)
                print(f"{label}: median {statistics.median(times):.0f} ms (min {min(times):.0f}, max "
                      f"{max(times):.0f}, {rounds} runs)")

            async def cold_history() -> None:
                svc.forget()
                h.bot.get_cog("Records").records._walked.clear()  # type: ignore[union-attr]
                await h.slash(h.alice, h.channel, "game", {"game": game_id, "from": 1}, subcommand="history")

            async def history() -> None:
                await h.slash(h.alice, h.channel, "game", {"game": game_id, "from": 1}, subcommand="history")

            first = await h.slash(h.alice, h.channel, "game", {"game": game_id, "from": 1}, subcommand="history")
            assert first.original is not None
            message = first.original

            async def turn() -> None:
                current = h.fake.message(message.id)
                await h.click(h.alice, current, next(c for c in current.custom_ids if ":n:" in c))

            async def cold_replay() -> None:
                h.bot.get_cog("Records").records._walked.clear()  # type: ignore[union-attr]
                await h.slash(h.alice, h.channel, "game", {"game": game_id, "move": entries // 2},
                              subcommand="replay")

            async def replay() -> None:
                await h.slash(h.alice, h.channel, "game", {"game": game_id, "move": entries // 2},
                              subcommand="replay")

            shown = await h.slash(h.alice, h.channel, "game", {"game": game_id, "move": 1}, subcommand="replay")
            assert shown.original is not None
            frame_message = shown.original

            async def step() -> None:
                current = h.fake.message(frame_message.id)
                await h.click(h.alice, current, next(c for c in current.custom_ids if ":n:" in c))

            from bot.service.records import Records, build, frame, history_lines, history_page

            records = Records(db.sessions)
            game = await records.game(game_id, h.fake.guild_id)

            async def walk_only() -> None:
                build(game.facts, game.rows)

            async def lines_only() -> None:
                history_page(game, history_lines(game), 0)

            async def frame_only() -> None:
                frame(game, history_lines(game), entries // 2)

            print(f"(the harness waits {h.quiet * 1000:.0f} ms of quiet after each interaction)")
            await timed("service only: walk the log with the engine", walk_only)
            await timed("service only: every history line, one page", lines_only)
            await timed("service only: one replay frame (picture drawn)", frame_only)
            await timed("/game history, log walked afresh", cold_history)
            await timed("/game history, walked log kept", history)
            await timed("history Next button", turn)
            await timed("/game replay, log walked afresh", cold_replay)
            await timed("/game replay, walked log kept", replay)
            await timed("replay Next button", step)
        await db.close()


if __name__ == "__main__":
    import asyncio

    asyncio.run(bench())
