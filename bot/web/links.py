"""The web page's addresses: one unguessable public token per game, and signed, expiring, revocable personal
links, all kept in the database (table ``web_page``) so that any process serves any game.

* The public address is ``<base>/g/<token>``: ``token`` is 144 random bits made the first time the page is
  asked for (a status message, ``/game web``); game numbers never appear, so nobody can list a server's games.
* A personal address is ``<base>/g/<token>/s/<seat>-<generation>-<expires>-<signature>``: the signature is an
  HMAC-SHA256 with the game's own random key over the token, the seat, the seat's player, the generation and the
  expiry.  It opens only while it has not expired, while the seat's generation is still the one it was signed
  with (``/game web revoke`` raises it) and while the seat is still that player's (a seat that changed hands
  takes its secrets with it).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import text

TOKEN = re.compile(r"^[A-Za-z0-9_-]{24}$")
PERSONAL = re.compile(r"^(\d{1,3})-(\d{1,9})-(\d{1,12})-([A-Za-z0-9_-]{32})$")


@dataclass(frozen=True, slots=True)
class PageRow:
    """A game's page as stored, with what the server needs of the game itself."""

    game_id: int
    guild_id: int | None
    token: str
    secret: str
    generations: dict[str, int] = field(default_factory=dict)

    def generation(self, seat: int) -> int:
        return int(self.generations.get(str(seat), 0))


def _sign(secret: str, token: str, seat: int, user_id: int, generation: int, expires: int) -> str:
    mac = hmac.new(secret.encode(), f"{token}|{seat}|{user_id}|{generation}|{expires}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:24]).decode()


def personal_part(row: PageRow, seat: int, user_id: int, expires: int) -> str:
    generation = row.generation(seat)
    return f"{seat}-{generation}-{expires}-{_sign(row.secret, row.token, seat, user_id, generation, expires)}"


def check_personal(row: PageRow, part: str, seat_users: dict[int, int], now: float) -> int | None:
    """The seat a personal part opens, or None: malformed, expired, revoked, forged or the seat changed hands."""
    found = PERSONAL.match(part)
    if found is None:
        return None
    seat, generation, expires = int(found[1]), int(found[2]), int(found[3])
    user_id = seat_users.get(seat)
    if user_id is None or user_id <= 0 or expires < now or generation != row.generation(seat):
        return None
    if not hmac.compare_digest(found[4], _sign(row.secret, row.token, seat, user_id, generation, expires)):
        return None
    return seat


class Links:
    """Reading and making the pages' tokens (one small query each; nothing kept in memory)."""

    def __init__(self, engine: Any, *, link_days: float = 30.0, clock: Callable[[], float] = time.time) -> None:
        self.engine, self.link_days, self.clock = engine, link_days, clock

    async def page(self, game_id: int) -> PageRow:
        """The game's page, made on first use (two processes making it at once agree on the first one's)."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(text("SELECT token, secret, generations FROM web_page WHERE game_id = :g"),
                                      {"g": game_id})).first()
            if row is None:
                await conn.execute(text("INSERT INTO web_page (game_id, token, secret, generations, created_at) "
                                        "VALUES (:g, :t, :s, '{}', :now) ON CONFLICT DO NOTHING"),
                                   {"g": game_id, "t": secrets.token_urlsafe(18), "s": secrets.token_urlsafe(32),
                                    "now": self.clock()})
                row = (await conn.execute(text("SELECT token, secret, generations FROM web_page WHERE game_id = :g"),
                                          {"g": game_id})).first()
            guild = (await conn.execute(text("SELECT guild_id FROM game WHERE id = :g"), {"g": game_id})).first()
        assert row is not None
        return PageRow(game_id, guild[0] if guild else None, str(row[0]), str(row[1]), json.loads(row[2] or "{}"))

    async def find(self, token: str) -> PageRow | None:
        """The page a public token names (None for any other string: nothing is made or told)."""
        if not TOKEN.match(token):
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(text("SELECT w.game_id, g.guild_id, w.token, w.secret, w.generations FROM "
                                           "web_page w JOIN game g ON g.id = w.game_id WHERE w.token = :t"),
                                      {"t": token})).first()
        if row is None or not hmac.compare_digest(str(row[2]), token):
            return None
        return PageRow(int(row[0]), row[1], str(row[2]), str(row[3]), json.loads(row[4] or "{}"))

    async def personal(self, game_id: int, seat: int, user_id: int) -> tuple[PageRow, str, int]:
        """A new personal part for ``seat`` (held by ``user_id``) and when it expires (epoch seconds)."""
        row = await self.page(game_id)
        expires = int(self.clock() + self.link_days * 86400)
        return row, personal_part(row, seat, user_id, expires), expires

    async def revoke(self, game_id: int, seat: int) -> None:
        """Every personal link of ``seat`` made so far stops opening."""
        await self.page(game_id)
        async with self.engine.begin() as conn:
            lock = " FOR UPDATE" if conn.dialect.name == "postgresql" else ""
            row = (await conn.execute(text(f"SELECT generations FROM web_page WHERE game_id = :g{lock}"),
                                      {"g": game_id})).first()
            generations = json.loads(row[0] or "{}") if row else {}
            generations[str(seat)] = int(generations.get(str(seat), 0)) + 1
            await conn.execute(text("UPDATE web_page SET generations = :j WHERE game_id = :g"),
                               {"j": json.dumps(generations, sort_keys=True), "g": game_id})


def public_url(base: str, row: PageRow) -> str:
    return f"{base.rstrip('/')}/g/{row.token}"


def personal_url(base: str, row: PageRow, part: str) -> str:
    return f"{public_url(base, row)}/s/{part}"


__all__ = ["Links", "PageRow", "check_personal", "personal_part", "personal_url", "public_url"]
