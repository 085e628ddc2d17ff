"""How a game tells what happened: a table from each of its event types to the small function that tells it.

A game's ``telling.py`` keeps ``TELLERS``, a mapping from every event type its ``state.py`` declares to a
function ``(context, event) -> None`` that adds the event's lines to the context (the game's own object: the
view after the step, the names, the lines told so far, whatever running facts the game's telling needs).  An
event told by another's line, or on purpose not at all, maps to ``silent``, so that the table names every
event and a new event without its telling fails the conformance suite.  ``by_event`` builds the table from the
functions alone, each under the event type its signature names.  Nothing here names a game."""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType
from typing import Any, TypeVar

from rules.core import Event

C = TypeVar("C")

#: One event's telling: given the telling's context and the event, it adds the lines the event is told in.
Teller = Callable[[C, Any], None]


def silent(context: object, event: object) -> None:
    """The event is told by another event's line (or, on purpose, not at all)."""


def by_event(*tellers: Teller[C]) -> dict[type, Teller[C]]:
    """The table of ``tellers``, each under the event type its event parameter (the second) is annotated with,
    or under each type of a union: a teller's signature names its event once, and the table cannot disagree
    with it.  ``silent`` names no event; a game adds its silent entries to the table by hand, saying why."""
    table: dict[type, Teller[C]] = {}
    for teller in tellers:
        name = getattr(teller, "__qualname__", repr(teller))
        params = list(inspect.signature(teller).parameters)
        hint = typing.get_type_hints(teller).get(params[1]) if len(params) >= 2 else None
        kinds = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
        for kind in kinds:
            if not (isinstance(kind, type) and issubclass(kind, Event)):
                raise TypeError(f"{name}: its second parameter must be annotated with an event type, not {kind!r}")
            if kind in table:
                told = getattr(table[kind], "__qualname__", repr(table[kind]))
                raise TypeError(f"{name}: {kind.__name__} is told already, by {told}")
            table[kind] = teller
    return table


def tell_each(tellers: Mapping[type, Teller[C]], context: C, events: Iterable[object]) -> None:
    """Each event told in order by its entry in ``tellers`` (an event of no type the table knows says nothing:
    the log of an older game may hold one)."""
    for event in events:
        teller = tellers.get(type(event))
        if teller is not None:
            teller(context, event)


def event_types(state_module: ModuleType) -> list[type]:
    """Every event type a game's ``state.py`` declares: the classes defined there that extend ``Event`` and that no
    other class extends (a base such as a game's ``RealmEvent`` only gives its events a shared field and never
    stands in the log itself)."""
    return [value for value in vars(state_module).values()
            if isinstance(value, type) and issubclass(value, Event) and not value.__subclasses__()
            and value.__module__ == state_module.__name__]


def untold(tellers: Mapping[type, object], state_module: ModuleType) -> list[str]:
    """The names of the event types that have no entry in ``tellers``."""
    return sorted(t.__name__ for t in event_types(state_module) if t not in tellers)
