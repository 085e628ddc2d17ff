"""One person can try Champion alone: a game of one human and one Tabula seat, played to the end through the
service (``bot.service.play.GameService``), as the terminal's ``--tabula 1`` and the lobby's **Add Tabula** play it."""

from __future__ import annotations

import pytest

from bot.delivery.tellings import telling_now
from bot.service.play import GameService, Person
from bot.store.db import Database
from rules.core import Rng


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "opponents"), [(4, "players"), (9, "bot")])
async def test_one_person_and_a_tabula_seat_play_a_whole_game(db: Database, seed: int, opponents: str) -> None:
    svc = GameService(db)
    ann = Person(1, "Ann")
    info = await svc.create("champion", ann, options={"opponents": opponents}, seed=seed)
    await svc.add_tabula(info.game_id, ann.id)
    result = await svc.start(info.game_id, ann.id)
    rules = result.rules
    tabula = next(s.seat for s in result.seats if s.user_id != ann.id)
    rng = Rng(seed)
    commands = 0
    moments = [result, *result.followups]
    result = moments[-1]  # the game after Tabula's own moves
    while result.outcome is None:
        assert commands < 3000, "the game should end"
        state = result.state
        acting = rules.to_act(state)
        # Tabula's seat never keeps the person waiting: after their move it has played all it had to
        assert acting and tabula not in acting, (state.phase, acting)
        seat = min(acting)
        action = rules.policy(state, seat, rng)
        assert action is not None
        command = rules.codec.encode(state, seat, action)
        result = await svc.act(info.game_id, ann.id, command=command)  # typed, as Ann would
        commands += 1
        moments += [result, *result.followups]
        result = moments[-1]
    outcome = result.outcome
    assert outcome is not None and result.status == "finished"
    assert any(m.actor == tabula and m.by_tabula for m in moments)  # Tabula took its own turns
    final = result.state
    assert max(h.info for h in final.heroes) >= 5  # someone found a whole trail
    for moment in moments[-40:]:
        telling = telling_now(moment)
        assert telling.text.strip() not in ("", "—")
    assert "🏆" in telling_now(result).text
