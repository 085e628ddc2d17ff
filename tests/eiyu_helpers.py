"""Small tools for the Heroes' Road tests: a game set up by seat count, played by policy or at random, and a
state arranged by hand."""

from __future__ import annotations

from typing import Any

import msgspec

from rules.core import GameError, Rng, SeatInfo
from rules.eiyu import RULESET
from rules.eiyu.state import State

R = RULESET


def new_game(players: int = 3, *, short: bool = False, seed: int = 1, names: list[str] | None = None,
             start: int | None = 0) -> State:
    """A new game; ``start`` fixes the first start player (None: as drawn)."""
    seats = [SeatInfo(index=i, name=(names or [])[i] if names else f"P{i}") for i in range(players)]
    state: State = R.setup(seats, R.check_options({"short": short}, players), seed).state
    if start is not None:
        state = msgspec.structs.replace(state, start=start, turn=start)
    return state


def place_all(state: State, cities: list[int]) -> State:
    for city in cities:
        seat = min(R.to_act(state))
        state = R.apply(state, seat, R.codec.parse(state, seat, _cmd("city", city=str(city)))).state
    return state


def _cmd(verb: str, **args: str) -> Any:
    from rules.spec import Command

    return Command.of(verb, **args)


def play(state: State, rng: Rng, *, random_share: int = 3, limit: int = 5000,
         visit: Any = None) -> tuple[State, list[tuple[int, Any]]]:
    """Play to the end: mostly the policy, sometimes (``random_share`` in 10) a random legal move."""
    log: list[tuple[int, Any]] = []
    for _ in range(limit):
        if R.outcome(state) is not None:
            return state, log
        acting = sorted(R.to_act(state))
        seat = acting[rng.below(len(acting))]
        legal = list(R.legal(state, seat))
        action = legal[rng.below(len(legal))] if rng.below(10) < random_share else R.policy(state, seat, rng)
        try:
            step = R.apply(state, seat, action)
        except GameError:
            continue
        if visit is not None:
            visit(state, seat, action, step)
        state = step.state
        log.append((seat, action))
    raise AssertionError("the game did not end")


def with_players(state: State, **changes: Any) -> State:
    """Every player changed alike (``changes`` maps a Player field to a list, one value per seat)."""
    players = [msgspec.structs.replace(p, **{k: v[i] for k, v in changes.items()}) for i, p in
               enumerate(state.players)]
    return msgspec.structs.replace(state, players=players)


def balance(players: int, games: int, *, short: bool = False, first_seed: int = 0) -> dict[str, float]:
    """Tabula's policy playing every seat for ``games`` games: how the numbers in the data come out.

    Returns the share of games the dummy wins and survives the first ranking, each seat's share of wins, the
    mean final scores per track, the mean hunts, titans slain and shows won per game, and the share of
    rankings whose last place was a tie."""
    from rules.eiyu.engine.scores import scores
    from rules.eiyu.state import Hunted, Ranked, Shown, TitanSlain

    out: dict[str, float] = {}
    wins = [0] * (players + 1)
    dummy_first = hunts = titans = shows = ties = rankings = 0
    totals = {"fame": 0.0, "gold": 0.0, "building": 0.0}
    for g in range(games):
        seed = first_seed + g
        state = new_game(players, short=short, seed=seed, start=None)
        rng = Rng(seed * 7 + 1)
        while R.outcome(state) is None:
            acting = sorted(R.to_act(state))
            seat = acting[rng.below(len(acting))]  # whoever locks in first, at random
            step = R.apply(state, seat, R.policy(state, seat, rng))
            for e in step.events:
                hunts += isinstance(e, Hunted)
                titans += isinstance(e, TitanSlain)
                shows += isinstance(e, Shown) and sum(1 for w in e.winners if w >= 0)
                if isinstance(e, Ranked):
                    rankings += 1
                    ties += e.why != ""
            state = step.state
        assert state.winner is not None
        wins[state.winner] += 1
        if state.dummy is not None and state.out and state.out[0] != players:
            dummy_first += 1
        points = scores(state)
        for track in totals:
            totals[track] += sum(points[track][:players]) / players
    out["dummy_wins"] = wins[players] / games
    out["dummy_survives_first"] = dummy_first / games
    for i in range(players):
        out[f"seat{i}_wins"] = wins[i] / games
    for track, total in totals.items():
        out[f"mean_{track}"] = total / games
    out["hunts"] = hunts / games
    out["titans"] = titans / games
    out["show_rewards"] = shows / games
    out["tied_last"] = ties / max(1, rankings)
    return out
