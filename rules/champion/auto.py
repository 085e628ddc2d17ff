"""Champion of the Empire played by Tabula: the move it makes for a seat it plays (an automatic seat, the
terminal's ``--auto``, the benchmark, the conformance suite's random games), and what it plays when the
game's turn timeout runs out (``timeout``, below).

The policy hunts: it learns lore where it can, moves towards its lair once it knows it, attacks there, rests
when hurt, develops whenever experience allows and buys what it can carry; otherwise it explores (story cards
bring the information).  Every random pick comes from the ``rng`` it is given.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from functools import cache
from typing import TypeVar

from rules.champion import state as st
from rules.champion.engine import Engine
from rules.champion.engine.combat import Melee
from rules.core import Rng

T = TypeVar("T")


@cache
def _distances(near: tuple[tuple[str, tuple[str, ...]], ...], goal: str) -> dict[str, int]:
    graph = dict(near)
    seen = {goal: 0}
    queue = deque([goal])
    while queue:
        here = queue.popleft()
        for nxt in graph.get(here, ()):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return seen


def _pick(rng: Rng, options: Sequence[T]) -> T:
    return options[rng.below(len(options))]


def _end(a: st.ChampionAction) -> str:
    if isinstance(a, st.Explore):
        return a.path[-1]
    return a.to if isinstance(a, (st.Caravan, st.Voyage)) else ""


def policy(game: Engine, state: st.State, seat: int, rng: Rng) -> st.ChampionAction | None:
    legal = game.legal(state, seat)
    if not legal:
        return None
    me = state.heroes[seat]
    if state.phase == "setup":
        picks = [a for a in legal if isinstance(a, st.Pick)]
        if picks:
            return _pick(rng, picks)
        buys = [a for a in legal if isinstance(a, st.Buy)]
        return _pick(rng, buys) if buys and rng.below(2) else st.Pass()
    if state.phase == "combat" and state.combat is not None:
        melee = game.table.melee(state)
        move: st.ChampionAction | None = melee.policy(seat)
        if move is not None:
            return move
        keep = st.Keep(cards=Melee.policy_keep(state.combat.hand))
        if state.combat.step == "keep" and keep in legal:
            return keep
        return _pick(rng, legal)
    if state.phase == "fate" and state.draw is not None:
        return st.Choose(option=game.stories.fate_policy(state))
    if state.phase == "item":
        owner = state.heroes[state.order[state.turn]]
        drops = [a for a in legal if isinstance(a, st.Drop)]
        best = game.items.loss_policy(owner) if game.table.losable(owner) else ""
        return next((a for a in drops if a.item == best), drops[0] if drops else legal[0])
    if state.phase == "lair":
        return st.Attack()
    if state.phase == "market":
        buys = [a for a in legal if isinstance(a, st.Buy)]
        return _pick(rng, buys) if buys and len(me.items) < st.ITEM_LIMIT and rng.below(3) else st.Pass()
    if state.phase in ("story", "monster"):
        return _pick(rng, [a for a in legal if isinstance(a, st.Choose)] or list(legal))
    return _turn(game, state, seat, legal, rng)


def _turn(game: Engine, state: st.State, seat: int, legal: Sequence[st.ChampionAction],
          rng: Rng) -> st.ChampionAction:
    me = state.heroes[seat]
    for a in legal:  # free moves first: develop, then heal when hurt
        if isinstance(a, st.Develop) or (isinstance(a, st.Use) and me.life <= me.max_life - 2):
            return a
    for kind in (st.Attack, st.Lore):
        found = next((a for a in legal if isinstance(a, kind)), None)
        if found is not None:
            return found
    if me.life <= 2 and st.Recuperate() in legal:
        return st.Recuperate()
    moves = [a for a in legal if isinstance(a, (st.Caravan, st.Explore, st.Voyage)) and _end(a)]
    lair = game.table.lair(me)
    if lair and moves:
        lib = game.lib
        near = tuple(sorted((k, tuple(v)) for k, v in lib.near.items()))
        dist = _distances(near, lair)
        return min(moves, key=lambda a: (dist.get(_end(a), 99), not isinstance(a, st.Explore), _end(a)))
    explores = [a for a in moves if isinstance(a, st.Explore)]
    roll = rng.below(10)
    if explores and roll < 7:
        return _pick(rng, explores)
    commissions = [a for a in legal if isinstance(a, st.Commission)]
    if commissions and roll < 9:
        return _pick(rng, commissions)
    rest: list[st.ChampionAction] = [a for a in legal if not isinstance(a, (st.Develop, st.Use))]
    return _pick(rng, moves or rest or legal)


def timeout(game: Engine, state: st.State) -> tuple[int, st.ChampionAction] | None:
    """What Tabula plays for an absent player acting for the opponents, or on someone else's turn."""
    if state.phase == "combat" and state.combat is not None:
        melee = game.table.melee(state)
        for seat in sorted(melee.to_act()):
            if seat == state.order[state.turn]:
                continue
            move = melee.policy(seat)
            if move is not None:
                return seat, move
        return None
    if state.phase == "item" and state.losing and int(state.losing[1]) != state.order[state.turn]:
        owner = state.heroes[state.order[state.turn]]
        return int(state.losing[1]), st.Drop(item=game.items.loss_policy(owner), auto=True)
    if state.phase == "fate" and state.draw is not None and state.draw.chooser != state.order[state.turn]:
        return state.draw.chooser, st.Choose(option=game.stories.fate_policy(state), auto=True)
    return None
