"""Playing games through the loopback Discord by their controls, counting the REST requests each move makes
(used by tests/test_ops_rest.py and by ``python -m bot.bench``)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.ops.metrics import auth_of
from tests.fakediscord import FakeDiscordHarness, RecordedRequest
from tests.tabula_harness import bot_factory, uid


@dataclass
class MoveCount:
    """Requests a move made: by token kind, and by route (method and path shape) for the bot's own."""

    moves: int = 0
    bot: int = 0
    interaction: int = 0
    routes: Counter[str] = field(default_factory=Counter)

    def add(self, requests: list[RecordedRequest]) -> None:
        self.moves += 1
        for r in requests:
            if auth_of(r.path) == "bot":
                self.bot += 1
                self.routes[f"{r.method} {shape(r.path)}"] += 1
            else:
                self.interaction += 1

    @property
    def bot_per_move(self) -> float:
        return self.bot / self.moves if self.moves else 0.0

    @property
    def interaction_per_move(self) -> float:
        return self.interaction / self.moves if self.moves else 0.0


def shape(path: str) -> str:
    """``/channels/123/messages/456`` → ``/channels/{id}/messages/{id}``."""
    return "/".join("{id}" if part.isdigit() else part for part in path.split("/"))


async def open_game(h: FakeDiscordHarness, key: str, **options: Any) -> Any:
    """A lobby for ``key`` joined by bob (and carol when two are not enough), started; returns its thread."""
    await h.slash(h.alice, h.channel, "game", {"game": key, **options}, subcommand="new")
    lobby = h.messages()[-1]
    for who in (h.bob, h.carol):
        lobby = h.fake.message(lobby.id)
        join = next((c for c in lobby.custom_ids if c.endswith(":join")), None)
        if join is not None:
            await h.click(who, lobby, join)
        lobby = h.fake.message(lobby.id)
        start = next(c for c in lobby.custom_ids if c.endswith(":start"))
        before = len(h.threads())
        reply = await h.click(h.alice, lobby, start)
        if len(h.threads()) > before:
            return h.threads()[-1]
        if not reply.ephemeral:
            break
    raise AssertionError(f"could not start a game of {key}")


def _playable(message: Any) -> tuple[list[str], list[str]]:
    ids = message.custom_ids
    return [c for c in ids if c.startswith("tb:pick:")], [c for c in ids if c.startswith("tb:do:")]


async def play_by_controls(h: FakeDiscordHarness, thread: Any, moves: int, count: MoveCount,
                           rng: random.Random) -> int:
    """Play up to ``moves`` moves as the players the newest prompt pings, by its controls (a menu entry, a
    button that plays a command) or, when it only offers a private panel ("Your hand"), by that panel's
    controls; count each move's requests (opening a panel is not a move).  Returns the moves made (fewer when
    the game ends or stops offering controls)."""
    people = {uid(p): p for p in (h.alice, h.bob, h.carol)}
    svc: Any = getattr(h.bot, "service")  # noqa: B009 (the harness types its bot as a plain Client)
    game_id = await svc.game_in_thread(thread.id)
    made = stuck = 0
    while made < moves and stuck < 6:
        prompts = [m for m in h.messages(thread.id) if m.custom_ids]
        pinged = [u for u in prompts[-1].pings.users if u in people] if prompts else []
        if not pinged:
            return made
        who = people[rng.choice(pinged)]
        target = prompts[-1]
        picks, does = _playable(target)
        if not picks and not does:
            views = [c for c in target.custom_ids if c.startswith("tb:view:")]
            if not views:
                return made
            panel = await h.click(who, target, views[0])
            if panel.original is None:
                stuck += 1
                continue
            target = panel.original
            picks, does = _playable(target)
            if not picks and not does:
                stuck += 1
                continue
        version = (await svc.get(game_id)).version
        before = len(h.fake.requests)
        if picks and (not does or rng.random() < 0.7):
            select = rng.choice(picks)
            options = [o["value"] for o in target.component(select)["options"]]
            await h.select(who, target, select, [rng.choice(options)])
        else:
            await h.click(who, target, rng.choice(does))
        if (await svc.get(game_id)).version == version:
            stuck += 1  # refused: not a move
            continue
        stuck = 0
        count.add(h.fake.requests[before:])
        made += 1
    return made


__all__ = ["MoveCount", "open_game", "play_by_controls", "shape"]


# --- figures for `python -m bot.bench` -------------------------------------------------------------------

def rss_mb(pid: int | None = None, *, field: str = "VmRSS") -> float:
    """Resident memory of a process (this one by default), in MB, from /proc (``field="VmHWM"``: the most it
    ever held, its peak)."""
    with open(f"/proc/{pid or 'self'}/status") as status:
        for line in status:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def stored_games(path: Any, total: int) -> None:
    """A SQLite database holding ``total`` games: one real running game of each configuration's game, cloned
    (with their seats) to a tenth of ``total`` running games, the rest finished ones."""
    import aiosqlite

    from bot.bench import configurations, new_game
    from bot.service.play import GameService
    from bot.store.db import open_database

    db = await open_database(f"sqlite+aiosqlite:///{path}")
    svc = GameService(db)
    seen: dict[str, int] = {}
    for config in configurations():
        if config.key not in seen:
            seen[config.key] = (await new_game(svc, config, 1)).game_id
    await db.close()
    conn = await aiosqlite.connect(path, isolation_level=None)
    cols = [r[1] for r in await (await conn.execute("PRAGMA table_info(game)")).fetchall() if r[1] != "id"]
    seat_cols = [r[1] for r in await (await conn.execute("PRAGMA table_info(seat)")).fetchall()
                 if r[1] not in ("id", "game_id")]
    listed, seats = ", ".join(cols), ", ".join(seat_cols)
    await conn.execute("BEGIN")
    templates = list(seen.values())
    count = len(templates)
    while count < total:
        template = templates[count % len(templates)]
        running = count < total // 10
        cur = await conn.execute(f"INSERT INTO game ({listed}) SELECT {listed} FROM game WHERE id = ?", (template,))
        new_id = cur.lastrowid
        if not running:
            await conn.execute("UPDATE game SET status = 'finished', deadline = NULL, wake_at = NULL WHERE id = ?",
                               (new_id,))
        await conn.execute(f"INSERT INTO seat (game_id, {seats}) SELECT ?, {seats} FROM seat WHERE game_id = ?",
                           (new_id, template))
        count += 1
    await conn.execute("COMMIT")
    await conn.close()


async def _get_json(url: str) -> tuple[int, Any]:
    import aiohttp

    async with aiohttp.ClientSession() as session, session.get(url) as resp:
        return resp.status, await resp.json(content_type=None)


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def ready_figures(stored: int = 10_000) -> dict[str, float]:
    """The real ``python -m bot`` on a database of ``stored`` games against the loopback Discord: seconds
    from the process's spawn to /healthz answering 200 (Python's own start and imports included), the
    seconds from the bot's first log line to its "logged in" line, and RSS at ready (MB)."""
    import asyncio
    import os
    import re
    import subprocess
    import sys
    import tempfile
    import time
    from datetime import datetime
    from pathlib import Path

    from bot.ops.testing_endpoints import ENV_VAR
    from tests.fakediscord import FakeDiscord

    work = Path(tempfile.mkdtemp(prefix="tabula-ready-"))
    await stored_games(work / "bot.db", stored)
    port = free_port()
    root = Path(__file__).resolve().parent.parent
    async with FakeDiscord() as fake:
        env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID")}
        env.update({"DATABASE_URL": f"sqlite+aiosqlite:///{work / 'bot.db'}", "PYTHONPATH": str(root),
                    "DISCORD_TOKEN": fake.token, ENV_VAR: fake.url, "HEALTH_PORT": str(port),
                    "PICTURE_CACHE_DIR": str(work / "pictures")})
        started = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=work, env=env,
                                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        ready = rss = float("nan")
        try:
            while time.perf_counter() - started < 60:
                try:
                    status, _ = await _get_json(f"http://127.0.0.1:{port}/healthz")
                except (OSError, ValueError):
                    status = 0
                if status == 200:
                    ready = time.perf_counter() - started
                    rss = rss_mb(proc.pid)
                    break
                await asyncio.sleep(0.02)
        finally:
            proc.terminate()
            _, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    stamps = re.findall(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) .*$", err.decode(), re.M)
    logged = [line for line in err.decode().splitlines() if "logged in as" in line]
    inner = float("nan")
    if stamps and logged:
        first = datetime.strptime(stamps[0], "%Y-%m-%d %H:%M:%S,%f")
        last = datetime.strptime(logged[0][:23], "%Y-%m-%d %H:%M:%S,%f")
        inner = (last - first).total_seconds()
    if os.environ.get("TABULA_BENCH_LOG"):
        print(err.decode())
    return {"stored": float(stored), "spawn_to_ready_s": ready, "bot_to_ready_s": inner, "rss_ready_mb": rss}


async def memory_figures(games_played: int, moves_per_game: int = 30, draw_every: int = 3,
                         pictures: Any = None) -> dict[str, Any]:
    """Tabula's bot in this process (cogs loaded, ready on the loopback Discord), then ``games_played`` games
    played through its own service with Tabula's choices for every seat, up to ``moves_per_game`` moves each,
    round the games' benchmark configurations; every ``draw_every``-th move's telling is drawn (pictures
    included, through the picture cache as the bot keeps it) and each game's status picture at its end.
    RSS (MB) at ready and after every tenth of the games, and the process's peak (its high-water mark, between
    the samples too). ``idle_mb``: RSS once the bot has then been idle for two minutes and more (the sweep lets go
    of a map's geometry that nothing used meanwhile), read by shedding as that sweep would."""
    import gc
    import tempfile
    import time
    from pathlib import Path

    from bot.bench import configurations, new_game, next_move
    from bot.delivery.tellings import status_now, telling_now
    from bot.ops.metrics import release_memory
    from bot.store.db import open_database
    from render.cache import drawn_twice, layer_draws
    from render.idle import shed
    from rules import GameError
    from rules.core import Rng, seed_state
    work = Path(tempfile.mkdtemp(prefix="tabula-memory-"))
    db = await open_database(f"sqlite+aiosqlite:///{work / 'bot.db'}")
    configs = configurations()
    samples: list[tuple[int, float]] = []
    try:
        async with FakeDiscordHarness(bot_factory(db, picture_cache_dir=pictures or work / "pictures")) as h:
            await getattr(h.bot, "warmed")  # noqa: B009
            gc.collect()
            samples.append((0, rss_mb()))
            svc: Any = getattr(h.bot, "service")  # noqa: B009
            rng = Rng(seed_state(9))
            for n in range(games_played):
                config = configs[n % len(configs)]
                result = await new_game(svc, config, rng.below(1 << 30))
                for move in range(moves_per_game):
                    if result.status != "active" or not result.to_act:
                        break
                    user, action = next_move(result, rng)
                    try:
                        result = await svc.act(result.game_id, user, action)
                    except GameError:
                        result = await svc.get(result.game_id)
                        continue
                    if move % draw_every == 0:
                        telling_now(result)
                status_now(await svc.get(result.game_id))
                if (n + 1) % max(1, games_played // 10) == 0:
                    gc.collect()
                    release_memory()  # as the bot does after each sweep (every 15 s by default)
                    samples.append((n + 1, rss_mb()))
            shed(now=time.monotonic() + 3600)
            gc.collect()
            release_memory()
            idle = rss_mb()
    finally:
        await db.close()
    half = [s for s in samples if s[0] >= games_played // 2]
    slope = (half[-1][1] - half[0][1]) / max(1, half[-1][0] - half[0][0]) * 1024 if len(half) >= 2 else 0.0
    return {"samples": samples, "ready_mb": samples[0][1], "final_mb": samples[-1][1], "kb_per_game": slope,
            "peak_mb": rss_mb(field="VmHWM"), "idle_mb": idle,
            "layers_drawn": sum(layer_draws().values()), "drawn_twice": drawn_twice()}


async def _spawn(work: Any, fake: Any, port: int) -> Any:
    import asyncio
    import os
    import subprocess
    import sys
    from pathlib import Path

    from bot.ops.testing_endpoints import ENV_VAR

    root = Path(__file__).resolve().parent.parent
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID")}
    env.update({"DATABASE_URL": f"sqlite+aiosqlite:///{work / 'bot.db'}", "PYTHONPATH": str(root),
                "DISCORD_TOKEN": fake.token, ENV_VAR: fake.url, "HEALTH_PORT": str(port),
                "PICTURE_CACHE_DIR": str(work / "pictures")})
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=work, env=env,
                                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def _until_ready(port: int) -> None:
    import asyncio

    for _ in range(3000):
        try:
            status, _ = await _get_json(f"http://127.0.0.1:{port}/healthz")
        except (OSError, ValueError):
            status = 0
        if status == 200:
            return
        await asyncio.sleep(0.02)
    raise RuntimeError("the bot never became ready")


async def _timed(fake: Any, payload: Any) -> float:
    reply = await fake.interact(payload, timeout=20.0, quiet=0.0)
    record = fake.interactions[reply.token]
    callback = next(r for r in reply.requests if r.path.endswith("/callback"))
    return float((callback.at - record.dispatched_at) * 1000)


async def latency_figures(seconds: float = 20.0) -> dict[str, dict[str, float]]:
    """The real ``python -m bot`` started twice on one database with a game of every kind in its thread: the
    first time with an empty picture directory, the second time with the one the first run filled.  Right
    after each start becomes ready, `/game status` in each game's thread, one after another, for
    ``seconds``: p50 and p99 (ms, dispatch to callback) in the first 10 s and after."""
    import asyncio
    import tempfile
    import time
    from pathlib import Path

    from rules.registry import games as all_games
    from tests.fakediscord import FakeDiscord

    work = Path(tempfile.mkdtemp(prefix="tabula-latency-"))
    out: dict[str, dict[str, float]] = {}
    async with FakeDiscord() as fake:
        threads: list[Any] = []
        for run in ("cold", "warm"):
            port = free_port()
            proc = await _spawn(work, fake, port)
            try:
                await _until_ready(port)
                ready = time.perf_counter()
                if not threads:  # the first run opens the games (its clock starts again after)
                    for key in sorted(all_games()):
                        await fake.interact(fake.slash(fake.alice, fake.channel, "game", {"game": key},
                                                       subcommand="new"), timeout=20.0)
                        lobby = fake.messages(fake.channel)[-1]
                        for who in (fake.bob, fake.carol):
                            lobby = fake.message(lobby.id)
                            join = next((c for c in lobby.custom_ids if c.endswith(":join")), None)
                            if join:
                                await fake.interact(fake.component(who, lobby, join), timeout=20.0)
                            lobby = fake.message(lobby.id)
                            start = next((c for c in lobby.custom_ids if c.endswith(":start")), None)
                            if start is None:
                                break
                            before = len(fake.threads())
                            await fake.interact(fake.component(fake.alice, lobby, start), timeout=20.0)
                            for _ in range(250):
                                if len(fake.threads()) > before:
                                    break
                                await asyncio.sleep(0.02)
                            if len(fake.threads()) > before:
                                threads.append(fake.threads()[-1])
                                break
                    ready = time.perf_counter()  # opening the games is not what is measured
                early: list[float] = []
                late: list[float] = []
                i = failed = 0
                while time.perf_counter() - ready < seconds:
                    thread = threads[i % len(threads)]
                    i += 1
                    at = time.perf_counter() - ready
                    try:
                        ms = await _timed(fake, fake.slash(fake.alice, thread.payload, "game", {},
                                                           subcommand="status"))
                    except AssertionError:  # not answered in time (Discord's 3 s): counted as failed
                        failed += 1
                        continue
                    (early if at < 10 else late).append(ms)
                out[run] = {"early_n": float(len(early)), "early_p50": _pct(early, 0.5), "early_p99": _pct(early, 0.99),
                            "late_n": float(len(late)), "late_p50": _pct(late, 0.5), "late_p99": _pct(late, 0.99),
                            "early_max": max(early, default=float("nan")), "failed": float(failed)}
            finally:
                proc.terminate()
                await asyncio.wait_for(proc.wait(), timeout=30)
    return out


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def rest_figures(moves: int = 40) -> dict[str, MoveCount]:
    """Every game played by its controls on the loopback Discord: REST requests per move, by token."""
    import tempfile
    from pathlib import Path

    from bot.store.db import open_database
    from rules.registry import games as all_games

    work = Path(tempfile.mkdtemp(prefix="tabula-rest-"))
    db = await open_database(f"sqlite+aiosqlite:///{work / 'bot.db'}")
    out: dict[str, MoveCount] = {}
    try:
        async with FakeDiscordHarness(bot_factory(db, picture_cache_dir=work / "pictures"), quiet=0.02) as h:
            rng = random.Random(11)
            for key in sorted(all_games()):
                count = out[key] = MoveCount()
                while count.moves < moves:
                    thread = await open_game(h, key)
                    if not await play_by_controls(h, thread, moves - count.moves, count, rng):
                        break
    finally:
        await db.close()
    return out


if __name__ == "__main__":  # python -m tests.ops_helpers memory N: the memory figures as JSON, in a fresh process
    import asyncio
    import json
    import sys

    if sys.argv[1:2] == ["memory"]:
        kept = sys.argv[3] if len(sys.argv) > 3 else None  # a picture directory (a second run finds it filled)
        print(json.dumps(asyncio.run(memory_figures(int(sys.argv[2]), pictures=kept))))
