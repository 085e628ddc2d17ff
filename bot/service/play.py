"""The game service: the one path every action takes, from Discord, the terminal runner and the tests.

``act`` loads the game (from a small in-process cache when this process wrote it last), checks the seat
and the version, applies the rules (or the table's own action, a roll), and saves the new state with its log
row in one transaction.  Each game's writes are serialised by a per-game lock inside the process; the version
column keeps several processes honest (a stale write matches no row, and the service reloads and tries
again).  After a move, seats that Tabula plays move at once, by the same path.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from bot.longplay.clock import HOST_PAUSED
from bot.longplay.clock import fresh as fresh_clock
from bot.present.base import SeatName
from bot.service.gamelog import effective, setup_names
from bot.service.lobby import (
    LEGACY_TIMEOUT_OPTION,
    TIMEOUT_OPTION,
    LobbyInfo,
    LobbyService,
    Person,
    seat_names,
)
from bot.service.moment import GameMoment
from bot.service.thinking import Thinker, shared
from bot.store import Clock, GameRecord, GameSummary, LogEntry, SeatRow
from bot.store.db import Database
from bot.store.models import Action as ActionRow
from rules import GameError, GameOver, IllegalAction, StaleAction, table
from rules.core import SeatInfo
from rules.i18n import _
from rules.registry import AnyRuleset, ruleset
from rules.ruleset import stands_in
from rules.spec import Command
from rules.values import english_command

log = logging.getLogger("tabula.play")
_enc = msgspec.json.Encoder()
SYSTEM_USER = 0  # the user id logged for actions Tabula takes itself (a timeout, an automatic seat)
AUTO_LIMIT = 2000  # moves Tabula may make in a row after one person's move (a table of Tabulas plays to the end)

Result = GameMoment
SeatEntry = SeatName

__all__ = [
    "LEGACY_TIMEOUT_OPTION",
    "SYSTEM_USER",
    "TIMEOUT_OPTION",
    "GameService",
    "GameSummary",
    "LobbyInfo",
    "NotSeated",
    "Person",
    "Result",
    "SeatEntry",
]


class NotSeated(GameError):
    """The person acting has no seat in this game."""


@dataclass(slots=True)
class Loaded:
    record: GameRecord
    seats: list[SeatRow]
    state: Any

    @property
    def version(self) -> int:
        return self.record.version


def command_of(verb: str, args: Mapping[str, str] | None) -> Command:
    return Command(verb=verb.strip().lower(), args=tuple((k, v) for k, v in (args or {}).items() if v is not None))


class GameService(LobbyService):
    def __init__(self, db: Database, *, clock: Callable[[], float] | None = None, **kwargs: Any) -> None:
        if clock is not None:
            kwargs["clock"] = clock
        #: Chooses the moves of the seats Tabula plays (bot/thinking.py: a process pool for the levels that search).
        self.thinker: Thinker = kwargs.pop("thinker", None) or shared()
        super().__init__(db, **kwargs)
        self._cache: OrderedDict[int, Loaded] = OrderedDict()
        self._cache_size = int(kwargs.get("cache_size", 256))  # decoded states: ~12 KB each, a read away

    @property
    def narrator_timeout_minutes(self) -> float:  # the setting's name before the timeout was generic
        return self.turn_timeout_minutes

    # --- loading ------------------------------------------------------------------------------

    async def _load(self, game_id: int, *, fresh: bool = False) -> Loaded:
        cached = self._cache.get(game_id)
        if cached is not None and not fresh:
            self._cache.move_to_end(game_id)
            return cached
        record = await self.db.store.load(game_id)
        if record is None:
            raise GameError(_("There is no game #{number}. `/game list` shows the games in this server.",
                              number=game_id))
        rules = ruleset(record.ruleset)
        state = msgspec.json.decode(record.state, type=rules.state_type) if record.state else None
        seats = [SeatRow(*row) for row in await self.db.store.load_seats(game_id)]
        loaded = Loaded(record=record, seats=seats, state=state)
        cached = self._cache.get(game_id)
        if cached is not None and cached.version > loaded.version:
            return cached  # a move committed while we were reading: the cache is the newer one
        if record.status == "active":
            self._remember(game_id, loaded)
        return loaded

    def _remember(self, game_id: int, loaded: Loaded) -> None:
        self._cache[game_id] = loaded
        self._cache.move_to_end(game_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def _remember_started(self, game_id: int, record: GameRecord, seats: list[SeatRow], state: object) -> None:
        self._remember(game_id, Loaded(record=record, seats=seats, state=state))

    def forget(self, game_id: int | None = None) -> None:
        """Drop cached games (all of them with no id): the next action reads the database again."""
        if game_id is None:
            self._cache.clear()
        else:
            self._cache.pop(game_id, None)

    async def rules_of(self, game_id: int) -> AnyRuleset:
        """The game's ruleset, from the cache when this process has the game (a slash command asks first)."""
        return ruleset((await self._load(game_id)).record.ruleset)

    async def options_of(self, game_id: int) -> dict[str, object]:
        """The game's settled options (what `/help` lists depends on them)."""
        return dict((await self._load(game_id)).record.options)

    def _moment(self, g: Loaded, rules: AnyRuleset, **kw: Any) -> GameMoment[Any]:
        return GameMoment(game_id=g.record.id, rules=rules, _state=g.state, seats=seat_names(g.seats),
                          status=g.record.status, version=g.version, thread_id=g.record.thread_id,
                          channel_id=g.record.channel_id, options=dict(g.record.options),
                          clock_deadline=g.record.clock.deadline, paused=g.record.clock.paused,
                          language=g.record.language, **kw)

    async def start(self, game_id: int, user_id: int) -> GameMoment[Any]:
        """The lobby's start, then at once the moves of any seat Tabula plays that must act first."""
        result = await super().start(game_id, user_id)
        async with self._locks(game_id):
            result.followups = await self._autoplay(game_id)
        return result

    # --- playing ------------------------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, action: object = None, *, command: Command | None = None,
                  verb: str | None = None, args: Mapping[str, str] | None = None,
                  expect_version: int | None = None, seat: int | None = None) -> GameMoment[Any]:
        """Apply one action for ``user_id`` (or, with ``user_id=0`` and ``seat``, for Tabula itself).

        The action is given as an action object, or as a command (``verb`` and ``args``) that the game's codec
        (or the table, for ``/roll``) turns into one."""
        if verb is not None:
            command = command_of(verb, args)
        async with self._locks(game_id):
            result = await self._act_locked(game_id, user_id, action, command, expect_version, seat)
            result.followups = await self._autoplay(game_id)
            return result

    async def _act_locked(self, game_id: int, user_id: int, action: object, command: Command | None,
                          expect_version: int | None, seat: int | None, *, by_tabula: bool = False,
                          at_version: int | None = None) -> GameMoment[Any]:
        """``at_version``: the stored version the action was chosen at (Tabula's own moves and timeouts); it is
        refused as stale once the game has moved on at all, even within one moment of the rules (a card dealt
        while others deal theirs leaves the moment as it was, but the choice was made without it)."""
        fresh = False
        for _attempt in range(8):
            g = await self._load(game_id, fresh=fresh)
            rules = ruleset(g.record.ruleset)
            try:
                self._check_playable(g)
                if at_version is not None and g.version != at_version:
                    raise StaleAction(_("That button belongs to an earlier moment of the game — use the newest "
                                      "message in the thread (or `/game status`)."))
                if expect_version is not None and rules.moment(g.state) != expect_version:
                    raise StaleAction(_("That button belongs to an earlier moment of the game — use the newest "
                                      "message in the thread (or `/game status`)."))
                acting = seat if user_id == SYSTEM_USER and seat is not None else self._seat_of(g, user_id)
                if command is not None and command.verb in table.TABLE_VERBS:
                    todo: object = table.parse(command)
                elif command is not None:  # a value typed in any language the game speaks, in English
                    todo = rules.codec.parse(g.state, acting, english_command(rules, command))
                else:
                    todo = action
                if not table.is_table(todo) and rules.meta(todo).asks_tabula:  # "let Tabula choose for me"
                    todo = await self.thinker.suggest(rules, g.state, acting, g.record.options,
                                                      g.record.seed ^ (g.version * 0x51ED27) ^ 0x5A6E, todo)
                if table.is_table(todo):
                    new_state, events = g.state, table.apply(todo, acting, g.record.seed, g.version + 1)
                    free = True
                else:
                    step = rules.apply(g.state, acting, todo)
                    new_state, events = step.state, step.events
                    free = rules.meta(todo).free
            except GameError:
                if fresh:
                    raise
                # Judged against the cache: another process may have moved the game on since. Refuse only
                # what the game as stored refuses.
                fresh = True
                continue
            finished = rules.outcome(new_state) is not None
            status = "finished" if finished else "active"
            now = self.clock()
            deadline = self._deadline(rules, new_state, g.record.options, now, g.seats)
            if (free or rules.moment(new_state) == rules.moment(g.state)) and g.record.deadline \
                    and not self._tabula_to_act(rules, new_state, g.seats) \
                    and not self._tabula_to_act(rules, g.state, g.seats):
                # A roll or a note, or one of several players acting at once, gives an absent player no more
                # time.  Only a person's timeout is kept: while a seat Tabula plays was to act the deadline was
                # "now" (its move follows at once), and kept it would time out the people still choosing.
                deadline = g.record.deadline
            clock = self._next_clock(rules, g, new_state, free, finished, now)
            saved = await self.db.store.save(
                game_id, g.version, state=_enc.encode(new_state).decode(), status=status, deadline=deadline,
                now=now, entry=LogEntry(user_id=user_id, seat=acting, action=_enc.encode(todo).decode(),
                                        events=_enc.encode(list(events)).decode()), clock=clock,
                # The telling is owed from this transaction on: bot/delivery/outbox.py redraws it from g.state
                # (a game off Discord, the terminal's, has no thread to owe it to).
                tell=("move", _enc.encode(g.state).decode()) if g.record.channel_id is not None else None,
            )
            if not saved:  # another process moved this game on: read it again and retry
                fresh = True
                continue
            before = g.state
            g.record.version += 1
            g.record.status = status
            g.record.deadline = deadline
            g.record.clock = clock
            g.state = new_state
            if user_id != SYSTEM_USER:
                await self._hand_back(game_id, g, acting)
            if finished:
                self.forget(game_id)
                outcome = rules.outcome(new_state)
                assert outcome is not None
                await self.queries.record_result(game_id, outcome, now)
            log.info("game %d: seat %s %s -> v%d", game_id, acting, type(todo).__name__, g.version)
            return self._moment(g, rules, events=tuple(events), actor=acting, action=todo, _before=before,
                                by_tabula=by_tabula or user_id == SYSTEM_USER)
        raise GameError(_("This game is very busy right now — please try again in a moment."))

    def _next_clock(self, rules: AnyRuleset, g: Loaded, new_state: object, free: bool, finished: bool,
                    now: float) -> Clock:
        """The turn clock after a move: it starts again when the turn moves on, and only then."""
        current = g.record.clock
        if finished:
            return Clock()
        if current.paused == HOST_PAUSED or free or rules.moment(new_state) == rules.moment(g.state):
            return current
        return fresh_clock(rules, new_state, g.seats, g.record.options, now)

    async def _hand_back(self, game_id: int, g: Loaded, seat: int) -> None:
        """A person acting for their own seat ends Tabula's run of clock plays there."""
        mine = next((s for s in g.seats if s.seat == seat), None)
        if mine is not None and mine.strikes:
            await self.queries.set_strikes(game_id, seat, 0)
            mine.strikes = 0

    async def _autoplay(self, game_id: int) -> list[GameMoment[Any]]:
        """Seats Tabula plays move now, one after another, until a person must act or the game ends."""
        done: list[GameMoment[Any]] = []
        for _turn in range(AUTO_LIMIT):
            g = await self._load(game_id)
            if g.record.status != "active" or not any(s.auto for s in g.seats):
                break
            rules = ruleset(g.record.ruleset)
            auto = sorted(s.seat for s in g.seats if s.auto and s.seat in rules.to_act(g.state))
            move = None
            for seat in auto:
                move = await self.thinker.choose(rules, g.state, seat, g.record.options,
                                                 g.record.seed ^ (g.version * 0x51ED27))
                if move is not None:
                    break
            if move is None:
                break
            try:
                # At the moment the move was chosen for: the cache may be older than a move another process
                # saved, and a move chosen for an older position must not be applied to the newer one.
                done.append(await self._act_locked(game_id, SYSTEM_USER, move, None, rules.moment(g.state), seat,
                                                   by_tabula=True, at_version=g.version))
            except StaleAction:
                continue  # the refusal read the game fresh: choose again from the position as stored
        return done

    def _check_playable(self, g: Loaded) -> None:
        status = g.record.status
        if status == "lobby":
            raise IllegalAction(_("This game has not started yet — the host presses **Start** in the lobby."))
        if status == "finished":
            raise GameOver(_("This game has ended. Start a new one with `/game new`."))
        if status == "abandoned":
            raise GameOver(_("This game was abandoned. Start a new one with `/game new`."))

    def _seat_of(self, g: Loaded, user_id: int) -> int:
        for s in g.seats:
            if s.user_id == user_id:
                return s.seat
        raise NotSeated(_("You are not playing in this game. You can watch, or start your own with `/game new`."))

    async def get(self, game_id: int, user_id: int | None = None) -> GameMoment[Any]:
        """The game as it stands (for `/game status`, `/sheet`), read fresh: another process may have moved it.

        Under the game's lock, so that a read never lands in the cache in the middle of this process's move.
        ``actor`` is the asking person's seat (None when they are not seated)."""
        async with self._locks(game_id):
            g = await self._load(game_id, fresh=True)
        if g.state is None:
            raise IllegalAction(_("This game has not started yet — the host presses **Start** in the lobby."))
        seat = None
        if user_id is not None:
            seat = next((s.seat for s in g.seats if s.user_id == user_id), None)
        return self._moment(g, ruleset(g.record.ruleset), actor=seat)

    async def choices(self, game_id: int, user_id: int, verb: str, arg: str,
                      filled: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
        """Autocomplete: the legal values of ``verb``'s ``arg`` for this person, labelled by the game's codec.
        Options already filled in narrow the list (a hero's sides once the hero is chosen)."""
        g = await self._load(game_id)
        if g.state is None or g.record.status != "active":
            return []
        seat = next((s.seat for s in g.seats if s.user_id == user_id), None)
        if seat is None:
            return []
        rules = ruleset(g.record.ruleset)
        return values_of(rules, g.state, seat, verb, arg, filled or {})

    # --- timeouts -----------------------------------------------------------------------------

    async def due(self, games: Collection[int] | None = None) -> list[GameMoment[Any]]:
        """Take Tabula's action in every game whose turn timeout has passed (only among ``games`` when given:
        the ones this process claimed); the results are to be posted."""
        results = []
        for game_id, version in await self.queries.due(self.clock()):
            if games is not None and game_id not in games:
                continue
            g = await self._load(game_id, fresh=True)
            rules = ruleset(g.record.ruleset)
            if g.state is not None and g.version == version and self._tabula_to_act(rules, g.state, g.seats):
                # A seat Tabula plays is to act, and the press that owed its move never made it (a crash).
                async with self._locks(game_id):
                    moves = await self._autoplay(game_id)
                if moves:
                    first, *rest = moves
                    first.followups = rest
                    results.append(first)
                    continue
                # Tabula's seat has nothing to do now: the turn's own timeout applies again (the seats are
                # left out of the reckoning, or the game would be due again at once).
                again = self._deadline(rules, g.state, g.record.options, self.clock())
                await self.queries.set_deadline(game_id, version, again)
                continue
            pending = rules.timeout(g.state) if g.state is not None else None
            if pending is None or g.version != version:
                continue
            seat, action = pending
            if not any(s.seat == seat and s.user_id > 0 for s in g.seats):
                continue  # a seat Tabula plays (or one left empty) has no clock of its own to run out
            try:
                async with self._locks(game_id):
                    first, *rest = await self._stand_in(game_id, g, rules, seat, action, version)
                    first.followups = [*rest, *await self._autoplay(game_id)]
                results.append(first)
            except GameError as err:  # someone acted in the meantime: nothing to do
                log.info("game %d: timeout skipped (%s)", game_id, err)
        return results

    async def _stand_in(self, game_id: int, g: Loaded, rules: AnyRuleset, seat: int, action: object,
                        version: int) -> list[GameMoment[Any]]:
        """Tabula plays a timed-out ``seat`` at the game's Tabula level.  At ``easy`` (or where the level does not
        search) that is the game's own timeout ``action``, as it always was.  Where it searches, the thinker
        chooses the seat's moves one by one (seeded per move, as ``_autoplay``'s), each saved and logged as its
        own action (a replay reads them and never searches), as far as the game's stand-in goes
        (``rules.ruleset.stands_in``: one move unless the game says more; none, and the game's own action is
        played, when there is nothing to choose or that action is itself chosen at the level).

        Every move is made only at the version it was chosen at: one made since (even one that leaves the rules'
        moment as it was, as one of several players acting at once does) means the player is there."""
        start, options = g.state, g.record.options
        searched = self.thinker.searches(rules, options) and not rules.meta(action).asks_tabula \
            and stands_in(rules, start, start, seat, 0)
        done: list[GameMoment[Any]] = []
        now, at = start, version
        while searched and len(done) < AUTO_LIMIT and (not done or stands_in(rules, start, now, seat, len(done))):
            move = await self.thinker.choose(rules, now, seat, options, g.record.seed ^ (at * 0x51ED27))
            if move is None:
                break
            try:
                moment = await self._act_locked(game_id, SYSTEM_USER, move, None, rules.moment(now), seat,
                                                by_tabula=True, at_version=at)
            except StaleAction:
                if done:  # the player came back between two of Tabula's moves: the seat is theirs again
                    break
                raise
            except GameError as err:  # the game refused the search's move: its own stand-in, a game never stalls
                log.warning("game %d: Tabula's searched move for seat %d refused (%s)", game_id, seat, err)
                break
            moment.stand_in_again = bool(done)
            done.append(moment)
            now, at = moment.state, moment.version
        if not done:
            done.append(await self._act_locked(game_id, SYSTEM_USER, action, None, rules.moment(start), seat,
                                               by_tabula=True, at_version=version))
        return done

    # --- history and replay -------------------------------------------------------------------

    async def history(self, game_id: int) -> list[ActionRow]:
        return await self.queries.history(game_id)

    async def replay(self, game_id: int) -> object:
        """Rebuild the state from the start and the log alone (setup with the seed, then every action)."""
        info = await self.lobby(game_id)
        rules = ruleset(info.ruleset)
        rows = await self.history(game_id)
        names = setup_names(rows, info.seats)
        state = rules.setup([SeatInfo(index=i, name=n) for i, n in enumerate(names)], info.options, info.seed).state
        for row in effective(rows):  # rolls never change the game; undone moves are gone
            action = msgspec.json.decode(row.action, type=rules.action_type)
            assert row.seat is not None
            state = rules.apply(state, row.seat, action).state
        return state


def values_of(rules: AnyRuleset, state: object, seat: int, verb: str, arg: str,
              filled: Mapping[str, str]) -> list[tuple[str, str]]:
    """The distinct values of one argument of a verb across the seat's legal actions, labelled (at most 25)."""
    codec = rules.codec
    seen: dict[str, str] = {}
    others = {k: v for k, v in filled.items() if k != arg and v}
    for action in rules.legal(state, seat):
        command = codec.encode(state, seat, action)
        if command.verb != verb:
            continue
        value = command.get(arg)
        if not value or value in seen:
            continue
        if any(command.get(k) and command.get(k).lower() != v.lower() for k, v in others.items()):
            continue
        seen[value] = codec.label(state, seat, command, arg)
    return [(label, value) for value, label in seen.items()][:25]

