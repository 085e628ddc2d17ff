"""Random play of whole games: nothing but a GameError is ever raised, every game ends with a winner,
the invariants hold after every step, and replaying the actions from the seed rebuilds the state exactly."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core import GameError, SeatInfo
from rules.legend.board import board
from rules.legend.content import card_index
from rules.legend.ruleset import LegendRuleset
from rules.legend.state import SOLO_WOUND_LIMIT, Move, Narrate, Place, State
from rules.legend.telling import tell
from tests.legend_helpers import public

RULES = LegendRuleset()
MAX_STEPS = 4000


def junk_action(rng: random.Random) -> Any:
    doorway = rng.choice([*board().doorways, "D0", "X9", ""])
    return rng.choice([Move(to=doorway), Place(to=doorway), Narrate(text="hello")])


def check_invariants(state: State) -> None:
    seen = [p.doorway for p in state.players if p.doorway]
    assert len(seen) == len(set(seen)), "two fighters on one doorway"
    index = card_index()
    on_rooms = [c for stack in state.rooms.values() for c in stack]
    kept = [c for p in state.players for c in p.treasure]
    in_piles = [c for pile in state.piles.values() for c in pile]
    discarded = [c for pile in state.discards.values() for c in pile]
    in_hand = []
    if state.exploring:
        in_hand = list(state.exploring.used) + ([state.exploring.pending] if state.exploring.pending else [])
    everything = on_rooms + kept + in_piles + discarded + in_hand
    assert sorted(everything) == sorted(index), "a card was lost or duplicated"
    if state.mode == "solo":
        assert state.players[0].wounds <= SOLO_WOUND_LIMIT


def play(players: int, narration: str, seed: int) -> tuple[State, list[tuple[int, Any]], State]:
    seats = [SeatInfo(index=i, name=f"P{i}") for i in range(players)]
    options = {"narration": narration, "mode": "solo" if players == 1 else "starter"}
    start = RULES.setup(seats, options, seed).state
    state = start
    rng = random.Random(seed)
    log: list[tuple[int, Any]] = []
    for _ in range(MAX_STEPS):
        if RULES.outcome(state) is not None:
            break
        acting = sorted(RULES.to_act(state))
        assert acting, "nobody can act in an unfinished game"
        seat = rng.choice(acting)
        if rng.random() < 0.1:  # a wrong move now and then: only a GameError may come back
            wrong_seat = rng.randrange(players)
            junk = junk_action(rng)
            try:
                step = RULES.apply(state, wrong_seat, junk)
            except GameError:
                pass
            else:  # by chance a legal move after all
                log.append((wrong_seat, junk))
                state = step.state
                tell(public(state), step.events)
                continue
        legal = RULES.legal(state, seat)
        assert legal, f"seat {seat} must act but has nothing legal in phase {state.phase}"
        action = rng.choice(legal)
        if isinstance(action, Narrate):
            action = Narrate(text=rng.choice(["", "A tale told well."]), auto=rng.random() < 0.2)
        step = RULES.apply(state, seat, action)
        log.append((seat, action))
        tell(public(step.state), step.events)  # the story never fails to tell
        state = step.state
        check_invariants(state)
    return start, log, state


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=1, max_value=5), narration=st.sampled_from(["bot", "players"]),
       seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_random_games_end_with_a_winner(players: int, narration: str, seed: int) -> None:
    start, log, final = play(players, narration, seed)
    outcome = RULES.outcome(final)
    assert outcome is not None, "the game did not end"
    assert outcome.winners and max(outcome.scores.values()) == outcome.scores[outcome.winners[0]]
    if players == 1:
        assert final.players[0].wounds == SOLO_WOUND_LIMIT or all(not s for s in final.rooms.values())
    else:
        assert all(not stack for stack in final.rooms.values())
    # Replay: the same seed and the same actions give exactly the same state.
    state = start
    for seat, action in log:
        state = RULES.apply(state, seat, msgspec.json.decode(msgspec.json.encode(action),
                                                             type=RULES.action_type)).state
    assert msgspec.json.encode(state) == msgspec.json.encode(final)


def test_setup_is_deterministic_for_a_seed() -> None:
    seats = [SeatInfo(0, "A"), SeatInfo(1, "B")]
    a = RULES.setup(seats, {}, 99).state
    b = RULES.setup(seats, {}, 99).state
    c = RULES.setup(seats, {}, 100).state
    assert msgspec.json.encode(a) == msgspec.json.encode(b)
    assert msgspec.json.encode(a) != msgspec.json.encode(c)
