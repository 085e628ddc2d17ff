"""History, replay, export and stats of a game, transport-free (Discord's cog and the tests call these).

Everything is rebuilt from the stored log with the game's own engine: ``walk`` sets the game up with its seed
and options and applies the log row by row, keeping the state each move was taken in (so the codec can name
it as it was) and the state after it (so the presenter can draw it).  Undo rows take an earlier move back:
the walk then rebuilds the live state without it, exactly as ``bot.service.gamelog.effective`` reads the log, and the
move stays in the history, marked as taken back.  ``bot.ops.verify`` walks an exported log the same way and
compares the engine's events with the ones the file records.

What is hidden stays hidden while a game runs: a secret action (the game's ``meta(action).secret``) is told
only as "Ann made a secret choice", and an export of a running game leaves out the seed, secret actions and
every event of the game's own moves (the seam does not say which events are private, so none are exported
until the game ends); the table's rolls, told publicly when made, are kept.  Once a game has ended (finished or
abandoned: it can never be played on) everything is shown and exported.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import msgspec

from bot.present import presenter
from bot.present.base import Picture, SeatName
from bot.service.gamelog import UNDO, is_game_action, kind_of, setup_names
from bot.service.moment import GameMoment
from bot.store.models import Action as ActionRow
from bot.store.records import FinishedGame, GameFacts, RecordQueries
from rules import GameError, table
from rules.core import SeatInfo
from rules.i18n import N_, _, _n, _p
from rules.registry import AnyRuleset, game_text, ruleset

#: The export format's name and version (see ``bot.ops.verify`` for the format itself).
EXPORT_FORMAT = "tabula-game-log"
EXPORT_VERSION = 1
SYSTEM_USER = 0  # the user id the service logs for Tabula's own moves (bot.service.play.SYSTEM_USER)
PAGE_LINES = 15
PAGE_CHARS = 1750  # a page's lines: with its heading (under 200) it stays under Discord's 2,000 characters
LINE_CHARS = 180
ENDED = ("finished", "abandoned")
ROLL = "tabula.roll"

Kind = Literal["move", "roll", "undo", "abandon", "start", "other"]
_enc = msgspec.json.Encoder()


# --- the log, walked with the engine ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LogRow:
    """One row of the log as history, export and verify read it (``action`` and ``events`` are JSON text)."""

    seq: int
    user_id: int
    seat: int | None
    action: str
    events: str
    created_at: float = 0.0
    hidden: bool = False  # a secret move whose content a running game's export leaves out

    @classmethod
    def of(cls, row: ActionRow) -> LogRow:
        return cls(seq=row.seq, user_id=row.user_id, seat=row.seat, action=row.action, events=row.events,
                   created_at=row.created_at)


@dataclass(slots=True)
class Entry:
    """One row after the start: what it was, the state it was taken in and the state after it."""

    number: int  # 1 = the first row after the start (rolls and undos are numbered too)
    row: LogRow
    kind: Kind
    action: object | None = None
    before: Any = None
    after: Any = None
    engine: tuple[object, ...] | None = None  # the events the engine gives for it now (None: not computed)
    problem: str | None = None
    undone_by: int | None = None  # the number of the undo that took it back
    undoes: int | None = None  # for an undo: the number of the move it takes back


@dataclass(slots=True)
class Timeline:
    rules: AnyRuleset
    start: Any
    start_events: tuple[object, ...]
    entries: list[Entry]
    problems: list[str] = field(default_factory=list)  # the log's own shape: order, the start, undo targets

    @property
    def final(self) -> Any:
        return self.entries[-1].after if self.entries else self.start

    def after(self, number: int) -> Any:
        """The game as it stood after log entry ``number`` (0: the start)."""
        if number <= 0 or not self.entries:
            return self.start
        return self.entries[min(number, len(self.entries)) - 1].after

    def positions(self) -> list[int]:
        """The entries after which the board may have changed (the start, moves and undos; not rolls)."""
        return [0] + [e.number for e in self.entries if e.kind in ("move", "undo")]


def row_kind(row: LogRow) -> Kind:
    if row.hidden:
        return "move"
    kind = kind_of(row)
    if kind == ROLL:
        return "roll"
    if kind == UNDO:
        return "undo"
    if kind in ("start", "abandon"):
        return "start" if kind == "start" else "abandon"
    return "move" if is_game_action(row) else "other"


class Walker:
    """Replays a log with the engine, entry by entry; ``feed`` more rows as the log grows (``copy`` first when
    the walked timeline is shared: the log only grows, so a walk is resumed, never redone)."""

    def __init__(self, rules: AnyRuleset, seats: Sequence[SeatInfo], options: Mapping[str, object],
                 seed: int | None) -> None:
        self.rules, self.seed = rules, seed
        setup = rules.setup(list(seats), options, seed) if seed is not None else None
        self.start = setup.state if setup is not None else None
        self.start_events: tuple[object, ...] = tuple(setup.events) if setup is not None else ()
        self.state: Any = self.start
        self.live: list[tuple[Entry, Any]] = []  # the moves that stand now, each with the state it met now
        self.by_seq: dict[int, Entry] = {}
        self.entries: list[Entry] = []
        self.problems: list[str] = []
        self.start_seq: int | None = None

    def copy(self) -> Walker:
        twin = object.__new__(Walker)
        twin.rules, twin.seed, twin.start, twin.start_events = self.rules, self.seed, self.start, self.start_events
        twin.state, twin.start_seq, twin.problems = self.state, self.start_seq, list(self.problems)
        copies = {id(e): replace(e) for e in self.entries}  # entries change when a later undo takes one back
        twin.entries = [copies[id(e)] for e in self.entries]
        twin.live = [(copies[id(e)], s) for e, s in self.live]
        twin.by_seq = {k: copies[id(e)] for k, e in self.by_seq.items()}
        return twin

    def feed(self, rows: Sequence[LogRow]) -> Walker:
        replay = self.seed is not None
        for row in rows:
            if self.start_seq is None:
                self.start_seq = row.seq
                if row_kind(row) == "start":
                    continue
                self.problems.append("the log does not begin with the game's start")
                self.start_seq -= 1
            i = len(self.entries) + 1
            if row.seq != self.start_seq + i:
                self.problems.append(f"entry {i} is out of order (its sequence number is {row.seq}, expected "
                                     f"{self.start_seq + i})")
            entry = Entry(number=i, row=row, kind=row_kind(row), before=self.state)
            self.entries.append(entry)
            self.by_seq[row.seq] = entry
            if entry.kind == "start":
                entry.problem = "a second start in the middle of the log"
            elif entry.kind == "move":
                self.state = _move(self.rules, entry, self.state, self.live, replay=replay)
            elif entry.kind == "roll":
                _roll(entry, self.seed)
            elif entry.kind == "undo":
                self.state = _undo(self.rules, entry, self.state, self.live, self.by_seq, replay=replay)
            entry.after = self.state
        return self

    def timeline(self) -> Timeline:
        problems = list(self.problems)
        if self.start_seq is None:
            problems.append("the log does not begin with the game's start")
        return Timeline(rules=self.rules, start=self.start, start_events=self.start_events,
                        entries=list(self.entries), problems=problems)


def walk(rules: AnyRuleset, seats: Sequence[SeatInfo], options: Mapping[str, object], seed: int | None,
         rows: Sequence[LogRow]) -> Timeline:
    """Replay the log with the engine, entry by entry.  Never raises for a bad log: what does not fit is
    recorded as the entry's (or the timeline's) ``problem``.  With ``seed`` None (a running game's export)
    nothing can be replayed: the entries are only read and classified."""
    return Walker(rules, seats, options, seed).feed(rows).timeline()


def _move(rules: AnyRuleset, entry: Entry, state: Any, live: list[tuple[Entry, Any]], *, replay: bool) -> Any:
    row = entry.row
    if row.hidden:
        return state  # left out of a running game's export (a secret move)
    try:
        entry.action = msgspec.json.decode(row.action, type=rules.action_type)
    except (msgspec.DecodeError, msgspec.ValidationError) as err:
        entry.problem = f"the engine cannot read this action ({err})"
        return state
    if row.seat is None:
        entry.problem = "the move names no seat"
        return state
    if not replay:
        return state
    try:
        step = rules.apply(state, row.seat, entry.action)
    except GameError as err:
        entry.problem = f"the engine refuses this move here: {err}"
        return state
    entry.engine = tuple(step.events)
    live.append((entry, state))
    return step.state


def _roll(entry: Entry, seed: int | None) -> None:
    row = entry.row
    try:
        action = table.decode(row.action)
    except (msgspec.DecodeError, msgspec.ValidationError) as err:
        entry.problem = f"this roll cannot be read ({err})"
        return
    entry.action = action
    if seed is not None and row.seat is not None:
        try:
            entry.engine = table.apply(action, row.seat, seed, row.seq)
        except GameError as err:
            entry.problem = f"the table refuses this roll: {err}"


def _undo(rules: AnyRuleset, entry: Entry, state: Any, live: list[tuple[Entry, Any]], by_seq: Mapping[int, Entry],
          *, replay: bool) -> Any:
    try:
        target_seq = int(json.loads(entry.row.action)["undoes"])
    except (ValueError, KeyError, TypeError):
        entry.problem = "this take-back does not say which move it takes back"
        return state
    target = by_seq.get(target_seq)
    if target is None or target.kind != "move" or target.number >= entry.number:
        entry.problem = f"this take-back names entry {target_seq}, which is not an earlier move"
        return state
    if target.undone_by is not None:
        entry.problem = f"move {target.number} was already taken back"
        return state
    entry.undoes = target.number
    target.undone_by = entry.number
    if not replay:
        return state
    at = next((i for i, (e, _s) in enumerate(live) if e is target), None)
    if at is None:
        return state  # the move never applied (its problem is recorded): nothing to take back
    state = live[at][1]
    later = live[at + 1:]
    del live[at:]
    for again, _old in later:  # the moves after it stand: play them again on the state without it
        assert again.row.seat is not None
        try:
            step = rules.apply(state, again.row.seat, again.action)
        except GameError as err:
            entry.problem = f"after taking back move {target.number}, move {again.number} no longer fits: {err}"
            continue
        live.append((again, state))
        state = step.state
    return state


# --- reading a stored game ---------------------------------------------------------------------------------


@dataclass(slots=True)
class Game:
    """A stored game with its log walked: what history, replay and export read."""

    game_id: int
    guild_id: int | None
    rules: AnyRuleset
    status: str
    seed: int
    options: dict[str, object]
    seats: list[SeatName]
    rows: list[LogRow]
    timeline: Timeline
    facts: GameFacts
    walker: Walker

    @property
    def ended(self) -> bool:
        return self.status in ENDED

    @property
    def title(self) -> str:
        return f"{game_text(self.rules.spec.key, self.rules.spec.title)} · #{self.game_id}"

    def name_of(self, seat: int | None) -> str:
        return next((s.name for s in self.seats if s.seat == seat), _("someone"))

    def is_tabula(self, seat: int | None) -> bool:
        return any(s.seat == seat and s.user_id < 0 for s in self.seats)


class Records:
    """History, replay and export of stored games, and the server's stats.  Walked logs are kept for a few
    games (keyed by the log's length and last row: the log only grows, so a key never goes stale)."""

    def __init__(self, sessions: Any, *, keep: int = 4) -> None:
        self.queries = RecordQueries(sessions)
        self._walked: OrderedDict[tuple[int, int, int], Game] = OrderedDict()
        self._keep = keep
        self._lines: OrderedDict[tuple[int, int, int, bool], list[str]] = OrderedDict()

    async def game(self, game_id: int, guild_id: int | None) -> Game:
        """The game, walked (it must belong to ``guild_id`` and have started), or a polite refusal."""
        facts = await self.queries.facts(game_id)
        if facts is None or facts.game.guild_id != guild_id:
            raise GameError(_("There is no game #{number} in this server. `/game list` shows the ones here.",
                              number=game_id))
        if facts.game.status == "lobby":
            raise GameError(_("Game #{number} has not started yet, so it has no moves to show.", number=game_id))
        rows = [LogRow.of(r) for r in await self.queries.log(game_id)]
        key = (game_id, len(rows), rows[-1].seq if rows else 0)
        found = self._walked.get(key)
        if found is not None and found.status == facts.game.status:
            self._walked.move_to_end(key)
            return found
        earlier = next((w for k, w in reversed(self._walked.items()) if k[0] == game_id and k[1] < len(rows)), None)
        made = await asyncio.to_thread(build, facts, rows, earlier)  # the engine replays the log: off the loop
        self._walked[key] = made
        while len(self._walked) > self._keep:
            self._walked.popitem(last=False)
        return made

    async def lines(self, game: Game) -> list[str]:
        """The game's history lines (named by its codec in a worker thread; kept for a few dozen games)."""
        key = (game.game_id, len(game.rows), game.rows[-1].seq if game.rows else 0, game.ended)
        found = self._lines.get(key)
        if found is None:
            found = await asyncio.to_thread(history_lines, game)
            self._lines[key] = found
            while len(self._lines) > 64:
                self._lines.popitem(last=False)
        return found

    async def stats(self, guild_id: int | None, user_id: int, ruleset_key: str | None = None) -> list[Tally]:
        return tally_player(await self.queries.finished(guild_id, ruleset_key, user_id), user_id)

    async def leaderboard(self, guild_id: int | None, ruleset_key: str, minimum: int) -> list[Standing]:
        return standings(await self.queries.finished(guild_id, ruleset_key), minimum)


def build(facts: GameFacts, rows: list[LogRow], resume: Game | None = None) -> Game:
    """Walk a stored game's log; with ``resume`` (the same game walked when its log was shorter), only the
    rows logged since are played."""
    g = facts.game
    assert g.id is not None
    rules = ruleset(g.ruleset)
    options = json.loads(g.options or "{}")
    seats = [SeatName(s.seat, s.user_id, s.name) for s in facts.seats]
    if resume is not None and resume.rows == rows[:len(resume.rows)]:
        walker = resume.walker.copy().feed(rows[len(resume.rows):])
    else:
        # The names the game was set up with (a seat may have changed hands since): replay must start there.
        named = [SeatInfo(index=i, name=n) for i, n in enumerate(setup_names(rows, facts.seats))]
        walker = Walker(rules, named, options, g.seed).feed(rows)
    return Game(game_id=g.id, guild_id=g.guild_id, rules=rules, status=g.status, seed=g.seed, options=options,
                seats=seats, rows=rows, timeline=walker.timeline(), facts=facts, walker=walker)


# --- history -------------------------------------------------------------------------------------------------


def describe(rules: AnyRuleset, state: Any, seat: int, action: object) -> str:
    """The game's own words for an action, in the state it was taken in (the codec's label)."""
    codec = rules.codec
    try:
        command = codec.encode(state, seat, action)
    except GameError:
        return type(action).__name__
    try:
        return codec.label(state, seat, command)
    except GameError:
        return command.typed()


def public_words(rules: AnyRuleset, state: Any, seat: int, action: object, *, reveal: bool) -> str | None:
    """What a public line may say of a move: the game's own words for it (``describe``), or None for a secret
    move while the game runs — its words are for its player alone, and every public line (history, replay,
    an undo in the thread) says only that a secret choice was made, as the move's own telling did."""
    if not reveal and rules.meta(action).secret:
        return None
    return describe(rules, state, seat, action)


def dice_of(events: object) -> str:
    """Rolls among a move's logged events (JSON objects), shown with their result: any event that carries
    ``dice`` and ``total``."""
    shown = []
    for e in events if isinstance(events, list) else []:
        if not isinstance(e, dict):
            continue
        dice, total = e.get("dice"), e.get("total")
        if isinstance(dice, list) and isinstance(total, int):
            faces = " + ".join(f"[{', '.join(map(str, d))}]" for d in dice if isinstance(d, list) and d)
            shown.append(f"🎲 {faces} → **{total}**" if faces else f"🎲 **{total}**")
    return " ".join(shown)


def _events(entry: Entry) -> object:
    """The events the log recorded for an entry (what happened then, as told then)."""
    try:
        return json.loads(entry.row.events)
    except ValueError:
        return []


#: What the history says of an entry it cannot name.
UNREADABLE = N_("an entry Tabula cannot read")


def history_lines(game: Game) -> list[str]:
    """One readable line per log entry after the start: "12. Ann — D7, beside the Guard Room"."""
    reveal = game.ended
    rules = game.rules
    out: list[str] = []
    for e in game.timeline.entries:
        row = e.row
        who = game.name_of(row.seat)
        by_tabula = row.user_id == SYSTEM_USER
        if e.kind == "move" and e.action is not None and row.seat is not None:
            words = public_words(rules, e.before, row.seat, e.action, reveal=reveal)
            if words is None:
                text = _("{name} made a secret choice", name=who)
            else:
                text = f"{who} — {words}"
                rolled = dice_of(_events(e))
                if rolled:
                    text += f" {rolled}"
            if by_tabula and game.is_tabula(row.seat):
                text = "🤖 " + text
            elif by_tabula:
                text = "⏱ " + text + _(" (time ran out: Tabula played)")
        elif e.kind == "roll" and isinstance(e.action, table.TableRoll):
            text = _("{name} rolled `{expr}`", name=who, expr=e.action.expr)
            rolled = dice_of(_events(e))
            text += f": {rolled}" if rolled else ""
        elif e.kind == "undo":
            text = _("↩ {name} took back move {move}", name=who, move=e.undoes) if e.undoes else \
                _("↩ {name} took a move back", name=who)
        elif e.kind == "abandon":
            text = _("The game was abandoned.")
        else:
            text = f"{who} — {kind_of(row) or _(UNREADABLE)}"
        line = f"{e.number}. {text}"
        if len(line) > LINE_CHARS:
            line = line[:LINE_CHARS - 1] + "…"
        if e.undone_by is not None:
            line = f"~~{line}~~" + _(" (taken back)")
        out.append(line)
    return out


@dataclass(slots=True)
class Page:
    text: str
    start: int  # the index of its first line (entry ``start + 1``)
    end: int  # one past its last line
    previous: int | None  # where the page before it starts (None: this is the first)
    next: int | None  # where the page after it starts (None: this is the last)


def _fits(lines: Sequence[str], per_page: int, limit: int) -> bool:
    return len(lines) <= per_page and sum(len(x) + 1 for x in lines) <= limit


def forward(lines: Sequence[str], start: int, per_page: int = PAGE_LINES, limit: int = PAGE_CHARS) -> int:
    """Where a page that begins at ``start`` ends: as many lines as fit (always at least one)."""
    end = start + 1
    while end < len(lines) and _fits(lines[start:end + 1], per_page, limit):
        end += 1
    return min(end, len(lines))


def backward(lines: Sequence[str], end: int, per_page: int = PAGE_LINES, limit: int = PAGE_CHARS) -> int:
    """Where a page that ends just before ``end`` begins: as many lines as fit (always at least one)."""
    start = end - 1
    while start > 0 and _fits(lines[start - 1:end], per_page, limit):
        start -= 1
    return max(start, 0)


def pages(lines: Sequence[str], per_page: int = PAGE_LINES, limit: int = PAGE_CHARS) -> list[list[str]]:
    """Lines packed into pages of at most ``per_page`` lines and ``limit`` characters, from the first."""
    out: list[list[str]] = []
    start = 0
    while start < len(lines):
        end = forward(lines, start, per_page, limit)
        out.append(list(lines[start:end]))
        start = end
    return out


def history_page(game: Game, lines: Sequence[str], start: int | None = None) -> Page:
    """The page of the history that begins at line ``start`` (entry ``start + 1``); by default the newest
    moves.  A finished game's last page ends with its result."""
    shown = list(lines)
    if game.status == "finished":
        outcome = game.rules.outcome(game.timeline.final)
        if outcome is not None:
            shown.append(f"🏆 {outcome.summary}"[:LINE_CHARS])
    if not shown:
        return Page(text=_("**{game}** — no moves yet.", game=game.title), start=0, end=0, previous=None, next=None)
    newest = backward(shown, len(shown))
    first = newest if start is None or start >= len(lines) else max(0, start)
    end = forward(shown, first)
    state = _p("status", "running") if game.status == "active" else _p("status", game.status)
    upto = min(end, len(lines))
    span = _("entries {first}–{last} of {total}", first=first + 1, last=upto, total=len(lines)) if upto > first \
        else _("all {total} entries", total=len(lines))
    head = _("**{game}** — history, {span} (game {state})", game=game.title, span=span, state=state)
    return Page(text=head + "\n" + "\n".join(shown[first:end]), start=first, end=end,
                previous=backward(shown, first) if first > 0 else None, next=end if end < len(shown) else None)


# --- replay ------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Frame:
    text: str
    pictures: list[Picture]
    number: int  # the entry shown (0: the start)
    first: int
    previous: int
    next: int
    last: int


def frame(game: Game, lines: Sequence[str], number: int | None = None) -> Frame:
    """The board as it stood after log entry ``number`` (by default the newest), drawn by the game's presenter
    from the public view.  Blocking (Pillow): call it from a worker thread."""
    tl = game.timeline
    positions = tl.positions()
    if number is None:
        number = positions[-1]
    number = max(0, min(number, len(tl.entries)))
    shown = max(p for p in positions if p <= number)
    at = positions.index(shown)
    state = tl.after(shown)
    last = shown == positions[-1]
    moment = GameMoment(game_id=game.game_id, rules=game.rules, _state=state, seats=game.seats,
                        status=game.status if last else "active", options=dict(game.options))
    telling = presenter(game.rules.spec.key).status(moment).drawn()
    caption = _("**{game}** — replay, the board after the start", game=game.title) if shown == 0 else \
        _("**{game}** — replay, the board after move {move} of {moves}", game=game.title, move=shown,
          moves=len(tl.entries))
    if shown:
        caption += "\n" + lines[shown - 1]
    text = f"{caption}\n{telling.text}"
    if len(text) > PAGE_CHARS:
        text = text[:PAGE_CHARS - 1] + "…"
    return Frame(text=text, pictures=telling.pictures, number=shown, first=positions[0],
                 previous=positions[max(at - 1, 0)], next=positions[min(at + 1, len(positions) - 1)],
                 last=positions[-1])


# --- export ---------------------------------------------------------------------------------------------------


def export(game: Game, *, now: float) -> dict[str, Any]:
    """The game's log as the export format (``bot.ops.verify`` documents it); what is hidden stays out while the game
    runs."""
    reveal = game.ended
    rules = game.rules
    rows: list[dict[str, Any]] = []
    for i, row in enumerate(game.rows):
        kind = row_kind(row)
        entry = game.timeline.entries[i - 1] if i and i - 1 < len(game.timeline.entries) else None
        secret = bool(kind == "move" and entry is not None and entry.action is not None
                      and rules.meta(entry.action).secret)
        if row.user_id == SYSTEM_USER:
            by = "tabula" if game.is_tabula(row.seat) else ("timeout" if row.seat is not None else "tabula")
        else:
            by = "player" if row.seat is not None else "person"
        item: dict[str, Any] = {"seq": row.seq, "kind": kind, "seat": row.seat, "by": by, "at": row.created_at}
        if reveal or kind in ("roll", "undo", "abandon"):
            item["action"] = json.loads(row.action)
            item["events"] = json.loads(row.events)
        elif kind == "start":
            item["action"], item["events"] = json.loads(row.action), None
        else:
            item["action"] = None if secret else json.loads(row.action)
            item["events"] = None
        if secret:
            item["secret"] = True
        rows.append(item)
    g = game.facts.game
    state_hash = hashlib.sha256((g.state or "").encode()).hexdigest() if reveal else None
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": now,
        "game": {
            "id": game.game_id, "ruleset": rules.spec.key, "title": rules.spec.title, "status": game.status,
            "complete": reveal, "options": game.options,
            "seats": [{"seat": s.seat, "name": s.name, "tabula": s.user_id < 0} for s in game.seats],
            "seed": game.seed if reveal else None,
            "seed_sha256": hashlib.sha256(str(game.seed).encode()).hexdigest(),
            "state_sha256": state_hash,
            "result": json.loads(g.result) if g.result and reveal else None,
            "created_at": g.created_at, "finished_at": g.finished_at,
        },
        "log": rows,
    }


def export_bytes(game: Game, *, now: float) -> bytes:
    return json.dumps(export(game, now=now), ensure_ascii=False, indent=1).encode()


# --- stats ---------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Tally:
    """One person's record in one game (or, with ``ruleset`` "", across all of them)."""

    ruleset: str
    played: int = 0
    won: int = 0
    moves: int = 0
    days: float = 0.0

    @property
    def rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def average_moves(self) -> float:
        return self.moves / self.played if self.played else 0.0

    @property
    def average_days(self) -> float:
        return self.days / self.played if self.played else 0.0


@dataclass(slots=True)
class Standing:
    user_id: int
    played: int
    won: int

    @property
    def rate(self) -> float:
        return self.won / self.played if self.played else 0.0


def winners_of(game: FinishedGame) -> set[int]:
    """The people (never Tabula's seats) who won a finished game."""
    try:
        seats = json.loads(game.result or "{}").get("winners", [])
    except ValueError:
        return set()
    return {game.seats[int(s)] for s in seats if int(s) in game.seats and game.seats[int(s)] > 0}


def tally_player(finished: Sequence[FinishedGame], user_id: int) -> list[Tally]:
    """A person's finished games per game (in the order the games are registered), then the total."""
    per: dict[str, Tally] = {}
    total = Tally(ruleset="")
    for g in finished:
        if user_id not in g.seats.values():
            continue
        won = user_id in winners_of(g)
        days = max(g.finished_at - g.started_at, 0.0) / 86400
        for t in (per.setdefault(g.ruleset, Tally(ruleset=g.ruleset)), total):
            t.played += 1
            t.won += int(won)
            t.moves += g.moves
            t.days += days
    return [*per.values(), total] if per else []


def standings(finished: Sequence[FinishedGame], minimum: int) -> list[Standing]:
    """People with at least ``minimum`` finished games: best win rate first, then most wins, then most games."""
    played: dict[int, int] = {}
    won: dict[int, int] = {}
    for g in finished:
        people = {u for u in g.seats.values() if u > 0}
        for u in people:
            played[u] = played.get(u, 0) + 1
        for u in winners_of(g):
            won[u] = won.get(u, 0) + 1
    rows = [Standing(u, n, won.get(u, 0)) for u, n in played.items() if n >= max(minimum, 1)]
    return sorted(rows, key=lambda s: (-s.rate, -s.won, -s.played, s.user_id))


def stats_text(tallies: Sequence[Tally], who: str) -> str:
    if not tallies:
        return _("{name} has not finished a game in this server yet (abandoned games do not count).", name=who)
    lines = [_("**{name}** — finished games in this server (abandoned games do not count)", name=who)]
    for t in tallies:
        name = game_text(t.ruleset, ruleset(t.ruleset).spec.title) if t.ruleset else _("All games")
        bold = "**" if not t.ruleset else ""
        lines.append(_("{game}: {played} played, {won} won ({rate}) · on average {moves} moves over {time}",
                       game=f"{bold}{name}{bold}", played=t.played, won=t.won, rate=f"{t.rate:.0%}",
                       moves=f"{t.average_moves:.0f}", time=_days(t.average_days)))
    if len(tallies) == 2:
        lines.pop()  # one game only: the total says the same again
    return "\n".join(lines)


def leaderboard_text(title: str, rows: Sequence[Standing], minimum: int, limit: int = 20) -> str:
    if not rows:
        return _n("**{game}** — nobody has finished {n} game in this server yet. (Set a lower minimum with "
                  "`min_games:`.)", "**{game}** — nobody has finished {n} games in this server yet. (Set a lower "
                  "minimum with `min_games:`.)", minimum, game=title)
    lines = [_n("**{game}** — leaderboard (at least {n} finished game)",
                "**{game}** — leaderboard (at least {n} finished games)", minimum, game=title)]
    for rank, s in enumerate(rows[:limit], 1):
        lines.append(_("{rank}. {who} — {won} won of {played} ({rate})", rank=rank, who=f"<@{s.user_id}>",
                       won=s.won, played=s.played, rate=f"{s.rate:.0%}"))
    if len(rows) > limit:
        lines.append(_("…and {more} more.", more=len(rows) - limit))
    return "\n".join(lines)


def _days(days: float) -> str:
    if days < 1 / 1440:
        return _("under a minute")
    if days < 1 / 24:
        return _("{minutes} minutes", minutes=f"{days * 1440:.0f}")
    if days < 1:
        return _("{hours} hours", hours=f"{days * 24:.1f}")
    return _("{days} days", days=f"{days:.1f}")
