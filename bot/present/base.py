"""What a presenter is given and what it gives back: the platform side of showing a game to people.

A presenter (``bot/present/<key>.py``, exposing ``PRESENTER``) turns a ``Moment`` — the game as one seat or
everyone may see it, the events of the last action, and the legal choices already turned into commands and
labels by the game's codec — into a ``Telling``: text, pictures and the prompt for whoever must act next.  It
reads views, never raw state.  The Discord cogs and the terminal runner turn a Telling into messages.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeVar

from rules.core import Outcome
from rules.spec import ActionMeta, Command, GameSpec

V = TypeVar("V", covariant=True)
ViewT = TypeVar("ViewT", contravariant=True)

Style = Literal["primary", "secondary", "success", "danger"]


class Picture:
    """A picture a telling shows: its file name, its PNG, and what it shows in words (``alt``: the attachment's
    description, ≤ 1,000 characters).

    A presenter may give ``png`` as a function that draws it: the picture is then drawn when ``png`` is first
    read — in the context it was made in (its language), once — so that a picture nobody shows is never drawn
    (the older boards of a run of moves told as one, the terminal's pictures when it writes none, a check of
    a telling's words).  Whatever sends or saves a telling reads its pictures where drawing may block: the
    platform's tellings come drawn from their worker thread (``Telling.drawn``), never drawn on the event
    loop."""

    __slots__ = ("_draw", "_png", "alt", "filename")

    def __init__(self, filename: str, png: bytes | Callable[[], bytes], alt: str) -> None:
        self.filename = filename
        self.alt = alt
        self._png: bytes | None = png if isinstance(png, bytes) else None
        self._draw: tuple[contextvars.Context, Callable[[], bytes]] | None = \
            None if isinstance(png, bytes) else (contextvars.copy_context(), png)

    @property
    def png(self) -> bytes:
        found = self._png
        if found is None:
            pending = self._draw
            if pending is None:  # another thread has just drawn it (it sets the PNG first)
                assert self._png is not None
                return self._png
            context, draw = pending
            found = self._png = context.copy().run(draw)  # a copy: two threads may read one picture at once
            self._draw = None
        return found

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Picture):
            return NotImplemented
        return (self.filename, self.alt, self.png) == (other.filename, other.alt, other.png)

    __hash__ = None  # type: ignore[assignment]  # compared by content, as the dataclass it was

    def __repr__(self) -> str:
        size = f"{len(self._png)} bytes" if self._png is not None else "not drawn yet"
        return f"Picture({self.filename!r}, {size}, alt={self.alt!r})"


@dataclass(slots=True)
class Button:
    """A button that plays a command, or opens one of the game's private views for whoever presses it."""

    label: str
    command: Command | None = None
    view: str | None = None
    style: Style = "secondary"
    emoji: str | None = None

    @property
    def typed(self) -> str:
        """What to type in the terminal for the same thing."""
        if self.command is not None:
            return self.command.typed()
        return f"/{self.view}" if self.view else ""


@dataclass(slots=True)
class Menu:
    """A select menu: each entry is a whole command (at most 25)."""

    choices: list[tuple[str, Command]]
    placeholder: str = "Choose…"


@dataclass(slots=True)
class Prompt:
    """What the players who must act are asked to do next."""

    users: list[int]  # who must act (named in the prompt's line; none for a private view's controls)
    text: str  # "your move" line, without mentions (the transport adds them)
    menus: list[Menu] = field(default_factory=list)
    buttons: list[Button] = field(default_factory=list)
    #: Of ``users``, those the message notifies (None: all of them).  The platform leaves out whoever is still
    #: choosing since they were last asked (bot/delivery/tellings.py): a ping means the turn has passed to you.
    pinged: list[int] | None = None

    @property
    def notified(self) -> list[int]:
        """The people the message pings (Tabula's own seats never)."""
        return [u for u in self.users if u > 0 and (self.pinged is None or u in self.pinged)]


@dataclass(slots=True)
class Telling:
    text: str
    pictures: list[Picture]
    prompt: Prompt | None = None
    #: A running message this telling continues (a fight, card by card): when the game's newest prompt was
    #: posted with the same key, the platform appends the text to that message and gives it the new controls
    #: and pictures, instead of posting a new message; whoever must act next is still pinged, in a short line.
    continues: str | None = None

    def drawn(self) -> Telling:
        """This telling with all its pictures drawn (blocking: Pillow draws here; call it where a telling is made,
        in a worker thread, before it goes to the event loop)."""
        for picture in self.pictures:
            picture.png  # noqa: B018  (reading it draws it)
        return self


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal action of a seat, as the codec names and labels it."""

    command: Command
    label: str


@dataclass(frozen=True, slots=True)
class SeatName:
    seat: int
    user_id: int
    name: str


class Moment(Protocol[V]):
    """The game after a start, a move or a look: everything a presenter may read."""

    @property
    def game_id(self) -> int: ...
    @property
    def spec(self) -> GameSpec: ...
    @property
    def status(self) -> str: ...  # "active", "finished" or "abandoned"
    @property
    def seats(self) -> Sequence[SeatName]: ...
    @property
    def actor(self) -> int | None: ...  # the seat that acted (None for the start or a look)
    @property
    def command(self) -> Command | None: ...  # what it did, as a command
    @property
    def meta(self) -> ActionMeta: ...
    @property
    def by_tabula(self) -> bool: ...  # Tabula played this move (a turn timeout, or a seat it plays)
    @property
    def auto_seat(self) -> bool: ...  # the acting seat is one Tabula plays (so not a timeout)
    @property
    def timed_out(self) -> bool: ...  # Tabula moved for a person whose clock ran out (the first move of such a run)
    @property
    def events(self) -> tuple[object, ...]: ...
    @property
    def outcome(self) -> Outcome | None: ...
    @property
    def to_act(self) -> frozenset[int]: ...

    def view(self, seat: int | None = None) -> V: ...
    def choices(self, seat: int) -> list[Choice]: ...
    def user_of(self, seat: int) -> int: ...
    def name_of(self, seat: int) -> str: ...


class Presenter(Protocol[ViewT]):
    def telling(self, moment: Moment[ViewT]) -> Telling:
        """The message after a start or a move: the story, revealed cards, the board, who is next."""
        ...

    def status(self, moment: Moment[ViewT]) -> Telling:
        """`/game status`: the board, whose turn it is, the standings."""
        ...

    def private(self, name: str, moment: Moment[ViewT], seat: int) -> Telling | None:
        """One of the game's private views (its spec's ``view`` verbs: "sheet", "hand", "party", "card"),
        as ``seat`` alone may see it; None when there is nothing to show now (the platform says so), or a
        GameError whose words say why, when the game can say it better."""
        ...

    def warm(self) -> int:
        """Draw every static picture once (in a worker thread at start-up); returns how many."""
        ...


def seats_acting(moment: Moment[object]) -> tuple[list[int], list[int]]:
    """The seats that must act now, in seat order, and their players' user ids (none once the game is over)."""
    seats = sorted(moment.to_act) if moment.status == "active" else []
    return seats, [moment.user_of(s) for s in seats]


def game_title(moment: Moment[object]) -> str:
    return f"{moment.spec.title} · #{moment.game_id}"
