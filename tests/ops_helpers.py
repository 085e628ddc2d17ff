"""Playing games through the loopback Discord by their controls, counting the REST requests each move makes
(used by tests/test_ops_rest.py and by ``python -m bot.bench``)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.metrics import auth_of
from tests.fakediscord import FakeDiscordHarness, RecordedRequest
from tests.tabula_harness import uid


@dataclass
class MoveCount:
    """Requests a move made: by token kind, and by route (method and path shape) for the bot's own."""

    moves: int = 0
    bot: int = 0
    interaction: int = 0
    routes: Counter[str] = field(default_factory=Counter)

    def add(self, requests: list[RecordedRequest]) -> None:
        self.moves += 1
        for r in requests:
            if auth_of(r.path) == "bot":
                self.bot += 1
                self.routes[f"{r.method} {shape(r.path)}"] += 1
            else:
                self.interaction += 1

    @property
    def bot_per_move(self) -> float:
        return self.bot / self.moves if self.moves else 0.0

    @property
    def interaction_per_move(self) -> float:
        return self.interaction / self.moves if self.moves else 0.0


def shape(path: str) -> str:
    """``/channels/123/messages/456`` → ``/channels/{id}/messages/{id}``."""
    return "/".join("{id}" if part.isdigit() else part for part in path.split("/"))


async def open_game(h: FakeDiscordHarness, key: str, **options: Any) -> Any:
    """A lobby for ``key`` joined by bob (and carol when two are not enough), started; returns its thread."""
    await h.slash(h.alice, h.channel, "game", {"game": key, **options}, subcommand="new")
    lobby = h.messages()[-1]
    for who in (h.bob, h.carol):
        lobby = h.fake.message(lobby.id)
        join = next((c for c in lobby.custom_ids if c.endswith(":join")), None)
        if join is not None:
            await h.click(who, lobby, join)
        lobby = h.fake.message(lobby.id)
        start = next(c for c in lobby.custom_ids if c.endswith(":start"))
        before = len(h.threads())
        reply = await h.click(h.alice, lobby, start)
        if len(h.threads()) > before:
            return h.threads()[-1]
        if not reply.ephemeral:
            break
    raise AssertionError(f"could not start a game of {key}")


def _playable(message: Any) -> tuple[list[str], list[str]]:
    ids = message.custom_ids
    return [c for c in ids if c.startswith("tb:pick:")], [c for c in ids if c.startswith("tb:do:")]


async def play_by_controls(h: FakeDiscordHarness, thread: Any, moves: int, count: MoveCount,
                           rng: random.Random) -> int:
    """Play up to ``moves`` moves as the players the newest prompt pings, by its controls (a menu entry, a
    button that plays a command) or, when it only offers a private panel ("Your hand"), by that panel's
    controls; count each move's requests (opening a panel is not a move).  Returns the moves made (fewer when
    the game ends or stops offering controls)."""
    people = {uid(p): p for p in (h.alice, h.bob, h.carol)}
    svc = h.bot.service
    game_id = await svc.game_in_thread(thread.id)
    made = stuck = 0
    while made < moves and stuck < 6:
        prompts = [m for m in h.messages(thread.id) if m.custom_ids]
        pinged = [u for u in prompts[-1].pings.users if u in people] if prompts else []
        if not pinged:
            return made
        who = people[rng.choice(pinged)]
        target = prompts[-1]
        picks, does = _playable(target)
        if not picks and not does:
            views = [c for c in target.custom_ids if c.startswith("tb:view:")]
            if not views:
                return made
            panel = await h.click(who, target, views[0])
            if panel.original is None:
                stuck += 1
                continue
            target = panel.original
            picks, does = _playable(target)
            if not picks and not does:
                stuck += 1
                continue
        version = (await svc.get(game_id)).version
        before = len(h.fake.requests)
        if picks and (not does or rng.random() < 0.7):
            select = rng.choice(picks)
            options = [o["value"] for o in target.component(select)["options"]]
            await h.select(who, target, select, [rng.choice(options)])
        else:
            await h.click(who, target, rng.choice(does))
        if (await svc.get(game_id)).version == version:
            stuck += 1  # refused: not a move
            continue
        stuck = 0
        count.add(h.fake.requests[before:])
        made += 1
    return made


__all__ = ["MoveCount", "open_game", "play_by_controls", "shape"]
