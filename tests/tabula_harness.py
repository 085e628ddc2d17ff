"""Tabula's own bot against the loopback fake of Discord: factories and small helpers for tests and bench."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.client import TabulaBot
from bot.config import Settings
from bot.db import Database


def bot_factory(db: Database, **settings: Any) -> Callable[[], TabulaBot]:
    def make() -> TabulaBot:
        conf = Settings(_env_file=None, discord_token=None, database_url=db.url,  # type: ignore[call-arg]
                        timeout_poll_seconds=3600, **settings)
        return TabulaBot(conf, database=db)
    return make


def check_png(attachment: Any) -> Image.Image:
    """Every picture Tabula posts is a real PNG with alt text."""
    assert attachment.filename.endswith(".png")
    assert attachment.description, f"{attachment.filename} has no alt text"
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    assert image.format == "PNG"
    assert len(attachment.data) < 1_000_000
    return image


def uid(user: dict[str, Any]) -> int:
    return int(user["id"])
