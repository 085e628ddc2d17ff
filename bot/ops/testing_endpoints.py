"""Point discord.py at a loopback fake of Discord.  FOR LOOPBACK TESTING ONLY.

discord.py has no setting for its REST base URL or gateway URL; both are class attributes
(``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``).  This module
rewrites them so that a bot process talks to ``tests/fakediscord.py`` on 127.0.0.1 instead of Discord.

It is only ever meant to be used by the test-suite and by a bot process that a test started:

* in-process tests use :func:`patch_discord_endpoints` / :func:`restore_discord_endpoints`
  (``tests.fakediscord.FakeDiscordHarness`` does this for you);
* a bot started as a subprocess (``python -m bot``) calls :func:`patch_from_env` at startup, which does
  nothing unless the environment variable ``TABULA_FAKE_DISCORD`` is set, e.g.
  ``TABULA_FAKE_DISCORD=http://127.0.0.1:54321`` (the value of ``FakeDiscord.url``).

Only loopback hosts are accepted, so a stray environment variable can never send a real token anywhere
else.  Nothing here touches the network; it only assigns two class attributes, and it must run before
``Client.login`` / ``Client.start``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NamedTuple
from urllib.parse import urlsplit

import discord.gateway
import discord.http
import yarl

__all__ = [
    "API_VERSION_PATH",
    "ENV_VAR",
    "Endpoints",
    "endpoints_for",
    "patch_discord_endpoints",
    "patch_from_env",
    "restore_discord_endpoints",
]

#: Environment variable holding the fake's base URL (``http://127.0.0.1:PORT``).
ENV_VAR = "TABULA_FAKE_DISCORD"
#: Path prefix under which the fake serves REST API v10.
API_VERSION_PATH = "/api/v10"

_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class Endpoints(NamedTuple):
    """The two endpoints discord.py uses: REST base (``Route.BASE``) and gateway URL."""

    api_base: str
    gateway: str


def _require_loopback(url: str) -> None:
    host = urlsplit(url).hostname
    if host not in _LOOPBACK_HOSTS:
        raise ValueError(f"refusing to point discord.py at non-loopback host {host!r} ({url!r})")


def endpoints_for(fake_url: str) -> Endpoints:
    """Derive the REST base and gateway URL from the fake's base URL (``http://127.0.0.1:PORT``)."""
    base = fake_url.rstrip("/")
    _require_loopback(base)
    parts = urlsplit(base)
    ws_scheme = "wss" if parts.scheme == "https" else "ws"
    return Endpoints(api_base=base + API_VERSION_PATH, gateway=f"{ws_scheme}://{parts.netloc}/gateway")


def patch_discord_endpoints(api_base: str, gateway: str) -> Endpoints:
    """Make discord.py use ``api_base`` for REST/webhooks and ``gateway`` for the websocket.

    Returns the previous values so they can be put back with :func:`restore_discord_endpoints`.
    Both URLs must point at a loopback host.
    """
    _require_loopback(api_base)
    _require_loopback(gateway)
    previous = Endpoints(
        api_base=discord.http.Route.BASE,
        gateway=str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY),
    )
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    return previous


def restore_discord_endpoints(previous: Endpoints) -> None:
    """Undo :func:`patch_discord_endpoints` (no loopback check: the previous values are Discord's)."""
    discord.http.Route.BASE = previous.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(previous.gateway)


def patch_from_env(environ: Mapping[str, str] | None = None) -> bool:
    """Patch the endpoints if ``TABULA_FAKE_DISCORD`` is set; return whether it was.

    Call this once at bot startup, before logging in.  With the variable unset this is a no-op.
    """
    env = os.environ if environ is None else environ
    url = env.get(ENV_VAR, "").strip()
    if not url:
        return False
    endpoints = endpoints_for(url)
    patch_discord_endpoints(endpoints.api_base, endpoints.gateway)
    return True
