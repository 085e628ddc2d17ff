"""What a game's web page shows at one step of its history, for the public or for one seat.

Everything comes from the bot's own replay (``bot.service.records``: the stored log walked with the game's engine) and
its own presenter: the board and the standings are the presenter's ``status`` (what ``/game status`` and
``/game replay`` post in the thread), the telling is the history's public lines, and a personal page adds the
seat's private views (``presenter.private``, what the bot answers that seat alone).  A secret is therefore
shown exactly when the thread shows it: history lines name a secret move only once the game has ended, and
every picture and text is drawn from views, never from the raw state.

Blocking (the engine and Pillow): the server calls ``step`` from a worker thread.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from markupsafe import Markup, escape

from bot.delivery.tellings import private_now, status_now
from bot.longplay.clock import HOST_PAUSED, WAITING, describe, timestamp
from bot.present.base import Picture, SeatName, seats_acting
from bot.service.moment import GameMoment
from bot.service.records import Game
from rules import GameError
from rules.i18n import _
from rules.registry import AnyRuleset

#: How many of the moves before the shown step the page lists.
RECENT = 12

_TIME = re.compile(r"&lt;t:(\d{1,12})(?::[tTdDfFR])?&gt;")
_MENTION = re.compile(r"&lt;@!?(\d{1,20})&gt;")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_STRIKE = re.compile(r"~~(.+?)~~")
_CODE = re.compile(r"`([^`]+?)`")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)([^*]+?)(?<!\s)\*(?![\w*])|(?<![\w_])_(?!\s)([^_]+?)(?<!\s)_(?![\w_])")


def markdown(text: str, seats: Sequence[SeatName] = ()) -> Markup:
    """Discord's little markdown (bold, italics, strike-through, code, timestamps, mentions) as safe HTML: the
    text is escaped first, so nothing in it can become markup of its own."""
    names = {s.user_id: s.name for s in seats}
    out = str(escape(text))
    out = _CODE.sub(lambda m: f"<code>{m[1]}</code>", out)
    out = _BOLD.sub(lambda m: f"<strong>{m[1]}</strong>", out)
    out = _STRIKE.sub(lambda m: f"<del>{m[1]}</del>", out)
    out = _ITALIC.sub(lambda m: f"<em>{m[1] or m[2]}</em>", out)
    out = _TIME.sub(lambda m: _time_tag(int(m[1])), out)
    out = _MENTION.sub(lambda m: str(escape("@" + names.get(int(m[1]), "…"))), out)
    return Markup(out.replace("\n", "<br>\n"))


def _time_tag(when: int) -> str:
    moment = datetime.fromtimestamp(when, tz=UTC)
    return f'<time datetime="{moment.isoformat()}">{moment.strftime("%Y-%m-%d %H:%M")} UTC</time>'


@dataclass(slots=True)
class Shown:
    """A picture on the page: its bytes are served at ``/pic/<step>/<index>``, its words are its alt text."""

    picture: Picture
    digest: str

    @property
    def alt(self) -> str:
        return self.picture.alt


@dataclass(slots=True)
class SeatPanel:
    name: str
    to_act: bool
    you: bool


@dataclass(slots=True)
class PrivateView:
    text: Markup
    pictures: list[Shown]


@dataclass(slots=True)
class Step:
    """One step of one page: everything the template and the picture route read."""

    number: int  # the log entry shown (0: the start)
    index: int  # its place among the steps
    steps: list[int]  # the entries after which the board may have changed (``Timeline.positions``)
    total: int  # entries in the log after the start
    status: str  # the game's status ("active" for any step before the newest)
    caption: Markup
    telling: Markup
    pictures: list[Shown]
    recent: list[Markup]
    seats: list[SeatPanel]
    clock: Markup | None = None
    result: Markup | None = None
    private: list[PrivateView] = field(default_factory=list)

    @property
    def first(self) -> int:
        return self.steps[0]

    @property
    def last(self) -> int:
        return self.steps[-1]

    @property
    def previous(self) -> int:
        return self.steps[max(self.index - 1, 0)]

    @property
    def next(self) -> int:
        return self.steps[min(self.index + 1, len(self.steps) - 1)]

    @property
    def newest(self) -> bool:
        return self.number == self.last


def shown(pictures: Sequence[Picture]) -> list[Shown]:
    return [Shown(p, hashlib.sha256(p.png).hexdigest()[:16]) for p in pictures]


def view_names(rules: AnyRuleset) -> list[str]:
    """The game's private views, as its spec names them (``hand``, ``sheet``…), in order and once each."""
    names: list[str] = []
    for verb in rules.spec.verbs:
        if verb.kind == "view":
            name = verb.view or verb.name
            if name not in names:
                names.append(name)
    return names


def private_views(moment: GameMoment[Any], seat: int) -> list[PrivateView]:
    """Every private view of ``seat`` as the bot answers that seat alone (nothing to show: left out)."""
    out: list[PrivateView] = []
    for name in view_names(moment.rules):
        try:
            told = private_now(name, moment, seat)
        except GameError:  # the game's polite "not in this game" (a view of a variant not played): nothing here
            continue
        if told is not None:
            out.append(PrivateView(markdown(told.text, moment.seats), shown(told.pictures)))
    return out


def content(moment: GameMoment[Any], seat: int | None) -> tuple[Markup, list[Shown], list[PrivateView]]:
    """The board's part of a page at one moment: the status text, its pictures and, for a seat, its private
    views.  What the secrecy tests compare."""
    told = status_now(moment)
    private = private_views(moment, seat) if seat is not None else []
    return markdown(told.text, moment.seats), shown(told.pictures), private


def clock_text(moment: GameMoment[Any]) -> Markup | None:
    """Where the turn clock stands (the words ``/game status`` uses)."""
    if moment.status != "active":
        return None
    if moment.paused == HOST_PAUSED:
        return markdown(_("⏸️ Paused by the host: the clock is stopped (`/game resume`)."))
    if moment.paused == WAITING:
        return markdown(_("⏸️ The clock ran out; the game waits for the player to move (or the host)."))
    if moment.clock_deadline:
        return markdown(_("⏳ {clock}; this turn's clock runs out {when}.", clock=describe(moment.options),
                          when=timestamp(moment.clock_deadline)))
    return None


def step(game: Game, lines: Sequence[str], number: int | None, seat: int | None, *, language: str = "en",
         index: int | None = None, clock_deadline: float | None = None, paused: int = 0) -> Step:
    """The page at log entry ``number`` (None: the newest; a number between steps shows the step before it), or
    at the ``index``-th step."""
    tl = game.timeline
    steps = tl.positions()
    if index is not None:
        number = steps[max(0, min(index, len(steps) - 1))]
    wanted = steps[-1] if number is None else max(0, min(number, len(tl.entries)))
    at = max(p for p in steps if p <= wanted)
    index = steps.index(at)
    newest = at == steps[-1]
    status = game.status if newest else "active"
    moment: GameMoment[Any] = GameMoment(
        game_id=game.game_id, rules=game.rules, _state=tl.after(at), seats=game.seats, status=status,
        options=dict(game.options), language=language,
        clock_deadline=clock_deadline if newest else None, paused=paused if newest else 0)
    telling, pictures, private = content(moment, seat)
    if at == 0:
        caption = _("**{game}** — replay, the board after the start", game=game.title)
    else:
        caption = _("**{game}** — replay, the board after move {move} of {moves}", game=game.title, move=at,
                    moves=len(tl.entries))
    recent = [markdown(line, game.seats) for line in lines[max(0, at - RECENT):at]]
    acting, _users = seats_acting(moment)
    panels = [SeatPanel(s.name, s.seat in acting, s.seat == seat) for s in game.seats]
    result = None
    if newest and game.status == "finished":
        outcome = game.rules.outcome(tl.final)
        if outcome is not None:
            result = markdown(f"🏆 {outcome.summary}", game.seats)
    elif newest and game.status == "abandoned":
        result = markdown(_("The game was abandoned."))
    return Step(number=at, index=index, steps=steps, total=len(tl.entries), status=status,
                caption=markdown(caption), telling=telling, pictures=pictures, recent=recent, seats=panels,
                clock=clock_text(moment), result=result, private=private)


__all__ = ["RECENT", "PrivateView", "SeatPanel", "Shown", "Step", "content", "markdown", "private_views", "step",
           "view_names"]
