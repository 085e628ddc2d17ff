"""Tabula's own bot against the loopback fake of Discord: factories and small helpers for tests and bench."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

from PIL import Image

from bot.front.client import TabulaBot
from bot.ops.config import Settings
from bot.store.db import Database


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


async def arrange(svc: Any, game_id: int, change: Callable[[Any], None]) -> None:
    """Lay the table out as a test needs it (the books' examples start from a given position): the stored
    state, changed in place by ``change`` and saved at the next version."""
    import msgspec

    from rules.registry import ruleset

    g = await svc._load(game_id, fresh=True)
    kind = ruleset(g.record.ruleset).state_type
    state = msgspec.json.decode(msgspec.json.encode(g.state), type=kind)
    change(state)
    assert await svc.db.store.save(game_id, g.version, state=msgspec.json.encode(state).decode(), status="active",
                                   deadline=None, entry=None, now=svc.clock())
    svc.forget(game_id)


def told(h: Any, thread_id: int, reply: Any) -> str:
    """What a move added to its thread: its public answer, or the running message it was appended to (a move
    that passes the turn to nobody new grows the game's newest prompt instead of posting a message)."""
    if not reply.ephemeral and reply.content:
        return str(reply.content)
    return str(h.messages(thread_id)[-1].content)


def asked(message: Any) -> set[int]:
    """Who a prompt's last line asks to act (named whether or not the message pinged them)."""
    line = message.content.rsplit("➡️", 1)[-1] if "➡️" in message.content else ""
    return {int(m) for m in re.findall(r"<@!?(\d+)>", line)}
