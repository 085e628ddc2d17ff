"""Tabula's stronger play: information-set Monte Carlo tree search over a game's own pure rules.

A seat Tabula plays at level ``normal`` or ``strong`` decides here; ``easy`` is the game's own ``policy``.  The
search never reads what the seat could not see: each iteration first asks the game's **sampler** (the module
``rules/<key>/search.py``, with the same two functions in every game) for a *determinization* — a full state that
keeps everything the seat sees and deals anew, at random, everything it does not (other hands, face-down rows,
battle cards, the order of every pile, the dice to come).  The tree is then grown over that state with the game's
own ``legal`` and ``apply``, and the game's ``policy`` plays out the rest (the default rollout), cut short after a
number of moves and scored by the sampler's ``value`` (an estimate of each seat's chance to win).

The tree is one per decision and keyed by what is done, never by the hidden state (single-observer ISMCTS):
every node counts how often it was available, so a move that is legal only in some deals is judged fairly (UCB
with availability counts).  ``normal`` searches only the first move (flat Monte Carlo with UCB over the
determinizations) with a third of the budget, among the moves the game's own policy proposes and one move of
every kind; ``strong`` weighs more moves and grows the whole tree with the full budget.

Determinism: every iteration's randomness comes from ``seed`` and the iteration's number only, so the same
seed, the same view and the same number of iterations give the same move.  With a wall-time budget the number of
iterations depends on the machine, so the platform records the move chosen (as it always has) and a replay reads
it from the log instead of searching again.

Nothing here names a game, and nothing here is imported by a game: a game's sampler is found by its package."""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

import msgspec

from rules.core import GameError, Rng, seed_state

#: The levels a Tabula seat plays at, weakest first (``easy`` is the game's own policy, no search).
LEVELS = ("easy", "normal", "strong")
DEFAULT_LEVEL = "easy"
#: The lobby option every game declares for its Tabula seats' level (in its spec: the lobby, /game new,
#: /game defaults and the terminal's --tabula-level are built from it).
LEVEL_OPTION = "tabula_level"
#: The name of the module every game keeps its sampler in (``rules/<key>/search.py``).
SAMPLER_MODULE = "search"


class Sampler(Protocol):
    """What a game's ``search`` module offers the search (module-level functions)."""

    def sample(self, rules: Any, state: Any, seat: int, rng: Rng) -> Any:
        """A full state that ``seat`` cannot tell from ``state``: what it sees kept, everything else dealt anew
        from ``rng`` (never from the hidden parts of ``state``)."""
        ...

    def value(self, rules: Any, state: Any) -> Sequence[float]:
        """Each seat's chance to win from ``state``, as the game estimates it (0 to 1), for a rollout cut short."""
        ...

    # optional: ``completes(request, action) -> bool``, the moves that do what a player's request asks
    # (``ActionMeta.asks_tabula``), for a suggestion made with the same search


@dataclass(frozen=True, slots=True)
class Budget:
    """How long one decision may think: at most ``iterations`` deals, and at most ``seconds`` of wall time
    (None: no such limit; at least one of them is set).  ``depth`` bounds each rollout's moves."""

    iterations: int | None = None
    seconds: float | None = 2.0
    depth: int = 60

    def share(self, fraction: float) -> Budget:
        """A smaller budget (``normal`` thinks for a third of ``strong``'s)."""
        return Budget(iterations=None if self.iterations is None else max(1, int(self.iterations * fraction)),
                      seconds=None if self.seconds is None else self.seconds * fraction, depth=self.depth)


#: What each level searches: (share of the budget, grow a tree beyond the first move).
LEVEL_PLAN: dict[str, tuple[float, bool]] = {"normal": (1 / 3, False), "strong": (1.0, True)}
#: UCB's exploration constant (rewards lie in 0..1).
EXPLORE = 0.7
#: Deals in which the game's own policy is asked for a first move worth searching.
PROPOSALS = 6
#: How fast the first moves searched widen: ``WIDEN * sqrt(deals)`` of them, in the order of ``_candidates``.
WIDEN = 2.0
#: Up to this many legal first moves are all searched; beyond, a seeded handful besides the policy's proposals.
WIDE = 16


def level_of(value: object) -> str:
    """A stored or typed level, read leniently (an older game has none: ``easy``)."""
    word = str(value or "").strip().lower()
    return word if word in LEVELS else DEFAULT_LEVEL


def sampler_of(rules: Any) -> ModuleType | None:
    """The game's sampler module (``<package>.search``), or None for a game that has none (a plug-in)."""
    package = type(rules).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.{SAMPLER_MODULE}")
    except ModuleNotFoundError:
        return None
    return module if callable(getattr(module, "sample", None)) and callable(getattr(module, "value", None)) else None


def key_of(action: object) -> bytes:
    """An action as a dictionary key (actions are tagged structs; some hold lists)."""
    return msgspec.json.encode(action)


@dataclass(slots=True)
class Node:
    actor: int = -1  # the seat that chose the move leading here
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[bytes, Node] = field(default_factory=dict)

    def ucb(self) -> float:
        if self.visits == 0:
            return math.inf
        return self.reward / self.visits + EXPLORE * math.sqrt(math.log(max(self.available, 1)) / self.visits)


@dataclass(slots=True)
class Thought:
    """What a decision found: the move, how many deals it looked at, and how long it took."""

    action: Any
    iterations: int
    seconds: float
    visits: dict[bytes, int] = field(default_factory=dict)


def decide(rules: Any, state: Any, seat: int, level: str, seed: int, budget: Budget | None = None,
           request: Any = None) -> Any:
    """The move Tabula plays for ``seat`` at ``level`` (None when the seat has nothing to do).

    With ``request`` — a player's move that asks Tabula to choose for them, such as "program my year" — the
    search weighs only the moves that do what was asked (the sampler's ``completes``), and gives the request back
    unchanged at ``easy``, or when the game's sampler says nothing does it."""
    if request is not None:
        return suggest(rules, state, seat, level, seed, budget, request)
    return think(rules, state, seat, level, seed, budget).action


def suggest(rules: Any, state: Any, seat: int, level: str, seed: int, budget: Budget | None, request: Any) -> Any:
    sampler = sampler_of(rules)
    completes = getattr(sampler, "completes", None)
    level = level_of(level)
    if level == "easy" or completes is None:
        return request
    fraction, tree = LEVEL_PLAN[level]
    search = _Search(rules, sampler, seat, (budget or Budget()).share(fraction), tree)
    search.only = lambda action: bool(completes(request, action))
    started = time.perf_counter()
    thought = search.run(state, list(rules.legal(state, seat)), seed, started)
    return request if thought.action is None else thought.action


def think(rules: Any, state: Any, seat: int, level: str, seed: int, budget: Budget | None = None) -> Thought:
    """``decide`` with its figures (for the arena)."""
    started = time.perf_counter()
    level = level_of(level)
    sampler = sampler_of(rules)
    legal = list(rules.legal(state, seat))
    if level == "easy" or sampler is None or len(legal) <= 1:
        if len(legal) == 1 and level != "easy" and sampler is not None:
            return Thought(legal[0], 0, time.perf_counter() - started)
        return Thought(rules.policy(state, seat, Rng(seed_state(seed))), 0, time.perf_counter() - started)
    fraction, tree = LEVEL_PLAN[level]
    plan = (budget or Budget()).share(fraction)
    search = _Search(rules, sampler, seat, plan, tree)
    return search.run(state, legal, seed, started)


class _Search:
    def __init__(self, rules: Any, sampler: Any, seat: int, budget: Budget, tree: bool) -> None:
        self.rules, self.sampler, self.seat, self.budget, self.tree = rules, sampler, seat, budget, tree
        self.seats = 0
        #: Which first moves may be chosen at all (a request's: only those that do what was asked).
        self.only: Callable[[Any], bool] | None = None

    def run(self, state: Any, legal: list[Any], seed: int, started: float) -> Thought:
        root = Node(actor=self.seat)
        moves = self._candidates(state, legal, seed)
        if self.only is not None:
            moves = {k: a for k, a in moves.items() if self.only(a)}
            if not moves:
                return Thought(None, 0, time.perf_counter() - started)
        keys = list(moves)
        for k in keys:
            root.children[k] = Node(actor=self.seat)
        limit = self.budget.iterations
        until = None if self.budget.seconds is None else started + self.budget.seconds
        done = 0
        while (limit is None or done < limit) and (until is None or time.perf_counter() < until or done == 0):
            rng = Rng(seed_state(seed ^ (done * 0x9E3779B1 + 0x2545F491)))
            world = self.sampler.sample(self.rules, state, self.seat, rng)
            # progressive widening: the first moves in the order above at first, more as the deals add up
            width = max(2, math.ceil(WIDEN * math.sqrt(done + 1)))
            self._iterate(root, world, {k: moves[k] for k in keys[:width]}, rng)
            done += 1
        best = max(keys, key=lambda k: (root.children[k].visits, root.children[k].reward, -keys.index(k)))
        return Thought(moves[best], done, time.perf_counter() - started,
                       {k: root.children[k].visits for k in keys})

    def _candidates(self, state: Any, legal: list[Any], seed: int) -> dict[bytes, Any]:
        """The first moves worth searching: what the game's own policy proposes in a few deals (a policy may play
        a move the legal list spells in steps, such as a whole row at once), then every legal move when there
        are few, or one of each kind and a seeded handful more when there are many (``normal``, with a smaller
        budget, weighs only the proposals and one move of each kind).  Every option a game lists — a truce, a
        spy — is thus weighed, even those the game's own policy never plays."""
        rng = Rng(seed_state(seed ^ 0xC0FFEE))
        proposals: dict[bytes, Any] = {}
        counts: dict[bytes, int] = {}
        for _n in range(PROPOSALS):
            world = self.sampler.sample(self.rules, state, self.seat, rng)
            proposed = self.rules.policy(world, self.seat, rng)
            if proposed is not None:
                k = key_of(proposed)
                proposals.setdefault(k, proposed)
                counts[k] = counts.get(k, 0) + 1
        # the policy's favourite first: the search widens from the front of this order
        moves = {k: proposals[k] for k in sorted(proposals, key=lambda k: -counts[k])}
        if len(legal) <= WIDE and self.tree:
            rest = legal
        else:  # one of every kind of move (a truce, a spy, a campaign are never left out), then a seeded few
            shuffled = rng.shuffle(legal)
            kinds: dict[type, Any] = {}
            for action in shuffled:
                kinds.setdefault(type(action), action)
            more = max(WIDE - len(moves) - len(kinds), 2) if self.tree else 0
            rest = [*kinds.values(), *shuffled[:more]]
        for action in rest:
            moves.setdefault(key_of(action), action)
        return moves

    def _iterate(self, root: Node, world: Any, moves: dict[bytes, Any], rng: Rng) -> None:
        rules = self.rules
        path: list[Node] = []
        node, state = root, world
        # the first move: the seat's own, among what it may do in the real game
        child_key = self._select(root, list(moves), rng)
        node = root.children[child_key]
        path.append(node)
        state = self._apply(state, self.seat, moves[child_key])
        if not self.seats:
            self.seats = len(self.sampler.value(rules, world))
        # deeper (strong only): one node added per deal, chosen by UCB among the moves legal in this deal
        while self.tree and state is not None and node.visits > 0 and rules.outcome(state) is None:
            actor = _actor(rules, state)
            if actor is None:
                break
            # the game's policy proposes the next move to add here; once it proposes a known one, UCB chooses
            # among the moves already tried that are legal in this deal
            proposed = rules.policy(state, actor, rng)
            if proposed is None:
                break
            options = {key_of(a): a for a in rules.legal(state, actor)}
            k = key_of(proposed)
            options.setdefault(k, proposed)
            if k not in node.children:
                node.children[k] = Node(actor=actor)
                for other in options:
                    if other in node.children:
                        node.children[other].available += 1
                node = node.children[k]
                path.append(node)
                state = self._apply(state, actor, proposed)
                break
            k = self._select(node, [o for o in options if o in node.children], rng)
            node = node.children[k]
            path.append(node)
            state = self._apply(state, actor, options[k])
        rewards = self._rollout(state, rng) if state is not None else None
        for n in path:
            n.visits += 1
            n.reward += rewards[n.actor] if rewards is not None and 0 <= n.actor < len(rewards) else 0.0

    def _select(self, node: Node, keys: list[bytes], rng: Rng) -> bytes:
        """UCB among ``keys`` (every one already a child), counting each as available once more."""
        for k in keys:
            node.children[k].available += 1
        unvisited = [k for k in keys if node.children[k].visits == 0]
        if unvisited:
            return unvisited[rng.below(len(unvisited))]
        return max(keys, key=lambda k: node.children[k].ucb())

    def _apply(self, state: Any, seat: int, action: Any) -> Any | None:
        try:
            return self.rules.apply(state, seat, action).state
        except GameError:
            return None  # a deal in which the move cannot be made: it earns nothing

    def _rollout(self, state: Any, rng: Rng) -> list[float]:
        rules = self.rules
        for _move in range(self.budget.depth):
            outcome = rules.outcome(state)
            if outcome is not None:
                return _shares(outcome.winners, self.seats)
            actor = _actor(rules, state)
            if actor is None:
                break
            action = rules.policy(state, actor, rng)
            if action is None:
                legal = rules.legal(state, actor)
                if not legal:
                    break
                action = legal[rng.below(len(legal))]
            nxt = self._apply(state, actor, action)
            if nxt is None:
                break
            state = nxt
        outcome = rules.outcome(state)
        if outcome is not None:
            return _shares(outcome.winners, self.seats)
        return list(self.sampler.value(rules, state))


def _actor(rules: Any, state: Any) -> int | None:
    """Who moves next in a simulated game (of several seats acting at once, the lowest; they never see each
    other's choice before their own in the real game, and the rollout's policy reads none of it)."""
    acting = sorted(rules.to_act(state))
    return acting[0] if acting else None


def _shares(winners: Sequence[int], seats: int) -> list[float]:
    out = [0.0] * seats
    for w in winners:
        if 0 <= w < seats:
            out[w] = 1.0 / len(winners)
    return out


def leader_value(points: Sequence[float], sharpness: float = 1.0) -> list[float]:
    """A chance to win from running totals: a softmax of each seat's lead, scaled by ``sharpness`` (points per
    unit of confidence).  What most samplers' ``value`` is built on."""
    if not points:
        return []
    top = max(points)
    weights = [math.exp((p - top) / max(sharpness, 1e-9)) for p in points]
    total = sum(weights)
    return [w / total for w in weights]


