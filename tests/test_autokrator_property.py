"""Random legal play of whole Autokrator games, 2 and 4 realms, Tabula in every seat: nothing but a GameError is
ever raised, every game ends, the log replays exactly, the JSON form is lossless, and the invariants hold."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.autokrator import RULESET as R
from rules.autokrator.content import library
from rules.autokrator.state import State
from rules.core import GameError, Rng, SeatInfo

NEVER = ("bulgaria", "armenia", "asturias", "hungary")
CONFIGS = [(4, "full"), (4, "fast"), (2, "east"), (2, "west")]


def check(state: State) -> None:
    lib = library()
    for key in state.order:
        rs = state.realms[key]
        assert 0 <= rs.treasury <= 11
        pieces = sum(1 for r in state.pieces.values() if r == key)
        assert pieces <= 7 and rs.supply + pieces == 7
        king, general = rs.units.get("king"), rs.units.get("general")
        if king and general and king.region == general.region:
            assert king.region == lib.realms[key].capital
        for holder, cards in rs.cards.items():
            kinds = [lib.cards[c].kind for c in cards]
            assert len(kinds) == len(set(kinds)) == 3, (key, holder, cards)
    for never in NEVER:
        assert state.owner[never] == "x"
        assert not any(u.region == never for r in state.realms.values() for u in r.units.values())


def play(players: int, mode: str, raids: bool, seed: int) -> tuple[State, list[tuple[int, Any]]]:
    seats = [SeatInfo(index=i, name=f"P{i}") for i in range(players)]
    options = R.check_options({"mode": mode, "raids": raids}, players)
    state: State = R.setup(seats, options, seed).state
    rng = Rng(seed)
    log: list[tuple[int, Any]] = []
    for _ in range(5000):
        if R.outcome(state) is not None:
            return state, log
        seat = sorted(R.to_act(state))[rng.below(len(R.to_act(state)))]
        legal = list(R.legal(state, seat))
        assert legal
        action = R.policy(state, seat, rng) if rng.below(3) else legal[rng.below(len(legal))]
        try:
            state = R.apply(state, seat, action).state
        except GameError:
            continue
        log.append((seat, action))
        check(state)
    raise AssertionError("the game did not end")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), raids=st.booleans(), seed=st.integers(0, 2**31))
def test_random_games_end_replay_and_keep_the_invariants(config: tuple[int, str], raids: bool, seed: int) -> None:
    players, mode = config
    final, log = play(players, mode, raids, seed)
    assert final.epoch == 5 or final.reason.startswith(tuple(library().realms[k].name for k in final.order))
    seats = [SeatInfo(index=i, name=f"P{i}") for i in range(players)]
    again: State = R.setup(seats, R.check_options({"mode": mode, "raids": raids}, players), seed).state
    for seat, action in log:
        again = R.apply(again, seat, action).state
    assert msgspec.json.encode(again) == msgspec.json.encode(final)
    assert msgspec.json.decode(msgspec.json.encode(final), type=State) == final
    outcome = R.outcome(final)
    assert outcome is not None and len(outcome.winners) == 1


def test_apply_never_changes_its_input() -> None:
    seats = [SeatInfo(index=i, name=f"P{i}") for i in range(4)]
    state: State = R.setup(seats, R.check_options({}, 4), 3).state
    rng = Rng(3)
    for _ in range(300):
        if R.outcome(state) is not None:
            break
        seat = min(R.to_act(state))
        before = msgspec.json.encode(state)
        action = R.policy(state, seat, rng)
        new = R.apply(state, seat, action).state
        assert msgspec.json.encode(state) == before
        state = new


def test_a_refused_move_says_what_is_allowed() -> None:
    seats = [SeatInfo(index=i, name=f"P{i}") for i in range(2)]
    state: State = R.setup(seats, R.check_options({"mode": "east"}, 2), 1).state
    from rules.autokrator.state import Move
    try:
        R.apply(state, 0, Move(unit="king", to="antioch"))
    except GameError as err:
        assert "assign" in str(err) or "You can" in str(err)
    else:
        raise AssertionError("a march during the dealing of cards was allowed")
