"""Random play of whole Champion of the Empire games: nothing but a GameError is ever raised, every game ends
with a champion, the invariants hold after every step, and replaying the actions rebuilds the state exactly.

The random player leans towards progress (it heads for its lair once it knows it, attacks there, and
learns lore when it can) so that a game ends in a few hundred rounds; every move it makes is still drawn
from ``legal``, and the opponents' players (opponents: players) choose at random among their legal moves.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.champion import auto
from rules.champion.content import library
from rules.champion.engine import Engine
from rules.champion.engine.combat import all_cards
from rules.champion.ruleset import ChampionRuleset
from rules.champion.state import (
    Attack,
    Buy,
    Caravan,
    Choose,
    Commission,
    Develop,
    Drop,
    Explore,
    Keep,
    Lore,
    Pick,
    Play,
    State,
    Voyage,
)
from rules.core import GameError, SeatInfo

RULES = Engine()
VIEWS = ChampionRuleset(RULES)
LIB = library()
MAX_STEPS = 30000
PLAIN, ARMED = all_cards(LIB)


def junk(rng: random.Random) -> Any:
    place = rng.choice([*LIB.province, "atlantis", ""])
    return rng.choice([
        Caravan(to=place), Explore(path=(place, place)), Voyage(to=place), Commission(reward="fame"), Lore(),
        Attack(), Buy(item="theriac"), Drop(item="pilum"), Choose(option="9"), Develop(attribute="luck"),
        Play(card="torso", target=5), Keep(cards=("head", "head", "head")), Pick(hero="medusa", side=1, weapon=""),
    ])


def check_invariants(state: State) -> None:
    limit = 5 if state.short else 6
    for h in state.heroes:
        assert len(h.items) <= 4
        assert h.gold >= 0
        assert 0 <= h.life <= h.max_life
        assert 0 <= h.info <= limit
        assert len(h.regions) == 6 - min(h.info, 5) or (h.province_card == "" and len(h.regions) >= 1)
    # combat cards: every card is in the deck, a discard pile, the armed row or a hand
    cards = list(state.combat_deck) + state.combat_discard + state.armed
    if state.combat is not None:
        cards += state.combat.hand + [c for f in state.combat.foes for c in f.hand]
    assert Counter(cards) == Counter(PLAIN + ARMED), "a combat card was lost or duplicated"
    # story cards
    stories = [c for d in state.stories.values() for c in d] + [c for d in state.story_discard.values() for c in d]
    stories += [k.card for h in state.heroes for k in h.kept]
    if state.draw is not None:
        stories += state.draw.cards
    if state.combat is not None and state.combat.story and state.combat.story not in stories:
        stories.append(state.combat.story)
    assert Counter(stories) == Counter(s.id for s in LIB.stories), "a story card was lost or duplicated"
    # item cards (starting weapons stay with their heroes)
    items = state.item_deck + state.market + state.item_out + [i for h in state.heroes for i in h.offer]
    items += [i for h in state.heroes for i in h.items if i != h.weapon]
    if len(state.losing) > 2:
        items.append(state.losing[2])
    assert Counter(items) == Counter(LIB.market), "an item card was lost or duplicated"


def distance(start: str, goal: str) -> int:
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for p in frontier:
            for q in LIB.near[p]:
                if q not in seen:
                    seen[q] = seen[p] + 1
                    nxt.append(q)
        frontier = nxt
    return seen.get(goal, 99)


def choose(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
    """A random legal move, leaning towards finishing the hunt."""
    me = state.heroes[seat]
    lair = RULES.table.lair(me)
    if rng.random() < 0.8:
        for a in legal:
            if isinstance(a, (Attack, Lore)):
                return a
        if lair and state.phase == "action" and seat == state.order[state.turn]:
            moves = [a for a in legal if isinstance(a, (Caravan, Explore))]
            if moves:
                return min(moves, key=lambda a: distance(a.to if isinstance(a, Caravan) else a.path[-1], lair))
    return rng.choice(legal)


def play(players: int, options: dict[str, Any], seed: int) -> tuple[State, list[tuple[int, Any]], State]:
    seats = [SeatInfo(index=i, name=f"P{i}") for i in range(players)]
    start = RULES.setup(seats, options, seed).state
    state = start
    rng = random.Random(seed)
    log: list[tuple[int, Any]] = []
    for _ in range(MAX_STEPS):
        if RULES.outcome(state) is not None:
            break
        acting = sorted(RULES.to_act(state))
        assert acting, f"nobody can act in phase {state.phase}"
        if rng.random() < 0.05:
            wrong = rng.randrange(players)
            action = junk(rng)
            try:
                step = RULES.apply(state, wrong, action)
            except GameError:
                pass
            else:
                log.append((wrong, action))
                state = step.state
                check_invariants(state)
            continue
        if options.get("opponents") == "players" and rng.random() < 0.05 and auto.timeout(RULES, state) is not None:
            timed = auto.timeout(RULES, state)
            assert timed is not None
            seat, action = timed
        else:
            seat = rng.choice(acting)
            legal = RULES.legal(state, seat)
            assert legal, f"seat {seat} must act but has nothing legal in phase {state.phase}"
            action = choose(state, seat, legal, rng)
        step = RULES.apply(state, seat, action)
        log.append((seat, action))
        state = step.state
        VIEWS.view(state, seat)
        check_invariants(state)
    return start, log, state


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(min_value=2, max_value=4), opponents=st.sampled_from(["players", "bot"]),
       fate=st.booleans(), short=st.booleans(), heroic=st.booleans(),
       seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_random_games_end_with_a_champion(players: int, opponents: str, fate: bool, short: bool, heroic: bool,
                                          seed: int) -> None:
    options = {"opponents": opponents, "fate": fate, "short": short, "heroic": heroic}
    start, log, final = play(players, options, seed)
    outcome = RULES.outcome(final)
    assert outcome is not None, f"the game did not end in {MAX_STEPS} steps"
    assert len(outcome.winners) == 1 and final.heroes[outcome.winners[0]].monster
    raw = msgspec.json.encode(final)
    assert msgspec.json.encode(msgspec.json.decode(raw, type=State)) == raw
    state = start
    for seat, action in log:
        state = RULES.apply(state, seat, msgspec.json.decode(msgspec.json.encode(action),
                                                             type=VIEWS.action_type)).state
    assert msgspec.json.encode(state) == raw


def test_setup_is_deterministic_for_a_seed() -> None:
    seats = [SeatInfo(0, "A"), SeatInfo(1, "B")]
    a = RULES.setup(seats, {}, 99).state
    b = RULES.setup(seats, {}, 99).state
    c = RULES.setup(seats, {}, 100).state
    assert msgspec.json.encode(a) == msgspec.json.encode(b)
    assert msgspec.json.encode(a) != msgspec.json.encode(c)
