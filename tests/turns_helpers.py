"""Whole games through the real `python -m bot` on the loopback Discord, played as people play: whoever must
act presses a control of the thread's prompt (or of the private panel its **Your hand** button opens).

Each press is checked and counted (issue 27):
  * pings: everyone the turn passed to is pinged exactly once; nobody who need not act is pinged; nobody
    still choosing (to act before the press and all through it) is pinged again;
  * Tabula never played a person's seat (no timeout fired while the person had time left);
  * every interaction was acknowledged within Discord's 3 s (the fake refuses a later answer, "Unknown
    interaction");
  * public messages, pictures, pings and REST requests by token, per decision (used by ``python -m bot.bench``).

Who must act is read as a player reads the thread; the checks read the truth from the database and replay
the action log (tests only), so that the states between a press's first and last move are known too."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from bot.ops.metrics import auth_of
from bot.service.gamelog import is_game_action, setup_names
from rules.core import Rng, SeatInfo, seed_state
from rules.registry import ruleset
from tests.fakediscord import FakeDiscord, StoredMessage, walk_components

ACK = 3.0  # Discord's limit for the first answer to an interaction
#: The whole games `python -m bot.bench --turns` plays: (label, game, options, people, Tabula seats).
TURN_GAMES: list[tuple[str, str, dict[str, Any], int, int]] = [
    ("Legend of Heroes, 2 people", "legend", {}, 2, 0),
    ("Legend of Heroes, 1 person + Tabula", "legend", {}, 1, 1),
    ("Champion, 2 people", "champion", {}, 2, 0),
    ("Champion, 2 people + Tabula", "champion", {"opponents": "bot"}, 2, 1),
    ("Heroes' Road short, 2 people", "eiyu", {"short": True}, 2, 0),
    ("Heroes' Road short, 2 + Tabula", "eiyu", {"short": True}, 2, 1),
    ("Autokrator, 2 realms", "autokrator", {"mode": "east"}, 2, 0),
    ("Autokrator, 4 realms (1 Tabula)", "autokrator", {"mode": "full"}, 3, 1)]


@dataclass
class GameCount:
    """One whole game's figures, and whatever went wrong in it."""

    label: str = ""
    decisions: int = 0  # moves in the log (people's and Tabula's)
    tabula: int = 0  # of which Tabula's own seats'
    presses: int = 0  # interactions that made a move
    messages: int = 0  # public messages posted (not ephemeral), start included
    pictures: int = 0  # pictures attached to them
    pinged: int = 0  # messages that ping someone
    pings: int = 0  # people pinged (one message pinging three counts three)
    bot: int = 0  # REST requests spent on the bot's token
    interaction: int = 0  # REST requests spent on interactions' own tokens
    late: int = 0  # interactions not acknowledged within 3 s ("Unknown interaction")
    slowest: float = 0.0  # seconds to the first answer, the slowest of the game
    seats_taken: int = 0  # moves Tabula made for a person's seat
    finished: bool = False
    problems: list[str] = field(default_factory=list)

    def per(self, value: int) -> float:
        return value / self.decisions if self.decisions else 0.0

    def add(self, other: GameCount) -> None:
        for name in ("decisions", "tabula", "presses", "messages", "pictures", "pinged", "pings", "bot",
                     "interaction", "late", "seats_taken"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.slowest = max(self.slowest, other.slowest)
        self.problems += other.problems

    def line(self) -> str:
        return (f"{self.label:<34} {self.decisions:4d} decisions ({self.tabula} Tabula's): "
                f"pings {self.per(self.pings):.2f}, public messages {self.per(self.messages):.2f}, "
                f"pictures {self.per(self.pictures):.2f}, bot-token {self.per(self.bot):.2f}, "
                f"interaction-token {self.per(self.interaction):.2f} per decision; "
                f"late answers {self.late}, slowest {self.slowest:.2f} s")


def rows(db: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(db, timeout=30)) as conn:
        return list(conn.execute(sql, args).fetchall())


@dataclass
class _Row:
    seq: int
    action: str


class Replay:
    """The game as the log tells it, move by move: who was to act after every stored version."""

    def __init__(self, db: Path, game_id: int) -> None:
        self.db, self.game_id = db, game_id
        key, options, seed = rows(db, "SELECT ruleset, options, seed FROM game WHERE id = ?", game_id)[0]
        self.rules = ruleset(key)
        self.options, self.seed = json.loads(options), int(seed)
        self.state: Any = None
        self.seq = 0
        self.to_act: dict[int, frozenset[int]] = {}  # version -> seats to act after it
        self.moved_for: dict[int, int] = {}  # version -> the seat Tabula moved there (its own, or a timeout's)

    def advance(self) -> list[int]:
        """Apply the log's new rows; returns the versions they made."""
        made = []
        found = rows(self.db, "SELECT seq, action, seat, user_id FROM action WHERE game_id = ? AND seq > ? "
                     "ORDER BY seq", self.game_id, self.seq)
        for seq, action, seat, user in found:
            if int(user) == 0 and seat is not None:
                self.moved_for[int(seq)] = int(seat)
            row = _Row(int(seq), str(action))
            if self.state is None:
                seats = rows(self.db, "SELECT seat, name FROM seat WHERE game_id = ? ORDER BY seat", self.game_id)
                names = setup_names([row], [_Seat(int(s), str(n)) for s, n in seats])
                self.state = self.rules.setup([SeatInfo(index=i, name=n) for i, n in enumerate(names)], self.options,
                                              self.seed).state
            elif is_game_action(row):
                decoded = msgspec.json.decode(row.action, type=self.rules.action_type)
                self.state = self.rules.apply(self.state, int(seat), decoded).state
            self.seq = row.seq
            over = self.rules.outcome(self.state) is not None
            self.to_act[row.seq] = frozenset() if over else frozenset(self.rules.to_act(self.state))
            made.append(row.seq)
        return made


@dataclass
class _Seat:
    seat: int
    name: str


class Table:
    """One game being played: its people, its thread, and what each press showed."""

    def __init__(self, fake: FakeDiscord, db: Path, people: list[dict[str, Any]], label: str, seed: int) -> None:
        self.fake, self.db, self.people = fake, db, people
        self.count = GameCount(label=label)
        self.rng = random.Random(seed)
        self.policy_rng = Rng(seed_state(seed))
        self.game_id = 0
        self.thread_id = 0
        self.replay: Replay | None = None
        self.seen: set[int] = set()  # messages already counted
        self.users: dict[int, int] = {}  # seat -> user id (people only)
        self.waiting: set[int] = set()  # seats pinged that have not acted since (what a player knows)

    # --- pressing ------------------------------------------------------------------------------------

    async def press(self, payload: dict[str, Any], *, timeout: float = 60.0) -> Any:
        """Dispatch an interaction and wait until the bot is quiet; the acknowledgement's delay is noted."""
        start = len(self.fake.requests)
        token = str(payload["token"])

        def refused() -> bool:  # answered too late: the fake said "Unknown interaction"
            return any(r.status == 404 and token in r.path for r in self.fake.requests[start:])

        def busy() -> bool:  # a telling still owed, or a deferred answer not delivered yet
            record = self.fake.interactions.get(token)
            if record is not None and record.callback_type == 5:
                original = self.fake.message(record.original_message_id) if record.original_message_id else None
                if original is not None and original.loading:
                    return True
            return self.owed()
        reply = await self.fake.interact(payload, timeout=timeout, quiet=0.08, busy=busy, give_up=refused)
        record = self.fake.interactions[reply.token]
        callbacks = [r for r in self.fake.requests[start:] if r.path.endswith("/callback") and record.token in r.path]
        if callbacks:
            first = callbacks[0]
            delay = first.at - record.dispatched_at
            self.count.slowest = max(self.count.slowest, delay)
            if first.status == 404 or delay > ACK:
                self.count.late += 1
                self.count.problems.append(f"{self.count.label}: an interaction was answered after {delay:.2f} s")
        else:
            self.count.late += 1
            self.count.problems.append(f"{self.count.label}: an interaction got no answer at all")
        return reply

    def owed(self) -> bool:
        """A telling is still owed to the thread (the press that made it is still drawing or posting it)."""
        return bool(rows(self.db, "SELECT COUNT(*) FROM outbox WHERE delivered_at IS NULL")[0][0])

    def _count_requests(self, start: int) -> None:
        for r in self.fake.requests[start:]:
            if auth_of(r.path) == "bot":
                self.count.bot += 1
            else:
                self.count.interaction += 1

    def new_public(self) -> list[StoredMessage]:
        """The thread's public messages not seen before."""
        out = []
        for m in self.fake.messages(self.thread_id) if self.thread_id else []:
            if m.id in self.seen or m.loading:
                continue
            self.seen.add(m.id)
            if not m.ephemeral:
                out.append(m)
        return out

    # --- the lobby ---------------------------------------------------------------------------------------

    async def open(self, key: str, options: dict[str, Any], tabulas: int) -> None:
        fake, host = self.fake, self.people[0]
        await self.press(fake.slash(host, fake.channel, "game", {"game": key, **options}, subcommand="new"))
        lobby = fake.messages(fake.channel)[-1]
        self.game_id = int(lobby.custom_ids[0].split(":")[2])
        for who in self.people[1:]:
            await self.press(fake.component(who, fake.message(lobby.id), f"tb:lobby:{self.game_id}:join"))
        for _ in range(tabulas):
            await self.press(fake.component(host, fake.message(lobby.id), f"tb:lobby:{self.game_id}:bot"))
        start = len(fake.requests)
        await self.press(fake.component(host, fake.message(lobby.id), f"tb:lobby:{self.game_id}:start"))
        self.thread_id = int(rows(self.db, "SELECT thread_id FROM game WHERE id = ?", self.game_id)[0][0])
        self.users = {int(s): int(u) for s, u in rows(self.db, "SELECT seat, user_id FROM seat WHERE game_id = ?",
                                                      self.game_id) if int(u) > 0}
        self.replay = Replay(self.db, self.game_id)
        self._after(start, before=frozenset(), actor=None)

    # --- one move ------------------------------------------------------------------------------------

    def _state(self) -> tuple[str, int, Any]:
        status, version, state = rows(self.db, "SELECT status, version, state FROM game WHERE id = ?",
                                      self.game_id)[0]
        assert self.replay is not None
        decoded = msgspec.json.decode(state, type=self.replay.rules.state_type) if state else None
        return str(status), int(version), decoded

    def _controls(self, message: StoredMessage, legal: set[str]) -> list[tuple[StoredMessage, str, str | None]]:
        """(message, custom id, select value) of every control of ``message`` that plays a legal command."""
        out: list[tuple[StoredMessage, str, str | None]] = []
        for comp in walk_components(message.components):
            cid = str(comp.get("custom_id", ""))
            if cid.startswith("tb:pick:"):
                out += [(message, cid, o["value"]) for o in comp.get("options", []) if o["value"] in legal]
            elif cid.startswith("tb:do:") and cid.split(":", 4)[4] in legal:
                out.append((message, cid, None))
        return out

    async def move(self) -> bool:
        """One person to act presses a control playing one of their legal moves; False once the game is over
        (or nobody can be played for by the controls)."""
        status, version, state = self._state()
        replay = self.replay
        assert replay is not None
        rules = replay.rules
        if status != "active":
            self.count.finished = status == "finished"
            return False
        people = sorted(s for s in rules.to_act(state) if s in self.users)
        if not people:
            self.count.problems.append(f"{self.count.label}: nobody to act at v{version}, game still running")
            return False
        self.rng.shuffle(people)
        for seat in people:
            user = next(p for p in self.people if int(p["id"]) == self.users[seat])
            moves = list(rules.legal(state, seat))
            legal = {rules.codec.encode(state, seat, a).encode() for a in moves}
            wanted = rules.policy(state, seat, self.policy_rng)
            best = rules.codec.encode(state, seat, wanted).encode() if wanted is not None else None
            prompts = [m for m in self.fake.messages(self.thread_id) if any(c.startswith("tb:") for c in m.custom_ids)]
            choices: list[tuple[StoredMessage, str, str | None]] = []
            for prompt in prompts[-1:]:
                choices += self._controls(prompt, legal)
                for view in [c for c in prompt.custom_ids if c.startswith("tb:view:")]:
                    if choices:
                        break
                    start = len(self.fake.requests)
                    panel = await self.press(self.fake.component(user, prompt, view))
                    self._count_requests(start)
                    shown = panel.original if panel.original is not None and panel.original.ephemeral else None
                    shown = shown or next((m for m in panel.followups if m.ephemeral), None)
                    if shown is not None:
                        choices += self._controls(shown, legal)
            if not choices:
                continue
            pick = next((c for c in choices if (c[2] or c[1].split(":", 4)[4]) == best), None) \
                or self.rng.choice(choices)
            message, cid, value = pick
            payload = self.fake.component(user, message, cid) if value is None else \
                self.fake.component(user, message, cid, component_type=3, values=[value])
            before = replay.to_act.get(replay.seq, frozenset())
            start = len(self.fake.requests)
            await self.press(payload)
            if self._state()[1] == version:
                self.count.problems.append(f"{self.count.label}: {value or cid} refused at v{version}")
                self._count_requests(start)
                continue
            self.count.presses += 1
            self._after(start, before=before, actor=seat)
            return True
        self.count.problems.append(f"{self.count.label}: no control plays a legal move at v{version} "
                                   f"(to act: {sorted(rules.to_act(state))})")
        return False

    def _after(self, start: int, *, before: frozenset[int], actor: int | None) -> None:
        """Count what a press posted and check its pings against the turn as the log tells it."""
        self._count_requests(start)
        assert self.replay is not None
        made = self.replay.advance()
        posted = self.new_public()
        self.count.messages += len(posted)
        self.count.pictures += sum(len(m.attachments) for m in posted)
        pinged: dict[int, int] = {}
        for m in posted:
            users = m.notified.users if m.notified is not None else frozenset()
            if users:
                self.count.pinged += 1
            for u in users:
                pinged[u] = pinged.get(u, 0) + 1
                self.count.pings += 1
        label = self.count.label
        for seq in made:
            row = rows(self.db, "SELECT user_id, seat, action FROM action WHERE game_id = ? AND seq = ?",
                       self.game_id, seq)[0]
            if is_game_action(_Row(seq, str(row[2]))):
                self.count.decisions += 1
                if int(row[0]) == 0:
                    if row[1] is not None and int(row[1]) in self.users:
                        self.count.seats_taken += 1
                        self.count.problems.append(f"{label}: Tabula played {self.users[int(row[1])]}'s seat "
                                                   f"at v{seq}")
                    else:
                        self.count.tabula += 1
        if not made:
            return
        final = self.replay.to_act[made[-1]]
        steady = before
        for seq in made:
            steady = steady & self.replay.to_act[seq]  # to act all through: still choosing, or going on
            if self.replay.moved_for.get(seq) in self.users:
                steady -= {self.replay.moved_for[seq]}  # a person Tabula moved for is away: pinged again
        if actor is not None:
            self.waiting.discard(actor)
        for seat, user in self.users.items():
            got = pinged.get(user, 0)
            if seat in final and seat not in steady:
                if got != 1:
                    self.count.problems.append(f"{label}: the turn passed to seat {seat} at v{made[-1]}, "
                                               f"pinged {got}x")
                self.waiting.add(seat)
            elif got:
                why = "still choosing" if seat in steady else "not to act"
                self.count.problems.append(f"{label}: seat {seat} pinged at v{made[-1]} ({why})")
            if seat not in final:
                self.waiting.discard(seat)


async def whole_game(fake: FakeDiscord, db: Path, key: str, options: dict[str, Any], people: list[dict[str, Any]],
                     tabulas: int = 0, *, seed: int = 1, label: str = "", most: int = 1500,
                     strict: bool = True) -> GameCount:
    """Open, play and count one whole game (or ``most`` presses of it; ``strict``: stop after 20 problems)."""
    table = Table(fake, db, people, label or key, seed)
    await table.open(key, {"seed": seed, **options}, tabulas)
    for _ in range(most):
        if not await table.move():
            break
        if strict and len(table.count.problems) > 20:
            break
    status = rows(db, "SELECT status FROM game WHERE id = ?", table.game_id)[0][0]
    table.count.finished = status == "finished"
    return table.count


def people_of(fake: FakeDiscord, n: int) -> list[dict[str, Any]]:
    """alice, bob, carol, then dave (added to the fake before the bot connects)."""
    out = [fake.alice, fake.bob, fake.carol]
    while len(out) < n:
        name = ["dave", "erin"][len(out) - 3]
        found = next((u for u in fake.users.values() if u.get("username") == name), None)
        out.append(found or fake.add_user(name))
    return out[:n]




__all__ = ["TURN_GAMES", "GameCount", "Replay", "Table", "people_of", "rows", "whole_game"]
