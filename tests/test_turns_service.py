"""Tabula never takes the seat of a player who is there: the turn timeout fires only for a seat whose own clock
has run out, never because a seat Tabula plays was due (issue 27).  The service level, every game, with
Tabula's seats and people acting at the same time; the real process is in tests/test_turns_discord.py."""

from __future__ import annotations

import pytest

from bot.service.play import SYSTEM_USER, GameService, Person
from bot.store.db import Database
from rules import GameError
from rules.core import Rng, seed_state
from rules.registry import games

#: (game, people, Tabula seats, options): people and Tabula to act at once wherever a game has it
TABLES = [("autokrator", 3, 1, {"mode": "full"}), ("autokrator", 1, 1, {"mode": "east"}),
          ("champion", 2, 1, {}), ("champion", 1, 2, {"opponents": "bot"}), ("eiyu", 2, 1, {}),
          ("eiyu", 1, 2, {"short": True}), ("legend", 2, 1, {}), ("legend", 1, 1, {"mode": "expanded"})]


def _label(table: tuple[str, int, int, dict[str, object]]) -> str:
    return f"{table[0]}-{table[1]}p-{table[2]}t-{'-'.join(f'{k}' for k in table[3]) or 'default'}"


@pytest.mark.slow
@pytest.mark.parametrize("table", TABLES, ids=_label)
async def test_a_timeout_never_plays_for_a_person_who_has_time_left(db: Database,
                                                                    table: tuple[str, int, int, dict[str, object]]
                                                                    ) -> None:
    key, people, tabulas, options = table
    now = [1_000_000.0]
    svc = GameService(db, clock=lambda: now[0], turn_timeout_minutes=10)
    humans = [Person(100 + i, f"P{i}") for i in range(people)]
    for seed in range(3):
        info = await svc.create(key, humans[0], guild_id=1, options=dict(options), seed=seed)
        for p in humans[1:]:
            await svc.join(info.game_id, p)
        for _ in range(tabulas):
            await svc.add_tabula(info.game_id, humans[0].id)
        moment = await svc.start(info.game_id, humans[0].id)
        rules = games()[key]
        rng = Rng(seed_state(seed))
        for _step in range(60):
            now[0] += 1  # a second later: far inside the 10-minute timeout
            for timed in await svc.due():  # the sweep, as the bot runs it between presses
                for m in (timed, *timed.followups):
                    assert m.auto_seat, f"{key}: Tabula played {m.name_of(m.actor or 0)}'s seat 1 s after a move"
            moment = await svc.get(info.game_id)
            if moment.status != "active":
                break
            seated = {s.seat: s.user_id for s in moment.seats}
            acting = sorted(s for s in moment.to_act if seated[s] > 0)
            if not acting:
                break
            seat = acting[rng.below(len(acting))]
            move = rules.policy(moment.state, seat, rng) or next(iter(rules.legal(moment.state, seat)))
            try:
                await svc.act(info.game_id, seated[seat], move)
            except GameError:
                continue
        rows = await svc.history(info.game_id)
        humans_seats = {s.seat for s in (await svc.lobby(info.game_id)).seats if s.user_id > 0}
        timed_out = [r for r in rows if r.user_id == SYSTEM_USER and r.seat in humans_seats]
        assert not timed_out, f"{key}: Tabula played a person's seat {len(timed_out)} times"
