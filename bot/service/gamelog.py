"""Reading the action log: which rows still count.

The log is append-only.  Besides the game's own actions it holds the start, an abandon, the table's own
actions (``tabula.roll``: they never change the game) and undos: ``{"type": "tabula.undo", "undoes": SEQ}``
cancels the action logged at ``SEQ``.  Replay, history, export and verification all read the log through
``effective`` so that they agree on what happened."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

UNDO = "tabula.undo"


class Row(Protocol):
    @property
    def seq(self) -> int: ...
    @property
    def action(self) -> str: ...


def kind_of(row: Row) -> str:
    try:
        found = json.loads(row.action).get("type", "")
    except (ValueError, AttributeError):
        return ""
    return str(found)


def is_game_action(row: Row) -> bool:
    """An action of the game itself (not the start, an abandon, a roll or an undo)."""
    kind = kind_of(row)
    return kind not in ("start", "abandon", "") and not kind.startswith("tabula.")


def undone(rows: Iterable[Row]) -> set[int]:
    """The sequence numbers that a later undo cancelled."""
    out: set[int] = set()
    for row in rows:
        if kind_of(row) == UNDO:
            out.add(int(json.loads(row.action)["undoes"]))
    return out


def effective(rows: Sequence[Any]) -> list[Any]:
    """The game's own actions that still stand, in order: what a replay applies."""
    cancelled = undone(rows)
    return [r for r in rows if is_game_action(r) and r.seq not in cancelled]


def setup_names(rows: Sequence[Any], seats: Sequence[Any]) -> list[str]:
    """The players' names as the game was set up with them (the start row keeps them, since a seat can
    change hands later); games started before it did use their seats' names."""
    for row in rows:
        if kind_of(row) == "start":
            names = json.loads(row.action).get("names")
            if isinstance(names, list):
                return [str(n) for n in names]
            break
    return [s.name for s in sorted(seats, key=lambda s: s.seat)]
