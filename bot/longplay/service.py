"""What keeps a game by message moving over days and weeks, for every game alike: the turn clock's sweep
(reminders, and the absent-player policy when a clock runs out), nudges, seats that change hands, vacations,
pauses, and taking a move back.  Nothing here names a game: the policy a seat is played with is the game's
own ``policy``, and what may be undone is the game's ``meta(action).undoable``."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import msgspec

from bot.delivery.notices import Notices
from bot.longplay import clock as turn_clock
from bot.service.gamelog import UNDO, effective, kind_of, setup_names
from bot.service.lobby import Person
from bot.service.moment import GameMoment
from bot.service.play import SYSTEM_USER, GameService, Loaded
from bot.service.records import public_words
from bot.store import LogEntry
from rules import GameError, IllegalAction, StaleAction
from rules.core import SeatInfo
from rules.i18n import N_, _, _p
from rules.registry import AnyRuleset, ruleset
from rules.search import DEFAULT_LEVEL, LEVELS

log = logging.getLogger("tabula.longplay")
_enc = msgspec.json.Encoder()
DAY = 24 * 3600
#: The user id a seat gets when its player leaves (Tabula plays it; anyone may take it): below every id that
#: the lobby's **Add Tabula** gives.
LEFT_SEAT = -1000
#: A nudge may come once per clock period; a game without a clock allows one this often.
NUDGE_WITHOUT_CLOCK = 12 * 3600

NewsKind = Literal["remind", "played", "paused", "offer"]


@dataclass(slots=True)
class ClockNews:
    """Something the clock did, for the Discord side to tell: a reminder, Tabula's moves for absent players,
    a game waiting for someone, or a seat offered to the lobby's channel."""

    kind: NewsKind
    game_id: int
    title: str
    thread_id: int | None
    channel_id: int | None
    users: list[int] = field(default_factory=list)  # the people concerned (pinged in the thread)
    names: list[str] = field(default_factory=list)
    deadline: float | None = None
    seat: int | None = None
    strikes: int = 0
    moments: list[GameMoment[Any]] = field(default_factory=list)
    #: The game's key and language: the news is told in the game's thread, in its language.
    ruleset: str = ""
    language: str = "en"
    #: The notice owed for it (bot/delivery/notices.py): the outbox tells it, exactly once, whatever crashes.
    notice_id: int | None = None


def _body(news: ClockNews) -> dict[str, Any]:
    """What a notice keeps of the news, to be told from after a restart."""
    return {"title": news.title, "ruleset": news.ruleset, "language": news.language, "thread_id": news.thread_id,
            "channel_id": news.channel_id, "users": news.users, "names": news.names, "deadline": news.deadline,
            "strikes": news.strikes}


@dataclass(slots=True)
class Undone:
    """A move taken back: the game as it stands again, its ``undone`` naming the seat and the move (told by
    ``bot.tellings.undo_telling``, which names a secret move only as a secret choice)."""

    moment: GameMoment[Any]

    @property
    def name(self) -> str:
        """Whose move was taken back."""
        assert self.moment.undone is not None
        return self.moment.name_of(self.moment.undone[0])

    @property
    def label(self) -> str | None:
        """The move as its public telling named it (None: a secret move), in the current language."""
        assert self.moment.undone is not None
        seat, action = self.moment.undone
        return public_words(self.moment.rules, self.moment.state, seat, action, reveal=False)


class LongGameService(GameService):
    """The game service with the platform's features for long games (see the module docstring)."""

    def __init__(self, *args: Any, vacation_days: float = 14.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.vacation_days = vacation_days
        self.notices = Notices(self.db)
        #: Loopback tests only: the Discord side sets the outbox's ``crash_point`` here, so that a test can kill
        #: the process between a run-out's line and Tabula's move (this module never imports Discord's half).
        self.crash_point: Callable[[str], None] = lambda point: None

    # --- the sweep ----------------------------------------------------------------------------

    async def clock_due(self, games: Collection[int] | None = None) -> list[ClockNews]:
        """Everything the turn clocks have due now (only among ``games`` when given: the ones this process
        claimed): reminders first come, then the run-outs.  Each item is also taken in the database before it
        is acted on (``claim_clock``), so two processes never both do it."""
        now = self.clock()
        news: list[ClockNews] = []
        for game_id, wake in await self.queries.waking(now):
            if games is not None and game_id not in games:
                continue
            try:
                news += await self._wake(game_id, wake, now)
            except GameError as err:  # someone moved in the meantime: the clock has started again
                log.info("game %d: clock item skipped (%s)", game_id, err)
        return news

    async def _wake(self, game_id: int, wake: float, now: float) -> list[ClockNews]:
        g = await self._load(game_id, fresh=True)
        clock = g.record.clock
        if (g.state is None or g.record.status != "active" or clock.wake_at != wake
                or clock.paused != turn_clock.RUNNING):
            return []
        rules = ruleset(g.record.ruleset)
        people = self._absent(rules, g)
        base: dict[str, Any] = {"game_id": game_id, "title": rules.spec.title, "thread_id": g.record.thread_id,
                "channel_id": g.record.channel_id, "ruleset": g.record.ruleset, "language": g.record.language}
        if clock.remind_at is not None and clock.deadline is not None and now < clock.deadline:
            news = ClockNews("remind", users=[s.user_id for s in people], names=[s.name for s in people],
                             deadline=clock.deadline, **base)
            # The clock's claim and the reminder owed to the thread: one transaction (bot/delivery/notices.py).
            news.notice_id = await self.notices.claim(game_id, wake, turn_clock.reminded(clock), "remind",
                                                      _body(news), now)
            if news.notice_id is None:
                return []
            self.forget(game_id)
            return [news]
        return await self._run_out(game_id, g, rules, wake, base)

    def _absent(self, rules: AnyRuleset, g: Loaded) -> list[Any]:
        to_act = rules.to_act(g.state)
        return [s for s in g.seats if s.seat in to_act and s.user_id > 0]

    async def _run_out(self, game_id: int, g: Loaded, rules: AnyRuleset, wake: float,
                       base: dict[str, Any]) -> list[ClockNews]:
        policy = turn_clock.policy_of(g.record.options)
        skip = getattr(rules, "skip", None)
        people = self._absent(rules, g)
        if policy == "pause" or (policy == "skip" and skip is None) or not people:
            waits = ClockNews("paused", users=[s.user_id for s in people], names=[s.name for s in people], **base)
            waits.notice_id = await self.notices.claim(game_id, wake, turn_clock.stopped(turn_clock.WAITING),
                                                       "paused", _body(waits), self.clock())
            if waits.notice_id is None:
                return []
            self.forget(game_id)
            return [waits]
        news: list[ClockNews] = []
        played: list[GameMoment[Any]] = []
        stamp = rules.moment(g.state)
        async with self._locks(game_id):
            for s in people:
                now_g = await self._load(game_id, fresh=True)
                if now_g.record.clock.wake_at != wake and not played:
                    return []  # a person moved, or another process took this run-out
                if s.seat not in rules.to_act(now_g.state):
                    continue
                seed = now_g.record.seed ^ (now_g.version * 0x7F4A7C15)
                move = skip(now_g.state, s.seat) if policy == "skip" and skip else \
                    await self.thinker.choose(rules, now_g.state, s.seat, now_g.record.options, seed)
                if move is None:
                    legal = list(rules.legal(now_g.state, s.seat))
                    move = legal[0] if legal else None
                if move is None:
                    continue
                expect = stamp if not played else None
                # The seat's strike, the line that tells it and (from the third) the seat's offer are owed before
                # the move, in one transaction: Tabula's move then makes them true, or they are taken back.
                line = ClockNews("played", users=[s.user_id], names=[s.name], seat=s.seat, **base)
                line_id, strikes, offer_id = await self.notices.owe_ranout(
                    game_id, now_g.version, s.seat, {**_body(line), "user": s.user_id}, self.clock())
                self.crash_point("ranout")
                try:
                    result = await self._act_locked(game_id, SYSTEM_USER, move, None, expect, s.seat, by_tabula=True)
                except GameError as err:
                    await self.notices.void_ranout(game_id, s.seat, strikes, [line_id, *([offer_id] if offer_id
                                                                                          else [])])
                    if isinstance(err, StaleAction):
                        return news
                    raise
                result.followups = await self._autoplay(game_id)
                played.append(result)
                line.strikes, line.moments, line.notice_id = strikes, [result], line_id
                news.append(line)
                if offer_id is not None:
                    news.append(ClockNews("offer", users=[s.user_id], names=[s.name], seat=s.seat, strikes=strikes,
                                          notice_id=offer_id, **base))
            after = await self._load(game_id, fresh=True)
            if after.record.clock.wake_at == wake:  # nothing moved the turn on: wait rather than loop
                await self.queries.claim_clock(game_id, wake, turn_clock.stopped(turn_clock.WAITING))
                self.forget(game_id)
        return news

    async def _hand_back(self, game_id: int, g: Loaded, seat: int) -> None:
        """A person acting for their own seat ends Tabula's run of clock plays there, and the seat's offer in
        the lobby's channel, if it was offered, is closed."""
        mine = next((s for s in g.seats if s.seat == seat), None)
        offered = mine is not None and mine.strikes >= turn_clock.STRIKES_TO_OFFER
        await super()._hand_back(game_id, g, seat)
        if offered and mine is not None:
            await self._withdraw(g, seat, "back", mine.name)

    async def _withdraw(self, g: Loaded, seat: int, reason: str, name: str) -> int | None:
        """Close the seat's offer, if one was posted (told by the outbox: bot/delivery/notices.py)."""
        rules = ruleset(g.record.ruleset)
        body = {"title": rules.spec.title, "ruleset": g.record.ruleset, "language": g.record.language,
                "thread_id": g.record.thread_id, "channel_id": g.record.channel_id, "reason": reason, "name": name}
        return await self.notices.withdraw_offer(g.record.id, seat, body, self.clock())

    # --- nudges and DMs -----------------------------------------------------------------------

    async def nudge(self, game_id: int, user_id: int) -> tuple[GameMoment[Any], list[int]]:
        """Another player (or the host) pings whoever must act; once per clock period."""
        g = await self._load(game_id, fresh=True)
        self._check_playable(g)
        rules = ruleset(g.record.ruleset)
        seated = any(s.user_id == user_id for s in g.seats)
        if not seated and user_id != g.record.host_id:
            raise IllegalAction(_("Only the players and the host of this game can nudge."))
        people = self._absent(rules, g)
        if not people:
            raise IllegalAction(_("Nobody is holding this game up right now — Tabula's own seats move by themselves."))
        if [s.user_id for s in people] == [user_id]:
            raise IllegalAction(_("It is your own move! The prompt in the thread shows what you can do."))
        period = turn_clock.clock_seconds(g.record.options) or NUDGE_WITHOUT_CLOCK
        now = self.clock()
        if not await self.queries.claim_nudge(game_id, now, now - period):
            last = await self.queries.nudged_at(game_id) or now
            raise IllegalAction(_("Someone nudged already; the next nudge is possible {when}.",
                                  when=f"<t:{int(last + period)}:R>"))
        return self._moment(g, rules), [s.user_id for s in people if s.user_id != user_id]

    async def notify(self, user_id: int, on: bool | None = None) -> bool:
        return await self.queries.notify(user_id, on)

    async def wants_dm(self, user_ids: list[int]) -> set[int]:
        return await self.queries.wants_dm(user_ids)

    async def server_defaults(self, guild_id: int, clock: str | None, policy: str | None) -> tuple[str, str]:
        """Set (or read, with neither given) the clock and policy new games in this server start with."""
        turn_clock.check_clock(clock, policy, can_skip=True, title="")
        write = clock is not None or policy is not None
        got = await self.queries.guild_defaults(guild_id, clock, policy, write=write)
        return got[0] or self.default_clock, got[1] or self.default_policy

    async def server_level(self, guild_id: int, level: str | None) -> str:
        """Set (or read, with None) the level Tabula plays new games' seats at in this server."""
        if level is not None and level not in LEVELS:
            raise IllegalAction(_("Tabula plays at one of these levels: {levels}.", levels=", ".join(LEVELS)))
        got = await self.queries.guild_level(guild_id, level, write=level is not None)
        return got or DEFAULT_LEVEL

    # --- pauses and vacations -----------------------------------------------------------------

    def _check_host(self, g: Loaded, user_id: int, can_manage: bool, what: str) -> None:
        if user_id != g.record.host_id and not can_manage:
            raise IllegalAction(_(what))

    async def pause(self, game_id: int, user_id: int, *, can_manage: bool = False) -> GameMoment[Any]:
        return await self._set_host_clock(
            game_id, user_id, can_manage, pausing=True,
            who=N_("Only the host, or a member with **Manage Server**, can pause the game."),
            already=N_("The game is paused already; `/game resume` starts its clock again."))

    async def resume(self, game_id: int, user_id: int, *, can_manage: bool = False) -> GameMoment[Any]:
        return await self._set_host_clock(
            game_id, user_id, can_manage, pausing=False,
            who=N_("Only the host, or a member with **Manage Server**, can resume the game."),
            already=N_("The game is not paused; its clock is running."))

    async def _set_host_clock(self, game_id: int, user_id: int, can_manage: bool, *, pausing: bool, who: str,
                              already: str) -> GameMoment[Any]:
        """The host's pause (the clock stops for everyone) or resume (it starts afresh); ``who`` refuses anyone
        else, ``already`` a pause of a paused game or a resume of a running one."""
        async with self._locks(game_id):
            g = await self._load(game_id, fresh=True)
            self._check_playable(g)
            self._check_host(g, user_id, can_manage, who)
            if g.record.clock.paused == (turn_clock.HOST_PAUSED if pausing else turn_clock.RUNNING):
                raise IllegalAction(_(already))
            if pausing:
                clock = turn_clock.stopped(turn_clock.HOST_PAUSED)
            else:
                clock = turn_clock.fresh(ruleset(g.record.ruleset), g.state, g.seats, g.record.options, self.clock())
            await self.queries.set_clock(game_id, clock)
            self.forget(game_id)
        return await self.get(game_id, user_id)

    async def vacation(self, game_id: int, user_id: int, days: float) -> tuple[float | None, float]:
        """Pause your own clock for ``days`` (0 ends a vacation early); returns (until, days left to take).

        A vacation moves the clock of a turn that waits for you on by its length (or a turn that comes to you
        during it starts when it ends).  Ending it early takes back what is left of it, from the clock as from
        the allowance: only the days actually taken count, and the clock stands where it would had the
        vacation been that long."""
        async with self._locks(game_id):
            g = await self._load(game_id, fresh=True)
            self._check_playable(g)
            seat = self._seat_of(g, user_id)
            mine = next(s for s in g.seats if s.seat == seat)
            used = await self.queries.vacation_used(game_id, seat)
            now = self.clock()
            allowance = self.vacation_days * DAY
            rules = ruleset(g.record.ruleset)
            clock = g.record.clock
            waits_for_me = seat in rules.to_act(g.state) and clock.deadline is not None
            if days <= 0:
                if mine.vacation_until is None or mine.vacation_until <= now:
                    raise IllegalAction(_("You are not on vacation in this game, so there is none to end."))
                left_over = mine.vacation_until - now
                taken = max(0.0, used - left_over)
                await self.queries.set_seat(game_id, seat, vacation_until=None, vacation_used=taken)
                if waits_for_me:
                    # the clock comes back too
                    await self.queries.set_clock(game_id, turn_clock.pushed(clock, -left_over))
                self.forget(game_id)
                return None, (allowance - taken) / DAY
            wanted = days * DAY
            if used + wanted > allowance:
                raise IllegalAction(_("Each player has {days} days of vacation per game; you have {left} left.",
                                      days=f"{self.vacation_days:g}", left=f"{max(0.0, allowance - used) / DAY:.1f}"))
            start = max(now, mine.vacation_until or now)
            until = start + wanted
            await self.queries.set_seat(game_id, seat, vacation_until=until, vacation_used=used + wanted)
            if waits_for_me:
                await self.queries.set_clock(game_id, turn_clock.pushed(clock, wanted))  # the time left waits for them
            self.forget(game_id)
            return until, (allowance - used - wanted) / DAY

    # --- seats --------------------------------------------------------------------------------

    async def leave_game(self, game_id: int, user_id: int) -> tuple[GameMoment[Any], str]:
        """Leave a running game: Tabula plays the seat from now on (a replacement can take it later)."""
        async with self._locks(game_id):
            g = await self._load(game_id, fresh=True)
            self._check_playable(g)
            seat = self._seat_of(g, user_id)
            mine = next(s for s in g.seats if s.seat == seat)
            await self.queries.set_seat(game_id, seat, user_id=LEFT_SEAT - seat, strikes=0, vacation_until=None)
            if user_id == g.record.host_id:
                heir = next((s for s in g.seats if s.user_id > 0 and s.user_id != user_id), None)
                if heir is not None:
                    await self.queries.set_host(game_id, heir.user_id)
            self.forget(game_id)
        # Tabula plays the seat from the next moment on: the caller answers first, then ``play_tabula`` (a
        # last person leaving hands Tabula the whole rest of the game, which must not hold up the answer).
        return await self.get(game_id), mine.name

    async def play_tabula(self, game_id: int) -> list[GameMoment[Any]]:
        """The moves of the seats Tabula plays that are due now (after a leave), with the turn clock started
        again for whoever must act after them."""
        async with self._locks(game_id):
            moves = await self._autoplay(game_id)
            if moves:
                await self.queries.set_clock(game_id, await self._clock_now(game_id))
        return moves

    async def _clock_now(self, game_id: int) -> Any:
        g = await self._load(game_id, fresh=True)
        return turn_clock.fresh(ruleset(g.record.ruleset), g.state, g.seats, g.record.options, self.clock())

    async def replace(self, game_id: int, user_id: int, newcomer: Person, *, seat: int | None = None,
                      player: int | None = None, can_manage: bool = False, taking: bool = False) -> tuple[str, int]:
        """Give a seat to ``newcomer``: by the host (or Manage Server), or by anyone ``taking`` a seat that
        was offered (Tabula plays it, or played it for an absent player three times running).  Returns the
        seat's old name and its number."""
        async with self._locks(game_id):
            g = await self._load(game_id, fresh=True)
            self._check_playable(g)
            if any(s.user_id == newcomer.id for s in g.seats):
                raise IllegalAction(_("{name} already has a seat in this game.", name=newcomer.name))
            target = next((s for s in g.seats if (seat is not None and s.seat == seat)
                           or (player is not None and s.user_id == player)), None)
            if target is None:
                names = _p("list", ", ").join(f"{s.seat + 1}. {s.name}" for s in g.seats)
                raise IllegalAction(_("Name a seat of this game: {seats}.", seats=names))
            if taking:
                # Free to take: a seat Tabula played three times running for an absent player, or one a player
                # left (not a seat the host gave Tabula on purpose).
                left = target.user_id <= LEFT_SEAT
                if not left and (target.user_id < 0 or target.strikes < turn_clock.STRIKES_TO_OFFER):
                    raise IllegalAction(_("{name}'s seat is not free to take: the host can give it with "
                                          "`/game replace`.", name=target.name))
            else:
                self._check_host(g, user_id, can_manage, N_("Only the host, or a member with **Manage Server**, "
                                                            "can give a seat to someone else."))
            await self.queries.set_seat(game_id, target.seat, user_id=newcomer.id, name=newcomer.name, strikes=0,
                                        vacation_until=None, vacation_used=0.0)
            if taking:  # through the offer's own button, whose message then says who took it
                await self.notices.forget_offer(game_id, target.seat)
            else:
                await self._withdraw(g, target.seat, "replaced", newcomer.name)
            await self.queries.set_clock(game_id, await self._clock_now(game_id))
            self.forget(game_id)
            return target.name, target.seat

    async def close_offers(self, game_id: int) -> list[int]:
        """The game has ended: every seat offer still up for it is closed (the notices that close them)."""
        offered = await self.notices.offered(game_id)
        if not offered:
            return []
        g = await self._load(game_id, fresh=True)
        closing = [await self._withdraw(g, s.seat, "ended", s.name) for s in g.seats if s.seat in offered]
        return [n for n in closing if n is not None]

    # --- undo ---------------------------------------------------------------------------------

    async def undo(self, game_id: int, user_id: int) -> Undone:
        """Take back your last move, if nobody has acted since and it revealed nothing and rolled nothing."""
        async with self._locks(game_id):
            g = await self._load(game_id, fresh=True)
            self._check_playable(g)
            seat = self._seat_of(g, user_id)
            rules = ruleset(g.record.ruleset)
            rows = await self.history(game_id)
            standing = effective(rows)
            if not standing:
                raise IllegalAction(_("Nothing has been played yet, so there is nothing to take back."))
            last = standing[-1]
            if last.user_id != user_id:
                who = "Tabula" if last.user_id == SYSTEM_USER else next(
                    (s.name for s in g.seats if s.user_id == last.user_id), _("another player"))
                raise IllegalAction(_("{name} has moved since your last move, so it stands.", name=who))
            later = [r for r in rows if r.seq > last.seq]
            if any(kind_of(r) == "tabula.roll" for r in later):
                raise IllegalAction(_("Dice were rolled at the table since your move, so it stands."))
            action = msgspec.json.decode(last.action, type=rules.action_type)
            if not rules.meta(action).undoable:
                raise IllegalAction(_("That move revealed a card or rolled dice, so it stands — undoing it would "
                                    "let it be played again with the outcome known."))
            before = self._replayed(rules, g, standing[:-1], rows)
            now = self.clock()
            clock = turn_clock.fresh(rules, before, g.seats, g.record.options, now)
            saved = await self.db.store.save(
                game_id, g.version, state=_enc.encode(before).decode(), status="active",
                deadline=self._deadline(rules, before, g.record.options, now, g.seats), now=now, clock=clock,
                entry=LogEntry(user_id=user_id, seat=seat, action=_enc.encode({"type": UNDO, "undoes": last.seq})
                               .decode(), events="[]"),
                # The undo is owed to the thread from this transaction on, as a move is (bot/outbox.py): told
                # from the state it leaves, so a crash before the answer still tells it.
                tell=("undo", _enc.encode(before).decode()) if g.record.channel_id is not None else None)
            if not saved:
                raise GameError(_("The game moved on while you pressed that — please try again."))
            self.forget(game_id)
            log.info("game %d: seat %d took back move %d", game_id, seat, last.seq)
        moment = replace(await self.get(game_id, user_id), undone=(seat, action))
        return Undone(moment=moment)

    def _replayed(self, rules: AnyRuleset, g: Loaded, rows: list[Any], rows_all: list[Any]) -> Any:
        """The state after ``rows`` (the game's own actions), from the seed: exactly as the log tells it."""
        seats = [SeatInfo(index=i, name=n) for i, n in enumerate(setup_names(rows_all, g.seats))]
        state = rules.setup(seats, g.record.options, g.record.seed).state
        for row in rows:
            state = rules.apply(state, row.seat, msgspec.json.decode(row.action, type=rules.action_type)).state
        return state


__all__ = ["ClockNews", "LongGameService", "Undone"]
