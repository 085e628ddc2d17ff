"""Autokrator's state, actions and events: msgspec Structs with a lossless JSON form."""

from __future__ import annotations

import msgspec

from rules.core import Action, Event


class Unit(msgspec.Struct):
    """A pawn on the board (King, General or Admiral) and what it has done in this epoch."""

    region: str
    lives: int
    done: bool = False
    moves: int = 0
    attacked: bool = False
    own_moves: bool = True  # every move so far led from one's own region to one's own region
    campaign: bool = False


class RealmState(msgspec.Struct):
    key: str
    seat: int  # -1: not in play (the 2-player game)
    treasury: int
    score: int = 0
    supply: int = 7
    units: dict[str, Unit] = msgspec.field(default_factory=dict)
    cards: dict[str, list[str]] = msgspec.field(default_factory=dict)  # holder -> its three cards this epoch
    pending: dict[str, list[str]] = msgspec.field(default_factory=dict)  # the assignment being made
    assigned: bool = False
    spied: list[str] = msgspec.field(default_factory=list)  # "realm.holder" this realm has seen this epoch
    known: list[str] = msgspec.field(default_factory=list)  # own holders whose cards fought in the open
    offered: bool = False  # offered a truce this epoch
    conquests: int = 0


class Side(msgspec.Struct):
    realm: str  # a realm key, or "" for the neutral side
    holder: str  # king, general, admiral, garrison; "neutral" (a region) or "raid" (a Neutral General)
    cards: list[str]
    modifier: int
    lineup: list[str] = msgspec.field(default_factory=list)
    marks: list[int] = msgspec.field(default_factory=list)

    @property
    def laid(self) -> bool:
        return bool(self.lineup)


class Battle(msgspec.Struct):
    region: str
    attacker: Side
    defender: Side
    stage: str  # "fields" (attacker picks two), "field" (defender picks one), "lineup" (both lay cards)
    fields: list[str] = msgspec.field(default_factory=list)
    field: str = ""


class Retreat(msgspec.Struct):
    realm: str
    unit: str
    region: str
    options: list[str]


class Truce(msgspec.Struct):
    realms: list[str]
    until: int  # the last epoch it holds


class State(msgspec.Struct):
    names: list[str]
    mode: str  # full, fast, east, west
    raids: bool
    seats: list[str]  # the realm each seat plays
    order: list[str]  # realms in play, in the book's turn order
    realms: dict[str, RealmState]
    owner: dict[str, str]  # region -> realm, "" neutral, "x" never conquered
    pieces: dict[str, str]  # region -> realm whose Garrison piece stands there
    epoch: int = 1
    phase: str = "assign"  # assign, turns, battle, retreat, truce, over
    turn: int = 0  # index into order: the realm acting
    current: str = ""  # the unit in the middle of its activation
    battle: Battle | None = None
    retreat: Retreat | None = None
    offer: list[str] = msgspec.field(default_factory=list)  # [from, to] while a truce is asked for
    truces: list[Truce] = msgspec.field(default_factory=list)
    winner: str = ""
    reason: str = ""
    tick: int = 0
    rng: int = 0
    #: Before the first dealing, when the realms are chosen (``realms:choice`` or ``realms:auction``): the seats
    #: still to choose, in the order they choose; and each seat's bid in points (-1: not yet; auction only).
    picks: list[int] = msgspec.field(default_factory=list)
    bids: list[int] = msgspec.field(default_factory=list)


# --- actions -----------------------------------------------------------------------------------------


class Assign(Action, tag="assign", frozen=True):
    holder: str
    cards: tuple[str, ...]


class Move(Action, tag="move", frozen=True):
    unit: str
    to: str


class Voyage(Action, tag="voyage", frozen=True):
    to: str


class Attack(Action, tag="attack", frozen=True):
    unit: str
    target: str  # "region", or "realm.unit"


class Pass(Action, tag="pass", frozen=True):
    unit: str  # a unit, or "turn" for the rest of the turn


class Campaign(Action, tag="campaign", frozen=True):
    unit: str


class Spy(Action, tag="spy", frozen=True):
    target: str  # "realm.holder"


class OfferTruce(Action, tag="truce", frozen=True):
    realm: str


class AnswerTruce(Action, tag="answer", frozen=True):
    accept: bool


class Fields(Action, tag="fields", frozen=True):
    fields: tuple[str, str]


class Field(Action, tag="field", frozen=True):
    field: str


class Lineup(Action, tag="lineup", frozen=True):
    cards: tuple[str, str, str]
    marks: tuple[int, ...]  # positions 0–2 that carry a modifier marker


class Withdraw(Action, tag="retreat", frozen=True):
    to: str


class Choose(Action, tag="realm", frozen=True):
    """Before the war: the seat whose choice it is takes one of the realms still free."""

    realm: str


class Bid(Action, tag="bid", frozen=True):
    """Before the war (``realms:auction``): the points a seat gives up to choose its realm early, bid in secret."""

    points: int


class Deputy(Action, tag="deputy", frozen=True):
    """After the game's time limit: Tabula plays the waiting realm until that realm has nothing left to do now
    (its dealing, its turn, its row in a battle); the player has it back the next time it must act."""


AutokratorAction = (Assign | Move | Voyage | Attack | Pass | Campaign | Spy | OfferTruce | AnswerTruce | Fields | Field
                    | Lineup | Withdraw | Choose | Bid | Deputy)


# --- events ------------------------------------------------------------------------------------------


class RealmEvent(Event, frozen=True):
    """Base of the events about one realm: ``realm`` is their first field (in the log too, as it was when each
    event declared it itself)."""

    realm: str


class RealmChosen(Event, tag="chosen", frozen=True):
    seat: int
    realm: str
    bid: int = 0  # the points paid for it (auction)
    last: bool = False  # the last realm, left to the last seat


class BidsOpened(Event, tag="bids", frozen=True):
    bids: tuple[int, ...]  # by seat
    order: tuple[int, ...]  # the seats in the order they choose (ties drawn)


class EpochBegan(Event, tag="epoch", frozen=True):
    epoch: int


class Income(RealmEvent, tag="income", frozen=True):
    gold: int
    treasury: int


class Assigned(RealmEvent, tag="assigned", frozen=True): ...


class TurnBegan(RealmEvent, tag="turn", frozen=True): ...


class Moved(RealmEvent, tag="moved", frozen=True):
    unit: str
    frm: str
    to: str


class Rested(RealmEvent, tag="rested", frozen=True):
    unit: str


class CampaignBegan(RealmEvent, tag="campaign", frozen=True):
    unit: str
    cost: int


class Spied(RealmEvent, tag="spied", frozen=True):
    target: str
    cost: int


class TruceOffered(RealmEvent, tag="truce-offered", frozen=True):
    to: str


class TruceAnswered(RealmEvent, tag="truce-answered", frozen=True):
    to: str
    accepted: bool


class RaidLaunched(Event, tag="raid", frozen=True):
    source: str
    region: str
    realm: str


class NoRaid(Event, tag="no-raid", frozen=True):
    source: str


class BattleBegan(Event, tag="battle", frozen=True):
    region: str
    attacker: str  # realm ("" neutral)
    attacker_unit: str
    defender: str
    defender_unit: str
    attacker_modifier: int
    defender_modifier: int


class CardsDrawn(Event, tag="drawn", frozen=True):
    stack: str
    count: int


class FieldsChosen(Event, tag="fields", frozen=True):
    fields: tuple[str, ...]


class FieldChosen(Event, tag="field", frozen=True):
    field: str


class CardsLaid(Event, tag="laid", frozen=True):
    side: str  # attacker or defender


class Clash(msgspec.Struct, frozen=True):
    attacker_card: str
    defender_card: str
    attacker_points: int
    defender_points: int
    attacker_mark: int
    defender_mark: int
    winner: str  # attacker, defender or "" (level)


class BattleFought(Event, tag="fought", frozen=True):
    region: str
    field: str
    attacker: str
    attacker_unit: str
    defender: str
    defender_unit: str
    clashes: tuple[Clash, ...]
    swords: tuple[int, int]
    troops: tuple[int, int]
    points: tuple[int, int]
    attacker_won: bool


class LifeLost(RealmEvent, tag="life", frozen=True):
    unit: str
    lives: int


class UnitRemoved(RealmEvent, tag="removed", frozen=True):
    unit: str


class Retreated(RealmEvent, tag="retreated", frozen=True):
    unit: str
    frm: str
    to: str


class Conquered(RealmEvent, tag="conquered", frozen=True):
    """A region taken; ``realm`` is "" when a raid leaves the region neutral."""

    region: str
    former: str
    piece: bool


class Scored(RealmEvent, tag="scored", frozen=True):
    points: int
    score: int
    why: str


class EpochEnded(Event, tag="epoch-ended", frozen=True):
    epoch: int


class GameEnded(Event, tag="ended", frozen=True):
    winner: str
    reason: str


#: Every event the game reports (what ``apply`` returns in its ``Step``).
AutokratorEvent = (
    RealmChosen | BidsOpened | EpochBegan | Income | Assigned | TurnBegan | Moved | Rested | CampaignBegan | Spied
    | TruceOffered | TruceAnswered | RaidLaunched | NoRaid | BattleBegan | CardsDrawn | FieldsChosen | FieldChosen
    | CardsLaid | BattleFought | LifeLost | UnitRemoved | Retreated | Conquered | Scored | EpochEnded | GameEnded
)
