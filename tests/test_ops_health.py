"""The operators' port: /healthz and /metrics served by the bot itself (in-process, on the loopback Discord)."""

from __future__ import annotations

from typing import Any

import aiohttp

from bot.ops.health import bound_port, health
from bot.store.db import Database
from tests.fakediscord import FakeDiscordHarness
from tests.tabula_harness import bot_factory


async def _get(url: str) -> tuple[int, str, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as resp:
        return resp.status, resp.headers.get("Content-Type", ""), await resp.text()


def _sample(text: str, name: str, **labels: str) -> float:
    """The sum of the samples of ``name`` carrying ``labels``, in Prometheus' text format (0 when none)."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith("#") or not line.startswith(name):
            continue
        head, _, value = line.rpartition(" ")
        if head.split("{")[0] == name and all(f'{k}="{v}"' in head for k, v in labels.items()):
            total += float(value)
    return total


async def test_healthz_and_metrics_on_the_health_port(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db, health_port=0)) as h:
        bot = h.bot
        base = f"http://127.0.0.1:{bound_port(h.bot.health)}"
        status, kind, body = await _get(base + "/healthz")
        assert status == 200 and kind.startswith("application/json")
        assert '"ready": true' in body and '"gateway": true' in body and '"database": true' in body
        assert '"status": "ok"' in body and '"unclaimed_shards": []' in body
        status, _, body = await _get(base + "/livez")  # this process alone
        assert status == 200 and '"status": "ok"' in body and "unclaimed_shards" not in body

        _, _, before = await _get(base + "/metrics")
        await h.slash(h.alice, h.channel, "game", {"game": "legend", "mode": "starter"}, subcommand="new")
        lobby = h.messages()[-1]
        await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))
        await h.click(h.bob, lobby, next(c for c in lobby.custom_ids if c.endswith(":join")))  # refused: seated
        await h.slash(h.alice, h.channel, "explore", {"to": "x"})  # refused: not in a game's thread
        status, kind, text = await _get(base + "/metrics")
        assert status == 200 and kind.startswith("text/plain")
        grew = lambda name, **labels: _sample(text, name, **labels) - _sample(before, name, **labels)  # noqa: E731
        assert grew("tabula_interactions_total", kind="command", command="game new", outcome="ok") == 1
        assert grew("tabula_interactions_total", kind="command", command="explore", outcome="refused") == 1
        assert grew("tabula_interactions_total", kind="component", outcome="ok") >= 1
        assert grew("tabula_interactions_total", kind="component", outcome="refused") >= 1
        assert grew("tabula_interaction_seconds_count", kind="command") == 2
        assert grew("tabula_discord_requests_total", auth="interaction") >= 4
        assert _sample(text, "tabula_database_seconds_count", operation="orm") > 0
        assert "tabula_outbox_depth 0.0" in text  # no outbox in this build yet: nothing waits
        assert _sample(text, "tabula_ready") == 1 and _sample(text, "process_resident_memory_bytes") > 0
        assert "tabula_sweeps_total" in text and "tabula_errors_total" in text and "tabula_pictures_total" in text
    assert bot.health is None  # the port closes with the bot


class _Stub:
    """A bot whose gateway is down and whose database is gone."""

    db: Any = None

    def is_ready(self) -> bool:
        return True

    def is_closed(self) -> bool:
        return False

    @property
    def latency(self) -> float:
        return float("inf")


async def test_healthz_says_what_is_failing() -> None:
    ok, body = await health(_Stub())
    assert not ok and body == {"ok": False, "status": "failing", "ready": True, "gateway": False, "database": False,
                               "database_ms": None, "latency_ms": None, "unclaimed_shards": []}


async def test_the_port_is_off_by_default(db: Database) -> None:
    async with FakeDiscordHarness(bot_factory(db)) as h:
        assert h.bot.health is None and h.bot.settings.health_port is None
