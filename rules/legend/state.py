"""Legend of Heroes: the game state, the actions a seat can take and the events the game reports."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from rules.core import Action, Event

Phase = Literal["place", "move", "explore", "over"]

#: Token colours in seating order, each with the letter drawn on the token (a cue beyond colour).
COLOURS = (("red", "R"), ("blue", "B"), ("green", "G"), ("orange", "O"), ("white", "W"))

SOLO_WOUND_LIMIT = 8


class Player(msgspec.Struct):
    name: str
    fighter: str
    colour: str
    letter: str
    doorway: str | None = None
    wounded: bool = False
    wounds: int = 0
    treasure: list[str] = msgspec.field(default_factory=list)


class Exploration(msgspec.Struct):
    """A room being explored this turn."""

    room: str
    came_from: str  # the doorway the fighter entered by, where he retreats if wounded
    used: list[str] = msgspec.field(default_factory=list)  # cards read this visit (discarded at the end)
    pending: str | None = None  # the card in the Narrator's hand, not yet read out
    pending_from_room: bool = False  # the pending card was lying on the room rather than drawn from a pile
    heading: str = ""  # the doorway the player chose to move to: where they come out when the room ends


class State(msgspec.Struct):
    mode: Literal["starter", "solo"]
    narration: Literal["bot", "players"]
    rng: int
    players: list[Player]
    order: list[int]  # seats in turn order (clockwise); the Narrator is the seat before the explorer
    turn: int = 0  # index into ``order`` of the seat whose turn it is
    turn_no: int = 1
    phase: Phase = "place"
    rooms: dict[str, list[str]] = msgspec.field(default_factory=dict)  # face-down cards on each room
    revealed: dict[str, str] = msgspec.field(default_factory=dict)  # room -> its Room card, once read
    piles: dict[str, list[str]] = msgspec.field(default_factory=dict)  # draw piles, top card first
    discards: dict[str, list[str]] = msgspec.field(default_factory=dict)  # discard pile, by kind
    exploring: Exploration | None = None
    skips_in_row: int = 0
    last_move: dict[str, Any] | None = None  # {"seat", "from", "to"}: drawn as an arrow on the board


# --- actions --------------------------------------------------------------------------------------


class Place(Action, tag="place", frozen=True):
    """Put your fighter on the doorway square beside a dungeon entrance."""

    to: str


class Move(Action, tag="move", frozen=True):
    """Move to another doorway linked by one corridor or one room."""

    to: str


class Narrate(Action, tag="narrate", frozen=True):
    """The Narrator reads out the card in hand, in their own words (empty: let Tabula read it)."""

    text: str = ""
    auto: bool = False  # Tabula read it because the Narrator was away


LegendAction = Place | Move | Narrate


# --- events ---------------------------------------------------------------------------------------


class RollOff(Event, tag="roll_off", frozen=True):
    rounds: list[dict[int, int]]  # seat -> d20, one dict per round of rolling (a tie for first rolls again)
    first: int


class Dealt(Event, tag="dealt", frozen=True):
    fighters: dict[int, str]
    colours: dict[int, str]
    order: list[int]


class Shuffled(Event, tag="shuffled", frozen=True):
    pile: str
    cards: int


class RoomsDealt(Event, tag="rooms_dealt", frozen=True):
    rooms: int
    left_over: int


class TurnBegan(Event, tag="turn", frozen=True):
    seat: int
    turn_no: int


class Recovered(Event, tag="recovered", frozen=True):
    """A wounded fighter turns his card back over as his next turn starts."""

    seat: int


class Placed(Event, tag="placed", frozen=True):
    seat: int
    doorway: str


class Moved(Event, tag="moved", frozen=True):
    seat: int
    frm: str
    to: str
    via_room: str | None = None


class Entered(Event, tag="entered", frozen=True):
    seat: int
    room: str
    came_from: str
    resumed: bool = False  # a card was left here by an earlier visit


class AwaitNarration(Event, tag="await_narration", frozen=True):
    narrator: int
    explorer: int
    kind: str  # what kind of card the Narrator holds (public: the red arrow says it)


class CardRead(Event, tag="card_read", frozen=True):
    seat: int  # the explorer
    card: str
    narrator: int | None = None  # None: Tabula read it
    words: str = ""  # the Narrator's own telling
    auto: bool = False
    again: bool = False  # a danger left on the room, met again


class FightRoll(Event, tag="fight_roll", frozen=True):
    seat: int
    card: str
    who: Literal["fighter", "monster", "hazard"]
    roll: int
    need: int
    success: bool


class Overcame(Event, tag="overcame", frozen=True):
    seat: int
    card: str


class TreasureTaken(Event, tag="treasure", frozen=True):
    seat: int
    card: str
    gold: int


class Wounded(Event, tag="wounded", frozen=True):
    seat: int
    card: str
    room: str
    back_to: str
    wounds: int


class RoomExplored(Event, tag="room_explored", frozen=True):
    seat: int
    room: str
    name: str


class Exited(Event, tag="exited", frozen=True):
    seat: int
    room: str
    to: str


class Reshuffled(Event, tag="reshuffled", frozen=True):
    pile: str
    cards: int


class Skipped(Event, tag="skipped", frozen=True):
    seat: int
    reason: str


class GameEnded(Event, tag="game_ended", frozen=True):
    winners: list[int]
    gold: dict[int, int]
    reason: str


LegendEvent = (
    RollOff | Dealt | Shuffled | RoomsDealt | TurnBegan | Recovered | Placed | Moved | Entered | AwaitNarration
    | CardRead | FightRoll | Overcame | TreasureTaken | Wounded | RoomExplored | Exited | Reshuffled | Skipped
    | GameEnded
)
