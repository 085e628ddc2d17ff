"""Actions of the table itself, the same in every game: ``/roll`` for now.

They are logged and replayed like a game's own actions but never touch the game's state: the dice come from
a generator seeded by the game's seed and the log position, so a replay rolls the same numbers and no game's
own dice are disturbed."""

from __future__ import annotations

from typing import TypeGuard

import msgspec

from rules import dice
from rules.core import Action, Event, IllegalAction, Rng, seed_state
from rules.i18n import _
from rules.spec import ActionMeta, Command

#: Verbs every game answers to, handled by the table before the game's own codec sees them.
TABLE_VERBS = ("roll",)


class TableRoll(Action, tag="tabula.roll", frozen=True):
    expr: str


class DiceRolled(Event, tag="tabula.rolled", frozen=True):
    seat: int
    expr: str
    dice: list[list[int]]
    total: int


TableAction = TableRoll


def parse(command: Command) -> TableAction:
    if command.verb == "roll":
        expr = command.get("expr").strip()
        if not expr:
            raise IllegalAction(_("Say which dice to roll: `/roll expr:2d6+3`.") + " " + _(dice.HELP))
        return TableRoll(expr=expr[:60])
    raise IllegalAction(_("`/{verb}` is not something the table does.", verb=command.verb))


def encode(action: TableAction) -> Command:
    return Command.of("roll", expr=action.expr)


def apply(action: TableAction, seat: int, seed: int, seq: int) -> tuple[Event, ...]:
    """The events of a table action taken as log entry ``seq`` of the game seeded with ``seed``."""
    terms = dice.parse(action.expr)
    rng = Rng(seed_state(seed ^ (seq * 0x9E3779B1)))
    rolled, total = dice.roll(terms, rng)
    return (DiceRolled(seat=seat, expr=dice.normalise(terms), dice=rolled, total=total),)


def meta(action: TableAction) -> ActionMeta:
    return ActionMeta(free=True, undoable=False)


def is_table(action: object) -> TypeGuard[TableAction]:
    return isinstance(action, TableRoll)


decoder = msgspec.json.Decoder(TableRoll)


def decode(raw: str) -> TableAction:
    return decoder.decode(raw)
