"""Race to Ten, shown to people: one line a move, the track as text, a menu of steps."""

from __future__ import annotations

from bot.present.base import Menu, Moment, Prompt, Telling
from tests.plugins.race import GOAL, RaceView, Stepped


class RacePresenter:
    def _track(self, view: RaceView) -> str:
        return "\n".join(f"{name}: " + "".join("●" if i == at else "·" for i in range(GOAL + 1))
                         for name, at in zip(view.names, view.at, strict=True))

    def _prompt(self, moment: Moment[RaceView]) -> Prompt | None:
        if moment.status != "active" or not moment.to_act:
            return None
        seat = min(moment.to_act)
        menu = Menu([(c.label, c.command) for c in moment.choices(seat)], placeholder="How far?")
        return Prompt(users=[moment.user_of(seat)], text="your step: 1, 2 or 3 squares", menus=[menu])

    def telling(self, moment: Moment[RaceView]) -> Telling:
        lines = [f"{moment.name_of(e.seat)} steps {e.by} to square {e.at}." for e in moment.events
                 if isinstance(e, Stepped)]
        if moment.outcome is not None:
            lines.append(f"🏆 {moment.outcome.summary}")
        return Telling(text="\n".join([*lines, self._track(moment.view())]), pictures=[], prompt=self._prompt(moment))

    def status(self, moment: Moment[RaceView]) -> Telling:
        return Telling(text=self._track(moment.view()), pictures=[], prompt=self._prompt(moment))

    def private(self, name: str, moment: Moment[RaceView], seat: int) -> Telling | None:
        if name != "sheet":
            return None
        return Telling(text=f"Your secret boost is {moment.view(seat).my_boost}.", pictures=[])

    def warm(self) -> int:
        return 0


PRESENTER = RacePresenter()
