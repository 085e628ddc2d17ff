"""What every game shares: the error hierarchy, the seeded dice, seats, actions, events and steps (the seam
itself, ``Ruleset``, is ``rules.spec``).

Nothing here (or anywhere under ``rules/``) imports discord, PIL, a database or asyncio: a rule runs in
microseconds and can be tested, replayed and fuzzed on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import msgspec

_T = TypeVar("_T")
S_co = TypeVar("S_co", covariant=True)
E_co = TypeVar("E_co", covariant=True)

# --- errors: ``str(err)`` is what the player reads ------------------------------------------------


class GameError(Exception):
    """A move the game refuses.  The message is written for the player, and says what is allowed."""


class IllegalAction(GameError):
    """The move breaks a rule."""


class NotYourTurn(GameError):
    """Someone else must act first."""


class GameOver(GameError):
    """The game has ended; nothing more can be played."""


class StaleAction(GameError):
    """The button or choice belongs to an earlier moment of the game."""


# --- dice -----------------------------------------------------------------------------------------

_MASK = (1 << 64) - 1


class Rng:
    """A small seeded generator (SplitMix64) whose whole state is one integer kept in the game state.

    Used inside ``apply`` on the copy being built: read ``rng.state`` back into the new state when done.
    """

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, so no bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self.next64()
            if v < limit:
                return v % n

    def die(self, sides: int) -> int:
        return self.below(sides) + 1

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def copier(kind: type[_T]) -> Callable[[_T], _T]:
    """A deep copy of a game state through its own JSON form: ``apply`` works on a copy and never mutates
    its input, and the copy is exactly what a save and a load would give."""
    enc, dec = msgspec.json.Encoder(), msgspec.json.Decoder(kind)

    def copy(state: _T) -> _T:
        return dec.decode(enc.encode(state))

    return copy


def draw(piles: dict[str, list[str]], discards: dict[str, list[str]], key: str, rng: Rng) -> tuple[str | None, int]:
    """The top card of pile ``key`` (None when the pile and its discards are both empty).  An empty pile first
    takes its discards back, shuffled: the second value is how many (0 when the pile was not empty), for the
    game to tell."""
    pile = piles[key]
    reshuffled = 0
    if not pile:
        back = discards.get(key, [])
        if not back:
            return None, 0
        piles[key] = pile = rng.shuffle(back)
        discards[key] = []
        reshuffled = len(pile)
    return pile.pop(0), reshuffled


def seed_state(seed: int) -> int:
    """Spread a user-chosen seed (any int) over 64 bits so that nearby seeds give unrelated games."""
    return Rng(seed ^ 0x5DEECE66D).next64()


# --- seats, steps, outcomes ---------------------------------------------------------------------


class SeatInfo(msgspec.Struct, frozen=True):
    """A player as the rules know them: position at the table and the name to print."""

    index: int
    name: str


class Event(msgspec.Struct, frozen=True, tag_field="type"):
    """Base of every event; subclasses set ``tag`` to name themselves in the log."""


class SeatEvent(Event, frozen=True):
    """Base of the events about one seat: ``seat`` is their first field (in the log too, as it was when each
    event declared it itself)."""

    seat: int


class Action(msgspec.Struct, frozen=True, tag_field="type"):
    """Base of every action a seat can take."""


class Outcome(msgspec.Struct, frozen=True):
    winners: tuple[int, ...]
    scores: dict[int, int]
    summary: str
    #: The side each seat played, by seat, where seats are not alike (a realm, a faction): what the balance
    #: command counts wins by.  Empty: the seats themselves are the sides.
    sides: tuple[str, ...] = ()


class Step(msgspec.Struct, Generic[S_co, E_co], frozen=True):
    """The result of applying one action: the new state and what happened, in order (``Step[State, Event]``)."""

    state: S_co
    events: tuple[E_co, ...]
