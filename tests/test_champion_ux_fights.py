"""Champion fights with fewer round trips and a quieter thread: a card with no alternative is played at once
(and said so), a player may queue their throws for the rest of a fight, a hidden card is told as "plays a
card", nobody is pinged who just acted or who was already asked, and the map waits for the end of the action."""

from __future__ import annotations

import random

import pytest

from bot.present.base import SeatName
from bot.present.champion import PRESENTER
from bot.service.moment import moment_for
from bot.store.db import Database
from rules.champion import RULESET
from rules.champion.engine.combat import CARD_TYPES
from rules.champion.state import CardChosen, CardPlayed, Defend, State
from rules.core import SeatInfo
from tests.champion_helpers import fight_figures


def _games(seeds: range, players: int = 3):  # type: ignore[no-untyped-def]
    """Random whole games (opponents played by players), step by step."""
    for seed in seeds:
        rng = random.Random(seed)
        seats = [SeatInfo(i, f"P{i}") for i in range(players)]
        state: State = RULESET.setup(seats, {"opponents": "players"}, seed).state
        for _ in range(3000):
            if state.phase == "over":
                break
            seat = rng.choice(sorted(RULESET.to_act(state)))
            legal = list(RULESET.legal(state, seat))
            action = rng.choice(legal)
            step = RULESET.apply(state, seat, action)
            yield state, seat, action, step
            state = step.state


def test_a_queued_defence_throws_for_the_rest_of_the_fight() -> None:
    queued = 0
    for before, _seat, action, step in _games(range(6)):
        c = step.state.combat
        if isinstance(action, Defend) and action.order and c is not None:
            queued += 1
            order = c.hero_order if action.foe < 0 else c.foes[action.foe].order
            assert tuple(order) == action.order and set(order) <= set(CARD_TYPES)
        if c is not None and before.combat is not None:
            # once queued, that side never waits to throw a card down again in this fight
            assert not (c.step == "hero_defend" and c.hero_order), "the hero's queued order should answer"
            assert not (c.step == "foe_defend" and c.foes[c.target].order), "the queued order should answer"
    assert queued >= 3


@pytest.mark.slow
def test_a_card_with_no_alternative_is_played_at_once_and_said_so() -> None:
    seen = 0
    seats = [SeatName(i, 100 + i, f"P{i}") for i in range(3)]
    for before, seat, action, step in _games(range(4)):
        only = [e for e in step.events if isinstance(e, CardPlayed) and e.why == "only"]
        if not only:
            continue
        seen += 1
        moment = moment_for(RULESET, step.state, seats, events=step.events, actor=seat, action=action,
                            _before=before)
        assert "(the only choice, played at once)" in PRESENTER.telling(moment).text
    assert seen >= 5


@pytest.mark.slow
def test_a_hidden_card_is_told_as_plays_a_card_without_a_map_or_a_ping() -> None:
    seats = [SeatName(i, 100 + i, f"P{i}") for i in range(3)]
    told = 0
    for before, seat, action, step in _games(range(10)):
        if not any(isinstance(e, CardChosen) for e in step.events) or step.state.phase != "combat":
            continue
        moment = moment_for(RULESET, step.state, seats, events=step.events, actor=seat, action=action,
                            _before=before)
        telling = PRESENTER.telling(moment)
        if any(isinstance(e, CardPlayed) for e in step.events):
            continue  # the last card chosen turns every card over at once
        told += 1
        assert "plays a card" in telling.text and "face down" in telling.text
        assert not any(CARD_TYPES_NAMES[k] in telling.text for k in CARD_TYPES)
        assert not [p for p in telling.pictures if p.filename == "map.png"]
        assert telling.prompt is not None and telling.prompt.users == []
        assert "⏳ Still choosing: " in telling.text or " goes on: " in telling.text  # said, not pinged
    assert told >= 3


CARD_TYPES_NAMES = {"torso": "Torso", "head": "Head", "hand": "Hand", "leg": "Leg", "inspired": "Inspired"}


@pytest.mark.slow
async def test_fights_through_the_service_post_no_empty_message_and_one_map(db: Database) -> None:
    figures = await fight_figures(db, [1, 2, 3], players=3, opponents="players", fights=4)
    assert len(figures) >= 8 and any(f.foes > 1 for f in figures)
    for f in figures:
        assert f.dashes == 0
        assert f.maps <= 1  # the map comes once, when the fight (and so the action) is over
        assert f.pings <= f.messages
