"""Benchmarks: figures printed, never asserted.  `python -m bot.bench` (add --quick for a short run).

Measures, on this machine and in one run (the machine is noisy: compare ratios, not absolute times):
  * the bare aiosqlite UPDATE+INSERT transaction (the floor any service path stands on);
  * the service path (cached load, rules, versioned save and log row): one game, and 10 games at once;
  * lost updates with 10 tasks hammering one game;
  * the cost of an action with 10,000 stored games, and with a long log;
  * the turn clocks' sweep with 10,000 running games (one indexed query);
  * every game's status picture (view to PNG bytes) against Pillow's default PNG encode of the same image.
Each game's configurations come from its spec (``GameSpec.bench``): a new game is measured by existing.

What needs a Discord (an interaction end to end, start-up, memory, requests and pings per decision) is
measured through the test tree's loopback fake of Discord, by ``python -m tests.bench_discord``: production
code never imports the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite
from PIL import Image

from bot.delivery.tellings import status_now, telling_now
from bot.ops import allocator
from bot.present.base import SeatName
from bot.service.moment import GameMoment, moment_for
from bot.service.play import GameService, Person
from bot.store.db import Database, open_database
from render.cache import configure, current, drawn_twice, layer_draws
from rules import GameError
from rules.core import Rng, SeatInfo, seed_state
from rules.registry import games

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
                       "VALUES ('bench', 1, 'active', 0, 0, '{}', ?)", ("x" * 3000,))
    cur = await conn.execute("SELECT max(id) FROM game")
    row = await cur.fetchone()
    assert row is not None  # the row just inserted
    gid = row[0]
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


@dataclass(slots=True)
class Config:
    """The game a service figure plays: a ruleset key, lobby options and the number of players."""

    key: str
    options: dict[str, Any]
    players: int
    label: str


def configurations() -> list[Config]:
    """Every game's own benchmark configurations, as its spec declares them."""
    out = [Config(key, dict(b.options), b.players,
                  b.label if b.label.startswith(rules.spec.title) else f"{rules.spec.title}, {b.label}")
           for key, rules in games().items() for b in rules.spec.bench]
    # The platform's own figures (the floor, hammering, scale) are taken on the cheapest game to play.
    return sorted(out, key=lambda c: (c.options != {}, c.key))


async def new_game(svc: GameService, config: Config, seed: int) -> GameMoment[Any]:
    info = await svc.create(config.key, PEOPLE[0], guild_id=1, options=dict(config.options), seed=seed)
    for p in PEOPLE[1:config.players]:
        await svc.join(info.game_id, p)
    return await svc.start(info.game_id, PEOPLE[0].id)


def next_move(result: GameMoment[Any], rng: Rng) -> tuple[int, Any]:
    """Tabula's own choice for whoever must act (a game's policy ends it in a sensible number of moves)."""
    rules, state = result.rules, result.state
    seat = sorted(result.to_act)[0]
    move = rules.policy(state, seat, rng)
    if move is None:
        legal = list(rules.legal(state, seat))
        move = legal[rng.below(len(legal))]
    return result.user_of(seat), move


async def drive(svc: GameService, config: Config, result: GameMoment[Any], n: int, seed: int) -> list[float]:
    """Play ``n`` actions on one game (a new game when it ends); per-action latency in ms."""
    rng = Rng(seed_state(seed))
    latencies: list[float] = []
    while len(latencies) < n:
        if result.status != "active" or not result.to_act:
            result = await new_game(svc, config, rng.below(1 << 30))
            continue
        user, action = next_move(result, rng)
        t = time.perf_counter()
        try:
            result = await svc.act(result.game_id, user, action)
        except GameError:
            result = await svc.get(result.game_id)
            continue
        latencies.append((time.perf_counter() - t) * 1000)
    return latencies


async def service_figures(db: Database, config: Config, n: int) -> dict[str, float]:
    svc = GameService(db)
    game = await new_game(svc, config, 1)
    await drive(svc, config, game, 50, 0)  # warm up
    lat = await drive(svc, config, await new_game(svc, config, 2), n, 1)
    # Only the service call is timed: choosing the next move and opening new games are the caller's work.
    one_rate = n / (sum(lat) / 1000)
    tables = [await new_game(svc, config, 10 + i) for i in range(10)]
    t0 = time.perf_counter()
    per_game = max(1, n // 10)
    lats = await asyncio.gather(*(drive(svc, config, g, per_game, 100 + i) for i, g in enumerate(tables)))
    ten_rate = per_game * 10 / (time.perf_counter() - t0)
    flat = [x for chunk in lats for x in chunk]
    return {"one_rate": one_rate, "one_p50": pct(lat, 0.5), "one_p99": pct(lat, 0.99), "ten_rate": ten_rate,
            "ten_p50": pct(flat, 0.5), "ten_p99": pct(flat, 0.99)}


async def hammer(db: Database, config: Config, tasks: int = 10, rounds: int = 30) -> tuple[int, int, int]:
    """10 tasks race to move one game; returns (moves applied, log rows, lost updates)."""
    svc = GameService(db)
    result = await new_game(svc, config, 7)
    start_version = result.version
    applied = 0

    async def worker(i: int) -> None:
        nonlocal applied
        rng = Rng(seed_state(i))
        for _ in range(rounds):
            now = await svc.get(result.game_id)
            if now.status != "active" or not now.to_act:
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


async def scale_figures(path: Path, db: Database, config: Config, n: int) -> dict[str, float]:
    """Action cost with 10,000 stored games, and on a game with a long log."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("BEGIN")
    await conn.executemany(
        "INSERT INTO game (ruleset, host_id, status, seed, version, options, state) VALUES "
        "('bench', 1, 'finished', 0, 1, '{}', ?)", [("z" * 3000,)] * 10_000)
    await conn.execute("COMMIT")
    await conn.close()
    svc = GameService(db)
    lat_many = await drive(svc, config, await new_game(svc, config, 21), n, 5)
    long_game = await new_game(svc, config, 22)
    await drive(svc, config, long_game, 3000, 6)  # grow one game's log (continues into new games when it ends)
    stored = await svc.count_games()
    lat_long = await drive(svc, config, await svc.get(long_game.game_id), n, 7)
    return {"games": float(stored), "many_p50": pct(lat_many, 0.5), "long_p50": pct(lat_long, 0.5)}


async def clock_figures(path: Path, db: Database, running: int = 10_000, due: int = 25) -> dict[str, Any]:
    """The turn clocks' sweep with ``running`` games whose clocks run, ``due`` of them due now: the median
    time of the one query a sweep makes, and SQLite's plan for it (an index search, not a scan)."""
    now = time.time()
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("BEGIN")
    rows = [(now - 60 if i < due else now + 60 + (i * 37) % (3 * 86400),) for i in range(running)]
    await conn.executemany(
        "INSERT INTO game (ruleset, host_id, status, seed, version, options, state, wake_at, paused) VALUES "
        "('bench', 1, 'active', 0, 1, '{}', 'x', ?, 0)", rows)
    await conn.execute("COMMIT")
    cur = await conn.execute("EXPLAIN QUERY PLAN SELECT id, wake_at FROM game WHERE wake_at <= ? AND "
                             "status = 'active' AND paused = 0 ORDER BY wake_at LIMIT 500", (now,))
    plan = " / ".join(str(r[-1]) for r in await cur.fetchall())
    await conn.close()
    times = []
    found = 0
    for _ in range(60):
        t0 = time.perf_counter()
        found = len(await db.queries.waking(now))
        times.append((time.perf_counter() - t0) * 1000)
    return {"running": running, "due": found, "p50": statistics.median(times), "plan": plan}


def snapshot_figures(config: Config, n: int) -> dict[str, float]:
    """A game's status picture (view → PNG bytes) halfway through a seeded game, against Pillow's default
    PNG encode of the same image."""
    rules = games()[config.key]
    seats = [SeatInfo(index=i, name=p.name) for i, p in enumerate(PEOPLE[:config.players])]
    state = rules.setup(seats, rules.check_options(config.options, config.players), 3).state
    rng = Rng(seed_state(3))
    for _ in range(40):
        acting = sorted(rules.to_act(state))
        if not acting or rules.outcome(state) is not None:
            break
        move = rules.policy(state, acting[0], rng)
        if move is None:
            break
        try:
            state = rules.apply(state, acting[0], move).state
        except GameError:
            continue
    moment = moment_for(rules, state, [SeatName(s.index, PEOPLE[s.index].id, s.name) for s in seats])
    status_now(moment)  # the static layers, once
    render: list[float] = []
    png = b""
    for _ in range(n):
        t = time.perf_counter()
        pictures = status_now(moment).pictures
        render.append((time.perf_counter() - t) * 1000)
        png = pictures[0].png if pictures else b""
    if not png:
        return {}
    image = Image.open(io.BytesIO(png)).convert("RGB")
    encode: list[float] = []
    size = 0
    for _ in range(max(3, n // 3)):
        buf = io.BytesIO()
        t = time.perf_counter()
        image.save(buf, format="PNG")
        encode.append((time.perf_counter() - t) * 1000)
        size = buf.tell()
    return {"render_p50_ms": pct(render, 0.5), "png_bytes": float(len(png)), "default_encode_p50_ms": pct(encode, 0.5),
            "default_png_bytes": float(size), "width": float(image.width), "height": float(image.height)}


#: The states of the picture folder a whole-game figure is taken in: filled by an earlier run, empty (the first
#: run after an upgrade changed the renderer), and none at all (a container without a volume).
PICTURE_STATES = ("warm", "empty", "none")


async def picture_game(config: Config, seed: int, max_moves: int | None = None) -> dict[str, Any]:
    """One whole seeded game played through the service with Tabula's choices for every seat, each move told as
    the bot and the terminal tell it (``telling_now`` for the move and each of Tabula's moves after it: the
    story, the board and the cards).  Per move, the CPU time of the telling's thread (ms) and its pictures."""

    work = Path(tempfile.mkdtemp(prefix="tabula-bench-game-"))
    db = await open_database(f"sqlite+aiosqlite:///{work / 'game.db'}")
    per_move: list[float] = []
    pictures = 0
    try:
        svc = GameService(db)
        rng = Rng(seed_state(seed))
        result = await new_game(svc, config, seed)

        def tell(moment: GameMoment[Any]) -> float:
            nonlocal pictures
            t = time.thread_time()
            for m in (moment, *moment.followups):
                pictures += len(telling_now(m).pictures)
            return (time.thread_time() - t) * 1000

        per_move.append(tell(result))
        while result.status == "active" and result.to_act and (max_moves is None or len(per_move) <= max_moves):
            user, action = next_move(result, rng)
            try:
                result = await svc.act(result.game_id, user, action)
            except GameError:
                result = await svc.get(result.game_id)
                continue
            per_move.append(tell(result))
    finally:
        await db.close()
    return {"moves": len(per_move), "pictures": pictures, "per_move_ms": per_move,
            "finished": result.status != "active"}


def picture_configs() -> list[Config]:
    """One configuration a game for the whole-game picture figures: the first its spec declares."""
    seen: dict[str, Config] = {}
    for config in configurations():
        seen.setdefault(config.key, config)
    return list(seen.values())


async def picture_run(state: str, folder: Path | None, keys: list[str], seed: int,
                      max_moves: int | None = None) -> dict[str, Any]:
    """This process's figures for whole games of ``keys`` with the picture folder in ``state`` (``folder`` is
    that folder: filled by an earlier run for "warm"), and the static layers drawn more than once."""

    allocator.tune()  # the C heap as the bot and the terminal run it (bot/ops/allocator.py)
    configure(None if state == "none" else folder)
    games_run = {}
    for config in picture_configs():
        if config.key in keys:
            games_run[config.key] = await picture_game(config, seed, max_moves)

    current().flush()
    draws = layer_draws()
    return {"state": state, "games": games_run, "layers_drawn": sum(draws.values()),
            "drawn_twice": drawn_twice(),
            "rss_mb": _rss_mb("VmRSS"), "peak_mb": _rss_mb("VmHWM")}


def _rss_mb(field: str) -> float:
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def picture_figures(keys: list[str], seed: int = 1, max_moves: int | None = None) -> None:
    """Whole seeded games of each game in a fresh process per state of the picture folder: the folder empty,
    then warm (the folder that run filled), and no folder; CPU ms per move (p50, p99), per picture, and RSS."""
    print("\nWhole seeded games through the presenters (every move told: story, board, cards), a fresh process per"
          " game and state;\nCPU of the telling's thread, ms; RSS of the process at the end (peak)")
    print(f"  {'game':<24} {'folder':<6} {'moves':>5} {'pictures':>8} {'p50/move':>8} {'p99/move':>8} "
          f"{'max/move':>8} {'per picture':>11} {'RSS MB':>7} {'peak':>5}  twice")
    for key in keys:
        folder = Path(tempfile.mkdtemp(prefix="tabula-bench-folder-"))
        for state in ("empty", "warm", "none"):
            command = [sys.executable, "-m", "bot.bench", "--picture-run", state, "--folder", str(folder),
                       "--game", key, "--seed", str(seed)]
            if max_moves is not None:
                command += ["--moves", str(max_moves)]
            proc = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
            out, _err = await proc.communicate()
            run = json.loads(out.decode().strip().splitlines()[-1])
            fig = run["games"][key]
            ms = fig["per_move_ms"]
            per_picture = sum(ms) / max(1, fig["pictures"])
            title = games()[key].spec.title
            print(f"  {title[:24]:<24} {state:<6} {fig['moves']:>5} {fig['pictures']:>8} {pct(ms, 0.5):>8.1f} "
                  f"{pct(ms, 0.99):>8.1f} {max(ms):>8.1f} {per_picture:>11.1f} {run['rss_mb']:>7.0f} "
                  f"{run['peak_mb']:>5.0f}  {', '.join(run['drawn_twice']) or 'none'}", flush=True)


def status_figures(quick: bool, only: str = "") -> None:
    """Each game's status picture against Pillow's default encode of the same picture."""
    seen: set[str] = set()
    for config in configurations():
        if config.key in seen or (only and config.key != only):
            continue
        seen.add(config.key)
        fig = snapshot_figures(config, 20 if quick else 60)
        if not fig:
            continue
        print(f"\nStatus picture (view → PNG bytes), {games()[config.key].spec.title}, "
              f"{fig['width']:.0f}×{fig['height']:.0f}")
        kib = fig["png_bytes"] / 1024
        print(f"  presenter's picture p50          : {fig['render_p50_ms']:6.1f} ms  ({kib:.0f} KiB)")
        print(f"  Pillow default PNG encode p50    : {fig['default_encode_p50_ms']:6.1f} ms  "
              f"({fig['default_png_bytes'] / 1024:.0f} KiB)")
        print(f"  ratio                            : {fig['render_p50_ms'] / fig['default_encode_p50_ms']:.2f}×",
              flush=True)


async def main(quick: bool) -> None:
    n = 500 if quick else 2000
    work = Path(tempfile.mkdtemp(prefix="tabula-bench-"))
    print(f"Tabula benchmarks — {n} actions per figure; medians and ratios (this machine is noisy)\n")
    configs = configurations()
    first = configs[0]

    db = await open_database(f"sqlite+aiosqlite:///{work / 'bench.db'}")
    # Alternate the floor and the service path, three rounds each, and keep medians: the machine is noisy.
    bases: list[float] = []
    rounds: list[dict[str, float]] = []
    for _ in range(3):
        bases.append(await bare_aiosqlite(work / "bench.db", n // 2))
        rounds.append(await service_figures(db, first, n // 2))
    base = statistics.median(bases)
    print(f"Service path (load, rules, save with version check, log row) — {first.label}")
    print(f"  bare aiosqlite UPDATE+INSERT txn : {base:8.0f} /s")
    _print_service(rounds, base)
    applied, rows, lost = await hammer(db, first)
    print(f"  10 tasks hammering one game      : {applied} moves applied, {rows} log rows, {lost} lost updates")
    scale = await scale_figures(work / "bench.db", db, first, n // 2)
    label = f"with {scale['games']:.0f} stored games"
    print(f"  {label:<33}: p50 {scale['many_p50']:.2f} ms per action")
    print(f"  on a game with a 3,000-move log  : p50 {scale['long_p50']:.2f} ms per action")
    sweep = await clock_figures(work / "bench.db", db)
    print(f"  clock sweep, {sweep['running']:,} running games    : p50 {sweep['p50']:.2f} ms for the one query "
          f"({sweep['due']} due; plan: {sweep['plan']})")
    for config in configs[1:]:
        more = [await service_figures(db, config, n // 2) for _ in range(3)]
        print(f"\n{config.label}: the same service path")
        _print_service(more, base)
    await db.close()

    status_figures(quick)
    await picture_figures(sorted({c.key for c in picture_configs()}), max_moves=60 if quick else None)

    print("\nFigures through a Discord (the real process on the test tree's loopback Discord: an interaction's"
          "\nlatency, start-up, memory, requests and pings per decision): python -m tests.bench_discord")


def _print_service(rounds: list[dict[str, float]], base: float) -> None:
    fig = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
    print(f"  service, one game                : {fig['one_rate']:8.0f} /s   ratio {fig['one_rate'] / base:.2f}×"
          f"   p50 {fig['one_p50']:.2f} ms  p99 {fig['one_p99']:.2f} ms")
    print(f"  service, 10 games at once        : {fig['ten_rate']:8.0f} /s   ratio {fig['ten_rate'] / base:.2f}×"
          f"   p50 {fig['ten_p50']:.2f} ms  p99 {fig['ten_p99']:.2f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bot.bench")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (about 20 s)")
    parser.add_argument("--game", default="", help="with --pictures: only this game (its key)")
    parser.add_argument("--pictures", action="store_true",
                        help="only the pictures: status pictures, and whole seeded games (folder warm, empty, none)")
    parser.add_argument("--picture-run", choices=PICTURE_STATES, help=argparse.SUPPRESS)  # one process of those
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help="with --pictures: the games' seed")
    parser.add_argument("--moves", type=int, default=None, help="with --pictures: at most this many moves a game")
    given = parser.parse_args()
    if given.picture_run:
        keys = [given.game] if given.game else [c.key for c in picture_configs()]
        print(json.dumps(asyncio.run(picture_run(given.picture_run, given.folder, keys, given.seed, given.moves))))
    elif given.pictures:
        chosen = [given.game] if given.game else sorted({c.key for c in picture_configs()})
        status_figures(given.quick, given.game)
        asyncio.run(picture_figures(chosen, given.seed, given.moves if given.moves else (60 if given.quick else None)))
    else:
        asyncio.run(main(given.quick))
    sys.exit(0)
