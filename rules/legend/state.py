"""Legend of Heroes: the game state, the actions a seat can take and the events the game reports."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from rules.core import Action, Event, SeatEvent

Phase = Literal["place", "move", "explore", "over"]
Mode = Literal["starter", "solo", "expanded"]
#: What the explorer must decide during an Expanded Game exploration (None: nothing; the story runs on).
#: "leader": a Monster or Hazard card is coming — keep the Leader or change him before it is drawn;
#: "strike": a Magic User with a spell leads against a Monster — attack or cast;
#: "fight": the danger struck back (or a Hazard wounded the Leader) — attack again, change Leader or retreat.
Decision = Literal["leader", "strike", "fight"]

#: Token colours in seating order, each with the letter drawn on the token (a cue beyond colour).
COLOURS = (("red", "R"), ("blue", "B"), ("green", "G"), ("orange", "O"), ("white", "W"))

SOLO_WOUND_LIMIT = 8


class Hero(msgspec.Struct):
    """One Hero of an Expanded Game Party, as it lies in the row."""

    id: str
    wounded: bool = False


class Player(msgspec.Struct):
    name: str
    fighter: str  # starter game: the Fighter; Expanded Game: the Party's Fighter
    colour: str
    letter: str
    doorway: str | None = None
    wounded: bool = False
    wounds: int = 0
    treasure: list[str] = msgspec.field(default_factory=list)
    #: Expanded Game: the five Heroes left to right; the last one is the Leader.
    party: list[Hero] = msgspec.field(default_factory=list)
    spell: str | None = None  # the Magic User's Spell card, face up beside him (everyone sees it)
    overwhelmed: bool = False  # the whole Party was wounded: its next turn is spent recovering


class Exploration(msgspec.Struct):
    """A room being explored this turn."""

    room: str
    came_from: str  # the doorway the fighter entered by, where he retreats if wounded
    used: list[str] = msgspec.field(default_factory=list)  # cards read this visit (discarded at the end)
    pending: str | None = None  # the card in the Narrator's hand, not yet read out
    pending_from_room: bool = False  # the pending card was lying on the room rather than drawn from a pile
    heading: str = ""  # the doorway the player chose to move to: where they come out when the room ends
    decision: Decision | None = None  # Expanded Game: what the explorer must choose before the story goes on
    coming: str = ""  # "monster" / "hazard": the kind of card announced before the Leader is chosen
    danger: str | None = None  # the Monster or Hazard card being fought, face up beside the Leader


class Note(msgspec.Struct):
    """A Narrator's scene note on a room, told again whenever a party enters it."""

    text: str
    by: int


class State(msgspec.Struct):
    mode: Mode
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
    spell_pile: list[str] = msgspec.field(default_factory=list)  # Expanded Game: face down, top card first
    notes: dict[str, Note] = msgspec.field(default_factory=dict)  # room -> the Narrator's scene note
    scene: dict[str, Any] | None = None  # {"room", "narrator", "explorer"}: the room a note would go on
    moment: int = 0  # counts the moves that change what may be done next (not rolls, notes or reordering)


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
    note: str = ""  # a scene note pinned to the room first (`/narrate text: note:` in one command)


class Lead(Action, tag="lead", frozen=True):
    """Make this Hero the Leader: swap his card with the Leader's (Expanded Game)."""

    hero: str


class Keep(Action, tag="keep", frozen=True):
    """Keep the Leader as he is and let the announced card be drawn (Expanded Game)."""


class Attack(Action, tag="attack", frozen=True):
    """The Leader attacks the Monster (or faces the Hazard again)."""


class Cast(Action, tag="cast", frozen=True):
    """The Magic User, leading, casts his Spell at the Monster instead of attacking."""


class Retreat(Action, tag="retreat", frozen=True):
    """Fall back to the doorway the Party came in by; the danger stays face down on the room."""


class Rest(Action, tag="rest", frozen=True):
    """Miss the turn: the Magic User studies a new spell and the Cleric tends the wounded."""


class Order(Action, tag="order", frozen=True):
    """Lay the Party out in a new order, left to right (the last is the Leader); outside fights."""

    heroes: list[str]


class Roll(Action, tag="roll", frozen=True):
    """Any player rolls dice for everyone to see (`/roll 2d20+3`)."""

    expr: str


class SceneNote(Action, tag="note", frozen=True):
    """The Narrator pins a short scene note to the room, told again when a party next enters it."""

    text: str


LegendAction = Place | Move | Narrate | Lead | Keep | Attack | Cast | Retreat | Rest | Order | Roll | SceneNote
#: Actions that change nothing about whose move it is or what they may choose: they leave ``moment`` alone,
#: so a player's buttons stay good while someone rolls dice or a Narrator writes a note.
FREE_ACTIONS = (Roll, SceneNote, Order)


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


class TurnBegan(SeatEvent, tag="turn", frozen=True):
    turn_no: int


class Recovered(SeatEvent, tag="recovered", frozen=True):
    """A wounded fighter turns his card back over as his next turn starts."""


class Placed(SeatEvent, tag="placed", frozen=True):
    doorway: str


class Moved(SeatEvent, tag="moved", frozen=True):
    frm: str
    to: str
    via_room: str | None = None


class Entered(SeatEvent, tag="entered", frozen=True):
    room: str
    came_from: str
    resumed: bool = False  # a card was left here by an earlier visit


class AwaitNarration(Event, tag="await_narration", frozen=True):
    narrator: int
    explorer: int
    kind: str  # what kind of card the Narrator holds (public: the red arrow says it)


class CardRead(SeatEvent, tag="card_read", frozen=True):
    """A story card read to the room; ``seat`` is the explorer's."""

    card: str
    narrator: int | None = None  # None: Tabula read it
    words: str = ""  # the Narrator's own telling
    auto: bool = False
    again: bool = False  # a danger left on the room, met again


class FightRoll(SeatEvent, tag="fight_roll", frozen=True):
    card: str
    who: Literal["fighter", "monster", "hazard"]
    roll: int
    need: int
    success: bool


class Overcame(SeatEvent, tag="overcame", frozen=True):
    card: str


class TreasureTaken(SeatEvent, tag="treasure", frozen=True):
    card: str
    gold: int


class Wounded(SeatEvent, tag="wounded", frozen=True):
    card: str
    room: str
    back_to: str
    wounds: int


class RoomExplored(SeatEvent, tag="room_explored", frozen=True):
    room: str
    name: str


class Exited(SeatEvent, tag="exited", frozen=True):
    room: str
    to: str


class Reshuffled(Event, tag="reshuffled", frozen=True):
    pile: str
    cards: int


class Skipped(SeatEvent, tag="skipped", frozen=True):
    reason: str


class PartiesDealt(Event, tag="parties_dealt", frozen=True):
    """Expanded Game: each player's five Heroes and one Spell card each, laid face up by the Magic User."""

    parties: dict[int, list[str]]
    spells: int
    dealt: dict[int, str] = msgspec.field(default_factory=dict)  # seat -> its Spell card (empty in old logs)


class DangerComing(SeatEvent, tag="danger_coming", frozen=True):
    """The red arrow points at a Monster or Hazard pile: the explorer may change Leader first."""

    kind: str
    leader: str
    waiting: str = ""  # the danger left face down on the room, when it is that one


class LeaderChanged(SeatEvent, tag="leader", frozen=True):
    hero: str
    was: str


class HeroRoll(SeatEvent, tag="hero_roll", frozen=True):
    """One roll of an Expanded Game fight: a Hero's attack, a danger's answer, or a spell."""

    card: str
    hero: str
    who: Literal["hero", "monster", "hazard", "spell"]
    roll: int
    need: int
    success: bool


class SpellCast(SeatEvent, tag="spell_cast", frozen=True):
    hero: str
    spell: str
    card: str
    result: Literal["failed", "no_effect", "success"]


class HeroWounded(SeatEvent, tag="hero_wounded", frozen=True):
    hero: str
    card: str
    leader: str | None  # who leads now (None: nobody is left standing)
    wounds: int  # the Party's wounds so far


class Retreated(SeatEvent, tag="retreated", frozen=True):
    card: str
    room: str
    back_to: str
    overwhelmed: bool = False  # every Hero was wounded: the Party had to fall back


class Rested(SeatEvent, tag="rested", frozen=True):
    healed: list[str]
    healer: str | None
    studying: str | None  # the Magic User reading his books (the spell he learns is told by SpellLearned)


class SpellLearned(SeatEvent, tag="spell_learned", frozen=True):
    hero: str
    spell: str = ""  # the new Spell card, face up (empty in the logs of games from before spells were public)


class PartyRecovered(SeatEvent, tag="party_recovered", frozen=True):
    healed: list[str]


class Reordered(SeatEvent, tag="reordered", frozen=True):
    heroes: list[str]


class Rolled(SeatEvent, tag="rolled", frozen=True):
    expr: str
    dice: list[list[int]]  # each term's dice (empty for a constant term)
    total: int


class NoteAdded(SeatEvent, tag="note_added", frozen=True):
    room: str
    text: str


class NoteRead(Event, tag="note_read", frozen=True):
    room: str
    text: str
    by: int


class GameEnded(Event, tag="game_ended", frozen=True):
    winners: list[int]
    gold: dict[int, int]
    reason: str


LegendEvent = (
    RollOff | Dealt | Shuffled | RoomsDealt | TurnBegan | Recovered | Placed | Moved | Entered | AwaitNarration
    | CardRead | FightRoll | Overcame | TreasureTaken | Wounded | RoomExplored | Exited | Reshuffled | Skipped
    | GameEnded | PartiesDealt | DangerComing | LeaderChanged | HeroRoll | SpellCast | HeroWounded | Retreated
    | Rested | SpellLearned | PartyRecovered | Reordered | Rolled | NoteAdded | NoteRead
)
