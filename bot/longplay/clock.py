"""The turn clock: how long whoever must act has, when they are reminded, and what happens when it runs out.

A game's clock (`/game new clock:`) runs while it is someone's move and starts again whenever the turn moves
on (a free action — a roll, a note — gives nobody more time).  At ``REMINDER_SHARE`` of it the players to act
are reminded once, in the thread (and by DM if they chose `/notify on`); when it runs out the game's
absent-player policy applies: **tabula** plays the seat with the game's own policy, **skip** passes the turn
where the game has a way to, **pause** stops the clock until the player or the host acts.

Everything here is arithmetic on the stored ``Clock``; the service applies it and the sweep reads one
indexed column (``wake_at``), so 10,000 running games cost one index range scan.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.store import Clock
from rules.core import GameError
from rules.i18n import N_, N_p, _, _p

CLOCK_OPTION = N_p("option", "clock")
POLICY_OPTION = N_p("option", "policy")
#: The clock choices of `/game new clock:` (seconds); "none" means the game waits for ever.
CLOCKS: dict[str, int] = {N_p("choice", "1h"): 3600, N_p("choice", "12h"): 12 * 3600,
                          N_p("choice", "24h"): 24 * 3600, N_p("choice", "3d"): 3 * 24 * 3600,
                          N_p("choice", "none"): 0}
POLICIES = (N_p("choice", "tabula"), N_p("choice", "skip"), N_p("choice", "pause"))
POLICY_WORDS = {
    "tabula": N_("Tabula plays the seat with its own policy, and says so"),
    "skip": N_("the seat's turn is passed (where the game allows it)"),
    "pause": N_("the clock stops until the player or the host acts"),
}
#: A policy as a choice: its name and what it means.
POLICY_CHOICE = N_("{policy} — {meaning}")
#: The reminder comes when this share of the clock has passed.
REMINDER_SHARE = 0.5
#: A seat Tabula has played this many times in a row is offered to the lobby's channel for a replacement.
STRIKES_TO_OFFER = 3
#: ``Clock.paused`` values.
RUNNING, HOST_PAUSED, WAITING = 0, 1, 2
#: Games stored before clocks existed have none: their behaviour does not change under them.
LEGACY_CLOCK = "none"


def clock_seconds(options: Mapping[str, object]) -> int:
    return CLOCKS.get(str(options.get(CLOCK_OPTION, LEGACY_CLOCK)), 0)


def policy_of(options: Mapping[str, object]) -> str:
    value = str(options.get(POLICY_OPTION, "tabula"))
    return value if value in POLICIES else "tabula"


def check_clock(clock: object, policy: object, *, can_skip: bool, title: str) -> tuple[str | None, str | None]:
    """The `/game new` clock and policy checked (None: not given), or a polite refusal naming the choices."""
    c = None if clock is None else str(clock).strip().lower()
    p = None if policy is None else str(policy).strip().lower()
    if c is not None and c not in CLOCKS:
        raise GameError(_("The clock is one of {clocks}.", clocks=_p("list", ", ").join(f"`{k}`" for k in CLOCKS)))
    if p is not None and p not in POLICIES:
        raise GameError(_("When a clock runs out Tabula can {policies}.",
                          policies=_p("list", ", ").join(f"`{k}`" for k in POLICIES)))
    if p == "skip" and not can_skip:
        raise GameError(_("{game} has no way to skip a turn, so the clock can only let Tabula play the seat "
                          "(`policy:tabula`) or wait (`policy:pause`).", game=title))
    return c, p


def schedule(seconds: int, now: float, starts: Iterable[float | None] = ()) -> Clock:
    """A fresh clock from ``now`` (or from the end of a vacation of someone who must act, if later)."""
    if seconds <= 0:
        return Clock()
    start = max([now, *(s for s in starts if s is not None)])
    deadline = start + seconds
    remind = start + seconds * REMINDER_SHARE
    return Clock(deadline=deadline, remind_at=remind, wake_at=remind, paused=RUNNING)


def reminded(clock: Clock) -> Clock:
    """The clock once its reminder has gone out: the next wake-up is the deadline."""
    return Clock(deadline=clock.deadline, remind_at=None, wake_at=clock.deadline, paused=clock.paused)


def stopped(paused: int) -> Clock:
    return Clock(paused=paused)


def pushed(clock: Clock, seconds: float) -> Clock:
    """The clock moved on by ``seconds`` (a vacation taken while it runs), or back (negative: what is left of
    a vacation ended early)."""
    if clock.deadline is None:
        return clock
    remind = None if clock.remind_at is None else clock.remind_at + seconds
    deadline = clock.deadline + seconds
    return Clock(deadline=deadline, remind_at=remind, wake_at=remind if remind is not None else deadline,
                 paused=clock.paused)


def timestamp(when: float | None) -> str:
    """Discord's relative timestamp (every reader sees it in their own time zone): ``<t:1700000000:R>``."""
    return "" if when is None else f"<t:{int(when)}:R>"


def describe(options: Mapping[str, Any]) -> str:
    seconds = clock_seconds(options)
    if not seconds:
        return _("no turn clock")
    name = next(k for k, v in CLOCKS.items() if v == seconds)
    return _("{clock} turn clock; then {policy}", clock=_p("choice", name), policy=_p("choice", policy_of(options)))


def fresh(rules: Any, state: object, seats: Iterable[Any], options: Mapping[str, object], now: float) -> Clock:
    """The clock for a turn that has just begun: none when no person must act (Tabula's seats move at once)."""
    to_act = rules.to_act(state)
    people = [s for s in seats if s.seat in to_act and s.user_id > 0]
    if not people:
        return Clock()
    return schedule(clock_seconds(options), now, (s.vacation_until for s in people))
