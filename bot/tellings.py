"""The public telling of a move, the same for Discord and the terminal: the game's presenter tells its own
moves; the table tells its own (a roll); a free action's telling carries no prompt (it pings nobody and
stales no controls)."""

from __future__ import annotations

from typing import Any

from bot.moment import GameMoment
from bot.present import presenter
from bot.present.base import Telling
from rules.i18n import _
from rules.table import DiceRolled


def table_telling(moment: GameMoment[Any]) -> Telling:
    lines = []
    for e in moment.events:
        if isinstance(e, DiceRolled):
            shown = " + ".join(f"[{', '.join(map(str, d))}]" for d in e.dice if d)
            lines.append(_("🎲 {name} rolls `{expr}`: {dice} → **{total}**", name=moment.name_of(e.seat),
                           expr=e.expr, dice=shown, total=e.total))
    return Telling(text="\n".join(lines), pictures=[])


def telling_now(moment: GameMoment[Any]) -> Telling:
    """Blocking (Pillow draws here): call it from a worker thread on the event loop's side."""
    if moment.table_events:
        return table_telling(moment)
    telling = presenter(moment.spec.key).telling(moment)
    if moment.meta.free:
        telling.prompt = None
    return telling
