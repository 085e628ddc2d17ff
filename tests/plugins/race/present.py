"""Race to Ten, shown to people: one line a move, the track as text, a menu of steps."""

from __future__ import annotations

import os
import time
from pathlib import Path

from PIL import Image, ImageDraw

from bot.present.base import Menu, Moment, Prompt, Telling
from tests.plugins.race import GOAL, RaceView, Stepped


def _slow_picture() -> None:
    """Tests only: while the file ``RACE_SLOW_DRAW`` names exists, each telling first draws for as many seconds
    as it says (Pillow in the worker thread, which nothing can interrupt), as a big map can."""
    flag = os.environ.get("RACE_SLOW_DRAW")
    if not flag or not os.path.exists(flag):
        return
    end = time.monotonic() + float(Path(flag).read_text() or 20)
    image = Image.new("RGB", (640, 640))
    pen = ImageDraw.Draw(image)
    n = 0
    while time.monotonic() < end:
        n += 1
        pen.ellipse((n % 600, n % 500, n % 600 + 40, n % 500 + 40), fill=(n % 256, 80, 160))


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
        _slow_picture()
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
