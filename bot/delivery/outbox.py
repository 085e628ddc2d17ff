"""Every committed move reaches its thread, exactly once, whatever crashes in between.

A move's transaction writes an ``outbox`` row beside its log row (``bot/store/hot.py``: the state the move was
made in, keyed by the game and the version the move made).  The row is the promise: it is marked delivered
(``delivered``) only once Discord has accepted the post, in the same transaction that makes the new message the
game's one live prompt and lists the prompt it replaces in ``stale_prompt``.  Whatever is still owed is told
by the process that owns the game: after each move (the rows an earlier failure left), by the sweep (rows
older than ``SETTLE`` seconds) and at start-up (every row written before this process began).

Never twice: the moment is drawn again from the stored state, and before anything is posted the thread is
read after the last delivered message: a post Discord accepted just before a crash is adopted, not repeated.
Posts to a channel also carry a nonce made of the game, the version and the part (``enforce_nonce``), so a
resend within Discord's window returns the message already made.

A start is resumable the same way: its row (kind ``start``) stays owed until the first post of the game is
out, and ``starter`` (the games cog) finishes whatever step the start died in.  Old prompts listed in
``stale_prompt`` lose their controls in the background, and again at start-up, with mentions off.

What a turn clock did (a reminder, a run-out's "⌛ … ran out" line, a wait, a seat offered or closed) is owed
the same way, as a notice (``bot/delivery/notices.py``, table ``outbox_notice``) written in the transaction that did it,
and told by ``tell_notices`` in the game's order: after the moves before it, before the move it explains.

The cogs supply the Discord half (``teller``, ``starter``, ``notice_teller``): this module imports none of them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
import msgspec
from sqlalchemy import text

from bot.delivery.notices import Notice, Notices, Told
from bot.service.gamelog import kind_of, setup_names
from bot.service.lobby import seat_names
from bot.service.moment import GameMoment
from bot.store import SeatRow
from bot.store.db import Database
from rules import table
from rules.core import SeatInfo
from rules.registry import AnyRuleset, ruleset

log = logging.getLogger("tabula.outbox")
SETTLE = 20.0  # seconds: a row younger than this is still being told by the press that made it
KEEP = "keep"  # ``delivered(prompt=KEEP)``: the game's live prompt stays as it is
NONE = discord.AllowedMentions.none()
CRASH_ENV = "TABULA_TEST_CRASH"  # loopback tests only (with TABULA_FAKE_DISCORD): "point:chance,..."


@dataclass(slots=True, frozen=True)
class Owed:
    """One outbox row not yet delivered."""

    game_id: int
    seq: int
    kind: str  # move | start
    state: str | None
    created_at: float


def nonce(game_id: int, seq: int, part: int) -> str:
    """The nonce of one part of one move's telling (Discord allows 25 characters)."""
    return f"t{game_id}.{seq}.{part}"[:25]


_crash: dict[str, float] | None = None


def crash_point(name: str) -> None:
    """Loopback tests only: die here, at once and without cleaning up (as ``kill -9`` would), with the chance
    ``TABULA_TEST_CRASH`` gives this point (e.g. ``commit:0.3,posted:0.2``).  Nothing without that variable and
    the fake Discord's."""
    global _crash
    if _crash is None:
        _crash = {}
        if os.environ.get("TABULA_FAKE_DISCORD"):
            for item in os.environ.get(CRASH_ENV, "").split(","):
                point, _, chance = item.partition(":")
                if point.strip():
                    _crash[point.strip()] = float(chance or 1)
    odds = _crash.get(name)
    if odds and int.from_bytes(os.urandom(4), "big") / 2**32 < odds:
        log.warning("test crash at %s", name)
        os.kill(os.getpid(), signal.SIGKILL)


async def test_gate() -> None:
    """Loopback tests only: a process started ahead of need (its imports done) waits here until the file that
    ``TABULA_TEST_GATE`` names exists, so a test restarts the bot without paying for Python's start-up."""
    gate = os.environ.get("TABULA_TEST_GATE") if os.environ.get("TABULA_FAKE_DISCORD") else None
    while gate and not os.path.exists(gate):
        await asyncio.sleep(0.01)


Teller = Callable[[GameMoment[Any], Owed, bool], Awaitable[bool]]
Starter = Callable[[GameMoment[Any], Owed], Awaitable[bool]]
#: Tells one notice; the flag says whether a post of it may be on Discord already (a process tried before).
NoticeTeller = Callable[[Notice, bool], Awaitable[Told]]


class Outbox:
    """The outbox of one process: what it owes, what it is telling now, and the prompts left to retire."""

    def __init__(self, client: discord.Client, db: Database, *, clock: Callable[[], float] = time.time) -> None:
        self.client, self.db, self.clock = client, db, clock
        self.started_at = clock()
        #: (game, seq) this process is telling right now (a press between its commit and its post)
        self.busy: set[tuple[int, int]] = set()
        #: which games this process tells (a guild id -> True); sharded processes narrow it to their shards
        self.owns: Callable[[int | None], bool] = lambda guild_id: True
        self.teller: Teller | None = None  # posts one owed move (the components cog); True once delivered
        self.starter: Starter | None = None  # finishes one start (the games cog); True once delivered
        self._locks: dict[int, asyncio.Lock] = {}
        self.background: set[asyncio.Task[Any]] = set()
        #: something may be owed that no press of this process is telling (rows from before it started, a
        #: post that failed): only then does a move look for older debts of its game (a read per move saved)
        self.suspect = True
        self._done: set[tuple[int, int]] = set()  # claimed moves marked delivered since their claim
        #: the clock's notices (bot/delivery/notices.py), told by ``notice_teller`` (the tables cog), in game order
        self.notices = Notices(db)
        self.notice_teller: NoticeTeller | None = None
        #: notices this process wrote and has not tried to post: none of them can be on Discord yet, so their
        #: telling skips the search for a post a crash left unrecorded (a read of the channel saved each)
        self.untried: set[int] = set()

    # --- this process's own moves -----------------------------------------------------------------------

    def claim(self, moment: GameMoment[Any]) -> list[tuple[int, int]]:
        """Mark a move (and Tabula's moves after it) as being told by this process now."""
        keys = [(m.game_id, m.version) for m in (moment, *moment.followups)]
        self.busy.update(keys)
        return keys

    def release(self, keys: Sequence[tuple[int, int]]) -> None:
        self.busy.difference_update(keys)
        if not all(key in self._done for key in keys):
            self.suspect = True  # the press ended without telling all it committed (an error, a cut)
        self._done.difference_update(keys)

    def after_move(self, game_id: int) -> None:
        """Once a move is told: anything older still owed for its game (a post that failed) is told now."""
        if self.suspect:
            self._spawn(self.drain(game_id=game_id), f"tabula-outbox-{game_id}")

    def _spawn(self, work: Awaitable[Any], name: str) -> None:
        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s failed", name)
        task = asyncio.ensure_future(run())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    # --- the rows ---------------------------------------------------------------------------------------

    async def owed(self, game_id: int | None = None) -> list[Owed]:
        where = "delivered_at IS NULL" + (" AND game_id = :g" if game_id is not None else "")
        async with self.db.engine.begin() as session:
            rows = (await session.execute(text("SELECT game_id, seq, kind, state, created_at FROM outbox "
                                               f"WHERE {where} ORDER BY game_id, seq"), {"g": game_id})).all()
        return [Owed(int(r[0]), int(r[1]), str(r[2]), r[3], float(r[4] or 0)) for r in rows]

    async def depth(self) -> int:
        """How many tellings are owed (for metrics)."""
        async with self.db.engine.begin() as session:
            found = (await session.execute(text("SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL"))).scalar()
        return int(found or 0)

    async def last_delivered(self, game_id: int) -> tuple[int, int | None] | None:
        """(seq, message) of the game's newest delivered telling, if it is still kept."""
        async with self.db.engine.begin() as session:
            row = (await session.execute(text("SELECT seq, message_id FROM outbox WHERE game_id = :g AND "
                                              "delivered_at IS NOT NULL ORDER BY seq DESC LIMIT 1"),
                                         {"g": game_id})).first()
        return (int(row[0]), int(row[1]) if row[1] is not None else None) if row else None

    async def delivered(self, game_id: int, seq: int, message_id: int | None, *,
                        prompt: tuple[int, int] | str | None = KEEP, since: int | None = None
                        ) -> tuple[int, int] | None:
        """Discord accepted the telling of ``seq`` (as ``message_id``; of every move from ``since`` to ``seq``
        when a run of moves was told as one): mark it, forget the game's older rows, and, unless ``prompt`` is
        KEEP, make ``prompt`` the game's one live prompt (None: none is live) in the same transaction, listing
        the prompt it replaces as stale.  Returns that replaced prompt (to strip)."""
        now = self.clock()
        previous: tuple[int, int] | None = None
        first = seq if since is None else min(since, seq)
        async with self.db.engine.begin() as session:
            await session.execute(text("UPDATE outbox SET delivered_at = :now, message_id = :m WHERE game_id = :g "
                                       "AND seq >= :f AND seq <= :s AND delivered_at IS NULL"),
                                  {"now": now, "m": message_id, "g": game_id, "s": seq, "f": first})
            await session.execute(text("DELETE FROM outbox WHERE game_id = :g AND seq < :s AND "
                                       "delivered_at IS NOT NULL"), {"g": game_id, "s": seq})
            if prompt != KEEP:
                lock = " FOR UPDATE" if self.db.url.startswith("postgres") else ""
                row = (await session.execute(text("SELECT prompt_channel_id, prompt_message_id FROM game "
                                                  f"WHERE id = :g{lock}"), {"g": game_id})).first()
                new = prompt if isinstance(prompt, tuple) else None
                later = (await session.execute(text("SELECT 1 FROM outbox WHERE game_id = :g AND seq > :s AND "
                                                    "delivered_at IS NOT NULL LIMIT 1"),
                                               {"g": game_id, "s": seq})).first()
                current = (int(row[0]), int(row[1])) if row is not None and row[0] is not None \
                    and row[1] is not None else None
                if later is not None:
                    # A later move's telling was recorded first (this one waited on the database while a player
                    # already pressed the prompt it posted): the later prompt stays the live one, and this
                    # telling's controls, out of date by now, are listed to be taken off.
                    outdated = new if new is not None and new != current else None
                else:
                    await session.execute(text("UPDATE game SET prompt_channel_id = :c, prompt_message_id = :m "
                                               "WHERE id = :g"),
                                          {"c": new[0] if new else None, "m": new[1] if new else None, "g": game_id})
                    outdated = current if current != new else None
                if outdated is not None:
                    previous = outdated
                    await session.execute(text("INSERT INTO stale_prompt (message_id, channel_id, game_id, created_at) "
                                               "VALUES (:m, :c, :g, :now) ON CONFLICT DO NOTHING"),
                                          {"m": previous[1], "c": previous[0], "g": game_id, "now": now})
        self._done.update(key for key in self.busy if key[0] == game_id and first <= key[1] <= seq)
        if previous is not None:
            crash_point("swapped")  # (tests: the old prompt is listed, its edit not made yet)
            self._spawn(self.strip(game_id, *previous), f"tabula-retire-{game_id}")
        return previous

    # --- drawing an owed moment again --------------------------------------------------------------------

    async def moment_of(self, owed: Owed) -> GameMoment[Any] | None:
        """The moment an owed row tells, drawn again from the state it was made in (None: nothing to tell)."""
        record = await self.db.store.load(owed.game_id)
        if record is None:
            return None
        rules = ruleset(record.ruleset)
        seats = [SeatRow(*r) for r in await self.db.store.load_seats(owed.game_id)]
        async with self.db.engine.begin() as session:
            rows = (await session.execute(text("SELECT seq, user_id, seat, action FROM action WHERE game_id = :g "
                                               "AND seq = :s"),
                                          {"g": owed.game_id, "s": owed.seq})).all()
        row = next((r for r in rows if int(r[0]) == owed.seq), None)
        if row is None:
            return None
        common: dict[str, Any] = {
            "game_id": owed.game_id, "rules": rules, "seats": seat_names(seats), "version": owed.seq,
            "thread_id": record.thread_id, "channel_id": record.channel_id, "options": dict(record.options),
            "clock_deadline": record.clock.deadline if owed.seq == record.version else None,
            "paused": record.clock.paused}
        if owed.kind == "start":
            names = setup_names([_Row(int(r[0]), str(r[3])) for r in rows], seats)
            step = rules.setup([SeatInfo(index=i, name=n) for i, n in enumerate(names)], record.options, record.seed)
            return GameMoment(_state=step.state, events=tuple(step.events), **common)
        if owed.state is None:
            return None
        before = msgspec.json.decode(owed.state, type=rules.state_type)
        seat = None if row[2] is None else int(row[2])
        if owed.kind == "undo":
            return await self._undo_moment(owed, rules, before, str(row[3]), common)
        if kind_of(_Row(owed.seq, str(row[3]))).startswith("tabula."):
            action = table.decode(str(row[3]))
            assert seat is not None
            after, events = before, table.apply(action, seat, record.seed, owed.seq)
        else:
            action = msgspec.json.decode(str(row[3]), type=rules.action_type)
            if seat is None:
                return None
            step = rules.apply(before, seat, action)
            after, events = step.state, tuple(step.events)
        finished = rules.outcome(after) is not None
        return GameMoment(_state=after, events=tuple(events), actor=seat, action=action, _before=before,
                          by_tabula=int(row[1]) == 0, status="finished" if finished else "active", **common)

    async def _undo_moment(self, owed: Owed, rules: AnyRuleset, stands: Any, undo: str,
                           common: dict[str, Any]) -> GameMoment[Any] | None:
        """An undo owed: the game as it stood again (``stands``), naming the seat and the move it took back."""
        undoes = json.loads(undo).get("undoes")
        async with self.db.engine.begin() as session:
            taken = (await session.execute(text("SELECT seat, action FROM action WHERE game_id = :g AND seq = :s"),
                                           {"g": owed.game_id, "s": undoes})).first()
        if taken is None or taken[0] is None:
            return None
        action = msgspec.json.decode(str(taken[1]), type=rules.action_type)
        return GameMoment(_state=stands, undone=(int(taken[0]), action), **common)

    # --- draining -------------------------------------------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def drain(self, *, game_id: int | None = None, startup: bool = False) -> int:
        """Tell what is owed (one game's, or every game's this process owns); returns how many were told.

        At start-up every row written before this process began is owed; otherwise a row must be older than
        ``SETTLE`` seconds or older than a move this process has told since (the press that made it is gone)."""
        owed = await self.owed(game_id)
        if game_id is None and not startup and not [o for o in owed if (o.game_id, o.seq) not in self.busy]:
            self.suspect = False  # a whole sweep found nothing owed but what presses are telling now
        games: dict[int, list[Owed]] = {}
        for row in owed:
            games.setdefault(row.game_id, []).append(row)
        told = 0
        for gid, rows in games.items():
            try:
                told += await self._drain_game(gid, rows, startup=startup)
            except (TimeoutError, discord.HTTPException, OSError) as err:
                log.info("game %d: owed tellings wait for the next sweep (%s)", gid, type(err).__name__)
            except Exception:
                log.exception("game %d: could not tell what is owed", gid)
        return told + await self.drain_notices(game_id=game_id)

    async def _drain_game(self, game_id: int, rows: list[Owed], *, startup: bool) -> int:
        told = 0
        async with self._lock(game_id):
            current = {(r.game_id, r.seq) for r in await self.owed(game_id)}  # told meanwhile by a press?
            newest = await self.last_delivered(game_id)
            joined: set[int] = set()  # rows told as part of an earlier row's run
            for row in rows:
                if (row.game_id, row.seq) not in current or (row.game_id, row.seq) in self.busy or row.seq in joined:
                    continue
                settled = row.created_at < self.started_at if startup else \
                    row.created_at < self.clock() - SETTLE or (newest is not None and newest[0] > row.seq)
                if not settled:
                    break  # keep the order: a younger row waits for the one before it
                record = await self.db.store.load(game_id)
                if record is None:
                    continue
                if not self.owns(record.guild_id):
                    return told
                await self._tell_notices(game_id, before=row.seq)  # what the clock said before this move
                moment = await self.moment_of(row)
                if moment is None or record.status == "lobby":
                    await self.delivered(game_id, row.seq, None)  # nothing to tell (the log has no such move)
                    continue
                if row.kind == "start" and record.channel_id is None and record.thread_id is None:
                    await self.delivered(game_id, row.seq, None)  # started off Discord (the terminal runner)
                    continue
                if row.kind == "start":
                    if self.starter is None or not await self.starter(moment, row):
                        break
                elif record.thread_id is None:  # (a start still owed has stopped the loop above)
                    await self.delivered(game_id, row.seq, None)  # a game with nowhere to tell (offline)
                    continue
                else:
                    # The moves owed after it are told with it, as one telling (as the press that made them
                    # would have told them), and so is a run of Tabula's moves a crash left untold.
                    run = [r for r in rows if r.seq > row.seq and r.kind == "move" and (r.game_id, r.seq) in current
                           and (r.game_id, r.seq) not in self.busy]
                    for later in run:
                        if later.seq != (moment.followups[-1].version if moment.followups else row.seq) + 1:
                            break
                        more = await self.moment_of(later)
                        if more is None:
                            break
                        moment.followups.append(more)
                        joined.add(later.seq)
                    last = moment.followups[-1].version if moment.followups else row.seq
                    if self.teller is None or not await self.teller(moment, row, newest is not None and
                                                                    newest[0] > last):
                        break
                told += 1
                log.info("game %d: told move %d, which was owed", game_id, row.seq)
        return told

    # --- the clock's notices (bot/delivery/notices.py) ----------------------------------------------------------

    async def tell_notices(self, game_id: int, *, upto: int | None = None) -> list[int]:
        """Tell a game's owed notices in order (those up to notice ``upto`` when given), each exactly once:
        under the game's lock, so a sweep and a drain never both post one.  Returns the ones done (told, or
        dropped as no longer true)."""
        async with self._lock(game_id):
            return await self._tell_notices(game_id, upto=upto)

    async def _tell_notices(self, game_id: int, *, upto: int | None = None, before: int | None = None) -> list[int]:
        done: list[int] = []
        if self.notice_teller is None:
            return done
        for notice in await self.notices.owed(game_id):
            if (upto is not None and notice.id > upto) or (before is not None and notice.after_seq >= before):
                break
            verdict = await self.notices.judge(notice)
            if verdict == "wait":
                break  # keep the order: what follows waits for it
            if verdict == "void":
                await self.notices.drop(notice, self.clock())
            else:
                first = notice.id in self.untried
                self.untried.discard(notice.id)  # from here on, a post of it may exist
                told = await self.notice_teller(notice, not first)
                await self.notices.told(notice, told, self.clock())
                log.info("game %d: told the clock's %s (notice %d)", game_id, notice.kind, notice.id)
            done.append(notice.id)
        return done

    async def drain_notices(self, *, game_id: int | None = None) -> int:
        """Tell every owed notice of the games this process tells (a crash, Discord down, a wait over)."""
        told = 0
        for gid in sorted({n.game_id for n in await self.notices.owed(game_id)}):
            record = await self.db.store.load(gid)
            if record is not None and not self.owns(record.guild_id):
                continue
            try:
                told += len(await self.tell_notices(gid))
            except (TimeoutError, discord.HTTPException, OSError) as err:
                log.info("game %d: owed notices wait for the next sweep (%s)", gid, type(err).__name__)
            except Exception:
                log.exception("game %d: could not tell the clock's notices", gid)
        return told

    # --- old prompts ----------------------------------------------------------------------------------

    async def strip(self, game_id: int, channel_id: int, message_id: int) -> bool:
        """Take the controls off one old prompt (mentions off: an old message's text never pings), then
        forget it; kept listed if Discord could not be reached (the next start-up tries again)."""
        async with self.db.engine.begin() as session:
            live = (await session.execute(text("SELECT prompt_message_id FROM game WHERE id = :g"),
                                          {"g": game_id})).scalar()
        if live is None or int(live) != message_id:
            channel = self.client.get_channel(channel_id)
            try:
                if not isinstance(channel, discord.abc.Messageable):
                    channel = await self.client.fetch_channel(channel_id)
                # (a game's prompt is in a thread or text channel; the union also holds kinds it never is in)
                await channel.get_partial_message(message_id).edit(  # type: ignore[union-attr]
                    view=None, allowed_mentions=NONE)
            except (discord.NotFound, discord.Forbidden):
                pass  # the message or thread is gone, or no longer ours to edit: nothing is live there
            except (TimeoutError, discord.HTTPException, OSError, RuntimeError) as err:
                log.info("game %d: could not retire an old prompt yet (%s)", game_id, type(err).__name__)
                return False
        async with self.db.engine.begin() as session:
            await session.execute(text("DELETE FROM stale_prompt WHERE message_id = :m"), {"m": message_id})
        return True

    async def retire_stale(self) -> int:
        """Every old prompt still listed loses its controls (at start-up: a crash may have cut the edit)."""
        async with self.db.engine.begin() as session:
            rows = (await session.execute(text("SELECT game_id, channel_id, message_id FROM stale_prompt"))).all()
        done = 0
        for game_id, channel_id, message_id in rows:
            with contextlib.suppress(Exception):
                done += await self.strip(int(game_id), int(channel_id), int(message_id))
        return done

    async def settle(self, timeout: float) -> None:
        """Wait (up to ``timeout`` seconds) for the background edits and tellings under way; cancel the rest."""
        pending = [t for t in self.background if not t.done()]
        if not pending:
            return
        _, late = await asyncio.wait(pending, timeout=max(0.0, timeout))
        for task in late:
            task.cancel()
        if late:
            await asyncio.wait(late, timeout=1.0)


@dataclass(slots=True, frozen=True)
class _Row:
    seq: int
    action: str


__all__ = ["KEEP", "SETTLE", "Outbox", "Owed", "crash_point", "nonce", "test_gate"]
