"""The clock's notices: what a turn clock did, owed to the Discord side exactly as a move's telling is.

A reminder, the "⌛ … ran out, so Tabula played for them" line, the "⏸️ … waits for" line and the seat offered
in the lobby's channel are each written as an ``outbox_notice`` row **in the transaction that does them**: the
reminder's row with the clock's claim (``UPDATE game … WHERE wake_at = :seen``), the wait's row with the
clock stopping, a run-out's row with the seat's strike (before Tabula's move, which then either follows or
voids it).  A row is marked delivered only once Discord accepted its post (``told``), so a crash at any point
leaves it owed, and whoever tells owed things next (``bot/delivery/outbox.py``) tells it: no notice is lost.

Never twice: before posting, the Discord side reads the channel after the row's ``anchor`` (the newest message
of the game known delivered when the row was written) and adopts a post a crash left unrecorded; posts also
carry a nonce made of the row's id.

In order: a notice is written at the game's version ``after_seq`` and is told after every move up to that
version and before the next (a run-out's line before the move Tabula made for the absent player).

A seat is offered once per run of run-outs: the first offer is posted and remembered on the seat
(``seat.offer_channel_id``/``offer_message_id``), later strikes edit that one message, and when the seat is no
longer free (its player is back, the host gave it away) the message is closed (kind ``unoffer``).

Nothing here touches Discord; the service writes rows, the outbox judges and marks them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.longplay.clock import RUNNING, STRIKES_TO_OFFER, WAITING
from bot.store import Clock
from bot.store.db import Database

NoticeKind = Literal["remind", "ranout", "paused", "offer", "unoffer"]
Verdict = Literal["tell", "wait", "void"]
SYSTEM_USER = 0  # the user id the log has for Tabula's own moves (bot.service.play.SYSTEM_USER)

_FIELDS = "id, game_id, kind, after_seq, seat, body, anchor, created_at"


@dataclass(frozen=True, slots=True)
class Notice:
    """One notice owed (or told): its kind, where in the game it belongs, and what it says (``body``)."""

    id: int
    game_id: int
    kind: str
    after_seq: int
    seat: int | None
    body: Mapping[str, Any]
    anchor: int | None  # the newest message of the game known delivered when it was written
    created_at: float

    @classmethod
    def of(cls, row: Any) -> Notice:
        r = tuple(row)
        return cls(id=int(r[0]), game_id=int(r[1]), kind=str(r[2]), after_seq=int(r[3]),
                   seat=None if r[4] is None else int(r[4]), body=json.loads(r[5] or "{}"),
                   anchor=None if r[6] is None else int(r[6]), created_at=float(r[7] or 0))


@dataclass(frozen=True, slots=True)
class Told:
    """Discord accepted a notice: its message (None: nothing was posted), and for a seat offer first posted,
    (channel, message) to remember on the seat."""

    message_id: int | None
    offer: tuple[int, int] | None = None


class Notices:
    """The ``outbox_notice`` rows: written by the service with what they record, read and marked by the outbox."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._pg = db.url.startswith("postgres")

    # --- writing, each in the transaction of what it records ---------------------------------------------------

    async def _insert(self, conn: AsyncConnection, game_id: int, kind: NoticeKind, key: str, body: Mapping[str, Any],
                      now: float, seat: int | None = None) -> int:
        """A notice (or the one with this key already: a run-out tried again after a crash) at the game's version."""
        found = (await conn.execute(text("SELECT id FROM outbox_notice WHERE game_id = :g AND key = :k"),
                                    {"g": game_id, "k": key})).scalar()
        if found is not None:
            return int(found)
        version = (await conn.execute(text("SELECT version FROM game WHERE id = :g"), {"g": game_id})).scalar()
        anchors = [(await conn.execute(text(f"SELECT MAX(message_id) FROM {table} WHERE game_id = :g AND "
                                            "delivered_at IS NOT NULL"), {"g": game_id})).scalar()
                   for table in ("outbox", "outbox_notice")]
        anchor = max((int(a) for a in anchors if a is not None), default=None)
        await conn.execute(text("INSERT INTO outbox_notice (game_id, key, kind, after_seq, seat, body, anchor, "
                                "created_at) VALUES (:g, :k, :kind, :v, :seat, :body, :anchor, :now)"),
                           {"g": game_id, "k": key, "kind": kind, "v": int(version or 0), "seat": seat,
                            "body": json.dumps(dict(body)), "anchor": anchor, "now": now})
        made = (await conn.execute(text("SELECT id FROM outbox_notice WHERE game_id = :g AND key = :k"),
                                   {"g": game_id, "k": key})).scalar()
        assert made is not None
        return int(made)

    async def claim(self, game_id: int, wake: float, clock: Clock, kind: NoticeKind, body: Mapping[str, Any],
                    now: float) -> int | None:
        """Move a game's clock on, only if it still wakes at ``wake`` (so one process does each item), and owe
        the notice that says so in the same transaction; its id, or None when someone else did it."""
        async with self.db.engine.begin() as conn:
            result = await conn.execute(text(
                "UPDATE game SET clock_deadline = :clock_deadline, remind_at = :remind_at, wake_at = :wake_at, "
                "paused = :paused WHERE id = :g AND wake_at = :wake"), {"g": game_id, "wake": wake, **clock.values()})
            if result.rowcount != 1:
                return None
            return await self._insert(conn, game_id, kind, f"{kind}:{wake!r}", body, now)

    async def owe_ranout(self, game_id: int, version: int, seat: int, body: Mapping[str, Any], now: float
                         ) -> tuple[int, int, int | None]:
        """Before Tabula moves for an absent seat at ``version``: its strike, the run-out's line and, from the
        third strike in a row, the seat's offer, in one transaction.  Returns (line, strikes, offer or None);
        tried again after a crash, the same rows (and the strike already counted)."""
        key = f"ranout:{version}:{seat}"
        async with self.db.engine.begin() as conn:
            # The write first: it takes SQLite's write lock (and PostgreSQL's row lock) before anything is read.
            await conn.execute(text("UPDATE seat SET strikes = strikes WHERE game_id = :g AND seat = :s"),
                               {"g": game_id, "s": seat})
            row = (await conn.execute(text("SELECT id, body FROM outbox_notice WHERE game_id = :g AND key = :k"),
                                      {"g": game_id, "k": key})).first()
            if row is not None:
                strikes = int(json.loads(row[1]).get("strikes", 1))
                offer = (await conn.execute(text("SELECT id FROM outbox_notice WHERE game_id = :g AND key = :k"),
                                            {"g": game_id, "k": f"offer:{version}:{seat}"})).scalar()
                return int(row[0]), strikes, None if offer is None else int(offer)
            current = (await conn.execute(text("SELECT strikes FROM seat WHERE game_id = :g AND seat = :s"),
                                          {"g": game_id, "s": seat})).scalar()
            strikes = int(current or 0) + 1
            await conn.execute(text("UPDATE seat SET strikes = :n WHERE game_id = :g AND seat = :s"),
                               {"n": strikes, "g": game_id, "s": seat})
            line = await self._insert(conn, game_id, "ranout", key, {**body, "strikes": strikes}, now, seat)
            offer_id = None
            if strikes >= STRIKES_TO_OFFER:
                offer_id = await self._insert(conn, game_id, "offer", f"offer:{version}:{seat}",
                                              {**body, "strikes": strikes}, now, seat)
            return line, strikes, offer_id

    async def void_ranout(self, game_id: int, seat: int, strikes: int, ids: list[int]) -> None:
        """Tabula's move for the absent seat was not made after all (someone moved first): its line and offer go,
        and so does its strike."""
        async with self.db.engine.begin() as conn:
            await self._void(conn, game_id, seat, strikes, ids)

    async def _void(self, conn: AsyncConnection, game_id: int, seat: int | None, strikes: int, ids: list[int]) -> None:
        for notice_id in ids:
            await conn.execute(text("DELETE FROM outbox_notice WHERE id = :i AND delivered_at IS NULL"),
                               {"i": notice_id})
        if seat is not None:
            await conn.execute(text("UPDATE seat SET strikes = :before WHERE game_id = :g AND seat = :s AND "
                                    "strikes = :n"), {"before": strikes - 1, "g": game_id, "s": seat, "n": strikes})

    async def withdraw_offer(self, game_id: int, seat: int, body: Mapping[str, Any], now: float) -> int | None:
        """The seat is no longer free (its player is back, it was given to someone): the offer posted for it, if
        any, is to be closed; returns the notice that closes it."""
        async with self.db.engine.begin() as conn:
            await conn.execute(text("UPDATE seat SET strikes = strikes WHERE game_id = :g AND seat = :s"),
                               {"g": game_id, "s": seat})
            row = (await conn.execute(text("SELECT offer_channel_id, offer_message_id FROM seat WHERE game_id = :g "
                                           "AND seat = :s"), {"g": game_id, "s": seat})).first()
            if row is None or row[0] is None or row[1] is None:
                return None
            await conn.execute(text("UPDATE seat SET offer_channel_id = NULL, offer_message_id = NULL WHERE "
                                    "game_id = :g AND seat = :s"), {"g": game_id, "s": seat})
            return await self._insert(conn, game_id, "unoffer", f"unoffer:{int(row[1])}",
                                      {**body, "channel": int(row[0]), "message": int(row[1])}, now, seat)

    async def forget_offer(self, game_id: int, seat: int) -> None:
        """The offer's own message said it was taken (its button was pressed): nothing is left to close."""
        async with self.db.engine.begin() as conn:
            await conn.execute(text("UPDATE seat SET offer_channel_id = NULL, offer_message_id = NULL WHERE "
                                    "game_id = :g AND seat = :s"), {"g": game_id, "s": seat})

    # --- reading and marking (the outbox) ----------------------------------------------------------------------

    async def owed(self, game_id: int | None = None) -> list[Notice]:
        where = "delivered_at IS NULL" + (" AND game_id = :g" if game_id is not None else "")
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(text(f"SELECT {_FIELDS} FROM outbox_notice WHERE {where} ORDER BY game_id, id"),
                                       {"g": game_id})).all()
        return [Notice.of(r) for r in rows]

    async def is_owed(self, notice_id: int) -> bool:
        async with self.db.engine.connect() as conn:
            found = (await conn.execute(text("SELECT 1 FROM outbox_notice WHERE id = :i AND delivered_at IS NULL"),
                                        {"i": notice_id})).first()
        return found is not None

    async def offered(self, game_id: int) -> list[int]:
        """The game's seats with an offer up in the lobby's channel."""
        async with self.db.engine.connect() as conn:
            rows = (await conn.execute(text("SELECT seat FROM seat WHERE game_id = :g AND offer_message_id IS NOT "
                                            "NULL ORDER BY seat"), {"g": game_id})).all()
        return [int(r[0]) for r in rows]

    async def offer_of(self, game_id: int, seat: int) -> tuple[int, int] | None:
        """(channel, message) of the seat's live offer, if one was posted."""
        async with self.db.engine.connect() as conn:
            row = (await conn.execute(text("SELECT offer_channel_id, offer_message_id FROM seat WHERE game_id = :g "
                                           "AND seat = :s"), {"g": game_id, "s": seat})).first()
        return (int(row[0]), int(row[1])) if row is not None and row[0] is not None and row[1] is not None else None

    async def judge(self, notice: Notice) -> Verdict:
        """Whether an owed notice is to be told now, later (the moves before it are still owed, or Tabula's move
        it announces is not made yet), or never (what it says no longer holds: the turn it reminds of is over,
        the move it announces was made by someone else, the seat it offers is no longer free)."""
        g, n = notice.game_id, notice
        async with self.db.engine.connect() as conn:
            game = (await conn.execute(text("SELECT status, version, clock_deadline, paused, thread_id FROM game "
                                            "WHERE id = :g"), {"g": g})).first()
            if game is None:
                return "void"
            status, version, deadline, paused = str(game[0]), int(game[1]), game[2], int(game[3] or 0)
            if n.kind in ("remind", "ranout", "paused") and game[4] is None:
                return "void"  # a game with no thread to tell it in
            earlier = (await conn.execute(text("SELECT MIN(seq) FROM outbox WHERE game_id = :g AND delivered_at IS "
                                               "NULL"), {"g": g})).scalar()
            if earlier is not None and int(earlier) <= n.after_seq:
                return "wait"  # the moves before it are told first
            if n.kind == "remind":
                return "tell" if status == "active" and deadline == n.body.get("deadline") else "void"
            if n.kind == "paused":
                return "tell" if status == "active" and paused == WAITING else "void"
            if n.kind == "ranout":
                move = (await conn.execute(text("SELECT user_id, seat FROM action WHERE game_id = :g AND seq = :s"),
                                           {"g": g, "s": n.after_seq + 1})).first()
                if move is None:
                    # Tabula's move is not made yet (a crash between the two): the next sweep makes it, unless
                    # the game has moved on or stopped meanwhile.
                    running = status == "active" and version == n.after_seq and paused == RUNNING
                    return "wait" if running else "void"
                return "tell" if int(move[0]) == SYSTEM_USER and move[1] == n.seat else "void"
            if n.kind == "offer":
                seat = (await conn.execute(text("SELECT user_id, strikes FROM seat WHERE game_id = :g AND seat = :s"),
                                           {"g": g, "s": n.seat})).first()
                free = seat is not None and int(seat[0]) == n.body.get("user") and int(seat[1]) >= STRIKES_TO_OFFER
                return "tell" if status == "active" and free else "void"
            return "tell"

    async def told(self, notice: Notice, told: Told, now: float) -> None:
        """Discord accepted it: mark it, forget the game's older told notices, and remember a first offer on its
        seat (in the same transaction)."""
        async with self.db.engine.begin() as conn:
            await conn.execute(text("UPDATE outbox_notice SET delivered_at = :now, message_id = :m WHERE id = :i"),
                               {"now": now, "m": told.message_id, "i": notice.id})
            await conn.execute(text("DELETE FROM outbox_notice WHERE game_id = :g AND id < :i AND delivered_at IS NOT "
                                    "NULL"), {"g": notice.game_id, "i": notice.id})
            if told.offer is not None and notice.seat is not None:
                await conn.execute(text("UPDATE seat SET offer_channel_id = :c, offer_message_id = :m WHERE "
                                        "game_id = :g AND seat = :s"),
                                   {"c": told.offer[0], "m": told.offer[1], "g": notice.game_id, "s": notice.seat})

    async def drop(self, notice: Notice, now: float) -> None:
        """A notice that no longer holds is never told (a run-out's strike goes with it)."""
        async with self.db.engine.begin() as conn:
            await conn.execute(text("UPDATE outbox_notice SET delivered_at = :now WHERE id = :i"),
                               {"now": now, "i": notice.id})
            if notice.kind == "ranout":
                await self._void(conn, notice.game_id, notice.seat, int(notice.body.get("strikes", 0)), [])


__all__ = ["Notice", "NoticeKind", "Notices", "Told", "Verdict"]
