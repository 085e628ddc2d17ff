"""The arena: Tabula's levels played against each other through the pure rules, figures printed, never asserted.

    python -m bot arena GAME --a strong --b easy --games N [--players P] [--iterations K | --seconds S]

Seat-swapped: in game ``g`` the seats are dealt to the two levels in turn (with more than two seats, level
``a`` plays one seat, rotating round the table, and ``b`` every other), so neither level keeps a lucky seat.
Prints level ``a``'s win rate with a 95% Wilson interval, its fair share at this table, moves per second and
the median and 95th-percentile time per decision of each level.  Nothing here touches a database or Discord:
only ``rules/``."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.balance import wilson  # one interval for both tools
from rules.core import GameError, Rng, SeatInfo, seed_state
from rules.registry import games, ruleset
from rules.search import LEVELS, Budget, think

#: A game that has not ended after this many moves is counted as nobody's win (a stall).
MOVE_LIMIT = 5000


@dataclass(slots=True)
class Tally:
    games: int = 0
    a_wins: float = 0.0
    b_wins: float = 0.0
    stalls: int = 0
    moves: int = 0
    seconds: float = 0.0
    think: dict[str, list[float]] = field(default_factory=lambda: {"a": [], "b": []})


def parse_options(items: Sequence[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for item in items:
        name, _, value = item.partition("=")
        out[name.strip()] = value.strip()
    return out


def play_one(key: str, players: int, options: dict[str, object], seed: int, a_seat: int, levels: tuple[str, str],
             budget: Budget, tally: Tally) -> None:
    """One game: level ``a`` at ``a_seat``, level ``b`` everywhere else."""
    rules = ruleset(key)
    state = rules.setup([SeatInfo(i, f"P{i}") for i in range(players)], options, seed).state
    started = time.perf_counter()
    moves = 0
    while rules.outcome(state) is None and moves < MOVE_LIMIT:
        acting = sorted(rules.to_act(state))
        if not acting:
            break
        seat = acting[0]
        side = "a" if seat == a_seat else "b"
        level = levels[0] if side == "a" else levels[1]
        move_seed = seed_state(seed ^ (moves * 0x51ED27) ^ (seat << 40))
        thought = think(rules, state, seat, level, move_seed, budget)
        tally.think[side].append(thought.seconds)
        action = thought.action
        if action is None:
            legal = rules.legal(state, seat)
            if not legal:
                break
            action = legal[Rng(move_seed).below(len(legal))]
        try:
            state = rules.apply(state, seat, action).state
        except GameError as err:  # a level that chose a move the rules refuse is a bug: say so, and stop
            print(f"  game seed {seed}: seat {seat} ({level}) chose a refused move: {err}", file=sys.stderr)
            break
        moves += 1
    tally.seconds += time.perf_counter() - started
    tally.moves += moves
    tally.games += 1
    outcome = rules.outcome(state)
    if outcome is None or not outcome.winners:
        tally.stalls += outcome is None
        return
    share = 1.0 / len(outcome.winners)
    for w in outcome.winners:
        if w == a_seat:
            tally.a_wins += share
        else:
            tally.b_wins += share


def run(key: str, a: str, b: str, n: int, players: int, options: dict[str, object], budget: Budget,
        seed: int = 1, out: object = sys.stdout) -> Tally:
    tally = Tally()
    for g in range(n):
        play_one(key, players, options, seed_state(seed * 1_000_003 + g), g % players, (a, b), budget, tally)
        if (g + 1) % max(1, n // 5) == 0 or g == n - 1:
            print(f"  … {g + 1}/{n} games, {a} has won {tally.a_wins:g}", file=sys.stderr, flush=True)
    return tally


def report(key: str, a: str, b: str, players: int, budget: Budget, tally: Tally) -> str:
    n = tally.games
    low, high = wilson(tally.a_wins, n)
    fair = 1 / players
    rate = tally.a_wins / n if n else 0.0
    mps = tally.moves / tally.seconds if tally.seconds else 0.0
    limit = (f"{budget.iterations} iterations" if budget.iterations is not None else "") + \
        (" / " if budget.iterations is not None and budget.seconds is not None else "") + \
        (f"{budget.seconds:g} s" if budget.seconds is not None else "")

    def times(side: str) -> str:
        t = sorted(tally.think[side])
        if not t:
            return "—"
        return f"median {statistics.median(t) * 1000:.1f} ms, p95 {t[int(0.95 * (len(t) - 1))] * 1000:.1f} ms"

    lines = [
        f"{key}, {players} seats, {n} games, budget {limit} (rollouts cut after {budget.depth} moves)",
        f"  {a} (1 seat) against {b}: won {tally.a_wins:g} of {n} = {rate:.0%} "
        f"[95% CI {low:.0%}–{high:.0%}]; fair share {fair:.0%}, so {rate / fair:.2f}× its share",
        f"  {b} won {tally.b_wins:g}; nobody (a dummy or a stall) {n - tally.a_wins - tally.b_wins:g}"
        + (f"; stalls {tally.stalls}" if tally.stalls else ""),
        f"  {tally.moves} moves, {mps:.1f} moves/s; time per decision: {a} {times('a')}; {b} {times('b')}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot arena", description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    return from_args(args)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="the game's key: " + ", ".join(games()))
    parser.add_argument("--a", default="strong", choices=LEVELS, help="the level measured (one seat)")
    parser.add_argument("--b", default="easy", choices=LEVELS, help="the level at every other seat")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=None,
                        help="deals per decision (repeatable figures; the default is the wall-time budget)")
    parser.add_argument("--seconds", type=float, default=None, help="wall time per decision (default 2)")
    parser.add_argument("--depth", type=int, default=60, help="moves a rollout plays before it is scored")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a lobby option of the game, e.g. --option mode=east")


def from_args(args: argparse.Namespace) -> int:
    try:
        rules = ruleset(args.game)
    except GameError as err:
        print(err, file=sys.stderr)
        return 2
    if not rules.spec.min_players <= args.players <= rules.spec.max_players:
        print(f"{rules.spec.title} takes {rules.spec.min_players}–{rules.spec.max_players} players.",
              file=sys.stderr)
        return 2
    seconds = args.seconds if args.seconds is not None else (None if args.iterations is not None else 2.0)
    budget = Budget(iterations=args.iterations, seconds=seconds, depth=args.depth)
    tally = run(args.game, args.a, args.b, args.games, args.players, parse_options(args.option), budget, args.seed)
    print(report(args.game, args.a, args.b, args.players, budget, tally))
    return 0
