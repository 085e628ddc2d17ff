"""Small tools for Legend of Heroes tests: scripted dice and hand-made table positions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rules.core import Rng, SeatInfo
from rules.legend.engine import Engine
from rules.legend.ruleset import LegendRuleset
from rules.legend.state import State
from rules.legend.view import LegendView


class ScriptedDice(Rng):
    """Dice that roll what the test says (then fall back to the seeded generator); shuffles keep order."""

    script: ClassVar[list[int]] = []

    def die(self, sides: int) -> int:
        if ScriptedDice.script:
            return ScriptedDice.script.pop(0)
        return super().die(sides)

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        return list(items)


def scripted(rolls: list[int]) -> LegendRuleset:
    ScriptedDice.script = list(rolls)
    return LegendRuleset(Engine(dice=ScriptedDice))


def table(rules: LegendRuleset, names: Sequence[str], **options: Any) -> State:
    seats = [SeatInfo(index=i, name=n) for i, n in enumerate(names)]
    return rules.setup(seats, options, seed=1).state  # type: ignore[no-any-return]


def ready_to_move(rules: LegendRuleset, state: State, doorways: Sequence[str]) -> State:
    """Everyone enters: each seat (in turn order) is placed on the given entrance doorway."""
    for seat, door in zip(list(state.order), doorways, strict=False):
        from rules.legend.state import Place

        state = rules.apply(state, seat, Place(to=door)).state
    return state


def put_on_room(state: State, room: str, card: str) -> None:
    """Lay a specific card face down on a room (the test builds the situation the book describes)."""
    state.rooms[room] = [card]


def public(state: State, rules: LegendRuleset | None = None) -> LegendView:
    """The public view of a state (what the story is told from)."""
    return (rules or LegendRuleset()).view(state, None)


def play_moves(rules: LegendRuleset, names: Sequence[str], moves: int, *, seed: int = 7,
               **options: Any) -> list[tuple[State, tuple[Any, ...]]]:
    """A real game played by Tabula's policy in every seat: each state reached (the first is the start), with
    the events that led to it; stops at the end of the game or after ``moves`` moves."""
    seats = [SeatInfo(index=i, name=n) for i, n in enumerate(names)]
    step = rules.setup(seats, options, seed=seed)
    out: list[tuple[State, tuple[Any, ...]]] = [(step.state, step.events)]
    rng = Rng(seed)
    state: State = step.state
    for _ in range(moves):
        acting = sorted(rules.to_act(state))
        if not acting:
            break
        seat = acting[rng.below(len(acting))]
        action = rules.policy(state, seat, rng)
        assert action is not None
        step = rules.apply(state, seat, action)
        state = step.state
        out.append((state, step.events))
    return out
