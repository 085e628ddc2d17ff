"""Benchmarks: figures printed, never asserted.  `python -m bot.bench` (add --quick for a short run).

Measures, on this machine and in one run (the machine is noisy: compare ratios, not absolute times):
  * the bare aiosqlite UPDATE+INSERT transaction (the floor any service path stands on);
  * the service path (cached load, rules, versioned save and log row): one game, and 10 games at once;
  * lost updates with 10 tasks hammering one game;
  * the cost of an action with 10,000 stored games, and with a long log;
  * the board snapshot (state to PNG bytes) against Pillow's default PNG encode of the same image;
  * a full `/explore` interaction through the loopback Discord harness, PNG included.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiosqlite

from bot.db import Database, open_database
from bot.play import GameService, Person, Result

PEOPLE = [Person(1000 + i, f"P{i}") for i in range(5)]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bare_aiosqlite(path: Path, n: int) -> float:
    """Actions/s of a bare aiosqlite transaction: UPDATE the game row with a version check, INSERT a log row."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.execute("PRAGMA synchronous=NORMAL")
    await conn.execute("INSERT INTO game (ruleset, host_id, status, seed, version, options, state) "
                       "VALUES ('legend', 1, 'active', 0, 0, '{}', ?)", ("x" * 3000,))
    cur = await conn.execute("SELECT max(id) FROM game")
    gid = (await cur.fetchone())[0]  # type: ignore[index]
    state = "y" * 3000
    t0 = time.perf_counter()
    for v in range(n):
        await conn.execute("BEGIN IMMEDIATE")
        await conn.execute("UPDATE game SET state = ?, version = version + 1 WHERE id = ? AND version = ?",
                           (state, gid, v))
        await conn.execute("INSERT INTO action (game_id, seq, user_id, seat, action, events, created_at) "
                           "VALUES (?, ?, 1, 0, '{}', '[]', 0)", (gid, v + 1))
        await conn.execute("COMMIT")
    rate = n / (time.perf_counter() - t0)
    await conn.close()
    return rate


#: The game each service figure plays: ruleset key and lobby options (see ``GAMES``).
GAME: dict[str, Any] = {"key": "legend", "options": {}}
GAMES: dict[str, dict[str, Any]] = {
    "Legend of Heroes, starter": {"key": "legend", "options": {}},
    "Legend of Heroes, Expanded Game": {"key": "legend", "options": {"mode": "expanded"}},
    "Champion of the Empire (48-province map, opponents played by players)": {
        "key": "champion", "options": {"opponents": "players"}},
}


async def new_game(svc: GameService, players: int, seed: int) -> Result:
    info = await svc.create(GAME["key"], PEOPLE[0], guild_id=1, options=dict(GAME["options"]), seed=seed)
    for p in PEOPLE[1:players]:
        await svc.join(info.game_id, p)
    return await svc.start(info.game_id, PEOPLE[0].id)


def next_move(result: Result, rng: random.Random) -> tuple[int, Any]:
    rules, state = result.rules, result.state
    seat = sorted(rules.to_act(state))[0]
    return result.user_of(seat), rng.choice(list(rules.legal(state, seat)))


async def drive(svc: GameService, result: Result, n: int, seed: int) -> list[float]:
    """Play ``n`` actions on one game (a new game when it ends); per-action latency in ms."""
    rng = random.Random(seed)
    latencies: list[float] = []
    for _ in range(n):
        if result.status != "active":
            result = await new_game(svc, 3, rng.randrange(1 << 30))
        user, action = next_move(result, rng)
        t = time.perf_counter()
        result = await svc.act(result.game_id, user, action)
        latencies.append((time.perf_counter() - t) * 1000)
    return latencies


async def service_figures(db: Database, n: int) -> dict[str, float]:
    svc = GameService(db)
    game = await new_game(svc, 3, 1)
    await drive(svc, game, 50, 0)  # warm up
    lat = await drive(svc, await new_game(svc, 3, 2), n, 1)
    # Only the service call is timed: choosing the next move and opening new games are the caller's work.
    one_rate = n / (sum(lat) / 1000)
    games = [await new_game(svc, 3, 10 + i) for i in range(10)]
    t0 = time.perf_counter()
    per_game = max(1, n // 10)
    lats = await asyncio.gather(*(drive(svc, g, per_game, 100 + i) for i, g in enumerate(games)))
    ten_rate = per_game * 10 / (time.perf_counter() - t0)
    flat = [x for chunk in lats for x in chunk]
    return {"one_rate": one_rate, "one_p50": pct(lat, 0.5), "one_p99": pct(lat, 0.99), "ten_rate": ten_rate,
            "ten_p50": pct(flat, 0.5), "ten_p99": pct(flat, 0.99)}


async def hammer(db: Database, tasks: int = 10, rounds: int = 30) -> tuple[int, int, int]:
    """10 tasks race to move one game; returns (moves applied, log rows, lost updates)."""
    from rules import GameError

    svc = GameService(db)
    result = await new_game(svc, 2, 7)
    start_version = result.version
    applied = 0

    async def worker(i: int) -> None:
        nonlocal applied
        rng = random.Random(i)
        for _ in range(rounds):
            now = await svc.get(result.game_id)
            if now.status != "active":
                return
            user, action = next_move(now, rng)
            try:
                await svc.act(result.game_id, user, action, expect_version=now.stamp)
                applied += 1
            except GameError:
                pass

    await asyncio.gather(*(worker(i) for i in range(tasks)))
    final = await svc.get(result.game_id)
    rows = len(await svc.history(result.game_id))
    lost = (final.version - start_version) - applied
    return applied, rows - 1, lost


async def scale_figures(path: Path, db: Database, n: int) -> dict[str, float]:
    """Action cost with 10,000 stored games, and on a game with a long log."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("BEGIN")
    await conn.executemany(
        "INSERT INTO game (ruleset, host_id, status, seed, version, options, state) VALUES "
        "('legend', 1, 'finished', 0, 1, '{}', ?)", [("z" * 3000,)] * 10_000)
    await conn.execute("COMMIT")
    await conn.close()
    svc = GameService(db)
    lat_many = await drive(svc, await new_game(svc, 3, 21), n, 5)
    long_game = await new_game(svc, 5, 22)
    await drive(svc, long_game, 3000, 6)  # grow one game's log (continues into new games when it ends)
    stored = await svc.count_games()
    lat_long = await drive(svc, await svc.get(long_game.game_id), n, 7)
    return {"games": float(stored), "many_p50": pct(lat_many, 0.5), "long_p50": pct(lat_long, 0.5)}


async def discord_figures(n: int) -> dict[str, float] | None:
    try:
        from tests.discord_bench import explore_latencies
    except ImportError:
        return None
    lat = await explore_latencies(n)
    return {"p50": pct(lat, 0.5), "p99": pct(lat, 0.99), "n": float(len(lat))}


async def main(quick: bool) -> None:
    n = 500 if quick else 2000
    work = Path(tempfile.mkdtemp(prefix="tabula-bench-"))
    print(f"Tabula benchmarks — {n} actions per figure; medians and ratios (this machine is noisy)\n")

    db = await open_database(f"sqlite+aiosqlite:///{work / 'bench.db'}")
    # Alternate the floor and the service path, three rounds each, and keep medians: the machine is noisy.
    bases: list[float] = []
    rounds: list[dict[str, float]] = []
    for _ in range(3):
        bases.append(await bare_aiosqlite(work / "bench.db", n // 2))
        rounds.append(await service_figures(db, n // 2))
    base = statistics.median(bases)
    svc = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    print("Service path (load, rules, save with version check, log row)")
    print(f"  bare aiosqlite UPDATE+INSERT txn : {base:8.0f} /s")
    print(f"  service, one game                : {svc['one_rate']:8.0f} /s   ratio {svc['one_rate'] / base:.2f}×"
          f"   p50 {svc['one_p50']:.2f} ms  p99 {svc['one_p99']:.2f} ms")
    print(f"  service, 10 games at once        : {svc['ten_rate']:8.0f} /s   ratio {svc['ten_rate'] / base:.2f}×"
          f"   p50 {svc['ten_p50']:.2f} ms  p99 {svc['ten_p99']:.2f} ms")
    applied, rows, lost = await hammer(db)
    print(f"  10 tasks hammering one game      : {applied} moves applied, {rows} log rows, {lost} lost updates")
    scale = await scale_figures(work / "bench.db", db, n // 2)
    label = f"with {scale['games']:.0f} stored games"
    print(f"  {label:<33}: p50 {scale['many_p50']:.2f} ms per action")
    print(f"  on a game with a 3,000-move log  : p50 {scale['long_p50']:.2f} ms per action")
    for title, game in list(GAMES.items())[1:]:
        GAME.update(game)
        more = [await service_figures(db, n // 2) for _ in range(3)]
        fig = {key: statistics.median(r[key] for r in more) for key in more[0]}
        print(f"\n{title}: the same service path")
        print(f"  service, one game                : {fig['one_rate']:8.0f} /s   ratio {fig['one_rate'] / base:.2f}×"
              f"   p50 {fig['one_p50']:.2f} ms  p99 {fig['one_p99']:.2f} ms")
        print(f"  service, 10 games at once        : {fig['ten_rate']:8.0f} /s   ratio {fig['ten_rate'] / base:.2f}×"
              f"   p50 {fig['ten_p50']:.2f} ms  p99 {fig['ten_p99']:.2f} ms")
    GAME.update(next(iter(GAMES.values())))
    await db.close()

    from render.legend import bench_board

    board = bench_board(20 if quick else 60)
    print("\nBoard snapshot (state → PNG bytes), dungeon")
    kib = board["png_bytes"] / 1024
    print(f"  render_board p50                 : {board['render_p50_ms']:6.1f} ms  ({kib:.0f} KiB)")
    print(f"  Pillow default PNG encode p50    : {board['default_encode_p50_ms']:6.1f} ms  "
          f"({board['default_png_bytes'] / 1024:.0f} KiB)")
    print(f"  ratio                            : {board['ratio']:.2f}×")
    from render.legend import bench_party

    sample = {"player": "Ann", "colour": "red", "letter": "R", "spell": "ice-storm",
              "heroes": [{"id": h, "wounded": h == "jehan"} for h in ("zoltan", "jehan", "anselm", "rolf", "brand")]}
    party = bench_party(sample, n=20 if quick else 60)
    print(f"  party picture (Expanded Game) p50: {party['render_p50_ms']:6.1f} ms  "
          f"({party['png_bytes'] / 1024:.0f} KiB, cache off)")

    from render.champion import bench_map

    roman = bench_map(20 if quick else 60)
    print("\nMap snapshot (state → PNG bytes), Champion of the Empire, 48 provinces, 4 heroes")
    print(f"  render_map p50                   : {roman['render_p50_ms']:6.1f} ms  "
          f"({roman['png_bytes'] / 1024:.0f} KiB)")
    print(f"  Pillow default PNG encode p50    : {roman['default_encode_p50_ms']:6.1f} ms  "
          f"({roman['default_png_bytes'] / 1024:.0f} KiB)")
    print(f"  ratio                            : {roman['render_p50_ms'] / roman['default_encode_p50_ms']:.2f}×")

    disc = await discord_figures(50 if quick else 200)
    if disc is not None:
        print("\nFull /explore interaction through the loopback Discord harness (PNG included)")
        print(f"  {disc['n']:.0f} interactions: p50 {disc['p50']:.1f} ms  p99 {disc['p99']:.1f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bot.bench")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (about 20 s)")
    asyncio.run(main(parser.parse_args().quick))
    sys.exit(0)
