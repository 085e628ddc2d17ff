"""Balance: how often each side wins when Tabula's own policy plays every seat.  Figures printed, for designers.

    python -m bot.balance GAME [--games N] [--setting KEY ...] [--seed S] [--workers W] [--check]
                               [--level normal|strong --iterations K [--depth D]]

Plays ``N`` games per setting through the pure rules (no database, no pictures), with the game's policy in every
seat (``--level``: Tabula's search at that level in every seat instead, ``K`` deals a decision — a fixed number,
not a wall-time budget, so a run gives the same figures on any machine); where several seats may act at once,
the one that acts first is drawn.  The settings come from the game's
spec (``GameSpec.balance``, else its ``bench`` configurations); ``--setting`` picks some by key.  A side is what
the game's outcome names for each seat (``Outcome.sides``: a realm, a faction), or the seat itself.

Per setting and side it prints the share of games won with its 95% interval (Wilson), the fair share (one game
in as many as there are sides), and whether the share is inside the band.  **Within the band** means within
0.9–1.1 times the fair share: 45–55% for 2 sides, 30–36.7% for 3, 22.5–27.5% for 4.  A game won by several seats
counts a fraction for each; a game no seat wins (a dummy player's win) is listed as "no seat".

``--check`` exits with 1 when a side is outside the band.  Run it under ``nice``: it keeps every core busy that
``--workers`` asks for.

Self-contained: it imports only from ``rules/``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from rules.core import Rng, SeatInfo, seed_state
from rules.registry import games
from rules.search import LEVELS, Budget, decide
from rules.spec import BalanceSpec, GameSpec

#: A game longer than this many moves is a broken policy or a broken rule, not a long game.
MOVE_LIMIT = 200_000
#: The band around the fair share a side's win rate must fall in.
BAND = (0.9, 1.1)
#: The z value of a two-sided 95% interval.
Z95 = 1.959964
NO_SEAT = "no seat"


def settings(spec: GameSpec) -> list[BalanceSpec]:
    """The settings a game's balance is measured on: its own balance declarations, else its bench ones."""
    if spec.balance:
        return list(spec.balance)
    out = []
    for i, b in enumerate(spec.bench):
        out.append(BalanceSpec(key=f"bench{i + 1}", label=b.label, options=dict(b.options), players=b.players))
    return out or [BalanceSpec(key="default", label="default", players=spec.min_players)]


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``wins / n``."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(slots=True)
class Tally:
    """What a batch of games came to: wins per side (fractions for shared wins), games and moves."""

    wins: dict[str, float] = field(default_factory=dict)
    sides: set[str] = field(default_factory=set)
    games: int = 0
    moves: int = 0

    def add(self, other: Tally) -> None:
        for side, w in other.wins.items():
            self.wins[side] = self.wins.get(side, 0.0) + w
        self.sides |= other.sides
        self.games += other.games
        self.moves += other.moves


@dataclass(frozen=True, slots=True)
class Players:
    """Who plays every seat: the game's policy (``easy``), or Tabula's search at a level with a budget."""

    level: str = "easy"
    budget: Budget | None = None

    def choose(self, rules: Any, state: Any, seat: int, rng: Rng) -> Any:
        if self.level == "easy":
            return rules.policy(state, seat, rng)
        return decide(rules, state, seat, self.level, rng.below(1 << 30), self.budget)


EASY = Players()


def play(key: str, options: dict[str, Any], players: int, seed: int, who: Players = EASY
         ) -> tuple[list[str], dict[str, float], int]:
    """One game with ``who`` in every seat: the side of each seat, the wins by side, and the moves made."""
    rules = games()[key]
    seats = [SeatInfo(index=i, name=f"P{i + 1}") for i in range(players)]
    state = rules.setup(seats, options, seed).state
    rng = Rng(seed_state(seed ^ 0x5EED))
    moves = 0
    while (outcome := rules.outcome(state)) is None:
        acting = sorted(rules.to_act(state))
        if not acting:
            raise RuntimeError(f"{key}: nobody may act and the game is not over (seed {seed})")
        seat = acting[rng.below(len(acting))]  # whoever locks in first, at random
        action = who.choose(rules, state, seat, rng)
        if action is None:
            legal = list(rules.legal(state, seat))
            if not legal:
                raise RuntimeError(f"{key}: seat {seat} must act but has no legal move (seed {seed})")
            action = legal[rng.below(len(legal))]
        state = rules.apply(state, seat, action).state
        moves += 1
        if moves > MOVE_LIMIT:
            raise RuntimeError(f"{key}: no end after {MOVE_LIMIT} moves (seed {seed})")
    sides = list(outcome.sides) if outcome.sides else [f"seat {i + 1}" for i in range(players)]
    wins: dict[str, float] = {}
    if not outcome.winners:
        wins[NO_SEAT] = 1.0
    for w in outcome.winners:
        wins[sides[w]] = wins.get(sides[w], 0.0) + 1.0 / len(outcome.winners)
    return sides, wins, moves


Job = tuple[str, dict[str, Any], int, Sequence[int], Players]


def _batch(job: Job) -> Tally:
    key, options, players, seeds, who = job
    tally = Tally()
    for seed in seeds:
        sides, wins, moves = play(key, options, players, seed, who)
        tally.sides.update(sides)
        for side, w in wins.items():
            tally.wins[side] = tally.wins.get(side, 0.0) + w
        tally.games += 1
        tally.moves += moves
    return tally


def _jobs(key: str, setting: BalanceSpec, games_n: int, seed: int, size: int, who: Players) -> Iterator[Job]:
    seeds = [seed + i for i in range(games_n)]
    for start in range(0, games_n, size):
        yield key, dict(setting.options), setting.players, seeds[start:start + size], who


def measure(key: str, setting: BalanceSpec, games_n: int, *, seed: int = 1, workers: int = 1,
            who: Players = EASY) -> Tally:
    """Play ``games_n`` games of one setting (seeds ``seed`` … ``seed + games_n - 1``), on ``workers`` processes."""
    tally = Tally()
    if workers <= 1:
        for job in _jobs(key, setting, games_n, seed, games_n or 1, who):
            tally.add(_batch(job))
        return tally
    size = max(1, min(50, games_n // (workers * 4) or 1))
    with get_context("fork").Pool(workers) as pool:
        for part in pool.imap_unordered(_batch, _jobs(key, setting, games_n, seed, size, who)):
            tally.add(part)
    return tally


@dataclass(frozen=True, slots=True)
class Row:
    side: str
    wins: float
    rate: float
    low: float
    high: float
    inside: bool


def rows(tally: Tally) -> tuple[float, list[Row]]:
    """The fair share, and per side its wins, share, 95% interval and whether the share is within the band."""
    sides = sorted(tally.sides)
    fair = 1 / len(sides) if sides else 0.0
    out = []
    for side in [*sides, *([NO_SEAT] if NO_SEAT in tally.wins else [])]:
        w = tally.wins.get(side, 0.0)
        rate = w / tally.games if tally.games else 0.0
        low, high = wilson(w, tally.games)
        inside = side == NO_SEAT or BAND[0] * fair - 1e-9 <= rate <= BAND[1] * fair + 1e-9
        out.append(Row(side, w, rate, low, high, inside))
    return fair, out


def report(title: str, setting: BalanceSpec, tally: Tally, seconds: float) -> tuple[str, bool]:
    """The printed table of one setting, and whether every side is within the band."""
    fair, found = rows(tally)
    lines = [f"{title} — {setting.label} [{setting.key}]: {tally.games} games, {tally.moves / max(1, tally.games):.0f} "
             f"moves a game, {seconds:.1f} s",
             f"  fair share {fair:.1%}; band {BAND[0] * fair:.1%}–{BAND[1] * fair:.1%}",
             f"  {'side':<24} {'wins':>8} {'rate':>7}   {'95% interval':<15} within band"]
    for r in found:
        mark = "" if r.side == NO_SEAT else ("yes" if r.inside else "NO")
        lines.append(f"  {r.side:<24} {r.wins:>8.1f} {r.rate:>7.1%}   {r.low:>6.1%}–{r.high:<7.1%} {mark}")
    return "\n".join(lines), all(r.inside for r in found)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.balance", description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="the game's key: " + ", ".join(games()))
    parser.add_argument("--games", type=int, default=500, help="games per setting (default 500)")
    parser.add_argument("--setting", action="append", default=[],
                        help="a setting's key (repeat for several; default: every setting the game declares)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="processes to play on (default 1)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a side is outside the band")
    parser.add_argument("--list", action="store_true", help="list the game's settings and stop")
    parser.add_argument("--level", default="easy", choices=LEVELS,
                        help="who plays every seat: the game's policy (easy, the default) or Tabula's search")
    parser.add_argument("--iterations", type=int, default=24,
                        help="with --level normal or strong: deals a decision (default 24)")
    parser.add_argument("--depth", type=int, default=60,
                        help="with --level normal or strong: moves a rollout plays before it is scored (default 60)")
    args = parser.parse_args(argv)
    found = games()
    if args.game not in found:
        parser.error(f"no game '{args.game}': choose {', '.join(found)}")
    rules = found[args.game]
    every = settings(rules.spec)
    if args.list:
        for s in every:
            print(f"{s.key:<16} {s.label} ({s.players} seats; options {s.options})")
        return 0
    chosen = [s for s in every if not args.setting or s.key in args.setting]
    unknown = set(args.setting) - {s.key for s in every}
    if unknown:
        parser.error(f"no setting {', '.join(sorted(unknown))}: choose {', '.join(s.key for s in every)}")
    if args.games < 1:
        parser.error("--games is at least 1")
    if args.iterations < 1 or args.depth < 1:
        parser.error("--iterations and --depth are at least 1")
    who = EASY if args.level == "easy" else \
        Players(args.level, Budget(iterations=args.iterations, seconds=None, depth=args.depth))
    ok = True
    title = rules.spec.title + ("" if who is EASY else f" (Tabula {args.level} in every seat, {args.iterations} "
                                                        f"deals a decision)")
    for setting in chosen:
        t0 = time.perf_counter()
        tally = measure(args.game, setting, args.games, seed=args.seed, workers=args.workers, who=who)
        text, inside = report(title, setting, tally, time.perf_counter() - t0)
        print(text, flush=True)
        ok = ok and inside
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
