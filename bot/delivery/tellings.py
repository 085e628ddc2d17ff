"""The public telling of a move, the same for Discord and the terminal: the game's presenter tells its own
moves; the table tells its own (a roll); a free action's telling carries no prompt (it pings nobody and
stales no controls).

A ping means the turn has passed to you: whoever was to act before a move, and still is after it (and after
every move of Tabula's that followed it), is still choosing and is not pinged again.  A run of moves (a
person's move and the moves Tabula's seats made after it, or Tabula's moves alone) is told as one telling:
the lines in order, one picture of each kind (the newest), and the prompt of the last."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

from bot.present import presenter
from bot.present.base import Picture, Telling
from bot.service.moment import GameMoment
from bot.service.records import public_words
from rules.i18n import _, _n
from rules.table import DiceRolled

#: A run's lines beyond this many characters are left out of its telling, oldest first (Discord shows 2,000
#: characters a message; a table of Tabulas playing a game out must not flood the thread).
RUN_BUDGET = 1800
SLOW_ENV = "TABULA_TEST_SLOW_PICTURES"  # loopback tests only (with TABULA_FAKE_DISCORD): seconds per drawing


def table_telling(moment: GameMoment[Any]) -> Telling:
    lines = []
    for e in moment.events:
        if isinstance(e, DiceRolled):
            shown = " + ".join(f"[{', '.join(map(str, d))}]" for d in e.dice if d)
            lines.append(_("🎲 {name} rolls `{expr}`: {dice} → **{total}**", name=moment.name_of(e.seat),
                           expr=e.expr, dice=shown, total=e.total))
    return Telling(text="\n".join(lines), pictures=[])


def slowed() -> None:
    """Loopback tests only: draw as slowly as a loaded machine would (``TABULA_TEST_SLOW_PICTURES`` seconds per
    drawing).  Nothing without that variable and the fake Discord's."""
    if os.environ.get("TABULA_FAKE_DISCORD"):
        delay = float(os.environ.get(SLOW_ENV) or 0)
        if delay > 0:
            time.sleep(delay)


def still_choosing(moments: Sequence[GameMoment[Any]]) -> frozenset[int]:
    """The seats that were to act before the first of ``moments`` and still were after each of them: they were
    asked already and are still choosing, or they moved and go on with their own turn (they are there, and the
    answer to their own press shows what comes next; not when Tabula moved for them because they were away).
    A start, with nothing before it, has none."""
    first = moments[0]
    if first._before is None or first.actor is None:
        return frozenset()
    seats = frozenset(first.rules.to_act(first._before))
    for m in moments:
        seats &= m.to_act
        if m.by_tabula and not m.auto_seat and m.actor in seats:
            seats -= {m.actor}  # Tabula moved for an absent player (their clock ran out): they are not there
    return seats


def _pinging(telling: Telling, moments: Sequence[GameMoment[Any]]) -> Telling:
    """Only those the turn has passed to are pinged: nobody still choosing is pinged again."""
    prompt = telling.prompt
    if prompt is None or not prompt.users:
        return telling
    steady = still_choosing(moments)
    if steady:
        last = moments[-1]
        quiet = {s.user_id for s in last.seats if s.seat in steady}
        prompt.pinged = [u for u in (prompt.users if prompt.pinged is None else prompt.pinged) if u not in quiet]
    return telling


def undo_line(name: str, label: str | None) -> str:
    """What the thread says of a move taken back: only what the move's own public telling said of it (the
    game's words for it, or, for a secret move, that it was a secret choice)."""
    if label is None:
        return _("↩️ {name} took back a secret choice.", name=name)
    return _("↩️ {name} took back their move ({move}).", name=name, move=label)


def undo_telling(moment: GameMoment[Any]) -> Telling:
    """An undo, told in the thread: its line (naming the move only as its public telling did), then the game as
    it stands again.  The same for the press that made it and for the outbox telling it after a crash."""
    assert moment.undone is not None
    seat, action = moment.undone
    label = public_words(moment.rules, moment.state, seat, action, reveal=False)  # a secret move is not named
    telling = presenter(moment.spec.key).status(moment)
    telling.text = f"{undo_line(moment.name_of(seat), label)}\n{telling.text}"
    return telling


def _one(moment: GameMoment[Any]) -> Telling:
    if moment.undone is not None:
        return undo_telling(moment)
    if moment.table_events:
        return table_telling(moment)
    telling = presenter(moment.spec.key).telling(moment)
    if moment.meta.free:
        telling.prompt = None
    return telling


def telling_now(moment: GameMoment[Any]) -> Telling:
    """Blocking (Pillow draws here): call it from a worker thread on the event loop's side."""
    slowed()
    return told(moment).drawn()


def told(moment: GameMoment[Any]) -> Telling:
    """The same telling as ``telling_now``, its pictures not drawn yet: each is drawn when its bytes are first
    read, and one never read is never drawn (the terminal's demo writes only some)."""
    return _pinging(_one(moment), [moment])


def private_now(name: str, moment: GameMoment[Any], seat: int) -> Telling | None:
    """One of the game's private views for ``seat`` (blocking, as ``telling_now``)."""
    slowed()
    told = presenter(moment.spec.key).private(name, moment, seat)
    return told.drawn() if told is not None else None


def status_now(moment: GameMoment[Any]) -> Telling:
    """The game as it stands (``/game status``, a replay's board, the web page), drawn (blocking, as
    ``telling_now``)."""
    return presenter(moment.spec.key).status(moment).drawn()


def run_telling(moments: Sequence[GameMoment[Any]]) -> Telling:
    """One telling for a run of moves told together (blocking, as ``telling_now``): every move's lines in order
    (the oldest of a long run left out, and counted), one picture of each kind, the newest (the older ones are
    never drawn), and the last move's prompt, pinging only those the turn has passed to over the whole run."""
    if len(moments) == 1:
        return telling_now(moments[0])
    slowed()
    tellings = [_one(m) for m in moments]
    texts = [t.text for t in tellings if t.text.strip()]
    kept: list[str] = []
    size = 0
    for text in reversed(texts[1:]):
        if size + len(text) + 1 > RUN_BUDGET and kept:
            break
        kept.append(text)
        size += len(text) + 1
    left_out = len(texts) - 1 - len(kept)
    lines = texts[:1]
    if left_out:
        lines.append(_n("… and {n} more move — `/game history` has every move.",
                        "… and {n} more moves — `/game history` has every move.", left_out, n=left_out))
    lines += reversed(kept)
    pictures: dict[str, Picture] = {}
    for t in tellings:
        for p in t.pictures:
            pictures.pop(p.filename, None)
            pictures[p.filename] = p
    last = tellings[-1]
    keys = {t.continues for t in tellings}
    told = Telling(text="\n".join(lines), pictures=list(pictures.values())[-10:], prompt=last.prompt,
                   continues=last.continues if len(keys) == 1 else None)
    if moments[-1].meta.free:
        told.prompt = None
    return _pinging(told, moments).drawn()


__all__ = ["RUN_BUDGET", "private_now", "run_telling", "status_now", "still_choosing", "table_telling", "telling_now",
           "told", "undo_line", "undo_telling"]
